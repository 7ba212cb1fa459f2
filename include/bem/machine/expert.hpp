// Experts and the expert batch (BEM_EXPERT_BATCH).
//
// An expert i (REFERENCE.md section 1) reads x = R_i(s, M) (n_i bits),
// computes y = C_i(x) (m_i bits) with its circuit, and writes (s, M, Theta) =
// W_i(s, M, Theta, y). Here:
//   - STATE s is bit-sliced: `state[k]` is a word whose lane l is lane l's
//     state bit k. SHARED bits M are not bit-sliced: bit k of M is bit
//     k % 64 of shared[k / 64]. Theta is a span of Q16.16 parameters.
//   - The read spec lists, for each circuit input j, where x_j comes from:
//     a state bit (the word state[index], lane by lane), a shared bit (the
//     same value broadcast to every lane), or bit `index` of the expert's
//     memory slot (each lane its own slot: the memory port below).
//   - The write spec lists, for each circuit output k, a bounded write
//     descriptor: where y_k goes and how.
//       state          state bit `index`, lane by lane: overwrite (s = y) or
//                      xor (s ^= y);
//       shared         shared bit `index`, one value for all lanes: the
//                      lanes' y_k reduced by `reduce` (any = OR, all = AND,
//                      parity = XOR, lane0 = lane 0's bit), then overwrite
//                      or xor;
//       theta          Theta[index] += popcount(y_k over the lanes) *
//                      theta_step (Q16.16, saturating): a count, e.g. of the
//                      lanes that predicted 1;
//       memory         bit `index` of the lane's memory slot;
//       memory_enable  lanes where y_k is 0 write no memory (without an
//                      enable output every lane writes).
//   - The memory port (optional; HASH-addressed SHARED): lane l's key is the
//     state bits `key_bits` of lane l (key bit j = state bit key_bits[j]);
//     its slot is address = mix64(key ^ salt) mod slots, or, multiplicative,
//     (key * salt) mod slots (memory_port); slot a of lane l
//     holds bits base + (region(l) * slots + a) * slot_bits + j, j <
//     slot_bits, with region(l) = l for a per-lane memory and 0 for one
//     memory shared by all lanes (lanes that write the same slot of a shared
//     memory write in lane order: the highest lane wins).
//   - Order: every input is gathered (memory slots at the keys of the state
//     before the step) before any output is written; outputs are then written
//     in order k = 0, 1, ..., m - 1, so two outputs naming one state or
//     shared bit compose (an overwrite replaces what earlier outputs wrote
//     there, an xor adds to it); memory writes come last.
//   - Statistics: visits and wins, the numbers UCB routing reads.
// Cost: bounded by the expert alone: its gates, n + m word operations, and
// for a memory port W * (key bits + slot bits) bit operations.
//
// Lane schemes (expert_batch): one expert for all lanes (`apply_all`); one
// expert per lane group (`apply_masked` with one mask per group); one expert
// per lane (`apply_masked` with one single-lane mask per lane: W circuit
// evaluations per step, the rare and costly case). A masked application
// evaluates the expert on the whole word and keeps its writes only where the
// mask is set: s = blend(mask, new, old) = (mask & new) | (~mask & old);
// shared reductions, Theta counts and memory writes see only masked lanes.
// Law: with pairwise disjoint masks and experts that write no SHARED, Theta
// or memory, lane l of the result equals lane l of applying, alone, the
// expert whose mask contains l (bit-sliced evaluation is lane-independent,
// and a masked write leaves other lanes unchanged), also where two experts
// write the same state bit; a lane in no mask is unchanged. The masks are
// the caller's (bem::machine gives group g of k the lanes [g W / k,
// (g + 1) W / k), every lane also where k does not divide W), and nothing
// checks that they are disjoint: overlapping masks compose in order,
// experts[g] applying to the state experts[0..g) left, so a lane in masks
// g < h gets experts[h] applied to experts[g]'s result.
#pragma once

