// Exact automaton identification (bem/learn/automaton_identification.hpp):
// the machines of the temporal and parity tasks identified from their
// labels, random targets recovered from characteristic samples, minimality
// against brute force and against the encoding without symmetry breaking,
// the statuses (inconsistent, too large, unknown, no machine), the law that
// a returned machine is checked, and learn_moore on 2,000 training words.
#include <bem/learn/automaton_identification.hpp>
#include <bem/prng.hpp>
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

namespace {

using bem::learn::identification_options;
using bem::learn::identification_result;
using bem::learn::identification_status;
using bem::learn::identify_moore;
using bem::learn::labelled_word;
using bem::learn::learn_moore;
using bem::learn::moore_machine;

moore_machine machine_of(std::uint32_t states, std::uint32_t alphabet, std::vector<std::uint32_t> next,
                         std::vector<std::uint8_t> output) {
  moore_machine m;
  m.states = states;
  m.alphabet = alphabet;
  m.next = std::move(next);
  m.output = std::move(output);
  return m;
}

// The targets: parity of the ones read, the temporal FSM task's automaton
// A -1-> B -1-> C -1-> D (D absorbing, output [count of ones >= 3]), and the
// ones counted modulo 3 (output [count = 0 mod 3]).
const moore_machine parity_target = machine_of(2, 2, {0, 1, 1, 0}, {0, 1});
const moore_machine fsm_target = machine_of(4, 2, {0, 1, 1, 2, 2, 3, 3, 3}, {0, 0, 0, 1});
const moore_machine mod3_target = machine_of(3, 2, {0, 1, 1, 2, 2, 0}, {1, 0, 0});

/// The word labelled by `target` at every prefix.
labelled_word online(const moore_machine& target, std::vector<std::uint32_t> symbols) {
  labelled_word w;
  for (std::uint8_t y : target.run(symbols)) w.labels.push_back(static_cast<std::int8_t>(y));
  w.symbols = std::move(symbols);
  return w;
}

/// The word labelled by `target` at its last prefix only.
labelled_word final_only(const moore_machine& target, std::vector<std::uint32_t> symbols) {
  labelled_word w = online(target, std::move(symbols));
  for (std::size_t t = 0; t + 1 < w.labels.size(); ++t) w.labels[t] = -1;
  return w;
}

std::vector<std::uint32_t> random_symbols(bem::xoshiro256ss& rng, std::size_t length, std::uint32_t alphabet) {
  std::vector<std::uint32_t> s(length);
  for (auto& a : s) a = static_cast<std::uint32_t>(rng.uniform_below(alphabet));
  return s;
}

/// Every word of exactly `length` symbols, in lexicographic order.
std::vector<std::vector<std::uint32_t>> all_words(std::size_t length, std::uint32_t alphabet) {
  std::vector<std::vector<std::uint32_t>> out = {{}};
  for (std::size_t l = 0; l < length; ++l) {
    std::vector<std::vector<std::uint32_t>> longer;
    for (const auto& w : out)
      for (std::uint32_t a = 0; a < alphabet; ++a) {
        longer.push_back(w);
        longer.back().push_back(a);
      }
    out = std::move(longer);
  }
  return out;
}

/// True when a and b give every non-empty word the same label (the label of
/// the empty word is never observed): breadth first over pairs of states.
bool equivalent(const moore_machine& a, const moore_machine& b) {
  REQUIRE(a.alphabet == b.alphabet);
  std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> todo;
  for (std::uint32_t x = 0; x < a.alphabet; ++x) todo.emplace_back(a.step(0, x), b.step(0, x));
  while (!todo.empty()) {
    const auto p = todo.back();
    todo.pop_back();
    if (!seen.insert(p).second) continue;
    if (a.output[p.first] != b.output[p.second]) return false;
    for (std::uint32_t x = 0; x < a.alphabet; ++x) todo.emplace_back(a.step(p.first, x), b.step(p.second, x));
  }
  return true;
}

/// The state count of the smallest machine equivalent to m, for machines
/// whose start state some non-empty word reaches (so its output counts):
/// Moore's partition refinement over the reachable states.
std::uint32_t minimal_states(const moore_machine& m) {
  std::vector<char> reached(m.states, 0);
  std::vector<std::uint32_t> todo = {0};
  reached[0] = 1;
  while (!todo.empty()) {
    const std::uint32_t s = todo.back();
    todo.pop_back();
    for (std::uint32_t a = 0; a < m.alphabet; ++a)
      if (!reached[m.step(s, a)]) reached[m.step(s, a)] = 1, todo.push_back(m.step(s, a));
  }
  std::vector<std::uint32_t> block(m.states);
  for (std::uint32_t s = 0; s < m.states; ++s) block[s] = m.output[s];
  std::size_t blocks = 0;
  for (;;) {
    std::set<std::vector<std::uint32_t>> signatures;
    std::vector<std::vector<std::uint32_t>> sig(m.states);
    for (std::uint32_t s = 0; s < m.states; ++s) {
      if (!reached[s]) continue;
      sig[s] = {block[s]};
      for (std::uint32_t a = 0; a < m.alphabet; ++a) sig[s].push_back(block[m.step(s, a)]);
      signatures.insert(sig[s]);
    }
    std::vector<std::vector<std::uint32_t>> order(signatures.begin(), signatures.end());
    for (std::uint32_t s = 0; s < m.states; ++s)
      if (reached[s])
        block[s] = static_cast<std::uint32_t>(std::lower_bound(order.begin(), order.end(), sig[s]) - order.begin());
    if (order.size() == blocks) return static_cast<std::uint32_t>(blocks);
    blocks = order.size();
  }
}

/// True when some non-empty word leads m back to its start state.
bool start_reenterable(const moore_machine& m) {
  std::vector<char> reached(m.states, 0);
  std::vector<std::uint32_t> todo;
  for (std::uint32_t a = 0; a < m.alphabet; ++a) todo.push_back(m.step(0, a));
  while (!todo.empty()) {
    const std::uint32_t s = todo.back();
    todo.pop_back();
    if (reached[s]) continue;
    reached[s] = 1;
    for (std::uint32_t a = 0; a < m.alphabet; ++a) todo.push_back(m.step(s, a));
  }
  return reached[0];
}

/// A characteristic sample of a target with `k` states (minimal, start state
/// re-enterable): for the empty word and a shortest non-empty access word s
/// of every state, s a e for every symbol a and every e of k-2 symbols,
/// labelled at every prefix.
std::vector<labelled_word> characteristic_sample(const moore_machine& target, std::uint32_t k) {
  std::vector<std::vector<std::uint32_t>> access(target.states);
  std::vector<char> found(target.states, 0);
  std::vector<std::vector<std::uint32_t>> frontier;
  for (std::uint32_t a = 0; a < target.alphabet; ++a) frontier.push_back({a});
  while (!frontier.empty()) {  // breadth first over non-empty words
    std::vector<std::vector<std::uint32_t>> next;
    for (const auto& w : frontier) {
      std::uint32_t s = 0;
      for (std::uint32_t a : w) s = target.step(s, a);
      if (found[s]) continue;
      found[s] = 1;
      access[s] = w;
      for (std::uint32_t a = 0; a < target.alphabet; ++a) {
        next.push_back(w);
        next.back().push_back(a);
      }
    }
    frontier = std::move(next);
  }
  std::vector<std::vector<std::uint32_t>> prefixes = {{}};
  for (std::uint32_t s = 0; s < target.states; ++s)
    if (found[s]) prefixes.push_back(access[s]);
  const auto suffixes = all_words(k >= 2 ? k - 2 : 0, target.alphabet);
  std::vector<labelled_word> sample;
  for (const auto& p : prefixes)
    for (std::uint32_t a = 0; a < target.alphabet; ++a)
      for (const auto& e : suffixes) {
        std::vector<std::uint32_t> w = p;
        w.push_back(a);
        w.insert(w.end(), e.begin(), e.end());
        sample.push_back(online(target, std::move(w)));
      }
  return sample;
}

bool consistent_with_all(const moore_machine& m, std::span<const labelled_word> sample) {
  for (const auto& w : sample)
    if (!m.consistent(w)) return false;
  return true;
}

/// Every machine with `states` states over two symbols, tried on the
/// sample: true when one of them is consistent with it.
bool some_machine_fits(std::uint32_t states, std::span<const labelled_word> sample) {
  moore_machine m;
  m.states = states;
  m.alphabet = 2;
  m.next.assign(2 * states, 0);
  m.output.assign(states, 0);
  for (;;) {
    for (std::uint32_t outputs = 0; outputs < (1u << states); ++outputs) {
      for (std::uint32_t s = 0; s < states; ++s) m.output[s] = (outputs >> s) & 1u;
      if (consistent_with_all(m, sample)) return true;
    }
    std::size_t i = 0;  // the next successor table, as a number in base `states`
    while (i < m.next.size() && ++m.next[i] == states) m.next[i++] = 0;
    if (i == m.next.size()) return false;
  }
}

std::vector<labelled_word> random_online_sample(const moore_machine& target, std::uint64_t seed, std::size_t words,
                                                std::size_t length) {
  bem::xoshiro256ss rng(seed);
  std::vector<labelled_word> sample;
  for (std::size_t i = 0; i < words; ++i) sample.push_back(online(target, random_symbols(rng, length, target.alphabet)));
  return sample;
}

/// identify_moore finds the target itself: its state count, its behaviour on
/// every non-empty word, and (the targets being numbered breadth first) its
/// table.
void check_identifies(const moore_machine& target, std::span<const labelled_word> sample) {
  const identification_result r = identify_moore(sample, target.alphabet);
  REQUIRE(r.status == identification_status::found);
  CHECK(r.machine.states == target.states);
  CHECK(equivalent(r.machine, target));
  CHECK(r.machine == target);
  CHECK(consistent_with_all(r.machine, sample));
}

/// A back end without statistics or bulk adding: the concept alone.
struct plain_cdcl {
  using sat_backend_concept = bem::prover::sat_backend_t;
  static constexpr const char* backend_name = "plain-cdcl";
  bem::prover::cdcl_solver s;
  void reserve_vars(int n) { s.reserve_vars(n); }
  bool add_clause(std::span<const int> c) { return s.add_clause(c); }
  void set_conflict_budget(std::int64_t b) { s.set_conflict_budget(b); }
  bem::prover::sat_result solve(std::span<const int> a) { return s.solve(a); }
  bool value(int v) const { return s.value(v); }
};
static_assert(bem::prover::sat_backend<plain_cdcl>);

/// A broken back end: SAT with every variable false (no complete machine).
struct lying_backend {
  using sat_backend_concept = bem::prover::sat_backend_t;
  static constexpr const char* backend_name = "lying";
  void reserve_vars(int) {}
  bool add_clause(std::span<const int>) { return true; }
  void set_conflict_budget(std::int64_t) {}
  bem::prover::sat_result solve(std::span<const int>) { return bem::prover::sat_result::sat; }
  bool value(int) const { return false; }
};

}  // namespace

