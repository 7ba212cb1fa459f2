// ROUTE: the router policy concept, query results, filters, the tie rule.
//
// A router holds a set of expert identifiers (bem/machine/identifier.hpp) and answers
// ROUTE_QUERY(q, class_expert, shard_filter, K_cand) of the BEM core (ANN_QUERY
// with k_large = K_cand): the K_cand stored identifiers most similar to q under
// sim(a, b) = 32 - popcount(g(a) ^ g(b)), restricted to identifiers whose class
// and shard pass a filter. Routers store Gray codes g(u); because g is linear,
// Hamming distance between stored codes is exactly 32 - similarity.
//
// ## The tie rule
// Random identifiers have Binomial(32, 1/2) distances, so equal similarities
// are common. Every router orders candidates by the key
//     route_key(distance, id) = (distance << 32) | id
// ascending: higher similarity first, then the lower identifier. The key is a
// total order on identifiers for a fixed query, so "the true top K" is unique
// and two exact routers return identical candidate lists.
//
// ## router (concept)
// Minimal definition — a type `R` with
//   `using router_concept = bem::router_t;`           explicit opt-in
//   `bool insert(identifier id)`                       false if already stored
//   `bool erase(identifier id)`                        false if not stored
//   `bool update(identifier from, identifier to)`      re-key one entry; false
//                                                      (nothing changes) if
//                                                      `from` is absent or `to`
//                                                      is another stored id
//   `bool contains(identifier id) const`
//   `std::size_t size() const`
//   `void query(identifier q, const route_filter& f, std::size_t k,
//               route_result& out) const`              fills `out`
//   `occupancy_stats occupancy() const`                bucket occupancy
// Laws (checked by tests/route):
//   1. Set semantics: after any sequence of insert/erase/update the stored set
//      is what the same operations do to a std::set, and `size()` is its size.
//      Updates are served between queries: no rebuild, and every query sees
//      every completed operation.
//   2. Soundness: `out.candidates` holds at most k distinct stored identifiers
//      that pass the filter, sorted by route_key, each with its exact
//      similarity to q.
//   3. Certificate: when `out.exact` is true, the candidates are exactly the
//      first min(k, admitted) admitted identifiers in route_key order (the
//      true top K under the tie rule).
//   4. Determinism: the result depends only on the stored set, q, the filter
//      and k — never on insertion order or history.
// Models: bem::exact_router (bem/route/exact_router.hpp; law 3 always holds,
// `exact` is always true) and bem::multi_index_router
// (bem/route/multi_index_router.hpp; exact in its probe-until-exact mode, and
// at fixed probe radius r it finds every code within distance H(r+1) - 1).
//
// Example (compiled by tests/route/router.cpp):
//
//     bem::exact_router r;
//     r.insert(bem::make_identifier(1, 0, 2, 5));
//     r.insert(bem::make_identifier(1, 0, 3, 5));
//     r.insert(bem::make_identifier(2, 0, 2, 5));
//     // class 1 only, any shard, K_cand = 4:
//     auto res = bem::route_query(r, bem::make_identifier(1, 0, 2, 4),
//                                 bem::class_bit(1), bem::all_shards, 4);
//     // res.candidates: {make_identifier(1,0,2,5), sim 31}, then
//     //                 {make_identifier(1,0,3,5), ...}; class 2 is filtered out.
#pragma once

#include <bem/machine/identifier.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

/// The opt-in tag: a router declares `using router_concept = bem::router_t;`.
struct router_t {};

/// Number of distinct classes and shards (6 bits each).
inline constexpr int identifier_classes = 1 << identifier_class_bits;
inline constexpr int identifier_shards = 1 << identifier_shard_bits;
/// Routers partition identifiers by (class, shard): 4096 partitions.
inline constexpr int route_partitions = identifier_classes * identifier_shards;

