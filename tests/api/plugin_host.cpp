// The plugin host against real modules: the user-written example plugin
// (examples/custom_task_plugin) loaded with dlopen through
// bem::plugin_registry and driven only through the C interface, and the
// broken modules of tests/api/bad_plugins, each with its own load error.
//
// Module paths come from the environment (set by tests/api/meson.build):
// BEM_TEST_CUSTOM_PLUGIN, BEM_TEST_NO_ENTRY, BEM_TEST_ABI999,
// BEM_TEST_INVALID_TABLE, BEM_TEST_ABI1, BEM_TEST_HAND_TABLES_{1..6}.
#include <bem/plugin/adapter.hpp>
#include <bem/plugin/host.hpp>
#include <bem/prng.hpp>
#include <doctest/doctest.h>
#include <tasks/laws.hpp>

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fs = std::filesystem;
using namespace bem::tasks;

namespace {

std::string module_path(const char* variable) {
  const char* v = std::getenv(variable);
  REQUIRE_MESSAGE(v != nullptr, variable << " is not set (run through meson test)");
  REQUIRE_MESSAGE(fs::exists(v), variable << "=" << v << " does not exist");
  return fs::weakly_canonical(v).string();
}

/// A task seen only through the C table, as a sequence_task, so that
/// bem::tasks::check_task_laws checks the plugin end to end: parameters in
/// as TOML, spec, splits and batches out through bem/plugin/abi.h.
struct c_task_view {
  const bem::task_instance& task;
  task_spec spec() const { return bem::detail::spec_from_c(task.c_spec()); }
  std::vector<split_info> splits() const {
    std::vector<split_info> out;
    for (std::int32_t i = 0; i < task.split_count(); ++i) {
      const bem_split_v1 s = task.split(i);
      out.push_back({s.name, static_cast<split_role>(s.role), s.length, {}});
    }
    return out;
  }
  void generate(std::size_t split, std::uint64_t seed, std::int64_t first, std::int32_t count,
                sequence_batch& out) const {
    task.generate(static_cast<std::int32_t>(split), seed, first, count, out);
  }
};
static_assert(sequence_task<c_task_view>);

/// Whether the dynamic loader still holds `path` (RTLD_NOLOAD never loads).
bool is_loaded(const std::string& path) {
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (h == nullptr) return false;
  dlclose(h);
  return true;
}

std::string plugin_error_text(const bem_task_type_v1* type, const std::string& toml) {
  try {
    bem::task_instance t(type, toml);
  } catch (const bem::plugin_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the example plugin loads and describes itself") {
  const std::string path = module_path("BEM_TEST_CUSTOM_PLUGIN");
  bem::plugin_registry registry;
  REQUIRE(registry.load_file(path));
  CHECK(registry.failures().empty());
  REQUIRE(registry.plugins().size() == 1);
  CHECK(registry.plugins()[0].plugin == "custom_example");
  CHECK(registry.plugins()[0].path == path);
  CHECK(registry.plugins()[0].library_abi_tag == bem::abi_tag);
  REQUIRE(registry.tasks().size() == 1);
  const bem::task_entry* entry = registry.find_task("last_token_count");
  REQUIRE(entry != nullptr);
  CHECK(std::string(entry->type->version) == "1");
  CHECK(entry->type->reference_model != nullptr);
  CHECK(registry.load_file(path));  // a second load of the same file is a no-op
  CHECK(registry.plugins().size() == 1);
}

TEST_CASE("the example plugin's task obeys the task laws through the C interface") {
  bem::plugin_registry registry;
  REQUIRE(registry.load_file(module_path("BEM_TEST_CUSTOM_PLUGIN")));
  const bem_task_type_v1* type = registry.find_task("last_token_count")->type;

  bem::task_instance task(type, "vocab = 3\nlength = 10\ntest_lengths = [1, 7, 40]");
  CHECK(task.effective_parameters() == R"({"length":10,"max_count":7,"test_lengths":[1,7,40],"vocab":3})");
  const c_task_view view{task};
  CHECK(check_task_laws(view, 11, 32) == "");  // laws 1-6: determinism, independence, shape, mask...

  const task_spec spec = view.spec();
  CHECK(spec.vocab_size == 3);
  CHECK(spec.output == output_kind::class_final);
  CHECK(spec.num_classes == 8);
  CHECK(spec.token_names == std::vector<std::string>{"s0", "s1", "s2"});
  const auto splits = view.splits();
  REQUIRE(splits.size() == 5);
  CHECK(splits[0].name == "train");
  CHECK(splits[0].role == split_role::train);
  CHECK(splits[1].role == split_role::validation);
  CHECK(splits[4].name == "test/T=40");
  CHECK(splits[4].length == 40);
  CHECK(std::string(task.split(4).condition_json) == R"({"length":40})");

  SUBCASE("determinism: a second instance gives the same bytes; another seed does not") {
    bem::task_instance again(type, "vocab = 3\nlength = 10\ntest_lengths = [1, 7, 40]");
    sequence_batch a, b, c;
    task.generate(4, 99, 5, 64, a);
    again.generate(4, 99, 5, 64, b);
    task.generate(4, 100, 5, 64, c);
    CHECK(a.inputs == b.inputs);
    CHECK(a.targets == b.targets);
    CHECK(a.mask == b.mask);
    CHECK(a.lengths == b.lengths);
    CHECK(a.inputs != c.inputs);
  }
  SUBCASE("shape and mask: one scored position, the last real one, padding is zero") {
    sequence_batch a;
    task.generate(4, 3, 0, 200, a);
    REQUIRE(a.batch_size == 200);
    REQUIRE(a.length == 40);
    bool saw_short = false, saw_full = false, saw_nonzero = false;
    for (std::int32_t b = 0; b < a.batch_size; ++b) {
      const std::int32_t n = a.lengths[static_cast<std::size_t>(b)];
      CHECK(n >= 20);
      CHECK(n <= 40);
      saw_short = saw_short || n == 20;
      saw_full = saw_full || n == 40;
      int scored = 0;
      for (std::int32_t t = 0; t < a.length; ++t) {
        scored += a.scored(b, t) ? 1 : 0;
        if (t >= n) CHECK(a.input(b, t) == 0);
      }
      CHECK(scored == 1);
      CHECK(a.scored(b, n - 1));
      std::int32_t before = 0;
      for (std::int32_t t = 0; t + 1 < n; ++t) before += a.input(b, t) == a.input(b, n - 1) ? 1 : 0;
      CHECK(a.target(b, n - 1) == std::min(before, 7));
      saw_nonzero = saw_nonzero || a.target(b, n - 1) > 0;
    }
    CHECK(saw_short);  // lengths cover [ceil(T/2), T]
    CHECK(saw_full);
    CHECK(saw_nonzero);
  }
}

TEST_CASE("the example plugin's data is pinned") {
  // Same seed, same bytes on every machine: a digest of the first 16 training
  // sequences under seed 1 with default parameters. Changing the
  // distribution means changing the task's version and this value.
  bem::plugin_registry registry;
  REQUIRE(registry.load_file(module_path("BEM_TEST_CUSTOM_PLUGIN")));
  bem::task_instance task(registry.find_task("last_token_count")->type, "");
  sequence_batch a;
  task.generate(0, 1, 0, 16, a);
  std::string bytes;
  for (std::size_t i = 0; i < a.inputs.size(); ++i)
    bytes += std::to_string(a.inputs[i]) + std::to_string(a.targets[i]) + std::to_string(int{a.mask[i]});
  for (auto n : a.lengths) bytes.append(1, '|').append(std::to_string(n));
  CHECK(bem::fnv1a64(bytes) == 0x43b57fe8944f6938ull);
}

TEST_CASE("the example plugin's reference model is exact through the C interface") {
  bem::plugin_registry registry;
  REQUIRE(registry.load_file(module_path("BEM_TEST_CUSTOM_PLUGIN")));
  const bem_task_type_v1* type = registry.find_task("last_token_count")->type;
  bem::task_instance task(type, "vocab = 5\nmax_count = 3\nlength = 24");
  bem::model_instance model(type->reference_model, "");
  model.reset(task.c_spec(), 1);
  model.set_learning(false);
  CHECK(model.parameter_count() == 0);
  const task_spec spec = bem::detail::spec_from_c(task.c_spec());
  for (std::int32_t s = 0; s < task.split_count(); ++s) {
    sequence_batch batch;
    prediction out;
    task.generate(s, 7, 0, 128, batch);
    out.reset_for(batch, spec);
    model.predict(batch, out);
    std::int64_t right = 0, total = 0;
    for (std::int32_t b = 0; b < batch.batch_size; ++b)
      for (std::int32_t t = 0; t < batch.length; ++t) {
        if (!batch.scored(b, t)) continue;
        const float* l = out.at(b, t);
        right += std::max_element(l, l + out.width) - l == batch.target(b, t) ? 1 : 0;
        ++total;
      }
    CHECK_MESSAGE(right == total, "split " << task.split(s).name);
    CHECK(total == 128);
  }
}

TEST_CASE("bad parameters give errors that name the parameter") {
  bem::plugin_registry registry;
  REQUIRE(registry.load_file(module_path("BEM_TEST_CUSTOM_PLUGIN")));
  const bem_task_type_v1* type = registry.find_task("last_token_count")->type;
  CHECK(plugin_error_text(type, "vocab = 1") ==
        "task 'last_token_count' create: parameter 'vocab': must lie in [2, 64], got 1");
  CHECK(plugin_error_text(type, "max_count = \"many\"") ==
        "task 'last_token_count' create: parameter 'max_count': expected an integer");
  CHECK(plugin_error_text(type, "test_lengths = [8, 0]").find("parameter 'test_lengths'") != std::string::npos);
  CHECK(plugin_error_text(type, "vocabulary = 3") ==
        "task 'last_token_count' create: parameter 'vocabulary': unknown parameter "
        "(known: length, max_count, test_lengths, vocab)");
  try {  // the plugin's own text, without the host's naming, and the plugin named when the caller knows it
    bem::task_instance t(type, "vocab = 1", "custom_example");
    FAIL("created");
  } catch (const bem::plugin_error& e) {
    CHECK(std::string(e.what()) ==
          "task 'last_token_count' (plugin custom_example) create: parameter 'vocab': must lie in [2, 64], got 1");
    CHECK(e.detail() == "parameter 'vocab': must lie in [2, 64], got 1");
  }
  const std::string malformed = plugin_error_text(type, "vocab = ");
  CHECK(malformed.find("last_token_count:1:") != std::string::npos);  // names where the TOML broke
}

TEST_CASE("each kind of broken module gets its own load error; the good one still loads") {
  const fs::path dir = fs::temp_directory_path() / ("bem-api-plugins-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string custom = module_path("BEM_TEST_CUSTOM_PLUGIN");
  const std::string no_entry = module_path("BEM_TEST_NO_ENTRY");
  const std::string abi999 = module_path("BEM_TEST_ABI999");
  const std::string invalid = module_path("BEM_TEST_INVALID_TABLE");
  const std::string abi1 = module_path("BEM_TEST_ABI1");
  for (const auto& m : {custom, no_entry, abi999, invalid, abi1})
    fs::create_symlink(m, dir / fs::path(m).filename());
  const std::string text = (dir / "not_a_plugin.so").string();
  std::ofstream(text) << "this is not a shared object\n";
  std::ofstream(dir / "README.txt") << "not a .so: never opened\n";

  {
    bem::plugin_registry registry;
    registry.load_search_path({dir.string()});
    REQUIRE(registry.failures().size() == 5);
    auto kind_of = [&](const std::string& path) {
      for (const auto& f : registry.failures())
        if (f.path == path) return std::string(bem::to_string(f.kind));
      return std::string("loaded");
    };
    CHECK(kind_of(fs::weakly_canonical(text).string()) == "cannot load");
    CHECK(kind_of(no_entry) == "no entry point");
    CHECK(kind_of(abi999) == "ABI mismatch");
    CHECK(kind_of(invalid) == "invalid table");
    CHECK(kind_of(abi1) == "ABI mismatch");
    CHECK(kind_of(custom) == "loaded");
    for (const auto& f : registry.failures()) {
      if (f.path == abi999) {
        CHECK(f.message.find("plugin ABI version 999") != std::string::npos);
        CHECK(f.describe().find(abi999 + ": ABI mismatch: ") == 0);
      }
      if (f.path == abi1)  // (its entry point aborts: the host never calls it)
        CHECK(f.message == "the module exports bem_plugin_entry_v1: it was built for plugin ABI 1, and this host "
                           "speaks ABI 2; rebuild it against this bem");
      if (f.path == no_entry)
        CHECK(f.message == "the module does not export bem_plugin_entry_v2 (is it a bem plugin?)");
    }
    // The others stay usable.
    REQUIRE(registry.find_task("last_token_count") != nullptr);
    bem::task_instance task(registry.find_task("last_token_count")->type, "");
    sequence_batch batch;
    task.generate(0, 1, 0, 4, batch);
    CHECK(batch.batch_size == 4);
    const std::string missing = registry.not_found_message("task", "parity");
    CHECK(missing.find("no plugin provides task 'parity'") == 0);
    CHECK(missing.find("no entry point") != std::string::npos);
    CHECK(registry.searched() == std::vector<std::string>{dir.string()});
  }

  SUBCASE("one file at a time, load_file answers false and records the kind") {
    bem::plugin_registry registry;
    CHECK_FALSE(registry.load_file(no_entry));
    CHECK_FALSE(registry.load_file(abi999));
    CHECK_FALSE(registry.load_file(text));
    CHECK_FALSE(registry.load_file((dir / "does_not_exist.so").string()));
    REQUIRE(registry.failures().size() == 4);
    CHECK(registry.failures()[0].kind == bem::load_error_kind::no_entry_point);
    CHECK(registry.failures()[1].kind == bem::load_error_kind::abi_mismatch);
    CHECK(registry.failures()[2].kind == bem::load_error_kind::cannot_load);
    CHECK(registry.failures()[3].kind == bem::load_error_kind::cannot_load);
    CHECK(registry.tasks().empty());
  }
  fs::remove_all(dir);
}

TEST_CASE("hand-written tables: every field the host uses is checked, and it reads nothing past struct_size") {
  for (const char* variant : {"1", "2"}) {
    CAPTURE(variant);
    bem::plugin_registry registry;
    CHECK_FALSE(registry.load_file(module_path((std::string("BEM_TEST_HAND_TABLES_") + variant).c_str())));
    REQUIRE(registry.failures().size() == 1);
    CHECK(registry.failures()[0].kind == bem::load_error_kind::invalid_table);
    CHECK(registry.failures()[0].message.find("task entry 0") == 0);
    CHECK(registry.tasks().empty());
  }
  bem::plugin_registry registry;
  // A table of the size before benchmarks were appended: its (refusable)
  // benchmark entry lies past struct_size and is never read.
  CHECK(registry.load_file(module_path("BEM_TEST_HAND_TABLES_3")));
  CHECK(registry.failures().empty());
  REQUIRE(registry.find_task("hand_task") != nullptr);
  CHECK(registry.benchmarks().empty());
  // Its task table ends before describe_parameters: loaded, undocumented.
  CHECK(bem::describe_parameters(registry.find_task("hand_task")->type, "task") == "");

  // A table that ends inside its own header is refused before any field
  // past struct_size is read.
  CHECK_FALSE(registry.load_file(module_path("BEM_TEST_HAND_TABLES_4")));
  REQUIRE(registry.failures().size() == 1);
  CHECK(registry.failures()[0].kind == bem::load_error_kind::abi_mismatch);
  CHECK(registry.failures()[0].message.find("(table of 8 bytes)") != std::string::npos);
}

TEST_CASE("destroying the registry really unloads the plugin") {
  // Hidden visibility and -fno-gnu-unique keep the module free of
  // STB_GNU_UNIQUE symbols, which would pin it in memory after dlclose.
  const std::string path = module_path("BEM_TEST_CUSTOM_PLUGIN");
  REQUIRE_FALSE(is_loaded(path));  // earlier tests' registries unloaded it too
  {
    bem::plugin_registry registry;
    REQUIRE(registry.load_file(path));
    {
      bem::task_instance task(registry.find_task("last_token_count")->type, "length = 16");
      sequence_batch batch;
      task.generate(0, 1, 0, 8, batch);
      bem::model_instance model(registry.find_task("last_token_count")->type->reference_model, "");
      model.reset(task.c_spec(), 1);
    }  // instances go before their module
    CHECK(is_loaded(path));  // control: the probe sees a loaded module
  }
  CHECK_FALSE(is_loaded(path));
  for (const char* bad : {"BEM_TEST_NO_ENTRY", "BEM_TEST_ABI999", "BEM_TEST_INVALID_TABLE", "BEM_TEST_ABI1"})
    CHECK_FALSE(is_loaded(module_path(bad)));  // rejected modules are closed at once
}

namespace {
/// A model with diagnostics, seen only through its C table.
struct counting_diagnostics_model {
  static constexpr const char* name = "counting_diagnostics";
  static constexpr const char* version = "1";
  static constexpr const char* description = "sends the position as its diagnostic";
  explicit counting_diagnostics_model(bem::parameters&) {}
  void reset(const task_spec&, std::uint64_t) {}
  void set_learning(bool) {}
  double learn(const sequence_batch&) { return 0.0; }
  void predict(const sequence_batch&, prediction&) {}
  std::size_t parameter_count() const { return 0; }
  template <class F>
  void diagnose(const sequence_batch& b, F&& emit) {
    std::vector<double> positions;
    for (std::int32_t t = 1; t <= b.length; ++t) positions.push_back(t);
    emit("position_by_position", std::span<const double>(positions), "position");
  }
};
}  // namespace

TEST_CASE("diagnose crosses the C interface, and a table from before it was appended still works") {
  const bem_model_type_v1* full = &bem::detail::model_adapter<counting_diagnostics_model>::type;
  sequence_batch batch;
  batch.reset(2, 5);
  std::vector<double> got;
  {
    bem::model_instance m(full, "");
    REQUIRE(m.diagnoses());
    m.diagnose(batch, [&](std::string_view metric, std::span<const double> s, std::string_view unit) {
      CHECK(metric == "position_by_position");
      CHECK(unit == "position");
      got.assign(s.begin(), s.end());
    });
  }
  CHECK(got == std::vector<double>{1, 2, 3, 4, 5});

  // The same table as a plugin built before `diagnose` existed declares it.
  bem_model_type_v1 old = *full;
  old.struct_size = static_cast<std::uint32_t>(offsetof(bem_model_type_v1, diagnose));
  bem::model_instance m(&old, "");
  CHECK_FALSE(m.diagnoses());
  bool called = false;
  m.diagnose(batch, [&](std::string_view, std::span<const double>, std::string_view) { called = true; });
  CHECK_FALSE(called);
}

namespace {
/// A model with checkpoints: its state is the number of learn() calls.
struct counting_checkpoint_model {
  static constexpr const char* name = "counting_checkpoint";
  static constexpr const char* version = "1";
  static constexpr const char* description = "predicts how often it learned; keeps checkpoints";
  explicit counting_checkpoint_model(bem::parameters&) {}
  void reset(const task_spec&, std::uint64_t) { learned_ = 0; }
  void set_learning(bool) {}
  double learn(const sequence_batch&) { return ++learned_; }
  void predict(const sequence_batch&, prediction& out) {
    for (float& l : out.logits) l = static_cast<float>(learned_);
  }
  std::size_t parameter_count() const { return 1; }
  void keep_checkpoint() { kept_ = learned_; }
  void restore_checkpoint() {
    if (kept_ < 0) throw std::logic_error("nothing kept");
    learned_ = kept_;
  }
  int learned_ = 0, kept_ = -1;
};
}  // namespace

TEST_CASE("checkpoints cross the C interface, and a table from before they were appended has none") {
  const bem_model_type_v1* full = &bem::detail::model_adapter<counting_checkpoint_model>::type;
  CHECK_UNARY(bem::detail::model_adapter<counting_diagnostics_model>::type.checkpoint == nullptr);
  task_spec spec;
  const bem_task_spec_v1 c_spec{sizeof(bem_task_spec_v1), 2, 0, 2, 0, "0\n1", "", ""};  // binary per position
  sequence_batch batch;
  batch.reset(1, 3);
  prediction out;
  out.reset_for(batch, spec);
  {
    bem::model_instance m(full, "");
    REQUIRE(m.checkpoints());
    m.reset(c_spec, 1);
    CHECK_THROWS_WITH_AS(m.restore_checkpoint(), doctest::Contains("restore_checkpoint: nothing kept"),
                         bem::plugin_error);
    m.learn(batch);
    m.keep_checkpoint();  // after one learn()
    m.learn(batch);
    m.learn(batch);
    m.predict(batch, out);
    CHECK(out.logits[0] == 3.0f);
    m.restore_checkpoint();
    m.predict(batch, out);
    CHECK(out.logits[0] == 1.0f);
  }
  bem_model_type_v1 old = *full;
  old.struct_size = static_cast<std::uint32_t>(offsetof(bem_model_type_v1, checkpoint));
  bem::model_instance m(&old, "");
  CHECK_FALSE(m.checkpoints());
  CHECK_THROWS_WITH_AS(m.keep_checkpoint(), doctest::Contains("has no checkpoints"), bem::plugin_error);
}

namespace {
/// counting_checkpoint_model on a machine: states its configuration (§6.1).
struct configured_model : counting_checkpoint_model {
  static constexpr const char* name = "configured";
  using counting_checkpoint_model::counting_checkpoint_model;
  std::string machine_configuration() const { return R"({"N":512,"W":256})"; }
};
}  // namespace

TEST_CASE("a model's machine configuration crosses the C interface; a model on no machine, or a table from before "
          "the field, has none") {
  const bem_model_type_v1* full = &bem::detail::model_adapter<configured_model>::type;
  CHECK_UNARY(bem::detail::model_adapter<counting_checkpoint_model>::type.machine_configuration == nullptr);
  const bem_task_spec_v1 c_spec{sizeof(bem_task_spec_v1), 2, 0, 2, 0, "0\n1", "", ""};
  bem::model_instance m(full, "");
  m.reset(c_spec, 1);
  CHECK(m.machine_configuration() == R"({"N":512,"W":256})");
  bem_model_type_v1 old = *full;
  old.struct_size = static_cast<std::uint32_t>(offsetof(bem_model_type_v1, machine_configuration));
  bem::model_instance o(&old, "");
  CHECK(o.machine_configuration().empty());
  bem::model_instance plain(&bem::detail::model_adapter<counting_checkpoint_model>::type, "");
  CHECK(plain.machine_configuration().empty());
}

namespace {
/// A task whose splits break one rule the host relies on (`Flaw`), or none;
/// its generate throws for the test split.
enum class split_flaw { none, empty_name, duplicate_name, zero_length };
template <split_flaw Flaw>
struct flawed_split_task {
  static constexpr const char* name = "flawed_splits";
  static constexpr const char* version = "1";
  static constexpr const char* description = "splits with one flaw";
  explicit flawed_split_task(bem::parameters&) {}
  task_spec spec() const { return {}; }
  std::vector<split_info> splits() const {
    std::vector<split_info> s{{"train", split_role::train, 4, {}}, {"test/T=4", split_role::test, 4, {}}};
    if (Flaw == split_flaw::empty_name) s.push_back({"", split_role::test, 8, {}});
    if (Flaw == split_flaw::duplicate_name) s.push_back({"train", split_role::test, 8, {}});
    if (Flaw == split_flaw::zero_length) s.push_back({"test/T=0", split_role::test, 0, {}});
    return s;
  }
  void generate(std::size_t split, std::uint64_t, std::int64_t, std::int32_t count, sequence_batch& out) const {
    if (split == 1) throw std::runtime_error("deliberate failure");
    out.reset(count, 4);
  }
};
template <split_flaw Flaw>
std::string creation_error() {
  return plugin_error_text(&bem::detail::task_adapter<flawed_split_task<Flaw>>::type, "");
}
}  // namespace

TEST_CASE("a task's splits are checked when it is created: each named, uniquely, with a length") {
  CHECK(creation_error<split_flaw::none>() == "");
  CHECK(creation_error<split_flaw::empty_name>() ==
        "task 'flawed_splits' split 2: no name (each split needs a unique name)");
  CHECK(creation_error<split_flaw::duplicate_name>() ==
        "task 'flawed_splits' split 2 ('train'): another split has the same name (records are keyed by it)");
  CHECK(creation_error<split_flaw::zero_length>() ==
        "task 'flawed_splits' split 2 ('test/T=0'): length 0 (must be at least 1)");
}

TEST_CASE("a failing generate names the split and the sequences; a split index out of range is an error") {
  bem::task_instance task(&bem::detail::task_adapter<flawed_split_task<split_flaw::none>>::type, "");
  sequence_batch batch;
  task.generate(0, 5, 0, 2, batch);
  CHECK(batch.batch_size == 2);
  CHECK_THROWS_WITH_AS(task.generate(1, 5, 8, 4, batch),
                       "task 'flawed_splits' generate (split 'test/T=4', sequences 8..11, seed 5): deliberate failure",
                       bem::plugin_error);
  CHECK_THROWS_WITH_AS(task.generate(2, 5, 0, 4, batch), "task 'flawed_splits' split 2: no such split (it has 2)",
                       bem::plugin_error);
  CHECK_THROWS_AS(task.split(-1), bem::plugin_error);
}

namespace {
/// flawed_split_task<none> whose split() answers, as changing_split_now says,
/// with a negative length or without a name: a plugin whose later answers
/// differ from those checked at creation.
enum class changing_split_answer { as_created, negative_length, no_name };
changing_split_answer changing_split_now = changing_split_answer::as_created;
bem_task_type_v1 changing_split_type() {
  bem_task_type_v1 t = bem::detail::task_adapter<flawed_split_task<split_flaw::none>>::type;
  t.split = [](void* task, std::int32_t i, bem_split_v1* out) {
    bem::detail::task_adapter<flawed_split_task<split_flaw::none>>::type.split(task, i, out);
    if (changing_split_now == changing_split_answer::negative_length) out->length = -2;
    if (changing_split_now == changing_split_answer::no_name) out->name = nullptr;
  };
  return t;
}
}  // namespace

TEST_CASE("a split is checked at every call, not only when the task is created") {
  // Found by tests/fuzz (fuzz_plugin_table): generate sized the batch by a
  // later answer's length, and a negative one threw std::length_error out
  // of std::vector; a later NULL name was read as a string.
  const bem_task_type_v1 type = changing_split_type();
  changing_split_now = changing_split_answer::as_created;
  bem::task_instance task(&type, "");
  sequence_batch batch;
  changing_split_now = changing_split_answer::negative_length;
  CHECK_THROWS_WITH_AS(task.generate(0, 5, 0, 2, batch), "task 'flawed_splits' split 0 ('train'): length -2 (must be at least 1)",
                       bem::plugin_error);
  changing_split_now = changing_split_answer::no_name;
  CHECK_THROWS_WITH_AS(task.split(1), "task 'flawed_splits' split 1: no name (each split needs a unique name)",
                       bem::plugin_error);
  changing_split_now = changing_split_answer::as_created;
  task.generate(0, 5, 0, 2, batch);
  CHECK(batch.length == 4);
}

TEST_CASE("a search path entry that does not exist is named when a lookup finds nothing") {
  const std::string typo = (fs::temp_directory_path() / "bem-no-such-plugin-dir" / "plugins").string();
  bem::plugin_registry registry;
  registry.load_search_path({typo});
  CHECK(registry.failures().empty());  // nothing was there to fail
  CHECK(registry.missing() == std::vector<std::string>{typo});
  CHECK(registry.not_found_message("task", "copy_delay") ==
        "no plugin provides task 'copy_delay'; plugin search path entries that do not exist: " + typo);
}

TEST_CASE("a second type of a name already taken is reported as shadowed, not registered") {
  bem::plugin_registry registry;
  // Tasks and benchmarks share one name space: a task named like a loaded
  // benchmark would make `task = "hand_bench"` in a suite ambiguous.
  REQUIRE(registry.load_file(module_path("BEM_TEST_HAND_TABLES_5")));
  REQUIRE(registry.find_benchmark("hand_bench") != nullptr);
  CHECK(bem::describe_parameters(registry.find_benchmark("hand_bench")->type, "benchmark") == "");
  REQUIRE(registry.load_file(module_path("BEM_TEST_HAND_TABLES_6")));
  CHECK(registry.failures().empty());
  CHECK(registry.find_task("hand_bench") == nullptr);
  CHECK(registry.tasks().empty());
  REQUIRE(registry.shadowed().size() == 1);
  CHECK(registry.shadowed()[0] == "task 'hand_bench' from " + module_path("BEM_TEST_HAND_TABLES_6"));

  // Models: the first of a name wins.
  const bem_model_type_v1* first = &bem::detail::model_adapter<counting_diagnostics_model>::type;
  const bem_model_type_v1 second = *first;
  registry.add_builtin_model(first);
  registry.add_builtin_model(&second);
  REQUIRE(registry.models().size() == 1);
  CHECK(registry.find_model(first->name)->type == first);
  REQUIRE(registry.shadowed().size() == 2);
  CHECK(registry.shadowed()[1] == std::string("model '") + first->name + "' from built-in");
}

namespace {
/// A model that throws in the call its parameter `throws_in` names; it
/// reports two figures and sends two series, then throws there if asked.
struct throwing_calls_model {
  static constexpr const char* name = "throwing_calls";
  static constexpr const char* version = "1";
  static constexpr const char* description = "throws in the call named by throws_in";
  explicit throwing_calls_model(bem::parameters& p) : throws_in_(p.get_string("throws_in", "")) {}
  void reset(const task_spec&, std::uint64_t) { maybe_throw("reset"); }
  void set_learning(bool) { maybe_throw("set_learning"); }
  double learn(const sequence_batch&) { return maybe_throw("learn"), 0.0; }
  void predict(const sequence_batch&, prediction&) { maybe_throw("predict"); }
  std::size_t parameter_count() const { return maybe_throw("parameter_count"), 3; }
  template <class F>
  void report(F&& emit) const {
    emit("first", 1.0, "unit");
    emit("second", 2.0, "unit");
    maybe_throw("report");
  }
  template <class F>
  void diagnose(const sequence_batch&, F&& emit) {
    const double series[] = {1.0, 2.0};
    emit("first_by_position", std::span<const double>(series), "unit");
    emit("second_by_position", std::span<const double>(series), "unit");
    maybe_throw("diagnose");
  }
  void maybe_throw(std::string_view call) const {
    if (call == throws_in_) throw std::runtime_error("deliberate failure in " + std::string(call));
  }
  std::string throws_in_;
};

template <class F>
std::string error_of(F&& call) {
  try {
    call();
  } catch (const bem::plugin_error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("every model call that throws in the plugin is an error naming the plugin and the call") {
  const bem_model_type_v1* type = &bem::detail::model_adapter<throwing_calls_model>::type;
  const bem_task_spec_v1 spec{sizeof(bem_task_spec_v1), 2, 0, 2, 0, "0\n1", "", ""};
  sequence_batch batch;
  batch.reset(1, 2);
  prediction out;
  out.reset_for(batch, bem::detail::spec_from_c(spec));
  const auto ignore_figure = [](std::string_view, double, std::string_view) {};
  const auto ignore_series = [](std::string_view, std::span<const double>, std::string_view) {};
  const std::vector<std::pair<std::string, std::function<void(bem::model_instance&)>>> calls = {
      {"reset", [&](bem::model_instance& m) { m.reset(spec, 1); }},
      {"set_learning", [&](bem::model_instance& m) { m.set_learning(true); }},
      {"learn", [&](bem::model_instance& m) { m.learn(batch); }},
      {"predict", [&](bem::model_instance& m) { m.predict(batch, out); }},
      {"parameter_count", [&](bem::model_instance& m) { m.parameter_count(); }},
      {"report", [&](bem::model_instance& m) { m.report(ignore_figure); }},
      {"diagnose", [&](bem::model_instance& m) { m.diagnose(batch, ignore_series); }},
  };
  for (const auto& [call, make_call] : calls) {
    CAPTURE(call);
    bem::model_instance quiet(type, "throws_in = \"none\"", "host_test");
    CHECK(error_of([&] { make_call(quiet); }) == "");
    bem::model_instance m(type, "throws_in = \"" + call + "\"", "host_test");
    CHECK(error_of([&] { make_call(m); }) ==
          "model 'throwing_calls' (plugin host_test) " + call + ": deliberate failure in " + call);
  }
  bem::model_instance counted(type, "");
  CHECK(counted.parameter_count() == 3);
}

TEST_CASE("the host's own callbacks never unwind through the plugin: their first error is the call's") {
  const bem_model_type_v1* type = &bem::detail::model_adapter<throwing_calls_model>::type;
  bem::model_instance m(type, "", "host_test");
  int figures = 0;
  CHECK(error_of([&] {
          m.report([&](std::string_view, double, std::string_view) {
            ++figures;
            throw std::runtime_error("disk full");
          });
        }) == "model 'throwing_calls' (plugin host_test) report: the host failed to take a figure: disk full");
  CHECK(figures == 1);  // the second figure is not taken after the host failed
  sequence_batch batch;
  batch.reset(1, 2);
  int series = 0;
  CHECK(error_of([&] {
          m.diagnose(batch, [&](std::string_view, std::span<const double>, std::string_view) {
            ++series;
            throw 7;  // not even a std::exception
          });
        }) == "model 'throwing_calls' (plugin host_test) diagnose: the host failed to take a series: an exception "
              "that is not a std::exception");
  CHECK(series == 1);
}

TEST_CASE("a model table whose parameter_count gives no count, or a negative one, is an error, not a count") {
  bem_model_type_v1 type = bem::detail::model_adapter<throwing_calls_model>::type;
  type.parameter_count = [](void*, std::int64_t* count, char*, std::size_t) {
    *count = -1;
    return static_cast<int>(BEM_OK);
  };
  bem::model_instance negative(&type, "");
  CHECK(error_of([&] { negative.parameter_count(); }) ==
        "model 'throwing_calls' parameter_count: a count of -1 parameters");
  type.parameter_count = [](void*, std::int64_t*, char*, std::size_t) { return static_cast<int>(BEM_ERROR); };
  bem::model_instance silent(&type, "");
  CHECK(error_of([&] { silent.parameter_count(); }) == "model 'throwing_calls' parameter_count: failed without a message");
}

TEST_CASE("spec, split and batch carry their size: each side reads and writes only within it") {
  using adapter = bem::detail::task_adapter<flawed_split_task<split_flaw::none>>;
  char err[256] = {0};
  void* task = adapter::type.create("", err, sizeof err);
  REQUIRE(task != nullptr);
  // A host built before a field was appended offers less room: the task
  // writes what fits and says how much.
  bem_split_v1 split{};
  split.struct_size = static_cast<std::uint32_t>(offsetof(bem_split_v1, length));
  split.length = -7;  // past the host's struct_size: left alone
  adapter::type.split(task, 1, &split);
  CHECK(split.struct_size == offsetof(bem_split_v1, length));
  CHECK(std::string(split.name) == "test/T=4");
  CHECK(split.role == BEM_SPLIT_TEST);
  CHECK(split.length == -7);
  bem_task_spec_v1 spec{};
  spec.struct_size = sizeof spec;
  adapter::type.spec(task, &spec);
  CHECK(spec.struct_size == sizeof spec);

  // A batch smaller than this plugin's is refused, not read past its end.
  const bem_model_type_v1& model_type = bem::detail::model_adapter<throwing_calls_model>::type;
  void* model = model_type.create("", err, sizeof err);
  REQUIRE(model != nullptr);
  sequence_batch b;
  b.reset(1, 2);
  bem_batch_v1 c{offsetof(bem_batch_v1, lengths), b.batch_size, b.length, b.inputs.data(), b.targets.data(),
                 b.mask.data(), b.lengths.data(), b.tags.data()};
  double loss = 0;
  CHECK(model_type.learn(model, &c, &loss, err, sizeof err) == BEM_ERROR);
  CHECK(std::string(err) == "the host's batch of " + std::to_string(offsetof(bem_batch_v1, lengths)) +
                                " bytes, smaller than plugin ABI 2's " + std::to_string(sizeof(bem_batch_v1)));
  c.struct_size = sizeof c;
  CHECK(model_type.learn(model, &c, &loss, err, sizeof err) == BEM_OK);
  model_type.destroy(model);
  adapter::type.destroy(task);

  // And the host refuses a task that fills less of the spec than ABI 2 has.
  bem_task_type_v1 short_spec = adapter::type;
  short_spec.spec = [](void* t, bem_task_spec_v1* out) {
    adapter::type.spec(t, out);
    out->struct_size = static_cast<std::uint32_t>(offsetof(bem_task_spec_v1, tag_labels));
  };
  CHECK(plugin_error_text(&short_spec, "") ==
        "task 'flawed_splits' spec: filled " + std::to_string(offsetof(bem_task_spec_v1, tag_labels)) +
            " bytes, fewer than plugin ABI 2's " + std::to_string(sizeof(bem_task_spec_v1)));
}

namespace {
struct documented_parameters {
  BOOST_HANA_DEFINE_STRUCT(documented_parameters, (int, depth));
  static void describe(bem::parameter_schema<documented_parameters>& s) { s("depth", 2).in(1, 8).doc("layers"); }
};
struct broken_parameters {
  BOOST_HANA_DEFINE_STRUCT(broken_parameters, (int, depth));
  static void describe(bem::parameter_schema<broken_parameters>& s) { s("depth", 0).in(1, 8).doc("layers"); }
};
/// A model that reads parameter struct P (and declares it).
template <class P>
struct documented_model {
  static constexpr const char* name = "documented";
  static constexpr const char* version = "1";
  static constexpr const char* description = "reads a parameter struct";
  using parameter_structs = bem::parameter_structs<P>;
  explicit documented_model(bem::parameters& p) : depth(bem::read_parameters<P>(p).depth) {}
  void reset(const task_spec&, std::uint64_t) {}
  void set_learning(bool) {}
  double learn(const sequence_batch&) { return 0; }
  void predict(const sequence_batch&, prediction&) {}
  std::size_t parameter_count() const { return 0; }
  int depth;
};
}  // namespace

TEST_CASE("parameter documentation crosses the C interface; a table from before it was appended has none") {
  const bem_model_type_v1* full = &bem::detail::model_adapter<documented_model<documented_parameters>>::type;
  CHECK(bem::describe_parameters(full, "model") ==
        R"([{"name":"depth","type":"integer","default":2,"derived":false,"accepts":"[1, 8]","doc":"layers"}])");
  // The effective values still come from the same reads.
  bem::model_instance m(full, "depth = 3");
  CHECK(m.effective_parameters() == R"({"depth":3})");
  CHECK_THROWS_WITH_AS(bem::model_instance(full, "depth = 9"), doctest::Contains("'depth': must lie in [1, 8], got 9"),
                       bem::plugin_error);

  bem_model_type_v1 old = *full;
  old.struct_size = static_cast<std::uint32_t>(offsetof(bem_model_type_v1, describe_parameters));
  CHECK(bem::describe_parameters(&old, "model") == "");
  CHECK_UNARY(bem::detail::model_adapter<counting_checkpoint_model>::type.describe_parameters == nullptr);

  // A declaration whose default breaks its rule fails the call, named.
  const bem_model_type_v1* broken = &bem::detail::model_adapter<documented_model<broken_parameters>>::type;
  CHECK_THROWS_WITH_AS(bem::describe_parameters(broken, "model", "p"),
                       "model 'documented' (plugin p) describe_parameters: parameter 'depth': must lie in [1, 8], got 0",
                       bem::plugin_error);
}
