// Gate lists compiled to machine code at run time.
//
// bem::compiled_circuit needs its circuit at compile time; a BEM finds its
// experts at run time, and bem::gate_list's interpreter pays for decoding its
// program on every evaluation (about 1.5 TSC ticks per gate at W = 256,
// against 0.4 for the compile-time form: docs/circuits.md). `jit_circuit`
// generates x86-64 code for a gate list when it is first evaluated on a word
// type, so a circuit known only at run time runs as straight-line vector
// code with its values in registers.
//
// Pipeline (detail::jit_*), per gate list:
//   1. luts (bem/circuits/lut.hpp): every live gate a function of at most 3
//      nodes; for AVX-512 any gate read only by one other is fused into it
//      whenever the two read at most 3 nodes together (one vpternlogq does
//      any such function); for AVX2 each gate is lowered to AND, OR, XOR,
//      ANDN and NOT (a ternary by Shannon expansion on its cheapest
//      variable);
//   2. three orders of the operations (the list's, and two depth-first
//      post-orders from the outputs), each register-allocated, and the one
//      with the fewest memory operations kept;
//   3. register allocation in one pass, evicting the value whose next use is
//      furthest away (Belady): a value evicted with uses left is stored once
//      to its scratch word, inputs are read where they are, and a value not
//      in a register is read as the instruction's memory operand where the
//      encoding allows one (bem/circuits/jit_register_allocation.hpp, with
//      the program representation and the orders of step 2);
//   4. emission: per evaluation one pass over words of S bytes in chunks of
//      one vector (zmm, ymm, xmm, or 64 bits with vmovq); outputs are stored
//      as soon as they are computed.
// Back ends: AVX-512 (F + VL: 32 registers, vpternlogq) and AVX2 (16
// registers, one holding all ones), chosen from CPUID at run time, so a
// portable build runs AVX-512 code where the CPU has it. Elsewhere (another
// architecture, a CPU without AVX2, a word type that is not 64-bit words,
// executable memory refused) `evaluate` runs the gate list's interpreter;
// `backend()` and `prepare<W>()` say which.
//
// Security: the code is generated only from the gate list's validated
// structure (operation kinds, tables, node numbers), written into fresh
// pages while they are read-write, and made read-execute before it runs;
// no page is ever writable and executable at once.
//
// Cost of generation: 26 / 92 / 223 us for the 2.3 circuits of G = 64 /
// 256 / 512 when repeated, up to 350 us the first time in a process
// (docs/circuits.md; `bench/run expert` prints it).
#pragma once

#include <bem/circuits/circuit.hpp>
#include <bem/circuits/gate.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/jit_register_allocation.hpp>
#include <bem/circuits/jit_x86.hpp>
#include <bem/circuits/lut.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

struct jit_options {
  /// The most capable back end to use: the best this CPU has is taken up to
  /// this one (tests and benches pass avx2 or interpreter to compare).
  jit_backend max_backend = jit_backend::avx512;
};

namespace detail {

/// Appends operations to a program, normalized (bem/circuits/lut.hpp:
/// repeated arguments merged, ignored ones dropped), so that an operation
/// equal to one of its arguments is no operation at all (the argument's
/// value is returned).
class jit_builder {
 public:
  explicit jit_builder(std::size_t n) { p_.n = n; }

  /// The value of lut l: a new operation, or l's argument when l is one.
  std::uint32_t add(lut l) {
    l = normalized(l);
    if (l.k == 1 && l.tt == tt1_identity) return l.leaf[0];
    jit_op op;
    if (l.tt == 0x00 || l.tt == 0xFF) {
      op.k = 0;  // a constant reads nothing
    } else {
      op.k = l.k;
      for (std::size_t j = 0; j < l.k; ++j) op.arg[j] = l.leaf[j];
    }
    op.tt = l.tt;
    p_.ops.push_back(op);
    return static_cast<std::uint32_t>(p_.n + p_.ops.size() - 1);
  }
  std::uint32_t add(std::uint8_t k, std::uint8_t tt, std::uint32_t a, std::uint32_t b = 0) {
    lut l;
    l.k = k;
    l.tt = tt;
    l.leaf[0] = a;
    l.leaf[1] = b;
    return add(l);
  }
  jit_program take(std::vector<std::uint32_t> outputs) {
    p_.outputs = std::move(outputs);
    return std::move(p_);
  }

