// The observation policy: the documented example, field_observation's fields
// as documented, and a machine that observes for itself.
#include <bem/circuits/gate_list.hpp>
#include <bem/machine/machine.hpp>
#include <bem/machine/observation.hpp>

#include <doctest/doctest.h>

#include <cstdint>

TEST_CASE("the observation_policy example of observation.hpp") {
  // Tokens enter STATE bits 0..3 of each lane; SHARED bits 0..1 hold the
  // task; routing hashes the current token of every lane.
  bem::field_observation obs;
  obs.task_bits = 2;                                  // SHARED 0..1
  obs.context_offset = 0, obs.context_words = 4;      // STATE 0..3
  obs.local_offset = 0, obs.local_bits = 4;           // lane 0's token
  static_assert(bem::observation_policy<bem::field_observation, 8, 64, 64, 16>);
  bem::state<8, 64> s;
  bem::shared_memory<64, 16> m;
  s.set_bit(2, 0, true);                              // lane 0 reads token 0b0100
  m.set_bit(0, true);                                 // task 1
  const bem::observation o = obs.observe(s, m);
  CHECK(o.task_id == 1);
  CHECK(o.local_bits == 0b0100);
  // The context hash is the documented chain over the four words, then no
  // SHARED context.
  std::uint64_t h = 0;
  for (std::size_t k = 0; k < 4; ++k) h = bem::mix64(h ^ s[k].word(0));
  CHECK(o.context_hash == h);
  CHECK(o.feature_bits == 0);
}

TEST_CASE("field_observation reads features and SHARED context; per lane it hashes the lane's bits") {
  bem::field_observation obs;
  obs.feature_offset = 10, obs.feature_bits = 3;
  obs.shared_context_offset = 20, obs.shared_context_bits = 70;  // two chunks, the second padded
  obs.context_offset = 1, obs.context_words = 2;
  obs.local_offset = 1, obs.local_bits = 2;
  bem::state<4, 128> s;
  bem::shared_memory<128, 4> m;
  m.set_bit(10, true);
  m.set_bit(12, true);
  m.set_bit(20, true);
  m.set_bit(89, true);  // bit 69 of the SHARED context: chunk 1, bit 5
  s.set_bit(1, 70, true);
  s.set_bit(2, 70, true);
  s.set_bit(2, 0, true);
  const bem::observation o = obs.observe(s, m);
  CHECK(o.feature_bits == 0b101);
  CHECK(o.local_bits == 0b10);  // lane 0: bit 1 clear, bit 2 set
  std::uint64_t h = 0;
  for (std::size_t k = 1; k < 3; ++k)
    for (std::size_t i = 0; i < 2; ++i) h = bem::mix64(h ^ s[k].word(i));
  h = bem::mix64(h ^ 1u);                          // SHARED context chunk 0: bit 20 -> bit 0
  h = bem::mix64(h ^ (std::uint64_t{1} << 5));    // chunk 1: bit 89 -> bit 5
  CHECK(o.context_hash == h);
  const bem::observation lane70 = obs.observe_lane(s, m, 70);
  CHECK(lane70.local_bits == 0b11);
  std::uint64_t hl = bem::mix64(0b11);  // the lane's two context bits in one chunk
  hl = bem::mix64(hl ^ 1u);
  hl = bem::mix64(hl ^ (std::uint64_t{1} << 5));
  CHECK(lane70.context_hash == hl);
  CHECK(obs.observe_lane(s, m, 3).local_bits == 0);
  // Places outside STATE or SHARED are refused, naming the field.
  bem::field_observation bad;
  bad.feature_offset = 120, bad.feature_bits = 16;
  CHECK_THROWS_WITH_AS(bad.check_fits(4, 128), doctest::Contains("feature bits"), std::out_of_range);
  bad = {};
  bad.context_words = 5;
  CHECK_THROWS_WITH_AS(bad.check_fits(4, 128), doctest::Contains("context words"), std::out_of_range);
}

TEST_CASE("a machine streams tokens: the program writes input bits, step() observes and routes on them") {
  // The task id in SHARED bits 0..1, the context the STATE word 0; the
  // machine made with that policy routes exactly as step(observation) would.
  bem::field_observation obs;
  obs.task_bits = 2;
  obs.context_words = 1;
  bem::machine_config cfg;
  cfg.tasks = 4;
  bem::machine<4, 64, 64> m(cfg, {}, obs), twin(cfg, {}, obs);
  for (std::uint32_t e = 0; e < 40; ++e) {
    bem::read_spec r{{{bem::read_bit::source::state, 0}}};
    bem::write_spec w{{{1 + e % 3, bem::write_bit::mode::xor_into}}};
    const bem::gate_list copy(1, {bem::gate{bem::gate_op::and_, 0, 0, 0, 0}}, {1});
    const bem::identifier id = bem::make_checked_identifier(1, e % 64, e * 97 % 16384);
    m.add_expert({id, r, copy, w});
    twin.add_expert({id, r, copy, w});
  }
  bem::xoshiro256ss rng(3);
  for (int t = 0; t < 200; ++t) {
    const std::uint64_t token = rng.next();
    const std::uint32_t task = static_cast<std::uint32_t>(rng.uniform_below(4));
    for (auto* x : {&m, &twin}) {
      x->state_words()[0].set_word(0, token);
      x->set_shared_bit(0, task & 1u);
      x->set_shared_bit(1, (task >> 1) & 1u);
    }
    const bem::observation o = twin.observe();
    CHECK(o.task_id == task);
    const auto a = m.step();
    const auto b = twin.step(o);
    REQUIRE(a.size() == b.size());
    CHECK(a[0] == b[0]);
  }
  CHECK(m.log().head() == twin.log().head());
}
