// The sequence evaluator on small hand-computed batches.
#include <doctest/doctest.h>
#include <metrics/sequence_metrics.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using namespace bem::metrics;
using bem::tasks::output_kind;
using bem::tasks::prediction;
using bem::tasks::sequence_batch;
using bem::tasks::task_spec;

namespace {
const double ln2 = std::log(2.0);
// Naive reference formulas, fine for the small logits used here.
double bits_binary(double x, int y) {
  const double p1 = 1.0 / (1.0 + std::exp(-x));
  return -std::log2(y == 1 ? p1 : 1.0 - p1);
}
double bits_class(const std::vector<double>& l, int y) {
  double s = 0;
  for (double v : l) s += std::exp(v);
  return -std::log2(std::exp(l[static_cast<std::size_t>(y)]) / s);
}

const metric_value& find(const std::vector<metric_value>& ms, const std::string& name, const std::string& tag = "") {
  for (const auto& m : ms) {
    const bool tagged = !m.breakdown.empty();
    if (m.metric != name) continue;
    if (tag.empty() && !tagged) return m;
    if (!tag.empty() && tagged && m.breakdown[0].second == tag) return m;
  }
  FAIL("metric " << name << " [" << tag << "] missing");
  static metric_value none;
  return none;
}
bool has(const std::vector<metric_value>& ms, const std::string& name) {
  for (const auto& m : ms)
    if (m.metric == name) return true;
  return false;
}

struct row {
  std::vector<int> target;
  std::vector<int> mask;
  std::vector<float> logit;  // one per position (binary) or width per position (class)
  int tag = 0;
};

void fill(const std::vector<row>& rows, int T, int width, sequence_batch& b, prediction& p) {
  const int B = static_cast<int>(rows.size());
  b.reset(B, T);
  p.reset(B, T, width);
  for (int i = 0; i < B; ++i) {
    const auto& r = rows[static_cast<std::size_t>(i)];
    int len = 0;
    for (int t = 0; t < T; ++t) {
      b.target(i, t) = r.target[static_cast<std::size_t>(t)];
      b.scored(i, t) = static_cast<std::uint8_t>(r.mask[static_cast<std::size_t>(t)]);
      if (r.mask[static_cast<std::size_t>(t)]) len = t + 1;
      for (int k = 0; k < width; ++k) p.at(i, t)[k] = r.logit[static_cast<std::size_t>(t * width + k)];
    }
    b.lengths[static_cast<std::size_t>(i)] = len;
    b.tags[static_cast<std::size_t>(i)] = r.tag;
  }
}

// The per-position example: four sequences of length 4.
//   seq0 targets 0 1 1 0, all scored, logits -1 -0.5 2 -3 -> right, wrong, right, right
//   seq1 targets 1 1 0 (0), last is padding, logits 0 1 -1 (5): the tie 0 predicts 0 -> wrong, right, right
//   seq2 targets 0 0 0 1, logits -1 -1 -1 1 -> all right
//   seq3 targets 0 1 0 1, position 2 unscored, logits -2 (9) -2 2 -> all right
std::vector<row> per_position_rows() {
  return {
      {{0, 1, 1, 0}, {1, 1, 1, 1}, {-1.0f, -0.5f, 2.0f, -3.0f}, 1},
      {{1, 1, 0, 0}, {1, 1, 1, 0}, {0.0f, 1.0f, -1.0f, 5.0f}, 0},
      {{0, 0, 0, 1}, {1, 1, 1, 1}, {-1.0f, -1.0f, -1.0f, 1.0f}, 1},
      {{0, 1, 0, 1}, {1, 0, 1, 1}, {-2.0f, 9.0f, -2.0f, 2.0f}, 0},
  };
}

task_spec per_position_spec(bool tagged) {
  task_spec s;
  s.output = output_kind::binary_per_position;
  if (tagged) {
    s.tag_name = "depth";
    s.tag_labels = {"shallow", "deep"};
  }
  return s;
}

double per_position_bits() {
  double bits = 0;
  for (const auto& r : per_position_rows())
    for (std::size_t t = 0; t < 4; ++t)
      if (r.mask[t]) bits += bits_binary(r.logit[t], r.target[t]);
  return bits;
}
}  // namespace

