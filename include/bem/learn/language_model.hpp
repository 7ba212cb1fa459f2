// The BEM language model: a context-mixing predictor of the next symbol
// (a character of the alphabet C, or a code token), built from the
// machine's parts (docs/language-modelling.md, "The BEM language model").
//
// A symbol of B bits is predicted one bit at a time, the highest first:
// p(symbol) is the product of the B binary predictions along its path, a
// bit whose other branch holds no symbol below the vocabulary size V costs
// nothing (it is forced), so the model is a distribution over exactly V
// symbols. Probabilities are 12-bit integers (p / 4096 in [1/4096,
// 4095/4096]); the logistic domain is stretch(p) = 256 ln(p / (1 - p)) in
// [-2047, 2047], and squash its inverse, both tables computed with the
// integer exponential of bem/machine/fixed_point.hpp, so every machine gives
// the same bits.
//
// Experts (each gives the mixer one input per bit, stretch(p)):
//   context experts  one per context: a 64-bit hash of the context, made at
//                    every symbol boundary. Characters: order 0, the last 1,
//                    2, 3, 4 and 6 characters, the current word (letters,
//                    case folded) with the character before it, and the
//                    previous word with the current one. Code tokens:
//                    order 0, the last 1, 2, 3 and 4 tokens, the bracket
//                    context (depth, innermost open bracket, last token),
//                    and the last identifier with the last token.
//                    The symbol's bits are split into groups of at most 4
//                    (from the top: B mod 4 first); at the start of a group
//                    the expert finds its block, 64 bytes of SHARED at
//                    hash(context, group, the symbol's bits so far): a
//                    16-bit check and 15 counters, one per node of the
//                    group's binary tree. Four blocks are candidates (the
//                    hash's slot and its neighbours in an aligned group of
//                    four, 256 bytes): the one whose check matches, else
//                    (learning) the least used one is cleared and taken. A
//                    counter is 22 bits of probability and a
//                    10-bit count n; learning moves the probability a
//                    1 / (n + 1.5) part of the way to the bit seen, n
//                    saturating at counter_limit (an adaptive rate: an
//                    average while young, slowly forgetting when old).
//   match expert     the longest earlier occurrence of the last
//                    min_match symbols (a hash table of 2^(table_bits + 4)
//                    positions in SHARED); while the symbol after it agrees with the bits
//                    decided so far, its next bit is predicted with a
//                    counter chosen by (match length, predicted bit).
//   mixing expert    logistic mixing: s_j = sum_i w_i x_i / 2^16 over the
//                    inputs and a bias, weights Q16.16 in Theta, for two
//                    weight sets j: one chosen by (node of the symbol tree
//                    for characters, bit position for tokens; match state),
//                    one by (bit position, how many context experts have
//                    seen this node before); p = squash((s_1 + s_2) / 2).
//                    Learning moves each weight of set j by
//                    x_i (bit - squash(s_j)) * mixer_rate / 2^16 (online
//                    gradient descent on the coding cost).
//   SSE stages       two adaptive probability maps refine the mixer's p:
//                    33 interpolated buckets over stretch(p) per context
//                    (the node; the node with the last symbol; each hashed
//                    into 2^(table_bits - 2) contexts), 16-bit
//                    probabilities in SHARED; the final p is (p + a1 + 2 a2)
//                    / 4.
//
// The machine's parts: STATE is the stream's own state (the context hashes,
// the match pointer and length, the word hashes, the bracket stack, the
// symbols read so far); SHARED holds every counter block, the match table
// and the SSE maps (a shared_memory<K, P>), Theta the mixer's weights. All
// experts apply at every bit (the machine's all_lanes scheme with one lane:
// a text is one sequence); routing and the trace are not used, and the
// experts are native code rather than gate circuits (the departures are
// listed in docs/language-modelling.md).
//
// Learning and freezing. code_length(symbol, learn = true) scores the symbol
// and then updates every counter, weight and map it used (the adaptive mode,
// a compressor's); learn = false scores it with SHARED and Theta left as
// they are: nothing but STATE changes (BEM suite §4.1.2's frozen
// parameters), and a context block not found is read as "no knowledge"
// (every counter 1/2).
#pragma once

#include <bem/machine/fixed_point.hpp>
#include <bem/machine/state.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace learn {

