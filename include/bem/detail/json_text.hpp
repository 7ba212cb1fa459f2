// JSON text for strings and numbers, written by hand where a header must not
// depend on a JSON library (parameters, the hardware report, task specs):
// strings escaped per RFC 8259, numbers in the shortest form that reads back
// exactly (std::to_chars), so records are byte-identical on every machine.
#pragma once

#include <bem/version.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

BEM_NAMESPACE_BEGIN
namespace detail {
inline void json_escape_into(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}
inline void json_number_into(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form: identical everywhere
  out.append(buf, r.ptr);
}
}  // namespace detail
BEM_NAMESPACE_END
