// Language modelling (BEM suite §4): corpora, tokens, Kneser-Ney, the BEM LM.
#include <bem/learn/language_model.hpp>
#include <bem/learn/ngram.hpp>
#include <tasks/corpus.hpp>
#include <tasks/rust_tokens.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace bem;

/// A folder of files named so that each split gets some (their buckets are
/// fnv1a64(path) mod 20, as the split rule says).
struct fixture_folder {
  fs::path root = fs::temp_directory_path() / ("bem_lm_test." + std::to_string(::getpid()));
  std::vector<std::string> paths;
  fixture_folder() {
    fs::create_directories(root / "sub");
    std::array<int, 3> have{};
    for (int i = 0; paths.size() < 40 || have[0] == 0 || have[1] == 0; ++i) {
      const std::string rel = "sub/doc" + std::to_string(i) + ".txt";
      ++have[static_cast<std::size_t>(tasks::split_of_path(rel))];
      paths.push_back(rel);
      std::ofstream(root / rel, std::ios::binary) << "Document " << i << " says\tthe lock guards the page.\r\n";
    }
    std::ofstream(root / "ignored.md") << "not a .txt file";
  }
  ~fixture_folder() { fs::remove_all(root); }
};

std::vector<std::uint32_t> symbols_of(const std::string& s) {
  std::vector<std::uint32_t> v;
  for (char c : s) v.push_back(static_cast<std::uint32_t>(tasks::symbol_of(c)));
  return v;
}

/// The model with 2^23 bits of SHARED (1 MiB): enough for table_bits = 10.
using small_model = learn::basic_language_model<std::size_t{1} << 23>;

std::string repeated_text(int copies) {
  std::string t;
  for (int i = 0; i < copies; ++i)
    t += "The page lock protects the list of free pages; take it before the zone lock.\n";
  return t;
}

}  // namespace

TEST_CASE("the alphabet C has 96 characters, and bytes outside it map as documented") {
  for (int s = 0; s < tasks::alphabet_size; ++s) CHECK(tasks::symbol_of(tasks::char_of(s)) == s);
  CHECK(tasks::symbol_of('\n') == 95);
  CHECK(tasks::symbol_of(' ') == 0);
  CHECK(tasks::symbol_of('\t') == -1);
  CHECK(tasks::symbol_of('\x7f') == -1);
  std::string out;
  tasks::alphabet_mapping m;
  tasks::map_to_alphabet("a\tb\r\nc\xc3\xa9" "d\x01" "e", out, m);
  CHECK(out == "a b\nc?d?e");
  CHECK(m.bytes == 11);
  CHECK(m.kept == 6);
  CHECK(m.tabs == 1);
  CHECK(m.carriage_returns == 1);
  CHECK(m.non_ascii_characters == 1);
  CHECK(m.continuation_bytes == 1);
  CHECK(m.other_controls == 1);
}

TEST_CASE("a corpus splits by the hash of each file's path, and its hashes are its texts'") {
  fixture_folder f;
  const tasks::corpus c = tasks::corpus_from_folder("fixture", f.root.string(), {"sub"}, {}, ".txt");
  std::size_t files = 0;
  for (std::size_t s = 0; s < 3; ++s) {
    files += c.files[s].size();
    CHECK(std::is_sorted(c.files[s].begin(), c.files[s].end()));
    for (const auto& rel : c.files[s]) CHECK(static_cast<std::size_t>(tasks::split_of_path(rel)) == s);
    CHECK(c.sha256[s] == to_hex(sha256(std::string_view(c.text[s]))));
    CHECK(c.text[s].back() == '\n');
    CHECK(c.text[s].find('\t') == std::string::npos);
    CHECK(c.text[s].find('\r') == std::string::npos);
  }
  CHECK(files == f.paths.size());  // ignored.md is not read
  CHECK(c.mapping.tabs == f.paths.size());
  // The same files give the same texts.
  CHECK(tasks::corpus_from_folder("again", f.root.string(), {"sub"}, {}, ".txt").sha256 == c.sha256);
  // An excluded folder is left out.
  CHECK_THROWS_WITH_AS(tasks::corpus_from_folder("none", f.root.string(), {}, {"sub"}, ".txt"),
                       doctest::Contains("has no files"), std::runtime_error);
}