TEST_CASE("binary_per_position: every metric by hand") {
  sequence_evaluator ev(per_position_spec(false));
  sequence_batch b;
  prediction p;
  fill(per_position_rows(), 4, 1, b, p);
  ev.add(b, p);
  CHECK(ev.sequences() == 4);
  CHECK(ev.scored_positions() == 14);
  const auto ms = ev.results();

  // Deterministic order, no breakdowns without a tag.
  std::vector<std::string> names;
  for (const auto& m : ms) names.push_back(m.metric);
  CHECK(names == std::vector<std::string>{"per_position_accuracy", "full_sequence_accuracy", "balanced_accuracy",
                                          "threshold_crossing_accuracy", "accuracy_by_position", "cross_entropy",
                                          "error_rate"});

  const auto& acc = find(ms, "per_position_accuracy");
  CHECK(acc.value == doctest::Approx(12.0 / 14.0));
  CHECK(acc.n == 14);
  CHECK(acc.n_unit == "positions");
  CHECK(acc.unit == "fraction");
  CHECK(acc.direction == better::higher);
  REQUIRE(acc.ci);
  CHECK(acc.ci->method == "t over sequences");
  CHECK(acc.ci->low == doctest::Approx(0.5919942319132425));
  CHECK(acc.ci->high == 1.0);  // 1.122 clipped

  const auto& full = find(ms, "full_sequence_accuracy");
  CHECK(full.value == doctest::Approx(0.5));
  CHECK(full.n == 4);
  CHECK(full.n_unit == "sequences");
  REQUIRE(full.ci);
  CHECK(full.ci->method == "wilson");
  CHECK(full.ci->low == doctest::Approx(wilson_interval(2, 4).low));

  // Positives: 6 (4 right); negatives: 8 (8 right).
  const auto& bal = find(ms, "balanced_accuracy");
  CHECK(bal.value == doctest::Approx((4.0 / 6.0 + 1.0) / 2.0));
  CHECK(bal.n == 14);
  CHECK(!bal.ci);

  // Crossings: seq0 t=2 (wrong) and t=4, seq1 t=3, seq2 t=4, seq3 t=4 (t=3
  // follows an unscored position and does not count).
  const auto& cross = find(ms, "threshold_crossing_accuracy");
  CHECK(cross.n == 5);
  CHECK(cross.value == doctest::Approx(0.8));
  REQUIRE(cross.ci);
  // Sequences are the units, as for positions: seq0 has 2 crossings (1
  // right), the others 1 each (right).
  const std::vector<double> cross_right = {1, 1, 1, 1}, cross_count = {2, 1, 1, 1};
  const auto cross_t = cluster_t_interval(cross_right, cross_count);
  CHECK(cross.ci->method == std::string("t over sequences"));
  CHECK(cross.ci->low == doctest::Approx(std::max(0.0, cross_t.low)));
  CHECK(cross.ci->high == doctest::Approx(std::min(1.0, cross_t.high)));

  const auto& bypos = find(ms, "accuracy_by_position");
  REQUIRE(bypos.series.size() == 4);
  CHECK(bypos.series_axis == "position");
  CHECK(bypos.series[0] == doctest::Approx(0.75));
  CHECK(bypos.series[1] == doctest::Approx(2.0 / 3.0));
  CHECK(bypos.series[2] == doctest::Approx(1.0));
  CHECK(bypos.series[3] == doctest::Approx(1.0));
  CHECK(bypos.value == doctest::Approx((0.75 + 2.0 / 3.0 + 2.0) / 4.0));
  CHECK(bypos.n == 4);
  CHECK(bypos.direction == better::higher);

  const auto& ce = find(ms, "cross_entropy");
  CHECK(ce.unit == "bits");
  CHECK(ce.direction == better::lower);
  CHECK(ce.n == 14);
  CHECK(ce.value == doctest::Approx(per_position_bits() / 14.0));
  REQUIRE(ce.ci);
  CHECK(ce.ci->method == "t over sequences");
  CHECK(ce.ci->low >= 0.0);
  CHECK(ce.ci->low < ce.value);
  CHECK(ce.ci->high > ce.value);

  const auto& err = find(ms, "error_rate");
  CHECK(err.value == doctest::Approx(2.0 / 14.0));
  CHECK(err.direction == better::lower);
  REQUIRE(err.ci);
  CHECK(err.ci->low == doctest::Approx(0.0));
  CHECK(err.ci->high == doctest::Approx(1.0 - 0.5919942319132425));
}

