// The multi-index hashing router (Norouzi, Punjani & Fleet, "Fast search in
// Hamming space with multi-index hashing", CVPR 2012) for 32-bit Gray codes.
//
// Structure. The 32 bits of a stored Gray code are cut into H contiguous
// substrings, table 0 taking the most significant bits; substring t has
// B_t = floor(32 / H) bits, plus one for the first 32 mod H tables, so the
// substrings partition the code. Table t has 2^B_t buckets keyed by
// substring t; every stored code sits in one bucket of every table. A bucket
// is C_entry inline slots (a contiguous run of 32-bit codes, so a bucket scan
// is one or two cache lines) and a count.
//
// Overflow rule. A bucket holding more than C_entry codes keeps the first
// C_entry inline and the rest in a per-bucket spill list (a hash map from
// bucket to a vector); queries read both. Nothing is ever evicted, so
// overflow costs time, never recall; occupancy() reports how many entries
// spilled. Erasing from a spilled bucket moves a spilled entry back inline.
//
// Query at probe radius r. For each table, visit every bucket whose key
// differs from the query's substring in exactly 0, 1, ..., r bits (keys by
// Gosper's enumeration of r-bit masks), compare each code found with the query
// (exact Hamming distance, the same kernel as exact_router) and keep the top
// K_cand under the tie rule (bem/route/router.hpp).
//
// Guarantee (pigeonhole). After radius r in all tables, every stored code at
// distance <= H(r+1) - 1 from the query has been examined: if each of its H
// substrings differed in more than r bits the distance would be at least
// H(r+1). So the result is certified exact (law 3) as soon as K_cand admitted
// codes are held and the K-th has distance <= H(r+1) - 1: no unseen code can
// beat or tie it. A code at distance H(r+1) can be missed (r+1 differing bits
// in every substring). The check runs after each table: with tables 0..t at
// radius r and the rest at r - 1, unseen codes are at distance >= Hr + t + 1,
// which often certifies k = 1 answers half a radius early.
//
// Modes. `probe_radius = r >= 0` stops after radius r (approximate, with the
// guarantee above). `probe_radius = probe_until_exact` (the default) widens
// the radius until the certificate holds; before starting a radius whose cost
// estimate exceeds scanning the admitted partitions it scans them instead
// (through an internal exact_router), so it is always exact and never costs
// much more than a scan. Cost model, in "codes scanned" units: a bucket visit
// counts bucket_visit_cost = 128 (a likely cache miss and a call, against a 16-wide vector
// compare) plus the table's mean occupancy; the scan counts one per admitted
// code.
//
// Filters. Candidates are checked against the class and shard filter when
// they could enter the top K. A selective filter (one class of 64 admits
// 1/64 of the codes) makes the certificate need larger radii, so the cost rule
// above switches such queries to scanning the admitted partitions: a class
// filter never scans more than its class.
//
// Mapping onto the BEM core: K_cand is k_large (16..64); H tables, B key bits
// and C_entry are the suite's routing parameters; the probe radius bounds the
// search work per table as D_max bounds the depth of a graph search, and
// C_entry bounds the entries read per bucket as M_max bounds a node's degree.
//
// Updates (insert, erase, update) touch one bucket per table plus the exact
// router's partition: O(H C_entry + 4096) per operation, no rebuild; queries
// between updates see them at once. Not safe for concurrent use from
// several threads (one writer or many readers at a time).
#pragma once

#include <bem/identifier.hpp>
#include <bem/route/exact_router.hpp>
#include <bem/route/router.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

BEM_NAMESPACE_BEGIN

/// multi_index_router::config::probe_radius value that widens until exact.
inline constexpr int probe_until_exact = -1;

/// The routing parameters of multi_index_router.
struct multi_index_config {
  int tables = 2;                        ///< H, in [2, 8]
  int capacity = 32;                     ///< C_entry, inline slots per bucket, in [1, 1024]
  int probe_radius = probe_until_exact;  ///< r >= 0, or probe_until_exact
};

class multi_index_router {
 public:
  using router_category = router_tag;

  using config = multi_index_config;

  /// Cost of visiting one bucket in units of one scanned code (see above).
  static constexpr double bucket_visit_cost = 128.0;

