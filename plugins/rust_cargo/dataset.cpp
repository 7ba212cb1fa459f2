#include "dataset.hpp"

#include <bem/machine/hash.hpp>

#include <toml++/toml.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

namespace rust_cargo {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw dataset_error(p.string() + ": cannot read");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A task's problems, in the order found, each once: an author sees them
/// all in one go (as check_tasks.py lists them), not one per attempt.
class problem_list {
 public:
  void add(const std::string& p) {
    if (std::find(items_.begin(), items_.end(), p) == items_.end()) items_.push_back(p);
  }
  void add_all(const std::string& lines) {
    std::istringstream in(lines);
    for (std::string l; std::getline(in, l);)
      if (!l.empty()) add(l);
  }
  bool empty() const { return items_.empty(); }
  /// Throws dataset_error with every problem, one a line.
  void throw_if_any() const {
    if (items_.empty()) return;
    std::string all;
    for (const auto& p : items_) all += (all.empty() ? "" : "\n") + p;
    throw dataset_error(all);
  }

 private:
  std::vector<std::string> items_;
};

/// "FILE:LINE" of a metadata field (the line of its key), "FILE" when unknown.
std::string where(const fs::path& file, const YAML::Node& node) {
  if (!node.IsDefined()) return file.string();
  const auto mark = node.Mark();
  return mark.is_null() ? file.string() : file.string() + ":" + std::to_string(mark.line + 1);
}

void field_error(problem_list& problems, const std::string& at, const std::string& field, const std::string& what) {
  problems.add(at + ": field '" + field + "': " + what);
}

/// The fields of metadata.yaml (docs/rust-benchmarks.md); any other key is
/// an error, so a misspelt optional field (`target_fle`) is not dropped.
constexpr const char* metadata_fields[] = {"id",         "category",          "difficulty",      "expected_runtime_s",
                                           "tags",       "expected_behavior", "compile_command", "test_command",
                                           "target_file"};

/// A required non-empty string field; nullopt (and a problem) when it is not one.
std::optional<std::string> scalar(const YAML::Node& meta, const fs::path& file, const std::string& field,
                                  problem_list& problems) {
  const YAML::Node n = meta[field];
  if (!n) {
    field_error(problems, file.string(), field, "missing");
    return std::nullopt;
  }
  if (!n.IsScalar() || n.Scalar().empty()) {
    field_error(problems, where(file, n), field, "must be a non-empty string");
    return std::nullopt;
  }
  return n.Scalar();
}

// Files of a task folder, relative path -> contents, in a fixed order. The
// layout is the spec's and nothing else (section 15, "standardized layout
// only"): the five task files, and for projects the crate's files under
// src/. Anything else would be hashed into the task's identity and then
// ignored by the judge, so it is refused, and so are links, which would
// bring files from outside the folder into the hash and the crate.
constexpr const char* task_files[] = {"prompt.rs", "solution.rs", "tests.rs", "Cargo.toml", "metadata.yaml"};

std::map<std::string, std::string> folder_files(const fs::path& dir, bool project, problem_list& problems) {
  std::map<std::string, std::string> files;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    const auto& e = *it;
    const std::string name = fs::relative(e.path(), dir).generic_string();
    const bool in_src = name == "src" || name.rfind("src/", 0) == 0;
    if (e.is_symlink()) {
      problems.add(e.path().string() + ": a link (a task folder holds only its own files)");
      continue;
    }
    if (in_src && e.is_directory()) continue;
    if (in_src && e.is_regular_file()) {
      if (!project) {
        problems.add(e.path().string() + ": only projects have context files");
        continue;
      }
    } else if (!e.is_regular_file() ||
               std::none_of(std::begin(task_files), std::end(task_files), [&](const char* f) { return name == f; })) {
      problems.add(e.path().string() +
                   ": not part of a task's layout (prompt.rs, solution.rs, tests.rs, Cargo.toml, "
                   "metadata.yaml, and for projects the crate's files under src/)");
      if (e.is_directory()) it.disable_recursion_pending();  // the folder is named; its files add nothing
      continue;
    }
    files[name] = read_file(e.path());
  }
  return files;
}

