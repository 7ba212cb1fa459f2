// The fast interpreter (gate_list::evaluate) against the plain one
// (evaluate_reference) on every word type it has a path for: std::uint64_t
// and lane_word<64..1024> (raw vector blocks of 8..64 bytes) and a word type
// of its own (the generic path). Circuits exercise what the compiler of the
// program does: every operation, every ternary table, repeated operands,
// constant tables, NOT chains and single-reader gates (fusion), outputs that
// are inputs or inner gates. Also: the compiled circuit at W = 256 on 32
// inputs.
#include "helpers.hpp"

#include <bem/circuits/compiled.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/random_circuit.hpp>
#include <bem/machine/lanes.hpp>
#include <bem/prng.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

using namespace circuit_test;

namespace {

/// A word type the fast interpreter does not know: 128 lanes in two words.
struct pair_word {
  std::uint64_t lo = 0, hi = 0;
  friend bool operator==(const pair_word&, const pair_word&) = default;
  friend pair_word operator&(const pair_word& a, const pair_word& b) { return {a.lo & b.lo, a.hi & b.hi}; }
  friend pair_word operator|(const pair_word& a, const pair_word& b) { return {a.lo | b.lo, a.hi | b.hi}; }
  friend pair_word operator^(const pair_word& a, const pair_word& b) { return {a.lo ^ b.lo, a.hi ^ b.hi}; }
  friend pair_word operator~(const pair_word& a) { return {~a.lo, ~a.hi}; }
};
static_assert(bem::bit_sliced_word<pair_word>);
static_assert(!bem::detail::gate_list_raw<pair_word>::value);

template <class W>
W random_word(bem::xoshiro256ss& rng) {
  if constexpr (std::is_same_v<W, std::uint64_t>) {
    return rng.next();
  } else if constexpr (std::is_same_v<W, pair_word>) {
    return {rng.next(), rng.next()};
  } else {
    W w;
    for (auto& x : w.words()) x = rng.next();
    return w;
  }
}

/// A random list over n inputs: every operation, any ternary table, repeated
/// operands, NOT chains, and outputs drawn from all nodes.
bem::gate_list wild_list(std::size_t n, std::size_t g, std::size_t m, std::uint64_t seed) {
  bem::xoshiro256ss rng(seed);
  std::vector<bem::gate> gates;
  for (std::size_t i = 0; i < g; ++i) {
    const auto limit = static_cast<std::uint32_t>(n + i);
    auto pick = [&] {
      // Mostly the recent nodes, so chains and single readers are common.
      if (rng.uniform_below(3) != 0 && i > 0) return limit - 1 - static_cast<std::uint32_t>(rng.uniform_below(std::min<std::uint64_t>(i, 4)));
      return static_cast<std::uint32_t>(rng.uniform_below(limit));
    };
    bem::gate x;
    x.op = static_cast<bem::gate_op>(rng.uniform_below(6));
    x.a = pick();
    x.b = rng.uniform_below(8) == 0 ? x.a : pick();  // sometimes a repeated operand
    x.c = pick();
    if (x.op == bem::gate_op::ternary) x.tt = static_cast<std::uint8_t>(rng.next());
    if (x.op != bem::gate_op::ternary && rng.uniform_below(10) == 0) x.op = bem::gate_op::not_;
    gates.push_back(x);
  }
  std::vector<std::uint32_t> outs;
  for (std::size_t k = 0; k < m; ++k)
    outs.push_back(k == 0 ? 0u : static_cast<std::uint32_t>(n + g - 1 - rng.uniform_below(std::min<std::size_t>(g, 3 * m))));
  return bem::gate_list(n, std::move(gates), std::move(outs));
}

template <class W>
void check_fast_equals_reference(const bem::gate_list& c, std::uint64_t seed) {
  bem::xoshiro256ss rng(seed);
  std::vector<W> in(c.inputs()), fast(c.outputs()), plain(c.outputs());
  for (auto& w : in) w = random_word<W>(rng);
  // Scratch full of garbage: the result must not depend on it.
  std::vector<W> scratch(c.scratch_size() + 3), scratch2(c.scratch_size());
  for (auto& w : scratch) w = random_word<W>(rng);
  c.evaluate(std::span<const W>(in), std::span<W>(fast), std::span<W>(scratch));
  c.evaluate_reference(std::span<const W>(in), std::span<W>(plain), std::span<W>(scratch2));
  CHECK(fast == plain);
  std::vector<W> again(c.outputs());
  c.evaluate(std::span<const W>(in), std::span<W>(again));
  CHECK(again == plain);
  // Inputs in place: in is scratch's first n words, and is not copied.
  std::copy(in.begin(), in.end(), scratch.begin());
  std::vector<W> in_place(c.outputs());
  c.evaluate(std::span<const W>(scratch.data(), c.inputs()), std::span<W>(in_place), std::span<W>(scratch));
  CHECK(in_place == plain);
}

template <class W>
void check_lists() {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    CAPTURE(seed);
    check_fast_equals_reference<W>(wild_list(5, 60, 6, seed), seed);
    check_fast_equals_reference<W>(wild_list(32, 300, 8, 100 + seed), seed);
  }
  for (std::size_t g : {64u, 128u, 256u, 512u})
    check_fast_equals_reference<W>(bem::random_gate_list({32, 8, g, 64}, 0x23030000u + g), g);
}

