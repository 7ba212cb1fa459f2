// plain_mih: the textbook two-table multi-index hash (Norouzi, Punjani &
// Fleet, CVPR 2012) over 32-bit Gray codes, the peer of bem's router at
// k = 16 in route_bench (issue 37 item 10).
//
// Structure. Table 0 is keyed by the high 16 bits of a code, table 1 by the
// low 16; each table is a CSR array: offsets[2^16 + 1] and the full 32-bit
// codes grouped by key. Nothing else: no line-sized buckets, no remainders,
// no prefetch, no vector scan; a bucket visit reads its two offsets and its
// codes, and each code's distance is one scalar popcount of code ^ query.
//
// Query. Probe radius 0 then radius 1 in both tables (1 + 16 buckets each),
// offering every code met to a top K in route_key order (the tie rule of
// bem/route/router.hpp; a code met in both tables is offered twice and kept
// once). By pigeonhole, after radius r in both tables every code within
// distance 2(r + 1) - 1 has been seen, so the answer is exact when K codes
// are held and the K-th lies within that distance.
//
// Fallback, so that every answer is exact: when radius 1 does not certify
// (fewer than K codes within distance 3, the usual case at K = 16 and
// N = 10^6), the peer keeps probing radius 2, 3, ... in both tables with the
// same check, and scans every code when the next radius would visit more
// codes than there are (its buckets times the mean occupancy, plus one per
// bucket, exceed N). `exact_after_radius1` counts the queries that radius 1
// certified, so the bench can say how often the fallback ran.
//
// With `max_radius` set, the peer stops there without the fallback: the
// inexact plain MIH "probed to radius 1" of the issue, timed for reference
// only (its answers are not exact and are not compared with the router).
#pragma once

#include <bem/route/router.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace bem_bench {

class plain_mih {
 public:
  static constexpr int key_bits = 16;
  static constexpr std::uint32_t buckets = std::uint32_t{1} << key_bits;

  /// Builds both tables from the stored identifiers (distinct).
  void assign(std::span<const bem::identifier> ids) {
    codes_.resize(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) codes_[i] = bem::gray_code(ids[i]);
    for (int t = 0; t < 2; ++t) {
      table& tb = tabs_[static_cast<std::size_t>(t)];
      tb.offsets.assign(buckets + 1, 0);
      for (std::uint32_t g : codes_) ++tb.offsets[key(t, g) + 1];
      for (std::uint32_t b = 0; b < buckets; ++b) tb.offsets[b + 1] += tb.offsets[b];
      tb.codes.resize(codes_.size());
      std::vector<std::uint32_t> fill(tb.offsets.begin(), tb.offsets.end() - 1);
      for (std::uint32_t g : codes_) tb.codes[fill[key(t, g)]++] = g;
    }
  }

  std::size_t size() const noexcept { return codes_.size(); }

  /// The exact top k (k <= bem::max_k_cand) of the Gray code of q, best first.
  /// max_radius < 0: exact (fallback as above); else probe radii 0..max_radius only.
  void query(bem::identifier q, std::size_t k, std::vector<bem::route_candidate>& out, int max_radius = -1) {
    const std::uint32_t gq = bem::gray_code(q);
    const std::size_t want = std::min(k, codes_.size());
    top_.reset(want, nullptr);
    if (want == 0) {
      top_.write(out);
      return;
    }
    const double mean = static_cast<double>(codes_.size()) / buckets;
    std::uint64_t at_radius = 1;  // C(16, r): buckets per table at radius r
    for (int r = 0; r <= key_bits; ++r) {
      if (max_radius >= 0 && r > max_radius) break;
      if (max_radius < 0 && 2.0 * static_cast<double>(at_radius) * (mean + 1) > static_cast<double>(codes_.size())) {
        scan(gq);  // the next radius would cost more than reading every code
        break;
      }
      for (int t = 0; t < 2; ++t) probe_radius(t, gq, r);
      if (top_.full() && top_.worst_distance() <= 2 * (r + 1) - 1) {
        exact_after_radius1 += max_radius < 0 && r <= 1;
        break;
      }
      at_radius = at_radius * static_cast<std::uint64_t>(key_bits - r) / static_cast<std::uint64_t>(r + 1);
    }
    top_.write(out);
  }

  std::uint64_t exact_after_radius1 = 0;  ///< queries certified by radius 0 or 1 alone

 private:
  struct table {
    std::vector<std::uint32_t> offsets;  ///< bucket b holds codes[offsets[b], offsets[b + 1])
    std::vector<std::uint32_t> codes;
  };

  static std::uint32_t key(int t, std::uint32_t g) noexcept { return t == 0 ? g >> key_bits : g & (buckets - 1); }

  void visit(const table& tb, std::uint32_t b, std::uint32_t gq) {
    for (std::uint32_t i = tb.offsets[b], e = tb.offsets[b + 1]; i < e; ++i) {
      const std::uint32_t g = tb.codes[i];
      top_.offer(std::popcount(g ^ gq), g);
    }
  }

  /// Every bucket of table t whose key differs from the query's in exactly r bits.
  void probe_radius(int t, std::uint32_t gq, int r) {
    const table& tb = tabs_[static_cast<std::size_t>(t)];
    const std::uint32_t kq = key(t, gq);
    if (r == 0) {
      visit(tb, kq, gq);
      return;
    }
    // The r-bit masks of 16 bits in increasing order (Gosper's hack).
    for (std::uint32_t m = (std::uint32_t{1} << r) - 1; m < buckets;) {
      visit(tb, kq ^ m, gq);
      const std::uint32_t c = m & (0u - m), n = m + c;
      m = (((n ^ m) >> 2) / c) | n;
    }
  }

  void scan(std::uint32_t gq) {
    for (std::uint32_t g : codes_) top_.offer(std::popcount(g ^ gq), g);
  }

  std::array<table, 2> tabs_;
  std::vector<std::uint32_t> codes_;
  bem::detail::top_k top_;
};

}  // namespace bem_bench
