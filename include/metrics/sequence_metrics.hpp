// The evaluator that turns (batch, prediction) pairs into metric values.
//
// Only SCORED positions count: those with mask != 0 (see tasks/batch.hpp).
// Padding and unscored positions are never looked at, whatever their logits.
//
// Decision rule
//   binary outputs: predict 1 iff logit > 0 (a logit of exactly 0 predicts 0);
//   class outputs:  predict the argmax of the logits, the lowest class index
//                   among equal maxima.
//   A logit vector that defines no distribution -- any NaN, or (class outputs)
//   every logit -inf -- is a WRONG prediction whatever the target, with
//   cross-entropy +inf. A model that emits NaN has not answered.
//
// Cross-entropy, in BITS per scored position, from numerically stable
// log-probabilities (no exp of a large positive number, exact for +-inf):
//   binary: -log2 sigma(x)     = softplus(-x) / ln 2   for target 1,
//           -log2 (1-sigma(x)) = softplus(x)  / ln 2   for target 0,
//           softplus(x) = max(x, 0) + log1p(exp(-|x|));
//   class:  (logsumexp(l) - l_y) / ln 2, logsumexp(l) = m + log sum_k exp(l_k - m),
//           m = max_k l_k; if some logits are +inf, the distribution puts equal
//           mass on them (target among them: log2(count), else +inf).
//
// Sequences and clusters. A sequence with no scored position is counted by
// sequences() and contributes to no metric. For the final kinds
// (binary_final, class_final) a sequence must have at most one scored position;
// add() throws std::invalid_argument otherwise. Positions within one sequence
// are dependent (one wrong state corrupts every later output), so intervals
// for position-level means treat SEQUENCES as the independent units: the
// cluster-robust ratio interval of statistics.hpp (cluster_t_interval) with
// the sequences as clusters, method "t over sequences". When every sequence
// has the same number of scored positions it is exactly the Student t
// interval of the per-sequence means. A Wilson interval over positions would
// pretend T dependent positions were T independent trials and be far too
// narrow. t intervals need at least 2 sequences; with fewer, ci is empty.
// When every sequence scores alike (a perfect model: 1.0 in each) the t
// interval has zero width; a fraction then gets the Wilson interval over
// sequences instead (each sequence one trial), method "Wilson over
// sequences (every sequence alike)", so 500 perfect sequences read
// [0.9924, 1], not [1, 1].
// Intervals of fractions are clipped to [0, 1] and of cross-entropy to
// [0, inf). A metric whose value is not finite has no interval.
//
// Metrics, in the order results() returns them. "positions" below always
// means scored positions; accuracies and rates have unit "fraction",
// cross-entropy unit "bits".
//
// binary_per_position:
//   per_position_accuracy       correct positions / positions. higher.
//                               n = positions; ci t over sequences.
//   full_sequence_accuracy      sequences whose every scored position is right
//                               / sequences with a scored position. higher.
//                               n = sequences; ci Wilson.
//   balanced_accuracy           (TPR + TNR) / 2 over positions, TPR = correct
//                               among target-1 positions, TNR = correct among
//                               target-0 positions. If one class never occurs
//                               as a target its rate is undefined and the
//                               other rate alone is reported. higher.
//                               n = positions; no ci.
//   threshold_crossing_accuracy accuracy at the positions t >= 2 (1-based)
//                               that are scored, whose position t-1 is also
//                               scored, and where target_t != target_{t-1}
//                               (the label flips). higher. n = those positions
//                               ("crossings"), unit "positions"; ci t over
//                               the sequences with a crossing (TXC flips at
//                               about every other position: crossings of one
//                               sequence are as dependent as its positions).
//                               OMITTED when no crossing occurred.
//   accuracy_by_position        series[t-1] = accuracy over all sequences at
//                               position t, for t = 1..L, L the largest batch
//                               length added; NaN at positions never scored.
//                               series_axis "position". value = unweighted
//                               mean of the series over the positions that
//                               were scored; n = the number of such position
//                               indices t (n_unit "position indices", not
//                               scored positions). higher; no ci.
//   cross_entropy               total bits / positions. lower.
//                               n = positions; ci t over sequences.
//   error_rate                  1 - per_position_accuracy (the 0/1 risk per
//                               position). lower. n = positions; ci is the
//                               per_position_accuracy ci reflected (1-high, 1-low).
//
// binary_final (one scored position per sequence; n = sequences throughout):
//   accuracy                    correct / sequences. higher; ci Wilson.
//   error_rate                  wrong / sequences, the 0/1 risk R_hat_01.
//                               lower; ci Wilson on the wrong count.
//   balanced_accuracy           as above, over sequences. higher; no ci.
//   cross_entropy               mean bits per sequence. lower; ci t over sequences.
//
// class_final (n = sequences throughout):
//   accuracy, error_rate, cross_entropy as for binary_final.
//
// Breakdown by tag: when spec.tag_name is non-empty, for every tag value
// that occurred on a sequence with a scored position, in increasing tag
// value, the metrics
//   binary_per_position: per_position_accuracy, full_sequence_accuracy, error_rate
//   final kinds:         accuracy, error_rate
// computed as above on that tag's sequences only, each with
// breakdown = {{spec.tag_name, label}}; label = spec.tag_labels[tag] when the
// tag indexes tag_labels, else the tag's decimal value. The overall metrics
// have an empty breakdown.
//
// With no scored position at all, results() is empty.
#pragma once

