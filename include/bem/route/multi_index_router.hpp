// The multi-index hashing router (Norouzi, Punjani & Fleet, "Fast search in
// Hamming space with multi-index hashing", CVPR 2012) for 32-bit Gray codes.
//
// Structure. The 32 bits of a stored Gray code are cut into H contiguous
// substrings, table 0 taking the most significant bits; substring t has
// B_t = floor(32 / H) bits, plus one for the first 32 mod H tables, so the
// substrings partition the code. Table t has 2^B_t buckets keyed by
// substring t; every stored code sits in one bucket of every table.
//
// Bucket layout. A bucket stores only the remainder of each code (the
// 32 - B_t bits outside its key; the key is the bucket's index), so with
// H = 2 a slot is 16 bits, else 32. Slot 0 is a header (the inline count and
// a spill flag), slots 1..C_entry the remainders, and the bucket is padded to
// whole 64-byte lines and line-aligned: with H = 2 and C_entry = 31 a bucket
// is exactly one cache line, so a bucket visit is one memory access (the
// count arrives with the codes, nothing else is read).
//
// Overflow rule. A bucket holding more than C_entry codes keeps the first
// C_entry inline and the rest in a per-bucket spill list (a hash map from
// bucket to a vector), flagged in the header so that queries read the map
// only for spilled buckets. Nothing is ever evicted, so overflow costs time,
// never recall; occupancy() reports how many entries spilled. Erasing from a
// spilled bucket moves a spilled entry back inline.
//
// Query at probe radius r. For each table, visit every bucket whose key
// differs from the query's substring in exactly 0, 1, ..., r bits. A probe
// plan (built once) lists the key masks in visiting order: radius 0 of every
// table, radius 1 of every table, ...; the loop walks it and prefetches the
// bucket 24 entries ahead, across tables and radii, so that misses overlap.
// A code in a bucket at key distance j has distance j + popcount(remainder ^
// query's remainder), so one vector compare per line finds the codes that can
// enter the top K (AVX-512 BITALG/VPOPCNTDQ, chosen at run time so the
// library stays portable without -march=native; else a scalar loop), and only
// those are rebuilt and offered to the top K under the tie rule
// (bem/route/router.hpp). With H = 2 each table's remainder is the other
// table's key, which tells which codes the other table already offered: every
// code is offered at most once.
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
// (through an internal exact_router), and when a uniform query is unlikely
// to be certified within that budget (too few admitted codes near it for
// K_cand), it scans after radius 0 alone. So it is always exact and never
// costs much more than a scan. Cost model, in "codes scanned" units: a bucket visit
// counts bucket_visit_cost = 128 (one likely cache miss, against the scan's
// 16 codes per vector compare of streamed memory) plus the table's mean
// occupancy; the scan counts one per admitted code. In this mode the top K
// also starts with a seeded threshold (surely_within: a distance holding
// K_cand admitted uniform codes except with probability 10^-6), so the first
// buckets offer only codes that can be in the answer; the certificate needs
// a full top K, whose K-th then lies within the seed, so no refused code could
// have entered, and a top K that does not fill sends the query to the scan.
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
// router's partition: O(H C_entry + P + 4096) per operation, P the size of
// the identifier's (class, shard) partition, searched linearly for
// membership (a machine with one class and shard has P = N), no rebuild; queries
// between updates see them at once. Not safe for concurrent use from
// several threads (one writer or many readers at a time).
#pragma once

#include <bem/machine/identifier.hpp>
#include <bem/route/exact_router.hpp>
#include <bem/route/router.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

BEM_NAMESPACE_BEGIN

/// multi_index_router::config::probe_radius value that widens until exact.
inline constexpr int probe_until_exact = -1;

/// The routing parameters of multi_index_router.
struct multi_index_config {
  int tables = 2;                        ///< H, in [2, 8]
  int capacity = 31;                     ///< C_entry, inline slots per bucket, in [1, 1024]
  int probe_radius = probe_until_exact;  ///< r >= 0, or probe_until_exact
};

