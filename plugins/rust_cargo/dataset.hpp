// The benchmarks_v1 dataset: task folders, their metadata, and how a model's
// output becomes a crate (docs/rust-benchmarks.md defines all of it).
#pragma once

#include <filesystem>
#include <map>
#include <stdexcept>
#include <cstddef>
#include <string>
#include <vector>

namespace rust_cargo {

/// A malformed or incomplete task: the message names the file and the field.
struct dataset_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline const std::vector<std::string>& category_names() {
  static const std::vector<std::string> names = {"completion", "fim",       "functions", "bugs",
                                                 "refactor",   "ownership", "projects",  "stdlib"};
  return names;
}

/// A task's `difficulty`, in order.
inline const std::vector<std::string>& difficulty_names() {
  static const std::vector<std::string> names = {"easy", "medium", "hard"};
  return names;
}

/// One of the spec's section 3 goals, and which tasks measure it: a task
/// measures a goal when its category is one of `categories` or one of its
/// tags, normalised (lower case, '-' as '_'), is one of `tags` or the goal's
/// id itself ("g6" names G6 explicitly). A task may measure several goals.
/// docs/rust-benchmarks.md ("Goals") states the table and why.
struct goal {
  std::string id, name;
  std::vector<std::string> categories, tags;  ///< tags normalised
};
/// G1..G8, in order.
const std::vector<goal>& goals();

/// How the model's output is spliced into the crate, by category.
enum class splice_kind {
  continuation,    ///< completion, functions, stdlib: prompt + output
  fill_in_middle,  ///< fim: prefix + output + suffix
  whole_file,      ///< bugs, refactor, ownership: the output is the file
  project_file,    ///< projects: the output replaces target_file among the context files
};
splice_kind splice_kind_of(const std::string& category);
const char* splice_kind_name(splice_kind k);

/// The SHA-256 of benchmarks_v1/MANIFEST.sha256, pinned. Changing a task of
/// v1 changes its manifest and fails the dataset test: a changed task goes
/// to benchmarks_v2 (the spec's section 22) and v1 stays comparable.
inline constexpr const char* benchmarks_v1_manifest_sha256 =
    "07fc54c8ba4968608245fa656460ac7dc00c4898f3a292981ca74278b36928a9";

inline constexpr const char* fim_marker = "/*FILL*/";

/// The tests module: tests.rs becomes src/bem_tests.rs, declared in the
/// crate root by this line. libtest names the task's tests "bem_tests::NAME".
inline constexpr const char* tests_module = "bem_tests";
inline constexpr const char* test_module_declaration = "#[cfg(test)] mod bem_tests; ";

/// Where the crate root `lib_rs` gets the tests module's declaration: after a
/// byte-order mark, a shebang line, comments, inner doc comments (`//!`,
/// `/*! */`) and inner attributes (`#![...]`), i.e. at the first item (the
/// end when there is none). Declared before every item of the file, the
/// tests are out of the textual scope of the file's `macro_rules!`, and an
/// attribute the file leaves dangling at its end cannot reach them.
std::size_t tests_module_insertion_point(const std::string& lib_rs);
/// `lib_rs` with test_module_declaration inserted there (on the first
/// item's line: the file's line numbers stay as they were).
std::string with_tests_module(const std::string& lib_rs);
/// The `#[test]` functions of a tests.rs as libtest names them, in file
/// order: "bem_tests::NAME", "bem_tests::MOD::NAME" inside `mod MOD { }`;
/// `#[ignore]`d tests are left out.
std::vector<std::string> test_function_names(const std::string& tests_rs);

struct task {
  std::filesystem::path dir;
  std::string id, category, difficulty, expected_behavior, compile_command, test_command;
  double expected_runtime_s = 0;
  std::vector<std::string> tags;
  std::string target_file = "src/lib.rs";     ///< the file the candidate becomes
  std::string prompt, solution, tests, cargo_toml;
  /// The task's own tests (test_function_names of tests.rs): a sample passes
  /// only when libtest reports every one of them passed.
  std::vector<std::string> test_names;
  std::map<std::string, std::string> context;  ///< projects: relative path -> contents
  std::string prefix, suffix;                  ///< fim: prompt.rs split at the marker

  splice_kind kind() const { return splice_kind_of(category); }
  /// What the reference model returns: the continuation, the middle or the file.
  std::string oracle_output() const;
  /// What a model that changes nothing returns.
  std::string identity_output() const;
  /// Every file of the crate for a model output, relative path -> contents.
  std::map<std::string, std::string> crate_files(const std::string& model_output) const;
  std::string sha256;  ///< over every file of the folder, names and contents
};

/// The ids of the goals (goals()) `t` measures, in goal order.
std::vector<std::string> goals_of(const task& t);

struct dataset {
  std::filesystem::path root;
  std::string version;  ///< the folder's name, e.g. "benchmarks_v1"
  std::vector<task> tasks;
  /// "HASH  category/id" lines, sorted: the manifest of the version.
  std::string manifest() const;
  std::string manifest_hash() const;  ///< SHA-256 (hex) of manifest()
};

/// Reads one task folder; throws dataset_error naming the path and field.
task load_task(const std::filesystem::path& dir);
/// Reads every task under `root` (root/<category>/<id>/), in category order
/// then by id; `categories` empty means all. Throws dataset_error.
dataset load_dataset(const std::filesystem::path& root, const std::vector<std::string>& categories = {});

}  // namespace rust_cargo
