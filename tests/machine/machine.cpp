#include <bem/circuits/jit.hpp>
#include <bem/circuits/random_circuit.hpp>
#include <bem/machine/machine.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

namespace {

constexpr std::size_t N = 64, K = 256, W = 256;
using machine_t = bem::machine<N, K, W>;

/// A random expert: 8 inputs read from STATE (and one SHARED bit), 4 outputs
/// xor-ed into STATE, a random 24-gate circuit.
bem::expert<bem::gate_list> random_expert(bem::xoshiro256ss& rng, std::set<bem::identifier>& used) {
  bem::identifier id;
  do {
    id = bem::make_checked_identifier(1, static_cast<std::uint32_t>(rng.uniform_below(64)),
                                      static_cast<std::uint32_t>(rng.uniform_below(1 << 14)));
  } while (!used.insert(id).second);
  bem::read_spec r;
  for (int i = 0; i < 7; ++i)
    r.bits.push_back({bem::read_bit::source::state, static_cast<std::uint32_t>(rng.uniform_below(N))});
  r.bits.push_back({bem::read_bit::source::shared, static_cast<std::uint32_t>(rng.uniform_below(K))});
  bem::write_spec w;
  for (int i = 0; i < 4; ++i)
    w.bits.push_back({static_cast<std::uint32_t>(rng.uniform_below(N)), bem::write_bit::mode::xor_into});
  return {id, std::move(r), bem::random_gate_list({8, 4, 24, 16}, rng.next()), std::move(w)};
}

machine_t make_machine(bem::machine_config cfg, std::size_t experts, std::uint64_t seed) {
  machine_t m(cfg);
  bem::xoshiro256ss rng(seed);
  std::set<bem::identifier> used;
  for (std::size_t i = 0; i < experts; ++i) m.add_expert(random_expert(rng, used));
  for (std::size_t k = 0; k < N; ++k)
    for (std::size_t l = 0; l < W; ++l) m.state_words().set_bit(k, l, rng.bit());
  for (std::size_t i = 0; i < K; ++i) m.set_shared_bit(i, rng.bit());
  return m;
}

bem::observation obs(std::uint64_t t, std::uint32_t tasks) {
  return {static_cast<std::uint32_t>(bem::mix64(t) % tasks), bem::mix64(t ^ 0x5555), 0, 0};
}

/// `before` with the expert in `slot` applied to every lane, alone.
bem::state<N, W> applied_alone(const machine_t& m, bem::state<N, W> before, std::uint32_t slot) {
  std::vector<bem::lane_word<W>> scratch(m.expert_at(slot).scratch_size());
  std::array<std::uint64_t, K / 64> shared{};
  for (std::size_t i = 0; i < K; ++i) shared[i / 64] |= std::uint64_t{m.shared().bit(i)} << (i % 64);
  m.expert_at(slot).apply<bem::lane_word<W>>(std::span<bem::lane_word<W>>(&before[0], N), shared, scratch);
  return before;
}

/// Steps a and b on the same observations and rewards (the mid path every
/// 50 steps when `mid_path`): they must choose the same experts at every
/// step and end with the same state and log (after the configuration
/// entry, which names each machine's circuit representation).
template <class A, class B>
void check_lockstep(A& a, B& b, std::uint64_t steps, bool mid_path) {
  for (std::uint64_t t = 0; t < steps; ++t) {
    const auto o = obs(t, 3);
    const auto ca = a.step(o);
    const auto cb = b.step(o);
    REQUIRE(std::vector<std::uint32_t>(ca.begin(), ca.end()) == std::vector<std::uint32_t>(cb.begin(), cb.end()));
    a.reward(o.task_id, ca[0], static_cast<double>(t % 3 == 0));
    b.reward(o.task_id, cb[0], static_cast<double>(t % 3 == 0));
    if (mid_path && t % 50 == 49) {
      a.mid_path_update();
      b.mid_path_update();
    }
  }
  CHECK(a.state_words() == b.state_words());
  REQUIRE(a.log().size() == b.log().size());
  for (std::size_t k = 1; k < a.log().size(); ++k) REQUIRE(a.log().entry(k) == b.log().entry(k));
}

}  // namespace