#include <bem/circuits/circuit.hpp>
#include <bem/machine/fixed_point.hpp>
#include <bem/machine/identifier.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

/// Where one input bit of an expert comes from.
struct read_bit {
  enum class source : std::uint8_t { state, shared, memory };
  source from = source::state;
  std::uint32_t index = 0;  ///< state bit (word index), shared bit, or bit of the memory slot
  friend bool operator==(const read_bit&, const read_bit&) = default;
};

/// R_i: one read_bit per circuit input.
struct read_spec {
  std::vector<read_bit> bits;
  friend bool operator==(const read_spec&, const read_spec&) = default;
};

/// Where one output bit of an expert goes (the file comment).
struct write_bit {
  enum class mode : std::uint8_t { overwrite, xor_into };
  enum class target : std::uint8_t { state, shared, theta, memory, memory_enable };
  enum class reduction : std::uint8_t { any, all, parity, lane0 };
  std::uint32_t index = 0;  ///< state bit, shared bit, Theta parameter or bit of the memory slot
  mode how = mode::overwrite;
  target to = target::state;
  reduction reduce = reduction::any;  ///< shared targets: how the lanes' bits combine
  std::int32_t theta_step_raw = 0;    ///< theta targets: Q16.16 added per lane whose bit is 1
  friend bool operator==(const write_bit&, const write_bit&) = default;
};

/// W_i: one write_bit per circuit output.
struct write_spec {
  std::vector<write_bit> bits;
  friend bool operator==(const write_spec&, const write_spec&) = default;
};

/// The HASH-addressed SHARED memory an expert may read and write (the file
/// comment); slots == 0: none. Two hashes: `mixed` (mix64(key ^ salt) mod
/// slots: any keys, collisions possible) and `multiplicative` ((key *
/// multiplier) mod slots with an odd multiplier and a power-of-two slot
/// count: a bijection on keys below `slots`, so a dense key space of at
/// most `slots` keys never collides).
struct memory_port {
  enum class hashing : std::uint8_t { mixed, multiplicative };
  std::uint32_t base = 0;       ///< first SHARED bit of the memory
  std::uint32_t slots = 0;      ///< slots per region
  std::uint32_t slot_bits = 0;  ///< bits per slot
  bool per_lane = true;         ///< one region per lane (else one for all lanes)
  std::vector<std::uint32_t> key_bits;  ///< state bits forming a lane's key (at most 64)
  std::uint64_t salt = 0;               ///< mixed: the hash's salt; multiplicative: the (odd) multiplier
  hashing hash = hashing::mixed;
  friend bool operator==(const memory_port&, const memory_port&) = default;

  bool present() const noexcept { return slots != 0; }
  /// SHARED bits the memory spans for `lanes` lanes.
  std::uint64_t span_bits(std::size_t lanes) const noexcept {
    return std::uint64_t{per_lane ? lanes : 1} * slots * slot_bits;
  }
  /// The slot of a key.
  std::uint32_t address(std::uint64_t key) const noexcept {
    if (hash == hashing::multiplicative) return static_cast<std::uint32_t>((key * salt) & (slots - 1));
    return static_cast<std::uint32_t>(mix64(key ^ salt) % slots);
  }
};

/// Visits and wins (the UCB1 statistics of an expert).
struct expert_stats {
  std::uint64_t visits = 0;
  std::uint64_t wins = 0;
  friend bool operator==(const expert_stats&, const expert_stats&) = default;
};

/// SHARED as an expert sees it: the K bits as 64-bit words and Theta.
struct shared_view {
  std::span<std::uint64_t> bits;
  std::span<q16_16> theta;
};