/// A filter mask admitting every class (or every shard).
inline constexpr std::uint64_t all_classes = ~std::uint64_t{0};
inline constexpr std::uint64_t all_shards = ~std::uint64_t{0};
/// The filter mask admitting class `c` (or shard `c`) only; OR them to admit several.
constexpr std::uint64_t class_bit(std::uint32_t c) noexcept { return std::uint64_t{1} << (c & 63u); }
constexpr std::uint64_t shard_bit(std::uint32_t s) noexcept { return std::uint64_t{1} << (s & 63u); }

/// The (class, shard) partition of an identifier, class-major: class * 64 + shard.
constexpr std::uint32_t route_partition(identifier id) noexcept {
  return (identifier_class(id) << identifier_shard_bits) | identifier_shard(id);
}

/// Which identifiers a query may return: bit c of `classes` admits class c,
/// bit s of `shards` admits shard s; an identifier must pass both.
struct route_filter {
  std::uint64_t classes = all_classes;
  std::uint64_t shards = all_shards;

  constexpr bool admits(identifier id) const noexcept {
    return ((classes >> identifier_class(id)) & (shards >> identifier_shard(id)) & 1u) != 0;
  }
  constexpr bool admits_everything() const noexcept { return classes == all_classes && shards == all_shards; }
};

/// The largest K_cand a query accepts (the core spec's k_large is 16..64).
inline constexpr std::size_t max_k_cand = 256;

/// The tie-rule key: distance first, then identifier (lower is better).
constexpr std::uint64_t route_key(int distance, identifier id) noexcept {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(distance)) << 32) | id;
}

/// One candidate: the identifier and its similarity to the query.
struct route_candidate {
  identifier id = 0;
  int similarity = 0;  ///< 32 - Hamming distance of the Gray codes
  friend bool operator==(const route_candidate&, const route_candidate&) = default;
};

/// The answer to one query plus what it cost (deterministic counts).
struct route_result {
  std::vector<route_candidate> candidates;  ///< best first (route_key order)
  bool exact = false;                       ///< law 3 certified for this query
  bool scanned = false;                     ///< answered by scanning the admitted partitions
  int radius = -1;                          ///< last probe radius completed (-1: none)
  std::uint32_t buckets_probed = 0;         ///< hash buckets (or partitions) visited
  std::uint32_t entries_examined = 0;       ///< stored codes compared with the query
  std::uint32_t cache_lines = 0;            ///< 64-byte lines of bucket or scan data read, counted
                                            ///< from each array's start as if line-aligned

  void clear() noexcept {
    candidates.clear();
    exact = scanned = false;
    radius = -1;
    buckets_probed = entries_examined = cache_lines = 0;
  }
};

/// Occupancy of a router's buckets (hash buckets, or (class, shard) partitions).
struct occupancy_stats {
  std::size_t buckets = 0;             ///< over all tables
  std::size_t min = 0;                 ///< entries in the emptiest bucket
  std::size_t max = 0;                 ///< entries in the fullest bucket
  double mean = 0.0;                   ///< entries per bucket
  std::size_t overflow_entries = 0;    ///< entries stored beyond a bucket's capacity
};

namespace detail {
template <class R>
concept router_opted_in = requires { typename R::router_concept; } &&
                          std::derived_from<typename R::router_concept, router_t>;
template <class R>
concept router_mutable = requires(R& r, identifier a, identifier b) {
  { r.insert(a) } -> std::same_as<bool>;
  { r.erase(a) } -> std::same_as<bool>;
  { r.update(a, b) } -> std::same_as<bool>;
};
template <class R>
concept router_queryable = requires(const R& r, identifier q, const route_filter& f, std::size_t k, route_result& out) {
  { r.contains(q) } -> std::same_as<bool>;
  { r.size() } -> std::convertible_to<std::size_t>;
  { r.query(q, f, k, out) } -> std::same_as<void>;
  { r.occupancy() } -> std::same_as<occupancy_stats>;
};
}  // namespace detail

template <class R>
concept router = detail::router_opted_in<R> && detail::router_mutable<R> && detail::router_queryable<R>;

