// Parameter structs declared once.
//
// A task, model or benchmark names its parameters in one struct reflected by
// Boost.Hana and gives each field its default, what it accepts and one line
// of documentation in a static `describe`; from that one declaration come
// reading (through bem::parameters, so every value read is recorded as the
// run's effective configuration and a misspelt key is refused), the range
// and "must be one of" checks with the parameter's name in each error, and
// the rows `bem-bench list --parameters` prints.
//
// Example (compiled by tests/core/reflected_parameters.cpp):
//
//     struct window_parameters {
//       BOOST_HANA_DEFINE_STRUCT(window_parameters, (std::string, shape), (int, width),
//                                (std::vector<std::int64_t>, lengths));
//       static void describe(bem::parameter_schema<window_parameters>& s) {
//         s("shape", "flat").one_of({"flat", "ramp"}).doc("how the window weighs positions");
//         s("width", [](const window_parameters& p) { return p.shape == "ramp" ? 8 : 4; }).in(1, 64).doc("positions");
//         s("lengths", {16, 32}).one_of({16, 32, 64}).doc("test lengths");
//       }
//     };
//     bem::parameters given;
//     given.set("shape", std::string("ramp"));
//     const auto w = bem::read_parameters<window_parameters>(given);
//     // w.width == 8: a default may depend on the fields declared before it
//
// Fields are read in declaration order; a default given as a function of the
// struct sees the fields before it (and runs only when the key is absent, so
// it may throw to name a missing key). Field types: bool, int, std::int64_t,
// double, std::string, std::vector<std::int64_t>, std::vector<std::string>.
// Checks that relate several fields stay with the code that reads them.
#pragma once

#include <bem/detail/json_text.hpp>
#include <bem/harness/parameters.hpp>
#include <bem/version.hpp>

#include <boost/hana/accessors.hpp>
#include <boost/hana/define_struct.hpp>
#include <boost/hana/first.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/string.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <deque>
#include <functional>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN

namespace detail {

/// A default as a parameter value: integers widen to std::int64_t, text
/// becomes std::string.
template <class V>
parameter_value to_parameter_value(V v) {
  if constexpr (std::is_same_v<V, bool>)
    return parameter_value(std::in_place_type<bool>, v);
  else if constexpr (std::is_integral_v<V>)
    return static_cast<std::int64_t>(v);
  else if constexpr (std::is_floating_point_v<V>)
    return static_cast<double>(v);
  else if constexpr (std::is_convertible_v<V, std::string>)
    return std::string(v);
  else
    return parameter_value(std::move(v));
}

/// The parameter_value alternative holding a field of type T.
template <class T>
using stored_as = std::conditional_t<std::is_same_v<T, int>, std::int64_t, T>;

template <class T>
constexpr const char* type_name() {
  if constexpr (std::is_same_v<T, bool>)
    return "Boolean";
  else if constexpr (std::is_same_v<T, int> || std::is_same_v<T, std::int64_t>)
    return "integer";
  else if constexpr (std::is_same_v<T, double>)
    return "number";
  else if constexpr (std::is_same_v<T, std::string>)
    return "string";
  else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>)
    return "list of integers";
  else if constexpr (std::is_same_v<T, std::vector<std::string>>)
    return "list of strings";
  else
    static_assert(sizeof(T) == 0,
                  "a parameter field must be bool, int, std::int64_t, double, std::string, "
                  "std::vector<std::int64_t> or std::vector<std::string>");
}

/// The shortest text that reads back as v.
inline std::string number_text(double v) {
  std::string s;
  json_number_into(s, v);
  return s;
}

template <class T>
std::string join_braced(const std::vector<T>& v) {
  std::string s = "{";
  for (const auto& x : v) {
    if (s.size() > 1) s += ", ";
    if constexpr (std::is_same_v<T, std::string>)
      s += x;
    else
      s += std::to_string(x);
  }
  return s + "}";
}

/// Calls f(name, member) for each reflected field of `p`, in declaration order.
template <class P, class F>
void for_each_field(P& p, F&& f) {
  boost::hana::for_each(boost::hana::accessors<std::remove_const_t<P>>(), [&](auto field) {
    f(std::string_view(boost::hana::to<char const*>(boost::hana::first(field))), boost::hana::second(field)(p));
  });
}

}  // namespace detail

template <class P>
class parameter_schema;