TEST_CASE("binary_per_position: batches accumulate like one batch") {
  const auto rows = per_position_rows();
  sequence_evaluator whole(per_position_spec(true)), parts(per_position_spec(true));
  sequence_batch b;
  prediction p;
  fill(rows, 4, 1, b, p);
  whole.add(b, p);
  fill({rows[0]}, 4, 1, b, p);
  parts.add(b, p);
  fill({rows[1], rows[2], rows[3]}, 4, 1, b, p);
  parts.add(b, p);
  const auto a = whole.results(), c = parts.results();
  REQUIRE(a.size() == c.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(a[i].metric);
    CHECK(a[i].metric == c[i].metric);
    CHECK(a[i].value == doctest::Approx(c[i].value));
    CHECK(a[i].n == c[i].n);
    CHECK(a[i].breakdown == c[i].breakdown);
    CHECK(a[i].ci.has_value() == c[i].ci.has_value());
    if (a[i].ci && c[i].ci) CHECK(a[i].ci->low == doctest::Approx(c[i].ci->low));
  }
}

TEST_CASE("binary_per_position: tag breakdown") {
  sequence_evaluator ev(per_position_spec(true));
  sequence_batch b;
  prediction p;
  fill(per_position_rows(), 4, 1, b, p);
  ev.add(b, p);
  const auto ms = ev.results();
  // 7 overall + 3 per tag, tags in increasing order.
  REQUIRE(ms.size() == 13);
  CHECK(ms[7].metric == "per_position_accuracy");
  CHECK(ms[7].breakdown == std::vector<std::pair<std::string, std::string>>{{"depth", "shallow"}});
  CHECK(ms[8].metric == "full_sequence_accuracy");
  CHECK(ms[9].metric == "error_rate");
  CHECK(ms[10].breakdown[0].second == "deep");
  // shallow: seq1 (2/3) and seq3 (3/3); deep: seq0 (3/4) and seq2 (4/4).
  CHECK(find(ms, "per_position_accuracy", "shallow").value == doctest::Approx(5.0 / 6.0));
  CHECK(find(ms, "per_position_accuracy", "shallow").n == 6);
  CHECK(find(ms, "full_sequence_accuracy", "shallow").value == doctest::Approx(0.5));
  CHECK(find(ms, "full_sequence_accuracy", "shallow").n == 2);
  CHECK(find(ms, "error_rate", "shallow").value == doctest::Approx(1.0 / 6.0));
  CHECK(find(ms, "per_position_accuracy", "deep").value == doctest::Approx(7.0 / 8.0));
  CHECK(find(ms, "error_rate", "deep").value == doctest::Approx(1.0 / 8.0));
  // Equal sizes within "deep": the t interval of the per-sequence accuracies.
  const std::vector<double> deep = {0.75, 1.0};
  const interval want = t_interval(summarize(deep));
  REQUIRE(find(ms, "per_position_accuracy", "deep").ci);
  CHECK(find(ms, "per_position_accuracy", "deep").ci->low == doctest::Approx(std::max(0.0, want.low)));
}

