// Code tokens for BEM suite §4.2: a Rust tokenizer, the vocabulary made
// from the training split, and the bracket check of sampled continuations
// (docs/language-modelling.md, "codelm").
//
// Tokenizer (tokenize_rust), over text of the alphabet C, longest match
// first; every character belongs to exactly one token, so the tokens
// concatenated give the text back:
//   whitespace  a run of spaces and newlines
//   comment     `//` to the end of the line (the newline not included);
//               `/* ... */`, nested as Rust nests them
//   literal     strings "..." with escapes, raw strings r"..." and
//               r#"..."# (any number of #), byte strings b"..." and br"...";
//               characters 'x', '\n', '\u{..}' and bytes b'x'; numbers:
//               a digit, then digits, letters, `_`, and a `.` followed by a
//               digit (1_000, 0xFF, 1.5e3, 2u8)
//   keyword     an identifier-shaped word that is a Rust 2021 keyword
//               (strict and reserved)
//   identifier  [A-Za-z_][A-Za-z0-9_]* otherwise, raw identifiers r#name,
//               and lifetimes 'a (a quote not closing a character literal)
//   punctuation ( ) [ ] { } , ;
//   operator    the longest of :: -> => == != <= >= && || += -= *= /= %=
//               ^= &= |= <<= >>= << >> .. ..= ... and the single characters
//               + - * / % ^ ! & | = < > @ . : # $ ? ~
//   other       any other single character (`\`, a '?' standing for a
//               non-ASCII character, ...)
//
// Vocabulary (token_vocabulary): the distinct token texts of the training
// split seen at least `min_count` times, most frequent first (ties in byte
// order), then one out-of-vocabulary token per class, "<oov:CLASS>". OOV
// rule: a token not in the vocabulary is its class's OOV token; its loss is
// that token's (a closed vocabulary: the spelling of a rare identifier is
// not predicted).
#pragma once

#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace tasks {

enum class token_class : std::uint8_t { whitespace, comment, literal, keyword, identifier, punctuation, op, other };
inline constexpr std::array<const char*, 8> token_class_names = {
    "whitespace", "comment", "literal", "keyword", "identifier", "punctuation", "operator", "other"};

struct code_token {
  std::string_view text;
  token_class kind;
};

namespace detail {
inline bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
inline bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
inline bool is_rust_keyword(std::string_view w) {
  static constexpr std::string_view k[] = {
      "as",     "break",  "const",  "continue", "crate",   "else",  "enum",    "extern", "false",    "fn",
      "for",    "if",     "impl",   "in",       "let",     "loop",  "match",   "mod",    "move",     "mut",
      "pub",    "ref",    "return", "self",     "Self",    "static", "struct", "super",  "trait",    "true",
      "type",   "unsafe", "use",    "where",    "while",   "async", "await",   "dyn",    "abstract", "become",
      "box",    "do",     "final",  "macro",    "override", "priv", "typeof",  "unsized", "virtual", "yield",
      "try"};
  return std::find(std::begin(k), std::end(k), w) != std::end(k);
}
/// The end of a quoted literal starting at `i` (the opening quote), escapes honoured.
inline std::size_t quoted_end(std::string_view s, std::size_t i, char q) {
  for (std::size_t j = i + 1; j < s.size(); ++j) {
    if (s[j] == '\\') ++j;
    else if (s[j] == q) return j + 1;
  }
  return s.size();
}
/// The end of a raw string r#..#"..."#..# whose `r` is at i; 0 if it is none.
inline std::size_t raw_string_end(std::string_view s, std::size_t i) {
  std::size_t j = i + 1, hashes = 0;
  while (j < s.size() && s[j] == '#') ++j, ++hashes;
  if (j >= s.size() || s[j] != '"') return 0;
  const std::string close = "\"" + std::string(hashes, '#');
  const std::size_t e = s.find(close, j + 1);
  return e == std::string_view::npos ? s.size() : e + close.size();
}
}  // namespace detail