/// One field's rule: its default, what it accepts and its documentation.
template <class P>
class parameter_rule {
 public:
  /// Integers, reals, or each element of a list of integers, in [lo, hi].
  template <class L, class H>
  parameter_rule& in(L lo, H hi) {
    if constexpr (std::is_integral_v<L> && std::is_integral_v<H>)
      int_range_ = {static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi)};
    real_range_ = {static_cast<double>(lo), static_cast<double>(hi)};
    return *this;
  }
  /// A string, or each element of a list of strings, is one of `choices`.
  parameter_rule& one_of(std::vector<std::string> choices) {
    string_choices_ = std::move(choices);
    return *this;
  }
  parameter_rule& one_of(std::initializer_list<const char*> choices) {
    return one_of(std::vector<std::string>(choices.begin(), choices.end()));
  }
  /// An integer, or each element of a list of integers, is one of `choices`.
  parameter_rule& one_of(std::initializer_list<std::int64_t> choices) {
    int_choices_.assign(choices.begin(), choices.end());
    return *this;
  }
  parameter_rule& doc(std::string line) {
    doc_ = std::move(line);
    return *this;
  }

  const std::string& name() const noexcept { return name_; }
  const std::string& documentation() const noexcept { return doc_; }
  /// Whether the default depends on the fields declared before this one.
  bool derived() const noexcept { return derived_; }
  /// What the field accepts: "[1, 64]", "one of {a, b}", or "".
  std::string accepts() const {
    if (!string_choices_.empty()) return "one of " + detail::join_braced(string_choices_);
    if (!int_choices_.empty()) return "one of " + detail::join_braced(int_choices_);
    if (int_range_) return "[" + std::to_string(int_range_->first) + ", " + std::to_string(int_range_->second) + "]";
    if (real_range_)
      return "[" + detail::number_text(real_range_->first) + ", " + detail::number_text(real_range_->second) + "]";
    return "";
  }

  /// Reads the field from `given` (the default computed from `so_far` when
  /// the key is absent) and checks it.
  template <class T>
  T read(parameters& given, const P& so_far) const {
    using S = detail::stored_as<T>;
    S fallback{};
    if (!given.contains(name_)) {
      parameter_value v = default_(so_far);
      auto* d = std::get_if<S>(&v);
      if (d == nullptr)
        throw std::logic_error("parameter '" + name_ + "': its default does not have the field's type (" +
                               detail::type_name<T>() + ")");
      fallback = std::move(*d);
    }
    if constexpr (std::is_same_v<T, bool>) {
      return given.get_bool(name_, fallback);
    } else if constexpr (std::is_same_v<S, std::int64_t>) {
      const auto [lo, hi] = int_range_.value_or(std::pair<std::int64_t, std::int64_t>{
          std::is_same_v<T, int> ? INT_MIN : INT64_MIN, std::is_same_v<T, int> ? INT_MAX : INT64_MAX});
      const std::int64_t v = given.get_int_in(name_, fallback, lo, hi);
      check_choice(v, "");
      return static_cast<T>(v);
    } else if constexpr (std::is_same_v<T, double>) {
      return real_range_ ? given.get_double_in(name_, fallback, real_range_->first, real_range_->second)
                         : given.get_double(name_, fallback);
    } else if constexpr (std::is_same_v<T, std::string>) {
      return string_choices_.empty() ? given.get_string(name_, std::move(fallback))
                                     : given.get_choice(name_, std::move(fallback), string_choices_);
    } else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>) {
      auto v = given.get_int_list(name_, std::move(fallback));
      for (const auto x : v) {
        if (int_range_ && (x < int_range_->first || x > int_range_->second))
          throw parameter_error(name_, "each must lie in " + accepts() + ", got " + std::to_string(x));
        check_choice(x, "each ");
      }
      return v;
    } else {
      static_assert(std::is_same_v<T, std::vector<std::string>>, "see detail::type_name");
      auto v = given.get_string_list(name_, std::move(fallback));
      for (const auto& x : v)
        if (!string_choices_.empty() &&
            std::find(string_choices_.begin(), string_choices_.end(), x) == string_choices_.end())
          throw parameter_error(name_, "each must be " + accepts() + ", got \"" + x + "\"");
      return v;
    }
  }

 private:
  friend class parameter_schema<P>;
  void check_choice(std::int64_t x, const char* each) const {
    if (!int_choices_.empty() && std::find(int_choices_.begin(), int_choices_.end(), x) == int_choices_.end())
      throw parameter_error(name_, each + std::string("must be ") + accepts() + ", got " + std::to_string(x));
  }

  std::string name_;
  std::function<parameter_value(const P&)> default_;
  bool derived_ = false;
  std::optional<std::pair<std::int64_t, std::int64_t>> int_range_;
  std::optional<std::pair<double, double>> real_range_;
  std::vector<std::string> string_choices_;
  std::vector<std::int64_t> int_choices_;
  std::string doc_;
};

/// The rules of parameter struct P, one per field, as P::describe gives them.
template <class P>
class parameter_schema {
 public:
  /// The rule of field `name` with its default: a value, or a function of
  /// the struct read so far (`const P&`).
  template <class D>
  parameter_rule<P>& operator()(std::string_view name, D fallback) {
    parameter_rule<P>& r = add(name);
    if constexpr (std::is_invocable_v<const D&, const P&>) {
      r.default_ = [f = std::move(fallback)](const P& p) { return detail::to_parameter_value(f(p)); };
      r.derived_ = true;
    } else {
      r.default_ = [v = detail::to_parameter_value(std::move(fallback))](const P&) { return v; };
    }
    return r;
  }
  parameter_rule<P>& operator()(std::string_view name, std::initializer_list<std::int64_t> fallback) {
    return (*this)(name, std::vector<std::int64_t>(fallback));
  }
  parameter_rule<P>& operator()(std::string_view name, std::initializer_list<const char*> fallback) {
    return (*this)(name, std::vector<std::string>(fallback.begin(), fallback.end()));
  }