namespace detail {

/// Allocates on 64-byte boundaries, so that every bucket starts a cache line.
/// Blocks of 2 MiB or more are 2 MiB-aligned and, on Linux, marked for
/// transparent huge pages: bucket visits are random, and with 4 KiB pages
/// almost every one would also miss the TLB (a page walk costs more than the
/// line itself, much more under virtualisation).
template <class T>
struct line_allocator {
  using value_type = T;
  static constexpr std::size_t huge = std::size_t{1} << 21;
  line_allocator() noexcept = default;
  template <class U>
  line_allocator(const line_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    void* p = ::operator new(bytes, std::align_val_t{alignment(bytes)});
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= huge) ::madvise(p, bytes / huge * huge, MADV_HUGEPAGE);  // a hint: failure is harmless
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept { ::operator delete(p, std::align_val_t{alignment(n * sizeof(T))}); }
  template <class U>
  bool operator==(const line_allocator<U>&) const noexcept { return true; }

 private:
  static constexpr std::size_t alignment(std::size_t bytes) noexcept { return bytes >= huge ? huge : 64; }
};

// Always inlined: GCC marks a function holding only a prefetch as `const`
// (no side effects) and then deletes calls to it.
#if defined(__GNUC__)
#define BEM_DETAIL_ROUTE_INLINE __attribute__((always_inline)) inline
#else
#define BEM_DETAIL_ROUTE_INLINE inline
#endif
BEM_DETAIL_ROUTE_INLINE void prefetch_line(const void* p) noexcept {
#if defined(__GNUC__)
  __builtin_prefetch(p, 0, 3);
#else
  (void)p;
#endif
}

/// True when the CPU runs the bucket kernel's AVX-512 subsets (checked once).
inline bool route_cpu_has_avx512_buckets() noexcept {
#if BEM_DETAIL_ROUTE_AVX512
  return route_cpu_has_avx512_popcount() && this_cpu().avx512bw && this_cpu().avx512bitalg;
#else
  return false;
#endif
}

/// Work done by one query on the hash tables (written to route_result at the end).
struct probe_stats {
  std::uint32_t buckets = 0, entries = 0, lines = 0;
};

/// The probe order of all tables: radius 0 of tables 0..H-1, then radius 1
/// of tables 0..H-1, and so on up to the narrowest table's key bits. Step
/// s = r H + t is entries[first[s], first[s + 1]), each entry t << 16 | mask
/// for the C(B_t, r) key masks of popcount r, so that the probe loop is one
/// flat walk and the bucket a few entries ahead is known (for prefetching).
struct probe_plan {
  std::vector<std::uint32_t> entries;
  std::vector<std::uint32_t> first;

  probe_plan() = default;
  explicit probe_plan(const std::vector<int>& bits) {
    const std::size_t h = bits.size();
    const auto rmax = static_cast<std::size_t>(*std::min_element(bits.begin(), bits.end()));
    std::vector<std::vector<std::uint32_t>> steps((rmax + 1) * h);  // by radius, then table
    for (std::size_t t = 0; t < h; ++t)
      for (std::uint32_t m = 0; m < (std::uint32_t{1} << bits[t]); ++m)
        if (const auto r = static_cast<std::size_t>(std::popcount(m)); r <= rmax)
          steps[r * h + t].push_back(static_cast<std::uint32_t>(t) << 16 | m);
    for (const auto& v : steps) {
      first.push_back(static_cast<std::uint32_t>(entries.size()));
      entries.insert(entries.end(), v.begin(), v.end());
    }
    first.push_back(static_cast<std::uint32_t>(entries.size()));
  }
  /// Buckets in step s (C(B_t, r)).
  std::size_t size(std::size_t s) const noexcept { return first[s + 1] - first[s]; }
};

/// One hash table of multi_index_router; slots of type S hold remainders
/// (std::uint16_t when the remainder has at most 16 bits, else std::uint32_t).
template <class S>
struct mih_table {
  static constexpr std::size_t lanes = 64 / sizeof(S);  ///< slots per cache line
  static constexpr S spill_flag = static_cast<S>(S{1} << (8 * sizeof(S) - 1));
  static constexpr S count_mask = static_cast<S>(spill_flag - 1);

  int bits = 16;   ///< B_t
  int shift = 16;  ///< the key is bits [shift, shift + B_t) of the code
  std::size_t cap = 31;
  std::size_t stride = 32;  ///< slots per bucket: header + cap, rounded up to whole lines
  std::vector<S, line_allocator<S>> slots;
  std::unordered_map<std::uint32_t, std::vector<S>> spill;

  mih_table(int b, int s, std::size_t c)
      : bits(b), shift(s), cap(c), stride((c + 1 + lanes - 1) / lanes * lanes),
        slots((std::size_t{1} << b) * stride, S{0}) {}

