// Routers (bem/route): the concept, the exact router against brute force, the
// multi-index router's exactness and its radius bound, filters, updates while
// serving queries, the tie rule and occupancy statistics, the bucket layout,
// the portable and AVX-512 bucket kernels against each other, and the
// plain two-table MIH that bench/route times the router against.
#include <bem/machine/identifier.hpp>
#include <bem/prng.hpp>
#include <bem/route/exact_router.hpp>
#include <bem/route/multi_index_router.hpp>
#include <bem/route/router.hpp>
#include <doctest/doctest.h>

#include "../../bench/route/plain_mih.hpp"  // route_bench's peer: checked exact here

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

using bem::identifier;

namespace {

/// The reference: every stored identifier, ordered by the tie-rule key.
std::vector<bem::route_candidate> brute_force(const std::vector<identifier>& ids, identifier q,
                                              const bem::route_filter& f, std::size_t k) {
  std::vector<std::uint64_t> keys;
  keys.reserve(ids.size());
  for (identifier id : ids)
    if (f.admits(id)) keys.push_back(bem::route_key(32 - bem::gray_similarity(q, id), id));
  const std::size_t m = std::min(k, keys.size());
  std::partial_sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(m), keys.end());
  std::vector<bem::route_candidate> out;
  for (std::size_t i = 0; i < m; ++i) {
    const auto id = static_cast<identifier>(keys[i]);
    out.push_back({id, bem::gray_similarity(q, id)});
  }
  return out;
}
std::vector<bem::route_candidate> brute_force(const std::set<identifier>& ids, identifier q,
                                              const bem::route_filter& f, std::size_t k) {
  return brute_force(std::vector<identifier>(ids.begin(), ids.end()), q, f, k);
}

std::set<identifier> random_ids(std::size_t n, std::uint64_t seed) {
  bem::xoshiro256ss rng(seed);
  std::set<identifier> s;
  while (s.size() < n) s.insert(static_cast<identifier>(rng.next() >> 32));
  return s;
}

std::vector<identifier> as_vector(const std::set<identifier>& s) { return {s.begin(), s.end()}; }

/// A query near a stored id (a few flipped bits) or a fresh one.
identifier random_query(const std::vector<identifier>& stored, bem::xoshiro256ss& rng) {
  if (rng.bit()) {
    identifier q = stored[rng.uniform_below(stored.size())];
    const auto flips = rng.uniform_below(3);
    for (std::uint64_t i = 0; i < flips; ++i) q ^= 1u << rng.uniform_below(32);
    return q;
  }
  return static_cast<identifier>(rng.next() >> 32);
}

bem::route_filter random_filter(bem::xoshiro256ss& rng) {
  switch (rng.uniform_below(4)) {
    case 0: return {};
    case 1: return {bem::class_bit(static_cast<std::uint32_t>(rng.uniform_below(64))), bem::all_shards};
    case 2: return {bem::all_classes, rng.next()};  // about half the shards
    default:
      return {bem::class_bit(static_cast<std::uint32_t>(rng.uniform_below(64))) |
                  bem::class_bit(static_cast<std::uint32_t>(rng.uniform_below(64))),
              rng.next() | rng.next()};
  }
}

/// Not a router: every member, but no opt-in tag.
struct untagged {
  bool insert(identifier) { return true; }
  bool erase(identifier) { return true; }
  bool update(identifier, identifier) { return true; }
  bool contains(identifier) const { return false; }
  std::size_t size() const { return 0; }
  void query(identifier, const bem::route_filter&, std::size_t, bem::route_result&) const {}
  bem::occupancy_stats occupancy() const { return {}; }
};
struct tagged : untagged {
  using router_concept = bem::router_t;
};
/// The 0.1 member name no longer opts in (one spelling only).
struct old_spelling : untagged {
  using router_category = bem::router_t;
};
/// The concept's member naming some other tag does not opt in.
struct unrelated_tag {};
struct wrong_tag : untagged {
  using router_concept = unrelated_tag;
};

}  // namespace