std::string hash_files(const std::map<std::string, std::string>& files) {
  bem::sha256_hasher h;
  for (const auto& [name, text] : files) {
    // Length-prefixed, so no two different folders hash the same bytes.
    h.update(std::to_string(name.size()) + ":" + name + std::to_string(text.size()) + ":");
    h.update(text);
  }
  const auto d = h.final();
  return bem::to_hex(d);
}

// ---- Just enough of Rust's lexical grammar to find the tests module's place
// and the test functions: comments and literals hide brackets and words.

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool starts(const std::string& s, std::size_t i, const char* what) {
  return i <= s.size() && s.compare(i, std::strlen(what), what) == 0;
}

// Past a "..." string (escapes allowed) whose opening quote is at s[i].
std::size_t past_string(const std::string& s, std::size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\')
      ++i;
    else if (s[i] == '"')
      return i + 1;
  }
  return s.size();
}

// At s[i]: when a comment, string or character literal starts there, the
// index just past it (the end when it is unterminated); otherwise i.
std::size_t skip_comment_or_literal(const std::string& s, std::size_t i) {
  if (i >= s.size()) return i;
  if (starts(s, i, "//")) {
    const auto nl = s.find('\n', i);
    return nl == std::string::npos ? s.size() : nl + 1;
  }
  if (starts(s, i, "/*")) {  // block comments nest
    int depth = 0;
    for (std::size_t j = i; j < s.size(); ++j) {
      if (starts(s, j, "/*")) {
        ++depth;
        ++j;
      } else if (starts(s, j, "*/")) {
        ++j;
        if (--depth == 0) return j + 1;
      }
    }
    return s.size();
  }
  const bool word_start = i == 0 || !ident_char(s[i - 1]);
  if (word_start) {
    // Raw strings: r"..", r#".."#, br.., cr..: no escapes, closed by " and as many #.
    std::size_t j = i;
    if (s[j] == 'b' || s[j] == 'c') ++j;
    if (j < s.size() && s[j] == 'r') {
      std::size_t k = j + 1, hashes = 0;
      while (k < s.size() && s[k] == '#') ++k, ++hashes;
      if (k < s.size() && s[k] == '"') {
        const std::string close = "\"" + std::string(hashes, '#');
        const auto end = s.find(close, k + 1);
        return end == std::string::npos ? s.size() : end + close.size();
      }
    }
    // Byte and C strings, byte characters.
    if ((s[i] == 'b' || s[i] == 'c') && i + 1 < s.size() && s[i + 1] == '"') return past_string(s, i + 1);
    if (s[i] == 'b' && i + 1 < s.size() && s[i + 1] == '\'') return skip_comment_or_literal(s, i + 1);
  }
  if (s[i] == '"') return past_string(s, i);
  if (s[i] == '\'') {
    // A character literal, or a lifetime / label ('a): then only the quote.
    if (i + 1 < s.size() && s[i + 1] == '\\') {
      const auto end = s.find('\'', i + 3);
      return end == std::string::npos ? s.size() : end + 1;
    }
    std::size_t len = 1;  // one UTF-8 encoded character
    if (i + 1 < s.size()) {
      const auto c = static_cast<unsigned char>(s[i + 1]);
      len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    }
    if (i + 1 + len < s.size() && s[i + 1 + len] == '\'') return i + 2 + len;
    return i + 1;
  }
  return i;
}

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::size_t skip_space(const std::string& s, std::size_t i) {
  while (i < s.size() && space(s[i])) ++i;
  return i;
}

// Whitespace and comments of every kind.
std::size_t skip_trivia(const std::string& s, std::size_t i) {
  for (;;) {
    i = skip_space(s, i);
    if (!starts(s, i, "//") && !starts(s, i, "/*")) return i;
    i = skip_comment_or_literal(s, i);
  }
}

