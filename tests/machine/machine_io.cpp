// What experts write beyond STATE (SHARED bits, Theta, the HASH-addressed
// memory), the per-lane scheme, the learning log and its replay, and the
// §6.1 configuration the machine reports.
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/random_circuit.hpp>
#include <bem/machine/identifier_map.hpp>
#include <bem/machine/machine.hpp>
#include <bem/machine/replay.hpp>
#include <bem/machine/trace_file.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

// A namespace of its own: the test files share one unity unit.
namespace machine_io_test {
namespace {

/// A gate whose value is node a (a AND a); gate fields: op, truth table, a, b, c.
bem::gate copy_of(std::uint32_t a) { return bem::gate{bem::gate_op::and_, 0, a, a, 0}; }

/// One gate copying input 0 (a gate list with one input and one output).
bem::gate_list copy_circuit() { return bem::gate_list(1, {copy_of(0)}, {1}); }

/// n outputs, each a copy of the same input 0.
bem::gate_list fan_out(std::uint32_t n) {
  std::vector<bem::gate> gates{copy_of(0)};
  return bem::gate_list(1, gates, std::vector<std::uint32_t>(n, 1));
}

bem::identifier id_of(std::uint32_t e) { return bem::make_checked_identifier(1, e % 64, (e * 131 + 7) % 16384); }

}  // namespace

TEST_CASE("experts write SHARED bits through lane reductions and Theta through lane counts") {
  // STATE bit 0 copied to: SHARED 3 (any), SHARED 4 (all), SHARED 5 (parity),
  // SHARED 6 (lane 0), Theta 2 (+0.5 per lane whose bit is 1).
  using machine_t = bem::machine<4, 128, 128>;
  machine_t m(bem::machine_config{});
  bem::write_spec w;
  using wb = bem::write_bit;
  w.bits.push_back({3, wb::mode::overwrite, wb::target::shared, wb::reduction::any});
  w.bits.push_back({4, wb::mode::overwrite, wb::target::shared, wb::reduction::all});
  w.bits.push_back({5, wb::mode::xor_into, wb::target::shared, wb::reduction::parity});
  w.bits.push_back({6, wb::mode::overwrite, wb::target::shared, wb::reduction::lane0});
  w.bits.push_back({2, wb::mode::overwrite, wb::target::theta, wb::reduction::any, 1 << 15});
  m.add_expert({id_of(0), bem::read_spec{{{bem::read_bit::source::state, 0}}}, fan_out(5), w});
  // Three lanes set, lane 0 not: any, not all, odd parity, lane 0 clear.
  for (const std::size_t l : {1u, 64u, 127u}) m.state_words().set_bit(0, l, true);
  m.set_shared_bit(5, true);  // xor: 1 ^ parity 1 = 0
  REQUIRE(m.step({0, 0, 0, 0}).size() == 1);
  CHECK(m.shared().bit(3));
  CHECK_FALSE(m.shared().bit(4));
  CHECK_FALSE(m.shared().bit(5));
  CHECK_FALSE(m.shared().bit(6));
  CHECK(m.shared_parameter(2) == bem::q16_16::from_double(1.5));
  // Every lane set: all, lane 0; Theta counts 128 more halves.
  for (std::size_t l = 0; l < 128; ++l) m.state_words().set_bit(0, l, true);
  m.step({0, 0, 0, 0});
  CHECK(m.shared().bit(4));
  CHECK(m.shared().bit(6));
  CHECK(m.shared_parameter(2) == bem::q16_16::from_double(65.5));
  // Each step that wrote Theta logged the parameter's new value.
  const bem::trace_entry& last = m.log().entry(m.log().size() - 1);
  CHECK(last.kind == bem::theta_write_kind);
  CHECK(replay_learning(m.log()).theta[2] == m.shared_parameter(2));
}

TEST_CASE("a per-lane HASH-addressed memory stores and recalls a value per key, lane by lane") {
  // STATE bits 0..3: the key; 4..5: the value; 6: the write flag; 7..8 the
  // recalled value. A 'store' expert writes value -> slot(key) where flag is
  // set; a 'recall' expert reads slot(key) into 7..8.
  constexpr std::size_t W = 64;
  using machine_t = bem::machine<9, 64 * 16 * 2, W>;
  bem::memory_port port;
  port.slots = 16;
  port.slot_bits = 2;
  port.per_lane = true;
  port.key_bits = {0, 1, 2, 3};
  port.salt = 0x9E37;
  using rb = bem::read_bit;
  using wb = bem::write_bit;
  // store: inputs value0, value1, flag -> memory 0, memory 1, enable.
  const bem::gate_list store(3, {copy_of(0), copy_of(1), copy_of(2)}, {3, 4, 5});
  const bem::write_spec store_w{{{0, wb::mode::overwrite, wb::target::memory},
                                 {1, wb::mode::overwrite, wb::target::memory},
                                 {0, wb::mode::overwrite, wb::target::memory_enable}}};
  const bem::read_spec store_r{{{rb::source::state, 4}, {rb::source::state, 5}, {rb::source::state, 6}}};
  const bem::gate_list recall(2, {copy_of(0), copy_of(1)}, {2, 3});
  const bem::read_spec recall_r{{{rb::source::memory, 0}, {rb::source::memory, 1}}};
  const bem::write_spec recall_w{{{7, wb::mode::overwrite}, {8, wb::mode::overwrite}}};
  // Two machines so routing picks the one expert each has.
  machine_t storer(bem::machine_config{}), recaller(bem::machine_config{});
  storer.add_expert({id_of(1), store_r, store, store_w, port});
  recaller.add_expert({id_of(2), recall_r, recall, recall_w, port});
  bem::xoshiro256ss rng(4);
  // Lane l stores value (l + k) % 4 under key k for k = 0..15, in steps.
  for (std::uint32_t k = 0; k < 16; ++k) {
    for (std::size_t l = 0; l < W; ++l) {
      for (std::uint32_t b = 0; b < 4; ++b) storer.state_words().set_bit(b, l, (k >> b) & 1u);
      const std::uint32_t v = static_cast<std::uint32_t>((l + k) % 4);
      storer.state_words().set_bit(4, l, v & 1u);
      storer.state_words().set_bit(5, l, (v >> 1) & 1u);
      storer.state_words().set_bit(6, l, l % 3 != 0);  // lanes 0, 3, 6, ... never write
    }
    storer.step({0, 0, 0, 0});
  }
  for (std::size_t i = 0; i < 64 * 16 * 2; ++i) recaller.set_shared_bit(i, storer.shared().bit(i));
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<std::uint32_t> key(W);
    for (std::size_t l = 0; l < W; ++l) {
      key[l] = static_cast<std::uint32_t>(rng.uniform_below(16));
      for (std::uint32_t b = 0; b < 4; ++b) recaller.state_words().set_bit(b, l, (key[l] >> b) & 1u);
    }
    recaller.step({0, 0, 0, 0});
    for (std::size_t l = 0; l < W; ++l) {
      const std::uint32_t got = recaller.state_words().bit(7, l) | (recaller.state_words().bit(8, l) << 1);
      // Distinct keys can share a slot (16 keys, 16 slots, hashed): then the
      // later key's value is there. The stored value for this key's slot:
      std::uint32_t want = 0;
      for (std::uint32_t k = 0; k < 16; ++k)
        if (port.address(k) == port.address(key[l]) && l % 3 != 0) want = static_cast<std::uint32_t>((l + k) % 4);
      CHECK_MESSAGE(got == want, "lane ", l, " key ", key[l]);
    }
  }
  // A port that does not fit in SHARED is refused when the expert is added.
  bem::memory_port big = port;
  big.slots = 64;
  machine_t small(bem::machine_config{});
  CHECK_THROWS_WITH_AS(small.add_expert({id_of(3), recall_r, recall, recall_w, big}),
                       doctest::Contains("memory port spans SHARED bits"), std::out_of_range);
}

