// Register allocation for the JIT's straight-line programs (bem/circuits/jit.hpp).
//
// A program (detail::jit_program) is a list of operations, each a lut of at
// most 3 values (inputs 0..n-1, operation i is value n + i), in topological
// order, and its output values. The allocator turns it into instructions
// over registers and memory words (detail::jit_insn) for a target
// (detail::jit_target: how many registers, vpternlogq or not, whether an
// instruction may read a memory operand):
//   - three orders of the operations are tried (the list's, and two
//     depth-first post-orders from the outputs) and the allocation with the
//     fewest memory operations kept (detail::jit_allocate);
//   - one pass per order, evicting the value whose next use is furthest
//     away (Belady): a value evicted with uses left is stored once to its
//     scratch word, inputs are read where they are, and a value not in a
//     register is read as the instruction's memory operand where the
//     encoding allows one; outputs are stored as soon as they are computed.
// The encoder in jit.hpp turns the instructions into x86-64 code; the
// tests (tests/circuits/jit.cpp) simulate them directly.
#pragma once

#include <bem/circuits/lut.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace detail {

// ---- programs -----------------------------------------------------------------

/// One operation of the program: a lut over values (inputs 0..n-1, operation
/// i is value n + i). k = 0 is a constant (tt 0x00 or 0xFF).
struct jit_op {
  std::uint8_t k = 0, tt = 0;
  std::uint32_t arg[3] = {0, 0, 0};
};

/// The program of one back end: operations in topological order (an
/// operation reads only inputs and earlier operations), output values.
struct jit_program {
  std::size_t n = 0;
  std::vector<jit_op> ops;
  std::vector<std::uint32_t> outputs;
};

/// Tables every back end computes with one plain instruction (detail::tt2_*,
/// bem/circuits/lut.hpp): AND, OR, XOR and the two ANDNs.
constexpr bool jit_is_plain_binary(std::uint8_t tt) {
  return tt == tt2_and || tt == tt2_or || tt == tt2_xor || tt == tt2_andn || tt == tt2_b_andn_a;
}

// ---- orders -----------------------------------------------------------------

/// The operations the outputs depend on, in a depth-first post-order from
/// the outputs in turn; `deepest_first` visits the arguments with the
/// longest chain below them first (fewer values held at once on trees).
inline std::vector<std::uint32_t> jit_depth_first(const jit_program& p, bool deepest_first) {
  const std::size_t n = p.n, m = p.ops.size();
  std::vector<std::uint32_t> depth(m, 0);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t q = 0; q < p.ops[i].k; ++q)
      if (p.ops[i].arg[q] >= n) depth[i] = std::max(depth[i], depth[p.ops[i].arg[q] - n] + 1);
  std::vector<std::uint8_t> state(m, 0);  // 0 new, 1 on the stack, 2 emitted
  std::vector<std::uint32_t> order, stack;
  order.reserve(m);
  for (auto o : p.outputs) {
    if (o < n || state[o - n] != 0) continue;
    stack.push_back(o - static_cast<std::uint32_t>(n));
    while (!stack.empty()) {
      const std::uint32_t i = stack.back();
      if (state[i] == 0) {
        state[i] = 1;
        std::uint32_t args[3];
        std::size_t k = 0;
        for (std::size_t q = 0; q < p.ops[i].k; ++q)
          if (p.ops[i].arg[q] >= n && state[p.ops[i].arg[q] - n] == 0) args[k++] = p.ops[i].arg[q] - static_cast<std::uint32_t>(n);
        if (deepest_first) {  // ascending depth (insertion: at most 3)
          for (std::size_t a = 1; a < k; ++a)
            for (std::size_t b = a; b > 0 && depth[args[b]] < depth[args[b - 1]]; --b) std::swap(args[b], args[b - 1]);
        } else {
          std::reverse(args, args + k);
        }
        for (std::size_t q = 0; q < k; ++q) stack.push_back(args[q]);  // the last pushed is visited first
      } else {
        stack.pop_back();
        if (state[i] == 1) {
          state[i] = 2;
          order.push_back(i);
        }
      }
    }
  }
  return order;
}