/// What the symbols are: characters of C, or code tokens.
enum class lm_symbols { characters, code_tokens };

/// A code token's role for the code contexts.
enum class token_role : std::uint8_t { other, identifier, open_paren, open_bracket, open_brace, close_paren,
                                       close_bracket, close_brace };

struct language_model_config {
  std::uint32_t vocabulary = 96;      ///< V
  lm_symbols symbols = lm_symbols::characters;
  std::vector<token_role> roles;      ///< code tokens: each symbol's role (size V)
  int table_bits = 18;                ///< log2 of each context expert's blocks (64 bytes each)
  int counter_limit = 1023;           ///< a counter's count saturates here (its slowest rate 1 / (limit + 1.5))
  int mixer_rate = 24;                ///< the mixer's step, in 2^-16 units
  int min_match = 0;                  ///< symbols a match needs (0: 6 for characters, 3 for tokens)
};

namespace detail {

/// squash and stretch (the file comment), computed once.
struct logistic_tables {
  std::array<std::int16_t, 4096> stretch{};
  std::array<std::int16_t, 4095> squash{};  // squash[x + 2047]
  std::array<double, 4097> cost{};          // -log2(i / 4096)
  logistic_tables() {
    for (int x = 0; x <= 2047; ++x) {
      // 1 / (1 + e^(-x / 256)) in 1/4096 units, rounded: e^(-x/256) in Q0.32.
      const std::uint64_t e = fixed::exp_neg_q32(static_cast<std::uint64_t>(x) * 256);
      const std::uint64_t den = (std::uint64_t{1} << 32) + e;
      const auto p = static_cast<int>(((std::uint64_t{4096} << 32) + den / 2) / den);
      squash[static_cast<std::size_t>(x + 2047)] = static_cast<std::int16_t>(std::clamp(p, 1, 4095));
      squash[static_cast<std::size_t>(2047 - x)] = static_cast<std::int16_t>(std::clamp(4096 - p, 1, 4095));
    }
    int next = 0;
    for (int x = -2047; x <= 2047; ++x)
      for (int v = squash[static_cast<std::size_t>(x + 2047)]; next <= v; ++next)
        stretch[static_cast<std::size_t>(next)] = static_cast<std::int16_t>(x);
    for (; next < 4096; ++next) stretch[static_cast<std::size_t>(next)] = 2047;
    for (int i = 1; i <= 4096; ++i) cost[static_cast<std::size_t>(i)] = -std::log2(i / 4096.0);
  }
  int squash_of(int x) const { return squash[static_cast<std::size_t>(std::clamp(x, -2047, 2047) + 2047)]; }
};
inline const logistic_tables& logistic() {
  static const logistic_tables t;
  return t;
}

inline std::uint64_t hash_combine(std::uint64_t h, std::uint64_t v) { return mix64(h ^ (v + 0x9E3779B97F4A7C15ull)); }

}  // namespace detail

/// The model with K bits of SHARED (the counter blocks, the match table and
/// the SSE maps; `language_model` has 2^31, 256 MiB) and P Q16.16 weights in
/// Theta.
template <std::size_t K, std::size_t P = (1 << 15)>
class basic_language_model {
 public:
  using shared_type = shared_memory<K, P>;

