// Text corpora for the language-modelling tasks (BEM suite §4.1, §4.2):
// the 96-character alphabet C, the mapping of a file's bytes onto it, the
// split of a corpus's files into train / validation / test, and the
// corpora installed from Debian packages, pinned by package version and by
// the SHA-256 of every split (docs/language-modelling.md).
//
// Alphabet C (96 characters): the 95 printable ASCII characters 0x20..0x7E
// (symbols 0..94, symbol = byte - 0x20) and the newline (symbol 95).
//
// Mapping of bytes onto C (map_to_alphabet), byte by byte:
//   0x20..0x7E and '\n'       kept;
//   '\t'                      one space;
//   '\r'                      dropped (CRLF line ends become '\n');
//   a UTF-8 lead byte 0xC0..0xFF  one '?' (a multi-byte character is one
//                             character of text, and becomes one '?');
//   a continuation byte 0x80..0xBF  dropped (it belongs to the '?' before);
//   any other control byte    one '?'.
// Each case is counted (alphabet_mapping), so a corpus's statistics say how
// much of it was not already in C.
//
// Split rule (split_of_path): the files of a corpus are the regular files
// under its root (in the listed subfolders, if any, less the excluded ones)
// whose names end in its
// suffix; each goes wholly to one split by its path relative to the root:
//   bucket = fnv1a64(relative path) mod 20:  0 test, 1 validation, else train
// (about 5 %, 5 % and 90 % of the files). A split is its files' mapped texts
// concatenated in the byte order of their relative paths, each ending in a
// newline (one is added where a file has none). The rule needs no list of
// files, so it reads any version of a package the same way; the SHA-256 of
// each split's text is what pins the data.
//
// Installed corpora (known_corpora): each names its Debian package and a
// list of pins, one per known package version with the SHA-256 of each
// split at that version (a Debian point release changes the files, so each
// version has its own hashes). load_corpus refuses a package that is not
// installed (naming the package to install), an installed version that no
// pin names (naming it and the pinned ones), and a split whose SHA-256
// differs from its version's pin. To accept a new version, add a pin to
// the list (docs/language-modelling.md says how to get its hashes); nothing
// else changes. A corpus read from a folder of one's own
// (corpus_from_folder) has no pins; its hashes are reported, not checked.
#pragma once

#include <bem/machine/hash.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace tasks {

/// |C|: 95 printable ASCII characters and the newline.
inline constexpr int alphabet_size = 96;

/// The symbol of a character of C, or -1 for a character outside it.
constexpr int symbol_of(char c) noexcept {
  const auto u = static_cast<unsigned char>(c);
  if (u == '\n') return 95;
  return u >= 0x20 && u <= 0x7E ? u - 0x20 : -1;
}
/// The character of a symbol 0..95.
constexpr char char_of(int symbol) noexcept { return symbol == 95 ? '\n' : static_cast<char>(symbol + 0x20); }

/// What map_to_alphabet did with the bytes it read (the file comment).
struct alphabet_mapping {
  std::uint64_t bytes = 0;                 ///< bytes read
  std::uint64_t kept = 0;                  ///< already in C
  std::uint64_t tabs = 0;                  ///< '\t', now one space
  std::uint64_t carriage_returns = 0;      ///< '\r', dropped
  std::uint64_t non_ascii_characters = 0;  ///< UTF-8 lead bytes, each now one '?'
  std::uint64_t continuation_bytes = 0;    ///< UTF-8 continuation bytes, dropped
  std::uint64_t other_controls = 0;        ///< other control bytes, each now one '?'
  alphabet_mapping& operator+=(const alphabet_mapping& o) {
    bytes += o.bytes, kept += o.kept, tabs += o.tabs, carriage_returns += o.carriage_returns;
    non_ascii_characters += o.non_ascii_characters, continuation_bytes += o.continuation_bytes;
    other_controls += o.other_controls;
    return *this;
  }
};

/// `bytes` mapped onto C (the file comment), appended to `out`.
inline void map_to_alphabet(std::string_view bytes, std::string& out, alphabet_mapping& m) {
  m.bytes += bytes.size();
  for (char ch : bytes) {
    const auto u = static_cast<unsigned char>(ch);
    if (symbol_of(ch) >= 0) ++m.kept, out += ch;
    else if (u == '\t') ++m.tabs, out += ' ';
    else if (u == '\r') ++m.carriage_returns;
    else if (u >= 0xC0) ++m.non_ascii_characters, out += '?';
    else if (u >= 0x80) ++m.continuation_bytes;
    else ++m.other_controls, out += '?';
  }
}

enum class corpus_split : int { train = 0, validation = 1, test = 2 };
inline constexpr std::array<const char*, 3> corpus_split_names = {"train", "validation", "test"};