  std::uint32_t key(std::uint32_t g) const noexcept {
    return (g >> shift) & static_cast<std::uint32_t>((std::uint64_t{1} << bits) - 1);
  }
  /// The code's bits outside the key, packed (high part above the low part).
  S remainder(std::uint32_t g) const noexcept {
    const std::uint64_t low = g & ((std::uint64_t{1} << shift) - 1);
    return static_cast<S>(((std::uint64_t{g} >> (shift + bits)) << shift) | low);
  }
  /// The code in bucket b with remainder `rem`.
  std::uint32_t code(std::uint32_t b, S rem) const noexcept {
    const std::uint64_t low = rem & ((std::uint64_t{1} << shift) - 1);
    return static_cast<std::uint32_t>(((std::uint64_t{rem} >> shift) << (shift + bits)) |
                                      (std::uint64_t{b} << shift) | low);
  }
  const S* bucket(std::uint32_t b) const noexcept { return slots.data() + b * stride; }
  S* bucket(std::uint32_t b) noexcept { return slots.data() + b * stride; }
  /// Entries in bucket b, inline and spilled.
  std::size_t count(std::uint32_t b) const {
    const S h = bucket(b)[0];
    return (h & count_mask) + ((h & spill_flag) ? spill.find(b)->second.size() : 0);
  }

  void clear() {
    for (std::size_t b = 0; b < slots.size(); b += stride) slots[b] = 0;
    spill.clear();
  }

  // Invariant: a bucket has a spill list only when its inline slots are full.
  void add(std::uint32_t g) {
    const std::uint32_t b = key(g);
    S* bk = bucket(b);
    const std::size_t n = bk[0] & count_mask;
    if (n < cap) {
      bk[1 + n] = remainder(g);
      bk[0] = static_cast<S>(n + 1);
    } else {
      spill[b].push_back(remainder(g));
      bk[0] = static_cast<S>(bk[0] | spill_flag);
    }
  }

  /// Removes a stored code (the caller knows it is present).
  void remove(std::uint32_t g) {
    const std::uint32_t b = key(g);
    const S rem = remainder(g);
    S* bk = bucket(b);
    const std::size_t n = bk[0] & count_mask;
    auto unspill = [&](auto it) {  // drop an empty spill list and its flag
      if (!it->second.empty()) return;
      spill.erase(it);
      bk[0] = static_cast<S>(bk[0] & count_mask);
    };
    for (std::size_t i = 1; i <= n; ++i) {
      if (bk[i] != rem) continue;
      if (bk[0] & spill_flag) {  // refill the slot from the spill list
        auto it = spill.find(b);
        bk[i] = it->second.back();
        it->second.pop_back();
        unspill(it);
      } else {
        bk[i] = bk[n];
        bk[0] = static_cast<S>(n - 1);
      }
      return;
    }
    auto it = spill.find(b);
    auto& v = it->second;
    *std::find(v.begin(), v.end(), rem) = v.back();
    v.pop_back();
    unspill(it);
  }

  /// Offers the spilled codes of bucket b (key distance r) whose remainder
  /// distance is at least lo to `top` (see probe_tables).
  void scan_spill(std::uint32_t b, int r, int lo, S qrem, top_k& top, probe_stats& st) const noexcept {
    const auto& v = spill.find(b)->second;
    for (const S rem : v) {
      const int rd = std::popcount(static_cast<S>(rem ^ qrem));
      if (rd >= lo && r + rd <= top.threshold()) top.offer(r + rd, code(b, rem));
    }
    st.entries += static_cast<std::uint32_t>(v.size());
    st.lines += static_cast<std::uint32_t>((v.size() * sizeof(S) + 63) / 64);
  }

  /// Lines of bucket data read for a bucket with `n` inline codes (the header included).
  static std::uint32_t lines_read(std::size_t n) noexcept { return static_cast<std::uint32_t>(n / lanes + 1); }
};

/// How many buckets ahead of the one being read the probe loop prefetches
/// (a miss to L3 or DRAM takes longer than reading several buckets). 24, not
/// 16, since the seeded top-K threshold made a bucket visit cheaper: on the
/// 2-core Zen 4 VM, N = 10^6, alternating runs gave 3.35-3.48 us per k = 16
/// query against 3.63-4.19 us with 16 (32: no better than 24), and k = 1 no
/// slower.
inline constexpr std::size_t probe_prefetch_ahead = 24;

/// What the probe loop of one query needs, per table: the query's key and
/// remainder and the bucket array; and the plan entries that may be probed.
template <class S>
struct probe_context {
  const mih_table<S>* tabs = nullptr;
  const std::uint32_t* plan = nullptr;  ///< probe_plan::entries
  std::size_t end = 0;                  ///< entries [0, end) may be probed (radii < r_end)
  std::size_t stride = 0;               ///< slots per bucket, the same in every table
  std::array<std::uint32_t, 8> key{};
  std::array<S, 8> qrem{};
  std::array<const S*, 8> base{};