  explicit basic_language_model(language_model_config c) : c_(std::move(c)), t_(detail::logistic()) {
    if (c_.vocabulary < 2) throw std::invalid_argument("language_model: the vocabulary needs at least 2 symbols");
    B_ = std::max(1, static_cast<int>(std::bit_width(c_.vocabulary - 1u)));
    if (B_ > 16) throw std::invalid_argument("language_model: at most 2^16 symbols");
    if (c_.symbols == lm_symbols::code_tokens && c_.roles.size() != c_.vocabulary)
      throw std::invalid_argument("language_model: code tokens need one role per symbol");
    if (c_.min_match <= 0) c_.min_match = c_.symbols == lm_symbols::characters ? 6 : 3;
    experts_ = c_.symbols == lm_symbols::characters ? 8 : 7;
    inputs_ = experts_ + 2;  // + match + bias
    // SHARED layout, in 64-bit words.
    const std::size_t block_words = 8;
    table_words_ = (std::size_t{1} << c_.table_bits) * block_words;
    match_base_ = experts_ * table_words_;
    if (c_.table_bits < 4 || c_.table_bits > 40) throw std::invalid_argument("language_model: table_bits outside [4, 40]");
    match_table_bits_ = c_.table_bits + 4;
    apm_contexts_ = std::size_t{1} << (c_.table_bits - 2);
    match_words_ = (std::size_t{1} << match_table_bits_) / 2;
    apm_base_ = match_base_ + match_words_;
    apm_words_ = (2 * apm_contexts_ * 33 + 3) / 4;
    if (apm_base_ + apm_words_ > shared_type::word_count)
      throw std::invalid_argument("language_model: table_bits " + std::to_string(c_.table_bits) +
                                  " does not fit SHARED (K = " + std::to_string(K) + " bits)");
    first_set2_ = c_.symbols == lm_symbols::characters ? (std::size_t{1} << B_) * 4 : static_cast<std::size_t>(B_) * 4;
    weight_sets_ = first_set2_ + static_cast<std::size_t>(B_) * 16;
    if (weight_sets_ * static_cast<std::size_t>(inputs_) > P) throw std::logic_error("language_model: Theta too small");
    M_ = std::make_unique<shared_type>();
    for (std::size_t i = 0; i < weight_sets_ * static_cast<std::size_t>(inputs_); ++i)
      M_->parameter(i) = q16_16::from_raw(1 << 14);
    auto w = M_->words();
    for (std::size_t a = 0; a < 2 * apm_contexts_; ++a)
      for (int j = 0; j < 33; ++j) set16(w, apm_base_ * 4 + a * 33 + static_cast<std::size_t>(j),
                                        static_cast<std::uint16_t>(t_.squash_of((j - 16) * 128) * 16));
    for (auto& m : match_counters_) m = (1u << 31);
    s_.context.assign(static_cast<std::size_t>(experts_), 0);
    new_symbol_contexts();
  }

  const language_model_config& config() const noexcept { return c_; }
  int symbol_bits() const noexcept { return B_; }
  int inputs() const noexcept { return inputs_; }
  /// Symbols read so far (trained, scored or sampled).
  std::size_t position() const noexcept { return history_.size(); }

  /// -log2 p(symbol | everything read so far), in bits; then the symbol is
  /// read, and with `learn` every part used learns from it.
  double code_length(std::uint32_t symbol, bool learn) {
    if (symbol >= c_.vocabulary) throw std::out_of_range("language_model: symbol outside the vocabulary");
    double bits = 0;
    walk(learn, [&](int p) {
      const int bit = static_cast<int>((symbol >> (B_ - 1 - depth_)) & 1u);
      bits += t_.cost[static_cast<std::size_t>(bit ? p : 4096 - p)];
      return bit;
    });
    read(symbol, learn);
    return bits;
  }

  /// A symbol drawn from the model's distribution; it is read (nothing learns).
  std::uint32_t sample(xoshiro256ss& rng) {
    std::uint32_t s = 0;
    walk(false, [&](int p) { return static_cast<int>(rng.uniform_below(4096) < static_cast<std::uint64_t>(p)); });
    s = prefix_;
    read(s, false);
    return s;
  }

  /// STATE, to come back to after scoring or sampling ahead (SHARED and
  /// Theta are not part of it).
  struct snapshot {
    std::size_t length;
    std::vector<std::uint64_t> context;
    std::uint64_t word, previous_word, identifier;
    std::size_t match_ptr, match_length;
    std::vector<token_role> brackets;
  };
  snapshot save() const {
    return {history_.size(), s_.context, s_.word, s_.previous_word, s_.identifier, s_.match_ptr,
            s_.match_length, s_.brackets};
  }
  void restore(const snapshot& x) {
    history_.resize(x.length);
    s_.context = x.context, s_.word = x.word, s_.previous_word = x.previous_word, s_.identifier = x.identifier;
    s_.match_ptr = x.match_ptr, s_.match_length = x.match_length;
    s_.brackets = x.brackets;
  }

  const shared_type& shared() const noexcept { return *M_; }

 private:

