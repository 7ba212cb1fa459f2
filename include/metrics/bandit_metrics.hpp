// What BEM suite section 5.2.3 measures after a change of a non-stationary
// bandit, from the regret of every round (r_t = mu*_t(X_t) - mu_{a_t}(X_t)).
//
//   time_to_threshold(r, from, end, window, threshold)
//       the least tau >= 0 such that the mean of r over the `window` rounds
//       [from + tau, from + tau + window) is <= threshold, every window
//       inside [from, end) (window is cut to end - from where the span is
//       shorter). Where no window is, `reached` is false and tau is the
//       first one that did not fit, end - from - window + 1: a censored
//       value, "not within the segment".
//   respond_to_change(r, change, end, spike_window, adaptation_window, threshold)
//       spike            sum of r over [change, change + W)      (item 1)
//       rate_before      mean of r over [change - W, change)
//       adaptation       time_to_threshold from the change with `threshold`
//                                                                (item 2)
//       recovery         the same with rate_before as the threshold: the
//                        rounds until the policy is as good as before
//       with W = spike_window; the caller keeps both windows inside the
//       segments (change - W >= the previous change, change + W <= end).
// Sums come from one prefix-sum array, so each is O(1) and the search O(end -
// change).
#pragma once

#include <bem/version.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace metrics {

/// Prefix sums of a round series: s[0] = 0, s[t + 1] = s[t] + r[t].
class regret_prefix {
 public:
  explicit regret_prefix(std::span<const double> r) : s_(r.size() + 1, 0.0) {
    for (std::size_t t = 0; t < r.size(); ++t) s_[t + 1] = s_[t] + r[t];
  }
  /// Sum of r over [from, to).
  double sum(std::int64_t from, std::int64_t to) const {
    if (from < 0 || from > to || to >= static_cast<std::int64_t>(s_.size()))
      throw std::out_of_range("regret_prefix: rounds outside the series");
    return s_[static_cast<std::size_t>(to)] - s_[static_cast<std::size_t>(from)];
  }
  std::int64_t rounds() const noexcept { return static_cast<std::int64_t>(s_.size()) - 1; }

 private:
  std::vector<double> s_;
};

struct threshold_time {
  std::int64_t rounds = 0;  ///< tau (censored where !reached)
  bool reached = false;
  std::int64_t window = 0;  ///< the window used (cut to the span)
};

inline threshold_time time_to_threshold(const regret_prefix& r, std::int64_t from, std::int64_t end,
                                        std::int64_t window, double threshold) {
  if (window < 1 || from >= end) throw std::invalid_argument("time_to_threshold: need window >= 1 and from < end");
  threshold_time out;
  out.window = std::min(window, end - from);
  std::int64_t tau = 0;
  while (from + tau + out.window <= end &&
         r.sum(from + tau, from + tau + out.window) > threshold * static_cast<double>(out.window))
    ++tau;
  out.rounds = tau;
  out.reached = from + tau + out.window <= end;
  return out;
}

struct change_response {
  double spike = 0;        ///< regret in the W rounds after the change
  double rate_before = 0;  ///< mean regret per round in the W rounds before it
  threshold_time adaptation, recovery;
};

inline change_response respond_to_change(const regret_prefix& r, std::int64_t change, std::int64_t end,
                                         std::int64_t spike_window, std::int64_t adaptation_window,
                                         double threshold) {
  const std::int64_t W = spike_window;
  if (W < 1 || change - W < 0 || change + W > end || end > r.rounds())
    throw std::invalid_argument("respond_to_change: the windows around the change must lie inside the series");
  change_response c;
  c.spike = r.sum(change, change + W);
  c.rate_before = r.sum(change - W, change) / static_cast<double>(W);
  c.adaptation = time_to_threshold(r, change, end, adaptation_window, threshold);
  c.recovery = time_to_threshold(r, change, end, adaptation_window, c.rate_before);
  return c;
}

}  // namespace metrics
BEM_NAMESPACE_END