TEST_CASE("per-lane scheme: every lane routes on its own observation and gets its own expert") {
  // Lane l's token (STATE bits 0..2) is its context; 8 experts, expert e
  // sets STATE bit 3 + e % 3 to 1.
  constexpr std::size_t W = 128;
  bem::field_observation obs;
  obs.context_offset = 0, obs.context_words = 3;
  obs.local_offset = 0, obs.local_bits = 3;
  bem::machine_config cfg;
  cfg.lanes = bem::lane_scheme::per_lane;
  cfg.k_large = 4;
  bem::machine<6, 64, W> m(cfg, {}, obs);
  const bem::gate_list one(1, {bem::gate{bem::gate_op::not_, 0, 0, 0, 0}, bem::gate{bem::gate_op::or_, 0, 0, 1, 0}},
                           {2});  // x | ~x = 1
  for (std::uint32_t e = 0; e < 8; ++e)
    m.add_expert({id_of(10 + e), bem::read_spec{{{bem::read_bit::source::state, 0}}}, one,
                  bem::write_spec{{{3 + e % 3, bem::write_bit::mode::overwrite}}}});
  bem::xoshiro256ss rng(9);
  for (std::size_t l = 0; l < W; ++l)
    for (std::size_t b = 0; b < 3; ++b) m.state_words().set_bit(b, l, rng.bit());
  const auto before = m.state_words();
  const auto chosen = m.step();
  REQUIRE(chosen.size() == W);
  CHECK(m.last_work().experts_applied == W);
  for (std::size_t l = 0; l < W; ++l) {
    // The lane's own route: the query of its observation, top-1 by UCB1
    // among its candidates (all unvisited: the router's first).
    const bem::observation o = obs.observe_lane(before, m.shared(), l);
    bem::route_result res;
    m.router().query(m.query_key(o), {bem::class_bit(1), bem::all_shards}, cfg.k_large, res);
    REQUIRE_FALSE(res.candidates.empty());
    CHECK(m.expert_at(chosen[l]).id() == res.candidates[0].id);
    const std::uint32_t bit = 3 + (chosen[l] % 3);
    for (std::uint32_t b = 3; b < 6; ++b) CHECK(m.state_words().bit(b, l) == (b == bit));
  }
  // One log entry for the step: W (task, expert id) pairs.
  const bem::trace_entry& e = m.log().entry(m.log().size() - 1);
  CHECK(e.kind == bem::fast_step_kind);
  CHECK(e.payload.size() == 4 + 8 * W);
  // step(observation) is for the other schemes.
  CHECK_THROWS_AS(m.step(bem::observation{}), std::logic_error);
  // Bad scheme settings are refused.
  bem::machine_config bad;
  bad.lanes = bem::lane_scheme::per_lane;
  bad.k_small = 2;
  CHECK_THROWS_AS((bem::machine<6, 64, W>{bad}), std::invalid_argument);
  bad = {};
  bad.k_small = 2;  // all_lanes applies one expert
  CHECK_THROWS_WITH_AS((bem::machine<6, 64, W>{bad}), doctest::Contains("lane_groups"), std::invalid_argument);
}

