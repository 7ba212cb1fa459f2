// benchmarks_v1: size, versioning, splicing, prompt rendering, rejection of
// malformed tasks, and pass@k.
#include "dataset.hpp"
#include "models.hpp"

#include <bem/machine/hash.hpp>
#include <metrics/pass_at_k.hpp>

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace fs = std::filesystem;
using namespace rust_cargo;

namespace {

const fs::path dataset_root = BEM_RUST_DATASET_SOURCE_DIR;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const dataset& v1() {
  static const dataset d = load_dataset(dataset_root);
  return d;
}

/// A copy of one task in a scratch folder, to break on purpose.
struct scratch_task {
  fs::path root = fs::temp_directory_path() / ("bem-dataset-test-" + std::to_string(::getpid()));
  fs::path dir;
  explicit scratch_task(const std::string& category, const std::string& id) {
    fs::remove_all(root);
    dir = root / category / id;
    fs::create_directories(dir.parent_path());
    fs::copy(dataset_root / category / id, dir, fs::copy_options::recursive);
  }
  ~scratch_task() { fs::remove_all(root); }
  void write(const std::string& file, const std::string& text) const { std::ofstream(dir / file) << text; }
  void replace(const std::string& file, const std::string& from, const std::string& to) const {
    std::string s = slurp(dir / file);
    const auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    s.replace(at, from.size(), to);
    write(file, s);
  }
  /// The error load_task gives; "" when it loads.
  std::string error() const {
    try {
      load_task(dir);
    } catch (const dataset_error& e) {
      return e.what();
    }
    return {};
  }
};

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("benchmarks_v1 holds at least 25 tasks in every category and 200 in all") {
  std::map<std::string, int> per;
  for (const auto& t : v1().tasks) ++per[t.category];
  for (const auto& c : category_names()) {
    INFO(c);
    CHECK(per[c] >= 25);
  }
  CHECK(v1().tasks.size() >= 200);
  CHECK(v1().version == "benchmarks_v1");
}

TEST_CASE("benchmarks_v1 is frozen: its manifest matches the tasks and the pinned hash") {
  // A task changed since v1 was released shows up here by name.
  const std::string on_disk = slurp(dataset_root / "MANIFEST.sha256");
  const std::string now = v1().manifest();
  std::istringstream a(on_disk), b(now);
  std::string la, lb;
  while (static_cast<bool>(std::getline(a, la)) | static_cast<bool>(std::getline(b, lb))) {
    INFO("MANIFEST.sha256 says: " << la);
    INFO("the folder gives:     " << lb);
    REQUIRE(la == lb);
    la.clear();
    lb.clear();
  }
  // Regenerating the manifest does not help: its hash is pinned in the code.
  // A changed task belongs in benchmarks_v2.
  CHECK(v1().manifest_hash() == std::string(benchmarks_v1_manifest_sha256));
}

TEST_CASE("every task splices its reference answer back into the solution") {
  for (const auto& t : v1().tasks) {
    INFO(t.category << "/" << t.id);
    const auto files = t.crate_files(t.oracle_output());
    const std::string root = t.target_file == "src/lib.rs" ? t.solution : t.context.at("src/lib.rs");
    CHECK(files.at("src/lib.rs") == with_tests_module(root));
    // The declaration goes before the first item, on its line: nothing
    // else changes, line numbers included.
    const auto at = tests_module_insertion_point(root);
    CHECK(at < root.size());
    CHECK(files.at("src/lib.rs").substr(at, std::string(test_module_declaration).size()) == test_module_declaration);
    CHECK(std::count(root.begin(), root.end(), '\n') ==
          std::count(files.at("src/lib.rs").begin(), files.at("src/lib.rs").end(), '\n'));
    // Every #[test] of tests.rs is a test the sample must pass.
    std::size_t marked = 0;
    for (auto p = t.tests.find("#[test]"); p != std::string::npos; p = t.tests.find("#[test]", p + 1)) ++marked;
    CHECK(t.test_names.size() == marked);
    CHECK(t.test_names.size() >= 3);
    if (t.target_file != "src/lib.rs") CHECK(files.at(t.target_file) == t.solution);
    CHECK(files.at("src/bem_tests.rs") == t.tests);
    CHECK(files.at("Cargo.toml") == t.cargo_toml);
    // The unchanged prompt: nothing added, or the original file.
    const auto unchanged = t.crate_files(t.identity_output());
    const std::string& target = unchanged.at(t.target_file);
    if (t.kind() == splice_kind::fill_in_middle) {
      CHECK(contains(t.prompt, fim_marker));
      CHECK(unchanged.at(t.target_file).find(fim_marker) == std::string::npos);
    } else {
      CHECK(target == (t.target_file == "src/lib.rs" ? with_tests_module(t.prompt) : t.prompt));
    }
    CHECK(t.oracle_output() != t.identity_output());
    CHECK_FALSE(t.tags.empty());
  }
}

TEST_CASE("the tests module is declared before the crate root's first item") {
  const std::string decl = test_module_declaration;
  struct example {
    const char* what;
    std::string root;
    std::string before;  // what stays in front of the declaration
  };
  const example cases[] = {
      {"an item first", "pub fn f() {}\n", ""},
      {"leading blank lines", "\n\n  pub fn f() {}\n", "\n\n  "},
      {"inner doc comments and attributes",
       "//! Crate docs.\n/*! More /* nested */ docs. */\n#![allow(dead_code)]\n// note\n#![doc = r#\"]\"#]\nuse std::fmt;\n",
       "//! Crate docs.\n/*! More /* nested */ docs. */\n#![allow(dead_code)]\n// note\n#![doc = r#\"]\"#]\n"},
      {"brackets in strings and characters", "#![doc = \"] \\\" ]\"]\n#![cfg_attr(any(), x(']', '\\'', 'a))]\nfn f() {}\n",
       "#![doc = \"] \\\" ]\"]\n#![cfg_attr(any(), x(']', '\\'', 'a))]\n"},
      {"an outer doc comment belongs to the item", "//! Crate.\n/// The function.\nfn f() {}\n", "//! Crate.\n"},
      {"an outer attribute belongs to the item", "#[derive(Debug)]\nstruct S;\n", ""},
      {"//// and /***/ are plain comments", "//// x\n/***/\n/*** y */\nfn f() {}\n", "//// x\n/***/\n/*** y */\n"},
      {"a byte-order mark and a shebang", "\xEF\xBB\xBF#!/usr/bin/env run-cargo-script\nfn main() {}\n",
       "\xEF\xBB\xBF#!/usr/bin/env run-cargo-script\n"},
      {"a macro_rules! is an item like any other", "#![allow(unused)]\nmacro_rules! assert_eq { () => {} }\n",
       "#![allow(unused)]\n"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(tests_module_insertion_point(c.root) == c.before.size());
    CHECK(with_tests_module(c.root) == c.before + decl + c.root.substr(c.before.size()));
  }
  // No item at all: at the end, on a line of its own (the file may end in a comment).
  CHECK(with_tests_module("") == "\n" + decl + "\n");
  CHECK(with_tests_module("//! only docs") == "//! only docs\n" + decl + "\n");
  CHECK(with_tests_module("/* unterminated") == "/* unterminated\n" + decl + "\n");
}

TEST_CASE("the task's tests are the #[test] functions of tests.rs") {
  const std::string tests = R"rs(use super::*;

#[test]
fn a() { assert_eq!(f(), "#[test] fn not_a_test"); }

#[test]
#[should_panic]
fn b() { let _c = '}'; }

#[test]
#[ignore = "slow"]
fn ignored() {}

fn helper() {}
// #[test] fn commented_out() {}
/* #[test] fn also_commented_out() {} */

mod inner {
    use super::*;
    #[test]
    fn c() { let r = r#"}"#; }
}

#[cfg(test)]
#[test]
pub fn d() {}
)rs";
  CHECK(test_function_names(tests) ==
        std::vector<std::string>{"bem_tests::a", "bem_tests::b", "bem_tests::inner::c", "bem_tests::d"});
  CHECK(test_function_names("fn helper() {}\n").empty());
  scratch_task s("completion", "cmp_sum_of_even_squares");
  s.write("tests.rs", "use super::*;\nfn not_a_test() {}\n");
  CHECK(contains(s.error(), "tests.rs: no #[test] function"));
}

TEST_CASE("malformed tasks are rejected with the file and the field named") {
  const std::string cat = "completion", id = "cmp_sum_of_even_squares";
  {
    scratch_task s(cat, id);
    CHECK(s.error().empty());
  }
  struct breakage {
    const char* file;
    const char* from;
    const char* to;
    const char* expect;  // in the message, beside the file name
  };
  const breakage cases[] = {
      {"metadata.yaml", "difficulty: easy", "", "field 'difficulty': missing"},
      {"metadata.yaml", "difficulty: easy", "difficulty: trivial", "field 'difficulty': must be easy, medium or hard"},
      {"metadata.yaml", "id: cmp_sum_of_even_squares", "id: other", "field 'id': must equal the folder name"},
      {"metadata.yaml", "tags: [iterators, closures]", "tags: iterators", "field 'tags': must be a non-empty list"},
      {"metadata.yaml", "category: completion", "category: fim", "field 'category'"},
      {"metadata.yaml", "test_command: cargo test --offline", "test_command: cargo test", "field 'test_command'"},
      {"metadata.yaml", "compile_command: cargo build --offline", "target_file: src/x.rs\ncompile_command: cargo build --offline", "field 'target_file': only projects"},
      {"metadata.yaml", "tags: [iterators, closures]", "tags: [iterators, closures", "metadata.yaml:"},
      {"metadata.yaml", "expected_runtime_s: 0.1", "expected_runtime_s: soon", "field 'expected_runtime_s'"},
      {"Cargo.toml", "doctest = false", "", "Cargo.toml: [lib] needs doctest = false"},
      {"metadata.yaml", "tags: [iterators, closures]", "tags: [iterators, {a: 1}]", "field 'tags': must hold non-empty strings"},
      {"Cargo.toml", "doctest = false", "doctest = true", "Cargo.toml: [lib] needs doctest = false"},
      // Every spelling of a dependency, and a build script.
      {"Cargo.toml", "[dependencies]", "[dependencies]\nrand = \"0.8\"", "Cargo.toml: dependencies is not empty"},
      {"Cargo.toml", "[dependencies]", "[dependencies.serde]\nversion = \"1\"", "Cargo.toml: dependencies is not empty"},
      {"Cargo.toml", "[dependencies]", "[dev-dependencies]\nrand = \"0.8\"", "Cargo.toml: dev-dependencies is not empty"},
      {"Cargo.toml", "[dependencies]", "[target.'cfg(unix)'.build-dependencies]\ncc = \"1\"",
       "Cargo.toml: target.cfg(unix).build-dependencies is not empty"},
      {"Cargo.toml", "edition = \"2021\"", "edition = \"2021\"\nbuild = \"build.rs\"", "Cargo.toml: package.build"},
      {"Cargo.toml", "[dependencies]", "[patch.crates-io]\nrand = { path = \"x\" }", "Cargo.toml: [patch]"},
      {"Cargo.toml", "[dependencies]", "[dependencies", "Cargo.toml:10:"},
      {"solution.rs", "pub fn", "fn", "solution.rs: must start with prompt.rs"},
  };
  for (const auto& c : cases) {
    INFO(c.file << ": '" << c.from << "' -> '" << c.to << "'");
    scratch_task s(cat, id);
    s.replace(c.file, c.from, c.to);
    const std::string e = s.error();
    CHECK(contains(e, c.file));
    CHECK(contains(e, c.expect));
  }
  {
    scratch_task s(cat, id);
    fs::remove(s.dir / "tests.rs");
    CHECK(contains(s.error(), "tests.rs: missing"));
  }
  {
    scratch_task s("fim", "fim_run_length_encode");
    s.replace("prompt.rs", "runs\n}", "runs /*FILL*/\n}");
    CHECK(contains(s.error(), "prompt.rs: must hold the marker /*FILL*/ exactly once"));
  }
  {
    scratch_task s("projects", "prj_inventory_restock");
    s.write("src/store.rs", "// the target file must come from prompt.rs\n");
    CHECK(contains(s.error(), "field 'target_file'"));
  }
  {
    // The model's output is written to target_file: it must stay inside src/.
    scratch_task s("projects", "prj_inventory_restock");
    s.replace("metadata.yaml", "target_file: src/store.rs", "target_file: src/../../store.rs");
    CHECK(contains(s.error(), "field 'target_file': must be a path under src/"));
  }
  {
    // A solution that keeps the prefix but not the suffix: the oracle's middle
    // would be cut from the wrong place.
    scratch_task s("fim", "fim_run_length_encode");
    s.replace("solution.rs", "    runs\n}", "    runs\n}\n// after the suffix");
    CHECK(contains(s.error(), "solution.rs: must start with the prefix and end with the suffix"));
  }
  {
    // Only projects bring files of their own into the crate.
    scratch_task s(cat, id);
    fs::create_directories(s.dir / "src");
    s.write("src/extra.rs", "pub fn extra() {}\n");
    CHECK(contains(s.error(), "src/extra.rs: only projects have context files"));
  }
  // The spec's layout and nothing else: a stray file or folder would enter
  // the task's hash and never reach the judge, and a link would bring in a
  // file from outside the folder.
  for (const char* stray : {"NOTES.md", "tests/extra.rs", "target/debug/x"}) {
    INFO(stray);
    scratch_task s(cat, id);
    fs::create_directories((s.dir / stray).parent_path());
    s.write(stray, "stray\n");
    const std::string first = fs::path(stray).begin()->string();
    CHECK(contains(s.error(), id + "/" + first + ": not part of a task's layout"));
  }
  {
    scratch_task s(cat, id);
    fs::rename(s.dir / "tests.rs", s.root / "tests.rs");
    fs::create_symlink(s.root / "tests.rs", s.dir / "tests.rs");
    CHECK(contains(s.error(), "tests.rs: a link"));
  }
  {
    scratch_task s("projects", "prj_inventory_restock");
    fs::create_symlink(s.dir / "src" / "lib.rs", s.dir / "src" / "alias.rs");
    CHECK(contains(s.error(), "src/alias.rs: a link"));
  }
  {
    // A project's crate may have modules in folders of src/.
    scratch_task s("projects", "prj_inventory_restock");
    fs::create_directories(s.dir / "src" / "util");
    s.write("src/util/mod.rs", "pub fn helper() {}\n");
    CHECK(s.error().empty());
  }
}

TEST_CASE("an unknown metadata field is an error naming the file, its line and the key") {
  // A misspelt optional field would otherwise be dropped without a word.
  scratch_task s("projects", "prj_inventory_restock");
  std::string meta = slurp(s.dir / "metadata.yaml");
  const auto line_of = [&](const std::string& key) {
    const auto at = meta.find("\n" + key + ":");
    REQUIRE(at != std::string::npos);
    return std::count(meta.begin(), meta.begin() + static_cast<std::ptrdiff_t>(at) + 1, '\n') + 1;
  };
  s.replace("metadata.yaml", "target_file:", "target_fle:");
  meta = slurp(s.dir / "metadata.yaml");
  const std::string e = s.error();
  INFO(e);
  CHECK(contains(e, (s.dir / "metadata.yaml").string() + ":" + std::to_string(line_of("target_fle")) +
                        ": unknown field 'target_fle'"));
  CHECK(contains(e, "field 'target_file': missing"));  // and what the typo left out
}

TEST_CASE("a task's problems are listed together, each once") {
  scratch_task s("completion", "cmp_sum_of_even_squares");
  s.replace("metadata.yaml", "difficulty: easy", "difficulty: trivial\nnotes: one\nauthor: two");
  s.replace("metadata.yaml", "tags: [iterators, closures]", "tags: [iterators, [a], [b]]");
  s.replace("Cargo.toml", "doctest = false", "");
  s.write("NOTES.md", "stray\n");
  const std::string e = s.error();
  INFO(e);
  std::vector<std::string> lines;
  std::istringstream in(e);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  for (const char* part : {"unknown field 'notes'", "unknown field 'author'", "field 'difficulty': must be easy",
                           "field 'tags': must hold non-empty strings", "Cargo.toml: [lib] needs doctest = false",
                           "NOTES.md: not part of a task's layout"}) {
    INFO(part);
    CHECK(std::count_if(lines.begin(), lines.end(), [&](const std::string& l) { return contains(l, part); }) == 1);
  }
  CHECK(lines.size() == 6);
  // The dataset's loader lists every task's problems, not the first task's.
  scratch_task other("completion", "cmp_sum_of_even_squares");  // same root: replaces the folder
  other.replace("metadata.yaml", "difficulty: easy", "difficulty: trivial");
  fs::create_directories(other.root / "fim");
  fs::copy(dataset_root / "fim" / "fim_run_length_encode", other.root / "fim" / "fim_run_length_encode",
           fs::copy_options::recursive);
  std::ofstream(other.root / "fim" / "fim_run_length_encode" / "metadata.yaml", std::ios::app) << "extra: 1\n";
  std::string all;
  try {
    load_dataset(other.root);
  } catch (const dataset_error& err) {
    all = err.what();
  }
  CHECK(contains(all, "cmp_sum_of_even_squares/metadata.yaml:"));
  CHECK(contains(all, "field 'difficulty'"));
  CHECK(contains(all, "fim_run_length_encode/metadata.yaml:"));
  CHECK(contains(all, "unknown field 'extra'"));
}

TEST_CASE("compile_command and test_command may be left out, and given must be the runner's") {
  scratch_task s("completion", "cmp_sum_of_even_squares");
  s.replace("metadata.yaml", "compile_command: cargo build --offline\n", "");
  s.replace("metadata.yaml", "test_command: cargo test --offline\n", "");
  CHECK(s.error().empty());
  const task t = load_task(s.dir);
  CHECK(t.compile_command == "cargo build --offline");
  CHECK(t.test_command == "cargo test --offline");
  s.write("metadata.yaml", slurp(s.dir / "metadata.yaml") + "test_command: cargo nextest run\n");
  CHECK(contains(s.error(), "field 'test_command': must be 'cargo test --offline' (or left out)"));
}

TEST_CASE("category folders are optional; a folder that is no category is refused") {
  scratch_task s("fim", "fim_run_length_encode");  // a dataset of one fim task, no other folder
  const auto d = load_dataset(s.root);
  REQUIRE(d.tasks.size() == 1);
  CHECK(d.tasks.front().category == "fim");
  CHECK(load_dataset(s.root, {"fim"}).tasks.size() == 1);
  // Asked for by name, a missing category is an error.
  CHECK_THROWS_WITH_AS(load_dataset(s.root, {"fim", "bugs"}), doctest::Contains("bugs: category folder missing"),
                       dataset_error);
  // A misspelt category folder would drop its tasks unseen.
  fs::create_directories(s.root / "completions" / "cmp_x");
  std::ofstream(s.root / "completions" / "cmp_x" / "metadata.yaml") << "id: cmp_x\n";
  CHECK_THROWS_WITH_AS(load_dataset(s.root), doctest::Contains("completions: holds tasks but is not a category folder"),
                       dataset_error);
  fs::remove_all(s.root / "completions");
  fs::create_directories(s.root / "notes");  // a folder of something else is not the loader's business
  CHECK(load_dataset(s.root).tasks.size() == 1);
  fs::remove_all(s.root / "fim");
  CHECK_THROWS_WITH_AS(load_dataset(s.root), doctest::Contains("no task folders"), dataset_error);
}

TEST_CASE("a task id used in two categories is rejected, naming both folders") {
  // Samples and results are keyed by id: two tasks with one id would mix.
  const std::string id = "cmp_sum_of_even_squares";
  scratch_task s("completion", id);
  const fs::path twin = s.root / "functions" / id;
  fs::create_directories(twin.parent_path());
  fs::copy(s.dir, twin, fs::copy_options::recursive);
  {
    std::string meta = slurp(twin / "metadata.yaml");
    const auto at = meta.find("category: completion");
    REQUIRE(at != std::string::npos);
    meta.replace(at, std::string("category: completion").size(), "category: functions");
    std::ofstream(twin / "metadata.yaml") << meta;
  }
  CHECK(load_dataset(s.root, {"completion"}).tasks.size() == 1);
  CHECK(load_dataset(s.root, {"functions"}).tasks.size() == 1);
  std::string error;
  try {
    load_dataset(s.root, {"completion", "functions"});
  } catch (const dataset_error& e) {
    error = e.what();
  }
  CHECK(contains(error, "id '" + id + "' also used by"));
  CHECK(contains(error, (s.root / "completion" / id).string()));
  CHECK(contains(error, twin.string()));
}

TEST_CASE("FIM templates of the model families") {
  CHECK(render_fim("starcoder", "", "P", "S") == "<fim_prefix>P<fim_suffix>S<fim_middle>");
  CHECK(render_fim("qwen2.5-coder", "", "P", "S") == "<|fim_prefix|>P<|fim_suffix|>S<|fim_middle|>");
  CHECK(render_fim("codellama", "", "P", "S") == "<PRE> P <SUF>S <MID>");
  CHECK(render_fim("deepseek-coder", "", "P", "S") == "<｜fim▁begin｜>P<｜fim▁hole｜>S<｜fim▁end｜>");
  CHECK(render_fim("codestral", "", "P", "S") == "[SUFFIX]S[PREFIX]P");
  CHECK(render_fim("custom", "<s>{suffix}|{prefix}<m>", "P", "S") == "<s>S|P<m>");
  CHECK(render_fim("custom", "{prefix}@{suffix}", "{suffix}", "x") == "{suffix}@x");
  CHECK_THROWS_WITH(render_fim("custom", "{prefix} only", "P", "S"), doctest::Contains("fim_format"));
  CHECK_THROWS_WITH(render_fim("gpt", "", "P", "S"), doctest::Contains("unknown template 'gpt'"));
}

TEST_CASE("prompts and replies per splice kind") {
  const auto& tasks = v1().tasks;
  auto find = [&](const std::string& id) -> const task& {
    for (const auto& t : tasks)
      if (t.id == id) return t;
    FAIL("no task " << id);
    return tasks.front();
  };
  const task& cont = find("cmp_sum_of_even_squares");
  const task& fim = find("fim_run_length_encode");
  const task& proj = find("prj_inventory_restock");
  CHECK(render_completion_prompt(cont, "starcoder", "") == cont.prompt);
  CHECK(render_completion_prompt(fim, "starcoder", "") == render_fim("starcoder", "", fim.prefix, fim.suffix));
  const std::string p = render_completion_prompt(proj, "starcoder", "");
  CHECK(contains(p, "src/item.rs"));
  CHECK(contains(p, proj.context.at("src/item.rs")));
  CHECK(contains(p, proj.prompt));
  CHECK(contains(render_chat_prompt(proj), "src/store.rs"));
  CHECK(contains(render_chat_prompt(fim), fim_marker));

  // A chat model that repeats the prompt, or returns the whole file.
  const std::string repeated = "Sure:\n```rust\n" + cont.solution + "```\n";
  CHECK(output_from_reply(cont, repeated, true) == cont.oracle_output());
  const std::string whole = "```rust\n" + fim.solution + "```";
  CHECK(output_from_reply(fim, whole, true) == fim.oracle_output());
  CHECK(output_from_reply(cont, "raw text", false) == "raw text");
  // Only a reply that repeats both the prefix and the suffix is cut back to
  // its middle; one that repeats the prefix alone is kept as it came.
  const std::string prefix_only = fim.prefix + "        tally(c);\n" + std::string(fim.suffix.size(), ' ') + "\n";
  CHECK(output_from_reply(fim, "```rust\n" + prefix_only + "```", true) == prefix_only);
}

TEST_CASE("unbiased pass@k") {
  using bem::metrics::pass_at_k;
  CHECK(pass_at_k(10, 1, 1) == doctest::Approx(0.1));
  CHECK(pass_at_k(10, 1, 5) == doctest::Approx(0.5));
  CHECK(pass_at_k(10, 0, 10) == 0.0);
  CHECK(pass_at_k(10, 3, 10) == 1.0);  // n - c < k
  CHECK(pass_at_k(5, 5, 5) == 1.0);
  // Against the binomial definition 1 - C(n-c, k) / C(n, k).
  auto binom = [](int n, int k) {
    double r = 1;
    for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return k < 0 || k > n ? 0.0 : r;
  };
  for (int n = 1; n <= 20; ++n)
    for (int c = 0; c <= n; ++c)
      for (int k = 1; k <= n; ++k) {
        INFO(n << " " << c << " " << k);
        CHECK(pass_at_k(n, c, k) == doctest::Approx(1.0 - binom(n - c, k) / binom(n, k)));
      }
  CHECK_THROWS(pass_at_k(4, 1, 5));  // needs n >= k
  CHECK_THROWS(pass_at_k(4, 5, 1));
}

TEST_CASE("the stored model names the file, line and field of a bad sample record") {
  const fs::path file = fs::temp_directory_path() / ("bem-stored-" + std::to_string(::getpid()) + ".jsonl");
  const auto load = [&](const std::string& text) -> std::string {
    std::ofstream(file) << text;
    bem::parameters p;
    p.set("samples", file.string());
    try {
      (void)make_model_factory("stored", p, "");
      return "";
    } catch (const std::exception& e) {
      return e.what();
    }
  };
  const std::string good = R"({"task":"t","greedy":false,"output":"x"})";
  CHECK(load(good + "\n") == "");
  CHECK(contains(load(good + "\n" + R"({"task":"t","greedy":"no","output":"x"})" + "\n"),
                 file.string() + ":2: field 'greedy' must be a Boolean"));
  CHECK(contains(load(R"({"task":7,"greedy":true,"output":"x"})"), file.string() + ":1: field 'task' must be a string"));
  CHECK(contains(load(R"({"task":"t","greedy":true,"output":null})"), ":1: field 'output' must be a string"));
  CHECK(contains(load("[1]\n"), ":1: not a sample record"));
  // Blank lines are skipped but still counted: the number is the file's line.
  CHECK(contains(load(good + "\n\n" + R"({"task":"t","greedy":1,"output":"x"})" + "\n"),
                 file.string() + ":3: field 'greedy' must be a Boolean"));
  fs::remove(file);
}

TEST_CASE("the stored model answers greedy and sampled requests from their own records") {
  const fs::path file = fs::temp_directory_path() / ("bem-stored-" + std::to_string(::getpid()) + ".jsonl");
  std::ofstream(file) << R"({"task":"t","greedy":false,"output":"s0"})" "\n"
                      << R"({"task":"t","greedy":true,"output":"g"})" "\n"
                      << R"({"task":"t","greedy":false,"output":"s1"})" "\n";
  bem::parameters p;
  p.set("samples", file.string());
  const auto model = make_model_factory("stored", p, "").make();
  fs::remove(file);
  task t;
  t.id = "t";
  sample_request sampled;
  sampled.n = 2;
  CHECK(model->generate(t, sampled).outputs == std::vector<std::string>{"s0", "s1"});
  sample_request greedy;
  greedy.greedy = true;
  CHECK(model->generate(t, greedy).outputs == std::vector<std::string>{"g"});
  // Asking for more than the file holds names the counts.
  greedy.n = 2;
  CHECK_THROWS_WITH(model->generate(t, greedy), doctest::Contains("holds 1 greedy outputs for task t, the run asks for 2"));
}
