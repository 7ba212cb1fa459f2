// The ROUTE family: microbenchmark 2.2 of the BEM suite, `route_query`.
//
// For each N in N_nodes: U_expert = N distinct identifiers drawn uniformly
// from all 2^32 (seeded, bem/prng.hpp). Q queries, each with probability p_in
// a stored identifier (2.2.2's in-index identifiers) and otherwise a fresh
// uniform identifier. max_flips > 0 (an extension; default 0) turns the
// in-index draws into near-index ones: f bits flipped, f uniform in
// 0..max_flips, so only p_in / (max_flips + 1) of the queries are stored. Each
// query is ROUTE_QUERY(q, class_expert, shard_filter, K_cand) with every shard
// admitted and class_expert = any class (class_filter = "any") or the query's
// own class ("query"). The first Q_truth queries get exact neighbours from
// bem::exact_router; recall@k counts a query as a hit when one of the first k
// candidates has the best similarity (ties counted as correct) and, in the
// `_by_id` figures, only when the true neighbour under the tie rule (higher
// similarity, then lower identifier) is among them; the mean rank is that
// neighbour's 1-based position, K_cand + 1 when absent. queries_per_second
// is 2.2.3's clock_frequency_hz / cycles_per_query; Q below 10^5 adds a
// `queries_below_spec` note record.
#include <bem/platform/cycles.hpp>
#include <bem/plugin/adapter.hpp>
#include <bem/prng.hpp>
#include <bem/route/exact_router.hpp>
#include <bem/route/multi_index_router.hpp>
#include <bem/route/router.hpp>
#include <metrics/statistics.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using bem::identifier;

struct route_parameters {
  BOOST_HANA_DEFINE_STRUCT(route_parameters, (std::vector<std::int64_t>, N_nodes), (std::int64_t, queries),
                           (std::int64_t, truth_queries), (std::vector<std::int64_t>, K_cand), (double, p_in),
                           (std::int64_t, max_flips), (std::vector<std::string>, routers), (std::int64_t, H),
                           (std::int64_t, C_entry), (std::int64_t, probe_radius), (std::string, class_filter));
  static void describe(bem::parameter_schema<route_parameters>& s) {
    s("N_nodes", {10000, 100000, 1000000}).in(1, std::int64_t{1} << 31).doc("index sizes N");
    s("queries", 100000).in(1, 100000000).doc("Q, queries per N (2.2 asks for at least 10^5)");
    s("truth_queries", 1000).in(1, 100000000).doc("Q_truth, the queries given exact neighbours (at most Q)");
    s("K_cand", {16, 32}).in(1, bem::max_k_cand).doc("candidates per query");
    s("p_in", 0.5).in(0, 1).doc("share of queries drawn from the index");
    s("max_flips", 0).in(0, 32).doc("bits flipped in an in-index query, uniform in 0..max_flips (an extension)");
    s("routers", {"multi_index"}).one_of({"multi_index", "exact"}).doc("the routers measured");
    s("H", 0).in(0, 8).doc("multi_index tables: 0 chooses by N, else 2..8");
    s("C_entry", 0).in(0, 1024).doc("multi_index bucket capacity: 0 chooses by N and H");
    s("probe_radius", bem::probe_until_exact).in(bem::probe_until_exact, 16).doc("multi_index probes; -1: until exact");
    s("class_filter", "any").one_of({"any", "query"}).doc("class_expert: any class, or the query's own");
  }
};

struct route_query_benchmark {
  static constexpr const char* name = "route_query";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "BEM suite 2.2: ROUTE_QUERY cost and recall as the index grows (multi-index hashing and exact scan)";

  using parameter_structs = bem::parameter_structs<route_parameters>;

  explicit route_query_benchmark(bem::parameters& p) : v_(bem::read_parameters<route_parameters>(p)) {
    if (v_.H == 1) throw bem::parameter_error("H", "must be 0 (chosen by N) or lie in [2, 8]");
    v_.truth_queries = std::min(v_.truth_queries, v_.queries);
  }

