// DRAT proofs: the clause additions and deletions an UNSAT answer is made of.
//
// A DRAT proof for a formula F is a sequence of steps; an addition step adds a
// lemma (a clause implied by the current clause set, checked by reverse unit
// propagation or as a resolution-asymmetric tautology), a deletion step
// removes a clause. The proof refutes F when the empty clause is added or
// follows by unit propagation from the final clause set (drat.hpp checks it).
//
// Two file formats, both from the DRAT-trim definition:
//   text:    one step per line, `[d ]LIT LIT ... 0`, comments `c ...`;
//   binary:  each step a byte 'a' (0x61) or 'd' (0x64), then each literal l
//            as the unsigned number 2*|l| + (l < 0) in little-endian base-128
//            (high bit = more bytes follow), then a 0 byte.
// parse_drat() reads both (detect: binary when the input starts with 'a', or
// with 'd' not followed by a space, or contains a byte outside printable
// ASCII and whitespace); CaDiCaL writes binary by default. Text errors name
// the line (dimacs_error), binary errors the byte offset.
//
// Law: parse_drat(p.to_text()) == p and parse_drat(p.to_binary()) == p.
#pragma once

#include <bem/prover/dimacs.hpp>
#include <bem/version.hpp>

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace prover {

/// A DRAT proof held in memory (DIMACS literals).
class drat_proof {
 public:
  /// Appends an addition step (an empty span adds the empty clause).
  void add(std::span<const int> lemma) { push(lemma, false); }
  /// Appends a deletion step.
  void del(std::span<const int> clause) { push(clause, true); }
  void add(std::initializer_list<int> l) { add(std::span<const int>(l.begin(), l.size())); }
  void del(std::initializer_list<int> l) { del(std::span<const int>(l.begin(), l.size())); }

  std::size_t size() const noexcept { return starts_.size(); }
  bool empty() const noexcept { return starts_.empty(); }
  /// The literals of step i.
  std::span<const int> operator[](std::size_t i) const noexcept {
    const std::size_t b = starts_[i];
    const std::size_t e = i + 1 < starts_.size() ? starts_[i + 1] : lits_.size();
    return {lits_.data() + b, e - b};
  }
  /// True when step i deletes a clause.
  bool is_deletion(std::size_t i) const noexcept { return deletion_[i] != 0; }
  /// Number of addition steps.
  std::size_t additions() const noexcept {
    std::size_t a = 0;
    for (auto d : deletion_) a += d == 0;
    return a;
  }
  void clear() noexcept {
    lits_.clear();
    starts_.clear();
    deletion_.clear();
  }
  /// Removes the steps from index `count` on.
  void truncate(std::size_t count) {
    if (count >= size()) return;
    lits_.resize(starts_[count]);
    starts_.resize(count);
    deletion_.resize(count);
  }

  /// The text format.
  std::string to_text() const {
    std::string out;
    char buf[16];
    for (std::size_t i = 0; i < size(); ++i) {
      if (is_deletion(i)) out += "d ";
      for (int l : (*this)[i]) {
        auto [p, ec] = std::to_chars(buf, buf + sizeof buf, l);
        (void)ec;
        out.append(buf, p);
        out.push_back(' ');
      }
      out += "0\n";
    }
    return out;
  }
  /// The binary format.
  std::string to_binary() const {
    std::string out;
    for (std::size_t i = 0; i < size(); ++i) {
      out.push_back(is_deletion(i) ? 'd' : 'a');
      for (int l : (*this)[i]) {
        std::uint64_t u = 2 * static_cast<std::uint64_t>(std::abs(static_cast<long long>(l))) + (l < 0 ? 1 : 0);
        while (u >= 128) {
          out.push_back(static_cast<char>((u & 127) | 128));
          u >>= 7;
        }
        out.push_back(static_cast<char>(u));
      }
      out.push_back('\0');
    }
    return out;
  }

  friend bool operator==(const drat_proof&, const drat_proof&) = default;

 private:
  void push(std::span<const int> c, bool deletion) {
    starts_.push_back(static_cast<std::uint32_t>(lits_.size()));
    lits_.insert(lits_.end(), c.begin(), c.end());
    deletion_.push_back(deletion ? 1 : 0);
  }
  std::vector<int> lits_;
  std::vector<std::uint32_t> starts_;
  std::vector<std::uint8_t> deletion_;
};

namespace detail {
inline bool drat_looks_binary(std::string_view s) noexcept {
  if (s.empty()) return false;
  if (s[0] == 'a') return true;
  if (s[0] == 'd' && s.size() > 1 && s[1] != ' ' && s[1] != '\t') return true;
  // Left: binary starting "d " (deleting a clause whose first literal is
  // +16). Its steps end in NUL bytes; text has no control bytes. Bytes of
  // 128 and up say nothing: a text comment may hold UTF-8 ("c café").
  const std::size_t n = s.size() < 1024 ? s.size() : 1024;
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c != '\n' && c != '\r' && c != '\t' && (c < 32 || c == 127)) return true;
  }
  return false;
}
}  // namespace detail