#include <bem/version.hpp>
#include <metrics/metric_value.hpp>
#include <metrics/statistics.hpp>
#include <tasks/batch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace metrics {

namespace detail {
inline constexpr double ln2 = 0.69314718055994530942;

/// log(1 + exp(x)) without overflow; exact limits at +-inf.
inline double softplus(double x) noexcept { return std::max(x, 0.0) + std::log1p(std::exp(-std::fabs(x))); }

/// One judged position: the predicted class (-1 for an invalid logit vector)
/// and the cross-entropy in bits.
struct judgement {
  std::int32_t predicted;
  double bits;
};

inline judgement judge_binary(float logit, std::int32_t target) noexcept {
  const double x = static_cast<double>(logit);
  if (std::isnan(x)) return {-1, std::numeric_limits<double>::infinity()};
  const std::int32_t pred = x > 0.0 ? 1 : 0;
  const double nats = target == 1 ? softplus(-x) : softplus(x);
  return {pred, nats / ln2};
}

inline judgement judge_class(const float* logits, std::int32_t classes, std::int32_t target) noexcept {
  const double inf = std::numeric_limits<double>::infinity();
  std::int32_t arg = 0;
  double m = -inf;
  for (std::int32_t k = 0; k < classes; ++k) {
    const double l = static_cast<double>(logits[k]);
    if (std::isnan(l)) return {-1, inf};
    if (k == 0 || l > m) {  // strict: the lowest index wins a tie
      m = l;
      arg = k;
    }
  }
  if (m == -inf) return {-1, inf};  // every logit -inf: no distribution
  const double ly = static_cast<double>(logits[target]);
  if (m == inf) {
    std::int32_t count = 0;
    for (std::int32_t k = 0; k < classes; ++k) count += static_cast<double>(logits[k]) == inf ? 1 : 0;
    return {arg, ly == inf ? std::log2(static_cast<double>(count)) : inf};
  }
  double s = 0.0;
  for (std::int32_t k = 0; k < classes; ++k) s += std::exp(static_cast<double>(logits[k]) - m);
  const double lse = m + std::log(s);
  return {arg, (lse - ly) / ln2};
}
}  // namespace detail

/// Accumulates (batch, prediction) pairs of one task and reports its metrics
/// (definitions in this header's opening comment).
class sequence_evaluator {
 public:
  /// Throws std::invalid_argument for a class_final spec with fewer than 2 classes.
  explicit sequence_evaluator(const tasks::task_spec& spec) : spec_(spec) {
    if (spec_.output == tasks::output_kind::class_final && spec_.num_classes < 2)
      throw std::invalid_argument("sequence_evaluator: class_final needs num_classes >= 2, got " +
                                  std::to_string(spec_.num_classes));
  }

