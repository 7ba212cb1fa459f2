// STATE and SHARED: the execution state X_t = (s_t, M_t, Theta_t) of a BEM
// (REFERENCE.md §1).
//
// STATE s is N bits per lane, stored bit-sliced: `state<N, W>` holds N words
// of W bits, word S[k] holding bit k of every lane (lane l in bit l). One
// BIT-ALU operation on S[k] updates state bit k of all W lanes at once.
//
// SHARED is K bits M plus P fixed-point parameters Theta, not bit-sliced
// (one copy for all lanes): `shared_memory<K, P>`. A parameter is a `q16_16`
// (bem/machine/fixed_point.hpp): fixed point keeps the mid-path update
// bit-exact across machines and compilers, which floating point with fused
// multiply-adds does not.
//
// Where N, W or K are known only at run time, `dynamic_state` and
// `dynamic_shared_memory` hold the same data in boost::dynamic_bitset
// (bit i of a bitset is lane i / memory bit i, as above); `to_dynamic` and
// `from_dynamic` convert both ways, and equal data compare equal.
#pragma once

#include <bem/machine/fixed_point.hpp>
#include <bem/machine/lanes.hpp>
#include <bem/version.hpp>

#include <boost/dynamic_bitset.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

/// STATE: N state bits for each of W lanes, bit-sliced (word k = bit k of all lanes).
template <std::size_t N, std::size_t W>
class state {
 public:
  using word_type = lane_word<W>;
  static constexpr std::size_t bits = N;   ///< state bits per lane
  static constexpr std::size_t lanes = W;  ///< lanes

  /// Word S[k]: bit k of every lane; k < N.
  word_type& operator[](std::size_t k) noexcept { return s_[k]; }
  const word_type& operator[](std::size_t k) const noexcept { return s_[k]; }

  /// Lane l's state bit k.
  bool bit(std::size_t k, std::size_t l) const noexcept { return s_[k].lane(l); }
  void set_bit(std::size_t k, std::size_t l, bool v) noexcept { s_[k].set_lane(l, v); }

  /// Lane l's N state bits (bit k = state bit k): a transpose of one column.
  std::bitset<N> lane_bits(std::size_t l) const noexcept {
    std::bitset<N> b;
    for (std::size_t k = 0; k < N; ++k) b[k] = s_[k].lane(l);
    return b;
  }
  void set_lane_bits(std::size_t l, const std::bitset<N>& b) noexcept {
    for (std::size_t k = 0; k < N; ++k) s_[k].set_lane(l, b[k]);
  }

  friend bool operator==(const state&, const state&) noexcept = default;

 private:
  std::array<word_type, N> s_{};
};

/// SHARED: K memory bits and P Q16.16 parameters, one copy for all lanes.
/// The bits are stored as 64-bit words (bit i is bit i % 64 of word i / 64;
/// bits past K in the last word stay 0), the form experts read and write.
template <std::size_t K, std::size_t P>
class shared_memory {
 public:
  static constexpr std::size_t bits = K;        ///< memory bits
  static constexpr std::size_t parameters = P;  ///< fixed-point parameters
  static constexpr std::size_t word_count = (K + 63) / 64;

  bool bit(std::size_t i) const { return (m_[check_bit(i) / 64] >> (i % 64)) & 1u; }
  void set_bit(std::size_t i, bool v) {
    const std::uint64_t b = std::uint64_t{1} << (check_bit(i) % 64);
    m_[i / 64] = v ? (m_[i / 64] | b) : (m_[i / 64] & ~b);
  }
  /// The 64 memory bits starting at bit `offset` (bit offset + j is bit j of
  /// the result); offset + 64 <= K.
  std::uint64_t load_word(std::size_t offset) const {
    check_range(offset);
    std::uint64_t v = 0;
    for (std::size_t j = 0; j < 64; ++j) v |= static_cast<std::uint64_t>(bit(offset + j)) << j;
    return v;
  }
  /// Stores `v` into memory bits offset .. offset + 63 (e.g. a checksum).
  void store_word(std::size_t offset, std::uint64_t v) {
    check_range(offset);
    for (std::size_t j = 0; j < 64; ++j) set_bit(offset + j, ((v >> j) & 1u) != 0);
  }
  /// Clears memory bits [begin, end) (word-wise where it can).
  void clear_range(std::size_t begin, std::size_t end) {
    if (begin > end || end > K)
      throw std::out_of_range("shared_memory: clear [" + std::to_string(begin) + ", " + std::to_string(end) +
                              ") outside K = " + std::to_string(K));
    while (begin < end && begin % 64 != 0) set_bit(begin++, false);
    while (end - begin >= 64) {
      m_[begin / 64] = 0;
      begin += 64;
    }
    while (begin < end) set_bit(begin++, false);
  }
  /// Number of memory bits set.
  std::size_t count() const noexcept {
    std::size_t n = 0;
    for (auto w : m_) n += static_cast<std::size_t>(std::popcount(w));
    return n;
  }
  /// The memory as words (read-only: writers go through set_bit, or are
  /// experts applied by the machine, which keep bits past K at 0).
  std::span<const std::uint64_t, word_count> words() const noexcept { return std::span(m_); }
  std::span<std::uint64_t, word_count> words() noexcept { return std::span(m_); }

