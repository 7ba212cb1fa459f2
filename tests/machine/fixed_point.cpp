// The fixed-point functions and the selection rule against an independent
// Python model (tests/machine/fixed_point_model.py, whose output is
// committed as fixed_point_expected.txt): the same values, and a seeded run's
// action sequence pinned, so every machine makes the same choices.
#include <bem/machine/fixed_point.hpp>
#include <bem/machine/selection.hpp>
#include <bem/prng.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

/// The model's output: the first word of each line names it.
std::map<std::string, std::string> model_output() {
  const char* path = std::getenv("BEM_FIXED_POINT_EXPECTED");
  REQUIRE_MESSAGE(path != nullptr, "BEM_FIXED_POINT_EXPECTED names tests/machine/fixed_point_expected.txt");
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::map<std::string, std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    const auto space = line.find(' ');
    lines[line.substr(0, space)] = line.substr(space + 1);
  }
  return lines;
}

template <class F>
std::string joined(const std::vector<std::uint64_t>& args, F f) {
  std::string out;
  for (std::size_t i = 0; i < args.size(); ++i) out += (i ? " " : "") + std::to_string(f(args[i]));
  return out;
}

constexpr std::uint64_t max64 = ~std::uint64_t{0};

struct seeded_run {
  std::string actions;
  bem::selection_table table{2, 8};
};

/// The seeded runs of fixed_point_model.py's doc string.
seeded_run run(bool sample) {
  seeded_run r;
  const std::vector<std::uint32_t> order{3, 1, 4, 0, 5, 2, 7, 6};
  const std::vector<std::uint32_t> reversed(order.rbegin(), order.rend());
  bem::xoshiro256ss env(2026), sel(7);
  const bem::ucb_fixed ucb = bem::ucb_fixed::from({sample ? 0.5 : std::sqrt(2.0)});
  const bem::log_weight_fixed lw = bem::log_weight_fixed::from(
      sample ? bem::log_weight_parameters{0.5, 1e-8, 1.0, 0.25} : bem::log_weight_parameters{0.1, 1e-8, 1.0, 0.5});
  for (int step = 0; step < 3000; ++step) {
    const std::size_t task = static_cast<std::size_t>(step % 2);
    const auto& cands = task == 0 ? order : reversed;
    std::uint32_t i = 0;
    if (sample) {
      i = r.table.sample(task, cands, sel, ucb);
    } else {
      std::uint32_t out[1];
      REQUIRE(r.table.select_top(task, cands, 1, out, ucb) == 1);
      i = out[0];
    }
    r.actions += static_cast<char>('0' + i);
    const std::uint64_t raw = std::min<std::uint64_t>(65536, (env.next() >> 48) * (i + 1) / 8);
    r.table.record_raw(task, i, static_cast<std::uint32_t>(raw));
    if (step % 25 == 24) r.table.update_log_weights(lw);
  }
  return r;
}

std::string state_line(const bem::selection_table& t, const std::string& what) {
  std::string out;
  const auto add = [&](std::uint64_t v) { out += (out.empty() ? "" : " ") + std::to_string(v); };
  const auto add_signed = [&](std::int64_t v) { out += (out.empty() ? "" : " ") + std::to_string(v); };
  if (what == "z")
    for (std::size_t i = 0; i < 8; ++i) add_signed(t.log_weight(i).raw);
  else if (what == "S")
    add(t.loss_accumulator_raw());
  else
    for (std::size_t task = 0; task < 2; ++task)
      for (std::size_t i = 0; i < 8; ++i) add(what == "visits" ? t.visits(task, i) : t.wins_raw(task, i));
  return out;
}

}  // namespace

TEST_CASE("fixed-point functions equal the independent model's values") {
  const auto m = model_output();
  std::vector<std::uint64_t> log_args;
  for (std::uint64_t n = 1; n <= 64; ++n) log_args.push_back(n);
  for (std::uint64_t n : {std::uint64_t{1000}, std::uint64_t{65535}, std::uint64_t{65536}, std::uint64_t{1000000000}, max64})
    log_args.push_back(n);
  CHECK(joined(log_args, bem::fixed::log2_q16) == m.at("log2_q16"));
  CHECK(joined({1, 2, 3, 10, 100, 12345, 1000000, 1ull << 40}, bem::fixed::ln_q16) == m.at("ln_q16"));
  CHECK(joined({0, 1, 2, 65536, 131072, 1000000, (1ull << 31) - 1}, bem::fixed::sqrt_q16) == m.at("sqrt_q16"));
  CHECK(joined({0, 1, 0x8000, 0xFFFF, 0x10000, 0x18000, 5ull << 16, 31ull << 16, (32ull << 16) + 1, 33ull << 16,
                123456789},
               bem::fixed::exp2_neg_q32) == m.at("exp2_neg_q32"));
  CHECK(joined({0, 1, 65536, 3 * 65536, 10000000, 1ull << 40}, bem::fixed::exp_neg_q32) == m.at("exp_neg_q32"));
  std::vector<std::uint64_t> table(bem::fixed::EXP2_NEG_Q32.begin() + 1, bem::fixed::EXP2_NEG_Q32.end());
  CHECK(joined(table, [](std::uint64_t v) { return v; }) == m.at("exp2_table"));
  // And against the real functions, loosely: the truncations are as documented.
  for (std::uint64_t n = 1; n < 5000; n += 7) {
    CHECK(std::abs(bem::fixed::log2_q16(n) / 65536.0 - std::log2(static_cast<double>(n))) < 2.0 / 65536);
    CHECK(bem::fixed::isqrt(n * n + n) == n);  // floor(sqrt(n^2 + n)) = n
  }
  CHECK(bem::fixed::isqrt(max64) == 4294967295u);
}

TEST_CASE("a seeded run picks the model's actions, top-1 and sampled, and ends in its learning state") {
  const auto m = model_output();
  for (const bool sample : {false, true}) {
    const std::string mode = sample ? "sample" : "top";
    CAPTURE(mode);
    const seeded_run r = run(sample);
    CHECK(r.actions == m.at(mode + "_actions"));
    for (const char* what : {"z", "S", "visits", "wins"}) {
      CAPTURE(what);
      CHECK(state_line(r.table, what) == m.at(mode + "_" + what));
    }
  }
}
