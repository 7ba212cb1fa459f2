// A plugin whose task throws while generating test data and whose model
// throws while predicting: the driver must record each failure with its text
// and go on with the rest of the suite. A model that ends its process
// (signal, abort, exit) or hangs must fail its own run only. It also carries
// a small microbenchmark that counts, and one that throws, a model whose
// best epoch is its first (for the driver's checkpoint restore), and a task,
// a model and a benchmark that throw in whichever call their `throws_in`
// parameter names, or hand the host's callbacks what the host cannot record.
#include <bem/plugin/adapter.hpp>
#include <tasks/temporal.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

struct throwing_task : bem::tasks::txc_task {
  static constexpr const char* name = "throwing_task";
  static constexpr const char* version = "1";
  static constexpr const char* description = "TXC whose test split throws";
  using txc_task::txc_task;
  void generate(std::size_t split, std::uint64_t seed, std::int64_t first, std::int32_t count,
                bem::tasks::sequence_batch& out) const {
    if (splits().at(split).role == bem::tasks::split_role::test)
      throw std::runtime_error("deliberate failure while generating test data");
    txc_task::generate(split, seed, first, count, out);
  }
};

struct throwing_model {
  static constexpr const char* name = "throwing_model";
  static constexpr const char* version = "1";
  static constexpr const char* description = "learns nothing and throws when asked to predict";
  explicit throwing_model(bem::parameters&) {}
  void reset(const bem::tasks::task_spec&, std::uint64_t) {}
  void set_learning(bool) {}
  double learn(const bem::tasks::sequence_batch&) { return 0.0; }
  void predict(const bem::tasks::sequence_batch&, bem::tasks::prediction&) {
    throw std::logic_error("deliberate failure in predict");
  }
  std::size_t parameter_count() const { return 0; }
};

/// Misbehaves in predict, as a buggy plugin can: `how` is "segv" (a
/// signal), "abort", "exit" (exit(0) halfway through the run), "hang",
/// "leave" (starts a process that outlives the run, holding every
/// descriptor, and then predicts normally) or "torn" (appends half a record
/// to `torn_file`, then SIGSEGV: a process dying in the middle of a write).
/// With `pid_file`, "hang" and "leave" first start a process that sleeps and
/// write its pid there.
struct crashing_model {
  static constexpr const char* name = "crashing_model";
  static constexpr const char* version = "1";
  static constexpr const char* description = "ends its process, hangs or leaves processes behind in predict";
  explicit crashing_model(bem::parameters& p)
      : how_(p.get_string("how", "segv")), pid_file_(p.get_string("pid_file", "")),
        torn_file_(p.get_string("torn_file", "")) {
    if (how_ != "segv" && how_ != "abort" && how_ != "exit" && how_ != "hang" && how_ != "leave" && how_ != "torn")
      throw bem::parameter_error("how", "one of segv, abort, exit, hang, leave, torn");
  }
  void reset(const bem::tasks::task_spec&, std::uint64_t) {}
  void set_learning(bool) {}
  double learn(const bem::tasks::sequence_batch&) { return 0.0; }
  void predict(const bem::tasks::sequence_batch&, bem::tasks::prediction&) {
    if (how_ == "segv") std::raise(SIGSEGV);
    if (how_ == "abort") std::abort();
    if (how_ == "exit") std::exit(0);
    if (how_ == "torn") {
      const int fd = ::open(torn_file_.c_str(), O_WRONLY | O_APPEND);
      (void)!::write(fd, "{\"run_id\":\"half", 15);
      std::raise(SIGSEGV);
    }
    if ((how_ == "hang" || how_ == "leave") && !pid_file_.empty() && !started_) {
      started_ = true;
      const pid_t child = ::fork();
      if (child == 0) {
        ::sleep(60);
        ::_exit(0);
      }
      std::ofstream(pid_file_) << child << "\n";
    }
    if (how_ == "leave") return;
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  std::size_t parameter_count() const { return 0; }

 private:
  std::string how_, pid_file_, torn_file_;
  bool started_ = false;
};

/// Breaks law 1: its predictions change from call to call with learning off.
struct impure_model {
  static constexpr const char* name = "impure_model";
  static constexpr const char* version = "1";
  static constexpr const char* description = "changes its answers with learning off (violates law 1)";
  explicit impure_model(bem::parameters&) {}
  void reset(const bem::tasks::task_spec&, std::uint64_t) {}
  void set_learning(bool) {}
  double learn(const bem::tasks::sequence_batch&) { return 0.0; }
  void predict(const bem::tasks::sequence_batch&, bem::tasks::prediction& out) {
    calls_ += 1.0f;
    for (float& l : out.logits) l = calls_;
  }
  std::size_t parameter_count() const { return 1; }