TEST_CASE("replay from the log alone rebuilds the statistics, log-weights and Theta after 10^5 steps") {
  constexpr std::size_t N = 16, K = 64, W = 64;
  using machine_t = bem::machine<N, K, W>;
  bem::machine_config cfg;
  cfg.tasks = 3;
  cfg.sample = true;
  cfg.seed = 5;
  machine_t m(cfg);
  bem::xoshiro256ss rng(77);
  std::set<bem::identifier> used;
  for (std::uint32_t e = 0; e < 24; ++e) {
    bem::read_spec r;
    for (int i = 0; i < 4; ++i) r.bits.push_back({bem::read_bit::source::state, static_cast<std::uint32_t>(rng.uniform_below(N))});
    bem::write_spec w;
    w.bits.push_back({static_cast<std::uint32_t>(rng.uniform_below(N)), bem::write_bit::mode::xor_into});
    // Every third expert also counts its output lanes into Theta e % 4.
    const bool theta = e % 3 == 0;
    if (theta)
      w.bits.push_back({e % 4, bem::write_bit::mode::overwrite, bem::write_bit::target::theta,
                        bem::write_bit::reduction::any, -37});
    m.add_expert({id_of(100 + e), r, bem::random_gate_list({4, theta ? 2u : 1u, 10, 4}, rng.next()), w});
  }
  for (std::uint64_t t = 0; t < 100000; ++t) {
    for (std::size_t k = 0; k < N; ++k) m.state_words()[k].set_word(0, rng.next());
    const bem::observation o{static_cast<std::uint32_t>(t % 3), t % 17, 0, 0};
    const auto chosen = m.step(o);
    if (!chosen.empty()) m.reward(o.task_id, chosen[0], static_cast<double>(rng.uniform_below(5)) / 4.0);
    if (t % 97 == 96) m.mid_path_update();
    if (t % 10007 == 0) m.set_shared_parameter(7, bem::q16_16::from_raw(static_cast<std::int32_t>(t)));
  }
  const bem::learning_state r = bem::replay_learning(m.log());
  CHECK(r.selection == m.selection());
  CHECK(r.selection.image() == m.selection().image());
  for (std::size_t i = 0; i < machine_t::shared_parameters; ++i) CHECK(r.theta[i] == m.shared_parameter(i));
  CHECK(r.stats_updates == 100000);
  CHECK(r.mid_path_updates == 100000 / 97);
  CHECK(r.theta_writes > 1000);
  // Replay notices an edited log: drop one STATS_UPDATE and the next mid-path
  // entry's S no longer matches.
  bem::trace_log cut;
  bool dropped = false;
  for (std::size_t k = 0; k < 5000; ++k) {
    const auto& e = m.log().entry(k);
    if (!dropped && e.kind == bem::stats_update_kind && k > 100) {
      dropped = true;
      continue;
    }
    cut.append(e);
  }
  CHECK_THROWS_WITH_AS(bem::replay_learning(cut), doctest::Contains("the logged S is"), bem::replay_error);
  // A log without the configuration entry cannot be replayed.
  bem::trace_log headless;
  headless.append(m.log().entry(3));
  CHECK_THROWS_AS(bem::replay_learning(headless), std::exception);
}