constexpr auto bench256 = bem::static_random_circuit<32, 256, 8>(0x23030000u + 256);

}  // namespace

TEST_CASE("fast interpreter = plain interpreter on every word type") {
  check_lists<std::uint64_t>();
  check_lists<bem::lane_word<64>>();
  check_lists<bem::lane_word<128>>();
  check_lists<bem::lane_word<256>>();
  check_lists<bem::lane_word<512>>();
  check_lists<bem::lane_word<1024>>();
  check_lists<bem::lane_word<192>>();
  check_lists<pair_word>();
}

TEST_CASE("every ternary table, with distinct and with repeated operands") {
  for (unsigned tt = 0; tt < 256; ++tt) {
    CAPTURE(tt);
    const auto t = static_cast<std::uint8_t>(tt);
    std::vector<bem::gate> gates = {{bem::gate_op::ternary, t, 0, 1, 2}, {bem::gate_op::ternary, t, 1, 1, 0},
                                    {bem::gate_op::ternary, t, 2, 0, 2}, {bem::gate_op::ternary, t, 0, 0, 0},
                                    {bem::gate_op::ternary, t, 3, 4, 5}, {bem::gate_op::not_, 0, 7, 0, 0}};
    const bem::gate_list c(3, gates, {3, 4, 5, 6, 7, 8});
    const auto in = exhaustive_inputs<std::uint64_t>(3);
    std::vector<std::uint64_t> out(6);
    c.evaluate(std::span<const std::uint64_t>(in), std::span<std::uint64_t>(out));
    for (std::size_t l = 0; l < 8; ++l) {
      const auto want = scalar_eval(c, lane_inputs(in, l));
      for (std::size_t k = 0; k < 6; ++k) CHECK(lane_of(out[k], l) == want[k]);
    }
    check_fast_equals_reference<bem::lane_word<256>>(c, tt);
  }
}

TEST_CASE("fusion and scheduling: the 2.3 programs are the documented size; a gate read once folds into its reader") {
  // The 2.3 circuits' programs are the size docs/circuits.md gives (and the
  // bench's timings rest on): a change to fusion or scheduling that moves
  // them is seen here, not only as a slower interpreter.
  const std::array<std::size_t, 4> documented_ops = {61, 121, 243, 491}, documented_runs = {16, 22, 32, 48};
  for (std::size_t i = 0; i < 4; ++i) {
    const std::size_t g = std::size_t{64} << i;
    const auto c = bem::random_gate_list({32, 8, g, 64}, 0x23030000u + g);
    CAPTURE(g);
    CHECK(c.op_count() == documented_ops[i]);
    CHECK(c.run_count() == documented_runs[i]);
  }
  // A gate read once folds into its reader when the fused table is a kind
  // the list already has: XOR into XOR is the list's xor3 (3 gates, 2
  // operations); NOT into AND is ANDN, present (3 gates, 2 operations),
  // absent (2 gates, 2 operations: fusion never adds a kind).
  const auto check = [](const bem::gate_list& c, std::size_t ops) {
    CHECK(c.op_count() == ops);
    std::vector<std::uint64_t> in = {0xF0F0, 0xCCCC}, out(c.outputs()), ref(c.outputs()), s(c.scratch_size());
    c.evaluate(std::span<const std::uint64_t>(in), std::span<std::uint64_t>(out));
    c.evaluate_reference(std::span<const std::uint64_t>(in), std::span<std::uint64_t>(ref), std::span<std::uint64_t>(s));
    CHECK(out == ref);
  };
  using bem::gate_op;
  check(bem::gate_list(2,
                       {{gate_op::xor_, 0, 0, 1, 0}, {gate_op::xor_, 0, 2, 1, 0},
                        {gate_op::ternary, bem::ternary_tt::xor3, 0, 1, 3}},
                       {4}),
        2);
  check(bem::gate_list(2, {{gate_op::not_, 0, 0, 0, 0}, {gate_op::and_, 0, 2, 1, 0}, {gate_op::andn, 0, 0, 1, 0}},
                       {3, 4}),
        2);
  check(bem::gate_list(2, {{gate_op::not_, 0, 0, 0, 0}, {gate_op::and_, 0, 2, 1, 0}}, {3}), 2);
}

