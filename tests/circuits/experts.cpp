// Experts: read spec (state and broadcast shared bits), write spec
// (overwrite and xor), statistics, and the three lane schemes of
// expert_batch — per group and per lane give, lane by lane, what the single
// expert of that lane gives applied alone.
#include "helpers.hpp"

#include <bem/circuits/anf.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/random_circuit.hpp>
#include <bem/machine/expert.hpp>
#include <bem/machine/lanes.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <span>
#include <vector>

using namespace circuit_test;

namespace {

constexpr std::size_t state_bits = 16;

bem::expert<bem::gate_list> make_expert(std::uint64_t seed) {
  bem::xoshiro256ss rng(seed);
  bem::read_spec r;
  for (int j = 0; j < 6; ++j)
    r.bits.push_back(j == 5 ? bem::read_bit{bem::read_bit::source::shared, static_cast<std::uint32_t>(rng.uniform_below(128))}
                            : bem::read_bit{bem::read_bit::source::state, static_cast<std::uint32_t>(rng.uniform_below(state_bits))});
  bem::write_spec w;
  for (int k = 0; k < 3; ++k)
    w.bits.push_back({static_cast<std::uint32_t>(rng.uniform_below(state_bits)),
                      k == 1 ? bem::write_bit::mode::xor_into : bem::write_bit::mode::overwrite});
  return bem::expert<bem::gate_list>(static_cast<bem::identifier>(seed), r, bem::random_gate_list({6, 3, 20, 8}, seed), w);
}

template <class W>
void check_schemes(std::size_t groups) {
  constexpr std::size_t lanes = lanes_of<W>();
  const std::vector<std::uint64_t> shared = {0x0123456789ABCDEFull, 0xFEDCBA9876543210ull};
  const auto state0 = random_inputs<W>(state_bits, 77);
  std::vector<bem::expert<bem::gate_list>> experts;
  for (std::size_t g = 0; g < groups; ++g) experts.push_back(make_expert(100 + g));
  std::vector<const bem::expert<bem::gate_list>*> ptrs;
  std::vector<W> masks(groups, W{});
  // Group g: lanes [g W / groups, (g + 1) W / groups), as bem::machine
  // cuts them (every lane, also where groups does not divide W).
  const auto first = [&](std::size_t g) { return g * lanes / groups; };
  for (std::size_t g = 0; g < groups; ++g) {
    ptrs.push_back(&experts[g]);
    for (std::size_t l = first(g); l < first(g + 1); ++l) set_lane_of(masks[g], l, true);
  }
  bem::expert_batch<bem::gate_list, W> batch;
  auto mixed = state0;
  batch.apply_masked(ptrs, masks, std::span<W>(mixed), shared);
  for (std::size_t g = 0; g < groups; ++g) {
    auto alone = state0;
    batch.apply_all(experts[g], std::span<W>(alone), shared);
    for (std::size_t l = first(g); l < first(g + 1); ++l)
      for (std::size_t k = 0; k < state_bits; ++k) REQUIRE(lane_of(mixed[k], l) == lane_of(alone[k], l));
  }
  CHECK_FALSE(mixed == state0);  // the experts did write something
}

}  // namespace

TEST_CASE("an expert reads state and shared bits and writes or xors its outputs") {
  // y0 = x0 x1 ^ x2, y1 = x2 with x0 = state 3, x1 = shared 70, x2 = state 7.
  const bem::anf_circuit c(3, {{0b011, 0b100}, {0b100}});
  const bem::read_spec r{{{bem::read_bit::source::state, 3}, {bem::read_bit::source::shared, 70}, {bem::read_bit::source::state, 7}}};
  const bem::write_spec w{{{0, bem::write_bit::mode::overwrite}, {1, bem::write_bit::mode::xor_into}}};
  bem::expert<bem::anf_circuit> e(42, r, c, w);
  CHECK(e.id() == 42);
  std::vector<std::uint64_t> s(8, 0);
  s[0] = 0xFFFF;
  s[1] = 0x0F0F;
  s[3] = 0b1100;
  s[7] = 0b1010;
  std::vector<std::uint64_t> scratch(e.scratch_size());
  const std::vector<std::uint64_t> shared_on = {0, 1u << 6};  // bit 70 set
  auto t = s;
  e.apply(std::span<std::uint64_t>(t), shared_on, std::span<std::uint64_t>(scratch));
  CHECK(t[0] == ((0b1100 & ~0ull) ^ 0b1010));
  CHECK(t[1] == (0x0F0F ^ 0b1010));
  const std::vector<std::uint64_t> shared_off = {~0ull, 0};  // bit 70 clear
  t = s;
  e.apply(std::span<std::uint64_t>(t), shared_off, std::span<std::uint64_t>(scratch));
  CHECK(t[0] == 0b1010);
  e.record(true);
  e.record(false);
  CHECK(e.stats().visits == 2);
  CHECK(e.stats().wins == 1);
  CHECK_THROWS_AS(bem::expert<bem::anf_circuit>(1, r, c, bem::write_spec{}), std::invalid_argument);
}