TEST_CASE("a model right everywhere gets Wilson intervals over sequences, not zero-width t intervals") {
  // 500 sequences, targets alternating (a crossing at every position), every
  // answer right: the t interval over sequences would be [1, 1].
  std::vector<row> rows(500);
  for (auto& r : rows)
    for (int t = 0; t < 8; ++t) {
      r.target.push_back(t % 2);
      r.mask.push_back(1);
      r.logit.push_back(t % 2 ? 3.0f : -3.0f);
    }
  sequence_evaluator ev(per_position_spec(false));
  sequence_batch b;
  prediction p;
  fill(rows, 8, 1, b, p);
  ev.add(b, p);
  const auto ms = ev.results();
  const auto w = wilson_interval(500, 500);
  for (const char* name : {"per_position_accuracy", "threshold_crossing_accuracy"}) {
    CAPTURE(name);
    const auto& m = find(ms, name);
    CHECK(m.value == 1.0);
    REQUIRE(m.ci);
    CHECK(m.ci->method == std::string("Wilson over sequences (every sequence alike)"));
    CHECK(m.ci->low == doctest::Approx(w.low));  // 0.9924
    CHECK(m.ci->high == 1.0);
  }
  const auto& err = find(ms, "error_rate");
  REQUIRE(err.ci);
  CHECK(err.ci->high == doctest::Approx(1.0 - w.low));
}

TEST_CASE("binary_per_position: tag without a label, one sequence, no crossing, absent class") {
  task_spec s = per_position_spec(true);
  s.tag_labels = {"only"};
  sequence_evaluator ev(s);
  sequence_batch b;
  prediction p;
  // All targets 1 (class 0 absent), no flips; tag 3 has no label.
  fill({{{1, 1, 1}, {1, 1, 1}, {2.0f, -1.0f, 3.0f}, 3}}, 3, 1, b, p);
  ev.add(b, p);
  const auto ms = ev.results();
  CHECK(!has(ms, "threshold_crossing_accuracy"));
  CHECK(find(ms, "balanced_accuracy").value == doctest::Approx(2.0 / 3.0));  // TPR alone
  CHECK(!find(ms, "per_position_accuracy").ci);  // one sequence: no t interval
  CHECK(!find(ms, "cross_entropy").ci);
  CHECK(find(ms, "per_position_accuracy", "3").value == doctest::Approx(2.0 / 3.0));

  // Only negatives: TNR alone.
  sequence_evaluator neg(per_position_spec(false));
  fill({{{0, 0}, {1, 1}, {-1.0f, 1.0f}, 0}}, 2, 1, b, p);
  neg.add(b, p);
  CHECK(find(neg.results(), "balanced_accuracy").value == doctest::Approx(0.5));
}

TEST_CASE("binary_per_position: a crossing needs the position before it scored") {
  // Targets 0 1 1 0 with position 2 unscored: position 3's label differs
  // from position 1's, but position 2 was not scored, so only position 4
  // (1 -> 0) is a crossing; the model gets it wrong.
  sequence_evaluator ev(per_position_spec(false));
  sequence_batch b;
  prediction p;
  fill({{{0, 1, 1, 0}, {1, 0, 1, 1}, {-1.0f, 5.0f, 1.0f, 1.0f}, 0}}, 4, 1, b, p);
  ev.add(b, p);
  const auto ms = ev.results();
  CHECK(find(ms, "threshold_crossing_accuracy").n == 1);
  CHECK(find(ms, "threshold_crossing_accuracy").value == 0.0);
  // With every position scored, positions 2 and 4 are crossings.
  sequence_evaluator all(per_position_spec(false));
  fill({{{0, 1, 1, 0}, {1, 1, 1, 1}, {-1.0f, 5.0f, 1.0f, 1.0f}, 0}}, 4, 1, b, p);
  all.add(b, p);
  CHECK(find(all.results(), "threshold_crossing_accuracy").n == 2);
  CHECK(find(all.results(), "threshold_crossing_accuracy").value == 0.5);
}

