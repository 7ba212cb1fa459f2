// The SVG charts are well-formed XML, escape their text and are deterministic.
#include <doctest/doctest.h>
#include <metrics/svg_plot.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using namespace bem::metrics;

namespace {
// A tiny XML well-formedness check: tags balance, attribute values are quoted,
// text holds no raw '<', and every '&' starts a known entity. Returns "" when
// fine, else what went wrong.
std::string xml_problem(const std::string& s) {
  std::vector<std::string> stack;
  std::size_t i = 0;
  auto entity_ok = [&](std::size_t at) {
    for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"})
      if (s.compare(at, std::string(e).size(), e) == 0) return true;
    return false;
  };
  while (i < s.size()) {
    if (s[i] == '&') {
      if (!entity_ok(i)) return "bad entity at " + std::to_string(i);
      ++i;
      continue;
    }
    if (s[i] != '<') {
      ++i;
      continue;
    }
    const bool closing = i + 1 < s.size() && s[i + 1] == '/';
    std::size_t j = i + (closing ? 2 : 1);
    std::string name;
    while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '-' || s[j] == ':'))
      name += s[j++];
    if (name.empty()) return "raw '<' at " + std::to_string(i);
    // Attributes: name="value" with no '<' inside the value.
    bool self_closing = false;
    while (true) {
      while (j < s.size() && s[j] == ' ') ++j;
      if (j >= s.size()) return "unterminated tag " + name;
      if (s[j] == '>') {
        ++j;
        break;
      }
      if (s[j] == '/' && j + 1 < s.size() && s[j + 1] == '>') {
        self_closing = true;
        j += 2;
        break;
      }
      if (closing) return "attribute on closing tag " + name;
      std::size_t k = j;
      while (k < s.size() && s[k] != '=' && s[k] != ' ' && s[k] != '>') ++k;
      if (k == j || k >= s.size() || s[k] != '=' || k + 1 >= s.size() || s[k + 1] != '"')
        return "unquoted attribute in " + name;
      const std::size_t end = s.find('"', k + 2);
      if (end == std::string::npos) return "unterminated attribute in " + name;
      for (std::size_t q = k + 2; q < end; ++q) {
        if (s[q] == '<') return "'<' in attribute of " + name;
        if (s[q] == '&' && !entity_ok(q)) return "bad entity in attribute of " + name;
      }
      j = end + 1;
    }
    if (closing) {
      if (stack.empty() || stack.back() != name) return "mismatched </" + name + ">";
      stack.pop_back();
    } else if (!self_closing) {
      stack.push_back(name);
    }
    i = j;
  }
  if (!stack.empty()) return "unclosed <" + stack.back() + ">";
  return "";
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("the checker itself catches malformed XML") {
  CHECK(xml_problem("<svg><g></g></svg>").empty());
  CHECK(!xml_problem("<svg><g></svg>").empty());
  CHECK(!xml_problem("<svg>a < b</svg>").empty());
  CHECK(!xml_problem("<svg>a & b</svg>").empty());
  CHECK(!xml_problem("<svg x=1></svg>").empty());
}