TEST_CASE("the header's example: parity from two words") {
  using bem::learn::labelled_word;
  // Parity of the ones read so far, labelled at every prefix.
  const std::vector<labelled_word> sample = {
      {{0, 1, 1, 0, 1}, {0, 1, 0, 0, 1}},
      {{1, 0, 0, 1}, {1, 1, 1, 0}},
  };
  const auto r = bem::learn::identify_moore(sample, 2);
  REQUIRE(r.status == identification_status::found);
  CHECK(r.machine.states == 2);
  for (const auto& w : sample) CHECK(r.machine.consistent(w));
}

TEST_CASE("docs/learning-bem.md's example: online and final labels mixed") {
  using bem::learn::labelled_word;
  std::vector<labelled_word> sample = {
      {{0, 1, 1, 0, 1}, {0, 1, 0, 0, 1}},  // parity of the ones, every prefix labelled
      {{1, 0, 0, 1}, {-1, -1, -1, 0}},     // a final label only
  };
  bem::learn::identification_result r = bem::learn::identify_moore(sample, /*alphabet=*/2);
  REQUIRE(r.status == bem::learn::identification_status::found);
  const bem::learn::moore_machine& m = r.machine;
  CHECK(m.states == 2);
  std::vector<std::uint8_t> y = m.run(std::vector<std::uint32_t>{1, 1, 0});
  CHECK(y == std::vector<std::uint8_t>{1, 0, 0});
}

