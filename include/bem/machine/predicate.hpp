// Predicates over one lane's STATE bits: the invariants, BAD, initial
// condition, CFG location guards and verification domains of the slow path.
//
// A `state_predicate` is a Boolean expression built from state bits
// (`state_bit(i)`), constants and the operators ! && || ^ (and `implies`,
// `iff`). Lanes are independent (every expert is bit-sliced), so a predicate
// speaks of one lane: it holds for the machine when it holds on every lane.
//   eval(bits)         the value on a lane whose state bit i is bits(i);
//   encode(bb, lit)    its Tseitin encoding with bem::prover::bit_blaster,
//                      `lit(i)` giving the literal of state bit i: the
//                      returned literal equals the predicate in every model
//                      (an equivalence, so it can be asserted either way);
//   serialize / parse  a stable text form, used by snapshots and logs:
//                      "1", "0", "s12", "!(P)", "(P&Q)", "(P|Q)", "(P^Q)".
// Predicates are immutable and share subexpressions (cheap to copy).
#pragma once

#include <bem/prover/bitblast.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

BEM_NAMESPACE_BEGIN

class state_predicate {
 public:
  enum class op : std::uint8_t { constant, bit, not_, and_, or_, xor_ };

  /// True.
  state_predicate() : state_predicate(make(op::constant, 1, {}, {})) {}
  static state_predicate constant(bool v) { return make(op::constant, v ? 1 : 0, {}, {}); }
  static state_predicate bit(std::uint32_t i) { return make(op::bit, i, {}, {}); }

  friend state_predicate operator!(const state_predicate& a) {
    if (a.n_->kind == op::constant) return constant(a.n_->value == 0);
    return make(op::not_, 0, a.n_, {});
  }
  friend state_predicate operator&&(const state_predicate& a, const state_predicate& b) {
    if (a.is_constant(true)) return b;
    if (b.is_constant(true)) return a;
    if (a.is_constant(false) || b.is_constant(false)) return constant(false);
    return make(op::and_, 0, a.n_, b.n_);
  }
  friend state_predicate operator||(const state_predicate& a, const state_predicate& b) {
    if (a.is_constant(false)) return b;
    if (b.is_constant(false)) return a;
    if (a.is_constant(true) || b.is_constant(true)) return constant(true);
    return make(op::or_, 0, a.n_, b.n_);
  }
  friend state_predicate operator^(const state_predicate& a, const state_predicate& b) {
    return make(op::xor_, 0, a.n_, b.n_);
  }
  friend state_predicate implies(const state_predicate& a, const state_predicate& b) { return !a || b; }
  friend state_predicate iff(const state_predicate& a, const state_predicate& b) { return !(a ^ b); }

  bool is_constant(bool v) const noexcept { return n_->kind == op::constant && (n_->value != 0) == v; }

  /// The value on a lane whose state bit i is bits(i).
  bool eval(const std::function<bool(std::uint32_t)>& bits) const { return eval(*n_, bits); }

  /// The values on 64 lanes at once: bit j of the result is the value on
  /// the lane whose state bit i is bit j of words(i).
  std::uint64_t eval_words(const std::function<std::uint64_t(std::uint32_t)>& words) const {
    std::unordered_map<const node*, std::uint64_t> memo;  // nodes may be shared
    return eval_words(*n_, words, memo);
  }

  /// The Tseitin literal of the predicate (state bit i is lit(i)).
  int encode(prover::bit_blaster& bb, const std::function<int(std::uint32_t)>& lit) const {
    std::unordered_map<const node*, int> memo;
    return encode(*n_, bb, lit, memo);
  }