/// Asserts each requirement of `router` on its own, with a readable message.
template <class R>
consteval bool assert_router() {
  static_assert(detail::router_opted_in<R>,
                "bem::router: the router must opt in with `using router_concept = bem::router_t;`");
  static_assert(detail::router_mutable<R>,
                "bem::router: the router needs `bool insert(identifier)`, `bool erase(identifier)` and "
                "`bool update(identifier, identifier)`");
  static_assert(detail::router_queryable<R>,
                "bem::router: the router needs `contains`, `size`, `void query(identifier, const route_filter&, "
                "std::size_t, route_result&) const` and `occupancy_stats occupancy() const`");
  return true;
}

/// ROUTE_QUERY(q, class_expert, shard_filter, K_cand): the class and shard
/// masks as in route_filter (class_bit(c) for one class, all_classes for any).
template <class R>
route_result route_query(const R& r, identifier q, std::uint64_t class_filter, std::uint64_t shard_filter,
                         std::size_t k_cand) {
  static_assert(assert_router<R>());
  route_result out;
  r.query(q, route_filter{class_filter, shard_filter}, k_cand, out);
  return out;
}

namespace detail {

/// Throws unless k <= max_k_cand (shared by the routers' query()).
inline void check_k_cand(std::size_t k) {
  if (k > max_k_cand)
    throw std::invalid_argument("route query: K_cand = " + std::to_string(k) + " exceeds max_k_cand = " +
                                std::to_string(max_k_cand));
}

/// The running top K in route_key order, with duplicate suppression (a
/// multi-index router meets the same code in several tables). Offers are
/// rejected early when their distance exceeds `threshold()`.
class top_k {
 public:
  void reset(std::size_t k, const route_filter* filter) noexcept {
    k_ = k;
    n_ = 0;
    filter_ = filter;
    threshold_ = k == 0 ? -1 : 32;
  }
  /// Codes at a larger distance can never enter (ties at it still may).
  int threshold() const noexcept { return threshold_; }
  /// Refuses every later offer at a distance above t, full or not. The
  /// caller must then check full(): if it is not, codes above t may have
  /// been refused that belong to the answer.
  void cap_threshold(int t) noexcept { threshold_ = std::min(threshold_, t); }
  std::size_t size() const noexcept { return n_; }
  bool full() const noexcept { return n_ == k_; }
  /// Distance of the current K-th entry (only meaningful when full()).
  int worst_distance() const noexcept { return n_ ? static_cast<int>(keys_[n_ - 1] >> 32) : 32; }

  /// Offers the stored Gray code `code` at Hamming distance `d`.
  void offer(int d, std::uint32_t code) noexcept {
    if (d > threshold_) return;
    const identifier id = gray_decode(code);
    if (filter_ != nullptr && !filter_->admits(id)) return;
    const std::uint64_t key = route_key(d, id);
    if (n_ == k_ && key >= keys_[n_ - 1]) return;
    std::size_t p = n_;
    while (p > 0 && keys_[p - 1] > key) --p;
    if (p > 0 && keys_[p - 1] == key) return;  // already present
    const std::size_t last = n_ == k_ ? n_ - 1 : n_;
    for (std::size_t j = last; j > p; --j) keys_[j] = keys_[j - 1];
    keys_[p] = key;
    if (n_ < k_) ++n_;
    if (n_ == k_) threshold_ = static_cast<int>(keys_[n_ - 1] >> 32);
  }

  void write(std::vector<route_candidate>& out) const {
    out.resize(n_);
    for (std::size_t i = 0; i < n_; ++i)
      out[i] = {static_cast<identifier>(keys_[i]), 32 - static_cast<int>(keys_[i] >> 32)};
  }

 private:
  std::uint64_t keys_[max_k_cand];  // only [0, n_) is read: left uninitialised, a query resets n_ alone
  std::size_t k_ = 0, n_ = 0;
  const route_filter* filter_ = nullptr;
  int threshold_ = -1;
};

}  // namespace detail

BEM_NAMESPACE_END