TEST_CASE("parity of the ones: two states, the target's own table") {
  std::vector<labelled_word> sample;
  for (auto& w : all_words(4, 2)) sample.push_back(online(parity_target, w));
  const identification_result r = identify_moore(sample, 2);
  REQUIRE(r.status == identification_status::found);
  CHECK(r.tree_nodes == 31);  // 1 + 2 + 4 + 8 + 16 prefixes
  CHECK(r.machine == parity_target);  // numbered breadth first, so equal, not only isomorphic
  CHECK(r.sat_calls == r.clauses_per_k.size());
}

TEST_CASE("the temporal FSM task's automaton: four states from online labels") {
  check_identifies(fsm_target, random_online_sample(fsm_target, 11, 30, 12));
}

TEST_CASE("prefix parity with online labels over words of mixed lengths") {
  bem::xoshiro256ss rng(5);
  std::vector<labelled_word> sample;
  for (std::size_t i = 0; i < 12; ++i) sample.push_back(online(parity_target, random_symbols(rng, 3 + i, 2)));
  check_identifies(parity_target, sample);
}

TEST_CASE("counting the ones modulo 3: three states") {
  check_identifies(mod3_target, random_online_sample(mod3_target, 23, 20, 12));
}

TEST_CASE("a final-label acceptor: parity of a word, only its last label known") {
  std::vector<labelled_word> sample;
  for (std::size_t length = 1; length <= 6; ++length)
    for (auto& w : all_words(length, 2)) sample.push_back(final_only(parity_target, w));
  check_identifies(parity_target, sample);
  // Only final labels: the longest word has five unknown labels.
  CHECK(sample.back().labels.front() == -1);
}