  // ---- SHARED access (64-bit words; 16- and 32-bit fields inside them) ----
  static std::uint32_t get32(std::span<std::uint64_t, shared_type::word_count> w, std::size_t i) {
    return static_cast<std::uint32_t>(w[i / 2] >> (32 * (i % 2)));
  }
  static void set32(std::span<std::uint64_t, shared_type::word_count> w, std::size_t i, std::uint32_t v) {
    const unsigned sh = 32 * (i % 2);
    w[i / 2] = (w[i / 2] & ~(std::uint64_t{0xFFFFFFFFu} << sh)) | (std::uint64_t{v} << sh);
  }
  static std::uint16_t get16(std::span<std::uint64_t, shared_type::word_count> w, std::size_t i) {
    return static_cast<std::uint16_t>(w[i / 4] >> (16 * (i % 4)));
  }
  static void set16(std::span<std::uint64_t, shared_type::word_count> w, std::size_t i, std::uint16_t v) {
    const unsigned sh = 16 * (i % 4);
    w[i / 4] = (w[i / 4] & ~(std::uint64_t{0xFFFFu} << sh)) | (std::uint64_t{v} << sh);
  }

  // A counter: probability (22 bits) << 10 | count (10 bits); 0 means unused
  // and reads as probability 1/2, count 0.
  static int counter_p12(std::uint32_t c) { return c == 0 ? 2048 : static_cast<int>(c >> 20); }
  std::uint32_t counter_update(std::uint32_t c, int bit) const {
    if (c == 0) c = (1u << 31);
    const std::uint32_t n = c & 1023u;
    const std::int64_t p = c >> 10, target = bit ? (1 << 22) - 1 : 0;
    const std::int64_t step = ((target - p) * reciprocal(n)) >> 16;
    const std::uint32_t n2 = std::min<std::uint32_t>(n + 1, static_cast<std::uint32_t>(c_.counter_limit));
    return (static_cast<std::uint32_t>(std::clamp<std::int64_t>(p + step, 1, (1 << 22) - 1)) << 10) | n2;
  }
  static std::int64_t reciprocal(std::uint32_t n) {  // 2^16 / (n + 1.5), rounded
    return (std::int64_t{131072} + static_cast<std::int64_t>(2 * n + 3) / 2) / static_cast<std::int64_t>(2 * n + 3);
  }