TEST_CASE("a step routes, selects by UCB1, applies the chosen expert and logs") {
  bem::machine_config cfg;
  cfg.tasks = 2;
  machine_t m = make_machine(cfg, 300, 7);
  const auto before = m.state_words();
  const bem::observation o{1, 12345, 0, 0};
  const auto chosen = m.step(o);
  REQUIRE(chosen.size() == 1);
  // With no statistics every candidate scores 0: the router's first (most
  // similar) candidate wins the tie.
  bem::route_result res;
  m.router().query(m.query_key(o), {bem::class_bit(1), bem::all_shards}, cfg.k_large, res);
  REQUIRE_FALSE(res.candidates.empty());
  CHECK(m.expert_at(chosen[0]).id() == res.candidates.front().id);
  // The state changed exactly as applying that expert alone.
  CHECK(m.state_words() == applied_alone(m, before, chosen[0]));
  CHECK(m.log().size() == 2);  // the configuration, the step
  CHECK(m.log().verify() == bem::trace_log::npos);
  CHECK(m.last_work().candidates == cfg.k_large);
}

TEST_CASE("rewards steer selection: among equally explored candidates the rewarded one wins") {
  bem::machine_config cfg;
  machine_t m = make_machine(cfg, 200, 3);
  const bem::observation o{0, 99, 0, 0};
  const auto first = m.step(o)[0];
  // Every candidate of this query visited once; only `first` won.
  bem::route_result res;
  m.router().query(m.query_key(o), {bem::class_bit(1), bem::all_shards}, cfg.k_large, res);
  for (const auto& c : res.candidates)
    for (std::uint32_t s = 0; s < m.expert_count(); ++s)
      if (m.expert_at(s).id() == c.id) m.reward(0, s, s == first ? 1.0 : 0.0);
  CHECK(m.step(o)[0] == first);
  CHECK(m.expert_at(first).stats().wins == 1);
  // Punished many times, its mean falls below the others' exploration bonus.
  for (int i = 0; i < 200; ++i) m.reward(0, first, 0.0);
  CHECK(m.step(o)[0] != first);
  m.mid_path_update();
  CHECK(m.selection().log_weight(first).raw < 0);
  CHECK(m.log().verify() == bem::trace_log::npos);
}

TEST_CASE("two machines with the same inputs agree bit for bit") {
  bem::machine_config cfg;
  cfg.tasks = 3;
  cfg.k_small = 2;
  cfg.lanes = bem::lane_scheme::lane_groups;
  machine_t a = make_machine(cfg, 150, 11), b = make_machine(cfg, 150, 11);
  check_lockstep(a, b, 500, true);
}

TEST_CASE("a machine of run-time compiled experts steps exactly as one of interpreted experts") {
  // The circuit policy swapped for bem::jit_circuit, the experts the same.
  struct jit_policies : bem::default_machine_policies {
    using circuit = bem::jit_circuit;
  };
  using jit_machine = bem::machine<N, K, W, jit_policies>;
  bem::machine_config cfg;
  cfg.tasks = 3;
  cfg.k_small = 2;
  cfg.lanes = bem::lane_scheme::lane_groups;
  machine_t a = make_machine(cfg, 120, 21);
  jit_machine b(cfg);
  bem::xoshiro256ss rng(21);
  std::set<bem::identifier> used;
  for (std::size_t i = 0; i < 120; ++i) {
    const auto e = random_expert(rng, used);
    b.add_expert({e.id(), e.reads(), bem::jit_circuit(e.circuit()), e.writes()});
  }
  for (std::size_t k = 0; k < N; ++k)  // the state and SHARED bits make_machine drew
    for (std::size_t l = 0; l < W; ++l) b.state_words().set_bit(k, l, rng.bit());
  for (std::size_t i = 0; i < K; ++i) b.set_shared_bit(i, rng.bit());
  REQUIRE(a.state_words() == b.state_words());
  check_lockstep(a, b, 300, true);
}

TEST_CASE("per-group lanes follow their own expert; groups past the candidates follow the best one") {
  // With 100 experts each of the k_small = 4 groups has one of its own; with
  // 3, group 3 repeats the best (docs/machine.md, step 4), not the last.
  for (const std::size_t experts : {100u, 3u}) {
    bem::machine_config cfg;
    cfg.k_small = 4;
    cfg.lanes = bem::lane_scheme::lane_groups;
    machine_t m = make_machine(cfg, experts, 5);
    const auto before = m.state_words();
    const auto chosen = m.step({0, 7, 0, 0});
    REQUIRE(chosen.size() == std::min<std::size_t>(experts, 4));
    CHECK(m.last_work().experts_applied == 4);
    for (std::size_t g = 0; g < 4; ++g) {
      const auto alone = applied_alone(m, before, chosen[g < chosen.size() ? g : 0]);
      for (std::size_t l = g * W / 4; l < (g + 1) * W / 4; ++l)
        CHECK_MESSAGE(m.state_words().lane_bits(l) == alone.lane_bits(l), experts, " experts, group ", g, " lane ", l);
    }
  }
}