  /// Prefetches the bucket of plan entry p, if it may be probed.
  BEM_DETAIL_ROUTE_INLINE void prefetch(std::size_t p) const noexcept {
    if (p >= end) return;
    const std::size_t u = plan[p] >> 16;
    prefetch_line(bucket(u, bucket_index(u, p)));
  }
  /// The bucket of table t that plan entry i names, and its first slot.
  std::uint32_t bucket_index(std::size_t t, std::size_t i) const noexcept { return key[t] ^ (plan[i] & 0xFFFFu); }
  const S* bucket(std::size_t t, std::uint32_t b) const noexcept { return base[t] + b * stride; }
};

/// Probes plan entries [begin, stop) (table t at key distance r), portable
/// version. A code has distance r + popcount(remainder ^ query's remainder);
/// those with remainder distance >= lo (the others were already offered, see
/// probe_tables) that can enter the top K are rebuilt and offered.
struct bucket_scan_portable {
  template <class S>
  static void step(const probe_context<S>& c, std::size_t t, int r, int lo, std::size_t begin, std::size_t stop,
                   top_k& top, probe_stats& st) noexcept {
    const mih_table<S>& tb = c.tabs[t];
    const S qrem = c.qrem[t];
    for (std::size_t i = begin; i < stop; ++i) {
      c.prefetch(i + probe_prefetch_ahead);
      if (top.threshold() < r + lo) break;  // nothing left in this step can enter
      const std::uint32_t b = c.bucket_index(t, i);
      const S* bk = c.bucket(t, b);
      const S head = bk[0];
      const std::size_t cnt = head & mih_table<S>::count_mask;
      for (std::size_t j = 1; j <= cnt; ++j) {
        const int rd = std::popcount(static_cast<S>(bk[j] ^ qrem));
        if (rd >= lo && r + rd <= top.threshold()) top.offer(r + rd, tb.code(b, bk[j]));
      }
      st.buckets += 1;
      st.entries += static_cast<std::uint32_t>(cnt);
      st.lines += mih_table<S>::lines_read(cnt);
      if (head & mih_table<S>::spill_flag) [[unlikely]] tb.scan_spill(b, r, lo, qrem, top, st);
    }
  }
};

#if BEM_DETAIL_ROUTE_AVX512
#define BEM_DETAIL_ROUTE_AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512bitalg,avx512vpopcntdq")))
/// The same with AVX-512: per line, one xor + popcount + two compares of 32
/// (16-bit) or 16 (32-bit) slots, so only codes that can enter leave the
/// vector unit. Inlined into probe_tables_avx512 (flatten).
struct bucket_scan_avx512 {
  template <class S>
  BEM_DETAIL_ROUTE_AVX512_TARGET static void step(const probe_context<S>& c, std::size_t t, int r, int lo,
                                                  std::size_t begin, std::size_t stop, top_k& top,
                                                  probe_stats& st) noexcept {
    constexpr std::size_t lanes = mih_table<S>::lanes;
    const mih_table<S>& tb = c.tabs[t];
    const S qrem = c.qrem[t];
    const __m512i qv = splat<S>(qrem);
    const __m512i lov = splat<S>(lo);
    for (std::size_t i = begin; i < stop; ++i) {
      c.prefetch(i + probe_prefetch_ahead);
      const int room = top.threshold() - r;  // the largest remainder distance that can enter
      if (room < lo) break;                  // nothing left in this step can enter
      const std::uint32_t b = c.bucket_index(t, i);
      const S* bk = c.bucket(t, b);
      const S head = bk[0];
      const std::size_t cnt = head & mih_table<S>::count_mask;
      // The first line: lanes 1..cnt (lane 0 is the header).
      const std::uint64_t live = (std::uint64_t{2} << std::min(cnt, lanes - 1)) - 2;
      offer_hits(tb, b, bk, live, r, room, qv, lov, qrem, top);
      for (std::size_t base = lanes; base <= cnt; base += lanes)  // buckets of more than one line
        offer_hits(tb, b, bk + base, (std::uint64_t{1} << std::min(cnt + 1 - base, lanes)) - 1, r, room, qv, lov,
                   qrem, top);
      st.buckets += 1;
      st.entries += static_cast<std::uint32_t>(cnt);
      st.lines += mih_table<S>::lines_read(cnt);
      if (head & mih_table<S>::spill_flag) [[unlikely]] tb.scan_spill(b, r, lo, qrem, top, st);
    }
  }