TEST_CASE("line chart: well-formed, labelled, escaped") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  plot_series a{"E88 <1 layer> & co", {16, 32, 64, 128}, {0.99, 0.98, nan, 0.97}, {0.98, 0.97, nan, 0.95},
                {1.0, 0.99, nan, 0.99}};
  plot_series b{"Mamba2 \"32\"", {16, 32, 64, 128}, {0.9, 0.8, 0.7, 0.6}, {}, {}};
  plot_series c{"linear 'baseline'", {16, 32, 64, 128}, {0.5, 0.5, 0.5, 0.5}, {}, {}};
  plot_options o;
  o.title = "Accuracy vs T <RTC> & friends";
  o.x_label = "sequence length T";
  o.y_label = "accuracy";
  o.log2_x = true;
  o.y_min = 0.0;
  o.y_max = 1.0;
  const std::string svg = line_chart_svg({a, b, c}, o);
  CHECK(xml_problem(svg) == "");
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(svg.find("E88 &lt;1 layer&gt; &amp; co") != std::string::npos);
  CHECK(svg.find("Mamba2 &quot;32&quot;") != std::string::npos);
  CHECK(svg.find("linear &#39;baseline&#39;") != std::string::npos);
  CHECK(svg.find("Accuracy vs T &lt;RTC&gt; &amp; friends") != std::string::npos);
  CHECK(svg.find("sequence length T") != std::string::npos);
  CHECK(svg.find(">accuracy<") != std::string::npos);
  CHECK(svg.find("<E88") == std::string::npos);
  // log2 ticks labelled with the values themselves.
  CHECK(svg.find(">16<") != std::string::npos);
  CHECK(svg.find(">128<") != std::string::npos);
  // Distinct colours and error bars; the NaN point is skipped (breaks the line).
  CHECK(svg.find("#0072B2") != std::string::npos);
  CHECK(svg.find("#D55E00") != std::string::npos);
  CHECK(svg.find("#009E73") != std::string::npos);
  CHECK(svg.find("nan") == std::string::npos);
  CHECK(svg.find("inf") == std::string::npos);
  CHECK(count(svg, "<circle") == 3 + 1);  // 3 finite points of series 0 + its legend marker
  // Deterministic.
  CHECK(line_chart_svg({a, b, c}, o) == svg);
  // No ids: several charts can share a page.
  CHECK(svg.find(" id=") == std::string::npos);
}

TEST_CASE("line chart: linear axes, automatic range, single point, unlabelled") {
  plot_series s{"", {1, 2, 3, 4, 5}, {-0.3, 2.5, 1.0, 7.25, 3.0}, {}, {}};
  plot_options o;
  const std::string svg = line_chart_svg({s}, o);
  CHECK(xml_problem(svg) == "");
  CHECK(svg.find("<text x=\"") != std::string::npos);
  CHECK(svg.find("<title>") == std::string::npos);  // no title given

  plot_series one{"one", {3}, {0.5}, {0.4}, {0.6}};
  const std::string p = line_chart_svg({one}, o);
  CHECK(xml_problem(p) == "");
  CHECK(p.find(">one<") != std::string::npos);

  // Many series cycle the palette and stay well-formed.
  std::vector<plot_series> many;
  for (int k = 0; k < 10; ++k) {
    std::string label = "s";
    label += std::to_string(k);
    many.push_back({label, {1, 2}, {double(k), double(k + 1)}, {}, {}});
  }
  const std::string m = line_chart_svg(many, o);
  CHECK(xml_problem(m) == "");
  for (int k = 0; k < 10; ++k) {
    std::string text = ">s";
    text += std::to_string(k);
    text += '<';
    CHECK(m.find(text) != std::string::npos);
  }
}

TEST_CASE("line chart: long series are drawn without markers") {
  plot_series s{"long", {}, {}, {}, {}};
  for (int i = 1; i <= 200; ++i) {
    s.x.push_back(i);
    s.y.push_back(1.0 / i);
  }
  const std::string svg = line_chart_svg({s}, plot_options{});
  CHECK(xml_problem(svg) == "");
  CHECK(count(svg, "<circle") == 1);  // the legend's
  CHECK(count(svg, "<path") == 1);
}

TEST_CASE("line chart: empty input says no data") {
  plot_options o;
  o.title = "empty & sad";
  const std::string e = line_chart_svg({}, o);
  CHECK(xml_problem(e) == "");
  CHECK(e.find("no data") != std::string::npos);
  CHECK(e.find("empty &amp; sad") != std::string::npos);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::string n = line_chart_svg({{"x", {nan, 1}, {1, nan}, {}, {}}}, o);
  CHECK(xml_problem(n) == "");
  CHECK(n.find("no data") != std::string::npos);
  o.log2_x = true;
  CHECK(line_chart_svg({{"x", {0, -2}, {1, 1}, {}, {}}}, o).find("no data") != std::string::npos);
}

