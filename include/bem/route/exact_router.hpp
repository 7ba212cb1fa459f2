// The exact router: a vectorised popcount scan over stored Gray codes.
//
// Storage: one array of Gray codes grouped by (class, shard) partition
// (route_partition, 4096 partitions, class-major) with an offset table, so a
// filtered query scans only the admitted partitions — one contiguous range per
// admitted class when every shard is admitted, and the whole array when the
// filter admits everything. Within a partition the order is arbitrary; results
// do not depend on it (the tie rule is a total order).
//
// Scan kernel: with AVX-512 VPOPCNTDQ (detected at run time, so the library
// stays correct and portable without -march=native) 16 codes per step:
// xor with the query, vpopcntd, compare with the running threshold, and only
// lanes that can enter the top K leave the vector unit. Elsewhere a portable
// loop over blocks of 64 codes computes distances and their minimum (which
// compilers vectorise) and visits a block's codes one by one only when the
// minimum can enter the top K.
//
// Updates: insert and erase search the identifier's partition linearly (P
// codes) and move one element per later partition (the first element of
// each later partition goes to its end, or back): O(P + 4096), which is O(N)
// only when every identifier shares one class and shard; bulk `assign`
// sorts once.
//
// It is the ground truth of the benchmark and the fallback of
// multi_index_router when probing would cost more than scanning.
#pragma once

#include <bem/machine/identifier.hpp>
#include <bem/route/router.hpp>
#include <bem/platform/cpu_features.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#if (defined(__x86_64__) || defined(_M_X64)) && defined(__GNUC__)
#define BEM_DETAIL_ROUTE_AVX512 1
#include <immintrin.h>
#else
#define BEM_DETAIL_ROUTE_AVX512 0
#endif

BEM_NAMESPACE_BEGIN
namespace detail {

/// True when the CPU runs AVX-512F with VPOPCNTDQ (checked once).
inline bool route_cpu_has_avx512_popcount() noexcept {
#if BEM_DETAIL_ROUTE_AVX512
  return this_cpu().avx512f && this_cpu().avx512vpopcntdq;
#else
  return false;
#endif
}

/// Portable scan: blocks of 64 distances and their minimum (vectorisable),
/// then the block's codes one by one only if the minimum can enter.
inline void scan_codes_portable(const std::uint32_t* codes, std::size_t n, std::uint32_t gq, top_k& top) noexcept {
  constexpr std::size_t block = 64;
  std::size_t i = 0;
  for (; i + block <= n; i += block) {
    std::uint8_t d[block];
    unsigned lo = 255;
    for (std::size_t j = 0; j < block; ++j) {
      d[j] = static_cast<std::uint8_t>(std::popcount(codes[i + j] ^ gq));
      lo = d[j] < lo ? d[j] : lo;
    }
    if (static_cast<int>(lo) > top.threshold()) continue;
    for (std::size_t j = 0; j < block; ++j)
      if (d[j] <= top.threshold()) top.offer(d[j], codes[i + j]);
  }
  for (; i < n; ++i) {
    const int d = std::popcount(codes[i] ^ gq);
    if (d <= top.threshold()) top.offer(d, codes[i]);
  }
}

#if BEM_DETAIL_ROUTE_AVX512
/// AVX-512 scan: 16 codes per step, masked tail (masked-off lanes are not read).
__attribute__((target("avx512f,avx512vpopcntdq"))) inline void scan_codes_avx512(const std::uint32_t* codes,
                                                                                 std::size_t n, std::uint32_t gq,
                                                                                 top_k& top) noexcept {
  const __m512i q = _mm512_set1_epi32(static_cast<int>(gq));
  for (std::size_t i = 0; i < n; i += 16) {
    const std::size_t left = n - i;
    const __mmask16 live = left >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << left) - 1u);
    const __m512i v = _mm512_maskz_loadu_epi32(live, codes + i);
    const __m512i d = _mm512_popcnt_epi32(_mm512_xor_si512(v, q));
    const int thr = top.threshold();
    if (thr < 0) return;
    __mmask16 m = _mm512_mask_cmple_epu32_mask(live, d, _mm512_set1_epi32(thr));
    if (m == 0) continue;
    alignas(64) std::uint32_t dd[16];
    _mm512_store_si512(dd, d);
    while (m != 0) {
      const int j = std::countr_zero(static_cast<unsigned>(m));
      m = static_cast<__mmask16>(m & (m - 1));
      top.offer(static_cast<int>(dd[j]), codes[i + static_cast<std::size_t>(j)]);
    }
  }
}
#endif