namespace {

/// `len` gates of one kind over 6 inputs, operands distinct and drawn from
/// all earlier nodes, every gate an output: one run of `len` operations
/// (no fusion: no kind of the list results from fusing two of its gates).
bem::gate_list one_kind(bem::gate_op op, std::uint8_t tt, std::size_t len, std::uint64_t seed) {
  bem::xoshiro256ss rng(seed);
  std::vector<bem::gate> gates;
  std::vector<std::uint32_t> outs;
  for (std::size_t i = 0; i < len; ++i) {
    const auto limit = static_cast<std::uint32_t>(6 + i);
    bem::gate g{op, tt, 0, 0, 0};
    g.a = static_cast<std::uint32_t>(rng.uniform_below(limit));
    do g.b = static_cast<std::uint32_t>(rng.uniform_below(limit)); while (g.b == g.a);
    do g.c = static_cast<std::uint32_t>(rng.uniform_below(limit)); while (g.c == g.a || g.c == g.b);
    gates.push_back(g);
    outs.push_back(static_cast<std::uint32_t>(6 + i));
  }
  return bem::gate_list(6, std::move(gates), std::move(outs));
}

template <class W>
void check_block_lengths(bem::gate_op op, std::uint8_t tt) {
  // 1..34: every entry of a block (16 - len % 16), odd and even, as one
  // block and after full ones; 300: many blocks.
  std::vector<std::size_t> lengths(34);
  for (std::size_t i = 0; i < 34; ++i) lengths[i] = i + 1;
  lengths.push_back(300);
  for (const std::size_t len : lengths) {
    CAPTURE(len);
    const auto c = one_kind(op, tt, len, len);
    CHECK(c.run_count() == 1);
    check_fast_equals_reference<W>(c, len);
  }
}

template <class W>
void check_every_block() {
  using bem::gate_op;
  for (auto op : {gate_op::and_, gate_op::or_, gate_op::xor_, gate_op::andn, gate_op::not_}) {
    CAPTURE(static_cast<int>(op));
    check_block_lengths<W>(op, 0);
  }
  // The common ternary kinds, then tables without a block of their own
  // (generic blocks of at most 255 gates).
  for (unsigned tt : {0xCAu, 0xE8u, 0x96u, 0x78u, 0x01u}) {
    CAPTURE(tt);
    check_block_lengths<W>(gate_op::ternary, static_cast<std::uint8_t>(tt));
  }
}

}  // namespace

TEST_CASE("threaded program: runs of every length, entered at every gate of a block") {
  // A block of a common kind runs 16 - e gates from entry e; runs longer
  // than 16 take several blocks; binary gates read their fields in pairs,
  // so odd and even lengths take different entries.
  check_every_block<std::uint64_t>();
  check_every_block<bem::lane_word<64>>();
  check_every_block<bem::lane_word<128>>();
  check_every_block<bem::lane_word<192>>();
  check_every_block<bem::lane_word<256>>();
  check_every_block<bem::lane_word<512>>();
  check_every_block<bem::lane_word<1024>>();
}

TEST_CASE("programs of more than 16383 slots take the generic path, with the same results") {
  // The threaded program's fields are 16 bits, slot * 4: the raw path holds
  // at most 16383 slots, inputs plus operations after fusion (not gates:
  // wild_list(32, 17000) fuses to 12338 operations and runs the raw path).
  const auto big = wild_list(32, 24000, 8, 7);
  CHECK(big.inputs() + big.op_count() > 16383);
  check_fast_equals_reference<std::uint64_t>(big, 7);
  check_fast_equals_reference<bem::lane_word<256>>(big, 8);
  // At the limit: a chain of XORs (no xor3 in the list, so no fusion), one
  // operation per gate; 16383 slots is the last raw program, 16384 generic.
  for (const std::size_t g : {16351u, 16352u}) {
    CAPTURE(g);
    std::vector<bem::gate> gates;
    for (std::uint32_t i = 0; i < g; ++i) gates.push_back({bem::gate_op::xor_, 0, i == 0 ? 0u : 31 + i, i % 31, 0});
    const bem::gate_list chain(32, std::move(gates), {static_cast<std::uint32_t>(31 + g), 5, 40});
    CHECK(chain.inputs() + chain.op_count() == 32 + g);
    check_fast_equals_reference<std::uint64_t>(chain, g);
    check_fast_equals_reference<bem::lane_word<512>>(chain, g);
  }
}

TEST_CASE("compiled circuit at W = 256 on 32 inputs equals the gate list, lane by lane") {
  using W = bem::lane_word<256>;
  const auto list = bench256.to_gate_list();
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto in = random_inputs<W>(32, seed);
    std::vector<W> compiled(8), fast(8), plain(8), scratch(list.scratch_size());
    bem::compiled_circuit<bench256>{}.evaluate(std::span<const W>(in), std::span<W>(compiled));
    bem::compiled_circuit<bench256>::run(in.data(), fast.data());
    CHECK(fast == compiled);
    list.evaluate(std::span<const W>(in), std::span<W>(fast));
    list.evaluate_reference(std::span<const W>(in), std::span<W>(plain), std::span<W>(scratch));
    CHECK(compiled == plain);
    CHECK(fast == plain);
    for (std::size_t l = 0; l < 256; l += 37) {
      const auto want = scalar_eval(list, lane_inputs(in, l));
      for (std::size_t k = 0; k < 8; ++k) CHECK(lane_of(compiled[k], l) == want[k]);
    }
  }
}