/// The operations the outputs depend on, in the program's own order.
inline std::vector<std::uint32_t> jit_list_order(const jit_program& p) {
  const std::size_t n = p.n, m = p.ops.size();
  std::vector<bool> live(m, false);
  for (auto o : p.outputs)
    if (o >= n) live[o - n] = true;
  for (std::size_t i = m; i-- > 0;)
    if (live[i])
      for (std::size_t q = 0; q < p.ops[i].k; ++q)
        if (p.ops[i].arg[q] >= n) live[p.ops[i].arg[q] - n] = true;
  std::vector<std::uint32_t> order;
  for (std::size_t i = 0; i < m; ++i)
    if (live[i]) order.push_back(static_cast<std::uint32_t>(i));
  return order;
}

// ---- register allocation -----------------------------------------------------

/// Instructions of the generated code before encoding: registers and word
/// numbers (a word's byte offset is word * S for words of S bytes).
enum class jit_kind : std::uint8_t {
  load,     ///< dst = [area + word]
  store,    ///< [area + word] = src1
  copy,     ///< dst = src2 (register)
  and_,     ///< dst = src1 & src2
  or_,      ///< dst = src1 | src2
  xor_,     ///< dst = src1 ^ src2
  andn,     ///< dst = ~src1 & src2
  ternlog,  ///< dst = imm(dst, src1, src2) (vpternlogq)
  zero,     ///< dst = 0
  ones,     ///< dst = ~0
};
enum class jit_area : std::uint8_t { in, out, scratch };

struct jit_insn {
  jit_kind kind = jit_kind::load;
  std::uint8_t dst = 0, src1 = 0, src2 = 0;
  bool mem = false;  ///< src2 is [area + word] (load, store: always)
  jit_area area = jit_area::in;
  std::uint32_t word = 0;
  std::uint8_t imm = 0;
};

/// What the allocator may use.
struct jit_target {
  bool ternlog = false;       ///< EVEX: vpternlogq and 32 registers
  unsigned registers = 16;    ///< allocatable vector registers 0..registers-1
  bool memory_operands = true;  ///< false for 64-bit words (a vector operand would read past them)
  std::uint8_t ones_reg = 15;  ///< AVX2: the register holding all ones (NOT is XOR with it)
};

struct jit_allocation {
  std::vector<jit_insn> code;
  std::size_t memory_operations = 0;  ///< loads, stores and memory operands
};

/// Register allocation of program p in `order` for target t (see the file
/// comment). Invariant: every value with uses left is in a register
/// or in memory (inputs in `in`, an evicted operation's value v in scratch
/// word v).
class jit_allocator {
 public:
  jit_allocator(const jit_program& p, const std::vector<std::uint32_t>& order, const jit_target& t)
      : p_(p), t_(t), n_(p.n) {
    const std::size_t values = p.n + p.ops.size();
    reg_val_.assign(t.registers, none);
    score_.assign(t.registers, 0);
    val_reg_.assign(values, no_reg);
    in_memory_.assign(values, 0);
    for (std::size_t i = 0; i < n_; ++i) in_memory_[i] = 1;
    for (unsigned r = 0; r < t.registers; ++r)
      if (t.ternlog || r != t.ones_reg) free_ |= std::uint64_t{1} << r;
    // Uses of each value by position in the order, and the outputs naming
    // it, as flat lists (value v's are [begin[v], begin[v + 1])).
    use_begin_.assign(values + 1, 0);
    for (auto i : order)
      for (std::size_t q = 0; q < p.ops[i].k; ++q) ++use_begin_[p.ops[i].arg[q] + 1];
    for (std::size_t v = 0; v < values; ++v) use_begin_[v + 1] += use_begin_[v];
    use_pos_.resize(use_begin_[values]);
    next_.assign(use_begin_.begin(), use_begin_.end() - 1);
    for (std::size_t pos = 0; pos < order.size(); ++pos) {
      const jit_op& op = p.ops[order[pos]];
      for (std::size_t q = 0; q < op.k; ++q) use_pos_[next_[op.arg[q]]++] = static_cast<std::uint32_t>(pos);
    }
    next_.assign(use_begin_.begin(), use_begin_.end() - 1);
    out_begin_.assign(values + 1, 0);
    for (auto v : p.outputs) ++out_begin_[v + 1];
    for (std::size_t v = 0; v < values; ++v) out_begin_[v + 1] += out_begin_[v];
    out_index_.resize(p.outputs.size());
    std::vector<std::uint32_t> fill(out_begin_.begin(), out_begin_.end() - 1);
    for (std::size_t k = 0; k < p.outputs.size(); ++k) out_index_[fill[p.outputs[k]]++] = static_cast<std::uint32_t>(k);

    // Outputs that are inputs are copied first.
    for (std::uint32_t v = 0; v < n_; ++v)
      if (out_begin_[v] != out_begin_[v + 1]) {
        const std::uint8_t r = in_register(v, no_pins);
        store_outputs(v, r);
        if (next_use(v) == never) release(r);
      }
    for (auto i : order) step(i);
  }