/// Offers every code of codes[0, n) to `top` (run-time dispatch).
inline void scan_codes(const std::uint32_t* codes, std::size_t n, std::uint32_t gq, top_k& top) noexcept {
#if BEM_DETAIL_ROUTE_AVX512
  if (route_cpu_has_avx512_popcount()) {
    scan_codes_avx512(codes, n, gq, top);
    return;
  }
#endif
  scan_codes_portable(codes, n, gq, top);
}

/// 64-byte lines spanned by codes[0, n).
/// 64-byte lines holding codes first .. first+n-1 of an array of 32-bit
/// codes, counted as if the array began on a line boundary: the count depends
/// on the data alone, not on where the allocator placed the array.
inline std::uint32_t lines_spanned(std::size_t first, std::size_t n) noexcept {
  if (n == 0) return 0;
  return static_cast<std::uint32_t>(((first + n - 1) >> 4) - (first >> 4) + 1);
}

}  // namespace detail

/// Exact top-K by scanning the admitted (class, shard) partitions.
class exact_router {
 public:
  using router_concept = router_t;

  exact_router() : offsets_(route_partitions + 1, 0) {}

  /// Replaces the stored set by `ids` (duplicates stored once).
  void assign(std::span<const identifier> ids) {
    std::vector<identifier> sorted(ids.begin(), ids.end());
    std::sort(sorted.begin(), sorted.end(), [](identifier a, identifier b) {
      const auto pa = route_partition(a), pb = route_partition(b);
      return pa != pb ? pa < pb : a < b;
    });
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    codes_.resize(sorted.size());
    std::fill(offsets_.begin(), offsets_.end(), 0);
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      codes_[i] = gray_code(sorted[i]);
      ++offsets_[route_partition(sorted[i]) + 1];
    }
    for (int p = 0; p < route_partitions; ++p) offsets_[p + 1] += offsets_[p];
  }

  bool insert(identifier id) {
    if (contains(id)) return false;
    const std::uint32_t p = route_partition(id);
    codes_.push_back(0);
    // Move the first element of each later partition to its end (the hole
    // travels down), then fill the hole at the end of partition p.
    for (std::uint32_t q = route_partitions - 1; q > p; --q) codes_[offsets_[q + 1]] = codes_[offsets_[q]];
    codes_[offsets_[p + 1]] = gray_code(id);
    for (std::uint32_t q = p + 1; q <= static_cast<std::uint32_t>(route_partitions); ++q) ++offsets_[q];
    return true;
  }

  bool erase(identifier id) {
    const std::uint32_t p = route_partition(id);
    const std::uint32_t g = gray_code(id);
    std::size_t i = offsets_[p];
    while (i < offsets_[p + 1] && codes_[i] != g) ++i;
    if (i == offsets_[p + 1]) return false;
    // Fill the hole with p's last element, then move each later partition's
    // last element into the hole just before it (the hole travels up).
    codes_[i] = codes_[offsets_[p + 1] - 1];
    for (std::uint32_t q = p + 1; q < static_cast<std::uint32_t>(route_partitions); ++q)
      codes_[offsets_[q] - 1] = codes_[offsets_[q + 1] - 1];
    codes_.pop_back();
    for (std::uint32_t q = p + 1; q <= static_cast<std::uint32_t>(route_partitions); ++q) --offsets_[q];
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

  bool contains(identifier id) const noexcept {
    const std::uint32_t p = route_partition(id);
    const std::uint32_t g = gray_code(id);
    return std::find(codes_.begin() + offsets_[p], codes_.begin() + offsets_[p + 1], g) !=
           codes_.begin() + offsets_[p + 1];
  }

  std::size_t size() const noexcept { return codes_.size(); }

  /// Entries in (class, shard) partition `p` (route_partition).
  std::size_t partition_size(std::uint32_t p) const noexcept { return offsets_[p + 1] - offsets_[p]; }

  /// Number of stored identifiers the filter admits (no code is read).
  std::size_t admitted(const route_filter& f) const noexcept {
    if (f.admits_everything()) return size();
    std::size_t n = 0;
    for_each_range(f, [&](std::size_t b, std::size_t e) { n += e - b; });
    return n;
  }

  /// The stored Gray codes, grouped by partition.
  std::span<const std::uint32_t> codes() const noexcept { return codes_; }

  void query(identifier q, const route_filter& f, std::size_t k, route_result& out) const {
    detail::check_k_cand(k);
    out.clear();
    detail::top_k top;
    top.reset(k, nullptr);
    scan_into(gray_code(q), f, top, out);
    top.write(out.candidates);
    out.exact = true;
    out.scanned = true;
  }

  /// Offers every admitted code to `top` and adds the work to `stats`.
  void scan_into(std::uint32_t gq, const route_filter& f, detail::top_k& top, route_result& stats) const {
    for_each_range(f, [&](std::size_t b, std::size_t e) {
      detail::scan_codes(codes_.data() + b, e - b, gq, top);
      stats.buckets_probed += 1;
      stats.entries_examined += static_cast<std::uint32_t>(e - b);
      stats.cache_lines += detail::lines_spanned(b, e - b);
    });
  }

  /// Occupancy of the 4096 (class, shard) partitions.
  occupancy_stats occupancy() const noexcept {
    occupancy_stats s;
    s.buckets = route_partitions;
    s.min = size();
    for (std::uint32_t p = 0; p < static_cast<std::uint32_t>(route_partitions); ++p) {
      s.min = std::min(s.min, partition_size(p));
      s.max = std::max(s.max, partition_size(p));
    }
    s.mean = static_cast<double>(size()) / route_partitions;
    return s;
  }

 private:
  /// Calls fn(begin, end) for each maximal run of admitted, non-empty partitions.
  template <class F>
  void for_each_range(const route_filter& f, F&& fn) const {
    if (f.admits_everything()) {
      if (!codes_.empty()) fn(std::size_t{0}, codes_.size());
      return;
    }
    std::size_t run_b = 0, run_e = 0;
    auto add = [&](std::size_t b, std::size_t e) {
      if (b == e) return;
      if (b == run_e && run_e != run_b) {
        run_e = e;
        return;
      }
      if (run_e != run_b) fn(run_b, run_e);
      run_b = b;
      run_e = e;
    };
    for (std::uint64_t cm = f.classes; cm != 0; cm &= cm - 1) {
      const auto c = static_cast<std::uint32_t>(std::countr_zero(cm));
      const std::uint32_t base = c << identifier_shard_bits;
      if (f.shards == all_shards) {
        add(offsets_[base], offsets_[base + identifier_shards]);
        continue;
      }
      for (std::uint64_t sm = f.shards; sm != 0; sm &= sm - 1) {
        const std::uint32_t p = base + static_cast<std::uint32_t>(std::countr_zero(sm));
        add(offsets_[p], offsets_[p + 1]);
      }
    }
    if (run_e != run_b) fn(run_b, run_e);
  }

  std::vector<std::uint32_t> codes_;     ///< Gray codes, grouped by partition
  std::vector<std::uint32_t> offsets_;   ///< partition p is codes_[offsets_[p], offsets_[p + 1])
};

static_assert(router<exact_router>);

BEM_NAMESPACE_END