TEST_CASE("the router concept needs the tag and the members") {
  static_assert(bem::router<bem::exact_router>);
  static_assert(bem::router<bem::multi_index_router>);
  static_assert(!bem::router<untagged>);
  static_assert(bem::router<tagged>);
  static_assert(!bem::router<old_spelling>);
  static_assert(!bem::router<wrong_tag>);
  static_assert(!bem::router<int>);
}

TEST_CASE("the example of router.hpp") {
  bem::exact_router r;
  r.insert(bem::make_identifier(1, 0, 2, 5));
  r.insert(bem::make_identifier(1, 0, 3, 5));
  r.insert(bem::make_identifier(2, 0, 2, 5));
  // class 1 only, any shard, K_cand = 4:
  auto res = bem::route_query(r, bem::make_identifier(1, 0, 2, 4),
                              bem::class_bit(1), bem::all_shards, 4);
  // res.candidates: {make_identifier(1,0,2,5), sim 31}, then
  //                 {make_identifier(1,0,3,5), ...}; class 2 is filtered out.
  REQUIRE(res.candidates.size() == 2);
  CHECK(res.candidates[0] == bem::route_candidate{bem::make_identifier(1, 0, 2, 5), 31});
  CHECK(res.candidates[1].id == bem::make_identifier(1, 0, 3, 5));
  CHECK(res.candidates[1].similarity ==
        bem::gray_similarity(bem::make_identifier(1, 0, 2, 4), bem::make_identifier(1, 0, 3, 5)));
  CHECK(res.exact);
}

TEST_CASE("the exact router equals brute force, with and without filters") {
  for (std::size_t n : {1u, 100u, 5000u}) {
    const auto ids = random_ids(n, 11 + n);
    const auto stored = as_vector(ids);
    bem::exact_router r;
    r.assign(stored);
    CHECK(r.size() == n);
    bem::xoshiro256ss rng(n);
    bem::route_result res;
    for (int i = 0; i < 300; ++i) {
      const identifier q = random_query(stored, rng);
      const auto f = random_filter(rng);
      for (std::size_t k : {1u, 4u, 16u, 32u}) {
        r.query(q, f, k, res);
        CHECK(res.exact);
        REQUIRE(res.candidates == brute_force(stored, q, f, k));
      }
    }
  }
}

TEST_CASE("the multi-index router in probe-until-exact mode equals brute force") {
  struct setup {
    std::size_t n;
    int tables;
  };
  for (auto [n, h] : {setup{100000, 2}, setup{20000, 3}, setup{3000, 4}, setup{500, 8}}) {
    const auto ids = random_ids(n, 7 * n + static_cast<std::size_t>(h));
    const auto stored = as_vector(ids);
    bem::multi_index_router r({h, bem::multi_index_router::suggested_capacity(n, h), bem::probe_until_exact});
    r.assign(stored);
    CHECK(r.size() == n);
    bem::xoshiro256ss rng(99 + n);
    bem::route_result res;
    int probed = 0, scanned = 0;
    for (int i = 0; i < 200; ++i) {
      const identifier q = random_query(stored, rng);
      const auto f = (i % 3 == 0) ? random_filter(rng) : bem::route_filter{};
      for (std::size_t k : {1u, 16u, 64u}) {
        r.query(q, f, k, res);
        CHECK(res.exact);
        (res.scanned ? scanned : probed) += 1;
        REQUIRE(res.candidates == brute_force(stored, q, f, k));
      }
    }
    if (n >= 20000) CHECK(probed > 0);  // the hash tables, not only the scan, did work
  }
}