  const parameter_rule<P>& rule(std::string_view name) const {
    for (const auto& r : rules_)
      if (r.name_ == name) return r;
    throw std::logic_error("parameter struct has no rule for field '" + std::string(name) + "'");
  }

  /// Throws std::logic_error unless every field has exactly one rule and
  /// every rule names a field: a field added without its rule, or a rule
  /// whose field was renamed, is found on first use.
  void check_against_fields() const {
    P p{};
    std::vector<std::string> fields;
    detail::for_each_field(p, [&](std::string_view name, auto&) {
      fields.emplace_back(name);
      if (std::count_if(rules_.begin(), rules_.end(), [&](const auto& r) { return r.name_ == name; }) != 1)
        throw std::logic_error("parameter struct: field '" + std::string(name) +
                               "' needs exactly one rule in describe");
    });
    for (const auto& r : rules_)
      if (std::find(fields.begin(), fields.end(), r.name_) == fields.end())
        throw std::logic_error("parameter struct: describe has a rule for '" + r.name_ + "', which is no field");
  }

 private:
  parameter_rule<P>& add(std::string_view name) {
    rules_.emplace_back();  // a deque: the rules handed out stay where they are
    rules_.back().name_ = std::string(name);
    return rules_.back();
  }
  std::deque<parameter_rule<P>> rules_;
};

/// P's schema, built and checked on first use.
template <class P>
const parameter_schema<P>& parameter_schema_of() {
  static const parameter_schema<P> schema = [] {
    parameter_schema<P> s;
    P::describe(s);
    s.check_against_fields();
    return s;
  }();
  return schema;
}

/// Reads every field of P from `given`, in declaration order.
template <class P>
P read_parameters(parameters& given) {
  const parameter_schema<P>& schema = parameter_schema_of<P>();
  P out{};
  detail::for_each_field(out, [&](std::string_view name, auto& member) {
    member = schema.rule(name).template read<std::remove_cvref_t<decltype(member)>>(given, out);
  });
  return out;
}

/// One row of `bem-bench list --parameters`.
struct parameter_doc {
  std::string name;
  std::string type;          ///< "integer", "list of strings", ...
  std::string default_json;  ///< with every other parameter at its default
  bool derived = false;      ///< the default depends on parameters declared before it
  std::string accepts;       ///< "[1, 64]", "one of {a, b}", or ""
  std::string doc;
};

/// The rows of P, in declaration order. Computing the defaults reads an empty
/// parameter set, so a default that breaks its own rule throws here.
template <class P>
std::vector<parameter_doc> parameter_docs() {
  const parameter_schema<P>& schema = parameter_schema_of<P>();
  parameters empty;
  const P defaults = read_parameters<P>(empty);
  std::vector<parameter_doc> rows;
  detail::for_each_field(defaults, [&](std::string_view name, const auto& value) {
    using T = std::remove_cvref_t<decltype(value)>;
    const parameter_rule<P>& r = schema.rule(name);
    parameter_doc d{r.name(), detail::type_name<T>(), "", r.derived(), r.accepts(), r.documentation()};
    parameter_value_json_into(d.default_json, parameter_value(std::in_place_type<detail::stored_as<T>>, value));
    rows.push_back(std::move(d));
  });
  return rows;
}

/// The parameter structs a task, model or benchmark reads, declared as
/// `using parameter_structs = bem::parameter_structs<A, B>;` so the plugin
/// adapter can document them.
template <class... P>
struct parameter_structs {};

/// The rows of every struct as a JSON array of objects with keys name, type,
/// default, derived, accepts, doc (what the plugin ABI's describe_parameters
/// returns).
template <class... P>
std::string parameter_docs_json(parameter_structs<P...>) {
  std::string out = "[";
  const auto append = [&out](const std::vector<parameter_doc>& rows) {
    for (const auto& d : rows) {
      if (out.size() > 1) out += ',';
      out += "{\"name\":";
      detail::json_escape_into(out, d.name);
      out += ",\"type\":";
      detail::json_escape_into(out, d.type);
      out += ",\"default\":" + d.default_json + ",\"derived\":" + (d.derived ? "true" : "false") + ",\"accepts\":";
      detail::json_escape_into(out, d.accepts);
      out += ",\"doc\":";
      detail::json_escape_into(out, d.doc);
      out += '}';
    }
  };
  (append(parameter_docs<P>()), ...);
  return out + "]";
}

BEM_NAMESPACE_END