  jit_allocation take() { return std::move(out_); }

 private:
  static constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint32_t never = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint8_t no_reg = 0xFF;
  /// Registers an instruction is reading: not to be evicted for it.
  using pins = std::array<std::uint8_t, 3>;
  static constexpr pins no_pins = {no_reg, no_reg, no_reg};

  /// The position of v's next use (never: none left).
  std::uint32_t next_use(std::uint32_t v) const { return next_[v] < use_begin_[v + 1] ? use_pos_[next_[v]] : never; }
  /// The use after the current one (v is read at the current position).
  std::uint32_t later_use(std::uint32_t v) const {
    return next_[v] + 1 < use_begin_[v + 1] ? use_pos_[next_[v] + 1] : never;
  }
  bool dies_here(std::uint32_t v) const { return later_use(v) == never; }
  bool in_reg(std::uint32_t v) const { return val_reg_[v] != no_reg; }
  jit_area area_of(std::uint32_t v) const { return v < n_ ? jit_area::in : jit_area::scratch; }

  void emit(const jit_insn& i) {
    out_.code.push_back(i);
    if (i.kind == jit_kind::load || i.kind == jit_kind::store || i.mem) ++out_.memory_operations;
  }
  void emit_memory(jit_kind kind, std::uint8_t reg, jit_area area, std::uint32_t word) {
    jit_insn i;
    i.kind = kind;
    (kind == jit_kind::load ? i.dst : i.src1) = reg;
    i.mem = true;
    i.area = area;
    i.word = word;
    emit(i);
  }
  void bind(std::uint8_t r, std::uint32_t v) {
    reg_val_[r] = v;
    val_reg_[v] = r;
    free_ &= ~(std::uint64_t{1} << r);
    rescore(v);
  }
  /// The eviction score of v's register: its next use, then whether it is
  /// already in memory (evicting it then costs no store).
  void rescore(std::uint32_t v) {
    if (in_reg(v)) score_[val_reg_[v]] = (std::uint64_t{next_use(v)} << 1) | (in_memory_[v] ? 1u : 0u);
  }
  void release(std::uint8_t r) {
    if (reg_val_[r] != none) val_reg_[reg_val_[r]] = no_reg;
    reg_val_[r] = none;
    free_ |= std::uint64_t{1} << r;
  }
  /// A free register, evicting one not in `pinned` if none is free: the
  /// value used again last (Belady), at equal distance one already in
  /// memory; a value evicted with uses left and not in memory is stored to
  /// its scratch word (once: it stays in memory).
  std::uint8_t fresh(const pins& pinned) {
    if (free_ != 0) {
      const auto r = static_cast<std::uint8_t>(std::countr_zero(free_));
      free_ &= free_ - 1;
      return r;
    }
    std::uint8_t victim = no_reg;
    std::uint64_t best = 0;
    for (unsigned r = 0; r < t_.registers; ++r) {
      if (reg_val_[r] == none || r == pinned[0] || r == pinned[1] || r == pinned[2]) continue;
      if (victim == no_reg || score_[r] > best) {
        victim = static_cast<std::uint8_t>(r);
        best = score_[r];
      }
    }
    const std::uint32_t v = reg_val_[victim];
    if (!in_memory_[v] && next_use(v) != never) {
      emit_memory(jit_kind::store, victim, jit_area::scratch, v);
      in_memory_[v] = 1;
    }
    release(victim);
    free_ &= ~(std::uint64_t{1} << victim);
    return victim;
  }
  /// v in a register, loaded if needed.
  std::uint8_t in_register(std::uint32_t v, const pins& pinned) {
    if (in_reg(v)) return val_reg_[v];
    const std::uint8_t r = fresh(pinned);
    emit_memory(jit_kind::load, r, area_of(v), v);
    bind(r, v);
    return r;
  }
  void store_outputs(std::uint32_t v, std::uint8_t r) {
    for (std::uint32_t j = out_begin_[v]; j < out_begin_[v + 1]; ++j)
      emit_memory(jit_kind::store, r, jit_area::out, out_index_[j]);
  }
  /// src2 of ins: v's register, else v in memory where the target allows
  /// memory operands, else v loaded.
  void set_src2(jit_insn& ins, std::uint32_t v, const pins& pinned) {
    ins.mem = !in_reg(v) && t_.memory_operands;
    if (ins.mem) {
      ins.area = area_of(v);
      ins.word = v;
    } else {
      ins.src2 = in_register(v, pinned);
    }
  }