  void run(std::uint64_t seed, bem::benchmark_sink& sink) {
    bem::cycle_counter counter;
    const std::string cycle_unit = counter.unit();
    if (v_.queries < 100000) bem::emit_below_spec(sink, "queries", v_.queries, "queries", 100000, "BEM 2.2");
    for (auto n : v_.N_nodes) {
      const auto ids = make_index(seed, static_cast<std::size_t>(n));
      const auto qs = make_queries(seed, ids);
      emit_mixture(sink, ids, qs);
      bem::exact_router truth_router;
      truth_router.assign(ids);
      for (const auto& router_name : v_.routers) {
        if (router_name == "exact") {
          measure(sink, counter, cycle_unit, truth_router, router_name, ids.size(), qs, truth_router, {});
          continue;
        }
        const int h = v_.H != 0 ? static_cast<int>(v_.H) : (n >= 50000 ? 2 : n >= 2000 ? 3 : 4);
        const int c = v_.C_entry != 0 ? static_cast<int>(v_.C_entry)
                                      : bem::multi_index_router::suggested_capacity(static_cast<std::size_t>(n), h);
        bem::multi_index_router r({h, c, static_cast<int>(v_.probe_radius)});
        r.assign(ids);
        std::string bits;
        for (int t = 0; t < h; ++t) {
          if (t != 0) bits += ',';
          bits += std::to_string(r.key_bits(t));
        }
        std::vector<bem::tasks::condition_field> extra = {
            bem::tasks::number_field("H", h), bem::tasks::string_field("B", bits),
            bem::tasks::number_field("C_entry", c),
            v_.probe_radius == bem::probe_until_exact ? bem::tasks::string_field("probe_radius", "until_exact")
                                                      : bem::tasks::number_field("probe_radius", v_.probe_radius)};
        measure(sink, counter, cycle_unit, r, router_name, ids.size(), qs, truth_router, extra);
      }
    }
  }

 private:
  std::vector<identifier> make_index(std::uint64_t seed, std::size_t n) const {
    bem::xoshiro256ss rng(bem::derive_seed(seed, bem::fnv1a64("route_query/index"), n));
    std::vector<identifier> ids;
    ids.reserve(n + n / 8);
    while (ids.size() < n) {
      while (ids.size() < n) ids.push_back(static_cast<identifier>(rng.next() >> 32));
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    }
    // Sorted order would make "pick a stored identifier" depend on sorting;
    // a seeded shuffle keeps it a plain uniform choice.
    for (std::size_t i = ids.size(); i > 1; --i) std::swap(ids[i - 1], ids[rng.uniform_below(i)]);
    return ids;
  }

  /// The mixture as drawn: the fraction of queries that are stored
  /// identifiers (p_in with max_flips = 0, as 2.2.2 defines it).
  void emit_mixture(bem::benchmark_sink& sink, std::vector<identifier> ids, const std::vector<identifier>& qs) const {
    std::sort(ids.begin(), ids.end());
    std::int64_t stored = 0;
    for (identifier q : qs) stored += std::binary_search(ids.begin(), ids.end(), q);
    bem::benchmark_record rec;
    rec.split = "N=" + std::to_string(ids.size());
    rec.condition = {bem::tasks::number_field("N_nodes", static_cast<long long>(ids.size()))};
    const auto nq = static_cast<std::int64_t>(qs.size());
    rec.value = bem::metrics::scalar_metric("queries_in_index", static_cast<double>(stored) / static_cast<double>(nq),
                                            "fraction", bem::metrics::better::none, nq, "queries");
    sink.emit(rec);
  }

  std::vector<identifier> make_queries(std::uint64_t seed, const std::vector<identifier>& ids) const {
    bem::xoshiro256ss rng(bem::derive_seed(seed, bem::fnv1a64("route_query/queries"), ids.size()));
    std::vector<identifier> qs(static_cast<std::size_t>(v_.queries));
    for (auto& q : qs) {
      if (rng.bernoulli(v_.p_in)) {
        q = ids[rng.uniform_below(ids.size())];
        const auto flips = rng.uniform_below(static_cast<std::uint64_t>(v_.max_flips) + 1);
        std::uint32_t mask = 0;
        while (static_cast<std::uint64_t>(std::popcount(mask)) < flips) mask |= 1u << rng.uniform_below(32);
        q ^= mask;
      } else {
        q = static_cast<identifier>(rng.next() >> 32);
      }
    }
    return qs;
  }