TEST_CASE("SHARED bits the program sets and clears between steps reach the experts") {
  // One expert copying SHARED bit 70 (second word) into state bit 5 on
  // every lane: a bit cleared after being set must read as cleared.
  machine_t m(bem::machine_config{});
  bem::read_spec r;
  r.bits.push_back({bem::read_bit::source::shared, 70});
  bem::write_spec w;
  w.bits.push_back({5, bem::write_bit::mode::overwrite});
  const bem::gate_list copy(1, {bem::gate{bem::gate_op::and_, 0, 0, 0, 0}}, {1});
  m.add_expert({bem::make_checked_identifier(1, 3, 9), r, copy, w});
  using word = bem::lane_word<W>;
  for (const bool v : {true, false, true, false}) {
    m.set_shared_bit(70, v);
    CHECK(m.shared().bit(70) == v);
    REQUIRE(m.step({0, 1, 0, 0}).size() == 1);
    CHECK(m.state_words()[5] == (v ? word::ones() : word::zeros()));
  }
}

TEST_CASE("a reward counts a visit of the expert, and a win when r >= 0.5") {
  machine_t m = make_machine(bem::machine_config{}, 2, 8);
  m.reward(0, 1, 0.5);
  m.reward(0, 1, 0.49);
  m.reward(0, 1, 1.0);
  m.reward(0, 1, 0.0);
  CHECK(m.expert_at(1).stats().visits == 4);
  CHECK(m.expert_at(1).stats().wins == 2);
  CHECK(m.expert_at(0).stats().visits == 0);
  // The selection table sums the rewards themselves (UCB1's mean reward).
  CHECK(m.selection().wins(0, 1) == doctest::Approx(1.99));
}

TEST_CASE("the cost of a step does not grow with the history") {
  // Deterministic work counts, not timings: the same observation costs the
  // same router probes, candidates, expert evaluations and log bytes after 10
  // steps and after 20,000.
  bem::machine_config cfg;
  cfg.tasks = 4;
  machine_t m = make_machine(cfg, 1000, 21);
  std::vector<bem::observation> probes;
  for (std::uint64_t t = 0; t < 16; ++t) probes.push_back(obs(1000000 + t, 4));
  auto work_of = [&] {
    std::vector<bem::step_work> w;
    for (const auto& p : probes) {
      m.step(p);
      w.push_back(m.last_work());
    }
    return w;
  };
  for (std::uint64_t t = 0; t < 10; ++t) m.step(obs(t, 4));
  const auto early = work_of();
  for (std::uint64_t t = 10; t < 20000; ++t) {
    const auto o = obs(t, 4);
    const auto c = m.step(o);
    m.reward(o.task_id, c[0], static_cast<double>(t % 2));
    if (t % 1000 == 999) m.mid_path_update();
  }
  const auto late = work_of();
  CHECK(early == late);
  // The configuration, steps, probe steps, rewards, mid-path updates.
  CHECK(m.log().size() == 1 + 20000 + 2 * 16 + (20000 - 10) + 20);
  for (const auto& w : late) {
    CHECK(w.experts_applied == 1);
    CHECK(w.log_payload_bytes == 12);
  }
}

