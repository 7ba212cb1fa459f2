// Bit-blasting HOARE_CHECK's expressions (bem/prover/hoare/language.hpp) to
// CNF through a bit_blaster (bem/prover/bitblast.hpp): each variable is one
// bit-vector of its width, each operation the bit_blaster's circuit for it,
// typed by the same rules as the interpreter (typing.hpp).
#pragma once

#include <bem/prover/bitblast.hpp>
#include <bem/prover/cnf.hpp>
#include <bem/prover/hoare/language.hpp>
#include <bem/prover/hoare/typing.hpp>
#include <bem/version.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace prover {
namespace hoare {

/// Encodes expressions over a variable table into a bit_blaster: each
/// variable is one bit-vector of its width (Booleans: one literal), created
/// on first use; subexpressions are memoised per (node, type).
class expr_encoder {
 public:
  expr_encoder(bit_blaster& bb, const variables& vars) : bb_(bb), ty_(vars) {}

  /// The literal of a predicate.
  int encode_bool(const expr& e) { return encode(*e.node(), value_type::boolean())[0]; }
  /// The bit-vector of an integer expression (typed by `want` where it is
  /// made of literals only).
  bitvec encode_int(const expr& e, std::optional<value_type> want = std::nullopt) {
    return encode(*e.node(), ty_.resolve(*e.node(), want));
  }
  /// The bit-vector of variable k (created on first use).
  const bitvec& variable_bits(std::size_t k) {
    if (k >= env_.size()) env_.resize(k + 1);
    if (!env_[k]) env_[k] = bb_.fresh_bv(ty_.vars()[k].type.width);
    return *env_[k];
  }
  /// The value of variable k in a model (0 when the variable was never used).
  std::int64_t value(const assignment& a, std::size_t k) const {
    if (k >= env_.size() || !env_[k]) return 0;
    const value_type& t = ty_.vars()[k].type;
    return t.is_signed ? bit_blaster::signed_value(a, *env_[k]) : static_cast<std::int64_t>(bit_blaster::value(a, *env_[k]));
  }

 private:
  bitvec encode(const detail::node& n, const value_type& t) {
    using detail::op;
    const std::uint64_t key_t = (t.is_bool ? 0u : 1u) | (t.is_signed ? 2u : 0u) | (static_cast<unsigned>(t.width) << 2);
    const auto key = std::make_pair(&n, key_t);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const value_type u = ty_.check(n, t);  // the operands' type
    auto lit = [](int l) { return bitvec{{l}}; };
    auto b = [&](const detail::node_ptr& x) { return encode(*x, value_type::boolean())[0]; };
    bitvec r;
    switch (n.kind) {
      case op::bconst: r = lit(bit_blaster::constant(n.value != 0)); break;
      case op::iconst: r = bit_blaster::constant_bv(t.width, static_cast<std::uint64_t>(n.value)); break;
      case op::var: r = variable_bits(static_cast<std::size_t>(n.value)); break;
      case op::lnot: r = lit(-b(n.a)); break;
      case op::land: r = lit(bb_.and_(b(n.a), b(n.b))); break;
      case op::lor: r = lit(bb_.or_(b(n.a), b(n.b))); break;
      case op::implies: r = lit(bb_.implies(b(n.a), b(n.b))); break;
      case op::ite: {
        const int c = b(n.a);
        r = bb_.bv_ite(c, encode(*n.b, u), encode(*n.c, u));
        break;
      }
      case op::add:
      case op::sub:
      case op::mul:
      case op::band:
      case op::bor:
      case op::bxor: {
        const bitvec x = encode(*n.a, u), y = encode(*n.b, u);
        switch (n.kind) {
          case op::add: r = bb_.add(x, y); break;
          case op::sub: r = bb_.sub(x, y); break;
          case op::mul: r = bb_.mul(x, y); break;
          case op::band: r = bb_.bv_and(x, y); break;
          case op::bor: r = bb_.bv_or(x, y); break;
          default: r = bb_.bv_xor(x, y); break;
        }
        break;
      }
      case op::neg:
      case op::bnot: {
        const bitvec x = encode(*n.a, u);
        r = n.kind == op::neg ? bb_.neg(x) : bb_.bv_not(x);
        break;
      }
      case op::eq:
      case op::ne:
      case op::lt:
      case op::le:
      case op::gt:
      case op::ge: {
        const bitvec x = encode(*n.a, u), y = encode(*n.b, u);
        int l = 0;
        switch (n.kind) {
          case op::eq: l = bb_.eq(x, y); break;
          case op::ne: l = -bb_.eq(x, y); break;
          case op::lt: l = u.is_signed ? bb_.slt(x, y) : bb_.ult(x, y); break;
          case op::le: l = u.is_signed ? bb_.sle(x, y) : bb_.ule(x, y); break;
          case op::gt: l = u.is_signed ? bb_.slt(y, x) : bb_.ult(y, x); break;
          default: l = u.is_signed ? bb_.sle(y, x) : bb_.ule(y, x); break;
        }
        r = lit(l);
        break;
      }
    }
    memo_.emplace(key, r);
    return r;
  }

  struct key_hash {
    std::size_t operator()(const std::pair<const detail::node*, std::uint64_t>& k) const noexcept {
      return std::hash<const void*>()(k.first) ^ (k.second * 0x9E3779B97F4A7C15ull);
    }
  };
  bit_blaster& bb_;
  detail::typer ty_;
  std::vector<std::optional<bitvec>> env_;
  std::unordered_map<std::pair<const detail::node*, std::uint64_t>, bitvec, key_hash> memo_;
};

}  // namespace hoare
}  // namespace prover
BEM_NAMESPACE_END