  bem::route_filter filter_for(identifier q) const {
    if (v_.class_filter == "query") return {bem::class_bit(bem::identifier_class(q)), bem::all_shards};
    return {};
  }

  template <class R>
  void measure(bem::benchmark_sink& sink, bem::cycle_counter& counter, const std::string& cycle_unit, const R& r,
               const std::string& router_name, std::size_t n, const std::vector<identifier>& qs,
               const bem::exact_router& truth_router, const std::vector<bem::tasks::condition_field>& extra) const {
    const auto occ = r.occupancy();
    for (auto k64 : v_.K_cand) {
      const auto k = static_cast<std::size_t>(k64);
      bem::benchmark_record rec;
      rec.split = "router=" + router_name + " N=" + std::to_string(n) + " K_cand=" + std::to_string(k);
      rec.condition = {bem::tasks::string_field("router", router_name),
                       bem::tasks::number_field("N_nodes", static_cast<long long>(n)),
                       bem::tasks::number_field("K_cand", static_cast<long long>(k))};
      rec.condition.insert(rec.condition.end(), extra.begin(), extra.end());
      rec.condition.push_back(bem::tasks::string_field("class_filter", v_.class_filter));
      // The timed figures (cycles_per_query, queries_per_second) are computed
      // from cycles, so they say how the cycles were obtained (the method
      // without its run-to-run figures, as in bitalu's records).
      auto emit = [&](const char* metric, double value, const char* unit, bem::metrics::better dir,
                      std::int64_t count, const char* count_unit, bool timing = false) {
        rec.value = bem::metrics::scalar_metric(metric, value, unit, dir, count, count_unit);
        if (timing) rec.value.breakdown = {{"method", bem::cycle_counting_method(counter.measured())}};
        rec.timing = timing;
        sink.emit(rec);
      };
      using bem::metrics::better;
      emit("bucket_occupancy_min", static_cast<double>(occ.min), "entries per bucket", better::none,
           static_cast<std::int64_t>(occ.buckets), "buckets");
      emit("bucket_occupancy_max", static_cast<double>(occ.max), "entries per bucket", better::none,
           static_cast<std::int64_t>(occ.buckets), "buckets");
      emit("bucket_occupancy_mean", occ.mean, "entries per bucket", better::none,
           static_cast<std::int64_t>(occ.buckets), "buckets");
      emit("bucket_overflow_entries", static_cast<double>(occ.overflow_entries), "entries", better::lower,
           static_cast<std::int64_t>(occ.buckets), "buckets");

      // The timed loop: every query, its answer folded into a checksum.
      bem::route_result res;
      std::uint64_t checksum = 0, probes = 0, examined = 0, lines = 0, scanned = 0, exact = 0;
      counter.start();
      for (identifier q : qs) {
        r.query(q, filter_for(q), k, res);
        for (const auto& c : res.candidates) checksum = checksum * 0x100000001b3ull + c.id;
        probes += res.buckets_probed;
        examined += res.entries_examined;
        lines += res.cache_lines;
        scanned += res.scanned;
        exact += res.exact;
      }
      const auto sample = counter.stop();
      const auto nq = static_cast<std::int64_t>(qs.size());
      const double dq = static_cast<double>(qs.size());
      emit("cycles_per_query", sample.cycles / dq, cycle_unit.c_str(), better::lower, nq, "queries", true);
      // 2.2.3's definition: clock_frequency_hz / cycles_per_query (the core
      // clock of the calibration; with hardware counters, cycles are measured).
      emit("queries_per_second", counter.calibration().core_clock_hz / (sample.cycles / dq), "queries/s",
           better::higher, nq, "queries", true);
      emit("result_checksum", static_cast<double>(checksum % (std::uint64_t{1} << 52)), "FNV fold of candidate ids",
           better::none, nq, "queries");
      emit("buckets_probed_per_query", static_cast<double>(probes) / dq, "buckets", better::lower, nq, "queries");
      emit("entries_examined_per_query", static_cast<double>(examined) / dq, "codes", better::lower, nq, "queries");
      emit("cache_lines_per_query", static_cast<double>(lines) / dq, "64-byte lines of bucket data", better::lower,
           nq, "queries");
      emit("scanned_fraction", static_cast<double>(scanned) / dq, "fraction", better::none, nq, "queries");
      emit("certified_exact_fraction", static_cast<double>(exact) / dq, "fraction", better::higher, nq, "queries");

      // Ground truth on the first Q_truth queries (answers re-computed
      // untimed; routers are deterministic).
      // recall@4 needs 4 candidates: with K_cand < 4 it is not defined (a
      // missing neighbour's rank, K_cand + 1, would count as within 4).
      const std::size_t kk[3] = {1, 4, k};
      const bool has_recall_at_4 = k >= 4;
      std::int64_t hit_tie[3] = {0, 0, 0}, hit_id[3] = {0, 0, 0};
      std::vector<double> ranks;
      bem::route_result truth;
      const auto nt = static_cast<std::size_t>(v_.truth_queries);
      for (std::size_t i = 0; i < nt; ++i) {
        const bem::route_filter f = filter_for(qs[i]);
        truth_router.query(qs[i], f, 1, truth);
        r.query(qs[i], f, k, res);
        if (truth.candidates.empty()) {  // nothing admitted: every answer is right
          for (int j = 0; j < 3; ++j) ++hit_tie[j], ++hit_id[j];
          ranks.push_back(1);
          continue;
        }
        const auto best = truth.candidates[0];
        std::size_t rank = k + 1;
        for (std::size_t j = 0; j < res.candidates.size(); ++j)
          if (res.candidates[j].id == best.id) rank = std::min(rank, j + 1);
        ranks.push_back(static_cast<double>(rank));
        for (int j = 0; j < 3; ++j) {
          const std::size_t upto = std::min(kk[j], res.candidates.size());
          bool tie = false;
          for (std::size_t c = 0; c < upto; ++c) tie = tie || res.candidates[c].similarity == best.similarity;
          hit_tie[j] += tie;
          hit_id[j] += rank <= kk[j];
        }
      }
      const char* names_tie[3] = {"recall@1", "recall@4", "recall@K_cand"};
      const char* names_id[3] = {"recall@1_by_id", "recall@4_by_id", "recall@K_cand_by_id"};
      const auto ntq = static_cast<std::int64_t>(nt);
      for (int j = 0; j < 3; ++j) {
        if (j == 1 && !has_recall_at_4) continue;
        for (int by_id = 0; by_id < 2; ++by_id) {
          const std::int64_t hits = by_id ? hit_id[j] : hit_tie[j];
          rec.value = {};
          rec.value.metric = by_id ? names_id[j] : names_tie[j];
          rec.value.value = static_cast<double>(hits) / static_cast<double>(ntq);
          rec.value.unit = by_id ? "fraction (ties broken by lower identifier)" : "fraction (ties counted as correct)";
          rec.value.ci = bem::metrics::wilson_interval(hits, ntq);
          rec.value.direction = better::higher;
          rec.value.n = ntq;
          rec.value.n_unit = "truth queries";
          rec.timing = false;
          sink.emit(rec);
        }
      }
      const auto s = bem::metrics::summarize(ranks);
      rec.value = {};
      rec.value.metric = "mean_rank_true_neighbour";
      rec.value.value = s.mean;
      rec.value.unit = "rank (1 = first; K_cand + 1 when absent; ties broken by identifier)";
      rec.value.ci = bem::metrics::t_interval(s);
      rec.value.direction = better::lower;
      rec.value.n = ntq;
      rec.value.n_unit = "truth queries";
      sink.emit(rec);
    }
  }

  route_parameters v_;
};

}  // namespace

BEM_PLUGIN("route", "1", BEM_BENCHMARKS(route_query_benchmark))
