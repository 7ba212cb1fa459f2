// Reading bem::parameters from TOML and writing them back.
//
// Debian's toml++ 3.3 is a compiled library: this header includes
// <toml++/toml.h> and whoever includes it links the `tomlplusplus`
// pkg-config dependency. Task and model headers never include it; the plugin
// adapter and the driver do.
#pragma once

#include <bem/harness/parameters.hpp>
#include <bem/version.hpp>

#include <toml++/toml.h>

#include <sstream>
#include <string>
#include <string_view>

BEM_NAMESPACE_BEGIN

namespace detail {
inline std::string toml_where(const toml::source_region& r) {
  std::string s;
  if (r.path) s += *r.path + ":";
  s += std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
  return s;
}

/// Converts one TOML value; throws parameter_error naming `key` for values a
/// parameter cannot hold (tables, mixed or nested arrays, dates).
inline parameter_value parameter_from_node(const std::string& key, const toml::node& n) {
  if (auto v = n.as_integer()) return v->get();
  if (auto v = n.as_floating_point()) return v->get();
  if (auto v = n.as_boolean()) return v->get();
  if (auto v = n.as_string()) return v->get();
  if (auto a = n.as_array()) {
    if (a->empty()) return std::vector<std::int64_t>{};
    if (a->is_homogeneous(toml::node_type::integer)) {
      std::vector<std::int64_t> out;
      for (auto& e : *a) out.push_back(e.as_integer()->get());
      return out;
    }
    if (a->is_homogeneous(toml::node_type::string)) {
      std::vector<std::string> out;
      for (auto& e : *a) out.push_back(e.as_string()->get());
      return out;
    }
    bool numeric = true;
    for (auto& e : *a) numeric = numeric && (e.is_integer() || e.is_floating_point());
    if (numeric) {
      std::vector<double> out;
      for (auto& e : *a) out.push_back(e.is_integer() ? static_cast<double>(e.as_integer()->get()) : e.as_floating_point()->get());
      return out;
    }
    throw parameter_error(key, "at " + toml_where(n.source()) + ": a list must hold only integers, only numbers or only strings");
  }
  throw parameter_error(key, "at " + toml_where(n.source()) + ": expected a number, Boolean, string or list");
}
}  // namespace detail

/// Parameters from a TOML table: every key becomes one parameter.
inline parameters parameters_from_table(const toml::table& table) {
  parameters p;
  for (auto&& [k, v] : table) p.set(std::string(k.str()), detail::parameter_from_node(std::string(k.str()), v));
  return p;
}

/// Parameters from TOML text; `source` names the text in error messages.
inline parameters parameters_from_toml(std::string_view text, std::string_view source = "parameters") {
  try {
    toml::table t = toml::parse(text, source);
    return parameters_from_table(t);
  } catch (const toml::parse_error& e) {
    throw parameter_error("<toml>", std::string(source) + ":" + std::to_string(e.source().begin.line) + ":" +
                                        std::to_string(e.source().begin.column) + ": " + std::string(e.description()));
  }
}

/// TOML text for a parameter map (the host sends this to a plugin).
inline std::string parameters_to_toml(const std::map<std::string, parameter_value>& values) {
  toml::table t;
  for (const auto& entry : values) {
    const std::string& k = entry.first;  // a named variable: clang 14 cannot capture structured bindings
    std::visit(
        [&](const auto& x) {
          using X = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<X, std::vector<std::int64_t>> || std::is_same_v<X, std::vector<double>> ||
                        std::is_same_v<X, std::vector<std::string>>) {
            toml::array a;
            for (const auto& e : x) a.push_back(e);
            t.insert_or_assign(k, std::move(a));
          } else {
            t.insert_or_assign(k, x);
          }
        },
        entry.second);
  }
  std::ostringstream os;
  os << t;
  return os.str();
}

BEM_NAMESPACE_END