  /// Operation i, the next in the order.
  void step(std::uint32_t i) {
    const jit_op& op = p_.ops[i];
    jit_insn ins;
    if (op.k == 0) {
      ins.kind = op.tt == 0 ? jit_kind::zero : jit_kind::ones;
      ins.dst = fresh(no_pins);
    } else if (op.k == 1 && !t_.ternlog) {
      not_step(op, ins);
    } else if (op.k == 2 && jit_is_plain_binary(op.tt)) {
      binary_step(op, ins);
    } else {
      ternlog_step(op, ins);
    }
    emit(ins);
    // The arguments move past this use; those with none left free their
    // registers (dst may be one of them: it now holds the result).
    for (std::size_t q = 0; q < op.k; ++q) {
      const std::uint32_t v = op.arg[q];
      ++next_[v];
      rescore(v);
      if (next_use(v) == never && in_reg(v)) {
        if (val_reg_[v] == ins.dst)
          val_reg_[v] = no_reg;
        else
          release(val_reg_[v]);
      }
    }
    const std::uint32_t result = static_cast<std::uint32_t>(n_ + i);
    bind(ins.dst, result);
    store_outputs(result, ins.dst);
    if (next_use(result) == never) release(ins.dst);
  }

  /// AVX2's NOT: dst = ones ^ a.
  void not_step(const jit_op& op, jit_insn& ins) {
    const std::uint32_t a = op.arg[0];
    ins.kind = jit_kind::xor_;
    ins.src1 = t_.ones_reg;
    set_src2(ins, a, no_pins);
    ins.dst = in_reg(a) && dies_here(a) ? val_reg_[a] : fresh({val_reg_[a], no_reg, no_reg});
  }

  /// dst = src1 OP src2 (src1 a register, src2 a register or memory): dst
  /// is a dying argument's register when there is one.
  void binary_step(const jit_op& op, jit_insn& ins) {
    std::uint32_t s1 = op.arg[0], s2 = op.arg[1];
    if (op.tt == tt2_andn) std::swap(s1, s2);  // a & ~b = ~b & a: src1 is the negated one
    if (op.tt != tt2_andn && op.tt != tt2_b_andn_a) {
      // Commutative: a register argument as src1; of two in memory, the
      // one needed again sooner is loaded.
      if (!in_reg(s1) && (in_reg(s2) || later_use(s2) < later_use(s1))) std::swap(s1, s2);
    }
    const std::uint8_t r1 = in_register(s1, {val_reg_[s2], no_reg, no_reg});
    ins.kind = op.tt == tt2_and ? jit_kind::and_
               : op.tt == tt2_or ? jit_kind::or_
               : op.tt == tt2_xor ? jit_kind::xor_
                                  : jit_kind::andn;
    ins.src1 = r1;
    set_src2(ins, s2, {r1, no_reg, no_reg});
    const std::uint8_t r2 = ins.mem ? no_reg : ins.src2;
    ins.dst = dies_here(s1) ? r1 : (r2 != no_reg && dies_here(s2)) ? r2 : fresh({r1, r2, no_reg});
  }