TEST_CASE("a gate-list expert gathers its inputs in place and computes what its reads, circuit and writes say") {
  // A gate list reads its inputs in place (the expert gathers them into
  // the circuit's scratch), so the expert needs n words less; the result
  // must be the reference interpreter's on the gathered inputs.
  static_assert(bem::detail::circuit_inputs_in_place<bem::gate_list>);
  static_assert(!bem::detail::circuit_inputs_in_place<bem::anf_circuit>);
  using W = bem::lane_word<256>;
  const std::vector<std::uint64_t> shared = {0x0123456789ABCDEFull, 0xFEDCBA9876543210ull};
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    CAPTURE(seed);
    const auto e = make_expert(seed);
    const bem::gate_list& c = e.circuit();
    CHECK(e.scratch_size() == c.outputs() + c.scratch_size());
    const auto state0 = random_inputs<W>(state_bits, seed);
    std::vector<W> x(c.inputs()), y(c.outputs()), reference_scratch(c.scratch_size());
    for (std::size_t j = 0; j < x.size(); ++j) {
      const bem::read_bit r = e.reads().bits[j];
      x[j] = r.from == bem::read_bit::source::state ? state0[r.index]
             : ((shared[r.index / 64] >> (r.index % 64)) & 1u) != 0 ? W::ones() : W::zeros();
    }
    c.evaluate_reference(std::span<const W>(x), std::span<W>(y), std::span<W>(reference_scratch));
    auto expected = state0;
    for (std::size_t k = 0; k < y.size(); ++k) {
      const bem::write_bit w = e.writes().bits[k];
      expected[w.index] = w.how == bem::write_bit::mode::overwrite ? y[k] : expected[w.index] ^ y[k];
    }
    std::vector<W> scratch(e.scratch_size());
    for (auto& w : scratch) w = W::ones();  // garbage: the result must not depend on it
    auto got = state0;
    e.apply(std::span<W>(got), shared, std::span<W>(scratch));
    CHECK(got == expected);
  }
}

TEST_CASE("per-group lane scheme equals each group's expert alone, lane by lane") {
  check_schemes<std::uint64_t>(4);
  check_schemes<bem::lane_word<256>>(4);
  check_schemes<bem::lane_word<256>>(16);
  // Group counts that do not divide W: groups of 21 and 22 lanes, 85 and 86.
  check_schemes<std::uint64_t>(3);
  check_schemes<bem::lane_word<256>>(3);
}

namespace {
/// The expert y = (x0, x1, x0 ^ x1) over inputs x0 = state 0, x1 = state 1,
/// its outputs written as `w` says.
bem::expert<bem::anf_circuit> xor_expert(const bem::write_spec& w) {
  const bem::anf_circuit c(2, {{0b01}, {0b10}, {0b01, 0b10}});
  const bem::read_spec r{{{bem::read_bit::source::state, 0}, {bem::read_bit::source::state, 1}}};
  return bem::expert<bem::anf_circuit>(1, r, c, w);
}
}  // namespace