// Outer doc comments (/// and /** */) belong to the item that follows them.
bool outer_doc_comment(const std::string& s, std::size_t i) {
  return (starts(s, i, "///") && !starts(s, i, "////")) ||
         (starts(s, i, "/**") && !starts(s, i, "/***") && !starts(s, i, "/**/"));
}

// Past the bracketed group opening at s[i] == '['.
std::size_t past_brackets(const std::string& s, std::size_t i) {
  int depth = 0;
  while (i < s.size()) {
    const auto j = skip_comment_or_literal(s, i);
    if (j != i) {
      i = j;
      continue;
    }
    if (s[i] == '[') ++depth;
    if (s[i] == ']' && --depth == 0) return i + 1;
    ++i;
  }
  return s.size();
}

// The source as words (identifiers, keywords) and single punctuation
// characters; comments and literals dropped, each literal leaving a "\"".
std::vector<std::string> tokens(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const auto j = skip_comment_or_literal(s, i);
    if (j != i) {
      if (s[i] != '/') out.emplace_back("\"");
      i = j;
    } else if (space(s[i])) {
      ++i;
    } else if (ident_char(s[i])) {
      auto k = i;
      while (k < s.size() && ident_char(s[k])) ++k;
      out.push_back(s.substr(i, k - i));
      i = k;
    } else {
      out.emplace_back(1, s[i++]);
    }
  }
  return out;
}

/// A task's Cargo.toml, parsed: [lib] doctest = false (tests.rs is the
/// judge), no dependency of any kind in any spelling ([dependencies],
/// [dependencies.x], dependencies = {...}, [target.'cfg'.dependencies]) and
/// no build script (the suite runs offline and builds nothing but the crate).
void check_manifest(const std::string& text, const std::string& path) {
  toml::table m;
  try {
    m = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw dataset_error(path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  const auto doctest = m["lib"]["doctest"].value<bool>();
  if (!doctest || *doctest) throw dataset_error(path + ": [lib] needs doctest = false (tests.rs is the judge)");
  const auto no_dependencies = [&](const toml::table& t, const std::string& where) {
    for (const char* key : {"dependencies", "dev-dependencies", "build-dependencies"}) {
      const auto* d = t.get(key);
      if (d && !(d->is_table() && d->as_table()->empty()))
        throw dataset_error(path + ": " + where + key + " is not empty (the suite runs offline, without crates)");
    }
  };
  no_dependencies(m, "");
  if (const auto* targets = m["target"].as_table())
    for (auto&& [cfg, t] : *targets)
      if (const auto* tt = t.as_table()) no_dependencies(*tt, "target." + std::string(cfg.str()) + ".");
  if (m["package"]["build"]) throw dataset_error(path + ": package.build: no build script (the suite runs offline)");
  if (m.contains("patch") || m.contains("replace"))
    throw dataset_error(path + ": [patch] and [replace] name crates from elsewhere (the suite runs offline)");
}
}  // namespace

std::size_t tests_module_insertion_point(const std::string& s) {
  std::size_t i = starts(s, 0, "\xEF\xBB\xBF") ? 3 : 0;
  // A first line "#!..." is a shebang unless a "[" follows (an inner attribute).
  if (starts(s, i, "#!")) {
    const auto next = skip_trivia(s, i + 2);
    if (next >= s.size() || s[next] != '[') {
      const auto nl = s.find('\n', i);
      i = nl == std::string::npos ? s.size() : nl + 1;
    }
  }
  for (;;) {
    i = skip_space(s, i);
    if ((starts(s, i, "//") || starts(s, i, "/*")) && !outer_doc_comment(s, i)) {
      i = skip_comment_or_literal(s, i);  // plain comments and inner doc comments
      continue;
    }
    if (starts(s, i, "#!")) {
      const auto open = skip_trivia(s, i + 2);
      if (open < s.size() && s[open] == '[') {
        i = past_brackets(s, open);
        continue;
      }
    }
    return i;
  }
}

std::string with_tests_module(const std::string& lib_rs) {
  const auto at = tests_module_insertion_point(lib_rs);
  std::string out = lib_rs.substr(0, at);
  // At the end (no item), the file may end inside a line comment.
  if (at == lib_rs.size()) out.push_back('\n');
  out.append(test_module_declaration);
  if (at == lib_rs.size()) out.push_back('\n');
  out.append(lib_rs, at, std::string::npos);
  return out;
}

std::vector<std::string> test_function_names(const std::string& tests_rs) {
  const auto t = tokens(tests_rs);
  std::vector<std::string> names;
  // Open inline modules: name and the brace depth inside them.
  std::vector<std::pair<std::string, int>> mods;
  int depth = 0;
  bool test = false, ignored = false;
  auto is = [&](std::size_t k, const char* what) { return k < t.size() && t[k] == what; };
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (is(k, "#") && is(k + 1, "[")) {
      if (is(k + 2, "test") && is(k + 3, "]")) test = true;
      if (is(k + 2, "ignore")) ignored = true;
    } else if (is(k, "mod") && k + 2 < t.size() && t[k + 2] == "{" && ident_char(t[k + 1][0])) {
      mods.emplace_back(t[k + 1], depth + 1);
    } else if (is(k, "fn") && k + 1 < t.size()) {
      if (test && !ignored) {
        std::string name = tests_module;
        for (const auto& m : mods) name += "::" + m.first;
        names.push_back(name + "::" + t[k + 1]);
      }
      test = ignored = false;
    } else if (is(k, "{")) {
      ++depth;
    } else if (is(k, "}")) {
      if (!mods.empty() && mods.back().second == depth) mods.pop_back();
      --depth;
    }
  }
  return names;
}