  // ---- the walk down one symbol's bits ----
  // `choose(p)` gets the final 12-bit p(bit = 1) and returns the bit taken.
  template <class Choose>
  void walk(bool learn, Choose&& choose) {
    auto w = M_->words();
    prefix_ = 0;
    const int first_group = B_ % 4 == 0 ? 4 : B_ % 4;
    int group_left = 0;
    std::array<std::size_t, 16> block{};  // each expert's block (word index), or ~0 for "none found"
    std::array<int, 16> x{};
    std::array<std::size_t, 16> counter_at{};
    int node = 1;  // within the group
    const bool match_live = s_.match_length > 0;
    const std::uint32_t predicted = match_live ? history_[s_.match_ptr] : 0;
    for (depth_ = 0; depth_ < B_; ++depth_) {
      if (group_left == 0) {
        group_left = depth_ == 0 ? first_group : 4;
        node = 1;
        const auto gh = static_cast<std::uint64_t>(prefix_) * 64 + static_cast<std::uint64_t>(depth_);
        for (int e = 0; e < experts_; ++e) block[static_cast<std::size_t>(e)] = find_block(e, gh, learn);
      }
      // Forced bit: the 1 branch holds no symbol below V.
      const std::uint32_t one = ((prefix_ << 1) | 1u) << (B_ - 1 - depth_);
      if (one >= c_.vocabulary) {
        prefix_ <<= 1, node <<= 1, --group_left;
        continue;
      }
      int known = 0;  // context experts whose counter has seen this node
      for (int e = 0; e < experts_; ++e) {
        const std::size_t b = block[static_cast<std::size_t>(e)];
        const std::size_t at = b == ~std::size_t{0} ? b : b + static_cast<std::size_t>(node);
        counter_at[static_cast<std::size_t>(e)] = at;
        const std::uint32_t ctr = at == ~std::size_t{0} ? 0u : get32(w, at);
        known += (ctr & 1023u) != 0;
        x[static_cast<std::size_t>(e)] = t_.stretch[static_cast<std::size_t>(counter_p12(ctr))];
      }
      // Match expert: live while the predicted symbol agrees with the prefix.
      int match_state = 0, expected = 0;
      std::size_t match_counter = 0;
      if (match_live && (predicted >> (B_ - depth_)) == prefix_) {
        expected = static_cast<int>((predicted >> (B_ - 1 - depth_)) & 1u);
        const std::size_t len = s_.match_length;
        match_state = len < 16 ? 1 : len < 32 ? 2 : 3;
        match_counter = std::min<std::size_t>(len, 63) * 2 + static_cast<std::size_t>(expected);
        x[static_cast<std::size_t>(experts_)] = t_.stretch[static_cast<std::size_t>(counter_p12(match_counters_[match_counter]))];
      } else {
        x[static_cast<std::size_t>(experts_)] = 0;
      }
      x[static_cast<std::size_t>(experts_) + 1] = 256;
      // Mixing expert: two weight sets, one chosen by (node, match state),
      // one by (bit position, how many context experts know their context);
      // their outputs are averaged in the logistic domain.
      const std::size_t set1 = (c_.symbols == lm_symbols::characters ? (static_cast<std::size_t>(1) << depth_) | prefix_
                                                                      : static_cast<std::size_t>(depth_)) * 4 +
                               static_cast<std::size_t>(match_state);
      const std::size_t set2 = first_set2_ + static_cast<std::size_t>(depth_) * 16 + static_cast<std::size_t>(known);
      const std::size_t w1 = set1 * static_cast<std::size_t>(inputs_), w2 = set2 * static_cast<std::size_t>(inputs_);
      std::int64_t dot1 = 0, dot2 = 0;
      for (int i = 0; i < inputs_; ++i) {
        dot1 += std::int64_t{M_->parameter(w1 + static_cast<std::size_t>(i)).raw} * x[static_cast<std::size_t>(i)];
        dot2 += std::int64_t{M_->parameter(w2 + static_cast<std::size_t>(i)).raw} * x[static_cast<std::size_t>(i)];
      }
      const int s1 = static_cast<int>(std::clamp<std::int64_t>(dot1 >> 16, -2047, 2047));
      const int s2 = static_cast<int>(std::clamp<std::int64_t>(dot2 >> 16, -2047, 2047));
      const int s_mix = (s1 + s2) / 2;
      const int p_mix = t_.squash_of(s_mix);
      // SSE stages.
      const std::uint64_t full_node = (std::uint64_t{1} << depth_) | prefix_;
      const std::size_t a1 = static_cast<std::size_t>(mix64(full_node) % apm_contexts_);
      const std::size_t a2 = apm_contexts_ + static_cast<std::size_t>(
                                                 detail::hash_combine(full_node, history_.empty() ? 0xFFFF : history_.back() + 1) %
                                                 apm_contexts_);
      int j1 = 0, j2 = 0, f = 0;
      const int p1 = apm_read(w, a1, s_mix, j1, f), p2 = apm_read(w, a2, s_mix, j2, f);
      const int p = std::clamp((p_mix + p1 + 2 * p2 + 2) >> 2, 1, 4095);
      const int bit = choose(p);
      if (learn) {
        for (int e = 0; e < experts_; ++e) {
          const std::size_t at = counter_at[static_cast<std::size_t>(e)];
          set32(w, at, counter_update(get32(w, at), bit));
        }
        if (match_state) match_counters_[match_counter] = counter_update(match_counters_[match_counter], bit);
        train_mixer(w1, x, ((bit << 12) - t_.squash_of(s1)) * c_.mixer_rate);
        train_mixer(w2, x, ((bit << 12) - t_.squash_of(s2)) * c_.mixer_rate);
        apm_update(w, a1, j1, f, bit);
        apm_update(w, a2, j2, f, bit);
      }
      prefix_ = (prefix_ << 1) | static_cast<std::uint32_t>(bit);
      node = (node << 1) | bit;
      --group_left;
    }
  }

  void train_mixer(std::size_t w0, const std::array<int, 16>& x, int err) {
    for (int i = 0; i < inputs_; ++i) {
      q16_16& wt = M_->parameter(w0 + static_cast<std::size_t>(i));
      wt.raw = static_cast<std::int32_t>(std::clamp<std::int64_t>(
          wt.raw + ((static_cast<std::int64_t>(x[static_cast<std::size_t>(i)]) * err) >> 16), -(1 << 22), 1 << 22));
    }
  }

