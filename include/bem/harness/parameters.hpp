// Named parameters of a task or model.
//
// Tasks and models read their parameters through this class rather than a
// TOML library, so their headers stay free of parsing dependencies; the
// plugin adapter and the driver fill it from TOML (bem/plugin/toml_parameters.hpp).
// Every read records the effective value (given or default), which becomes
// the "full configuration" of a result record, and `check_all_used` turns a
// misspelt or unknown key into an error instead of a silent default.
#pragma once

#include <bem/detail/json_text.hpp>
#include <bem/version.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

BEM_NAMESPACE_BEGIN

/// Thrown for a missing, mistyped, out-of-range or unknown parameter. The
/// message starts with the parameter's name.
class parameter_error : public std::runtime_error {
 public:
  parameter_error(std::string key, const std::string& what)
      : std::runtime_error("parameter '" + key + "': " + what), key_(std::move(key)) {}
  const std::string& key() const noexcept { return key_; }

 private:
  std::string key_;
};

/// A parameter value: integer, real, Boolean, string, or a list of integers,
/// reals or strings.
using parameter_value = std::variant<std::int64_t, double, bool, std::string, std::vector<std::int64_t>,
                                     std::vector<double>, std::vector<std::string>>;

class parameters {
 public:
  parameters() = default;

  void set(std::string key, parameter_value v) { given_[std::move(key)] = std::move(v); }
  bool contains(std::string_view key) const { return given_.find(std::string(key)) != given_.end(); }

  std::int64_t get_int(std::string_view key, std::int64_t fallback) {
    return read<std::int64_t>(key, fallback, "an integer");
  }
  double get_double(std::string_view key, double fallback) {
    const std::string k(key);
    if (auto it = given_.find(k); it != given_.end()) {
      // An integer literal is a fine real number.
      if (auto* i = std::get_if<std::int64_t>(&it->second)) return note(k, static_cast<double>(*i));
    }
    return read<double>(key, fallback, "a number");
  }
  bool get_bool(std::string_view key, bool fallback) { return read<bool>(key, fallback, "a Boolean"); }
  std::string get_string(std::string_view key, std::string fallback) {
    return read<std::string>(key, std::move(fallback), "a string");
  }
  std::vector<std::int64_t> get_int_list(std::string_view key, std::vector<std::int64_t> fallback) {
    const std::string k(key);
    if (auto it = given_.find(k); it != given_.end()) {
      if (auto* i = std::get_if<std::int64_t>(&it->second)) return note(k, std::vector<std::int64_t>{*i});
    }
    return read<std::vector<std::int64_t>>(key, std::move(fallback), "a list of integers");
  }
  std::vector<std::string> get_string_list(std::string_view key, std::vector<std::string> fallback) {
    const std::string k(key);
    if (auto it = given_.find(k); it != given_.end()) {
      if (auto* s = std::get_if<std::string>(&it->second)) return note(k, std::vector<std::string>{*s});
    }
    return read<std::vector<std::string>>(key, std::move(fallback), "a list of strings");
  }

  /// Integer in [lo, hi]; names the bounds when violated.
  std::int64_t get_int_in(std::string_view key, std::int64_t fallback, std::int64_t lo, std::int64_t hi) {
    const std::int64_t v = get_int(key, fallback);
    if (v < lo || v > hi)
      throw parameter_error(std::string(key), "must lie in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                                  "], got " + std::to_string(v));
    return v;
  }
  double get_double_in(std::string_view key, double fallback, double lo, double hi) {
    const double v = get_double(key, fallback);
    if (!(v >= lo && v <= hi))
      throw parameter_error(std::string(key), "must lie in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                                  "], got " + std::to_string(v));
    return v;
  }
  /// One of `choices`.
  std::string get_choice(std::string_view key, std::string fallback, const std::vector<std::string>& choices) {
    std::string v = get_string(key, std::move(fallback));
    for (const auto& c : choices)
      if (c == v) return v;
    std::string list;
    for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
    throw parameter_error(std::string(key), "must be one of {" + list + "}, got \"" + v + "\"");
  }

  /// Throws for the first given key that no getter asked for.
  void check_all_used() const {
    for (const auto& [k, v] : given_) {
      if (effective_.find(k) == effective_.end()) {
        std::string known;
        for (const auto& [ek, ev] : effective_) known += (known.empty() ? "" : ", ") + ek;
        throw parameter_error(k, "unknown parameter (known: " + (known.empty() ? std::string("none") : known) + ")");
      }
    }
  }

  /// Every parameter read so far with its effective value, sorted by name.
  const std::map<std::string, parameter_value>& effective() const noexcept { return effective_; }
  const std::map<std::string, parameter_value>& given() const noexcept { return given_; }

 private:
  template <class T>
  T note(const std::string& k, T v) {
    effective_[k] = v;
    return v;
  }
  template <class T>
  T read(std::string_view key, T fallback, const char* expected) {
    const std::string k(key);
    auto it = given_.find(k);
    if (it == given_.end()) return note(k, std::move(fallback));
    if (auto* v = std::get_if<T>(&it->second)) return note(k, *v);
    throw parameter_error(k, std::string("expected ") + expected);
  }

  std::map<std::string, parameter_value> given_;
  std::map<std::string, parameter_value> effective_;
};

BEM_NAMESPACE_END

// ---- JSON text of parameter values (used for the records' configuration) --

BEM_NAMESPACE_BEGIN

namespace detail {
template <class X>
constexpr bool is_parameter_list = false;
template <class E>
constexpr bool is_parameter_list<std::vector<E>> = true;
}  // namespace detail

/// Appends the JSON text of one parameter value (numbers in shortest form).
inline void parameter_value_json_into(std::string& out, const parameter_value& v) {
  const auto scalar = [&out](const auto& x) {
    using X = std::decay_t<decltype(x)>;
    if constexpr (std::is_same_v<X, std::int64_t>)
      out += std::to_string(x);
    else if constexpr (std::is_same_v<X, double>)
      detail::json_number_into(out, x);
    else if constexpr (std::is_same_v<X, bool>)
      out += x ? "true" : "false";
    else
      detail::json_escape_into(out, x);
  };
  std::visit(
      [&](const auto& x) {
        if constexpr (detail::is_parameter_list<std::decay_t<decltype(x)>>) {
          out += '[';
          for (std::size_t i = 0; i < x.size(); ++i) {
            if (i) out += ',';
            scalar(x[i]);
          }
          out += ']';
        } else {
          scalar(x);
        }
      },
      v);
}

/// A JSON object holding `values`, keys sorted, numbers in shortest form.
inline std::string parameters_to_json(const std::map<std::string, parameter_value>& values) {
  std::string out = "{";
  for (const auto& [k, v] : values) {
    if (out.size() > 1) out += ',';
    detail::json_escape_into(out, k);
    out += ':';
    parameter_value_json_into(out, v);
  }
  out += '}';
  return out;
}
BEM_NAMESPACE_END