  /// Accumulates one batch. Batches may differ in size and in length. Throws
  /// std::invalid_argument, before changing any state, when the prediction's
  /// shape does not match the batch and spec, when a scored target is out of
  /// range (0/1 for binary outputs, [0, num_classes) for class outputs), or
  /// when a final-kind sequence has more than one scored position.
  void add(const tasks::sequence_batch& batch, const tasks::prediction& pred) {
    validate(batch, pred);
    const std::int32_t B = batch.batch_size;
    const std::int32_t T = batch.length;
    const bool per_position = spec_.output == tasks::output_kind::binary_per_position;
    const bool binary = spec_.output != tasks::output_kind::class_final;
    if (per_position && static_cast<std::size_t>(T) > pos_scored_.size()) {
      pos_scored_.resize(static_cast<std::size_t>(T), 0);
      pos_correct_.resize(static_cast<std::size_t>(T), 0);
    }
    for (std::int32_t b = 0; b < B; ++b) {
      ++sequences_;
      seq_record rec;
      rec.tag = spec_.tag_name.empty() ? 0 : batch.tags[static_cast<std::size_t>(b)];
      bool prev_scored = false;
      std::int32_t prev_target = 0;
      for (std::int32_t t = 0; t < T; ++t) {
        if (!batch.scored(b, t)) {
          prev_scored = false;
          continue;
        }
        const std::int32_t y = batch.target(b, t);
        const detail::judgement j = binary ? detail::judge_binary(*pred.at(b, t), y)
                                           : detail::judge_class(pred.at(b, t), spec_.num_classes, y);
        const bool right = j.predicted == y;
        ++rec.scored;
        rec.correct += right ? 1 : 0;
        rec.bits += j.bits;
        if (binary) {
          if (y == 1) {
            ++positives_;
            true_positives_ += right ? 1 : 0;
          } else {
            ++negatives_;
            true_negatives_ += right ? 1 : 0;
          }
        }
        if (per_position) {
          ++pos_scored_[static_cast<std::size_t>(t)];
          pos_correct_[static_cast<std::size_t>(t)] += right ? 1 : 0;
          if (prev_scored && t >= 1 && y != prev_target) {
            ++rec.crossings;
            rec.crossings_correct += right ? 1 : 0;
          }
        }
        prev_scored = true;
        prev_target = y;
      }
      scored_ += rec.scored;
      crossings_ += rec.crossings;
      crossings_correct_ += rec.crossings_correct;
      if (rec.scored > 0) records_.push_back(rec);
    }
  }

  /// The metrics, in the documented deterministic order.
  std::vector<metric_value> results() const {
    std::vector<metric_value> out;
    if (records_.empty()) return out;
    const bool per_position = spec_.output == tasks::output_kind::binary_per_position;
    std::vector<const seq_record*> all;
    all.reserve(records_.size());
    for (const auto& r : records_) all.push_back(&r);
    const std::vector<std::pair<std::string, std::string>> none;

    if (per_position) {
      out.push_back(per_position_accuracy(all, none));
      out.push_back(full_sequence_accuracy(all, none));
      out.push_back(balanced_accuracy("positions"));
      if (crossings_ > 0) {
        metric_value m = base("threshold_crossing_accuracy", "fraction", better::higher, crossings_, "positions");
        m.value = static_cast<double>(crossings_correct_) / static_cast<double>(crossings_);
        m.ci = over_sequences(
            all, [](const seq_record& r) { return static_cast<double>(r.crossings_correct); }, 0.0, 1.0,
            [](const seq_record& r) { return static_cast<double>(r.crossings); });
        out.push_back(std::move(m));
      }
      out.push_back(accuracy_by_position());
      out.push_back(cross_entropy(all, "positions"));
      out.push_back(error_rate_from(out.front()));
    } else {
      out.push_back(final_accuracy(all, none));
      out.push_back(final_error_rate(all, none));
      if (spec_.output == tasks::output_kind::binary_final) out.push_back(balanced_accuracy("sequences"));
      out.push_back(cross_entropy(all, "sequences"));
    }

    if (!spec_.tag_name.empty()) {
      std::map<std::int32_t, std::vector<const seq_record*>> by_tag;
      for (const auto& r : records_) by_tag[r.tag].push_back(&r);
      for (const auto& [tag, recs] : by_tag) {
        const std::vector<std::pair<std::string, std::string>> bd = {{spec_.tag_name, tag_label(tag)}};
        if (per_position) {
          metric_value acc = per_position_accuracy(recs, bd);
          metric_value err = error_rate_from(acc);
          out.push_back(std::move(acc));
          out.push_back(full_sequence_accuracy(recs, bd));
          out.push_back(std::move(err));
        } else {
          out.push_back(final_accuracy(recs, bd));
          out.push_back(final_error_rate(recs, bd));
        }
      }
    }
    return out;
  }