TEST_CASE("bad configurations and experts are rejected") {
  bem::machine_config cfg;
  cfg.k_small = 5;
  CHECK_THROWS_AS(machine_t{cfg}, std::invalid_argument);
  machine_t m(bem::machine_config{});
  bem::xoshiro256ss rng(1);
  std::set<bem::identifier> used;
  auto e = random_expert(rng, used);
  m.add_expert(e);
  CHECK_THROWS_AS(m.add_expert(e), std::invalid_argument);  // same identifier
  CHECK_THROWS_AS(m.step({5, 0, 0, 0}), std::out_of_range);  // task out of range

  // Reads and writes outside STATE (N bits) or SHARED (K bits) are refused
  // when the expert is added, before the router sees it.
  const auto with = [&](auto change) {
    auto x = random_expert(rng, used);
    auto reads = x.reads();
    auto writes = x.writes();
    change(reads, writes);
    return bem::expert<bem::gate_list>(x.id(), reads, x.circuit(), writes);
  };
  const auto state_read = with([](bem::read_spec& r, bem::write_spec&) { r.bits[0] = {bem::read_bit::source::state, N}; });
  const auto shared_read = with([](bem::read_spec& r, bem::write_spec&) { r.bits[7] = {bem::read_bit::source::shared, K}; });
  const auto state_write = with([](bem::read_spec&, bem::write_spec& w) { w.bits[3].index = N; });
  CHECK_THROWS_WITH_AS(m.add_expert(state_read), doctest::Contains("read bit 0 reads state bit 64"), std::out_of_range);
  CHECK_THROWS_WITH_AS(m.add_expert(shared_read), doctest::Contains("read bit 7 reads shared bit 256"),
                       std::out_of_range);
  CHECK_THROWS_WITH_AS(m.add_expert(state_write), doctest::Contains("write bit 3 writes state bit 64"),
                       std::out_of_range);
  CHECK(m.expert_count() == 1);
  CHECK(m.router().size() == 1);
  // The largest indices are fine.
  m.add_expert(with([](bem::read_spec& r, bem::write_spec& w) {
    r.bits[0] = {bem::read_bit::source::state, N - 1};
    r.bits[7] = {bem::read_bit::source::shared, K - 1};
    w.bits[3].index = N - 1;
  }));
  CHECK(m.expert_count() == 2);

  // A reward for a slot or task that does not exist changes nothing.
  CHECK_THROWS_AS(m.reward(0, 2, 1.0), std::out_of_range);
  CHECK_THROWS_AS(m.reward(1, 0, 1.0), std::out_of_range);
  CHECK(m.selection().visits(0, 2) == 0);
  CHECK(m.selection().task_visits(0) == 0);

  // SHARED parameters by index, checked.
  m.set_shared_parameter(3, bem::q16_16::from_double(1.5));
  CHECK(m.shared().parameter(3) == bem::q16_16::from_double(1.5));
  CHECK_THROWS_AS(m.shared_parameter(machine_t::shared_parameters), std::out_of_range);
  CHECK_THROWS_AS(m.set_shared_parameter(machine_t::shared_parameters, {}), std::out_of_range);
}

TEST_CASE("the query key is F_id(task_id, context_hash) as documented") {
  machine_t m(bem::machine_config{.tasks = 100});
  for (std::uint32_t task : {0u, 1u, 63u, 64u, 99u})
    for (std::uint64_t context : {std::uint64_t{0}, std::uint64_t{12345}, ~std::uint64_t{0}}) {
      const std::uint64_t h = bem::mix64(context ^ task);
      const bem::identifier q = m.query_key({task, context, 0, 0});
      CHECK(q == bem::make_checked_identifier(1, task % 64, static_cast<std::uint32_t>(h & 0x3FFF)));
      CHECK(bem::identifier_class(q) == 1);
      CHECK(bem::identifier_shard(q) == task % 64);
    }
}

TEST_CASE("the step log records the task, the query key and the chosen experts; the mid path its step") {
  bem::machine_config cfg;
  cfg.tasks = 3;
  cfg.k_small = 3;
  cfg.lanes = bem::lane_scheme::lane_groups;
  machine_t m = make_machine(cfg, 200, 17);
  for (std::uint64_t t = 0; t < 40; ++t) {
    if (t % 10 == 5) {  // a mid-path update between steps t - 1 and t
      m.mid_path_update();
      const bem::trace_entry& u = m.log().entry(m.log().size() - 1);
      CHECK(u.kind == bem::mid_path_kind);
      CHECK(u.step == t);
      REQUIRE(u.payload.size() == 12);  // experts updated, S after
      std::uint64_t s = 0;
      for (int b = 0; b < 8; ++b) s |= std::uint64_t{u.payload[4 + static_cast<std::size_t>(b)]} << (8 * b);
      CHECK(s == m.selection().loss_accumulator_raw());
    }
    const auto o = obs(t, 3);
    const auto chosen = m.step(o);
    const bem::trace_entry& e = m.log().entry(m.log().size() - 1);
    CHECK(e.kind == bem::fast_step_kind);
    CHECK(e.step == t);
    std::vector<std::uint32_t> expected{o.task_id, m.query_key(o)};
    for (const auto slot : chosen) expected.push_back(m.expert_at(slot).id());
    REQUIRE(e.payload.size() == 4 * expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      std::uint32_t v = 0;
      for (int b = 0; b < 4; ++b) v |= std::uint32_t{e.payload[4 * i + static_cast<std::size_t>(b)]} << (8 * b);
      CHECK(v == expected[i]);
    }
    m.reward(o.task_id, chosen[0], 1.0);
  }
}