TEST_CASE("at radius r every code within H(r+1)-1 is found; one at H(r+1) can be missed") {
  bem::xoshiro256ss rng(5);
  for (int h : {2, 3, 4}) {
    for (int radius : {0, 1, 2}) {
      const int bound = h * (radius + 1) - 1;
      bem::multi_index_router r({h, 4, radius});
      // Codes around one query: 30 at distance <= bound (at least 33 exist), 270 random.
      const identifier q = static_cast<identifier>(rng.next());
      const std::uint32_t gq = bem::gray_code(q);
      std::set<identifier> near, all;
      while (near.size() < 30) {
        std::uint32_t g = gq;
        const auto d = rng.uniform_below(static_cast<std::uint64_t>(bound) + 1);
        for (std::uint64_t i = 0; i < d; ++i) g ^= 1u << rng.uniform_below(32);
        near.insert(bem::gray_decode(g));
      }
      all = near;
      while (all.size() < 300) all.insert(static_cast<identifier>(rng.next()));
      for (identifier id : all) r.insert(id);
      bem::route_result res;
      r.query(q, {}, bem::max_k_cand, res);
      std::set<identifier> found;
      for (const auto& c : res.candidates) found.insert(c.id);
      for (identifier id : near) {
        CHECK(bem::gray_distance(bem::gray_code(id), gq) <= bound);
        CHECK(found.count(id) == 1);
      }
      CHECK(res.radius == radius);

      // Just beyond: r+1 flipped bits in every substring gives distance
      // H(r+1), which radius r cannot reach (the query sees no other code).
      bem::multi_index_router lone({h, 4, radius});
      std::uint32_t g = gq;
      int shift = 32;
      for (int t = 0; t < h; ++t) {
        shift -= lone.key_bits(t);  // table t keys on bits [shift, shift + B_t)
        for (int b = 0; b <= radius; ++b) g ^= 1u << (shift + b);
      }
      REQUIRE(bem::gray_distance(g, gq) == bound + 1);
      lone.insert(bem::gray_decode(g));
      lone.query(q, {}, 1, res);
      CHECK(res.candidates.empty());
      CHECK_FALSE(res.exact);
      bem::multi_index_router wider({h, 4, radius + 1});
      wider.insert(bem::gray_decode(g));
      wider.query(q, {}, 1, res);
      REQUIRE(res.candidates.size() == 1);
      CHECK(res.candidates[0].similarity == 32 - (bound + 1));
    }
  }
}

TEST_CASE("filters: selective filters are exact, scanned, and never leak") {
  const auto ids = random_ids(50000, 3);
  const auto stored = as_vector(ids);
  bem::multi_index_router r({2, 8, bem::probe_until_exact});
  r.assign(stored);
  bem::route_result res;
  const identifier q = stored[17];
  const std::uint32_t cls = bem::identifier_class(q);
  const std::uint32_t other = (cls + 1) % 64;
  r.query(q, {bem::class_bit(other), bem::all_shards}, 16, res);
  CHECK(res.scanned);  // one class of 64: scanning its partitions is cheaper
  CHECK(res.exact);
  CHECK(res.entries_examined <= r.partitions().admitted({bem::class_bit(other), bem::all_shards}) + 4096);
  for (const auto& c : res.candidates) CHECK(bem::identifier_class(c.id) == other);
  CHECK(res.candidates == brute_force(stored, q, {bem::class_bit(other), bem::all_shards}, 16));
  // An empty filter admits nothing.
  r.query(q, {0, bem::all_shards}, 16, res);
  CHECK(res.candidates.empty());
  CHECK(res.exact);
  // A filter admitting fewer codes than K_cand returns all of them.
  const bem::route_filter tiny{bem::class_bit(cls), bem::shard_bit(bem::identifier_shard(q))};
  const auto expect = brute_force(stored, q, tiny, bem::max_k_cand);
  REQUIRE(expect.size() < 64);
  r.query(q, tiny, 64, res);
  CHECK(res.candidates == expect);
  CHECK(res.candidates.front().id == q);
  bem::exact_router e;
  e.assign(stored);
  e.query(q, tiny, 64, res);
  CHECK(res.candidates == expect);
  CHECK(res.entries_examined == expect.size());  // one partition, nothing else read
}