  /// Scored positions accumulated so far.
  std::int64_t scored_positions() const noexcept { return scored_; }
  /// Sequences accumulated so far (including any without a scored position).
  std::int64_t sequences() const noexcept { return sequences_; }
  const tasks::task_spec& spec() const noexcept { return spec_; }

 private:
  struct seq_record {
    std::int32_t tag = 0;
    std::int64_t scored = 0;
    std::int64_t correct = 0;
    double bits = 0.0;
    std::int64_t crossings = 0, crossings_correct = 0;  ///< positions where the label flips
  };
  using breakdown_t = std::vector<std::pair<std::string, std::string>>;

  void validate(const tasks::sequence_batch& batch, const tasks::prediction& pred) const {
    auto fail = [](const std::string& what) { throw std::invalid_argument("sequence_evaluator::add: " + what); };
    const std::int32_t B = batch.batch_size;
    const std::int32_t T = batch.length;
    if (B < 0 || T < 0) fail("negative batch size or length");
    const std::size_t cells = static_cast<std::size_t>(B) * static_cast<std::size_t>(T);
    if (batch.targets.size() != cells || batch.mask.size() != cells)
      fail("batch targets/mask do not hold batch_size * length entries");
    if (!spec_.tag_name.empty() && batch.tags.size() != static_cast<std::size_t>(B))
      fail("batch tags do not hold batch_size entries");
    const std::int32_t w = spec_.logits_per_position();
    if (pred.batch_size != B || pred.length != T || pred.width != w)
      fail("prediction shape (" + std::to_string(pred.batch_size) + ", " + std::to_string(pred.length) + ", " +
           std::to_string(pred.width) + ") does not match batch and spec (" + std::to_string(B) + ", " +
           std::to_string(T) + ", " + std::to_string(w) + ")");
    if (pred.logits.size() != cells * static_cast<std::size_t>(w)) fail("prediction logits have the wrong size");
    const bool final_kind = spec_.output != tasks::output_kind::binary_per_position;
    const std::int32_t classes = spec_.output == tasks::output_kind::class_final ? spec_.num_classes : 2;
    for (std::int32_t b = 0; b < B; ++b) {
      std::int32_t scored = 0;
      for (std::int32_t t = 0; t < T; ++t) {
        if (!batch.scored(b, t)) continue;
        ++scored;
        const std::int32_t y = batch.target(b, t);
        if (y < 0 || y >= classes)
          fail("target " + std::to_string(y) + " at sequence " + std::to_string(b) + ", position " +
               std::to_string(t) + " is outside [0, " + std::to_string(classes) + ")");
      }
      if (final_kind && scored > 1)
        fail("sequence " + std::to_string(b) + " has " + std::to_string(scored) + " scored positions; " +
             std::string(tasks::to_string(spec_.output)) + " allows one");
    }
  }