TEST_CASE("binary_per_position: longer batches extend the position series") {
  sequence_evaluator ev(per_position_spec(false));
  sequence_batch b;
  prediction p;
  fill({{{1, 1}, {1, 1}, {1.0f, 1.0f}, 0}}, 2, 1, b, p);
  ev.add(b, p);
  fill({{{1, 1, 1, 1}, {1, 1, 0, 1}, {-1.0f, 1.0f, 1.0f, 1.0f}, 0}}, 4, 1, b, p);
  ev.add(b, p);
  const auto ms = ev.results();
  const auto& s = find(ms, "accuracy_by_position");
  REQUIRE(s.series.size() == 4);
  CHECK(s.series[0] == doctest::Approx(0.5));
  CHECK(s.series[1] == doctest::Approx(1.0));
  CHECK(std::isnan(s.series[2]));  // never scored
  CHECK(s.series[3] == doctest::Approx(1.0));
  CHECK(s.n == 3);
  CHECK(s.n_unit == "position indices");  // n counts indices t, not scored positions
  CHECK(s.value == doctest::Approx(2.5 / 3.0));
}

TEST_CASE("binary_final: every metric by hand") {
  task_spec s;
  s.output = output_kind::binary_final;
  s.tag_name = "query_position";
  s.tag_labels = {"early", "middle", "late"};
  sequence_evaluator ev(s);
  sequence_batch b;
  prediction p;
  // One scored position each (the last real one); seq1 is padded.
  fill({
           {{0, 0, 1}, {0, 0, 1}, {7.0f, 7.0f, 2.0f}, 0},     // right
           {{0, 0, 0}, {0, 1, 0}, {7.0f, -1.0f, 7.0f}, 2},    // right
           {{0, 0, 1}, {0, 0, 1}, {7.0f, 7.0f, 0.0f}, 2},     // tie predicts 0: wrong
           {{0, 0, 0}, {0, 0, 1}, {7.0f, 7.0f, 0.5f}, 0},     // wrong
           {{0, 0, 1}, {0, 0, 1}, {-7.0f, -7.0f, 3.0f}, 0},   // right
       },
       3, 1, b, p);
  ev.add(b, p);
  CHECK(ev.sequences() == 5);
  CHECK(ev.scored_positions() == 5);
  const auto ms = ev.results();
  std::vector<std::string> names;
  for (const auto& m : ms) names.push_back(m.metric + (m.breakdown.empty() ? "" : "/" + m.breakdown[0].second));
  CHECK(names == std::vector<std::string>{"accuracy", "error_rate", "balanced_accuracy", "cross_entropy",
                                          "accuracy/early", "error_rate/early", "accuracy/late", "error_rate/late"});
  const auto& acc = find(ms, "accuracy");
  CHECK(acc.value == doctest::Approx(0.6));
  CHECK(acc.n == 5);
  CHECK(acc.n_unit == "sequences");
  REQUIRE(acc.ci);
  CHECK(acc.ci->low == doctest::Approx(wilson_interval(3, 5).low));
  const auto& err = find(ms, "error_rate");
  CHECK(err.value == doctest::Approx(0.4));
  CHECK(err.direction == better::lower);
  REQUIRE(err.ci);
  CHECK(err.ci->method == "wilson");
  CHECK(err.ci->high == doctest::Approx(wilson_interval(2, 5).high));
  CHECK(find(ms, "balanced_accuracy").value == doctest::Approx((2.0 / 3.0 + 0.5) / 2.0));
  CHECK(find(ms, "balanced_accuracy").n_unit == "sequences");
  const std::vector<double> bits = {bits_binary(2, 1), bits_binary(-1, 0), bits_binary(0, 1), bits_binary(0.5, 0),
                                    bits_binary(3, 1)};
  const auto& ce = find(ms, "cross_entropy");
  CHECK(ce.value == doctest::Approx((bits[0] + bits[1] + bits[2] + bits[3] + bits[4]) / 5.0));
  CHECK(ce.n == 5);
  REQUIRE(ce.ci);
  const interval want = t_interval(summarize(bits));
  REQUIRE(want.low < 0.0);
  CHECK(ce.ci->low == 0.0);  // clipped: cross-entropy is never negative
  CHECK(ce.ci->high == doctest::Approx(want.high));
  CHECK(ce.ci->method == "t over sequences");
  // early: seq0, seq3, seq4 -> 2/3; late: seq1, seq2 -> 1/2; "middle" never occurred.
  CHECK(find(ms, "accuracy", "early").value == doctest::Approx(2.0 / 3.0));
  CHECK(find(ms, "accuracy", "early").n == 3);
  CHECK(find(ms, "error_rate", "late").value == doctest::Approx(0.5));
  CHECK(find(ms, "accuracy", "late").breakdown[0].first == "query_position");
}