TEST_CASE_TEMPLATE("insert, erase and update while serving queries", R, bem::exact_router, bem::multi_index_router) {
  // Small tables and C_entry = 2 force spilled buckets for the hashing router.
  auto make = [] {
    if constexpr (std::is_same_v<R, bem::multi_index_router>) return R({2, 2, bem::probe_until_exact});
    else return R();
  };
  R r = make();
  std::set<identifier> ref;
  bem::xoshiro256ss rng(21);
  // Identifiers from a small space (two classes, 4 shards) so buckets collide.
  auto draw = [&] {
    return bem::make_identifier(static_cast<std::uint32_t>(rng.uniform_below(2)), 0,
                                static_cast<std::uint32_t>(rng.uniform_below(4)),
                                static_cast<std::uint32_t>(rng.uniform_below(64)));
  };
  bem::route_result res;
  for (int step = 0; step < 3000; ++step) {
    const identifier a = draw(), b = draw();
    switch (rng.uniform_below(3)) {
      case 0: CHECK(r.insert(a) == ref.insert(a).second); break;
      case 1: CHECK(r.erase(a) == (ref.erase(a) == 1)); break;
      default: {
        const bool ok = ref.count(a) == 1 && (a == b || ref.count(b) == 0);
        CHECK(r.update(a, b) == ok);
        if (ok) {
          ref.erase(a);
          ref.insert(b);
        }
      }
    }
    REQUIRE(r.size() == ref.size());
    CHECK(r.contains(a) == (ref.count(a) == 1));
    const identifier q = draw() ^ static_cast<identifier>(rng.uniform_below(8));
    const auto f = random_filter(rng);
    r.query(q, f, 8, res);
    REQUIRE(res.candidates == brute_force(ref, q, f, 8));
    if (step == 1500 && std::is_same_v<R, bem::multi_index_router>) CHECK(r.occupancy().overflow_entries > 0);
  }
  for (identifier id : std::vector<identifier>(ref.begin(), ref.end())) CHECK(r.erase(id));
  CHECK(r.size() == 0);
  CHECK(r.occupancy().max == 0);
  CHECK(r.occupancy().overflow_entries == 0);
}

TEST_CASE("the tie rule: higher similarity first, then the lower identifier, whatever the order") {
  // Four codes at distance 1 from q and one at distance 0.
  const identifier q = 0x12345678u;
  const std::uint32_t gq = bem::gray_code(q);
  std::vector<identifier> ids = {bem::gray_decode(gq ^ 1u), bem::gray_decode(gq ^ (1u << 31)),
                                 bem::gray_decode(gq ^ (1u << 16)), bem::gray_decode(gq ^ (1u << 15)), q};
  std::vector<identifier> sorted_by_id(ids.begin(), ids.end() - 1);
  std::sort(sorted_by_id.begin(), sorted_by_id.end());
  bem::multi_index_router a({2, 1, bem::probe_until_exact}), b({2, 1, bem::probe_until_exact});
  bem::exact_router e;
  for (identifier id : ids) a.insert(id);
  for (auto it = ids.rbegin(); it != ids.rend(); ++it) b.insert(*it);
  e.assign(ids);
  bem::route_result ra, rb, re;
  a.query(q, {}, 3, ra);
  b.query(q, {}, 3, rb);
  e.query(q, {}, 3, re);
  REQUIRE(ra.candidates.size() == 3);
  CHECK(ra.candidates[0] == bem::route_candidate{q, 32});
  CHECK(ra.candidates[1] == bem::route_candidate{sorted_by_id[0], 31});
  CHECK(ra.candidates[2] == bem::route_candidate{sorted_by_id[1], 31});
  CHECK(ra.candidates == rb.candidates);
  CHECK(ra.candidates == re.candidates);
  // Random sets in two insertion orders with spills: identical answers.
  const auto many = as_vector(random_ids(20000, 8));
  bem::multi_index_router c({2, 1, bem::probe_until_exact}), d({2, 1, bem::probe_until_exact});
  for (identifier id : many) c.insert(id);
  for (auto it = many.rbegin(); it != many.rend(); ++it) d.insert(*it);
  bem::xoshiro256ss rng(4);
  for (int i = 0; i < 200; ++i) {
    const identifier x = random_query(many, rng);
    c.query(x, {}, 16, ra);
    d.query(x, {}, 16, rb);
    REQUIRE(ra.candidates == rb.candidates);
  }
  // The same through the buckets alone: radius 16 covers every key, and the
  // fixed-radius mode never falls back to the scan (the queries above mostly
  // did, at this size).
  bem::multi_index_router f({2, 1, 16}), g({2, 1, 16});
  for (identifier id : many) f.insert(id);
  for (auto it = many.rbegin(); it != many.rend(); ++it) g.insert(*it);
  bem::exact_router truth;
  truth.assign(many);
  for (int i = 0; i < 50; ++i) {
    const identifier x = random_query(many, rng);
    f.query(x, {}, 16, ra);
    g.query(x, {}, 16, rb);
    truth.query(x, {}, 16, re);
    REQUIRE_FALSE(ra.scanned);
    REQUIRE(ra.candidates == rb.candidates);
    REQUIRE(ra.candidates == re.candidates);
  }
}