 private:
  jit_program p_;
};

// ---- lowering to AND, OR, XOR, ANDN, NOT (the AVX2 back end) ---------------
// A function of two values x, y as a 4-bit table t, bit (x << 1 | y).
inline constexpr unsigned t2_x = 0xC, t2_y = 0xA;

/// Instructions the function of 2 values takes: 0 for x or y, 1 for a
/// constant, a NOT or one plain operation, 2 for the negation of one.
constexpr int jit_cost2(unsigned t) {
  switch (t & 0xFu) {
    case t2_x: case t2_y: return 0;
    case 0x0: case 0xF: case 0x3: case 0x5: case 0x8: case 0xE: case 0x6: case 0x4: case 0x2: return 1;
    default: return 2;
  }
}

/// The 2-value function t of (x, y), built from plain operations.
inline std::uint32_t jit_emit2(jit_builder& b, unsigned t, std::uint32_t x, std::uint32_t y) {
  switch (t & 0xFu) {
    case t2_x: return x;
    case t2_y: return y;
    case 0x0: return b.add(1, 0x00, x);
    case 0xF: return b.add(1, 0xFF, x);
    case 0x3: return b.add(1, tt1_not, x);
    case 0x5: return b.add(1, tt1_not, y);
    case 0x8: return b.add(2, tt2_and, x, y);
    case 0xE: return b.add(2, tt2_or, x, y);
    case 0x6: return b.add(2, tt2_xor, x, y);
    case 0x4: return b.add(2, tt2_andn, x, y);
    case 0x2: return b.add(2, tt2_andn, y, x);
    case 0x7: return b.add(1, tt1_not, b.add(2, tt2_and, x, y));
    case 0x1: return b.add(1, tt1_not, b.add(2, tt2_or, x, y));
    case 0x9: return b.add(1, tt1_not, b.add(2, tt2_xor, x, y));
    case 0xD: return b.add(1, tt1_not, b.add(2, tt2_andn, y, x));  // x | ~y = ~(~x & y)
    default: return b.add(1, tt1_not, b.add(2, tt2_andn, x, y));   // 0xB: ~x | y = ~(x & ~y)
  }
}

/// A Shannon expansion of a 3-input table on one of its slots.
struct jit_shannon {
  int cost = 1 << 20;
  int pivot = 0, form = 0;
  unsigned f0 = 0, f1 = 0;  // cofactors over the other two slots, in order
};

/// The cheapest expansion of table tt (over slots 0, 1, 2): f = p ? f1 : f0
/// with f0, f1 functions of the other two slots, as
///   0: p & f1 (f0 = 0)       1: f0 & ~p (f1 = 0)      2: p | f0 (f1 = 1)
///   3: ~(p & ~f1) (f0 = 1)   4: p ^ f0 (f1 = ~f0)     5: f0 ^ (p & (f0 ^ f1))
///   6: (p & f1) | (f0 & ~p)
constexpr jit_shannon jit_best_shannon(std::uint8_t tt) {
  jit_shannon best;
  for (int p = 0; p < 3; ++p) {
    const int q = p == 0 ? 1 : 0, r = p == 2 ? 1 : 2;
    unsigned f0 = 0, f1 = 0;
    for (unsigned xq = 0; xq < 2; ++xq)
      for (unsigned xr = 0; xr < 2; ++xr) {
        const unsigned base = (xq << (2 - q)) | (xr << (2 - r)), bit = (xq << 1) | xr;
        f0 |= ((tt >> base) & 1u) << bit;
        f1 |= ((tt >> (base | (1u << (2 - p)))) & 1u) << bit;
      }
    const int c0 = jit_cost2(f0), c1 = jit_cost2(f1);
    const int costs[7] = {f0 == 0x0 ? c1 + 1 : 1 << 20,
                          f1 == 0x0 ? c0 + 1 : 1 << 20,
                          f1 == 0xF ? c0 + 1 : 1 << 20,
                          f0 == 0xF ? c1 + 2 : 1 << 20,
                          (f0 ^ f1) == 0xF ? c0 + 1 : 1 << 20,
                          c0 + jit_cost2(f0 ^ f1) + 2,
                          c0 + c1 + 3};
    for (int form = 0; form < 7; ++form)
      if (costs[form] < best.cost) best = {costs[form], p, form, f0, f1};
  }
  return best;
}

/// Table tt of (a, b, c) built from plain operations.
inline std::uint32_t jit_emit3(jit_builder& b, std::uint8_t tt, const std::uint32_t* v) {
  const jit_shannon s = jit_best_shannon(tt);
  const std::uint32_t p = v[s.pivot], x = v[s.pivot == 0 ? 1 : 0], y = v[s.pivot == 2 ? 1 : 2];
  switch (s.form) {
    case 0: return b.add(2, tt2_and, p, jit_emit2(b, s.f1, x, y));
    case 1: return b.add(2, tt2_andn, jit_emit2(b, s.f0, x, y), p);
    case 2: return b.add(2, tt2_or, p, jit_emit2(b, s.f0, x, y));
    case 3: return b.add(1, tt1_not, b.add(2, tt2_andn, p, jit_emit2(b, s.f1, x, y)));
    case 4: return b.add(2, tt2_xor, p, jit_emit2(b, s.f0, x, y));
    case 5: {
      const std::uint32_t f0 = jit_emit2(b, s.f0, x, y);
      return b.add(2, tt2_xor, f0, b.add(2, tt2_and, p, jit_emit2(b, s.f0 ^ s.f1, x, y)));
    }
    default:
      return b.add(2, tt2_or, b.add(2, tt2_and, p, jit_emit2(b, s.f1, x, y)),
                   b.add(2, tt2_andn, jit_emit2(b, s.f0, x, y), p));
  }
}

/// The program of a gate list for a back end: its live luts, fused where
/// one vpternlogq evaluates the result (AVX-512) or lowered to plain
/// operations (AVX2).
inline jit_program jit_program_of(const gate_list& list, jit_backend backend) {
  const std::size_t n = list.inputs(), g = list.gate_count();
  lut_graph graph = lut_graph_of(n, list.gates(), list.output_nodes());
  if (backend == jit_backend::avx512) fuse_single_readers(graph, [](const lut&) { return true; });
  // Live luts: reached from the outputs through luts not absorbed.
  std::vector<bool> live(n + g, false);
  for (auto o : list.output_nodes()) live[o] = true;
  for (std::size_t i = g; i-- > 0;)
    if (live[n + i] && !graph.absorbed[i])
      for (std::size_t q = 0; q < graph.luts[i].k; ++q) live[graph.luts[i].leaf[q]] = true;
  jit_builder b(n);
  std::vector<std::uint32_t> value(n + g, 0);
  for (std::size_t i = 0; i < n; ++i) value[i] = static_cast<std::uint32_t>(i);
  for (std::size_t i = 0; i < g; ++i) {
    if (!live[n + i] || graph.absorbed[i]) continue;
    lut l = graph.luts[i];
    for (std::size_t q = 0; q < l.k; ++q) l.leaf[q] = value[l.leaf[q]];
    if (backend == jit_backend::avx512) {
      value[n + i] = b.add(l);
      continue;
    }
    // AVX2: lowered to plain operations.
    const lut m = normalized(l);
    if (m.tt == 0x00 || m.tt == 0xFF || m.k == 1) {
      value[n + i] = b.add(m);  // constant, identity or NOT
    } else if (m.k == 2) {
      value[n + i] = jit_emit2(b, table2_bits(m.tt), m.leaf[0], m.leaf[1]);
    } else {
      value[n + i] = jit_emit3(b, m.tt, m.leaf);
    }
  }
  std::vector<std::uint32_t> outputs;
  for (auto o : list.output_nodes()) outputs.push_back(value[o]);
  return b.take(std::move(outputs));
}

// ---- encoding ----------------------------------------------------------------

/// Bytes per vector instruction of the code for words of `word_bytes`
/// bytes: the widest register of the back end that divides the word.
constexpr std::size_t jit_chunk_bytes(jit_backend backend, std::size_t word_bytes) noexcept {
  const std::size_t widest = backend == jit_backend::avx512 ? 64 : 32;
  std::size_t chunk = 8;
  while (2 * chunk <= widest && word_bytes % (2 * chunk) == 0) chunk *= 2;
  return chunk;
}

/// Machine code for words of `word_bytes` bytes: fn(in, out, scratch).
inline std::vector<std::uint8_t> jit_encode(const jit_program& p, jit_backend backend, std::size_t word_bytes) {
  const bool evex = backend == jit_backend::avx512;
  const std::size_t chunk = jit_chunk_bytes(backend, word_bytes);
  jit_target t;
  t.ternlog = evex;
  t.registers = evex ? 32 : 16;
  t.ones_reg = 15;
  t.memory_operands = chunk >= 16;
  const jit_allocation a = jit_allocate(p, t);

  const unsigned l = chunk == 64 ? 2 : chunk == 32 ? 1 : 0;
  const unsigned n_scale = static_cast<unsigned>(chunk);
  x86_assembler as;
  auto base_of = [](jit_area area) {
    return area == jit_area::in ? x86_gpr::rdi : area == jit_area::out ? x86_gpr::rsi : x86_gpr::rdx;
  };
  auto mem_of = [&](const jit_insn& i) {
    return x86_rm::m({base_of(i.area), static_cast<std::int32_t>(i.word * word_bytes)});
  };
  auto rm_of = [&](const jit_insn& i) { return i.mem ? mem_of(i) : x86_rm::r(i.src2); };
  constexpr auto m0f = x86_map::m0f;
  constexpr auto p66 = x86_pp::p66, pf3 = x86_pp::pf3;
  auto op2 = [&](std::uint8_t opcode, std::uint8_t dst, std::uint8_t src1, const x86_rm& rm) {
    if (evex)
      as.evex(m0f, p66, opcode, l, dst, src1, rm, n_scale);
    else
      as.vex(m0f, p66, opcode, l, dst, src1, rm);
  };

  as.endbr64();
  if (!evex) op2(0x76, t.ones_reg, t.ones_reg, x86_rm::r(t.ones_reg));  // vpcmpeqd: all ones
  const std::size_t chunks = word_bytes / chunk;
  if (chunks > 1) as.mov_ecx(static_cast<std::uint32_t>(chunks));
  const std::size_t loop = as.size();
  for (const jit_insn& i : a.code) {
    switch (i.kind) {
      case jit_kind::load:
        if (chunk == 8) {
          if (evex) as.evex(m0f, pf3, 0x7E, 0, i.dst, 0, mem_of(i), 8);  // vmovq xmm, m64
          else as.vex(m0f, pf3, 0x7E, 0, i.dst, 0, mem_of(i));
        } else {
          if (evex) as.evex(m0f, pf3, 0x6F, l, i.dst, 0, mem_of(i), n_scale);  // vmovdqu64
          else as.vex(m0f, pf3, 0x6F, l, i.dst, 0, mem_of(i));                  // vmovdqu
        }
        break;
      case jit_kind::store:
        if (chunk == 8) {
          if (evex) as.evex(m0f, p66, 0xD6, 0, i.src1, 0, mem_of(i), 8);  // vmovq m64, xmm
          else as.vex(m0f, p66, 0xD6, 0, i.src1, 0, mem_of(i));
        } else {
          if (evex) as.evex(m0f, pf3, 0x7F, l, i.src1, 0, mem_of(i), n_scale);
          else as.vex(m0f, pf3, 0x7F, l, i.src1, 0, mem_of(i));
        }
        break;
      case jit_kind::copy: op2(0x6F, i.dst, 0, x86_rm::r(i.src2)); break;  // vmovdqa(64)
      case jit_kind::and_: op2(0xDB, i.dst, i.src1, rm_of(i)); break;
      case jit_kind::or_: op2(0xEB, i.dst, i.src1, rm_of(i)); break;
      case jit_kind::xor_: op2(0xEF, i.dst, i.src1, rm_of(i)); break;
      case jit_kind::andn: op2(0xDF, i.dst, i.src1, rm_of(i)); break;
      case jit_kind::zero: op2(0xEF, i.dst, i.dst, x86_rm::r(i.dst)); break;  // vpxor: zero idiom
      case jit_kind::ones:
        if (evex) {
          as.evex(x86_map::m0f3a, p66, 0x25, l, i.dst, i.dst, x86_rm::r(i.dst), n_scale);
          as.imm8(0xFF);
        } else {
          op2(0x76, i.dst, i.dst, x86_rm::r(i.dst));
        }
        break;
      case jit_kind::ternlog:
        as.evex(x86_map::m0f3a, p66, 0x25, l, i.dst, i.src1, rm_of(i), n_scale);
        as.imm8(i.imm);
        break;
    }
  }
  if (chunks > 1) {
    as.add_imm8(x86_gpr::rdi, static_cast<std::int8_t>(chunk));
    as.add_imm8(x86_gpr::rsi, static_cast<std::int8_t>(chunk));
    as.add_imm8(x86_gpr::rdx, static_cast<std::int8_t>(chunk));
    as.dec_ecx();
    as.jnz_back(loop);
  }
  as.vzeroupper();
  as.ret();
  return as.bytes();
}

/// Generated code for one word size (fn null: the system refused
/// executable memory, and words of this size run the interpreter).
struct jit_code {
  std::size_t word_bytes = 0;
  executable_code code;
  void (*fn)(const void*, void*, void*) = nullptr;
};

/// What copies of a jit_circuit share: the list, its program, and the code
/// generated so far (at most 8 word sizes), published with release stores.
struct jit_state {
  gate_list list;
  jit_backend backend = jit_backend::interpreter;
  jit_program program;
  std::mutex generating;
  std::array<std::atomic<const jit_code*>, 8> codes{};
  std::vector<std::unique_ptr<jit_code>> owned;
};

}  // namespace detail