/// The split a file goes to, by its path relative to the corpus root.
inline corpus_split split_of_path(std::string_view relative_path) noexcept {
  const std::uint64_t bucket = fnv1a64(relative_path) % 20;
  return bucket == 0 ? corpus_split::test : bucket == 1 ? corpus_split::validation : corpus_split::train;
}

/// One accepted package version and the SHA-256 (hex) of each split's text
/// at that version (train, validation, test).
struct corpus_pin {
  std::string version;
  std::array<std::string, 3> sha256;
};

/// A corpus as a Debian package installs it.
struct corpus_definition {
  std::string name;                  ///< "english", "rust"
  std::string description;
  std::string package;               ///< the Debian package
  std::string root;                  ///< where its files are
  std::vector<std::string> folders;  ///< subfolders of root to read (empty: all of root)
  std::vector<std::string> excluded; ///< subfolders of root left out
  std::string suffix;                ///< file names ending in this
  std::vector<corpus_pin> pins;      ///< the accepted versions, oldest first

  /// The pinned versions, comma-separated, for messages.
  std::string pinned_versions() const {
    std::string v;
    for (const auto& p : pins) v += (v.empty() ? "" : ", ") + p.version;
    return v;
  }
};

/// The corpora this project measures on (docs/language-modelling.md).
inline const std::vector<corpus_definition>& known_corpora() {
  static const std::vector<corpus_definition> v = {
      {"english", "the Linux kernel's documentation, reStructuredText sources without the translations (English prose "
       "with markup)",
       "linux-doc-6.1", "/usr/share/doc/linux-doc-6.1/html/_sources", {}, {"translations"}, ".rst.txt",
       {{"6.1.192-3",
         {"952a16b2e7ed5885f2c93c711b0cca496d034a1dec9333167b96d52b1fbf8375",
          "1e9d7f2bfaae26ca5d26df9776dcdeac403b98113bb16e5e7050bcf7a5c3b343",
          "70f5db62f5a72d0a31cf06a5b38513bc1fb01f0b62cad2764e00c18bb9aef0e7"}}}},
      {"rust", "the Rust 1.63 standard library sources (core, alloc, std)", "rust-src",
       "/usr/src/rustc-1.63.0/library", {"core", "alloc", "std"}, {}, ".rs",
       {{"1.63.0+dfsg1-2",
         {"e726a17f99946d141951eccce53d416d409f0f7935e342c9bcb080837ab0684e",
          "8533ad64049f2ee61403cdfd3488da1664d20c1c17cd5a4772c5ae381f94084f",
          "2c31680550b315aba8cebd475ef06492699b97e8bf311ad10ad78ab241ac04ed"}}}},
  };
  return v;
}

/// The definition named `name`; an unknown name is an error listing the known ones.
inline const corpus_definition& corpus_named(std::string_view name) {
  std::string known;
  for (const auto& c : known_corpora()) {
    if (c.name == name) return c;
    known += (known.empty() ? "" : ", ") + c.name;
  }
  throw std::invalid_argument("unknown corpus \"" + std::string(name) + "\" (known: " + known + ")");
}

/// Per-symbol counts of a text over C, and what they give.
struct character_distribution {
  std::array<std::uint64_t, alphabet_size> counts{};
  std::uint64_t total = 0;
  void add(std::string_view text) {
    for (char c : text) ++counts[static_cast<std::size_t>(symbol_of(c))], ++total;
  }
  /// The empirical unigram entropy, bits per character.
  double entropy_bits() const {
    double h = 0;
    for (auto n : counts)
      if (n) h -= static_cast<double>(n) / static_cast<double>(total) * std::log2(static_cast<double>(n) / static_cast<double>(total));
    return h;
  }
  int distinct() const {
    return static_cast<int>(std::count_if(counts.begin(), counts.end(), [](auto n) { return n > 0; }));
  }
};

/// A corpus read and split: each split's text over C, its files and hashes.
struct corpus {
  std::string name, package, version;  ///< version: the installed one ("" for a folder of one's own)
  std::array<std::string, 3> text;     ///< train, validation, test
  std::array<std::vector<std::string>, 3> files;
  std::array<std::string, 3> sha256;   ///< of each split's text
  alphabet_mapping mapping;            ///< over all files
  std::uint64_t input_bytes = 0;
  const std::string& split(corpus_split s) const { return text[static_cast<std::size_t>(s)]; }
};