TEST_CASE("binary_final: absent class, extreme and non-finite logits") {
  task_spec s;
  s.output = output_kind::binary_final;
  sequence_evaluator ev(s);
  sequence_batch b;
  prediction p;
  const float inf = std::numeric_limits<float>::infinity();
  fill({{{1}, {1}, {1000.0f}, 0}, {{1}, {1}, {-1000.0f}, 0}, {{1}, {1}, {inf}, 0}}, 1, 1, b, p);
  ev.add(b, p);
  const auto ms = ev.results();
  CHECK(find(ms, "balanced_accuracy").value == doctest::Approx(2.0 / 3.0));  // TPR alone
  CHECK(find(ms, "cross_entropy").value == doctest::Approx(1000.0 / ln2 / 3.0));

  sequence_evaluator bad(s);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  fill({{{0}, {1}, {nan}, 0}, {{1}, {1}, {-inf}, 0}}, 1, 1, b, p);
  bad.add(b, p);
  const auto bm = bad.results();
  CHECK(find(bm, "accuracy").value == 0.0);  // NaN never counts as right, even for target 0
  CHECK(std::isinf(find(bm, "cross_entropy").value));
  CHECK(!find(bm, "cross_entropy").ci);
}

TEST_CASE("class_final: every metric by hand") {
  task_spec s;
  s.output = output_kind::class_final;
  s.num_classes = 3;
  sequence_evaluator ev(s);
  sequence_batch b;
  prediction p;
  // Scored position is the second one; the first is unscored.
  fill({
           {{0, 1}, {0, 1}, {9, 9, 9, 1, 2, 0}, 0},  // argmax 1: right
           {{0, 0}, {0, 1}, {9, 9, 9, 0, 0, 0}, 0},  // all tied: class 0, right
           {{0, 1}, {0, 1}, {9, 9, 9, 5, 5, 1}, 0},  // tie 0/1 -> 0: wrong
           {{0, 2}, {0, 1}, {9, 9, 9, 3, 0, 1}, 0},  // wrong
       },
       2, 3, b, p);
  ev.add(b, p);
  const auto ms = ev.results();
  std::vector<std::string> names;
  for (const auto& m : ms) names.push_back(m.metric);
  CHECK(names == std::vector<std::string>{"accuracy", "error_rate", "cross_entropy"});
  CHECK(find(ms, "accuracy").value == doctest::Approx(0.5));
  CHECK(find(ms, "error_rate").value == doctest::Approx(0.5));
  CHECK(find(ms, "error_rate").ci->low == doctest::Approx(wilson_interval(2, 4).low));
  const double bits = bits_class({1, 2, 0}, 1) + std::log2(3.0) + bits_class({5, 5, 1}, 1) + bits_class({3, 0, 1}, 2);
  CHECK(find(ms, "cross_entropy").value == doctest::Approx(bits / 4.0));
  CHECK(find(ms, "cross_entropy").unit == "bits");

  // Large logits do not overflow; +inf logits share the mass.
  sequence_evaluator big(s);
  const float inf = std::numeric_limits<float>::infinity();
  fill({{{0, 2}, {0, 1}, {0, 0, 0, 1000, 0, -1000}, 0}, {{0, 1}, {0, 1}, {0, 0, 0, inf, inf, 0}, 0}}, 2, 3, b, p);
  big.add(b, p);
  const auto bm = big.results();
  CHECK(find(bm, "cross_entropy").value == doctest::Approx((2000.0 / ln2 + 1.0) / 2.0));
  CHECK(find(bm, "accuracy").value == doctest::Approx(0.0));  // inf tie -> class 0; target 1

  // Every logit -inf or NaN: wrong, infinite loss.
  sequence_evaluator none(s);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  fill({{{0, 0}, {0, 1}, {0, 0, 0, -inf, -inf, -inf}, 0}, {{0, 0}, {0, 1}, {0, 0, 0, 1, nan, 0}, 0}}, 2, 3, b, p);
  none.add(b, p);
  CHECK(find(none.results(), "accuracy").value == 0.0);
  CHECK(std::isinf(find(none.results(), "cross_entropy").value));
}

