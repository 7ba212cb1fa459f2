// One gate of a gate list: its operations, the 8-bit truth tables of
// ternary gates (vpternlog convention) and their evaluation on any word.
// The vocabulary shared by bem::gate_list, its luts (bem/circuits/lut.hpp),
// compiled circuits and the run-time code generator.
#pragma once

#include <bem/circuits/circuit.hpp>
#include <bem/version.hpp>

#include <cstdint>

BEM_NAMESPACE_BEGIN

/// The operations of a gate list.
enum class gate_op : std::uint8_t {
  and_ = 0,  ///< a & b
  or_ = 1,   ///< a | b
  xor_ = 2,  ///< a ^ b
  not_ = 3,  ///< ~a
  andn = 4,  ///< a & ~b
  ternary = 5,  ///< truth table tt over (a, b, c)
};

/// Number of operands of an operation.
constexpr int gate_arity(gate_op op) noexcept {
  return op == gate_op::not_ ? 1 : op == gate_op::ternary ? 3 : 2;
}

/// One gate: operation, truth table (ternary only, else 0), operand nodes
/// (unused operands are 0).
struct gate {
  gate_op op = gate_op::and_;
  std::uint8_t tt = 0;
  std::uint32_t a = 0, b = 0, c = 0;
  friend constexpr bool operator==(const gate&, const gate&) = default;
};

/// Well-known truth tables of ternary gates.
namespace ternary_tt {
inline constexpr std::uint8_t mux = 0xCA;       ///< a ? b : c
inline constexpr std::uint8_t majority = 0xE8;  ///< at least two of a, b, c
inline constexpr std::uint8_t xor3 = 0x96;      ///< a ^ b ^ c
inline constexpr std::uint8_t and3 = 0x80;      ///< a & b & c
inline constexpr std::uint8_t or3 = 0xFE;       ///< a | b | c
}  // namespace ternary_tt

/// The algebraic normal form of an 8-bit truth table: bit S (S a subset of
/// {a = 4, b = 2, c = 1}) is the coefficient of the product of S's
/// variables (bit 0: the constant). Its own inverse (the Moebius transform).
constexpr std::uint8_t ternary_anf(std::uint8_t tt) noexcept {
  unsigned f = tt;
  for (unsigned bit = 1; bit < 8; bit <<= 1)
    for (unsigned s = 0; s < 8; ++s)
      if (s & bit) f ^= ((f >> (s ^ bit)) & 1u) << s;
  return static_cast<std::uint8_t>(f);
}

/// A ternary gate of any truth table from its ANF coefficients (`anf` as
/// from ternary_anf): an XOR of the products of a, b, c that appear.
template <bit_sliced_word W>
constexpr W ternary_by_anf(std::uint8_t anf, const W& a, const W& b, const W& c) {
  W r = zero_word<W>();
  if (anf & 0x01) r = ~r;
  if (anf & 0x02) r = r ^ c;
  if (anf & 0x04) r = r ^ b;
  if (anf & 0x08) r = r ^ (b & c);
  if (anf & 0x10) r = r ^ a;
  if (anf & 0x20) r = r ^ (a & c);
  if (anf & 0x40) r = r ^ (a & b);
  if (anf & 0x80) r = r ^ (a & b & c);
  return r;
}

/// A ternary gate: the common tables by their formulas, any other by its ANF.
template <bit_sliced_word W>
constexpr W apply_ternary(std::uint8_t tt, const W& a, const W& b, const W& c) {
  switch (tt) {
    case ternary_tt::mux: return (a & b) | (~a & c);
    case ternary_tt::majority: return (a & b) | (c & (a | b));
    case ternary_tt::xor3: return a ^ b ^ c;
    case ternary_tt::and3: return a & b & c;
    case ternary_tt::or3: return a | b | c;
    default: return ternary_by_anf(ternary_anf(tt), a, b, c);
  }
}

/// One gate applied to its operand values.
template <bit_sliced_word W>
constexpr W apply_gate(gate_op op, std::uint8_t tt, const W& a, const W& b, const W& c) {
  switch (op) {
    case gate_op::and_: return a & b;
    case gate_op::or_: return a | b;
    case gate_op::xor_: return a ^ b;
    case gate_op::not_: return ~a;
    case gate_op::andn: return a & ~b;
    case gate_op::ternary: return apply_ternary(tt, a, b, c);
  }
  return a;
}

BEM_NAMESPACE_END