namespace detail {
inline std::string read_whole_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("corpus: cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace detail

/// The files under `root` (or its `folders`, less `excluded` ones) ending
/// in `suffix`, as paths relative to root, sorted bytewise.
inline std::vector<std::string> corpus_files(const std::string& root, const std::vector<std::string>& folders,
                                             const std::vector<std::string>& excluded, const std::string& suffix) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  const std::vector<std::string> where = folders.empty() ? std::vector<std::string>{""} : folders;
  for (const auto& f : where) {
    const fs::path dir = f.empty() ? fs::path(root) : fs::path(root) / f;
    if (!fs::is_directory(dir)) throw std::runtime_error("corpus: " + dir.string() + " is not a folder");
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (!e.is_regular_file()) continue;
      const std::string rel = fs::relative(e.path(), root).generic_string();
      if (std::any_of(excluded.begin(), excluded.end(), [&](const std::string& x) { return rel.rfind(x + "/", 0) == 0; }))
        continue;
      if (rel.size() >= suffix.size() && rel.compare(rel.size() - suffix.size(), suffix.size(), suffix) == 0)
        out.push_back(rel);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// Reads and splits the files (the file comment); no pins are checked.
inline corpus corpus_from_folder(const std::string& name, const std::string& root,
                                 const std::vector<std::string>& folders = {},
                                 const std::vector<std::string>& excluded = {}, const std::string& suffix = "") {
  corpus c;
  c.name = name;
  for (const auto& rel : corpus_files(root, folders, excluded, suffix)) {
    const auto s = static_cast<std::size_t>(split_of_path(rel));
    const std::string bytes = detail::read_whole_file(std::filesystem::path(root) / rel);
    c.input_bytes += bytes.size();
    std::string& t = c.text[s];
    map_to_alphabet(bytes, t, c.mapping);
    if (t.empty() || t.back() != '\n') t += '\n';
    c.files[s].push_back(rel);
  }
  for (std::size_t s = 0; s < 3; ++s) {
    if (c.text[s].empty())
      throw std::runtime_error("corpus \"" + name + "\": the " + corpus_split_names[s] + " split of " + root +
                               " has no files (a corpus needs enough files for all three splits)");
    c.sha256[s] = to_hex(sha256(std::string_view(c.text[s])));
  }
  return c;
}

/// The version of an installed Debian package per dpkg's status file, or ""
/// when it is not installed.
inline std::string installed_package_version(const std::string& package,
                                             const std::string& status_file = "/var/lib/dpkg/status") {
  std::ifstream in(status_file);
  std::string line, pkg, version, status;
  auto done = [&]() { return pkg == package && status.find("install ok installed") != std::string::npos; };
  while (std::getline(in, line)) {
    if (line.empty()) {
      if (done()) return version;
      pkg.clear(), version.clear(), status.clear();
    } else if (line.rfind("Package: ", 0) == 0) pkg = line.substr(9);
    else if (line.rfind("Version: ", 0) == 0) version = line.substr(9);
    else if (line.rfind("Status: ", 0) == 0) status = line.substr(8);
  }
  return done() ? version : "";
}

/// An installed corpus, checked against the pin of its installed version.
inline corpus load_corpus(const corpus_definition& d, const std::string& status_file = "/var/lib/dpkg/status") {
  const std::string found = installed_package_version(d.package, status_file);
  if (found.empty())
    throw std::runtime_error("corpus \"" + d.name + "\" needs the Debian package " + d.package + " (version " +
                             d.pinned_versions() + "), which is not installed (apt-get install " + d.package +
                             ", or ./bootstrap lm)");
  const auto pin = std::find_if(d.pins.begin(), d.pins.end(), [&](const corpus_pin& p) { return p.version == found; });
  if (pin == d.pins.end())
    throw std::runtime_error("corpus \"" + d.name + "\": the Debian package " + d.package + " is version " + found +
                             ", but the corpus is pinned to version " + d.pinned_versions() +
                             " (its splits' SHA-256 are known for those versions only; a new version is a new pin "
                             "in tasks/corpus.hpp)");
  corpus c = corpus_from_folder(d.name, d.root, d.folders, d.excluded, d.suffix);
  c.package = d.package;
  c.version = found;
  // Every split that differs is named, so a new pin's hashes can be read off one refusal.
  std::string differ;
  for (std::size_t s = 0; s < 3; ++s)
    if (c.sha256[s] != pin->sha256[s])
      differ += std::string(differ.empty() ? "" : "; ") + "the " + corpus_split_names[s] + " split's SHA-256 is " +
                c.sha256[s] + ", but " + d.package + " " + found + " is pinned to " +
                (pin->sha256[s].empty() ? "(none)" : pin->sha256[s]);
  if (!differ.empty())
    throw std::runtime_error("corpus \"" + d.name + "\": " + differ +
                             ": refused (the installed files differ from the pinned ones)");
  return c;
}

}  // namespace tasks
BEM_NAMESPACE_END