TEST_CASE("random targets: at most their states from random words, themselves from characteristic samples") {
  bem::xoshiro256ss rng(2024);
  std::size_t targets = 0;
  for (std::uint32_t alphabet : {2u, 3u}) {
    for (std::size_t trial = 0; trial < 6;) {
      const auto k = static_cast<std::uint32_t>(2 + rng.uniform_below(5));  // 2..6
      moore_machine target;
      target.states = k;
      target.alphabet = alphabet;
      target.next.resize(std::size_t{k} * alphabet);
      target.output.resize(k);
      for (auto& s : target.next) s = static_cast<std::uint32_t>(rng.uniform_below(k));
      for (auto& o : target.output) o = static_cast<std::uint8_t>(rng.uniform_below(2));
      if (!start_reenterable(target)) continue;
      ++trial;
      const std::uint32_t k_min = minimal_states(target);
      CAPTURE(alphabet);
      CAPTURE(k);
      CAPTURE(k_min);
      // Random words: the fewest states consistent, never more than the target's.
      const auto loose = random_online_sample(target, rng.next(), 6, 8);
      const identification_result r = identify_moore(loose, alphabet);
      REQUIRE(r.status == identification_status::found);
      CHECK(r.machine.states <= k_min);
      CHECK(consistent_with_all(r.machine, loose));
      // A characteristic sample: the target up to renumbering.
      const auto sample = characteristic_sample(target, k_min);
      const identification_result c = identify_moore(sample, alphabet);
      REQUIRE(c.status == identification_status::found);
      CHECK(c.machine.states == k_min);
      CHECK(equivalent(c.machine, target));
      bem::xoshiro256ss fresh(rng.next());
      bool agree = true;
      for (std::size_t i = 0; i < 200; ++i) {
        const auto w = random_symbols(fresh, 64, alphabet);
        agree = agree && c.machine.run(w) == target.run(w);
      }
      CHECK(agree);
      ++targets;
    }
  }
  CHECK(targets == 12);
}