  explicit multi_index_router(config c = {}) : cfg_(c) {
    if (c.tables < 2 || c.tables > 8)
      throw std::invalid_argument("multi_index_router: tables (H) must lie in [2, 8], got " +
                                  std::to_string(c.tables));
    if (c.capacity < 1 || c.capacity > 1024)
      throw std::invalid_argument("multi_index_router: capacity (C_entry) must lie in [1, 1024], got " +
                                  std::to_string(c.capacity));
    if (c.probe_radius < probe_until_exact)
      throw std::invalid_argument("multi_index_router: probe_radius must be >= 0 or probe_until_exact, got " +
                                  std::to_string(c.probe_radius));
    int shift = 32;
    tables_.resize(static_cast<std::size_t>(c.tables));
    for (int t = 0; t < c.tables; ++t) {
      table& tb = tables_[static_cast<std::size_t>(t)];
      tb.bits = 32 / c.tables + (t < 32 % c.tables ? 1 : 0);
      shift -= tb.bits;
      tb.shift = shift;
      const std::size_t buckets = std::size_t{1} << tb.bits;
      tb.count.assign(buckets, 0);
      tb.slots.assign(buckets * static_cast<std::size_t>(c.capacity), 0);
    }
  }

  /// C_entry rule used when none is given: the smallest power of two at
  /// least twice the mean occupancy N / 2^B of the widest table, at least 4
  /// (with Poisson occupancies, spills stay rare).
  static int suggested_capacity(std::size_t n, int tables) noexcept {
    const int bits = 32 / tables + (32 % tables ? 1 : 0);
    const double mean = static_cast<double>(n) / static_cast<double>(std::uint64_t{1} << bits);
    int c = 4;
    while (c < 1024 && c < 2.0 * mean) c *= 2;
    return c;
  }

  const config& configuration() const noexcept { return cfg_; }
  int tables() const noexcept { return cfg_.tables; }
  /// B_t, the key bits of table t.
  int key_bits(int t) const noexcept { return tables_[static_cast<std::size_t>(t)].bits; }

  /// Replaces the stored set by `ids` (duplicates stored once).
  void assign(std::span<const identifier> ids) {
    exact_.assign(ids);
    for (auto& tb : tables_) {
      std::fill(tb.count.begin(), tb.count.end(), 0);
      tb.spill.clear();
    }
    for (std::uint32_t g : exact_.codes()) add_to_tables(g);
  }

  bool insert(identifier id) {
    if (!exact_.insert(id)) return false;
    add_to_tables(gray_code(id));
    return true;
  }

  bool erase(identifier id) {
    if (!exact_.erase(id)) return false;
    const std::uint32_t g = gray_code(id);
    for (auto& tb : tables_) tb.remove(g, static_cast<std::size_t>(cfg_.capacity));
    return true;
  }

  bool update(identifier from, identifier to) {
    if (!contains(from)) return false;
    if (from == to) return true;
    if (contains(to)) return false;
    erase(from);
    insert(to);
    return true;
  }

  bool contains(identifier id) const noexcept { return exact_.contains(id); }
  std::size_t size() const noexcept { return exact_.size(); }

  void query(identifier q, const route_filter& f, std::size_t k, route_result& out) const {
    detail::check_k_cand(k);
    out.clear();
    const std::size_t admitted = exact_.admitted(f);
    const std::size_t want = std::min(k, admitted);
    const std::uint32_t gq = gray_code(q);
    detail::top_k top;
    top.reset(want, f.admits_everything() ? nullptr : &f);
    if (want == 0) {
      out.exact = true;
      return;
    }
    const int hmax = min_key_bits();
    for (int r = 0; r <= hmax; ++r) {
      if (cfg_.probe_radius != probe_until_exact && r > cfg_.probe_radius) break;
      if (cfg_.probe_radius == probe_until_exact && radius_cost(r) > static_cast<double>(admitted)) {
        top.reset(want, nullptr);
        exact_.scan_into(gq, f, top, out);
        out.scanned = true;
        out.exact = true;
        break;
      }
      bool certified = false;
      for (std::size_t t = 0; t < tables_.size() && !certified; ++t) {
        const table& tb = tables_[t];
        const std::uint32_t key = tb.key(gq);
        const std::uint32_t limit = 1u << tb.bits;  // bits <= 16
        std::uint32_t m = r == 0 ? 0u : (1u << r) - 1u;
        while (true) {
          tb.scan(key ^ m, static_cast<std::size_t>(cfg_.capacity), gq, top, out);
          if (m == 0 || r == tb.bits) break;
          // Gosper's hack: the next larger mask with the same popcount.
          const std::uint32_t c = m & (0u - m);
          const std::uint32_t s = m + c;
          m = (((s ^ m) >> 2) / c) | s;
          if (m >= limit) break;
        }
        // Tables 0..t are probed to radius r, the others to r - 1: an unseen
        // code differs in >= r + 1 bits in the first and >= r in the others,
        // so its distance is >= H r + t + 1. Certified when every admitted
        // code is held, when the K-th distance is below that bound, or when
        // table t has been probed completely (every code seen).
        const int unseen_bound = cfg_.tables * r + static_cast<int>(t) + 1;
        certified = r == tb.bits ||
                    (top.full() && (want == admitted || top.worst_distance() < unseen_bound));
      }
      out.radius = r;
      if (certified) {
        out.exact = true;
        break;
      }
    }
    top.write(out.candidates);
  }

