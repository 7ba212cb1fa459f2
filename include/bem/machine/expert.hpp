// Experts and the expert batch (BEM_EXPERT_BATCH).
//
// An expert i (REFERENCE.md section 1) reads x = R_i(s, M) (n_i bits),
// computes y = C_i(x) (m_i bits) with its circuit, and writes (s, M) =
// W_i(s, M, y). Here:
//   - STATE s is bit-sliced: `state[k]` is a word whose lane l is lane l's
//     state bit k. SHARED bits M are not bit-sliced: `shared` is a span of
//     64-bit words, bit k of M being bit k % 64 of shared[k / 64].
//   - The read spec lists, for each circuit input j, where x_j comes from:
//     a state bit (the word state[index], lane by lane) or a shared bit
//     (the same value broadcast to every lane).
//   - The write spec lists, for each circuit output k, the state bit y_k
//     goes to and how: overwrite (s = y) or xor (s ^= y). Writes to SHARED
//     are not bit-sliced and belong to the caller (a checksum, for example).
//   - Order: every input is gathered before any output is written, so an
//     expert that writes a bit it reads reads the old value; outputs are
//     then written in order k = 0, 1, ..., m - 1, so two outputs naming one
//     state bit compose (an overwrite replaces what earlier outputs wrote
//     there, an xor adds to it).
//   - Statistics: visits and wins, the numbers UCB routing reads.
//
// Lane schemes (expert_batch): one expert for all lanes (`apply_all`); one
// expert per lane group (`apply_masked` with one mask per group); one expert
// per lane (`apply_masked` with one single-lane mask per lane: W circuit
// evaluations per step, the rare and costly case). A masked application
// evaluates the expert on the whole word and keeps its writes only where the
// mask is set: s = blend(mask, new, old) = (mask & new) | (~mask & old).
// Law: with pairwise disjoint masks, lane l of the result equals lane l of
// applying, alone, the expert whose mask contains l (bit-sliced evaluation
// is lane-independent, and a masked write leaves other lanes unchanged),
// also where two experts write the same state bit; a lane in no mask is
// unchanged. The masks are the caller's (bem::machine gives group g of k
// the lanes [g W / k, (g + 1) W / k), every lane also where k does not
// divide W), and nothing checks that they are disjoint: overlapping masks
// compose in order, experts[g] applying to the state experts[0..g) left, so
// a lane in masks g < h gets experts[h] applied to experts[g]'s result.
#pragma once

#include <bem/circuits/circuit.hpp>
#include <bem/machine/identifier.hpp>
#include <bem/version.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

/// Where one input bit of an expert comes from.
struct read_bit {
  enum class source : std::uint8_t { state, shared };
  source from = source::state;
  std::uint32_t index = 0;  ///< state bit (word index) or shared bit
  friend bool operator==(const read_bit&, const read_bit&) = default;
};

/// R_i: one read_bit per circuit input.
struct read_spec {
  std::vector<read_bit> bits;
};

/// Where one output bit of an expert goes.
struct write_bit {
  enum class mode : std::uint8_t { overwrite, xor_into };
  std::uint32_t state_index = 0;
  mode how = mode::overwrite;
  friend bool operator==(const write_bit&, const write_bit&) = default;
};

/// W_i: one write_bit per circuit output.
struct write_spec {
  std::vector<write_bit> bits;
};

/// Visits and wins (the UCB1 statistics of an expert).
struct expert_stats {
  std::uint64_t visits = 0;
  std::uint64_t wins = 0;
};

namespace detail {
/// BIT-ALU blend for any word: lanes of `a` where `mask` is set, of `b` elsewhere.
template <bit_sliced_word W>
constexpr W blend_any(const W& mask, const W& a, const W& b) {
  return (mask & a) | (~mask & b);
}
}  // namespace detail

/// An expert over circuit representation C.
template <class C>
class expert {
 public:
  /// Checks that the read spec has one bit per circuit input and the write
  /// spec one per output; throws std::invalid_argument otherwise.
  expert(identifier id, read_spec read, C circuit, write_spec write)
      : id_(id), read_(std::move(read)), circuit_(std::move(circuit)), write_(std::move(write)) {
    if (read_.bits.size() != circuit_.inputs() || write_.bits.size() != circuit_.outputs())
      throw std::invalid_argument("expert: the read spec has " + std::to_string(read_.bits.size()) +
                                  " bits and the write spec " + std::to_string(write_.bits.size()) +
                                  "; the circuit has " + std::to_string(circuit_.inputs()) + " inputs and " +
                                  std::to_string(circuit_.outputs()) + " outputs");
  }

  /// Throws std::out_of_range (naming the spec, the bit and its index) unless
  /// every state bit read or written is below `state_bits` and every shared
  /// bit read below `shared_bits`. compute and apply index without checks
  /// (they are the hot path), so whoever owns the state checks once here.
  void check_fits(std::size_t state_bits, std::size_t shared_bits) const {
    for (std::size_t j = 0; j < read_.bits.size(); ++j) {
      const read_bit& r = read_.bits[j];
      const bool state = r.from == read_bit::source::state;
      if (r.index >= (state ? state_bits : shared_bits))
        throw std::out_of_range("expert: read bit " + std::to_string(j) + " reads " + (state ? "state" : "shared") +
                                " bit " + std::to_string(r.index) + ", but there are " +
                                std::to_string(state ? state_bits : shared_bits));
    }
    for (std::size_t k = 0; k < write_.bits.size(); ++k)
      if (write_.bits[k].state_index >= state_bits)
        throw std::out_of_range("expert: write bit " + std::to_string(k) + " writes state bit " +
                                std::to_string(write_.bits[k].state_index) + ", but there are " +
                                std::to_string(state_bits));
  }