/// A gate list with code generated for it at run time (see the header
/// comment): the same function as the list, on every word type.
///
/// Copies share the list, the program and the code generated so far (all
/// immutable once made), so copying is cheap; a move is a copy, so a
/// moved-from circuit still works. evaluate may be called from several
/// threads at once, also for the first time on a word type.
class jit_circuit {
 public:
  using circuit_representation_concept = circuit_representation_t;
  static constexpr const char* representation_name = "jit_circuit";  ///< for records (§6.1)
  /// evaluate takes `in` as the first n words of `scratch` (read in place).
  static constexpr bool inputs_in_place = true;

  jit_circuit() : jit_circuit(gate_list{}) {}
  explicit jit_circuit(gate_list list, jit_options options = {}) : s_(std::make_shared<detail::jit_state>()) {
    s_->list = std::move(list);
    s_->backend = std::min(best_jit_backend(), options.max_backend);
    if (s_->backend != jit_backend::interpreter) s_->program = detail::jit_program_of(s_->list, s_->backend);
  }
  jit_circuit(const jit_circuit&) = default;
  jit_circuit& operator=(const jit_circuit&) = default;

  std::size_t inputs() const noexcept { return s_->list.inputs(); }
  std::size_t outputs() const noexcept { return s_->list.outputs(); }
  /// G: every gate of the list.
  std::size_t gate_count() const noexcept { return s_->list.gate_count(); }
  std::size_t live_gates() const { return s_->list.live_gates(); }
  /// n words (the inputs, when in place) and one per operation of the
  /// program (where evicted values go), at least the list's own.
  std::size_t scratch_size() const noexcept {
    return std::max(s_->list.scratch_size(), s_->list.inputs() + s_->program.ops.size());
  }
  const gate_list& source() const noexcept { return s_->list; }
  /// The back end chosen from this CPU and the options (interpreter: none).
  jit_backend backend() const noexcept { return s_->backend; }
  /// Operations of the generated program (after fusion or lowering; 0 for
  /// the interpreter).
  std::size_t op_count() const noexcept { return s_->program.ops.size(); }