const std::vector<goal>& goals() {
  // The spec names the goals but maps no task to them; this table does
  // (docs/rust-benchmarks.md, "Goals"). Categories carry the goals they are
  // about; the goals that cut across categories (error handling, type
  // inference, borrow checking) come from the tags v1 uses for them.
  static const std::vector<goal> table = {
      {"G1", "code completion", {"completion", "fim"}, {}},
      {"G2", "function synthesis", {"functions"}, {}},
      {"G3", "refactoring", {"refactor"}, {"refactor"}},
      {"G4", "ownership correctness", {"ownership"},
       {"ownership", "move_semantics", "move_vs_borrow", "move_closures", "clone_vs_borrow", "clone_vs_share",
        "arc", "arc_mutex", "arc_rwlock", "rc_refcell", "rc_weak", "interior_mutability", "send_sync"}},
      {"G5", "error handling", {}, {"error_handling", "result", "question_mark", "error_source"}},
      {"G6", "type inference", {}, {"type_inference"}},
      {"G7", "borrow checker reasoning", {},
       {"borrow_checker", "borrowing", "lifetimes", "struct_lifetime", "mutable_aliasing", "mutable_borrow",
        "mutable_reference", "move_out_of_borrow", "returning_references", "dangling_reference",
        "conditional_return_borrow", "iterator_invalidation", "split_at_mut", "mutex_guard_lifetime"}},
      {"G8", "multi-file reasoning", {"projects"}, {"modules"}},
  };
  return table;
}