 private:
  float calls_ = 0;
};

/// Answers "1" everywhere after its first learn() call and "0" after any
/// other: on FSM (mostly 1s) its first epoch is its best. It keeps
/// checkpoints, so the driver can test the first epoch's state.
struct first_epoch_best_model {
  static constexpr const char* name = "first_epoch_best_model";
  static constexpr const char* version = "1";
  static constexpr const char* description = "right after one learn() call, worse after more; keeps checkpoints";
  explicit first_epoch_best_model(bem::parameters&) {}
  void reset(const bem::tasks::task_spec&, std::uint64_t) { learned_ = kept_ = 0; }
  void set_learning(bool) {}
  double learn(const bem::tasks::sequence_batch&) { return static_cast<double>(++learned_); }
  void predict(const bem::tasks::sequence_batch&, bem::tasks::prediction& out) {
    for (float& l : out.logits) l = learned_ == 1 ? 4.0f : -4.0f;
  }
  std::size_t parameter_count() const { return 1; }
  void keep_checkpoint() { kept_ = learned_; }
  void restore_checkpoint() { learned_ = kept_; }

 private:
  int learned_ = 0, kept_ = 0;
};

/// Emits one deterministic record per size and one timing record.
struct counting_benchmark {
  static constexpr const char* name = "counting_benchmark";
  static constexpr const char* version = "1";
  static constexpr const char* description = "sums PRNG outputs; a deterministic checksum per size";
  explicit counting_benchmark(bem::parameters& p) : sizes_(p.get_int_list("sizes", {10, 100})) {
    for (auto n : sizes_)
      if (n < 1) throw bem::parameter_error("sizes", "must be positive");
  }
  void run(std::uint64_t seed, bem::benchmark_sink& sink) {
    for (auto n : sizes_) {
      bem::xoshiro256ss rng(seed);
      std::uint64_t sum = 0;
      for (std::int64_t i = 0; i < n; ++i) sum += rng.next() >> 40;
      bem::benchmark_record r;
      r.split = "n=" + std::to_string(n);
      r.condition = {bem::tasks::number_field("n", n)};
      r.value.metric = "checksum";
      r.value.value = static_cast<double>(sum);
      r.value.unit = "sum";
      r.value.n = n;
      r.value.n_unit = "draws";
      sink.emit(r);
      r.value.metric = "fake_seconds";
      r.value.value = 0.5;
      r.value.unit = "s";
      r.value.direction = bem::metrics::better::lower;
      r.timing = true;
      sink.emit(r);
    }
  }