  static metric_value base(std::string name, std::string unit, better dir, std::int64_t n, std::string n_unit) {
    metric_value m;
    m.metric = std::move(name);
    m.unit = std::move(unit);
    m.direction = dir;
    m.n = n;
    m.n_unit = std::move(n_unit);
    return m;
  }

  static std::optional<interval> clip(interval iv, double lo, double hi, const char* method) {
    if (!std::isfinite(iv.low) || !std::isfinite(iv.high)) return std::nullopt;
    iv.low = std::clamp(iv.low, lo, hi);
    iv.high = std::clamp(iv.high, lo, hi);
    iv.method = method;
    return iv;
  }

  static double scored_of(const seq_record& r) { return static_cast<double>(r.scored); }

  /// Cluster t interval of sum(num) / sum(den) over the records with den > 0,
  /// or nothing for fewer than 2 of them or a non-finite value. A fraction
  /// (hi == 1) whose sequences all score alike gets the Wilson interval over
  /// those sequences instead of the t interval's zero width.
  template <class Num, class Den = double (*)(const seq_record&)>
  static std::optional<interval> over_sequences(const std::vector<const seq_record*>& recs, Num num, double lo,
                                                double hi, Den den = &scored_of) {
    std::vector<double> totals, sizes;
    totals.reserve(recs.size());
    sizes.reserve(recs.size());
    bool alike = true;
    for (const auto* r : recs) {
      const double size = den(*r);
      if (!(size > 0)) continue;
      totals.push_back(num(*r));
      sizes.push_back(size);
      alike = alike && totals.back() * sizes.front() == totals.front() * size;
    }
    if (totals.size() < 2) return std::nullopt;
    const interval t = cluster_t_interval(totals, sizes);
    if (alike && hi == 1.0 && std::isfinite(t.low)) {
      const auto n = static_cast<std::int64_t>(totals.size());
      const auto successes = static_cast<std::int64_t>(std::llround(totals.front() / sizes.front() * static_cast<double>(n)));
      interval w = wilson_interval(successes, n);
      w.method = "Wilson over sequences (every sequence alike)";
      return w;
    }
    return clip(t, lo, hi, "t over sequences");
  }

  static std::int64_t sum_scored(const std::vector<const seq_record*>& recs) {
    std::int64_t s = 0;
    for (const auto* r : recs) s += r->scored;
    return s;
  }
  static std::int64_t sum_correct(const std::vector<const seq_record*>& recs) {
    std::int64_t s = 0;
    for (const auto* r : recs) s += r->correct;
    return s;
  }

  metric_value per_position_accuracy(const std::vector<const seq_record*>& recs, const breakdown_t& bd) const {
    const std::int64_t n = sum_scored(recs);
    metric_value m = base("per_position_accuracy", "fraction", better::higher, n, "positions");
    m.value = static_cast<double>(sum_correct(recs)) / static_cast<double>(n);
    m.ci = over_sequences(recs, [](const seq_record& r) { return static_cast<double>(r.correct); }, 0.0, 1.0);
    m.breakdown = bd;
    return m;
  }

  static metric_value error_rate_from(const metric_value& acc) {
    metric_value m = base("error_rate", "fraction", better::lower, acc.n, acc.n_unit);
    m.value = 1.0 - acc.value;
    if (acc.ci) m.ci = interval{1.0 - acc.ci->high, 1.0 - acc.ci->low, acc.ci->method};
    m.breakdown = acc.breakdown;
    return m;
  }

  metric_value full_sequence_accuracy(const std::vector<const seq_record*>& recs, const breakdown_t& bd) const {
    const auto n = static_cast<std::int64_t>(recs.size());
    std::int64_t all_right = 0;
    for (const auto* r : recs) all_right += r->correct == r->scored ? 1 : 0;
    metric_value m = base("full_sequence_accuracy", "fraction", better::higher, n, "sequences");
    m.value = static_cast<double>(all_right) / static_cast<double>(n);
    m.ci = wilson_interval(all_right, n);
    m.breakdown = bd;
    return m;
  }