  // An SSE map's p at stretch s: buckets j and j + 1, f / 4096 the weight of j + 1.
  int apm_read(std::span<std::uint64_t, shared_type::word_count> w, std::size_t ctx, int s, int& j, int& f) const {
    const int pos = (s + 2048) * 32;  // 0 .. 131040, bucket width 4096
    j = std::min(pos >> 12, 31);
    f = pos - (j << 12);
    const std::size_t base = apm_base_ * 4 + ctx * 33 + static_cast<std::size_t>(j);
    const int lo = get16(w, base), hi = get16(w, base + 1);
    return std::clamp((lo * (4096 - f) + hi * f) >> 16, 1, 4095);  // 16-bit entries, 12-bit weights -> 12 bits
  }
  void apm_update(std::span<std::uint64_t, shared_type::word_count> w, std::size_t ctx, int j, int f, int bit) const {
    const std::size_t base = apm_base_ * 4 + ctx * 33 + static_cast<std::size_t>(j);
    const int target = bit ? 65535 : 0;
    for (int k = 0; k < 2; ++k) {
      const int share = k == 0 ? 4096 - f : f;  // the nearer bucket learns more
      const int v = get16(w, base + static_cast<std::size_t>(k));
      const int nv = v + static_cast<int>((static_cast<std::int64_t>(target - v) * share) >> 18);
      set16(w, base + static_cast<std::size_t>(k), static_cast<std::uint16_t>(std::clamp(nv, 0, 65535)));
    }
  }

  /// Expert e's block for the group hash gh, as the index of its first
  /// 32-bit half in SHARED (~0: none found while frozen).
  std::size_t find_block(int e, std::uint64_t gh, bool learn) {
    auto w = M_->words();
    const std::uint64_t h = detail::hash_combine(s_.context[static_cast<std::size_t>(e)], gh);
    const auto check = static_cast<std::uint32_t>((h >> 16) & 0xFFFFu) | 1u;  // never 0: 0 marks a free block
    const std::size_t slot = static_cast<std::size_t>(h >> (64 - c_.table_bits));
    const std::size_t base = static_cast<std::size_t>(e) * table_words_;
    // Four candidates, not two: with two, blocks learned early were evicted
    // by later text, and a frozen model reading such a context knew nothing
    // there (docs/lm-results.md: English frozen 1.923 -> 1.874 bits/char).
    const std::size_t cand[4] = {slot, slot ^ 1u, slot ^ 2u, slot ^ 3u};
    for (std::size_t c : cand) {
      const std::size_t word = base + c * 8;
      if ((w[word] & 0xFFFFu) == check) return word * 2;  // half index of the block's first 32 bits
    }
    if (!learn) return ~std::size_t{0};
    // Take the least used candidate: the count of its first counter (a free block has 0).
    std::size_t best = cand[0];
    std::uint32_t best_n = ~0u;
    for (std::size_t c : cand) {
      const std::size_t word = base + c * 8;
      const std::uint32_t n = (w[word] & 0xFFFFu) == 0 ? 0 : (static_cast<std::uint32_t>(w[word] >> 32) & 1023u);
      if (n < best_n) best_n = n, best = c;
    }
    const std::size_t word = base + best * 8;
    for (std::size_t k = 0; k < 8; ++k) w[word + k] = 0;
    w[word] = check;
    return word * 2;
  }

  // ---- reading a symbol: STATE moves on ----
  void read(std::uint32_t sym, bool learn) {
    history_.push_back(sym);
    const std::size_t t = history_.size();  // the next symbol's position
    // Match expert: extend, or look the last min_match symbols up.
    auto mw = M_->words();
    if (s_.match_length > 0 && history_[s_.match_ptr] == sym) {
      ++s_.match_length, ++s_.match_ptr;
    } else {
      s_.match_length = 0;
    }
    const auto mm = static_cast<std::size_t>(c_.min_match);
    if (t >= mm) {
      std::uint64_t h = 0;
      for (std::size_t i = t - mm; i < t; ++i) h = detail::hash_combine(h, history_[i]);
      const std::size_t slot = static_cast<std::size_t>(h >> (64 - match_table_bits_));
      const std::size_t at = match_base_ * 2 + slot;
      if (s_.match_length == 0) {
        const std::size_t cand = get32(mw, at);
        if (cand > 0 && cand < t) {
          std::size_t len = 0;
          while (len < 65535 && len < cand && history_[cand - 1 - len] == history_[t - 1 - len]) ++len;
          if (len >= mm) s_.match_length = len, s_.match_ptr = cand;
        }
      }
      if (learn) set32(mw, at, static_cast<std::uint32_t>(t));
    }
    if (s_.match_length > 0 && s_.match_ptr >= t) s_.match_length = 0;
    update_contexts(sym);
    new_symbol_contexts();
  }