TEST_CASE("writes: inputs are read before any write, outputs written in order (documented in expert.hpp)") {
  using bem::write_bit;
  const std::uint64_t s0 = 0b1100, s1 = 0b1010;
  std::vector<std::uint64_t> scratch(8);
  auto run = [&](const bem::write_spec& w) {
    std::vector<std::uint64_t> s = {s0, s1, 0xF0};
    xor_expert(w).apply(std::span<std::uint64_t>(s), std::span<const std::uint64_t>(), std::span<std::uint64_t>(scratch));
    return s;
  };
  // Output 0 overwrites state 1, which input 1 reads: output 1 still
  // sees the old state 1.
  CHECK(run({{{1, write_bit::mode::overwrite}, {0, write_bit::mode::overwrite}, {2, write_bit::mode::overwrite}}}) ==
        std::vector<std::uint64_t>{s1, s0, s0 ^ s1});
  // Three outputs into state 2: the last overwrite wins, xors add.
  CHECK(run({{{2, write_bit::mode::xor_into}, {2, write_bit::mode::overwrite}, {2, write_bit::mode::xor_into}}})[2] ==
        (s1 ^ (s0 ^ s1)));
  CHECK(run({{{2, write_bit::mode::xor_into}, {2, write_bit::mode::xor_into}, {2, write_bit::mode::xor_into}}})[2] ==
        (0xF0 ^ s0 ^ s1 ^ (s0 ^ s1)));
}

TEST_CASE("masked schemes: lanes in no mask stay, overlapping masks compose in order") {
  using bem::write_bit;
  // e writes x0 ^ x1 into state 0 (the second application sees the first).
  const auto e = xor_expert({{{3, write_bit::mode::xor_into}, {3, write_bit::mode::xor_into}, {0, write_bit::mode::overwrite}}});
  const std::vector<const bem::expert<bem::anf_circuit>*> ptrs = {&e, &e};
  const std::vector<std::uint64_t> masks = {0x00FF, 0x0FF0};  // lanes 4..7 in both
  const std::uint64_t s0 = 0x3C3C, s1 = 0x5555;
  std::vector<std::uint64_t> s = {s0, s1, 0, 0};
  bem::expert_batch<bem::anf_circuit, std::uint64_t> batch;
  batch.apply_masked(ptrs, masks, std::span<std::uint64_t>(s), std::span<const std::uint64_t>());
  const std::uint64_t once = s0 ^ s1, twice = once ^ s1;
  CHECK(s[0] == ((once & 0x000F) | (twice & 0x00F0) | (once & 0x0F00) | (s0 & ~0x0FFFull)));
  CHECK(s[1] == s1);
}

TEST_CASE("shared reads at 64-bit word boundaries") {
  // y = (x0, x1, x0 ^ x1) with x0 = shared bit b, x1 = shared bit b + 1.
  const bem::anf_circuit c(2, {{0b01}, {0b10}, {0b01, 0b10}});
  const bem::write_spec w{{{0, bem::write_bit::mode::overwrite},
                           {1, bem::write_bit::mode::overwrite},
                           {2, bem::write_bit::mode::overwrite}}};
  for (const std::uint32_t b : {0u, 62u, 63u, 64u, 126u}) {
    CAPTURE(b);
    const bem::read_spec r{{{bem::read_bit::source::shared, b}, {bem::read_bit::source::shared, b + 1}}};
    const bem::expert<bem::anf_circuit> e(1, r, c, w);
    e.check_fits(3, 128);
    std::vector<std::uint64_t> shared(2, 0);
    shared[b / 64] |= std::uint64_t{1} << (b % 64);  // bit b set, bit b + 1 clear
    std::vector<bem::lane_word<128>> s(3), scratch(e.scratch_size());
    e.apply(std::span<bem::lane_word<128>>(s), shared, std::span<bem::lane_word<128>>(scratch));
    CHECK(s[0] == bem::lane_word<128>::ones());
    CHECK(s[1] == bem::lane_word<128>::zeros());
    CHECK(s[2] == bem::lane_word<128>::ones());
  }
  const bem::read_spec past{{{bem::read_bit::source::shared, 127}, {bem::read_bit::source::shared, 128}}};
  CHECK_THROWS_AS(bem::expert<bem::anf_circuit>(1, past, c, w).check_fits(3, 128), std::out_of_range);
}

TEST_CASE("per-lane lane scheme equals each lane's expert alone") {
  check_schemes<std::uint64_t>(64);
  check_schemes<bem::lane_word<256>>(256);
}