TEST_CASE("a tie at the K-th distance goes to the lower identifier wherever the scan meets it") {
  // Every stored code is at distance 3 from the query, so the answer is the K
  // lowest identifiers. Flipping Gray bits below 26 changes identifier bits
  // below 26 only: one class. Within it the scan meets codes in shard order
  // (bits 14-19), not in identifier order (bits 20-25 come first), so a block
  // met after the top K is full, whose nearest code is exactly at the K-th
  // distance, may still hold a lower identifier and must be looked at.
  const identifier q = 0x9abcdef0u;
  const std::uint32_t gq = bem::gray_code(q);
  std::vector<identifier> ids;
  for (int a = 0; a < 26; ++a)
    for (int b = a + 1; b < 26; ++b)
      for (int c = b + 1; c < 26; ++c) ids.push_back(bem::gray_decode(gq ^ (1u << a) ^ (1u << b) ^ (1u << c)));
  REQUIRE(ids.size() == 2600);
  bem::exact_router e;
  e.assign(ids);
  bem::multi_index_router m({2, 1, bem::probe_until_exact});
  for (identifier id : ids) m.insert(id);
  std::vector<std::uint32_t> codes(e.codes().begin(), e.codes().end());
  bem::route_result re, rm;
  for (std::size_t k : {1u, 4u, 16u}) {
    CAPTURE(k);
    const auto truth = brute_force(ids, q, {}, k);
    REQUIRE(truth.size() == k);
    CHECK(truth.back().similarity == 29);
    e.query(q, {}, k, re);
    m.query(q, {}, k, rm);
    CHECK(re.candidates == truth);
    CHECK(rm.candidates == truth);
    bem::detail::top_k portable;
    portable.reset(k, nullptr);
    bem::detail::scan_codes_portable(codes.data(), codes.size(), gq, portable);
    std::vector<bem::route_candidate> cp;
    portable.write(cp);
    CHECK(cp == truth);
  }
}

TEST_CASE("occupancy statistics count buckets, extremes, mean and spills") {
  // Table 0 keys on the top 16 Gray bits: five codes share one bucket there.
  bem::multi_index_router r({2, 4, bem::probe_until_exact});
  for (std::uint32_t low = 0; low < 5; ++low) r.insert(bem::gray_decode((0xABCDu << 16) | (low * 0x1111u)));
  r.insert(bem::gray_decode(0x00010001u));
  const auto s = r.occupancy();
  CHECK(s.buckets == 2 * 65536);
  CHECK(s.min == 0);
  CHECK(s.max == 5);
  CHECK(s.mean == doctest::Approx(12.0 / (2 * 65536)));
  CHECK(s.overflow_entries == 1);  // C_entry = 4: one of the five spilled
  // The exact router's buckets are the 4096 (class, shard) partitions.
  bem::exact_router e;
  std::vector<identifier> ids;
  for (std::uint32_t i = 0; i < 7; ++i) ids.push_back(bem::make_identifier(3, 0, 9, i));
  ids.push_back(bem::make_identifier(4, 0, 9, 0));
  e.assign(ids);
  const auto p = e.occupancy();
  CHECK(p.buckets == 4096);
  CHECK(p.min == 0);
  CHECK(p.max == 7);
  CHECK(p.mean == doctest::Approx(8.0 / 4096));
  CHECK(e.partition_size(bem::route_partition(ids[0])) == 7);
  // Capacities fill whole lines with the header: 16-bit slots for H = 2, else 32-bit.
  CHECK(bem::multi_index_router::suggested_capacity(1000000, 2) == 31);
  CHECK(bem::multi_index_router::suggested_capacity(10, 2) == 31);
  CHECK(bem::multi_index_router::suggested_capacity(5000000, 2) == 159);
  CHECK(bem::multi_index_router::suggested_capacity(20000, 3) == 31);
  CHECK(bem::multi_index_router::suggested_capacity(100, 4) == 15);
}