TEST_CASE("minimality: no machine with one state fewer, by brute force and by the encoding alone") {
  struct known {
    const moore_machine* target;
    std::uint64_t seed;
  };
  for (const known& t : {known{&parity_target, 1}, known{&mod3_target, 2}, known{&fsm_target, 3}}) {
    const std::uint32_t k = t.target->states;
    CAPTURE(k);
    const auto sample = random_online_sample(*t.target, t.seed, 12, 10);
    const identification_result r = identify_moore(sample, 2);
    REQUIRE(r.status == identification_status::found);
    CHECK(r.machine.states == k);
    CHECK_FALSE(some_machine_fits(k - 1, sample));
    CHECK(some_machine_fits(k, sample));
    for (bool symmetry : {true, false}) {
      identification_options o;
      o.max_states = k - 1;
      o.symmetry_breaking = symmetry;
      CHECK(identify_moore(sample, 2, o).status == identification_status::no_machine);
      o.max_states = k;
      const identification_result again = identify_moore(sample, 2, o);
      REQUIRE(again.status == identification_status::found);
      CHECK(again.machine == r.machine);
    }
  }
}

TEST_CASE("symmetry breaking keeps the fewest states: random samples with and without it") {
  bem::xoshiro256ss rng(77);
  for (std::size_t trial = 0; trial < 12; ++trial) {
    // Random labels on few short words: small machines that need several states.
    std::vector<labelled_word> sample;
    for (std::size_t i = 0; i < 5; ++i) {
      labelled_word w;
      w.symbols = random_symbols(rng, 1 + rng.uniform_below(5), 2);
      for (std::size_t t = 0; t < w.symbols.size(); ++t)
        w.labels.push_back(static_cast<std::int8_t>(rng.uniform_below(3)) - 1);
      sample.push_back(w);
    }
    identification_options with, without;
    without.symmetry_breaking = false;
    const identification_result a = identify_moore(sample, 2, with);
    const identification_result b = identify_moore(sample, 2, without);
    if (a.status == identification_status::inconsistent_sample) {
      CHECK(b.status == identification_status::inconsistent_sample);
      continue;
    }
    REQUIRE(a.status == identification_status::found);
    REQUIRE(b.status == identification_status::found);
    CHECK(a.machine.states == b.machine.states);
    CHECK(consistent_with_all(a.machine, sample));
    if (a.machine.states <= 3) CHECK_FALSE(some_machine_fits(a.machine.states - 1, sample));
    // Symmetry breaking never needs more SAT calls: it starts at its clique.
    CHECK(a.sat_calls <= b.sat_calls);
  }
}