TEST_CASE("an installed corpus is refused when its package is missing, of a version no pin names, or differs from its pin") {
  fixture_folder f;
  const fs::path status = f.root / "status";
  auto write_status = [&](const std::string& version) {
    std::ofstream(status) << "Package: other\nStatus: install ok installed\nVersion: 1\n\n"
                          << "Package: corpus-pkg\nStatus: install ok installed\nVersion: " << version << "\n";
  };
  const auto hashes = tasks::corpus_from_folder("fixture", f.root.string(), {"sub"}, {}, ".txt").sha256;
  auto other = hashes;
  other[2][0] = other[2][0] == '0' ? '1' : '0';
  // Two pins: 1.9-1 with other files (its test split differs), 2.0-1 with these.
  const tasks::corpus_definition d{"fixture", "a test corpus", "corpus-pkg", f.root.string(), {"sub"}, {}, ".txt",
                                   {{"1.9-1", other}, {"2.0-1", hashes}}};
  std::ofstream(status) << "Package: other\nStatus: install ok installed\nVersion: 1\n";
  CHECK_THROWS_WITH_AS(tasks::load_corpus(d, status.string()),
                       doctest::Contains("needs the Debian package corpus-pkg (version 1.9-1, 2.0-1), which is not installed"),
                       std::runtime_error);
  write_status("2.1-1");
  CHECK_THROWS_WITH_AS(tasks::load_corpus(d, status.string()),
                       doctest::Contains("is version 2.1-1, but the corpus is pinned to version 1.9-1, 2.0-1"),
                       std::runtime_error);
  write_status("2.0-1");
  const tasks::corpus c = tasks::load_corpus(d, status.string());
  CHECK(c.version == "2.0-1");
  CHECK(c.sha256 == hashes);
  write_status("1.9-1");
  const std::string differs = "corpus \"fixture\": the test split's SHA-256 is " + hashes[2] +
                              ", but corpus-pkg 1.9-1 is pinned to " + other[2] + ": refused";
  CHECK_THROWS_WITH_AS(tasks::load_corpus(d, status.string()), doctest::Contains(differs.c_str()), std::runtime_error);
  // A new version's pin with its hashes not yet known: one refusal names all three.
  const tasks::corpus_definition fresh{"fixture", "", "corpus-pkg", f.root.string(), {"sub"}, {}, ".txt",
                                       {{"1.9-1", {"", "", ""}}}};
  try {
    tasks::load_corpus(fresh, status.string());
    FAIL("an empty pin was accepted");
  } catch (const std::runtime_error& e) {
    for (std::size_t s = 0; s < 3; ++s)
      CHECK(std::string(e.what()).find(std::string("the ") + tasks::corpus_split_names[s] + " split's SHA-256 is " +
                                       hashes[s] + ", but corpus-pkg 1.9-1 is pinned to (none)") != std::string::npos);
  }
  // The project's own corpora name their packages, and each pins every split.
  CHECK(tasks::corpus_named("english").package == "linux-doc-6.1");
  CHECK(tasks::corpus_named("rust").package == "rust-src");
  for (const auto& k : tasks::known_corpora()) {
    CHECK_FALSE(k.pins.empty());
    for (const auto& p : k.pins)
      for (const auto& h : p.sha256) CHECK(h.size() == 64);
  }
  CHECK_THROWS_WITH_AS(tasks::corpus_named("latin"), doctest::Contains("known: english, rust"), std::invalid_argument);
}

TEST_CASE("Rust tokens cover the text, one class each") {
  const std::string src =
      "fn f<'a>(x: &'a str) -> u8 { /* a /* nested */ c */ let c = 'x'; let r = r#\"q\"#; // end\n"
      "    x.len() as u8 + 0x1F_u8 >>= b'\\n' }";
  const auto toks = tasks::tokenize_rust(src);
  std::string back;
  for (const auto& t : toks) back += t.text;
  CHECK(back == src);
  auto kind_of = [&](std::string_view text) {
    for (const auto& t : toks)
      if (t.text == text) return tasks::token_class_names[static_cast<std::size_t>(t.kind)];
    return "missing";
  };
  CHECK(std::string(kind_of("fn")) == "keyword");
  CHECK(std::string(kind_of("'a")) == "identifier");
  CHECK(std::string(kind_of("'x'")) == "literal");
  CHECK(std::string(kind_of("/* a /* nested */ c */")) == "comment");
  CHECK(std::string(kind_of("r#\"q\"#")) == "literal");
  CHECK(std::string(kind_of("// end")) == "comment");
  CHECK(std::string(kind_of("\n    ")) == "whitespace");
  CHECK(std::string(kind_of("0x1F_u8")) == "literal");
  CHECK(std::string(kind_of(">>=")) == "operator");
  CHECK(std::string(kind_of("->")) == "operator");
  CHECK(std::string(kind_of("b'\\n'")) == "literal");
  CHECK(std::string(kind_of("{")) == "punctuation");
  CHECK(std::string(kind_of("len")) == "identifier");
}