  q16_16& parameter(std::size_t i) noexcept { return theta_[i]; }
  const q16_16& parameter(std::size_t i) const noexcept { return theta_[i]; }
  std::span<q16_16, P> theta() noexcept { return std::span(theta_); }
  std::span<const q16_16, P> theta() const noexcept { return std::span(theta_); }

  friend bool operator==(const shared_memory&, const shared_memory&) noexcept = default;

 private:
  static std::size_t check_bit(std::size_t i) {
    if (i >= K)
      throw std::out_of_range("shared_memory: bit " + std::to_string(i) + ", but K = " + std::to_string(K));
    return i;
  }
  static void check_range(std::size_t offset) {
    if (offset > K || K - offset < 64)
      throw std::out_of_range("shared_memory: 64 bits at offset " + std::to_string(offset) +
                              " do not fit in K = " + std::to_string(K) + " bits");
  }
  std::array<std::uint64_t, word_count> m_{};
  std::array<q16_16, P> theta_{};
};

/// STATE with N and W chosen at run time: N bitsets of W bits each.
class dynamic_state {
 public:
  using word_type = boost::dynamic_bitset<std::uint64_t>;

  dynamic_state(std::size_t n, std::size_t w) : w_(w), s_(n, word_type(w)) {}

  std::size_t bits() const noexcept { return s_.size(); }
  std::size_t lanes() const noexcept { return w_; }
  word_type& operator[](std::size_t k) { return s_.at(k); }
  const word_type& operator[](std::size_t k) const { return s_.at(k); }
  bool bit(std::size_t k, std::size_t l) const { return s_.at(k).test(l); }
  void set_bit(std::size_t k, std::size_t l, bool v) { s_.at(k).set(l, v); }

  friend bool operator==(const dynamic_state& a, const dynamic_state& b) { return a.w_ == b.w_ && a.s_ == b.s_; }

 private:
  std::size_t w_;
  std::vector<word_type> s_;
};

/// SHARED with K and P chosen at run time.
class dynamic_shared_memory {
 public:
  dynamic_shared_memory(std::size_t k, std::size_t p) : m_(k), theta_(p) {}

  std::size_t bits() const noexcept { return m_.size(); }
  std::size_t parameters() const noexcept { return theta_.size(); }
  bool bit(std::size_t i) const { return m_.test(i); }
  void set_bit(std::size_t i, bool v) { m_.set(i, v); }
  const boost::dynamic_bitset<std::uint64_t>& memory() const noexcept { return m_; }
  boost::dynamic_bitset<std::uint64_t>& memory() noexcept { return m_; }
  q16_16& parameter(std::size_t i) { return theta_.at(i); }
  const q16_16& parameter(std::size_t i) const { return theta_.at(i); }

  friend bool operator==(const dynamic_shared_memory& a, const dynamic_shared_memory& b) {
    return a.m_ == b.m_ && a.theta_ == b.theta_;
  }

 private:
  boost::dynamic_bitset<std::uint64_t> m_;
  std::vector<q16_16> theta_;
};

/// The same state with run-time sizes.
template <std::size_t N, std::size_t W>
dynamic_state to_dynamic(const state<N, W>& s) {
  dynamic_state d(N, W);
  for (std::size_t k = 0; k < N; ++k) {
    auto& b = d[k];
    for (std::size_t l = 0; l < W; ++l) b[l] = s[k].lane(l);
  }
  return d;
}

/// A dynamic state of exactly N bits and W lanes as a state<N, W>; other
/// sizes are an error that names both.
template <std::size_t N, std::size_t W>
state<N, W> from_dynamic(const dynamic_state& d) {
  if (d.bits() != N || d.lanes() != W)
    throw std::invalid_argument("from_dynamic: dynamic_state has N = " + std::to_string(d.bits()) + ", W = " +
                                std::to_string(d.lanes()) + "; expected N = " + std::to_string(N) +
                                ", W = " + std::to_string(W));
  state<N, W> s;
  for (std::size_t k = 0; k < N; ++k)
    for (std::size_t l = 0; l < W; ++l) s[k].set_lane(l, d[k].test(l));
  return s;
}

template <std::size_t K, std::size_t P>
dynamic_shared_memory to_dynamic(const shared_memory<K, P>& s) {
  dynamic_shared_memory d(K, P);
  for (std::size_t i = 0; i < K; ++i) d.set_bit(i, s.bit(i));
  for (std::size_t i = 0; i < P; ++i) d.parameter(i) = s.parameter(i);
  return d;
}

/// A dynamic SHARED of exactly K bits and P parameters as a shared_memory<K, P>.
template <std::size_t K, std::size_t P>
shared_memory<K, P> from_dynamic(const dynamic_shared_memory& d) {
  if (d.bits() != K || d.parameters() != P)
    throw std::invalid_argument("from_dynamic: dynamic_shared_memory has K = " + std::to_string(d.bits()) +
                                ", P = " + std::to_string(d.parameters()) + "; expected K = " + std::to_string(K) +
                                ", P = " + std::to_string(P));
  shared_memory<K, P> s;
  for (std::size_t i = 0; i < K; ++i) s.set_bit(i, d.bit(i));
  for (std::size_t i = 0; i < P; ++i) s.parameter(i) = d.parameter(i);
  return s;
}

BEM_NAMESPACE_END