  /// The state bits the predicate reads, ascending, without repeats.
  std::vector<std::uint32_t> support() const {
    std::vector<std::uint32_t> out;
    collect(*n_, out);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  /// The text form (file comment).
  std::string serialize() const {
    std::string s;
    print(*n_, s);
    return s;
  }
  /// Parses the text form; throws std::invalid_argument naming the offset.
  static state_predicate parse(std::string_view text) {
    std::size_t at = 0;
    state_predicate p = parse_at(text, at);
    if (at != text.size())
      throw std::invalid_argument("state_predicate: unexpected '" + std::string(1, text[at]) + "' at offset " +
                                  std::to_string(at));
    return p;
  }

  friend bool operator==(const state_predicate& a, const state_predicate& b) { return a.serialize() == b.serialize(); }

 private:
  struct node {
    op kind;
    std::uint32_t value;  ///< constant 0/1, or the bit index
    std::shared_ptr<const node> a, b;
  };
  using node_ptr = std::shared_ptr<const node>;

  explicit state_predicate(node_ptr n) : n_(std::move(n)) {}
  static state_predicate make(op k, std::uint32_t v, node_ptr a, node_ptr b) {
    return state_predicate(std::make_shared<const node>(node{k, v, std::move(a), std::move(b)}));
  }

  static bool eval(const node& n, const std::function<bool(std::uint32_t)>& bits) {
    switch (n.kind) {
      case op::constant: return n.value != 0;
      case op::bit: return bits(n.value);
      case op::not_: return !eval(*n.a, bits);
      case op::and_: return eval(*n.a, bits) && eval(*n.b, bits);
      case op::or_: return eval(*n.a, bits) || eval(*n.b, bits);
      case op::xor_: return eval(*n.a, bits) != eval(*n.b, bits);
    }
    return false;
  }
  static std::uint64_t eval_words(const node& n, const std::function<std::uint64_t(std::uint32_t)>& words,
                                  std::unordered_map<const node*, std::uint64_t>& memo) {
    if (const auto it = memo.find(&n); it != memo.end()) return it->second;
    std::uint64_t r = 0;
    switch (n.kind) {
      case op::constant: r = n.value != 0 ? ~std::uint64_t{0} : 0; break;
      case op::bit: r = words(n.value); break;
      case op::not_: r = ~eval_words(*n.a, words, memo); break;
      case op::and_: r = eval_words(*n.a, words, memo) & eval_words(*n.b, words, memo); break;
      case op::or_: r = eval_words(*n.a, words, memo) | eval_words(*n.b, words, memo); break;
      case op::xor_: r = eval_words(*n.a, words, memo) ^ eval_words(*n.b, words, memo); break;
    }
    memo.emplace(&n, r);
    return r;
  }
  static int encode(const node& n, prover::bit_blaster& bb, const std::function<int(std::uint32_t)>& lit,
                    std::unordered_map<const node*, int>& memo) {
    if (const auto it = memo.find(&n); it != memo.end()) return it->second;
    int r = 0;
    switch (n.kind) {
      case op::constant: r = prover::bit_blaster::constant(n.value != 0); break;
      case op::bit: r = lit(n.value); break;
      case op::not_: r = -encode(*n.a, bb, lit, memo); break;
      case op::and_: r = bb.and_(encode(*n.a, bb, lit, memo), encode(*n.b, bb, lit, memo)); break;
      case op::or_: r = bb.or_(encode(*n.a, bb, lit, memo), encode(*n.b, bb, lit, memo)); break;
      case op::xor_: r = bb.xor_(encode(*n.a, bb, lit, memo), encode(*n.b, bb, lit, memo)); break;
    }
    memo.emplace(&n, r);
    return r;
  }
  static void collect(const node& n, std::vector<std::uint32_t>& out) {
    if (n.kind == op::bit) out.push_back(n.value);
    if (n.a) collect(*n.a, out);
    if (n.b) collect(*n.b, out);
  }
  static void print(const node& n, std::string& s) {
    switch (n.kind) {
      case op::constant: s += n.value ? "1" : "0"; return;
      case op::bit: s += "s" + std::to_string(n.value); return;
      case op::not_:
        s += "!(";
        print(*n.a, s);
        s += ')';
        return;
      default:
        s += '(';
        print(*n.a, s);
        s += n.kind == op::and_ ? '&' : n.kind == op::or_ ? '|' : '^';
        print(*n.b, s);
        s += ')';
    }
  }
  static state_predicate parse_at(std::string_view t, std::size_t& at) {
    const auto fail = [&](const char* what) {
      throw std::invalid_argument(std::string("state_predicate: ") + what + " at offset " + std::to_string(at));
    };
    if (at >= t.size()) fail("unexpected end");
    const char c = t[at];
    if (c == '1' || c == '0') {
      ++at;
      return constant(c == '1');
    }
    if (c == 's') {
      std::size_t end = ++at;
      std::uint64_t v = 0;
      while (end < t.size() && t[end] >= '0' && t[end] <= '9') {
        v = v * 10 + static_cast<std::uint64_t>(t[end] - '0');
        if (v > 0xFFFFFFFFu) fail("bit index too large");
        ++end;
      }
      if (end == at) fail("a bit needs its index");
      at = end;
      return bit(static_cast<std::uint32_t>(v));
    }
    if (c == '!') {
      if (at + 1 >= t.size() || t[at + 1] != '(') fail("'!' must be followed by '('");
      at += 2;
      state_predicate p = parse_at(t, at);
      if (at >= t.size() || t[at] != ')') fail("expected ')'");
      ++at;
      return make(op::not_, 0, p.n_, {});
    }
    if (c == '(') {
      ++at;
      state_predicate a = parse_at(t, at);
      if (at >= t.size()) fail("unexpected end");
      const char o = t[at++];
      if (o != '&' && o != '|' && o != '^') fail("expected '&', '|' or '^'");
      state_predicate b = parse_at(t, at);
      if (at >= t.size() || t[at] != ')') fail("expected ')'");
      ++at;
      return make(o == '&' ? op::and_ : o == '|' ? op::or_ : op::xor_, 0, a.n_, b.n_);
    }
    fail("unexpected character");
    return {};
  }

  node_ptr n_;
};

/// State bit i as a predicate.
inline state_predicate state_bit(std::uint32_t i) { return state_predicate::bit(i); }

BEM_NAMESPACE_END