TEST_CASE("the portable scan kernel agrees with the dispatched one") {
  const auto ids = as_vector(random_ids(3000, 12));
  std::vector<std::uint32_t> codes;
  for (identifier id : ids) codes.push_back(bem::gray_code(id));
  bem::xoshiro256ss rng(2);
  for (int i = 0; i < 100; ++i) {
    const identifier q = random_query(ids, rng);
    const std::size_t n = rng.uniform_below(codes.size() + 1);
    bem::detail::top_k a, b;
    a.reset(16, nullptr);
    b.reset(16, nullptr);
    bem::detail::scan_codes_portable(codes.data(), n, bem::gray_code(q), a);
    bem::detail::scan_codes(codes.data(), n, bem::gray_code(q), b);
    std::vector<bem::route_candidate> ca, cb;
    a.write(ca);
    b.write(cb);
    REQUIRE(ca == cb);
    CHECK(ca == brute_force(std::set<identifier>(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n)), q, {}, 16));
  }
}

namespace {

/// The tables and probe plan multi_index_router builds for H tables.
template <class S>
struct raw_tables {
  std::vector<bem::detail::mih_table<S>> tabs;
  bem::detail::probe_plan plan;
  raw_tables(int h, std::size_t cap) {
    std::vector<int> widths;
    int shift = 32;
    for (int t = 0; t < h; ++t) {
      const int bits = 32 / h + (t < 32 % h ? 1 : 0);
      shift -= bits;
      tabs.emplace_back(bits, shift, cap);
      widths.push_back(bits);
    }
    plan = bem::detail::probe_plan(widths);
  }
};

/// Runs one probe with the given bucket scan and returns what it found.
template <class S, class Probe>
std::vector<bem::route_candidate> run_probe(Probe probe, const raw_tables<S>& rt, std::uint32_t gq, int r_end,
                                            std::size_t k, std::size_t admitted, bem::detail::probe_stats& st,
                                            bool& certified, int& radius) {
  bem::detail::top_k top;
  top.reset(std::min(k, admitted), nullptr);
  radius = -1;
  certified = probe(rt.tabs, rt.plan, gq, r_end, std::min(k, admitted), admitted, top, st, radius);
  std::vector<bem::route_candidate> out;
  top.write(out);
  return out;
}

template <class S>
void check_bucket_kernels(int h, std::size_t cap, std::size_t n, std::uint64_t seed) {
  raw_tables<S> rt(h, cap);
  const auto ids = as_vector(random_ids(n, seed));
  for (identifier id : ids)
    for (auto& tb : rt.tabs) tb.add(bem::gray_code(id));
  int rmax = 32;
  for (const auto& tb : rt.tabs) rmax = std::min(rmax, tb.bits);
  bem::xoshiro256ss rng(seed + 1);
  for (int i = 0; i < 100; ++i) {
    const identifier q = random_query(ids, rng);
    const std::size_t k = 1 + rng.uniform_below(40);
    const int r_end = i % 2 ? rmax + 1 : 1 + static_cast<int>(rng.uniform_below(3));
    bem::detail::probe_stats sp;
    bool cp = false;
    int rp = 0;
    const auto portable = run_probe(
        [](auto&&... a) { return bem::detail::probe_tables<bem::detail::bucket_scan_portable>(a...); }, rt,
        bem::gray_code(q), r_end, k, ids.size(), sp, cp, rp);
    if (cp) REQUIRE(portable == brute_force(ids, q, {}, k));
    if (r_end == rmax + 1) CHECK(cp);  // the narrowest table probed completely sees every code
#if BEM_DETAIL_ROUTE_AVX512
    if (bem::detail::route_cpu_has_avx512_buckets()) {
      bem::detail::probe_stats sv;
      bool cv = false;
      int rv = 0;
      const auto vec = run_probe([](auto&&... a) { return bem::detail::probe_tables_avx512(a...); }, rt,
                                 bem::gray_code(q), r_end, k, ids.size(), sv, cv, rv);
      REQUIRE(vec == portable);
      CHECK(cv == cp);
      CHECK(rv == rp);
      CHECK(sv.buckets == sp.buckets);
      CHECK(sv.entries == sp.entries);
      CHECK(sv.lines == sp.lines);
    }
#endif
  }
}

}  // namespace