 private:
  std::vector<std::int64_t> sizes_;
};

struct throwing_benchmark {
  static constexpr const char* name = "throwing_benchmark";
  static constexpr const char* version = "1";
  static constexpr const char* description = "throws after its first record";
  explicit throwing_benchmark(bem::parameters&) {}
  void run(std::uint64_t, bem::benchmark_sink& sink) {
    bem::benchmark_record r;
    r.value.metric = "before_failure";
    r.value.value = 1;
    sink.emit(r);
    throw std::runtime_error("deliberate failure in a microbenchmark");
  }
};

/// Throws "deliberate failure in CALL" when `call` is the one named.
void throw_if(const std::string& throws_in, const char* call) {
  if (throws_in == call) throw std::runtime_error(std::string("deliberate failure in ") + call);
}


/// TXC, throwing in `create` or `generate` when throws_in says so.
struct faulty_task : bem::tasks::txc_task {
  static constexpr const char* name = "faulty_task";
  static constexpr const char* version = "1";
  static constexpr const char* description = "TXC that throws in the call named by throws_in";
  explicit faulty_task(bem::parameters& p) : txc_task(p), throws_in_(p.get_string("throws_in", "none")) {
    throw_if(throws_in_, "create");
  }
  void generate(std::size_t split, std::uint64_t seed, std::int64_t first, std::int32_t count,
                bem::tasks::sequence_batch& out) const {
    throw_if(throws_in_, "generate");
    txc_task::generate(split, seed, first, count, out);
  }
  std::string throws_in_;
};

/// Throws in the call that throws_in names: create, reset, set_learning,
/// learn, predict, parameter_count, report, diagnose, keep_checkpoint,
/// restore_checkpoint, machine_configuration; or sends the host a figure it refuses ("host_report":
/// named like the driver's end record) or a series without a name
/// ("host_diagnose"). Otherwise it
/// is first_epoch_best_model: on FSM its first epoch is its best, so the
/// driver keeps a checkpoint and restores it.
struct faulty_model {
  static constexpr const char* name = "faulty_model";
  static constexpr const char* version = "1";
  static constexpr const char* description = "throws in the call named by throws_in";
  explicit faulty_model(bem::parameters& p) : throws_in_(p.get_string("throws_in", "none")) {
    throw_if(throws_in_, "create");
  }
  void reset(const bem::tasks::task_spec&, std::uint64_t) {
    throw_if(throws_in_, "reset");
    learned_ = kept_ = 0;
  }
  void set_learning(bool) { throw_if(throws_in_, "set_learning"); }
  double learn(const bem::tasks::sequence_batch&) {
    throw_if(throws_in_, "learn");
    return static_cast<double>(++learned_);
  }
  void predict(const bem::tasks::sequence_batch&, bem::tasks::prediction& out) {
    throw_if(throws_in_, "predict");
    for (float& l : out.logits) l = learned_ == 1 ? 4.0f : -4.0f;
  }
  std::size_t parameter_count() const {
    throw_if(throws_in_, "parameter_count");
    return 1;
  }
  template <class F>
  void report(F&& emit) const {
    throw_if(throws_in_, "report");
    emit(throws_in_ == "host_report" ? "run_wall_time" : "learn_calls", static_cast<double>(learned_), "calls");
  }
  template <class F>
  void diagnose(const bem::tasks::sequence_batch& b, F&& emit) {
    throw_if(throws_in_, "diagnose");
    const std::vector<double> ones(static_cast<std::size_t>(b.length), 1.0);
    emit(throws_in_ == "host_diagnose" ? "" : "one_by_position", std::span<const double>(ones), "one");
  }
  void keep_checkpoint() {
    throw_if(throws_in_, "keep_checkpoint");
    kept_ = learned_;
  }
  void restore_checkpoint() {
    throw_if(throws_in_, "restore_checkpoint");
    learned_ = kept_;
  }
  std::string machine_configuration() const {
    throw_if(throws_in_, "machine_configuration");
    return R"({"N":8,"W":64})";
  }

 private:
  std::string throws_in_;
  int learned_ = 0, kept_ = 0;
};

/// One record, then throws in create or run as throws_in says, or sends a
/// record whose condition is not JSON ("host_record").
struct faulty_benchmark {
  static constexpr const char* name = "faulty_benchmark";
  static constexpr const char* version = "1";
  static constexpr const char* description = "throws in the call named by throws_in";
  explicit faulty_benchmark(bem::parameters& p) : throws_in_(p.get_string("throws_in", "none")) {
    throw_if(throws_in_, "create");
  }
  void run(std::uint64_t, bem::benchmark_sink& sink) {
    bem::benchmark_record r;
    r.value.metric = "before_failure";
    r.value.value = 1;
    if (throws_in_ == "host_record") r.condition = {{"key", "not JSON"}};
    sink.emit(r);
    throw_if(throws_in_, "run");
  }

 private:
  std::string throws_in_;
};

}  // namespace

BEM_PLUGIN("throwing", "1", BEM_TASKS(throwing_task, faulty_task),
           BEM_MODELS(throwing_model, crashing_model, impure_model, first_epoch_best_model, faulty_model),
           BEM_BENCHMARKS(counting_benchmark, throwing_benchmark, faulty_benchmark))
