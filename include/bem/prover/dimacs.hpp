// DIMACS CNF reading and writing.
//
// Format accepted by parse_dimacs: lines starting with `c` are comments; one
// header `p cnf VARS CLAUSES` precedes all clauses; clauses are whitespace-
// separated non-zero integers, each clause ended by 0, and may span lines; a
// line starting with `%` (the SATLIB end marker) ends the input. Every
// violation throws dimacs_error naming the source and the 1-based line:
// a missing or malformed header, a token that is not an integer, a literal
// whose variable exceeds VARS, a clause left without its closing 0, and a
// clause count different from the header's.
//
// Law: parse_dimacs(write_dimacs(f)) == f for every cnf f.
#pragma once

#include <bem/prover/cnf.hpp>
#include <bem/version.hpp>

#include <charconv>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace prover {

/// A DIMACS syntax error; what() reads "SOURCE:LINE: message".
class dimacs_error : public std::runtime_error {
 public:
  dimacs_error(std::string_view source, std::size_t line, const std::string& message)
      : std::runtime_error(std::string(source) + ":" + std::to_string(line) + ": " + message), line_(line) {}
  /// The 1-based line the error is on.
  std::size_t line() const noexcept { return line_; }

 private:
  std::size_t line_;
};

namespace detail {
inline bool dimacs_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
/// Splits a line into whitespace-separated tokens.
inline void dimacs_tokens(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && dimacs_space(line[i])) ++i;
    const std::size_t b = i;
    while (i < line.size() && !dimacs_space(line[i])) ++i;
    if (i > b) out.push_back(line.substr(b, i - b));
  }
}
inline bool dimacs_int(std::string_view tok, long long& v) noexcept {
  const char* b = tok.data();
  const char* e = tok.data() + tok.size();
  if (b != e && *b == '+') {
    ++b;
    if (b != e && *b == '-') return false;  // "+-5"
  }
  auto [p, ec] = std::from_chars(b, e, v);
  return ec == std::errc() && p == e;
}
}  // namespace detail

/// Parses DIMACS CNF text; `source` names the input in error messages.
inline cnf parse_dimacs(std::string_view text, std::string_view source = "<dimacs>") {
  cnf f;
  bool have_header = false;
  long long declared_vars = 0, declared_clauses = 0;
  std::size_t header_line = 0, line_no = 0, clause_line = 0;
  std::vector<int> clause;
  std::vector<std::string_view> toks;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = text.substr(pos, nl - pos);
    ++line_no;
    pos = nl + 1;
    detail::dimacs_tokens(line, toks);
    if (toks.empty()) {
      if (nl == text.size()) break;
      continue;
    }
    if (toks[0][0] == 'c') continue;
    if (toks[0][0] == '%') break;
    if (toks[0] == "p") {
      if (have_header) throw dimacs_error(source, line_no, "second header line (first on line " + std::to_string(header_line) + ")");
      if (toks.size() != 4 || toks[1] != "cnf" || !detail::dimacs_int(toks[2], declared_vars) ||
          !detail::dimacs_int(toks[3], declared_clauses) || declared_vars < 0 || declared_clauses < 0 ||
          declared_vars > 0x3fffffff)
        throw dimacs_error(source, line_no, "malformed header, expected `p cnf VARS CLAUSES`");
      have_header = true;
      header_line = line_no;
      f.set_num_vars(static_cast<int>(declared_vars));
      continue;
    }
    if (!have_header) throw dimacs_error(source, line_no, "clause before the `p cnf VARS CLAUSES` header");
    for (auto tok : toks) {
      long long v = 0;
      if (!detail::dimacs_int(tok, v)) throw dimacs_error(source, line_no, "`" + std::string(tok) + "` is not an integer literal");
      if (v == 0) {
        f.add_clause(clause);
        clause.clear();
        continue;
      }
      if (v > declared_vars || v < -declared_vars)  // never -v: LLONG_MIN has no negation
        throw dimacs_error(source, line_no,
                           "literal " + std::string(tok) + " exceeds the " + std::to_string(declared_vars) +
                               " variables declared on line " + std::to_string(header_line));
      if (clause.empty()) clause_line = line_no;
      clause.push_back(static_cast<int>(v));
    }
    if (nl == text.size()) break;
  }
  if (!have_header) throw dimacs_error(source, line_no, "no `p cnf VARS CLAUSES` header");
  if (!clause.empty()) throw dimacs_error(source, clause_line, "clause starting here is not terminated by 0");
  if (static_cast<long long>(f.size()) != declared_clauses)
    throw dimacs_error(source, header_line,
                       "header declares " + std::to_string(declared_clauses) + " clauses, the input has " +
                           std::to_string(f.size()));
  return f;
}

/// Writes f as DIMACS CNF text (header, then one clause per line).
inline std::string write_dimacs(const cnf& f) {
  std::string out = "p cnf " + std::to_string(f.num_vars()) + " " + std::to_string(f.size()) + "\n";
  char buf[16];
  for (std::size_t i = 0; i < f.size(); ++i) {
    for (int l : f[i]) {
      auto [p, ec] = std::to_chars(buf, buf + sizeof buf, l);
      (void)ec;
      out.append(buf, p);
      out.push_back(' ');
    }
    out += "0\n";
  }
  return out;
}

}  // namespace prover
BEM_NAMESPACE_END