namespace detail {
/// BIT-ALU blend for any word: lanes of `a` where `mask` is set, of `b` elsewhere.
template <bit_sliced_word W>
constexpr W blend_any(const W& mask, const W& a, const W& b) {
  return (mask & a) | (~mask & b);
}
/// The 64-bit words of a word (lanes 64 i .. 64 i + 63 in word i).
template <bit_sliced_word W>
std::span<const std::uint64_t> lane_words(const W& w) noexcept {
  if constexpr (std::is_same_v<W, std::uint64_t>) return {&w, 1};
  else return w.words();
}
template <bit_sliced_word W>
std::span<std::uint64_t> lane_words(W& w) noexcept {
  if constexpr (std::is_same_v<W, std::uint64_t>) return {&w, 1};
  else return w.words();
}
template <bit_sliced_word W>
bool word_lane(const W& w, std::size_t l) noexcept {
  return (lane_words(w)[l / 64] >> (l % 64)) & 1u;
}
template <bit_sliced_word W>
void set_word_lane(W& w, std::size_t l, bool v) noexcept {
  std::uint64_t& x = lane_words(w)[l / 64];
  const std::uint64_t m = std::uint64_t{1} << (l % 64);
  x = v ? (x | m) : (x & ~m);
}
inline bool shared_bit(std::span<const std::uint64_t> m, std::uint64_t i) noexcept { return (m[i / 64] >> (i % 64)) & 1u; }
inline void set_shared_bit(std::span<std::uint64_t> m, std::uint64_t i, bool v) noexcept {
  const std::uint64_t b = std::uint64_t{1} << (i % 64);
  m[i / 64] = v ? (m[i / 64] | b) : (m[i / 64] & ~b);
}
}  // namespace detail

/// An expert over circuit representation C.
template <class C>
class expert {
 public:
  /// Checks that the read spec has one bit per circuit input and the write
  /// spec one per output, and that memory reads and writes come with a
  /// memory port; throws std::invalid_argument otherwise.
  expert(identifier id, read_spec read, C circuit, write_spec write, memory_port memory = {})
      : id_(id), read_(std::move(read)), circuit_(std::move(circuit)), write_(std::move(write)),
        memory_(std::move(memory)) {
    if (read_.bits.size() != circuit_.inputs() || write_.bits.size() != circuit_.outputs())
      throw std::invalid_argument("expert: the read spec has " + std::to_string(read_.bits.size()) +
                                  " bits and the write spec " + std::to_string(write_.bits.size()) +
                                  "; the circuit has " + std::to_string(circuit_.inputs()) + " inputs and " +
                                  std::to_string(circuit_.outputs()) + " outputs");
    for (const auto& r : read_.bits) {
      if (r.from != read_bit::source::memory) continue;
      uses_memory_ = true;
      if (r.index >= memory_.slot_bits)
        throw std::invalid_argument("expert: a memory read of slot bit " + std::to_string(r.index) +
                                    ", but the memory port's slots have " + std::to_string(memory_.slot_bits));
    }
    for (const auto& w : write_.bits) {
      if (w.to != write_bit::target::state) state_only_ = false;
      if (w.to == write_bit::target::memory || w.to == write_bit::target::memory_enable) uses_memory_ = true;
      if (w.to == write_bit::target::memory && w.index >= memory_.slot_bits)
        throw std::invalid_argument("expert: a memory write of slot bit " + std::to_string(w.index) +
                                    ", but the memory port's slots have " + std::to_string(memory_.slot_bits));
    }
    if (uses_memory_ && !memory_.present())
      throw std::invalid_argument("expert: it reads or writes memory but has no memory port (slots = 0)");
    if (memory_.present() && (memory_.slot_bits == 0 || memory_.key_bits.empty() || memory_.key_bits.size() > 64))
      throw std::invalid_argument("expert: a memory port needs slot_bits >= 1 and 1..64 key bits");
    if (memory_.present() && memory_.hash == memory_port::hashing::multiplicative &&
        ((memory_.slots & (memory_.slots - 1)) != 0 || (memory_.salt & 1u) == 0))
      throw std::invalid_argument("expert: a multiplicative memory port needs a power-of-two slot count and an odd "
                                  "multiplier (salt)");
  }