TEST_CASE("the portable and AVX-512 bucket kernels agree, with spills and multi-line buckets") {
  // 16-bit slots (H = 2): one line (C = 31), spills (C = 3), four lines (C = 100).
  check_bucket_kernels<std::uint16_t>(2, 31, 200000, 1);
  check_bucket_kernels<std::uint16_t>(2, 3, 300000, 2);
  check_bucket_kernels<std::uint16_t>(2, 100, 100000, 3);
  // 32-bit slots (H = 3, 4): one line, two lines, spills.
  check_bucket_kernels<std::uint32_t>(3, 15, 5000, 4);
  check_bucket_kernels<std::uint32_t>(3, 31, 20000, 5);
  check_bucket_kernels<std::uint32_t>(4, 2, 3000, 6);
}

TEST_CASE("bucket layout: one 64-byte line per bucket with H = 2, C_entry = 31; remainders round-trip") {
  bem::multi_index_router r({2, 31, bem::probe_until_exact});
  CHECK(r.memory_bytes() == 2 * 65536 * 64);
  bem::multi_index_router wide({2, 32, bem::probe_until_exact});  // header + 32 slots: two lines
  CHECK(wide.memory_bytes() == 2 * 65536 * 128);
  raw_tables<std::uint32_t> rt(3, 15);
  raw_tables<std::uint16_t> rn(2, 31);
  bem::xoshiro256ss rng(3);
  for (int i = 0; i < 1000; ++i) {
    const auto g = static_cast<std::uint32_t>(rng.next());
    for (const auto& tb : rt.tabs) CHECK(tb.code(tb.key(g), tb.remainder(g)) == g);
    for (const auto& tb : rn.tabs) CHECK(tb.code(tb.key(g), tb.remainder(g)) == g);
  }
  // Plan: radius r of table t holds C(B_t, r) masks, in table order within a radius.
  CHECK(rn.plan.size(0) == 1);
  CHECK(rn.plan.size(2) == 16);
  CHECK(rn.plan.size(5) == 120);
  CHECK(rt.plan.size(3 * 1 + 2) == 10);  // table 2 has 10 key bits
}

TEST_CASE("more tables: updates with spills stay exact") {
  // until_exact mostly scans at this size; radius 16 (every key of the
  // 10- and 11-bit tables) answers from the buckets and their spills alone.
  bem::multi_index_router r({3, 1, bem::probe_until_exact}), probed({3, 1, 16});
  std::set<identifier> ref;
  bem::xoshiro256ss rng(8);
  bem::route_result res;
  for (int step = 0; step < 2000; ++step) {
    const auto a = static_cast<identifier>(rng.next() & 0x00FF00FFu);  // few distinct keys: many spills
    if (rng.bit()) {
      const bool fresh = ref.insert(a).second;
      CHECK(r.insert(a) == fresh);
      CHECK(probed.insert(a) == fresh);
    } else {
      const bool present = ref.erase(a) == 1;
      CHECK(r.erase(a) == present);
      CHECK(probed.erase(a) == present);
    }
    const auto q = static_cast<identifier>(rng.next() & 0x01FF01FFu);
    const auto truth = brute_force(ref, q, {}, 8);
    r.query(q, {}, 8, res);
    CHECK(res.exact);
    REQUIRE(res.candidates == truth);
    probed.query(q, {}, 8, res);
    REQUIRE_FALSE(res.scanned);
    REQUIRE(res.candidates == truth);
    if (step == 1000) CHECK(probed.occupancy().overflow_entries > 0);
  }
}

TEST_CASE("bad configurations and K_cand are errors") {
  CHECK_THROWS_AS(bem::multi_index_router({1, 8, 0}), std::invalid_argument);
  CHECK_THROWS_AS(bem::multi_index_router({9, 8, 0}), std::invalid_argument);
  CHECK_THROWS_AS(bem::multi_index_router({2, 0, 0}), std::invalid_argument);
  CHECK_THROWS_AS(bem::multi_index_router({2, 8, -2}), std::invalid_argument);
  bem::exact_router e;
  bem::route_result res;
  CHECK_THROWS_AS(e.query(1, {}, bem::max_k_cand + 1, res), std::invalid_argument);
  e.query(1, {}, 0, res);
  CHECK(res.candidates.empty());
}