  /// Generates the code for words of type W now (evaluate does it on first
  /// use); true when W runs generated code, false when it runs the
  /// interpreter: no back end, a word type that is not 64-bit words, or
  /// executable memory refused by the system.
  template <bit_sliced_word W>
  bool prepare() const {
    return code_for<W>() != nullptr;
  }
  /// Bytes of machine code for W (0 when W runs the interpreter).
  template <bit_sliced_word W>
  std::size_t code_bytes() const {
    const detail::jit_code* c = code_for<W>();
    return c ? c->code.code_bytes() : 0;
  }
  /// Bits per vector instruction of the code for W (64: vmovq and scalar
  /// words; 0 when W runs the interpreter).
  template <bit_sliced_word W>
  std::size_t vector_bits() const {
    return code_for<W>() ? 8 * detail::jit_chunk_bytes(s_->backend, sizeof(W)) : 0;
  }

  /// Evaluates the circuit. `out` must not overlap `in` or `scratch`
  /// (outputs are stored as soon as they are computed; std::invalid_argument
  /// otherwise); `in` may be scratch's first n words.
  template <bit_sliced_word W>
  void evaluate(std::span<const W> in, std::span<W> out, std::span<W> scratch) const {
    detail::check_circuit_spans("jit_circuit", inputs(), outputs(), scratch_size(), in.size(), out.size(),
                                scratch.size());
    // Checked on the interpreter's path too, so that a call is accepted or
    // refused alike on every machine.
    const auto overlap = [](const void* a, std::size_t an, const void* b, std::size_t bn) {
      const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
      return an != 0 && bn != 0 && x < y + bn && y < x + an;
    };
    if (overlap(out.data(), out.size_bytes(), in.data(), in.size_bytes()) ||
        overlap(out.data(), out.size_bytes(), scratch.data(), scratch.size_bytes()))
      throw std::invalid_argument("jit_circuit: evaluate's out overlaps in or scratch");
    const detail::jit_code* c = code_for<W>();
    if (!c) {
      s_->list.evaluate(in, out, scratch.first(s_->list.scratch_size()));
      return;
    }
    c->fn(in.data(), out.data(), scratch.data());
  }
  template <bit_sliced_word W>
  void evaluate(std::span<const W> in, std::span<W> out) const {
    std::vector<W> scratch(scratch_size());
    evaluate(in, out, std::span<W>(scratch));
  }

