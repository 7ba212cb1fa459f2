// The gates of the two memory lines that gen.cpp writes (memory_line_G,
// register_line_G): the interpreter's own kernels (bem::detail::gl_op on
// gate_list_block chunks), so that the lines differ from
// bem::gate_list::evaluate only in having no decoding and no dispatch.
// Nodes are words of 32 bytes (W = 256) in a scratch array v; every gate
// loads its operands from v and stores its result there.
#pragma once

#include <bem/circuits/gate_list.hpp>

#include <cstddef>
#include <cstdint>

namespace expert_bench {

inline constexpr std::size_t line_word_bytes = 32;
using line_block = bem::detail::gate_list_block<line_word_bytes>;

/// Node k of v. Registered = false: the offset is a constant, a
/// displacement in the load instruction. Registered = true: the compiler
/// cannot see through the offset, so it sits in a register (one instruction
/// per operand), as an interpreter's operand addresses do.
template <bool Registered>
[[gnu::always_inline]] inline const char* line_node(const char* v, std::size_t k) {
  std::size_t offset = k * line_word_bytes;
  if constexpr (Registered) asm volatile("" : "+r"(offset));
  return v + offset;
}

template <std::uint8_t TT, bool Registered>
[[gnu::always_inline]] inline void line_gate(char* v, std::size_t out, std::size_t a) {
  const char* x = line_node<Registered>(v, a);
  for (std::size_t i = 0; i < line_word_bytes; i += line_block::bytes)
    line_block::store(v + out * line_word_bytes + i, bem::detail::gl_op<TT>::f(line_block::load(x + i)));
  asm volatile("" ::: "memory");  // the next gate loads its operands again
}

template <std::uint8_t TT, bool Registered>
[[gnu::always_inline]] inline void line_gate(char* v, std::size_t out, std::size_t a, std::size_t b) {
  const char *x = line_node<Registered>(v, a), *y = line_node<Registered>(v, b);
  for (std::size_t i = 0; i < line_word_bytes; i += line_block::bytes)
    line_block::store(v + out * line_word_bytes + i,
                      bem::detail::gl_op<TT>::f(line_block::load(x + i), line_block::load(y + i)));
  asm volatile("" ::: "memory");
}

template <std::uint8_t TT, bool Registered>
[[gnu::always_inline]] inline void line_gate(char* v, std::size_t out, std::size_t a, std::size_t b, std::size_t c) {
  const char *x = line_node<Registered>(v, a), *y = line_node<Registered>(v, b), *z = line_node<Registered>(v, c);
  for (std::size_t i = 0; i < line_word_bytes; i += line_block::bytes)
    line_block::store(v + out * line_word_bytes + i, bem::detail::gl_op<TT>::f(line_block::load(x + i),
                                                                               line_block::load(y + i),
                                                                               line_block::load(z + i)));
  asm volatile("" ::: "memory");
}

/// The copies the interpreter makes: inputs into v, outputs out of it.
[[gnu::always_inline]] inline void line_copy(char* to, const char* from, std::size_t words) {
  for (std::size_t i = 0; i < words * line_word_bytes; i += line_block::bytes)
    line_block::store(to + i, line_block::load(from + i));
}

}  // namespace expert_bench