TEST_CASE("statuses: inconsistent sample, too large, unknown, no machine, empty sample") {
  SUBCASE("two words label one prefix differently") {
    const std::vector<labelled_word> sample = {{{0, 1}, {0, 1}}, {{0, 1, 1}, {-1, 0, 1}}};
    CHECK(identify_moore(sample, 2).status == identification_status::inconsistent_sample);
  }
  SUBCASE("a prefix tree above max_tree_nodes") {
    const auto sample = random_online_sample(parity_target, 4, 10, 20);
    identification_options o;
    o.max_tree_nodes = 50;
    const identification_result r = identify_moore(sample, 2, o);
    CHECK(r.status == identification_status::too_large);
    CHECK(r.sat_calls == 0);
    o.max_tree_nodes = 1000;
    CHECK(identify_moore(sample, 2, o).status == identification_status::found);
  }
  SUBCASE("a conflict budget spent: unknown") {
    // A random 40-state target needs many states; without symmetry breaking
    // the encodings below the answer need conflicts to refute.
    moore_machine big;
    big.states = 40;
    bem::xoshiro256ss rng(9);
    big.next.resize(80);
    big.output.resize(40);
    for (auto& s : big.next) s = static_cast<std::uint32_t>(rng.uniform_below(40));
    for (auto& y : big.output) y = static_cast<std::uint8_t>(rng.uniform_below(2));
    const auto sample = random_online_sample(big, 9, 20, 10);
    identification_options o;
    o.symmetry_breaking = false;
    o.max_states = 12;
    o.conflict_budget = 1;
    const identification_result r = identify_moore(sample, 2, o);
    CHECK(r.status == identification_status::unknown);
    CHECK(r.machine == moore_machine{});
  }
  SUBCASE("more states than max_states") {
    const auto sample = random_online_sample(fsm_target, 8, 10, 10);
    identification_options o;
    o.max_states = 3;
    CHECK(identify_moore(sample, 2, o).status == identification_status::no_machine);
  }
  SUBCASE("an encoding beyond int variables or 32-bit literal offsets is refused, not built") {
    using bem::learn::detail::colouring_vars;
    CHECK(colouring_vars{200000, 8, 2}.fits());
    CHECK_FALSE(colouring_vars{200000, 64, 2}.fits());    // 4.9e9 literals
    CHECK_FALSE(colouring_vars{1u << 28, 16, 2}.fits());  // 4.3e9 variables
  }
  SUBCASE("nothing labelled: the one-state machine") {
    const std::vector<labelled_word> sample = {{{0, 1, 1}, {-1, -1, -1}}};
    const identification_result r = identify_moore(sample, 2);
    REQUIRE(r.status == identification_status::found);
    CHECK(r.machine.states == 1);
    CHECK(r.tree_nodes == 4);
    CHECK(identify_moore(std::span<const labelled_word>{}, 3).machine.states == 1);
  }
}

TEST_CASE("malformed input: the word, the position and the field") {
  const std::vector<labelled_word> bad_symbol = {{{0, 1}, {0, 1}}, {{0, 1, 2}, {0, 1, 1}}};
  CHECK_THROWS_WITH_AS(identify_moore(bad_symbol, 2), doctest::Contains("word 1, position 2: symbol 2"),
                       std::invalid_argument);
  const std::vector<labelled_word> bad_label = {{{0, 1}, {0, 2}}};
  CHECK_THROWS_WITH_AS(learn_moore(bad_label, 2), doctest::Contains("word 0, position 1: label 2"),
                       std::invalid_argument);
  const std::vector<labelled_word> bad_length = {{{0, 1}, {0}}};
  CHECK_THROWS_WITH_AS(identify_moore(bad_length, 2), doctest::Contains("word 0: 1 labels for 2 symbols"),
                       std::invalid_argument);
  identification_options o;
  o.max_states = 0;
  CHECK_THROWS_AS(identify_moore(std::span<const labelled_word>{}, 2, o), std::invalid_argument);
  CHECK_THROWS_AS(parity_target.run(std::vector<std::uint32_t>{0, 2}), std::invalid_argument);
}

TEST_CASE("back ends: the concept alone gives the same machine; a wrong model is never returned") {
  const auto sample = random_online_sample(mod3_target, 31, 10, 10);
  const identification_result ours = identify_moore(sample, 2);
  const identification_result plain = identify_moore<plain_cdcl>(sample, 2);
  REQUIRE(plain.status == identification_status::found);
  CHECK(plain.machine == ours.machine);
  CHECK(plain.conflicts == 0u);  // plain_cdcl reports none
  CHECK(plain.clauses_per_k == ours.clauses_per_k);
  CHECK_THROWS_AS(identify_moore<lying_backend>(sample, 2), std::logic_error);
}