std::vector<std::string> goals_of(const task& t) {
  std::vector<std::string> tags;
  for (std::string tag : t.tags) {
    for (char& c : tag) c = c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    tags.push_back(std::move(tag));
  }
  const auto has = [](const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  std::vector<std::string> ids;
  for (const auto& g : goals()) {
    std::string own_tag = g.id;
    own_tag[0] = 'g';
    const bool by_tag = std::any_of(tags.begin(), tags.end(), [&](const std::string& tag) {
      return tag == own_tag || has(g.tags, tag);
    });
    if (has(g.categories, t.category) || by_tag) ids.push_back(g.id);
  }
  return ids;
}

splice_kind splice_kind_of(const std::string& category) {
  if (category == "fim") return splice_kind::fill_in_middle;
  if (category == "bugs" || category == "refactor" || category == "ownership") return splice_kind::whole_file;
  if (category == "projects") return splice_kind::project_file;
  return splice_kind::continuation;
}

const char* splice_kind_name(splice_kind k) {
  switch (k) {
    case splice_kind::continuation:
      return "continuation";
    case splice_kind::fill_in_middle:
      return "fill-in-middle";
    case splice_kind::whole_file:
      return "whole file";
    case splice_kind::project_file:
      return "project file";
  }
  return "?";
}

std::string task::oracle_output() const {
  switch (kind()) {
    case splice_kind::continuation:
      return solution.substr(prompt.size());
    case splice_kind::fill_in_middle:
      return solution.substr(prefix.size(), solution.size() - prefix.size() - suffix.size());
    default:
      return solution;
  }
}

std::string task::identity_output() const {
  return kind() == splice_kind::continuation || kind() == splice_kind::fill_in_middle ? std::string() : prompt;
}

std::map<std::string, std::string> task::crate_files(const std::string& output) const {
  std::map<std::string, std::string> files = context;
  files["Cargo.toml"] = cargo_toml;
  switch (kind()) {
    case splice_kind::continuation:
      files[target_file] = prompt + output;
      break;
    case splice_kind::fill_in_middle:
      files[target_file] = prefix + output + suffix;
      break;
    default:
      files[target_file] = output;
      break;
  }
  // The tests are always part of the crate, whatever the model wrote: the
  // module is declared before the crate root's first item (docs/rust-benchmarks.md).
  files["src/lib.rs"] = with_tests_module(files["src/lib.rs"]);
  files["src/bem_tests.rs"] = tests;
  return files;
}

task load_task(const fs::path& dir) {
  task t;
  t.dir = dir;
  t.id = dir.filename().string();
  t.category = dir.parent_path().filename().string();
  problem_list problems;
  for (const char* f : task_files)
    if (!fs::is_regular_file(dir / f) && !fs::is_symlink(dir / f)) problems.add((dir / f).string() + ": missing");
  const auto& cats = category_names();
  if (std::find(cats.begin(), cats.end(), t.category) == cats.end())
    problems.add(dir.string() + ": unknown category folder '" + t.category + "'");
  const bool project = t.category == "projects";
  const auto files = folder_files(dir, project, problems);
  const auto meta_path = dir / "metadata.yaml";
  YAML::Node meta;
  if (files.count("metadata.yaml")) {
    try {
      meta = YAML::Load(files.at("metadata.yaml"));
      if (!meta.IsMap()) problems.add(meta_path.string() + ": must be a mapping of fields");
    } catch (const YAML::Exception& e) {
      problems.add(meta_path.string() + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
    }
  }
  if (meta.IsMap()) {
    const YAML::Node& m = meta;  // const: operator[] of a missing key must not add it
    for (const auto& kv : m) {
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "?";
      if (std::none_of(std::begin(metadata_fields), std::end(metadata_fields), [&](const char* f) { return key == f; }))
        problems.add(where(meta_path, kv.first) + ": unknown field '" + key +
                     "' (the fields are id, category, difficulty, expected_runtime_s, tags, expected_behavior, "
                     "compile_command, test_command, target_file)");
    }
    const auto field_at = [&](const char* f) { return where(meta_path, m[f]); };
    if (const auto id = scalar(m, meta_path, "id", problems); id && *id != t.id)
      field_error(problems, field_at("id"), "id", "must equal the folder name '" + t.id + "'");
    if (!std::regex_match(t.id, std::regex("[a-z0-9_]+")))
      field_error(problems, field_at("id"), "id", "lower-case letters, digits, _");
    if (const auto c = scalar(m, meta_path, "category", problems); c && *c != t.category)
      field_error(problems, field_at("category"), "category", "must equal the parent folder '" + t.category + "'");
    if (const auto d = scalar(m, meta_path, "difficulty", problems)) {
      t.difficulty = *d;
      if (std::find(difficulty_names().begin(), difficulty_names().end(), t.difficulty) == difficulty_names().end())
        field_error(problems, field_at("difficulty"), "difficulty", "must be easy, medium or hard");
    }
    if (const auto rt = scalar(m, meta_path, "expected_runtime_s", problems)) {
      try {
        t.expected_runtime_s = std::stod(*rt);
      } catch (const std::logic_error&) {
        field_error(problems, field_at("expected_runtime_s"), "expected_runtime_s", "must be a number of seconds");
      }
    }
    const YAML::Node tags = m["tags"];
    if (!tags) {
      field_error(problems, meta_path.string(), "tags", "missing");
    } else if (!tags.IsSequence() || tags.size() == 0) {
      field_error(problems, field_at("tags"), "tags", "must be a non-empty list");
    } else {
      for (const auto& tag : tags) {
        if (!tag.IsScalar() || tag.Scalar().empty())
          field_error(problems, field_at("tags"), "tags", "must hold non-empty strings");
        else
          t.tags.push_back(tag.Scalar());
      }
    }
    if (const auto b = scalar(m, meta_path, "expected_behavior", problems)) t.expected_behavior = *b;
    // Optional: the runner runs its own commands (docs: "Execution"). Given,
    // they must say what it runs, so no reader takes another command for the judge's.
    for (const auto& [field, command, out] : {std::tuple<const char*, const char*, std::string*>{
                                                  "compile_command", "cargo build --offline", &t.compile_command},
                                              {"test_command", "cargo test --offline", &t.test_command}}) {
      *out = command;
      if (!m[field]) continue;
      if (const auto given = scalar(m, meta_path, field, problems); given && *given != command)
        field_error(problems, field_at(field), field, std::string("must be '") + command + "' (or left out)");
    }
    if (project) {
      if (const auto target = scalar(m, meta_path, "target_file", problems)) {
        t.target_file = *target;
        if (t.target_file.rfind("src/", 0) != 0 || t.target_file.find("..") != std::string::npos)
          field_error(problems, field_at("target_file"), "target_file", "must be a path under src/");
      }
    } else if (m["target_file"]) {
      field_error(problems, field_at("target_file"), "target_file", "only projects name a target file");
    }
  }
  if (files.count("Cargo.toml")) {
    try {
      check_manifest(files.at("Cargo.toml"), (dir / "Cargo.toml").string());
    } catch (const dataset_error& e) {
      problems.add(e.what());
    }
  }
  problems.throw_if_any();  // what follows needs every file and field

  t.sha256 = hash_files(files);
  t.prompt = files.at("prompt.rs");
  t.solution = files.at("solution.rs");
  t.tests = files.at("tests.rs");
  t.cargo_toml = files.at("Cargo.toml");
  t.test_names = test_function_names(t.tests);
  if (t.test_names.empty()) problems.add((dir / "tests.rs").string() + ": no #[test] function");
  for (const auto& [name, text] : files)
    if (name.rfind("src/", 0) == 0) t.context[name] = text;  // projects only (folder_files)
  if (project) {
    if (t.context.count(t.target_file))
      field_error(problems, where(meta_path, static_cast<const YAML::Node&>(meta)["target_file"]), "target_file",
                  t.target_file + " must not also be a context file (prompt.rs is it)");
    if (t.target_file != "src/lib.rs" && !t.context.count("src/lib.rs"))
      problems.add((dir / "src/lib.rs").string() + ": missing (projects need a crate root)");
  }

  switch (t.kind()) {
    case splice_kind::continuation:
      if (t.solution.compare(0, t.prompt.size(), t.prompt) != 0)
        problems.add((dir / "solution.rs").string() + ": must start with prompt.rs (continuation task)");
      break;
    case splice_kind::fill_in_middle: {
      const auto at = t.prompt.find(fim_marker);
      if (at == std::string::npos || t.prompt.find(fim_marker, at + 1) != std::string::npos) {
        problems.add((dir / "prompt.rs").string() + ": must hold the marker " + fim_marker + " exactly once");
        break;
      }
      t.prefix = t.prompt.substr(0, at);
      t.suffix = t.prompt.substr(at + std::string(fim_marker).size());
      if (t.solution.size() < t.prefix.size() + t.suffix.size() || t.solution.compare(0, t.prefix.size(), t.prefix) ||
          t.solution.compare(t.solution.size() - t.suffix.size(), t.suffix.size(), t.suffix))
        problems.add((dir / "solution.rs").string() + ": must start with the prefix and end with the suffix");
      break;
    }
    default:
      break;
  }
  problems.throw_if_any();
  return t;
}

dataset load_dataset(const fs::path& root, const std::vector<std::string>& categories) {
  dataset d;
  d.root = root;
  d.version = root.filename().string();
  if (!fs::is_directory(root)) throw dataset_error(root.string() + ": no such dataset folder");
  const auto& cats = category_names();
  problem_list problems;
  for (const auto& c : categories)
    if (std::find(cats.begin(), cats.end(), c) == cats.end()) throw dataset_error("unknown category '" + c + "'");
  // A category folder may be missing (a dataset of fim tasks only has no
  // other); a folder of task folders that is no category (a misspelt one)
  // would drop its tasks unseen: refused. Other folders are not the loader's.
  for (const auto& e : fs::directory_iterator(root)) {
    if (!e.is_directory() || std::find(cats.begin(), cats.end(), e.path().filename().string()) != cats.end()) continue;
    std::error_code ec;
    for (const auto& sub : fs::directory_iterator(e.path(), ec)) {
      if (fs::exists(sub.path() / "metadata.yaml", ec)) {
        problems.add(e.path().string() +
                     ": holds tasks but is not a category folder (completion, fim, functions, bugs, refactor, "
                     "ownership, projects, stdlib)");
        break;
      }
    }
  }
  for (const auto& cat : cats) {
    const bool selected =
        categories.empty() || std::find(categories.begin(), categories.end(), cat) != categories.end();
    if (!selected) continue;
    if (!fs::is_directory(root / cat)) {
      if (!categories.empty()) problems.add((root / cat).string() + ": category folder missing");
      continue;
    }
    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator(root / cat))
      if (e.is_directory()) dirs.push_back(e.path());
    std::sort(dirs.begin(), dirs.end());
    // Every task's problems, not only the first task's.
    for (const auto& dir : dirs) {
      try {
        d.tasks.push_back(load_task(dir));
      } catch (const dataset_error& e) {
        problems.add_all(e.what());
      }
    }
  }
  std::map<std::string, const task*> seen;
  for (const auto& t : d.tasks) {
    if (auto [it, fresh] = seen.emplace(t.id, &t); !fresh)
      problems.add(t.dir.string() + ": id '" + t.id + "' also used by " + it->second->dir.string());
  }
  if (problems.empty() && d.tasks.empty()) problems.add(root.string() + ": no task folders (root/<category>/<id>/)");
  problems.throw_if_any();
  return d;
}

std::string dataset::manifest() const {
  std::vector<std::string> lines;
  for (const auto& t : tasks) lines.push_back(t.sha256 + "  " + t.category + "/" + t.id + "\n");
  std::sort(lines.begin(), lines.end(),
            [](const std::string& a, const std::string& b) { return a.substr(66) < b.substr(66); });
  std::string out;
  for (const auto& l : lines) out += l;
  return out;
}

std::string dataset::manifest_hash() const {
  const auto d = bem::sha256(manifest());
  return bem::to_hex(d);
}

}  // namespace rust_cargo