 private:
  /// Offers the codes of one line (lanes in `live`) whose remainder distance
  /// lies in [lo, room].
  template <class S>
  BEM_DETAIL_ROUTE_AVX512_TARGET static void offer_hits(const mih_table<S>& tb, std::uint32_t b, const S* line,
                                                        std::uint64_t live, int r, int room, __m512i qv, __m512i lov,
                                                        S qrem, top_k& top) noexcept {
    const __m512i x = _mm512_xor_si512(_mm512_load_si512(line), qv);
    std::uint64_t hit;
    if constexpr (sizeof(S) == 2) {
      const __m512i d = _mm512_popcnt_epi16(x);
      hit = _mm512_mask_cmpge_epi16_mask(_mm512_mask_cmple_epi16_mask(static_cast<__mmask32>(live), d, splat<S>(room)),
                                         d, lov);
    } else {
      const __m512i d = _mm512_popcnt_epi32(x);
      hit = _mm512_mask_cmpge_epi32_mask(_mm512_mask_cmple_epi32_mask(static_cast<__mmask16>(live), d, splat<S>(room)),
                                         d, lov);
    }
    while (hit != 0) {
      const S rem = line[std::countr_zero(hit)];
      hit &= hit - 1;
      top.offer(r + std::popcount(static_cast<S>(rem ^ qrem)), tb.code(b, rem));
    }
  }
  /// Every lane (16 or 32 bits, as S) equal to v.
  template <class S>
  BEM_DETAIL_ROUTE_AVX512_TARGET static __m512i splat(int v) noexcept {
    if constexpr (sizeof(S) == 2) return _mm512_set1_epi16(static_cast<short>(v));
    else return _mm512_set1_epi32(v);
  }
};
#endif

/// Probes the tables in plan order until the result is certified (see the
/// guarantee above) or radius r_end is reached; returns whether it was
/// certified and sets `radius` to the last radius probed. The bucket
/// probe_prefetch_ahead entries later in the plan (across tables and radii)
/// is prefetched, so that misses overlap.
///
/// With H = 2 the remainder of one table is the other table's key, so a code
/// found in table t at radius r was already offered if its remainder
/// distance is below lo = r + t (table 1 - t reached radius r - 1 + t): such
/// codes are skipped, and every code is offered at most once.
template <class Scan, class S>
bool probe_tables(const std::vector<mih_table<S>>& tabs, const probe_plan& plan, std::uint32_t gq, int r_end,
                  std::size_t want, std::size_t admitted, top_k& top, probe_stats& st, int& radius) noexcept {
  const std::size_t h = tabs.size();
  probe_context<S> c;
  c.tabs = tabs.data();
  c.plan = plan.entries.data();
  c.end = plan.first[static_cast<std::size_t>(r_end) * h];
  c.stride = tabs[0].stride;
  for (std::size_t t = 0; t < h; ++t) {
    c.key[t] = tabs[t].key(gq);
    c.qrem[t] = tabs[t].remainder(gq);
    c.base[t] = tabs[t].slots.data();
  }
  for (std::size_t i = 0; i < probe_prefetch_ahead; ++i) c.prefetch(i);
  probe_stats work;
  bool certified = false;
  for (std::size_t step = 0; step < static_cast<std::size_t>(r_end) * h && !certified; ++step) {
    const std::size_t t = step % h;
    const int r = static_cast<int>(step / h);
    radius = r;
    Scan::step(c, t, r, h == 2 ? r + static_cast<int>(t) : 0, plan.first[step], plan.first[step + 1], top, work);
    // Tables 0..t are probed to radius r, the others to r - 1: an unseen
    // code differs in >= r + 1 bits in the first and >= r in the others,
    // so its distance is >= H r + t + 1. Certified when every admitted
    // code is held, when the K-th distance is below that bound, or when
    // table t has been probed completely (every code seen).
    const int unseen_bound = static_cast<int>(h) * r + static_cast<int>(t) + 1;
    certified = r == tabs[t].bits || (top.full() && (want == admitted || top.worst_distance() < unseen_bound));
  }
  st.buckets += work.buckets;
  st.entries += work.entries;
  st.lines += work.lines;
  return certified;
}

#if BEM_DETAIL_ROUTE_AVX512
/// probe_tables with the AVX-512 bucket scan, compiled for those subsets and
/// flattened so that the scan is inlined into the loop.
template <class S>
BEM_DETAIL_ROUTE_AVX512_TARGET __attribute__((flatten)) bool probe_tables_avx512(
    const std::vector<mih_table<S>>& tabs, const probe_plan& plan, std::uint32_t gq, int r_end, std::size_t want,
    std::size_t admitted, top_k& top, probe_stats& st, int& radius) noexcept {
  return probe_tables<bucket_scan_avx512>(tabs, plan, gq, r_end, want, admitted, top, st, radius);
}
#endif

/// The tables of multi_index_router::unlikely_to_certify.
struct certify_tables {
  std::array<double, 33> within{};                // P[Bin(32, 1/2) <= d]
  std::array<double, max_k_cand + 1> needed{};  // lambda with P[Poisson(lambda) >= k] = 1/4
  std::array<double, max_k_cand + 1> surely{};  // lambda with P[Poisson(lambda) < k] = 10^-6
};

/// Computed once at run time. Not constexpr (a lambda would be, implicitly):
/// GCC folded its 1.6 million steps at compile time, 15 s in every unit
/// including this header.
inline certify_tables make_certify_tables() {
  certify_tables x;
  double choose = 1, sum = 0;
  for (int d = 0; d <= 32; ++d) {
    sum += choose;
    x.within[static_cast<std::size_t>(d)] = sum / 4294967296.0;
    choose = choose * (32 - d) / (d + 1);
  }
  // lambda with P[Poisson(lambda) < k] = p, by bisection.
  const auto quantile = [](std::size_t k, double p, double hi) {
    double lo = 0;
    for (int i = 0; i < 60; ++i) {
      const double mid = (lo + hi) / 2;
      double term = std::exp(-mid), below = 0;  // P[Poisson(mid) < k]
      for (std::size_t j = 0; j < k; ++j) {
        below += term;
        term *= mid / static_cast<double>(j + 1);
      }
      (below > p ? lo : hi) = mid;
    }
    return hi;
  };
  for (std::size_t k = 1; k <= max_k_cand; ++k) {
    x.needed[k] = quantile(k, 0.75, 2.0 * static_cast<double>(k) + 20);
    x.surely[k] = quantile(k, 1e-6, 4.0 * static_cast<double>(k) + 60);
  }
  return x;
}

}  // namespace detail