  /// Throws std::out_of_range (naming the spec, the bit and its index) unless
  /// every state bit read or written is below `state_bits`, every shared bit
  /// below `shared_bits`, every Theta parameter below `parameters`, and the
  /// memory port, for `lanes` lanes, lies within SHARED. compute and apply
  /// index without checks (they are the hot path), so whoever owns the state
  /// checks once here.
  void check_fits(std::size_t state_bits, std::size_t shared_bits, std::size_t parameters = 0,
                  std::size_t lanes = 64) const {
    for (std::size_t j = 0; j < read_.bits.size(); ++j) {
      const read_bit& r = read_.bits[j];
      if (r.from == read_bit::source::memory) continue;
      const bool state = r.from == read_bit::source::state;
      if (r.index >= (state ? state_bits : shared_bits))
        throw std::out_of_range("expert: read bit " + std::to_string(j) + " reads " + (state ? "state" : "shared") +
                                " bit " + std::to_string(r.index) + ", but there are " +
                                std::to_string(state ? state_bits : shared_bits));
    }
    for (std::size_t k = 0; k < write_.bits.size(); ++k) {
      const write_bit& w = write_.bits[k];
      const auto fail = [&](const char* what, std::size_t limit) {
        throw std::out_of_range("expert: write bit " + std::to_string(k) + " writes " + what + " " +
                                std::to_string(w.index) + ", but there are " + std::to_string(limit));
      };
      if (w.to == write_bit::target::state && w.index >= state_bits) fail("state bit", state_bits);
      if (w.to == write_bit::target::shared && w.index >= shared_bits) fail("shared bit", shared_bits);
      if (w.to == write_bit::target::theta && w.index >= parameters) fail("Theta parameter", parameters);
    }
    if (memory_.present()) {
      for (auto b : memory_.key_bits)
        if (b >= state_bits)
          throw std::out_of_range("expert: the memory key reads state bit " + std::to_string(b) + ", but there are " +
                                  std::to_string(state_bits));
      if (memory_.base + memory_.span_bits(lanes) > shared_bits)
        throw std::out_of_range("expert: the memory port spans SHARED bits " + std::to_string(memory_.base) + ".." +
                                std::to_string(memory_.base + memory_.span_bits(lanes) - 1) + " for " +
                                std::to_string(lanes) + " lanes, but there are " + std::to_string(shared_bits));
    }
  }

  identifier id() const noexcept { return id_; }
  const read_spec& reads() const noexcept { return read_; }
  const write_spec& writes() const noexcept { return write_; }
  const memory_port& memory() const noexcept { return memory_; }
  const C& circuit() const noexcept { return circuit_; }
  const expert_stats& stats() const noexcept { return stats_; }
  /// True when every output goes to STATE (nothing of SHARED, Theta or memory).
  bool writes_state_only() const noexcept { return state_only_; }
  /// Counts a visit, and a win when `won`.
  void record(bool won) noexcept {
    ++stats_.visits;
    stats_.wins += won ? 1 : 0;
  }

  /// Words of scratch one application needs: y, and x beside the
  /// circuit's own scratch (or as its first n words, for a circuit that
  /// reads its inputs in place: detail::circuit_inputs_in_place), and with
  /// a memory port a word per slot bit plus the lanes' slot addresses
  /// (32 bits per lane: 32 words whatever W).
  std::size_t scratch_size() const noexcept {
    return (in_place ? 0 : circuit_.inputs()) + circuit_.outputs() + circuit_.scratch_size() +
           (uses_memory_ ? memory_.slot_bits + address_words : 0);
  }