TEST_CASE("sample mode applies one expert, drawn reproducibly, and counts one evaluation") {
  bem::machine_config cfg;
  cfg.tasks = 2;
  cfg.sample = true;
  cfg.k_small = 2;  // sampling draws one all the same
  cfg.seed = 99;
  machine_t a = make_machine(cfg, 150, 4), b = make_machine(cfg, 150, 4);
  std::set<std::uint32_t> drawn;
  for (std::uint64_t t = 0; t < 200; ++t) {
    const auto o = obs(t, 2);
    const auto before = a.state_words();
    const auto chosen = a.step(o);
    REQUIRE(chosen.size() == 1);
    CHECK(a.last_work().experts_applied == 1);
    CHECK(a.state_words() == applied_alone(a, before, chosen[0]));  // all lanes follow the drawn expert
    drawn.insert(chosen[0]);
    a.reward(o.task_id, chosen[0], 0.0);
  }
  CHECK(drawn.size() > 10);  // draws, not a fixed choice
  // The same seed draws the same experts.
  for (std::uint64_t t = 0; t < 200; ++t) {
    const auto o = obs(t, 2);
    const auto chosen = b.step(o);
    b.reward(o.task_id, chosen[0], 0.0);
  }
  CHECK(a.log().head() == b.log().head());
}

TEST_CASE("experts_applied counts expert evaluations: one, or one per lane group") {
  bem::machine_config cfg;
  cfg.k_small = 3;
  cfg.k_large = 3;
  cfg.lanes = bem::lane_scheme::lane_groups;
  machine_t m = make_machine(cfg, 1, 8);  // one expert: one candidate at most
  const auto chosen = m.step({0, 5, 0, 0});
  REQUIRE(chosen.size() == 1);
  CHECK(m.last_work().experts_applied == 1);
  machine_t many = make_machine(cfg, 100, 8);
  REQUIRE(many.step({0, 5, 0, 0}).size() == 3);
  CHECK(many.last_work().experts_applied == 3);
  machine_t none(cfg);
  CHECK(none.step({0, 5, 0, 0}).empty());
  CHECK(none.last_work().experts_applied == 0);
}

TEST_CASE("with shards_from_features, feature_bits is the query's shard filter") {
  bem::machine_config cfg;
  cfg.shards_from_features = true;
  machine_t m = make_machine(cfg, 600, 12);
  for (std::uint64_t t = 0; t < 50; ++t) {
    const std::uint64_t shards = bem::mix64(t) & bem::mix64(t + 1);  // about 16 of 64 shards
    const auto chosen = m.step({0, t, 0, shards});
    for (const auto slot : chosen) CHECK(((shards >> bem::identifier_shard(m.expert_at(slot).id())) & 1u) == 1u);
    // The same candidates as a query through that filter.
    bem::route_result res;
    m.router().query(m.query_key({0, t, 0, shards}), {bem::class_bit(1), shards}, cfg.k_large, res);
    CHECK(m.last_work().candidates == res.candidates.size());
  }
  // 0 admits every shard; without the option feature_bits is not read.
  machine_t all = make_machine(cfg, 600, 12);
  bem::machine_config plain_cfg;
  machine_t plain = make_machine(plain_cfg, 600, 12);
  for (std::uint64_t t = 0; t < 20; ++t) {
    const auto a = all.step({0, t, 0, 0});
    const auto p = plain.step({0, t, 0, 0x1});
    CHECK(std::vector<std::uint32_t>(a.begin(), a.end()) == std::vector<std::uint32_t>(p.begin(), p.end()));
  }
}

