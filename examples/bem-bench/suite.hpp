// Suite files: which (task, model, parameters, seed) runs to measure.
#pragma once

#include <bem/harness/parameters.hpp>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench_driver {

/// A configuration error; the message starts with "file:line:column: ".
class config_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct source_location {
  std::string file;
  int line = 0;
  int column = 0;
  std::string str() const { return file + ":" + std::to_string(line) + ":" + std::to_string(column); }
};

/// How a run trains and evaluates (the BEM 3.x protocol knobs).
struct protocol {
  std::int64_t batch_size = 256;
  std::int64_t train_sequences = 4096;      ///< training sequences per epoch (0: no training)
  std::int64_t epochs = 1;
  std::int64_t validation_sequences = 0;    ///< held-out sequences checked after each epoch
  std::int64_t patience = 0;                ///< epochs without improvement before stopping (0: never)
  std::int64_t test_sequences = 10000;      ///< per test split
  std::int64_t diagnostic_sequences = 256;  ///< held-out sequences for a model's diagnostics (0: none)
  /// With validation: test the best validation epoch's weights (models that
  /// keep checkpoints), not the last epoch's.
  bool restore_best = true;
  std::map<std::string, bem::parameter_value> as_values() const;
};

/// One run: a task, a model, their parameters, a protocol and a seed.
struct run_spec {
  std::string label;
  std::string task;
  std::string model;
  std::map<std::string, bem::parameter_value> task_params;   ///< as given in the suite
  std::map<std::string, bem::parameter_value> model_params;  ///< as given in the suite
  protocol proto;
  std::uint64_t seed = 1;
  source_location where;                                     ///< the [[run]] table
  std::map<std::string, source_location> key_where;          ///< "params.length" -> where it was written
};

struct suite {
  std::string name;
  std::string description;
  std::string source;  ///< file name, or "<embedded quick suite>"
  std::vector<run_spec> runs;
};

/// Parses suite text; throws config_error naming file, line and column.
suite parse_suite(const std::string& text, const std::string& source_name);
/// Reads and parses a suite file.
suite load_suite_file(const std::string& path);
/// The embedded default suite.
suite quick_suite();

/// Location of a parameter for an error message: the key if known, else the run.
source_location locate(const run_spec& run, const std::string& table, const std::string& key);

}  // namespace bench_driver