  /// Gathers x from state, shared and memory (into scratch), evaluates y.
  template <bit_sliced_word W>
  std::span<const W> compute(std::span<const W> state, std::span<const std::uint64_t> shared,
                             std::span<W> scratch) const {
    static_assert(assert_circuit_representation<C, W>());
    const std::size_t n = circuit_.inputs(), m = circuit_.outputs();
    if (scratch.size() < scratch_size())
      throw std::invalid_argument("expert: scratch has " + std::to_string(scratch.size()) + " words, needs " +
                                  std::to_string(scratch_size()));
    // Layout: [y | circuit scratch, x its first n words | memory] for a
    // circuit that reads its inputs in place, else [y | x | circuit scratch |
    // memory], memory = [slot bits | addresses] with a memory port.
    const std::span<W> y = scratch.first(m);
    const std::span<W> circuit_scratch = scratch.subspan(in_place ? m : m + n);
    W* const x = in_place ? circuit_scratch.data() : scratch.data() + m;
    W* const slot = memory_scratch(scratch);
    if (uses_memory_) gather_slots<W>(state, shared, scratch);
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
      else if (r.from == read_bit::source::shared)
        x[j] = ((bits[r.index / 64] >> (r.index % 64)) & 1u) != 0 ? ones : zero;
      else
        x[j] = slot[r.index];
    }
    circuit_.evaluate(std::span<const W>(x, n), y, circuit_scratch);
    return y;
  }

  /// Applies a state-only expert to every lane (SHARED read-only).
  template <bit_sliced_word W>
  void apply(std::span<W> state, std::span<const std::uint64_t> shared, std::span<W> scratch) const {
    require_state_only();
    const std::span<const W> y = compute<W>(state, shared, scratch);
    const write_bit* const writes = write_.bits.data();  // in a local: see compute
    W* const s = state.data();
    for (std::size_t k = 0; k < y.size(); ++k) {
      const write_bit w = writes[k];
      s[w.index] = w.how == write_bit::mode::overwrite ? y[k] : s[w.index] ^ y[k];
    }
  }

  /// Applies a state-only expert to the lanes set in `mask` only.
  template <bit_sliced_word W>
  void apply_masked(const W& mask, std::span<W> state, std::span<const std::uint64_t> shared,
                    std::span<W> scratch) const {
    require_state_only();
    const std::span<const W> y = compute<W>(state, shared, scratch);
    const write_bit* const writes = write_.bits.data();  // in a local: see compute
    W* const s = state.data();
    for (std::size_t k = 0; k < y.size(); ++k) {
      const write_bit w = writes[k];
      const W updated = w.how == write_bit::mode::overwrite ? y[k] : s[w.index] ^ y[k];
      s[w.index] = detail::blend_any(mask, updated, s[w.index]);
    }
  }

  /// Applies any expert to the lanes set in `mask`, with every write target
  /// (W_i(s, M, Theta, y) of the file comment).
  template <bit_sliced_word W>
  void apply_masked(const W& mask, std::span<W> state, shared_view shared, std::span<W> scratch) const {
    const std::span<const W> y = compute<W>(state, std::span<const std::uint64_t>(shared.bits), scratch);
    const write_bit* const writes = write_.bits.data();
    W* const s = state.data();
    for (std::size_t k = 0; k < y.size(); ++k) {
      const write_bit w = writes[k];
      switch (w.to) {
        case write_bit::target::state: {
          const W updated = w.how == write_bit::mode::overwrite ? y[k] : s[w.index] ^ y[k];
          s[w.index] = detail::blend_any(mask, updated, s[w.index]);
          break;
        }
        case write_bit::target::shared: {
          const bool v = reduce(w.reduce, y[k] & mask, mask);
          const bool old = detail::shared_bit(shared.bits, w.index);
          detail::set_shared_bit(shared.bits, w.index, w.how == write_bit::mode::overwrite ? v : old != v);
          break;
        }
        case write_bit::target::theta: {
          const W counted = y[k] & mask;  // named: lane_words views it
          std::int64_t count = 0;
          for (const std::uint64_t x : detail::lane_words(counted)) count += std::popcount(x);
          q16_16& t = shared.theta[w.index];
          t = q16_16::saturate(std::int64_t{t.raw} + count * w.theta_step_raw);
          break;
        }
        case write_bit::target::memory:
        case write_bit::target::memory_enable:
          break;  // after the other writes
      }
    }
    if (uses_memory_) scatter_slots<W>(mask, y, shared.bits, std::span<const W>(scratch));
  }

  /// The same on every lane.
  template <bit_sliced_word W>
  void apply(std::span<W> state, shared_view shared, std::span<W> scratch) const {
    apply_masked<W>(~zero_word<W>(), state, shared, scratch);
  }

 private:
  static constexpr bool in_place = detail::circuit_inputs_in_place<C>;

  void require_state_only() const {
    if (!state_only_)
      throw std::logic_error("expert: it writes SHARED, Theta or memory: apply it with a shared_view");
  }

  template <bit_sliced_word W>
  static bool reduce(write_bit::reduction r, const W& bits, const W& mask) {
    const auto words = detail::lane_words(bits);
    switch (r) {
      case write_bit::reduction::any:
        for (auto x : words)
          if (x) return true;
        return false;
      case write_bit::reduction::all: {
        const auto m = detail::lane_words(mask);
        for (std::size_t i = 0; i < words.size(); ++i)
          if (words[i] != m[i]) return false;
        return true;
      }
      case write_bit::reduction::parity: {
        std::uint64_t p = 0;
        for (auto x : words) p ^= x;
        return std::popcount(p) % 2 == 1;
      }
      case write_bit::reduction::lane0:
        return words[0] & 1u;
    }
    return false;
  }

  /// The key of lane l (key bit j = state bit key_bits[j] of lane l).
  template <bit_sliced_word W>
  std::uint64_t key_of(std::span<const W> state, std::size_t l) const noexcept {
    std::uint64_t key = 0;
    for (std::size_t j = 0; j < memory_.key_bits.size(); ++j)
      key |= static_cast<std::uint64_t>(detail::word_lane(state[memory_.key_bits[j]], l)) << j;
    return key;
  }
  std::uint64_t slot_start(std::size_t lane, std::uint32_t address) const noexcept {
    return memory_.base + (std::uint64_t{memory_.per_lane ? lane : 0} * memory_.slots + address) * memory_.slot_bits;
  }

  static constexpr std::size_t address_words = 32;

  /// The memory part of scratch: slot_bits words, then the addresses.
  template <bit_sliced_word W>
  W* memory_scratch(std::span<W> scratch) const noexcept {
    return scratch.data() + (scratch_size() - (uses_memory_ ? memory_.slot_bits + address_words : 0));
  }
  /// Lane l's slot address: 32 bits of the address words (two lanes per
  /// 64-bit word, lane 2i in the low half of word i).
  template <bit_sliced_word W>
  static void set_address(W* addresses, std::size_t l, std::uint32_t a) noexcept {
    constexpr std::size_t per_word = lane_count_v<W> / 64;  // 64-bit words per W-bit word
    std::uint64_t& x = detail::lane_words(addresses[(l / 2) / per_word])[(l / 2) % per_word];
    const int shift = (l % 2) * 32;
    x = (x & ~(std::uint64_t{0xFFFFFFFFu} << shift)) | (std::uint64_t{a} << shift);
  }
  template <bit_sliced_word W>
  static std::uint32_t get_address(const W* addresses, std::size_t l) noexcept {
    constexpr std::size_t per_word = lane_count_v<W> / 64;
    const std::uint64_t x = detail::lane_words(addresses[(l / 2) / per_word])[(l / 2) % per_word];
    return static_cast<std::uint32_t>(x >> ((l % 2) * 32));
  }

  /// Slot words: bit j of every lane's slot (lane l's slot at its key's
  /// address); the addresses are kept for scatter_slots.
  template <bit_sliced_word W>
  void gather_slots(std::span<const W> state, std::span<const std::uint64_t> shared, std::span<W> scratch) const {
    constexpr std::size_t lanes = lane_count_v<W>;
    W* const slot = memory_scratch(scratch);
    W* const addresses = slot + memory_.slot_bits;
    for (std::uint32_t j = 0; j < memory_.slot_bits; ++j) slot[j] = zero_word<W>();
    for (std::size_t l = 0; l < lanes; ++l) {
      const std::uint32_t a = memory_.address(key_of<W>(state, l));
      set_address(addresses, l, a);
      const std::uint64_t start = slot_start(l, a);
      for (std::uint32_t j = 0; j < memory_.slot_bits; ++j)
        if (detail::shared_bit(shared, start + j)) detail::set_word_lane(slot[j], l, true);
    }
  }

  /// Memory writes of the lanes in mask whose enable bit is set.
  template <bit_sliced_word W>
  void scatter_slots(const W& mask, std::span<const W> y, std::span<std::uint64_t> shared,
                     std::span<const W> scratch) const {
    constexpr std::size_t lanes = lane_count_v<W>;
    const W* const addresses = scratch.data() + (scratch_size() - address_words);
    W enable = mask;
    for (std::size_t k = 0; k < y.size(); ++k)
      if (write_.bits[k].to == write_bit::target::memory_enable) enable = enable & y[k];
    for (std::size_t l = 0; l < lanes; ++l) {
      if (!detail::word_lane(enable, l)) continue;
      const std::uint64_t start = slot_start(l, get_address(addresses, l));
      for (std::size_t k = 0; k < y.size(); ++k) {
        const write_bit& w = write_.bits[k];
        if (w.to != write_bit::target::memory) continue;
        const bool v = detail::word_lane(y[k], l);
        const bool old = detail::shared_bit(shared, start + w.index);
        detail::set_shared_bit(shared, start + w.index, w.how == write_bit::mode::overwrite ? v : old != v);
      }
    }
  }

  identifier id_;
  read_spec read_;
  C circuit_;
  write_spec write_;
  memory_port memory_;
  bool state_only_ = true;
  bool uses_memory_ = false;
  expert_stats stats_;
};