TEST_CASE("the vocabulary keeps tokens seen min_count times; others are their class's OOV token") {
  const std::string train_text = "let a = b; let a = c;";
  const auto train = tasks::tokenize_rust(train_text);
  const tasks::token_vocabulary v(train, 2);
  const auto test = tasks::tokenize_rust("let z = a;");
  const auto ids = v.ids(test);
  CHECK(v.text(ids[0]) == "let");
  CHECK(v.text(ids[2]) == "<oov:identifier>");
  CHECK(v.is_oov(ids[2]));
  CHECK(v.text(ids[6]) == "a");
  CHECK(v.text(ids[7]) == ";");
  CHECK(v.text(0) == " ");  // the most frequent first
  CHECK(v.size() == 5 + 8);  // " ", "let", "a", "=", ";" and 8 OOV tokens
}

TEST_CASE("bracket balance of a continuation against the prefix's open brackets") {
  CHECK(tasks::brackets_balanced({'{', '('}, {"x", ")", "}"}));
  CHECK(tasks::brackets_balanced({}, {"(", "[", "]"}));  // left open is no error
  CHECK_FALSE(tasks::brackets_balanced({'{'}, {")"}));
  CHECK_FALSE(tasks::brackets_balanced({}, {"}"}));
  CHECK_FALSE(tasks::brackets_balanced({'('}, {"[", ")"}));
}

TEST_CASE("Kneser-Ney: a distribution over the whole vocabulary, sharp on what it has seen") {
  const auto train = symbols_of(repeated_text(20));
  for (int order : {1, 3, 6}) {
    const learn::kneser_ney_model kn(train, 96, order);
    const std::vector<std::vector<std::uint32_t>> histories = {{}, symbols_of("The page l"), symbols_of("zzzq")};
    for (const auto& h : histories) {
      double sum = 0;
      for (std::uint32_t w = 0; w < 96; ++w) {
        const double p = kn.probability(h, w);
        CHECK(p > 0);
        sum += p;
      }
      CHECK(sum == doctest::Approx(1.0).epsilon(1e-9));
    }
  }
  const learn::kneser_ney_model kn(train, 96, 6);
  CHECK(kn.probability(symbols_of("The page l"), static_cast<std::uint32_t>(tasks::symbol_of('o'))) > 0.9);
  CHECK(kn.discounts(6)[0] >= 0);
  // Sampling follows the model: after "The page l" nearly always 'o'.
  xoshiro256ss rng(7);
  int o = 0;
  for (int i = 0; i < 200; ++i) o += kn.sample(symbols_of("The page l"), rng) == static_cast<std::uint32_t>(tasks::symbol_of('o'));
  CHECK(o > 170);
  CHECK_THROWS_AS(learn::kneser_ney_model(train, 96, 10), std::invalid_argument);  // 10 * 7 bits > 64
}

TEST_CASE("the BEM language model: a distribution over V, frozen scoring changes no SHARED, learning lowers the cost") {
  for (std::uint32_t V : {96u, 40u}) {
    learn::language_model_config cfg;
    cfg.vocabulary = V;
    cfg.table_bits = 10;
    if (V != 96) {
      cfg.symbols = learn::lm_symbols::code_tokens;
      cfg.roles.assign(V, learn::token_role::other);
      cfg.roles[3] = learn::token_role::open_brace;
      cfg.roles[4] = learn::token_role::close_brace;
      cfg.roles[5] = learn::token_role::identifier;
    }
    small_model m(cfg);
    for (std::uint32_t s = 0; s < 300; ++s) m.code_length((s * 7) % V, true);
    const auto before = m.save();
    double sum = 0;
    for (std::uint32_t w = 0; w < V; ++w) {
      sum += std::exp2(-m.code_length(w, false));
      m.restore(before);
    }
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-9));
    xoshiro256ss rng(3);
    for (int i = 0; i < 50; ++i) CHECK(m.sample(rng) < V);
    m.restore(before);
    CHECK(m.position() == 300);
  }
  learn::language_model_config cfg;
  cfg.table_bits = 10;
  small_model m(cfg);
  const auto text = symbols_of(repeated_text(12));
  const std::size_t line = text.size() / 12;
  double first = 0, last = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const double b = m.code_length(text[i], true);
    if (i < line) first += b;
    if (i >= text.size() - line) last += b;
  }
  CHECK(first / static_cast<double>(line) > 3.0);  // nothing known yet: several bits a character
  CHECK(last / static_cast<double>(line) < 0.3);   // the line learned: a fraction of a bit
  // Frozen scoring leaves SHARED (and Theta) exactly as they were.
  const auto shared_before = std::make_unique<small_model::shared_type>(m.shared());
  for (char c : std::string("The zone lock protects the page.\n")) m.code_length(static_cast<std::uint32_t>(tasks::symbol_of(c)), false);
  CHECK(*shared_before == m.shared());
  m.code_length(0, true);
  CHECK_FALSE(*shared_before == m.shared());
  cfg.table_bits = 11;  // 2^11 blocks of 512 bits for 8 experts: more than 2^23 bits
  CHECK_THROWS_WITH_AS(small_model{cfg}, doctest::Contains("does not fit SHARED"), std::invalid_argument);
}
