// The learning BEM's circuits against their reference semantics, on every
// input where that is small and on random walks otherwise.
#include <bem/learn/hypotheses.hpp>
#include <bem/prover/cegis.hpp>
#include <bem/prng.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

namespace hypotheses_test {
namespace {

using bem::learn::bits_for;
using bem::learn::circuit_builder;

/// Evaluates a gate list on one input vector given as an integer (bit j = input j).
std::uint64_t eval(const bem::gate_list& g, std::uint64_t x) {
  std::vector<bool> in(g.inputs());
  for (std::size_t j = 0; j < in.size(); ++j) in[j] = (x >> j) & 1u;
  const auto out = bem::prover::evaluate(g, in);
  std::uint64_t y = 0;
  for (std::size_t k = 0; k < out.size(); ++k) y |= static_cast<std::uint64_t>(out[k]) << k;
  return y;
}

}  // namespace

TEST_CASE("circuit_builder folds constants and shares equal gates") {
  circuit_builder b(3);
  const auto x = b.input(0), y = b.input(1), z = b.input(2);
  CHECK(b.and_(x, y) == b.and_(y, x));
  CHECK(b.xor_(x, x) == b.constant(false));
  CHECK(b.or_(x, b.constant(true)) == b.constant(true));
  CHECK(b.mux(z, y, y) == y);
  const auto before = b.gate_count();
  const auto m = b.mux(z, x, y);
  CHECK(b.mux(z, x, y) == m);
  CHECK(b.gate_count() == before + 1);
  const bem::gate_list g = b.build({m, b.equals({x, y, z}, 5), b.constant(true)});
  for (std::uint64_t v = 0; v < 8; ++v) {
    const bool xv = v & 1, yv = (v >> 1) & 1, zv = (v >> 2) & 1;
    const std::uint64_t want = (zv ? xv : yv) | (static_cast<std::uint64_t>(v == 5) << 1) | (1u << 2);
    CHECK(eval(g, v) == want);
  }
}

TEST_CASE("truth_table_circuit computes its table, every row, every output") {
  bem::xoshiro256ss rng(3);
  for (std::size_t n = 1; n <= 7; ++n)
    for (int trial = 0; trial < 5; ++trial) {
      const std::size_t m = 1 + rng.uniform_below(5);
      std::vector<std::uint64_t> rows(std::size_t{1} << n);
      for (auto& r : rows) r = rng.next() & ((std::uint64_t{1} << m) - 1);
      const bem::gate_list g = bem::learn::truth_table_circuit(n, m, rows);
      for (std::uint64_t x = 0; x < rows.size(); ++x) REQUIRE(eval(g, x) == rows[x]);
    }
  // Constant and projection tables need no mux.
  CHECK(bem::learn::truth_table_circuit(2, 1, {1, 0, 1, 0}).gate_count() == 1);  // ~x0
  CHECK_THROWS_AS(bem::learn::truth_table_circuit(17, 1, {}), std::invalid_argument);
}

TEST_CASE("moore_step_circuit steps the machine and answers the next state's output") {
  // The temporal FSM task's machine: A -1-> B -1-> C -1-> D, D absorbing, output [D].
  const auto next = [](std::uint32_t s, std::uint32_t a) { return a == 1 && s < 3 ? s + 1 : s; };
  const auto output = [](std::uint32_t s) { return s == 3; };
  const bem::gate_list g = bem::learn::moore_step_circuit(4, 2, next, output);
  REQUIRE(g.inputs() == 1 + 2);
  REQUIRE(g.outputs() == 2 + 1);
  for (std::uint32_t s = 0; s < 4; ++s)
    for (std::uint32_t a = 0; a < 2; ++a) {
      const std::uint64_t y = eval(g, a | (s << 1));
      CHECK((y & 3) == next(s, a));
      CHECK(((y >> 2) & 1) == (output(next(s, a)) ? 1u : 0u));
    }
  CHECK(bits_for(1) == 1);
  CHECK(bits_for(2) == 1);
  CHECK(bits_for(3) == 2);
  CHECK(bits_for(64) == 6);
  CHECK(bits_for(65) == 7);
}

TEST_CASE("counter_circuit equals counter_spec's semantics: every readout, saturation at both ends") {
  using bem::learn::counter_readout;
  bem::xoshiro256ss rng(17);
  for (const std::uint32_t bits : {3u, 5u, 16u}) {
    const std::vector<bem::learn::counter_spec> specs = {
        {{-1, +1}, counter_readout::at_least, 0, bits},   {{-1, +1}, counter_readout::at_least, 3, bits},
        {{-1, +1}, counter_readout::at_least, -2, bits},  {{0, +1}, counter_readout::at_least, 3, bits},
        {{+1, -1}, counter_readout::never_negative, 0, bits}, {{+1, -1}, counter_readout::balanced_closed, 0, bits},
        {{+1, -1, 0}, counter_readout::equal, 1, bits},  {{-1, +1}, counter_readout::at_least, 1000, bits}};
    for (const auto& c : specs) {
      const auto tokens = static_cast<std::uint32_t>(c.delta.size());
      const bem::gate_list g = bem::learn::counter_circuit(c, tokens);
      const std::uint32_t tb = bits_for(tokens);
      CAPTURE(c.describe());
      // Walks long enough to hit both saturation ends at 3 bits.
      for (int walk = 0; walk < 20; ++walk) {
        std::int64_t d = 0, dc = 0;
        bool n = false, nc = false;
        for (int t = 0; t < 64; ++t) {
          // Runs of one token push towards an end.
          const std::uint32_t token = static_cast<std::uint32_t>((walk % 2 == 0 ? t / 9 : rng.uniform_below(tokens * 4)) % tokens);
          const std::uint64_t dbits = static_cast<std::uint64_t>(dc) & ((std::uint64_t{1} << bits) - 1);
          const std::uint64_t x = token | (dbits << tb) | (static_cast<std::uint64_t>(nc) << (tb + bits));
          const std::uint64_t y = eval(g, x);
          c.step(d, n, token);
          // Decode d' (two's complement), n', the answer.
          std::int64_t dn = static_cast<std::int64_t>(y & ((std::uint64_t{1} << bits) - 1));
          if (dn >= (std::int64_t{1} << (bits - 1))) dn -= std::int64_t{1} << bits;
          REQUIRE(dn == d);
          REQUIRE(((y >> bits) & 1u) == (n ? 1u : 0u));
          REQUIRE(((y >> (bits + 1)) & 1u) == (c.answer(d, n) ? 1u : 0u));
          dc = dn;
          nc = n;
        }
      }
    }
  }
}

TEST_CASE("recall_circuit stores the token, marks presence, shifts it into the previous register, answers recalled - offset") {
  const std::uint32_t tb = 5, cb = 4;
  const std::uint64_t offset = 9;
  const bem::gate_list g = bem::learn::recall_circuit(tb, cb, offset);
  REQUIRE(g.inputs() == 2 * tb + 1);
  REQUIRE(g.outputs() == tb + 1 + tb + cb + 1);
  for (std::uint64_t cur = 0; cur < 32; cur += 3)
    for (std::uint64_t slot = 0; slot < 32; ++slot)
      for (const bool present : {false, true}) {
        const std::uint64_t y = eval(g, cur | (slot << tb) | (static_cast<std::uint64_t>(present) << (2 * tb)));
        CHECK((y & 31) == cur);                       // memory := current
        CHECK(((y >> tb) & 1) == 1);                  // presence
        CHECK(((y >> (tb + 1)) & 31) == cur);         // previous := current
        CHECK(((y >> (2 * tb + 1)) & 15) == ((slot - offset) & 15));
        CHECK(((y >> (2 * tb + 1 + cb)) & 1) == (present ? 0u : 1u));
      }
}

}  // namespace hypotheses_test