/// BEM_EXPERT_BATCH over W-wide words: the three lane schemes, with scratch
/// kept between calls so a step allocates nothing once warm.
template <class C, bit_sliced_word W>
class expert_batch {
 public:
  /// One state-only expert for all lanes.
  void apply_all(const expert<C>& e, std::span<W> state, std::span<const std::uint64_t> shared) {
    e.apply(state, shared, scratch_for(e));
  }
  /// One expert for all lanes, every write target.
  void apply_all(const expert<C>& e, std::span<W> state, shared_view shared) {
    e.template apply<W>(state, shared, scratch_for(e));
  }
  /// One state-only expert per mask: experts[g] on the lanes of masks[g].
  /// One mask per lane group is the per-group scheme; one single-lane mask
  /// per lane the per-lane scheme. Masks should be pairwise disjoint (the
  /// law above); overlapping ones compose in order (the header comment).
  void apply_masked(std::span<const expert<C>* const> experts, std::span<const W> masks, std::span<W> state,
                    std::span<const std::uint64_t> shared) {
    check_sizes(experts.size(), masks.size());
    for (std::size_t g = 0; g < experts.size(); ++g)
      experts[g]->apply_masked(masks[g], state, shared, scratch_for(*experts[g]));
  }
  /// The same with every write target.
  void apply_masked(std::span<const expert<C>* const> experts, std::span<const W> masks, std::span<W> state,
                    shared_view shared) {
    check_sizes(experts.size(), masks.size());
    for (std::size_t g = 0; g < experts.size(); ++g)
      experts[g]->template apply_masked<W>(masks[g], state, shared, scratch_for(*experts[g]));
  }

 private:
  static void check_sizes(std::size_t experts, std::size_t masks) {
    if (experts != masks)
      throw std::invalid_argument("expert_batch: " + std::to_string(experts) + " experts but " +
                                  std::to_string(masks) + " masks");
  }
  std::span<W> scratch_for(const expert<C>& e) {
    if (scratch_.size() < e.scratch_size()) scratch_.resize(e.scratch_size());
    return std::span<W>(scratch_);
  }
  std::vector<W> scratch_;
};

BEM_NAMESPACE_END