TEST_CASE("invalid input throws and leaves the evaluator unchanged") {
  task_spec s;
  s.output = output_kind::binary_final;
  sequence_evaluator ev(s);
  sequence_batch b;
  prediction p;
  fill({{{1, 1}, {1, 0}, {1.0f, 1.0f}, 0}}, 2, 1, b, p);
  ev.add(b, p);
  // Two scored positions in a final task.
  fill({{{1, 1}, {1, 1}, {1.0f, 1.0f}, 0}}, 2, 1, b, p);
  CHECK_THROWS_AS(ev.add(b, p), std::invalid_argument);
  // Binary target out of range.
  fill({{{2, 0}, {1, 0}, {1.0f, 1.0f}, 0}}, 2, 1, b, p);
  CHECK_THROWS_AS(ev.add(b, p), std::invalid_argument);
  // Prediction shape mismatch.
  fill({{{1, 0}, {1, 0}, {1.0f, 1.0f}, 0}}, 2, 1, b, p);
  p.reset(1, 3, 1);
  CHECK_THROWS_AS(ev.add(b, p), std::invalid_argument);
  p.reset(1, 2, 2);
  CHECK_THROWS_AS(ev.add(b, p), std::invalid_argument);
  CHECK(ev.sequences() == 1);
  CHECK(ev.scored_positions() == 1);
  CHECK(find(ev.results(), "accuracy").value == 1.0);

  task_spec c;
  c.output = output_kind::class_final;
  c.num_classes = 1;
  CHECK_THROWS_AS(sequence_evaluator{c}, std::invalid_argument);
  c.num_classes = 4;
  sequence_evaluator cev(c);
  fill({{{4}, {1}, {0, 0, 0, 0}, 0}}, 1, 4, b, p);
  CHECK_THROWS_AS(cev.add(b, p), std::invalid_argument);
}

TEST_CASE("nothing scored gives no metrics") {
  sequence_evaluator ev(per_position_spec(true));
  CHECK(ev.results().empty());
  sequence_batch b;
  prediction p;
  fill({{{1, 0}, {0, 0}, {1.0f, 1.0f}, 0}}, 2, 1, b, p);
  ev.add(b, p);
  CHECK(ev.sequences() == 1);
  CHECK(ev.scored_positions() == 0);
  CHECK(ev.results().empty());
  CHECK(to_string(better::lower) == "lower");
}