TEST_CASE("line chart: invalid input throws") {
  plot_options o;
  CHECK_THROWS_AS(line_chart_svg({{"x", {1, 2}, {1}, {}, {}}}, o), std::invalid_argument);
  CHECK_THROWS_AS(line_chart_svg({{"x", {1, 2}, {1, 2}, {1}, {}}}, o), std::invalid_argument);
  o.y_min = 1.0;
  o.y_max = 1.0;
  CHECK_THROWS_AS(line_chart_svg({{"x", {1, 2}, {1, 2}, {}, {}}}, o), std::invalid_argument);
}

namespace {
/// The d attribute of the first <path> in an SVG.
std::string first_path(const std::string& svg) {
  const auto at = svg.find("<path d=\"");
  if (at == std::string::npos) return "";
  const auto from = at + 9;
  return svg.substr(from, svg.find('"', from) - from);
}
}  // namespace

TEST_CASE("line chart: a point that cannot be drawn breaks the line there") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::string svg = line_chart_svg({{"", {1, 2, 3, 4}, {1, nan, 2, 3}, {}, {}}}, plot_options{});
  const std::string d = first_path(svg);
  CAPTURE(d);
  CHECK(d.rfind("M", 0) == 0);
  CHECK(count(d, " M") == 1);  // point 1 ends a piece; points 3 and 4 start the next
  CHECK(count(d, " L") == 1);
}

TEST_CASE("line chart: the marker limit counts drawable points only") {
  // 60 drawable points and 10 NaN: 70 in all, but 60 <= 64 get markers.
  plot_series s{"", {}, {}, {}, {}};
  for (int i = 1; i <= 70; ++i) {
    s.x.push_back(i);
    s.y.push_back(i % 7 == 0 ? std::numeric_limits<double>::quiet_NaN() : double(i));
  }
  CHECK(count(line_chart_svg({s}, plot_options{}), "<circle") == 60);
}

TEST_CASE("line chart: the automatic y range covers the error bars") {
  // Points at 1 and 2, bars down to -3 and up to 9: ticks every 2 from -4 to 10.
  const std::string svg = line_chart_svg({{"", {1, 2}, {1, 2}, {0.5, -3}, {1.5, 9}}}, plot_options{});
  CHECK(svg.find(">-4<") != std::string::npos);
  CHECK(svg.find(">10<") != std::string::npos);
}

TEST_CASE("ticks: steps of 1, 2 or 5 times a power of ten; no negative zero") {
  using namespace bem::metrics::detail;
  CHECK(nice_step(0, 10, 5) == doctest::Approx(2.0));
  CHECK(nice_step(0, 10, 4) == doctest::Approx(2.0));
  CHECK(nice_step(0, 1, 5) == doctest::Approx(0.2));
  CHECK(nice_step(0, 30, 6) == doctest::Approx(5.0));
  CHECK(nice_step(0, 7, 6) == doctest::Approx(1.0));
  for (double hi = 0.013; hi < 1e6; hi *= 1.37) {
    const double step = nice_step(0, hi, 5);
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    CAPTURE(hi);
    CHECK((mantissa == doctest::Approx(1.0) || mantissa == doctest::Approx(2.0) || mantissa == doctest::Approx(5.0)));
  }
  CHECK(fixed(-0.001, 2) == "0.00");
  CHECK(fixed(-0.0, 0) == "0");
  CHECK(fixed(-0.5, 2) == "-0.50");
  // A tick at zero computed as -0 * step is labelled 0.
  const std::string svg = line_chart_svg({{"", {1, 2, 3}, {-0.3, 2.5, 7.25}, {}, {}}}, plot_options{});
  CHECK(svg.find(">0<") != std::string::npos);
  CHECK(svg.find(">-0<") == std::string::npos);
  CHECK(svg.find("\"-0.00\"") == std::string::npos);
}