  /// Bucket occupancy over all tables; overflow_entries counts spilled entries.
  occupancy_stats occupancy() const noexcept {
    occupancy_stats s;
    s.min = size();
    std::size_t total = 0;
    for (const auto& tb : tables_) {
      s.buckets += tb.count.size();
      for (std::uint32_t c : tb.count) {
        s.min = std::min<std::size_t>(s.min, c);
        s.max = std::max<std::size_t>(s.max, c);
        total += c;
        if (c > static_cast<std::uint32_t>(cfg_.capacity)) s.overflow_entries += c - cfg_.capacity;
      }
    }
    s.mean = s.buckets ? static_cast<double>(total) / static_cast<double>(s.buckets) : 0.0;
    return s;
  }

  /// The exact router that mirrors the stored set (its partitions serve
  /// filtered scans).
  const exact_router& partitions() const noexcept { return exact_; }

 private:
  struct table {
    int bits = 16;
    int shift = 16;
    std::vector<std::uint32_t> count;   ///< entries per bucket, inline and spilled
    std::vector<std::uint32_t> slots;   ///< bucket b: slots[b * C, b * C + C)
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> spill;

    std::uint32_t key(std::uint32_t g) const noexcept {
      return (g >> shift) & static_cast<std::uint32_t>((std::uint64_t{1} << bits) - 1);
    }
    void add(std::uint32_t g, std::size_t cap) {
      const std::uint32_t b = key(g);
      const std::uint32_t n = count[b];
      if (n < cap) slots[b * cap + n] = g;
      else spill[b].push_back(g);
      count[b] = n + 1;
    }
    void remove(std::uint32_t g, std::size_t cap) {
      const std::uint32_t b = key(g);
      const std::uint32_t n = count[b];
      std::uint32_t* s = slots.data() + b * cap;
      const std::size_t inl = std::min<std::size_t>(n, cap);
      for (std::size_t i = 0; i < inl; ++i) {
        if (s[i] != g) continue;
        if (n > cap) {  // refill the slot from the spill list
          auto it = spill.find(b);
          s[i] = it->second.back();
          it->second.pop_back();
          if (it->second.empty()) spill.erase(it);
        } else {
          s[i] = s[inl - 1];
        }
        count[b] = n - 1;
        return;
      }
      auto it = spill.find(b);
      auto& v = it->second;
      *std::find(v.begin(), v.end(), g) = v.back();
      v.pop_back();
      if (v.empty()) spill.erase(it);
      count[b] = n - 1;
    }
    void scan(std::uint32_t b, std::size_t cap, std::uint32_t gq, detail::top_k& top, route_result& st) const {
      const std::uint32_t n = count[b];
      st.buckets_probed += 1;
      if (n == 0) return;
      const std::uint32_t* s = slots.data() + b * cap;
      const std::size_t inl = std::min<std::size_t>(n, cap);
      detail::scan_codes(s, inl, gq, top);
      st.entries_examined += n;
      st.cache_lines += detail::lines_spanned(static_cast<std::size_t>(b) * cap, inl);
      if (n > cap) {
        const auto& v = spill.find(b)->second;
        detail::scan_codes(v.data(), v.size(), gq, top);
        st.cache_lines += detail::lines_spanned(0, v.size());
      }
    }
  };

  void add_to_tables(std::uint32_t g) {
    for (auto& tb : tables_) tb.add(g, static_cast<std::size_t>(cfg_.capacity));
  }

  /// The narrowest table's key bits: at that radius it is probed completely.
  int min_key_bits() const noexcept {
    int m = 32;
    for (const auto& tb : tables_) m = std::min(m, tb.bits);
    return m;
  }

  /// Estimated cost of probing radius r in every table (codes-scanned units).
  double radius_cost(int r) const noexcept {
    double cost = 0;
    const double n = static_cast<double>(size());
    for (const auto& tb : tables_) {
      double buckets = 1;  // C(bits, r)
      for (int i = 0; i < r; ++i) buckets = buckets * (tb.bits - i) / (i + 1);
      cost += buckets * (bucket_visit_cost + n / static_cast<double>(tb.count.size()));
    }
    return cost;
  }

  config cfg_;
  std::vector<table> tables_;
  exact_router exact_;
};

static_assert(router<multi_index_router>);

BEM_NAMESPACE_END
