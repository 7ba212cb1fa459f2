// One reported number: the common currency of sequence metrics and
// microbenchmarks, turned into a result record by the driver
// (metrics/records.hpp describes the record).
#pragma once

#include <bem/version.hpp>
#include <metrics/statistics.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace metrics {

/// Which direction of a metric is better.
enum class better { higher, lower, none };

constexpr std::string_view to_string(better b) noexcept {
  switch (b) {
    case better::higher: return "higher";
    case better::lower: return "lower";
    case better::none: return "none";
  }
  return "unknown";
}

/// One reported number with its uncertainty and provenance.
struct metric_value {
  std::string metric;                ///< e.g. "per_position_accuracy"
  double value = 0.0;
  std::string unit;                  ///< "fraction", "bits"
  std::optional<interval> ci;        ///< 95%
  better direction = better::none;
  std::int64_t n = 0;                ///< units behind the value
  std::string n_unit;                ///< "sequences", "positions"
  std::vector<std::pair<std::string, std::string>> breakdown;  ///< e.g. {{"max_depth_bucket", "3-4"}}
  std::vector<double> series;        ///< e.g. accuracy at position 1..T (empty if none)
  std::string series_axis;           ///< e.g. "position"
};

/// A plain measurement, the case nearly every record is: the fields a plugin
/// always fills, in one call (an interval, breakdown or series is added to
/// the result).
inline metric_value scalar_metric(std::string metric, double value, std::string unit, better direction,
                                  std::int64_t n, std::string n_unit) {
  metric_value v;
  v.metric = std::move(metric);
  v.value = value;
  v.unit = std::move(unit);
  v.direction = direction;
  v.n = n;
  v.n_unit = std::move(n_unit);
  return v;
}

}  // namespace metrics
BEM_NAMESPACE_END