 private:
  /// The code for W, generated on first use; null where W runs the
  /// interpreter.
  template <bit_sliced_word W>
  const detail::jit_code* code_for() const {
    if constexpr (!detail::gate_list_raw<W>::value) {
      return nullptr;
    } else {
      if (s_->backend == jit_backend::interpreter) return nullptr;
      constexpr std::size_t bytes = sizeof(W);
      for (const auto& slot : s_->codes) {
        const detail::jit_code* c = slot.load(std::memory_order_acquire);
        if (!c) break;
        if (c->word_bytes == bytes) return c->fn ? c : nullptr;
      }
      return generate(bytes);
    }
  }
  /// Generates and publishes the code for words of `bytes` bytes, or an
  /// entry without code where the system refuses executable memory (so the
  /// interpreter runs and generation is not tried again); null when there
  /// is no code.
  const detail::jit_code* generate(std::size_t bytes) const {
    std::lock_guard<std::mutex> lock(s_->generating);
    std::size_t free_slot = s_->codes.size();
    for (std::size_t i = 0; i < s_->codes.size(); ++i) {
      const detail::jit_code* c = s_->codes[i].load(std::memory_order_relaxed);
      if (!c) {
        free_slot = i;
        break;
      }
      if (c->word_bytes == bytes) return c->fn ? c : nullptr;
    }
    // Byte offsets must fit a 32-bit displacement; at most 8 word sizes.
    const std::size_t words = std::max(scratch_size(), std::max(inputs(), outputs()));
    if (free_slot == s_->codes.size() || words > (std::size_t{1} << 30) / bytes) return nullptr;
    auto code = std::make_unique<detail::jit_code>();
    code->word_bytes = bytes;
    try {
      code->code = detail::executable_code(detail::jit_encode(s_->program, s_->backend, bytes));
      code->fn = reinterpret_cast<void (*)(const void*, void*, void*)>(const_cast<void*>(code->code.address()));
    } catch (const std::runtime_error&) {
      code->fn = nullptr;  // mmap or mprotect refused: the interpreter runs
    }
    const detail::jit_code* c = code.get();
    s_->owned.push_back(std::move(code));
    s_->codes[free_slot].store(c, std::memory_order_release);
    return c->fn ? c : nullptr;
  }

  std::shared_ptr<detail::jit_state> s_;
};

BEM_NAMESPACE_END