TEST_CASE("the bench's plain MIH peer equals brute force: radius 1, its fallback, ties") {
  // 10^5 codes: radius 1 (distance <= 3) certifies some k = 1 answers, almost
  // no k = 16 answer, so both the hash probes and the fallback (radius 2+,
  // then the scan) are exercised; 300 codes make the scan itself answer.
  for (std::size_t n : {100000u, 300u}) {
    const auto stored = as_vector(random_ids(n, 31 + n));
    bem_bench::plain_mih peer;
    peer.assign(stored);
    bem::xoshiro256ss rng(17 + n);
    std::vector<bem::route_candidate> out;
    for (int i = 0; i < 200; ++i) {
      const identifier q = random_query(stored, rng);
      for (std::size_t k : {1u, 16u, 64u}) {
        peer.query(q, k, out);
        REQUIRE(out == brute_force(stored, q, {}, k));
      }
    }
    if (n == 100000u) CHECK(peer.exact_after_radius1 > 0);
  }
  // Ties: every code at distance 3 from q, so the answer is the K lowest
  // identifiers, found by radius 1 (each code differs in <= 1 bit of one half).
  const identifier q = 0x9abcdef0u;
  const std::uint32_t gq = bem::gray_code(q);
  std::vector<identifier> ids;
  for (int a = 0; a < 32; ++a)
    for (int b = a + 1; b < 32; ++b)
      for (int c = b + 1; c < 32; ++c) ids.push_back(bem::gray_decode(gq ^ (1u << a) ^ (1u << b) ^ (1u << c)));
  bem_bench::plain_mih peer;
  peer.assign(ids);
  std::vector<bem::route_candidate> out;
  for (std::size_t k : {1u, 16u, 256u}) {
    peer.query(q, k, out);
    CHECK(out == brute_force(ids, q, {}, k));
  }
}

TEST_CASE("at N = 10^6 the seeded top-K threshold keeps probing exact: k = 1 and 16, ties at the seed") {
  // At this size the router seeds its top K with distance 5 (k = 1 and 16):
  // the probe refuses every farther code from the first bucket on, and the
  // answer must still equal the full scan's, ties included. One query gets
  // 40 extra codes at distance 5 and 2 at distance 4, so its 16th neighbour
  // lies at the seed with many ties there.
  auto stored = as_vector(random_ids(1000000, 12));
  const identifier q0 = 0x13572468u;
  const std::uint32_t g0 = bem::gray_code(q0);
  bem::xoshiro256ss rng(21);
  const auto random_mask = [&](int bits) {
    std::uint32_t m = 0;
    while (std::popcount(m) < bits) m |= 1u << rng.uniform_below(32);
    return m;
  };
  std::set<identifier> extra;
  while (extra.size() < 2) extra.insert(bem::gray_decode(g0 ^ random_mask(4)));
  while (extra.size() < 42) extra.insert(bem::gray_decode(g0 ^ random_mask(5)));
  stored.insert(stored.end(), extra.begin(), extra.end());
  std::sort(stored.begin(), stored.end());
  stored.erase(std::unique(stored.begin(), stored.end()), stored.end());
  bem::multi_index_router r({2, bem::multi_index_router::suggested_capacity(stored.size(), 2), bem::probe_until_exact});
  r.assign(stored);
  bem::exact_router truth;
  truth.assign(stored);
  bem::route_result res, want;
  truth.query(q0, {}, 16, want);
  REQUIRE(want.candidates.back().similarity == 27);  // the 16th is at distance 5, among ties
  int probed = 0, total = 0;
  for (int i = 0; i < 300; ++i) {
    const identifier q = i == 0 ? q0 : random_query(stored, rng);
    for (std::size_t k : {1u, 16u}) {
      CAPTURE(q);
      CAPTURE(k);
      r.query(q, {}, k, res);
      truth.query(q, {}, k, want);
      CHECK(res.exact);
      REQUIRE(res.candidates == want.candidates);
      probed += !res.scanned;
      ++total;
    }
  }
  CHECK(probed > total * 9 / 10);  // the hash probe, not the scan fallback, answered
}