TEST_CASE("learn_moore: 2,000 words of parity, FSM and mod-3 in a few rounds, from small samples") {
  for (const moore_machine* target : {&parity_target, &fsm_target, &mod3_target}) {
    for (bool final_labels : {false, true}) {
      CAPTURE(target->states);
      CAPTURE(final_labels);
      // Online: words of length 64 labelled at every prefix (the first four
      // pin the target down). Final labels: lengths 1..64, the last label
      // only, so rounds add counterexamples until the machine is the target.
      bem::xoshiro256ss rng(100 + target->states);
      std::vector<labelled_word> training;
      for (std::size_t i = 0; i < 2000; ++i) {
        auto symbols = random_symbols(rng, final_labels ? 1 + rng.uniform_below(64) : 64, 2);
        training.push_back(final_labels ? final_only(*target, std::move(symbols)) : online(*target, std::move(symbols)));
      }
      std::size_t rounds = 0;
      const identification_result r = learn_moore(training, 2, {}, &rounds);
      REQUIRE(r.status == identification_status::found);
      CHECK(r.machine == *target);  // the minimal machine, numbered breadth first
      CHECK(consistent_with_all(r.machine, training));
      CHECK(rounds >= (final_labels ? 2u : 1u));
      CHECK(rounds <= 4);
      CHECK(r.tree_nodes <= 1000);  // against 2,000 x 64 symbols of training
      CHECK(r.sat_calls >= rounds);
    }
  }
}

TEST_CASE("learn_moore: its statuses") {
  const auto training = random_online_sample(fsm_target, 55, 200, 16);
  identification_options o;
  o.max_states = 3;
  std::size_t rounds = 0;
  const identification_result small = learn_moore(training, 2, o, &rounds);
  CHECK(small.status == identification_status::no_machine);
  CHECK(rounds >= 1);
  CHECK(small.machine == moore_machine{});
  o = {};
  o.max_tree_nodes = 20;
  CHECK(learn_moore(training, 2, o, &rounds).status == identification_status::too_large);
  CHECK(rounds == 0);
  auto contradicting = training;
  contradicting.push_back(contradicting[7]);
  for (auto& y : contradicting.back().labels) y = static_cast<std::int8_t>(1 - y);
  CHECK(learn_moore(contradicting, 2).status == identification_status::inconsistent_sample);
}

TEST_CASE("majority is not finite-state: the machine grows with the training length and fails beyond it") {
  // Running majority (more ones than zeros so far), 2,000 words of length T.
  const auto majority_training = [](std::size_t T, std::uint64_t seed) {
    bem::xoshiro256ss rng(seed);
    std::vector<labelled_word> training;
    for (std::size_t i = 0; i < 2000; ++i) {
      labelled_word w;
      int lead = 0;
      for (std::size_t t = 0; t < T; ++t) {
        const auto a = static_cast<std::uint32_t>(rng.uniform_below(2));
        lead += a ? 1 : -1;
        w.symbols.push_back(a);
        w.labels.push_back(lead > 0 ? 1 : 0);
      }
      training.push_back(std::move(w));
    }
    return training;
  };
  identification_options o;
  o.max_states = 24;
  const identification_result short_words = learn_moore(majority_training(4, 4), 2, o);
  const identification_result longer_words = learn_moore(majority_training(8, 8), 2, o);
  REQUIRE(short_words.status == identification_status::found);
  REQUIRE(longer_words.status == identification_status::found);
  CHECK(short_words.machine.states == 5);
  CHECK(longer_words.machine.states == 9);
  // Words of length 4T: the machine trained on T = 8 counts no further than T needs.
  const auto test = majority_training(32, 32);
  std::size_t wrong = 0;
  for (const auto& w : test) wrong += longer_words.machine.consistent(w) ? 0 : 1;
  CHECK(3 * wrong > test.size());  // more than a third
}