// docs/machine.md shows this test verbatim (tests/api's docs-in-sync checks it).
namespace docs_example {
TEST_CASE("a machine routes, selects, applies experts, learns from rewards and logs every step") {
  constexpr std::size_t N = 64, K = 64, W = 256;  // 64 STATE words of 256 lanes, 64 SHARED bits
  bem::machine_config cfg;
  cfg.tasks = 2;    // task ids 0 and 1
  cfg.k_large = 16; // candidates per ROUTE_QUERY
  cfg.k_small = 1;  // one expert for all lanes
  bem::machine<N, K, W> m(cfg);

  // 32 experts: each reads 8 STATE bits, runs a random 24-gate circuit and
  // xors its 4 outputs into STATE bits 56..59.
  bem::xoshiro256ss rng(1);
  for (std::uint32_t e = 0; e < 32; ++e) {
    bem::read_spec in;
    for (std::uint32_t i = 0; i < 8; ++i) in.bits.push_back({bem::read_bit::source::state, (e + 7 * i) % 56});
    bem::write_spec out;
    for (std::uint32_t j = 0; j < 4; ++j) out.bits.push_back({56 + j, bem::write_bit::mode::xor_into});
    const bem::identifier id = bem::make_checked_identifier(cfg.expert_class, e % 64, e);
    m.add_expert({id, in, bem::random_gate_list({8, 4, 24, 16}, rng.next()), out});
  }

  for (std::uint64_t t = 0; t < 1000; ++t) {
    for (std::size_t k = 0; k < 56; ++k)  // the program writes its input into STATE
      for (auto& x : m.state_words()[k].words()) x = rng.next();
    const bem::observation o{static_cast<std::uint32_t>(t % 2), /*context_hash=*/t % 10, 0, 0};
    const auto chosen = m.step(o);  // route, select by UCB1, apply, log
    const double r = bem::popcount(m.state_words()[56]) > W / 2 ? 1.0 : 0.0;  // the task's judgement
    m.reward(o.task_id, chosen[0], r);                                       // STATS_UPDATE
    if (t % 100 == 99) m.mid_path_update();                                  // log-weights
  }
  CHECK(m.steps() == 1000);
  CHECK(m.log().verify() == bem::trace_log::npos);  // the hash chain is intact
  CHECK(m.last_work().candidates == 16);            // bounded work, whatever the history
}
}  // namespace docs_example

namespace {
template <std::size_t n, std::size_t k, std::size_t w = 64>
concept machine_exists = requires { sizeof(bem::machine<n, k, w>); };
}  // namespace

TEST_CASE("N >= 1, K >= N, W a multiple of 64: other sizes do not name a machine") {
  // REFERENCE.md §1: M_t has K >= N bits. N = 0 also indexed an empty
  // std::array (undefined behaviour) in every step.
  static_assert(machine_exists<1, 1>);
  static_assert(machine_exists<64, 256>);
  static_assert(!machine_exists<0, 64>);
  static_assert(!machine_exists<64, 63>);
  static_assert(machine_exists<1, 1, 192>);
  static_assert(!machine_exists<1, 1, 100>);
  static_assert(!machine_exists<1, 1, 0>);
  bem::machine<1, 1, 64> tiny(bem::machine_config{});
  CHECK(tiny.step({0, 0, 0, 0}).empty());  // zero experts match: the state stays, the step is logged
  CHECK(tiny.log().size() == 2);  // the configuration and the step
}

TEST_CASE("a reward outside [0, 1] is refused and changes nothing") {
  machine_t m = make_machine(bem::machine_config{}, 10, 2);
  const auto slot = m.step({0, 1, 0, 0})[0];
  for (const double r : {-0.5, 1.0001, std::nan("")}) CHECK_THROWS_AS(m.reward(0, slot, r), std::invalid_argument);
  CHECK(m.selection().visits(0, slot) == 0);
  CHECK(m.selection().task_visits(0) == 0);
  CHECK(m.expert_at(slot).stats().visits == 0);
  m.mid_path_update();
  CHECK(m.selection().log_weight(slot).raw == 0);
  // Bad UCB and log-weight parameters are refused when the machine is made.
  bem::machine_config bad;
  bad.ucb.c_explore = std::nan("");
  CHECK_THROWS_AS(machine_t{bad}, std::invalid_argument);
  bad = {};
  bad.log_weights.step_max = -1.0;
  CHECK_THROWS_AS(machine_t{bad}, std::invalid_argument);
}