  /// Any table of 1..3 arguments as one vpternlogq dst, src1, src2, the
  /// table indexed by (dst, src1, src2): dst is overwritten, so it holds an
  /// argument that dies here, or is free when the table has a slot to
  /// spare, or else gets a copy of an argument.
  void ternlog_step(const jit_op& op, jit_insn& ins) {
    const std::size_t k = op.k;
    const std::uint32_t* args = op.arg;
    // The memory operand: of the arguments not in a register, the one
    // needed again last.
    std::size_t mem = k;
    if (t_.memory_operands)
      for (std::size_t q = 0; q < k; ++q)
        if (!in_reg(args[q]) && (mem == k || later_use(args[q]) > later_use(args[mem]))) mem = q;
    // The others in registers (those already there pinned first, so that
    // loading one cannot evict another).
    pins pin = no_pins;
    for (std::size_t q = 0; q < k; ++q) pin[q] = val_reg_[args[q]];
    for (std::size_t q = 0; q < k; ++q)
      if (q != mem) pin[q] = in_register(args[q], pin);
    // Slot of each argument: 0 dst, 1 src1, 2 src2 (-1: none yet).
    int slot_of[3] = {-1, -1, -1};
    std::size_t regs = 0, reg_args[3];
    for (std::size_t q = 0; q < k; ++q)
      if (q != mem) reg_args[regs++] = q;
    std::size_t in_dst = k;  // the argument in dst
    for (std::size_t j = 0; j < regs; ++j)
      if (dies_here(args[reg_args[j]])) in_dst = reg_args[j];
    if (in_dst < k) {
      ins.dst = pin[in_dst];
    } else {
      ins.dst = fresh(pin);
      if (regs == 3 || (regs == 2 && mem < k)) {  // no slot to spare: copy one into dst
        in_dst = reg_args[0];
        jit_insn c;
        c.kind = jit_kind::copy;
        c.dst = ins.dst;
        c.src2 = pin[in_dst];
        emit(c);
      }
    }
    if (in_dst < k) slot_of[in_dst] = 0;
    // src1 must be a register: the next register argument, else dst's own
    // (a repeat of slot 0, or ignored by the table); src2 the memory
    // operand, the last register argument, or a repeat of src1.
    std::size_t src1_arg = k, src2_arg = k;
    for (std::size_t j = 0; j < regs; ++j) {
      const std::size_t q = reg_args[j];
      if (q == in_dst) continue;
      if (src1_arg == k)
        src1_arg = q;
      else
        src2_arg = q;
    }
    ins.src1 = src1_arg < k ? pin[src1_arg] : ins.dst;
    if (src1_arg < k) slot_of[src1_arg] = 1;
    if (mem < k) {
      ins.mem = true;
      ins.area = area_of(args[mem]);
      ins.word = args[mem];
      slot_of[mem] = 2;
    } else {
      ins.mem = false;
      ins.src2 = src2_arg < k ? pin[src2_arg] : ins.src1;
      if (src2_arg < k) slot_of[src2_arg] = 2;
    }
    // The immediate: bit (d << 2 | s1 << 1 | s2) is the table's value with
    // each argument read from its slot (arguments without one are ignored
    // by the table).
    unsigned imm = 0;
    for (unsigned idx = 0; idx < 8; ++idx) {
      bool x[3] = {false, false, false};
      for (std::size_t q = 0; q < k; ++q)
        if (slot_of[q] >= 0) x[q] = ((idx >> (2 - slot_of[q])) & 1u) != 0;
      if (table_value(op.tt, x)) imm |= 1u << idx;
    }
    ins.kind = jit_kind::ternlog;
    ins.imm = static_cast<std::uint8_t>(imm);
  }

  const jit_program& p_;
  jit_target t_;
  std::size_t n_;
  std::vector<std::uint32_t> reg_val_;  // register -> value (none)
  std::vector<std::uint64_t> score_;    // register -> eviction score (see rescore)
  std::vector<std::uint8_t> val_reg_;   // value -> register (no_reg)
  std::vector<std::uint8_t> in_memory_;
  std::uint64_t free_ = 0;              // free registers
  std::vector<std::uint32_t> use_begin_, use_pos_, next_;
  std::vector<std::uint32_t> out_begin_, out_index_;
  jit_allocation out_;
};

/// The allocation with the fewest memory operations over the three orders.
inline jit_allocation jit_allocate(const jit_program& p, const jit_target& t) {
  jit_allocation best;
  bool have = false;
  for (const auto& order : {jit_list_order(p), jit_depth_first(p, false), jit_depth_first(p, true)}) {
    jit_allocation a = jit_allocator(p, order, t).take();
    if (!have || a.memory_operations < best.memory_operations) {
      best = std::move(a);
      have = true;
    }
  }
  return best;
}

}  // namespace detail
BEM_NAMESPACE_END