  identifier id() const noexcept { return id_; }
  const read_spec& reads() const noexcept { return read_; }
  const write_spec& writes() const noexcept { return write_; }
  const C& circuit() const noexcept { return circuit_; }
  const expert_stats& stats() const noexcept { return stats_; }
  /// Counts a visit, and a win when `won`.
  void record(bool won) noexcept {
    ++stats_.visits;
    stats_.wins += won ? 1 : 0;
  }

  /// Words of scratch one application needs: y, and x beside the
  /// circuit's own scratch (or as its first n words, for a circuit that
  /// reads its inputs in place: detail::circuit_inputs_in_place).
  std::size_t scratch_size() const noexcept {
    return (in_place ? 0 : circuit_.inputs()) + circuit_.outputs() + circuit_.scratch_size();
  }

  /// Gathers x from state and shared (into scratch), evaluates y.
  template <bit_sliced_word W>
  std::span<const W> compute(std::span<const W> state, std::span<const std::uint64_t> shared,
                             std::span<W> scratch) const {
    static_assert(assert_circuit_representation<C, W>());
    const std::size_t n = circuit_.inputs(), m = circuit_.outputs();
    if (scratch.size() < scratch_size())
      throw std::invalid_argument("expert: scratch has " + std::to_string(scratch.size()) + " words, needs " +
                                  std::to_string(scratch_size()));
    // Layout: [y | circuit scratch, x its first n words] for a circuit that
    // reads its inputs in place, else [y | x | circuit scratch].
    const std::span<W> y = scratch.first(m);
    const std::span<W> circuit_scratch = scratch.subspan(in_place ? m : m + n);
    W* const x = in_place ? circuit_scratch.data() : scratch.data() + m;
    // The read spec in locals: stores of words may alias anything (lane
    // words are may_alias vectors), so members would be reloaded per input.
    const read_bit* const reads = read_.bits.data();
    const W* const s = state.data();
    const std::uint64_t* const bits = shared.data();
    const W zero = zero_word<W>(), ones = ~zero;
    for (std::size_t j = 0; j < n; ++j) {
      const read_bit r = reads[j];
      if (r.from == read_bit::source::state)
        x[j] = s[r.index];
      else
        x[j] = ((bits[r.index / 64] >> (r.index % 64)) & 1u) != 0 ? ones : zero;
    }
    circuit_.evaluate(std::span<const W>(x, n), y, circuit_scratch);
    return y;
  }

  /// Applies the expert to every lane.
  template <bit_sliced_word W>
  void apply(std::span<W> state, std::span<const std::uint64_t> shared, std::span<W> scratch) const {
    const std::span<const W> y = compute<W>(state, shared, scratch);
    const write_bit* const writes = write_.bits.data();  // in a local: see compute
    W* const s = state.data();
    for (std::size_t k = 0; k < y.size(); ++k) {
      const write_bit w = writes[k];
      s[w.state_index] = w.how == write_bit::mode::overwrite ? y[k] : s[w.state_index] ^ y[k];
    }
  }

  /// Applies the expert to the lanes set in `mask` only.
  template <bit_sliced_word W>
  void apply_masked(const W& mask, std::span<W> state, std::span<const std::uint64_t> shared,
                    std::span<W> scratch) const {
    const std::span<const W> y = compute<W>(state, shared, scratch);
    const write_bit* const writes = write_.bits.data();  // in a local: see compute
    W* const s = state.data();
    for (std::size_t k = 0; k < y.size(); ++k) {
      const write_bit w = writes[k];
      const W updated = w.how == write_bit::mode::overwrite ? y[k] : s[w.state_index] ^ y[k];
      s[w.state_index] = detail::blend_any(mask, updated, s[w.state_index]);
    }
  }

 private:
  static constexpr bool in_place = detail::circuit_inputs_in_place<C>;

  identifier id_;
  read_spec read_;
  C circuit_;
  write_spec write_;
  expert_stats stats_;
};

/// BEM_EXPERT_BATCH over W-wide words: the three lane schemes, with scratch
/// kept between calls so a step allocates nothing once warm.
template <class C, bit_sliced_word W>
class expert_batch {
 public:
  /// One expert for all lanes.
  void apply_all(const expert<C>& e, std::span<W> state, std::span<const std::uint64_t> shared) {
    e.apply(state, shared, scratch_for(e));
  }
  /// One expert per mask: experts[g] on the lanes of masks[g]. One mask per
  /// lane group is the per-group scheme; one single-lane mask per lane the
  /// per-lane scheme. Masks should be pairwise disjoint (the law above);
  /// overlapping ones compose in order (the header comment).
  void apply_masked(std::span<const expert<C>* const> experts, std::span<const W> masks, std::span<W> state,
                    std::span<const std::uint64_t> shared) {
    if (experts.size() != masks.size())
      throw std::invalid_argument("expert_batch: " + std::to_string(experts.size()) + " experts but " +
                                  std::to_string(masks.size()) + " masks");
    for (std::size_t g = 0; g < experts.size(); ++g)
      experts[g]->apply_masked(masks[g], state, shared, scratch_for(*experts[g]));
  }

 private:
  std::span<W> scratch_for(const expert<C>& e) {
    if (scratch_.size() < e.scratch_size()) scratch_.resize(e.scratch_size());
    return std::span<W>(scratch_);
  }
  std::vector<W> scratch_;
};

BEM_NAMESPACE_END