class multi_index_router {
 public:
  using router_concept = router_t;

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
    std::vector<int> widths;
    for (int t = 0; t < c.tables; ++t) {
      const int bits = 32 / c.tables + (t < 32 % c.tables ? 1 : 0);
      shift -= bits;
      if (c.tables == 2) narrow_.emplace_back(bits, shift, static_cast<std::size_t>(c.capacity));
      else wide_.emplace_back(bits, shift, static_cast<std::size_t>(c.capacity));
      widths.push_back(bits);
    }
    plan_ = detail::probe_plan(widths);
  }

  /// C_entry rule used when none is given: the smallest capacity at least
  /// twice the mean occupancy N / 2^B of the widest table whose bucket (header
  /// plus slots) fills whole cache lines: 31, 63, ... with H = 2 (16-bit
  /// slots), 15, 31, ... otherwise. With Poisson occupancies spills stay rare
  /// in that table; one with a bit fewer (32 % H != 0) has twice the mean and
  /// spills more (the occupancy records report it).
  static int suggested_capacity(std::size_t n, int tables) noexcept {
    const int bits = 32 / tables + (32 % tables ? 1 : 0);
    const double mean = static_cast<double>(n) / static_cast<double>(std::uint64_t{1} << bits);
    const int per_line = tables == 2 ? 32 : 16;
    int c = per_line - 1;
    while (c + per_line <= 1024 && c < 2.0 * mean) c += per_line;
    return c;
  }

  const config& configuration() const noexcept { return cfg_; }
  int tables() const noexcept { return cfg_.tables; }
  /// B_t, the key bits of table t.
  int key_bits(int t) const noexcept {
    const auto i = static_cast<std::size_t>(t);
    return narrow_.empty() ? wide_[i].bits : narrow_[i].bits;
  }
  /// Bytes of bucket storage (all tables, spill lists included).
  std::size_t memory_bytes() const noexcept {
    std::size_t bytes = 0;
    visit_tables([&](const auto& tabs) {
      for (const auto& tb : tabs) {
        bytes += tb.slots.size() * sizeof(tb.slots[0]);
        for (const auto& [b, v] : tb.spill) bytes += v.size() * sizeof(v[0]);
      }
    });
    return bytes;
  }

  /// Replaces the stored set by `ids` (duplicates stored once).
  void assign(std::span<const identifier> ids) {
    exact_.assign(ids);
    visit_tables([&](auto& tabs) {
      for (auto& tb : tabs) {
        tb.clear();
        for (std::uint32_t g : exact_.codes()) tb.add(g);
      }
    });
  }

  bool insert(identifier id) {
    if (!exact_.insert(id)) return false;
    visit_tables([&](auto& tabs) {
      for (auto& tb : tabs) tb.add(gray_code(id));
    });
    return true;
  }

  bool erase(identifier id) {
    if (!exact_.erase(id)) return false;
    visit_tables([&](auto& tabs) {
      for (auto& tb : tabs) tb.remove(gray_code(id));
    });
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
    detail::top_k top;
    top.reset(want, f.admits_everything() ? nullptr : &f);
    if (want == 0) {
      out.exact = true;
      return;
    }
    if (narrow_.empty()) probe_until(wide_, gray_code(q), f, want, admitted, top, out);
    else probe_until(narrow_, gray_code(q), f, want, admitted, top, out);
    top.write(out.candidates);
  }

  /// Bucket occupancy over all tables; overflow_entries counts spilled entries.
  occupancy_stats occupancy() const {
    occupancy_stats s;
    s.min = size();
    std::size_t total = 0;
    visit_tables([&](const auto& tabs) {
      for (const auto& tb : tabs) {
        const std::size_t buckets = std::size_t{1} << tb.bits;
        s.buckets += buckets;
        for (std::uint32_t b = 0; b < buckets; ++b) {
          const std::size_t c = tb.count(b);
          s.min = std::min(s.min, c);
          s.max = std::max(s.max, c);
          total += c;
        }
        for (const auto& [b, v] : tb.spill) s.overflow_entries += v.size();
      }
    });
    s.mean = s.buckets ? static_cast<double>(total) / static_cast<double>(s.buckets) : 0.0;
    return s;
  }

  /// The exact router that mirrors the stored set (its partitions serve
  /// filtered scans).
  const exact_router& partitions() const noexcept { return exact_; }

 private:
  template <class F>
  void visit_tables(F&& fn) {
    if (narrow_.empty()) fn(wide_);
    else fn(narrow_);
  }
  template <class F>
  void visit_tables(F&& fn) const {
    if (narrow_.empty()) fn(wide_);
    else fn(narrow_);
  }

  /// Probes radius 0, 1, ... until certified, up to cfg_.probe_radius; in
  /// probe_until_exact mode, scans the admitted partitions instead when the
  /// next radius would cost more than that scan.
  template <class S>
  void probe_until(const std::vector<detail::mih_table<S>>& tabs, std::uint32_t gq, const route_filter& f,
                   std::size_t want, std::size_t admitted, detail::top_k& top, route_result& out) const {
    int r_end = 32;  // the narrowest table's key bits + 1: at that radius it is probed completely
    for (const auto& tb : tabs) r_end = std::min(r_end, tb.bits + 1);
    if (cfg_.probe_radius != probe_until_exact) r_end = std::min(r_end, cfg_.probe_radius + 1);
    bool scan = false;
    if (cfg_.probe_radius == probe_until_exact) {
      for (int r = 0; r < r_end; ++r)
        if (radius_cost(tabs, r) > static_cast<double>(admitted)) {
          r_end = r;
          scan = true;
          break;
        }
      // Probing pays only if it is likely to certify before it must stop:
      // otherwise scan after radius 0 alone (at N = 10^4 and 10^5 with
      // K_cand 16 every query probed a few hundred buckets first). Radius 0
      // stays while it costs under 1/16 of the scan: it certifies a stored
      // identifier's own query at k = 1.
      if (unlikely_to_certify(static_cast<int>(tabs.size()), r_end, want, admitted)) {
        r_end = std::min(r_end, radius_cost(tabs, 0) * 16 < static_cast<double>(admitted) ? 1 : 0);
        scan = true;
      }
    }
    detail::probe_stats st;
    int radius = -1;
    // The seeded threshold (see surely_within): offers above it are refused
    // from the first bucket on. Sound only if the top K fills: otherwise
    // fewer than K admitted codes lie within it, codes above it may belong
    // to the answer, and the query scans the admitted partitions instead.
    const int seed = cfg_.probe_radius == probe_until_exact ? surely_within(want, admitted) : 32;
    if (seed < 32) top.cap_threshold(seed);
#if BEM_DETAIL_ROUTE_AVX512
    bool certified =
        detail::route_cpu_has_avx512_buckets()
            ? detail::probe_tables_avx512(tabs, plan_, gq, r_end, want, admitted, top, st, radius)
            : detail::probe_tables<detail::bucket_scan_portable>(tabs, plan_, gq, r_end, want, admitted, top, st, radius);
#else
    bool certified =
        detail::probe_tables<detail::bucket_scan_portable>(tabs, plan_, gq, r_end, want, admitted, top, st, radius);
#endif
    if (seed < 32 && !top.full()) {
      certified = false;
      scan = true;
    }
    out.buckets_probed += st.buckets;
    out.entries_examined += st.entries;
    out.cache_lines += st.lines;
    out.radius = radius;
    if (certified) {
      out.exact = true;
    } else if (scan) {
      top.reset(want, nullptr);
      exact_.scan_into(gq, f, top, out);
      out.scanned = true;
      out.exact = true;
    }
  }

  /// True when a uniform query is unlikely (under 1 in 4) to be certified
  /// by radii 0..r_end-1 of h tables: then the codes within reach,
  /// H r_end - 1 of it, number about Poisson(admitted * P[Bin(32, 1/2) <=
  /// H r_end - 1]), and fewer than `want` of them leave it uncertified. O(1):
  /// both distributions are tabulated once.
  static bool unlikely_to_certify(int h, int r_end, std::size_t want, std::size_t admitted) noexcept {
    static const detail::certify_tables t = detail::make_certify_tables();
    if (r_end <= 0) return true;
    const int reach = std::min(32, h * r_end - 1);
    return static_cast<double>(admitted) * t.within[static_cast<std::size_t>(reach)] <
           t.needed[std::min<std::size_t>(want, max_k_cand)];
  }

  /// A distance within which, for uniform codes, at least `want` of the
  /// `admitted` codes lie except with probability 10^-6 (their number is
  /// about Poisson(admitted * P[Bin(32, 1/2) <= d])); 32 when none is that
  /// sure. Seeding the top K's threshold with it refuses the offers a fresh
  /// top K accepts before it fills (at N = 10^6 and K_cand 16 its threshold
  /// starts near distance 8, the answer's K-th is at 5): on other data it
  /// may fail, which costs a scan, never exactness.
  static int surely_within(std::size_t want, std::size_t admitted) noexcept {
    static const detail::certify_tables t = detail::make_certify_tables();
    const double needed = t.surely[std::min<std::size_t>(want, max_k_cand)];
    for (int d = 0; d < 32; ++d)
      if (static_cast<double>(admitted) * t.within[static_cast<std::size_t>(d)] >= needed) return d;
    return 32;
  }

  /// Estimated cost of probing radius r in every table (codes-scanned units).
  template <class S>
  double radius_cost(const std::vector<detail::mih_table<S>>& tabs, int r) const noexcept {
    double cost = 0;
    const double n = static_cast<double>(size());
    for (std::size_t t = 0; t < tabs.size(); ++t)
      cost += static_cast<double>(plan_.size(static_cast<std::size_t>(r) * tabs.size() + t)) *
              (bucket_visit_cost + n / static_cast<double>(std::uint64_t{1} << tabs[t].bits));
    return cost;
  }

  config cfg_;
  detail::probe_plan plan_;
  std::vector<detail::mih_table<std::uint16_t>> narrow_;  ///< H = 2: 16-bit remainders
  std::vector<detail::mih_table<std::uint32_t>> wide_;    ///< H > 2
  exact_router exact_;
};

static_assert(router<multi_index_router>);

BEM_NAMESPACE_END