  metric_value balanced_accuracy(const char* n_unit) const {
    metric_value m = base("balanced_accuracy", "fraction", better::higher, positives_ + negatives_, n_unit);
    const double tpr = positives_ > 0 ? static_cast<double>(true_positives_) / static_cast<double>(positives_) : 0.0;
    const double tnr = negatives_ > 0 ? static_cast<double>(true_negatives_) / static_cast<double>(negatives_) : 0.0;
    // A class that never occurs as a target has no rate; the other one stands alone.
    if (positives_ > 0 && negatives_ > 0)
      m.value = 0.5 * (tpr + tnr);
    else
      m.value = positives_ > 0 ? tpr : tnr;
    return m;
  }

  metric_value accuracy_by_position() const {
    metric_value m = base("accuracy_by_position", "fraction", better::higher, 0, "position indices");
    m.series_axis = "position";
    m.series.assign(pos_scored_.size(), std::numeric_limits<double>::quiet_NaN());
    std::vector<double> scored_values;
    for (std::size_t t = 0; t < pos_scored_.size(); ++t) {
      if (pos_scored_[t] == 0) continue;
      m.series[t] = static_cast<double>(pos_correct_[t]) / static_cast<double>(pos_scored_[t]);
      scored_values.push_back(m.series[t]);
    }
    m.n = static_cast<std::int64_t>(scored_values.size());
    m.value = summarize(scored_values).mean;
    return m;
  }

  metric_value cross_entropy(const std::vector<const seq_record*>& recs, const char* n_unit) const {
    std::vector<double> bits;
    bits.reserve(recs.size());
    for (const auto* r : recs) bits.push_back(r->bits);
    const std::int64_t positions = sum_scored(recs);
    const bool per_position = spec_.output == tasks::output_kind::binary_per_position;
    metric_value m = base("cross_entropy", "bits", better::lower,
                          per_position ? positions : static_cast<std::int64_t>(recs.size()), n_unit);
    m.value = compensated_sum(bits) / static_cast<double>(positions);
    if (std::isfinite(m.value))
      m.ci = over_sequences(recs, [](const seq_record& r) { return r.bits; }, 0.0,
                            std::numeric_limits<double>::infinity());
    return m;
  }

  metric_value final_accuracy(const std::vector<const seq_record*>& recs, const breakdown_t& bd) const {
    const auto n = static_cast<std::int64_t>(recs.size());
    const std::int64_t k = sum_correct(recs);
    metric_value m = base("accuracy", "fraction", better::higher, n, "sequences");
    m.value = static_cast<double>(k) / static_cast<double>(n);
    m.ci = wilson_interval(k, n);
    m.breakdown = bd;
    return m;
  }

  metric_value final_error_rate(const std::vector<const seq_record*>& recs, const breakdown_t& bd) const {
    const auto n = static_cast<std::int64_t>(recs.size());
    const std::int64_t wrong = n - sum_correct(recs);
    metric_value m = base("error_rate", "fraction", better::lower, n, "sequences");
    m.value = static_cast<double>(wrong) / static_cast<double>(n);
    m.ci = wilson_interval(wrong, n);
    m.breakdown = bd;
    return m;
  }

  std::string tag_label(std::int32_t tag) const {
    if (tag >= 0 && static_cast<std::size_t>(tag) < spec_.tag_labels.size())
      return spec_.tag_labels[static_cast<std::size_t>(tag)];
    return std::to_string(tag);
  }

  tasks::task_spec spec_;
  std::int64_t sequences_ = 0;
  std::int64_t scored_ = 0;
  std::vector<seq_record> records_;  // sequences with at least one scored position
  std::int64_t positives_ = 0, true_positives_ = 0, negatives_ = 0, true_negatives_ = 0;
  std::int64_t crossings_ = 0, crossings_correct_ = 0;
  std::vector<std::int64_t> pos_scored_, pos_correct_;  // per position, binary_per_position only
};

}  // namespace metrics
BEM_NAMESPACE_END