/// The tokens of `text` (the file comment); views into `text`.
inline std::vector<code_token> tokenize_rust(std::string_view s) {
  using namespace detail;
  static constexpr std::array<std::string_view, 25> ops = {
      "<<=", ">>=", "...", "..=", "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||",
      "+=",  "-=",  "*=",  "/=",  "%=", "^=", "&=", "|=", "<<", ">>", "..", "."};
  std::vector<code_token> out;
  std::size_t i = 0;
  auto emit = [&](std::size_t end, token_class k) {
    out.push_back({s.substr(i, end - i), k});
    i = end;
  };
  while (i < s.size()) {
    const char c = s[i];
    const char n = i + 1 < s.size() ? s[i + 1] : '\0';
    if (c == ' ' || c == '\n') {
      std::size_t j = i;
      while (j < s.size() && (s[j] == ' ' || s[j] == '\n')) ++j;
      emit(j, token_class::whitespace);
    } else if (c == '/' && n == '/') {
      const std::size_t e = s.find('\n', i);
      emit(e == std::string_view::npos ? s.size() : e, token_class::comment);
    } else if (c == '/' && n == '*') {
      std::size_t j = i + 2;
      int depth = 1;
      while (j < s.size() && depth > 0) {
        if (s.compare(j, 2, "/*") == 0) ++depth, j += 2;
        else if (s.compare(j, 2, "*/") == 0) --depth, j += 2;
        else ++j;
      }
      emit(std::min(j, s.size()), token_class::comment);
    } else if (c == '"') {
      emit(quoted_end(s, i, '"'), token_class::literal);
    } else if ((c == 'r' && (n == '"' || n == '#')) && raw_string_end(s, i)) {
      emit(raw_string_end(s, i), token_class::literal);
    } else if (c == 'b' && n == 'r' && raw_string_end(s, i + 1)) {
      emit(raw_string_end(s, i + 1), token_class::literal);
    } else if (c == 'b' && (n == '"' || n == '\'')) {
      ++i;
      const std::size_t e = quoted_end(s, i, n);
      --i;
      emit(e, token_class::literal);
    } else if (c == 'r' && n == '#' && i + 2 < s.size() && ident_start(s[i + 2])) {
      std::size_t j = i + 2;
      while (j < s.size() && ident_char(s[j])) ++j;
      emit(j, token_class::identifier);
    } else if (c == '\'') {
      // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
      if (n == '\\') emit(quoted_end(s, i, '\''), token_class::literal);
      else if (i + 2 < s.size() && s[i + 2] == '\'') emit(i + 3, token_class::literal);
      else if (ident_start(n)) {
        std::size_t j = i + 1;
        while (j < s.size() && ident_char(s[j])) ++j;
        emit(j, token_class::identifier);
      } else emit(i + 1, token_class::other);
    } else if (ident_start(c)) {
      std::size_t j = i;
      while (j < s.size() && ident_char(s[j])) ++j;
      emit(j, is_rust_keyword(s.substr(i, j - i)) ? token_class::keyword : token_class::identifier);
    } else if (c >= '0' && c <= '9') {
      std::size_t j = i + 1;
      while (j < s.size() && (ident_char(s[j]) || (s[j] == '.' && j + 1 < s.size() && s[j + 1] >= '0' && s[j + 1] <= '9')))
        ++j;
      emit(j, token_class::literal);
    } else if (c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}' || c == ',' || c == ';') {
      emit(i + 1, token_class::punctuation);
    } else {
      std::size_t len = 0;
      for (auto o : ops)
        if (s.compare(i, o.size(), o) == 0) {
          len = o.size();
          break;
        }
      if (len) emit(i + len, token_class::op);
      else if (std::string_view("+-*/%^!&|=<>@:#$?~").find(c) != std::string_view::npos) emit(i + 1, token_class::op);
      else emit(i + 1, token_class::other);
    }
  }
  return out;
}

/// A closed token vocabulary made from training tokens (the file comment).
class token_vocabulary {
 public:
  token_vocabulary(const std::vector<code_token>& train, std::uint64_t min_count) {
    if (min_count < 1) throw std::invalid_argument("token_vocabulary: min_count must be >= 1");
    // A token text's class is fixed by its spelling (tokenize_rust decides by it).
    std::unordered_map<std::string_view, std::pair<std::uint64_t, token_class>> counts;
    for (const auto& t : train) {
      auto& c = counts[t.text];
      ++c.first, c.second = t.kind;
    }
    std::vector<std::tuple<std::string_view, std::uint64_t, token_class>> kept;
    for (const auto& [text, c] : counts)
      if (c.first >= min_count) kept.emplace_back(text, c.first, c.second);
    std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
      return std::get<1>(a) != std::get<1>(b) ? std::get<1>(a) > std::get<1>(b) : std::get<0>(a) < std::get<0>(b);
    });
    for (const auto& [text, n, k] : kept) add(std::string(text), k);
    for (std::size_t k = 0; k < token_class_names.size(); ++k) {
      oov_[k] = static_cast<std::uint32_t>(texts_.size());
      add(std::string("<oov:") + token_class_names[k] + ">", static_cast<token_class>(k));
    }
  }

  std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(texts_.size()); }
  const std::string& text(std::uint32_t id) const { return texts_.at(id); }
  token_class kind(std::uint32_t id) const { return kinds_.at(id); }
  /// The id of a token; its class's OOV token when it is not in the vocabulary.
  std::uint32_t id(const code_token& t) const {
    const auto it = ids_.find(std::string(t.text));
    return it != ids_.end() ? it->second : oov_[static_cast<std::size_t>(t.kind)];
  }
  bool is_oov(std::uint32_t id) const { return id >= oov_[0]; }
  std::vector<std::uint32_t> ids(const std::vector<code_token>& tokens) const {
    std::vector<std::uint32_t> v;
    v.reserve(tokens.size());
    for (const auto& t : tokens) v.push_back(id(t));
    return v;
  }

 private:
  void add(std::string text, token_class k) {
    ids_.emplace(text, static_cast<std::uint32_t>(texts_.size()));
    texts_.push_back(std::move(text));
    kinds_.push_back(k);
  }
  std::vector<std::string> texts_;
  std::vector<token_class> kinds_;
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::array<std::uint32_t, 8> oov_{};
};

/// Bracket balance of a continuation (§4.2.2's syntax-related errors): with
/// `open` the brackets the prefix left open (innermost last), reads the
/// continuation's bracket tokens; the continuation has an error when a
/// closing bracket does not match the innermost open one (or none is open).
/// Returns true when it has none.
inline bool brackets_balanced(std::vector<char> open, const std::vector<std::string>& continuation) {
  for (const auto& t : continuation) {
    if (t.size() != 1) continue;
    const char c = t[0];
    if (c == '(' || c == '[' || c == '{') open.push_back(c);
    else if (c == ')' || c == ']' || c == '}') {
      const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (open.empty() || open.back() != want) return false;
      open.pop_back();
    }
  }
  return true;
}

}  // namespace tasks
BEM_NAMESPACE_END