TEST_CASE("after the first step experts come only through verified patches; §6.1 configuration is reported") {
  bem::machine<8, 64, 64> m(bem::machine_config{});
  m.add_expert({id_of(1), bem::read_spec{{{bem::read_bit::source::state, 0}}}, copy_circuit(),
                bem::write_spec{{{1, bem::write_bit::mode::overwrite}}}});
  m.step({0, 0, 0, 0});
  CHECK_THROWS_WITH_AS(m.add_expert({id_of(2), bem::read_spec{{{bem::read_bit::source::state, 0}}}, copy_circuit(),
                                     bem::write_spec{{{1, bem::write_bit::mode::overwrite}}}}),
                       doctest::Contains("verified patches"), std::logic_error);
  const std::string json = m.configuration_json();
  for (const char* key : {"\"N\":8", "\"K\":64", "\"W\":64", "\"P\":16", "\"N_expert_max\":4096", "\"G_max\":4096",
                          "\"k_large\":16", "\"k_small\":1", "\"route_H\":2", "\"route_B\":[16,16]",
                          "\"route_C_entry\":31", "\"route_probe_radius\":\"until exact\"", "\"router\":\"multi_index_router\"",
                          "\"sat_backend\":\"bem-cdcl\"", "\"circuit\":\"gate_list\"", "\"mid_path_c_eta\":0.1", "\"lane_scheme\":\"all_lanes\""})
    CHECK_MESSAGE(json.find(key) != std::string::npos, key, " in ", json);
  // The log's first entry carries it after the binary replay header.
  const auto& head = m.log().entry(0);
  CHECK(head.kind == bem::configuration_kind);
  CHECK(std::string(head.payload.begin() + 48, head.payload.end()) == json);
  // G_max: a circuit above it is refused.
  bem::machine_config small;
  small.max_gates = 2;
  bem::machine<8, 64, 64> g(small);
  CHECK_THROWS_WITH_AS(g.add_expert({id_of(3),
                                     bem::read_spec{{{bem::read_bit::source::state, 0},
                                                     {bem::read_bit::source::state, 1},
                                                     {bem::read_bit::source::state, 2}}},
                                     bem::random_gate_list({3, 1, 5, 2}, 3),
                                     bem::write_spec{{{1, bem::write_bit::mode::overwrite}}}}),
                       doctest::Contains("above G_max"), std::invalid_argument);
}

TEST_CASE("identifier_map: inserts, finds and erases like a std::map, whatever the collisions") {
  bem::identifier_map m;
  std::map<bem::identifier, std::uint32_t> ref;
  bem::xoshiro256ss rng(12);
  for (int op = 0; op < 40000; ++op) {
    // Few distinct identifiers: long probe runs and many erasures in them.
    const bem::identifier id = static_cast<bem::identifier>(rng.uniform_below(700) * 7919);
    const auto slot = static_cast<std::uint32_t>(rng.uniform_below(1000));
    if (rng.uniform_below(3) == 0) {
      CHECK(m.erase(id) == (ref.erase(id) == 1));
    } else {
      const bool fresh = !ref.contains(id);
      CHECK(m.insert(id, slot) == fresh);
      if (fresh) ref[id] = slot;
    }
    if (op % 997 == 0) {
      REQUIRE(m.size() == ref.size());
      for (std::uint32_t k = 0; k < 700; ++k) {
        const bem::identifier x = k * 7919;
        const auto it = ref.find(x);
        CHECK(m.find(x) == (it == ref.end() ? std::nullopt : std::optional<std::uint32_t>(it->second)));
      }
    }
  }
}

TEST_CASE("a machine streams its trace to a file in segments; replay and the verifier read it") {
  const std::string path = "machine_trace_stream.bemtrace";
  bem::machine_config cfg;
  cfg.log_file = path;
  cfg.log_segment_entries = 64;
  {
    bem::machine<8, 64, 64> m(cfg);
    m.add_expert({id_of(1), bem::read_spec{{{bem::read_bit::source::state, 0}}}, copy_circuit(),
                  bem::write_spec{{{1, bem::write_bit::mode::overwrite}}}});
    for (int t = 0; t < 5000; ++t) {
      const auto c = m.step({0, 0, 0, 0});
      m.reward(0, c[0], t % 2);
      if (t % 100 == 99) m.mid_path_update();
    }
    CHECK(m.log().memory_bytes() < 64 * 1024);  // one segment held, whatever the steps
  }
  const bem::trace_file_report r = bem::verify_trace_file(path);
  CHECK(r.ok());
  CHECK(r.entries == 1 + 5000 * 2 + 50);
  std::remove(path.c_str());
}

}  // namespace machine_io_test