/// Parses a DRAT proof in text or binary form; `source` names it in errors.
inline drat_proof parse_drat(std::string_view data, std::string_view source = "<drat>") {
  drat_proof p;
  std::vector<int> step;
  if (detail::drat_looks_binary(data)) {
    std::size_t i = 0;
    while (i < data.size()) {
      const std::size_t at = i;
      const char kind = data[i++];
      if (kind != 'a' && kind != 'd')
        throw dimacs_error(source, 0, "binary DRAT: byte " + std::to_string(at) + " is not a step marker 'a' or 'd'");
      step.clear();
      for (;;) {
        std::uint64_t u = 0;
        int shift = 0;
        for (;;) {
          if (i >= data.size()) throw dimacs_error(source, 0, "binary DRAT: step at byte " + std::to_string(at) + " is truncated");
          const auto b = static_cast<unsigned char>(data[i++]);
          u |= static_cast<std::uint64_t>(b & 127) << shift;
          if (!(b & 128)) break;
          shift += 7;
          if (shift > 35) throw dimacs_error(source, 0, "binary DRAT: literal too large at byte " + std::to_string(at));
        }
        if (u == 0) break;
        if (u < 2 || (u >> 1) > 0x3fffffffu) throw dimacs_error(source, 0, "binary DRAT: bad literal in step at byte " + std::to_string(at));
        const int v = static_cast<int>(u >> 1);
        step.push_back((u & 1) ? -v : v);
      }
      if (kind == 'd') p.del(step);
      else p.add(step);
    }
    return p;
  }
  std::vector<std::string_view> toks;
  std::size_t pos = 0, line_no = 0, step_line = 0;
  bool deletion = false, open = false;
  while (pos < data.size()) {
    std::size_t nl = data.find('\n', pos);
    if (nl == std::string_view::npos) nl = data.size();
    const std::string_view line = data.substr(pos, nl - pos);
    ++line_no;
    pos = nl + 1;
    detail::dimacs_tokens(line, toks);
    if (toks.empty() || (!open && toks[0][0] == 'c')) continue;
    for (auto tok : toks) {
      if (tok == "d") {
        if (open) throw dimacs_error(source, line_no, "`d` inside a step");
        deletion = true;
        open = true;
        step_line = line_no;
        continue;
      }
      long long v = 0;
      if (!detail::dimacs_int(tok, v) || v > 0x3fffffff || v < -0x3fffffff)
        throw dimacs_error(source, line_no, "`" + std::string(tok) + "` is not a literal");
      if (!open) step_line = line_no;
      open = true;
      if (v == 0) {
        if (deletion) p.del(step);
        else p.add(step);
        step.clear();
        deletion = open = false;
      } else {
        step.push_back(static_cast<int>(v));
      }
    }
  }
  if (open) throw dimacs_error(source, step_line, "proof step starting here is not terminated by 0");
  return p;
}

}  // namespace prover
BEM_NAMESPACE_END