  void update_contexts(std::uint32_t sym) {
    if (c_.symbols == lm_symbols::characters) {
      const char ch = sym == 95 ? '\n' : static_cast<char>(sym + 0x20);
      const bool letter = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
      if (letter) {
        s_.word = detail::hash_combine(s_.word, static_cast<std::uint64_t>(ch | 0x20));
      } else if (s_.word != 0) {
        s_.previous_word = s_.word;
        s_.word = 0;
      }
    } else {
      const token_role r = c_.roles[sym];
      if (r == token_role::identifier) s_.identifier = sym + 1u;
      if (r == token_role::open_paren || r == token_role::open_bracket || r == token_role::open_brace) {
        if (s_.brackets.size() < 4096) s_.brackets.push_back(r);
      } else if (r == token_role::close_paren || r == token_role::close_bracket || r == token_role::close_brace) {
        if (!s_.brackets.empty()) s_.brackets.pop_back();
      }
    }
  }

  /// Each context expert's hash for the next symbol.
  void new_symbol_contexts() {
    const auto last = [&](std::size_t n) {  // hash of the last n symbols
      std::uint64_t h = n;
      for (std::size_t i = 0; i < n; ++i)
        h = detail::hash_combine(h, i < history_.size() ? history_[history_.size() - 1 - i] + 1u : 0u);
      return h;
    };
    auto& c = s_.context;
    const std::uint64_t prev = history_.empty() ? 0 : history_.back() + 1u;
    if (c_.symbols == lm_symbols::characters) {
      const std::size_t orders[6] = {0, 1, 2, 3, 4, 6};
      for (int e = 0; e < 6; ++e) c[static_cast<std::size_t>(e)] = last(orders[e]);
      c[6] = detail::hash_combine(detail::hash_combine(s_.word, 101), s_.word == 0 ? prev : 0);
      c[7] = detail::hash_combine(detail::hash_combine(s_.previous_word, 102), s_.word);
    } else {
      for (int e = 0; e < 5; ++e) c[static_cast<std::size_t>(e)] = last(static_cast<std::size_t>(e));
      const std::uint64_t top = s_.brackets.empty() ? 0 : static_cast<std::uint64_t>(s_.brackets.back());
      c[5] = detail::hash_combine(detail::hash_combine(std::min<std::uint64_t>(s_.brackets.size(), 31) * 8 + top, 103), prev);
      c[6] = detail::hash_combine(detail::hash_combine(s_.identifier, 104), prev);
    }
  }

  struct stream_state {
    std::vector<std::uint64_t> context;
    std::uint64_t word = 0, previous_word = 0, identifier = 0;
    std::size_t match_ptr = 0, match_length = 0;
    std::vector<token_role> brackets;
  };

  language_model_config c_;
  const detail::logistic_tables& t_;
  int B_ = 7, experts_ = 8, inputs_ = 10, match_table_bits_ = 22;
  std::size_t apm_contexts_ = 0;
  std::size_t table_words_ = 0, match_base_ = 0, match_words_ = 0, apm_base_ = 0, apm_words_ = 0, weight_sets_ = 0,
              first_set2_ = 0;
  std::unique_ptr<shared_type> M_;
  std::array<std::uint32_t, 128> match_counters_{};
  stream_state s_;
  std::vector<std::uint32_t> history_;
  std::uint32_t prefix_ = 0;
  int depth_ = 0;
};

/// The model as the benchmarks run it: 2^31 bits (256 MiB) of SHARED.
using language_model = basic_language_model<std::size_t{1} << 31>;

}  // namespace learn
BEM_NAMESPACE_END
