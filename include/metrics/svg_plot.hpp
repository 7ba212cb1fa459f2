// Self-contained inline SVG line charts for the HTML report: no scripts,
// no stylesheets, no fonts or images to fetch, no element ids (so several
// charts can share one HTML page).
//
// line_chart_svg(series, options) draws every series as a line with markers
// over a shared pair of axes:
//   * colours from a fixed colour-blind-safe palette (Okabe-Ito), and marker
//     shapes cycling circle, square, diamond, triangle, both by series index,
//     so series stay distinguishable in greyscale; a series with more than
//     64 drawable points (e.g. accuracy at each of 1024 positions) is drawn
//     as a bare line, where markers would merge into a smear (its legend
//     entry keeps the marker);
//   * ticks at "nice" values (1, 2 or 5 times a power of ten; with log2_x,
//     at powers of two, labelled with the value itself, e.g. 1024);
//   * light grid lines, axis labels, a title and a legend (right of the plot,
//     shown when some series has a non-empty label);
//   * vertical error bars with caps from y_low to y_high where both are finite;
//   * points whose x or y is not finite (NaN, +-inf), or with x <= 0 on a log2
//     axis, are skipped and break the line there;
//   * text is XML-escaped (& < > " ');
//   * the plotting area clips to [y_min, y_max] when those are given;
//     otherwise the y range covers every point and error bar, widened to
//     the enclosing ticks;
//   * output is deterministic: coordinates are written with std::to_chars in
//     fixed notation with two decimals (locale-independent), so the same
//     input gives the same bytes.
// With no series, or no drawable point, the chart is an SVG of the requested
// size that says "no data" (and shows the title).
// width and height are clamped to at least 160 x 120.
// Throws std::invalid_argument when a series' x and y differ in length, when
// y_low / y_high are neither empty nor as long as y, or when y_min >= y_max.
#pragma once

#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace metrics {

/// One line of a chart. y_low / y_high: optional error bars, empty or as long as y.
struct plot_series {
  std::string label;
  std::vector<double> x, y;
  std::vector<double> y_low, y_high;
};

struct plot_options {
  std::string title, x_label, y_label;
  bool log2_x = false;
  std::optional<double> y_min, y_max;
  int width = 640, height = 360;
};

namespace detail {

inline void xml_escape_into(std::string& out, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
}

inline std::string xml_escape(std::string_view s) {
  std::string out;
  xml_escape_into(out, s);
  return out;
}

/// Fixed notation with `decimals` digits, locale-independent, no "-0".
inline std::string fixed(double v, int decimals) {
  if (!std::isfinite(v)) return "0";
  std::array<char, 64> buf{};
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::fixed, decimals);
  if (ec != std::errc()) return "0";
  std::string s(buf.data(), end);
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

/// A coordinate: two decimals.
inline std::string coord(double v) { return fixed(v, 2); }

struct ticks {
  std::vector<double> values;  // positions in axis space
  std::vector<std::string> labels;
};

/// Step of about (hi - lo) / target, rounded to 1, 2 or 5 times a power of ten.
inline double nice_step(double lo, double hi, int target) {
  const double rough = (hi - lo) / target;
  const double mag = std::pow(10.0, std::floor(std::log10(rough)));
  const double r = rough / mag;
  return (r < 1.5 ? 1.0 : r < 3.0 ? 2.0 : r < 7.0 ? 5.0 : 10.0) * mag;
}

inline int decimals_for(double step) {
  const int d = static_cast<int>(-std::floor(std::log10(step) + 1e-9));
  return std::clamp(d, 0, 12);
}

inline ticks linear_ticks(double lo, double hi, int target) {
  ticks t;
  const double step = nice_step(lo, hi, target);
  const int dec = decimals_for(step);
  const double first = std::ceil(lo / step - 1e-9);
  for (int i = 0; i < 100; ++i) {
    const double v = (first + i) * step;
    if (v > hi + step * 1e-9) break;
    t.values.push_back(v);
    t.labels.push_back(fixed(v, dec));
  }
  return t;
}

/// Ticks on a log2 axis; lo, hi are exponents.
inline ticks log2_ticks(double lo, double hi) {
  const auto e0 = static_cast<std::int64_t>(std::ceil(lo - 1e-9));
  const auto e1 = static_cast<std::int64_t>(std::floor(hi + 1e-9));
  if (e1 - e0 + 1 < 2) {
    // Too narrow for two powers of two: nice ticks in exponent space.
    ticks t = linear_ticks(lo, hi, 4);
    for (std::size_t i = 0; i < t.values.size(); ++i) t.labels[i] = fixed(std::exp2(t.values[i]), 2);
    return t;
  }
  const std::int64_t stride = std::max<std::int64_t>(1, (e1 - e0 + 10) / 10);
  ticks t;
  for (std::int64_t e = e0; e <= e1; e += stride) {
    t.values.push_back(static_cast<double>(e));
    t.labels.push_back(e >= 0 ? fixed(std::exp2(static_cast<double>(e)), 0)
                              : fixed(std::exp2(static_cast<double>(e)), static_cast<int>(-e)));
  }
  return t;
}

/// Series with more drawable points than this are drawn without markers.
inline constexpr std::size_t max_markers = 64;

inline constexpr std::array<const char*, 8> palette = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                       "#E69F00", "#56B4E9", "#000000", "#999999"};

/// A marker of shape `index % 4` centred at (x, y).
inline void marker_into(std::string& out, std::size_t index, double x, double y, const char* colour) {
  const double r = 3.5;
  switch (index % 4) {
    case 0:
      out += "<circle cx=\"" + coord(x) + "\" cy=\"" + coord(y) + "\" r=\"" + coord(r) + "\" fill=\"" + colour +
             "\"/>";
      break;
    case 1:
      out += "<rect x=\"" + coord(x - r) + "\" y=\"" + coord(y - r) + "\" width=\"" + coord(2 * r) + "\" height=\"" +
             coord(2 * r) + "\" fill=\"" + colour + "\"/>";
      break;
    case 2:
      out += "<polygon points=\"" + coord(x) + "," + coord(y - r * 1.3) + " " + coord(x + r * 1.3) + "," + coord(y) +
             " " + coord(x) + "," + coord(y + r * 1.3) + " " + coord(x - r * 1.3) + "," + coord(y) + "\" fill=\"" +
             colour + "\"/>";
      break;
    default:
      out += "<polygon points=\"" + coord(x) + "," + coord(y - r * 1.3) + " " + coord(x + r * 1.2) + "," +
             coord(y + r * 0.8) + " " + coord(x - r * 1.2) + "," + coord(y + r * 0.8) + "\" fill=\"" + colour + "\"/>";
  }
}

inline void svg_open_into(std::string& out, int w, int h, const plot_options& opt) {
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(w) + "\" height=\"" +
         std::to_string(h) + "\" viewBox=\"0 0 " + std::to_string(w) + " " + std::to_string(h) +
         "\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n";
  if (!opt.title.empty()) out += "<title>" + xml_escape(opt.title) + "</title>\n";
  out += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(h) +
         "\" fill=\"#ffffff\"/>\n";
  if (!opt.title.empty())
    out += "<text x=\"" + coord(w / 2.0) + "\" y=\"20\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">" +
           xml_escape(opt.title) + "</text>\n";
}

}  // namespace detail

/// An SVG line chart (see the opening comment of this header).
inline std::string line_chart_svg(const std::vector<plot_series>& series, const plot_options& opt) {
  using namespace detail;
  for (const auto& s : series) {
    if (s.x.size() != s.y.size())
      throw std::invalid_argument("line_chart_svg: series '" + s.label + "' has x and y of different lengths");
    if ((!s.y_low.empty() && s.y_low.size() != s.y.size()) || (!s.y_high.empty() && s.y_high.size() != s.y.size()))
      throw std::invalid_argument("line_chart_svg: series '" + s.label + "' has error bars not matching y");
  }
  if (opt.y_min && opt.y_max && !(*opt.y_min < *opt.y_max))
    throw std::invalid_argument("line_chart_svg: y_min must be below y_max");

  const int W = std::max(opt.width, 160);
  const int H = std::max(opt.height, 120);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto ax = [&](double x) { return opt.log2_x ? (x > 0.0 ? std::log2(x) : nan) : x; };

  // Data ranges over drawable points.
  double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
  bool any = false;
  for (const auto& s : series) {
    for (std::size_t i = 0; i < s.y.size(); ++i) {
      const double x = ax(s.x[i]), y = s.y[i];
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      any = true;
      xlo = std::min(xlo, x);
      xhi = std::max(xhi, x);
      ylo = std::min(ylo, y);
      yhi = std::max(yhi, y);
      for (const auto* bars : {&s.y_low, &s.y_high}) {
        if (bars->empty() || !std::isfinite((*bars)[i])) continue;
        ylo = std::min(ylo, (*bars)[i]);
        yhi = std::max(yhi, (*bars)[i]);
      }
    }
  }

  std::string out;
  svg_open_into(out, W, H, opt);
  if (!any) {
    out += "<text x=\"" + coord(W / 2.0) + "\" y=\"" + coord(H / 2.0) +
           "\" text-anchor=\"middle\" fill=\"#666666\">no data</text>\n</svg>\n";
    return out;
  }

  // x domain: the data, padded 3% (or +-1 around a single value).
  if (xhi - xlo <= 0.0) {
    xlo -= 1.0;
    xhi += 1.0;
  } else {
    const double pad = 0.03 * (xhi - xlo);
    xlo -= pad;
    xhi += pad;
  }
  // y domain: the options, else the data widened to the enclosing ticks.
  if (opt.y_min) ylo = *opt.y_min;
  if (opt.y_max) yhi = *opt.y_max;
  if (!(yhi > ylo)) {
    const double d = std::max(0.5, 0.1 * std::fabs(ylo));
    if (!opt.y_min) ylo -= d;
    if (!opt.y_max) yhi += d;
    if (!(yhi > ylo)) yhi = ylo + 1.0;
  }
  if (!opt.y_min || !opt.y_max) {
    const double step = nice_step(ylo, yhi, 5);
    if (!opt.y_min) ylo = std::floor(ylo / step + 1e-9) * step;
    if (!opt.y_max) yhi = std::ceil(yhi / step - 1e-9) * step;
  }

  // Layout.
  std::size_t longest = 0;
  bool legend = false;
  for (const auto& s : series) {
    if (!s.label.empty()) legend = true;
    longest = std::max(longest, s.label.size());
  }
  const double legend_w = legend ? std::min(W / 3.0, 40.0 + 7.0 * static_cast<double>(longest)) : 0.0;
  const double left = 64.0, right = 16.0 + legend_w, top = opt.title.empty() ? 14.0 : 34.0, bottom = 48.0;
  const double px0 = left, px1 = W - right, py0 = top, py1 = H - bottom;
  const double pw = px1 - px0, ph = py1 - py0;
  auto sx = [&](double x) { return px0 + (x - xlo) / (xhi - xlo) * pw; };
  auto sy = [&](double y) { return py1 - (y - ylo) / (yhi - ylo) * ph; };

  const ticks xt = opt.log2_x ? log2_ticks(xlo, xhi) : linear_ticks(xlo, xhi, 6);
  const ticks yt = linear_ticks(ylo, yhi, 5);

  // Grid and ticks.
  out += "<g stroke=\"#e0e0e0\" stroke-width=\"1\">\n";
  for (double v : xt.values)
    out += "<line x1=\"" + coord(sx(v)) + "\" y1=\"" + coord(py0) + "\" x2=\"" + coord(sx(v)) + "\" y2=\"" +
           coord(py1) + "\"/>\n";
  for (double v : yt.values)
    out += "<line x1=\"" + coord(px0) + "\" y1=\"" + coord(sy(v)) + "\" x2=\"" + coord(px1) + "\" y2=\"" +
           coord(sy(v)) + "\"/>\n";
  out += "</g>\n";
  out += "<g stroke=\"#333333\" stroke-width=\"1\">\n";
  out += "<line x1=\"" + coord(px0) + "\" y1=\"" + coord(py1) + "\" x2=\"" + coord(px1) + "\" y2=\"" + coord(py1) +
         "\"/>\n";
  out += "<line x1=\"" + coord(px0) + "\" y1=\"" + coord(py0) + "\" x2=\"" + coord(px0) + "\" y2=\"" + coord(py1) +
         "\"/>\n";
  for (double v : xt.values)
    out += "<line x1=\"" + coord(sx(v)) + "\" y1=\"" + coord(py1) + "\" x2=\"" + coord(sx(v)) + "\" y2=\"" +
           coord(py1 + 5) + "\"/>\n";
  for (double v : yt.values)
    out += "<line x1=\"" + coord(px0 - 5) + "\" y1=\"" + coord(sy(v)) + "\" x2=\"" + coord(px0) + "\" y2=\"" +
           coord(sy(v)) + "\"/>\n";
  out += "</g>\n";
  out += "<g font-size=\"11\" fill=\"#333333\">\n";
  for (std::size_t i = 0; i < xt.values.size(); ++i)
    out += "<text x=\"" + coord(sx(xt.values[i])) + "\" y=\"" + coord(py1 + 18) + "\" text-anchor=\"middle\">" +
           xml_escape(xt.labels[i]) + "</text>\n";
  for (std::size_t i = 0; i < yt.values.size(); ++i)
    out += "<text x=\"" + coord(px0 - 8) + "\" y=\"" + coord(sy(yt.values[i]) + 4) + "\" text-anchor=\"end\">" +
           xml_escape(yt.labels[i]) + "</text>\n";
  out += "</g>\n";
  if (!opt.x_label.empty())
    out += "<text x=\"" + coord((px0 + px1) / 2) + "\" y=\"" + coord(H - 10.0) + "\" text-anchor=\"middle\">" +
           xml_escape(opt.x_label) + "</text>\n";
  if (!opt.y_label.empty())
    out += "<text x=\"16\" y=\"" + coord((py0 + py1) / 2) + "\" text-anchor=\"middle\" transform=\"rotate(-90 16 " +
           coord((py0 + py1) / 2) + ")\">" + xml_escape(opt.y_label) + "</text>\n";

  // Series, in a nested viewport that clips to the plot area plus a margin
  // for markers. Coordinates inside are relative to its corner.
  const double m = 6.0;
  const double ox = px0 - m, oy = py0 - m;
  out += "<svg x=\"" + coord(ox) + "\" y=\"" + coord(oy) + "\" width=\"" + coord(pw + 2 * m) + "\" height=\"" +
         coord(ph + 2 * m) + "\" overflow=\"hidden\">\n";
  for (std::size_t k = 0; k < series.size(); ++k) {
    const auto& s = series[k];
    const char* colour = palette[k % palette.size()];
    out += "<g>\n";
    std::string d;
    bool pen_down = false;
    for (std::size_t i = 0; i < s.y.size(); ++i) {
      const double x = ax(s.x[i]), y = s.y[i];
      if (!std::isfinite(x) || !std::isfinite(y)) {
        pen_down = false;
        continue;
      }
      d += pen_down ? " L" : (d.empty() ? "M" : " M");
      d += coord(sx(x) - ox) + " " + coord(sy(y) - oy);
      pen_down = true;
    }
    if (!d.empty())
      out += "<path d=\"" + d + "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"1.8\"/>\n";
    if (!s.y_low.empty() && !s.y_high.empty()) {
      for (std::size_t i = 0; i < s.y.size(); ++i) {
        const double x = ax(s.x[i]);
        if (!std::isfinite(x) || !std::isfinite(s.y[i]) || !std::isfinite(s.y_low[i]) || !std::isfinite(s.y_high[i]))
          continue;
        const double cx = sx(x) - ox, y0 = sy(s.y_low[i]) - oy, y1 = sy(s.y_high[i]) - oy;
        out += "<path d=\"M" + coord(cx) + " " + coord(y0) + " L" + coord(cx) + " " + coord(y1) + " M" +
               coord(cx - 3) + " " + coord(y0) + " L" + coord(cx + 3) + " " + coord(y0) + " M" + coord(cx - 3) + " " +
               coord(y1) + " L" + coord(cx + 3) + " " + coord(y1) + "\" fill=\"none\" stroke=\"" + colour +
               "\" stroke-width=\"1\"/>\n";
      }
    }
    std::size_t drawable = 0;
    for (std::size_t i = 0; i < s.y.size(); ++i) drawable += std::isfinite(ax(s.x[i])) && std::isfinite(s.y[i]) ? 1 : 0;
    if (drawable <= max_markers) {
      for (std::size_t i = 0; i < s.y.size(); ++i) {
        const double x = ax(s.x[i]), y = s.y[i];
        if (!std::isfinite(x) || !std::isfinite(y)) continue;
        marker_into(out, k, sx(x) - ox, sy(y) - oy, colour);
        out += "\n";
      }
    }
    out += "</g>\n";
  }
  out += "</svg>\n";

  // Legend.
  if (legend) {
    const double lx = px1 + 14.0;
    out += "<g font-size=\"12\">\n";
    for (std::size_t k = 0; k < series.size(); ++k) {
      const double ly = py0 + 8.0 + 18.0 * static_cast<double>(k);
      const char* colour = palette[k % palette.size()];
      out += "<line x1=\"" + coord(lx) + "\" y1=\"" + coord(ly) + "\" x2=\"" + coord(lx + 22) + "\" y2=\"" +
             coord(ly) + "\" stroke=\"" + colour + "\" stroke-width=\"1.8\"/>";
      marker_into(out, k, lx + 11, ly, colour);
      out += "<text x=\"" + coord(lx + 28) + "\" y=\"" + coord(ly + 4) + "\">" + xml_escape(series[k].label) +
             "</text>\n";
    }
    out += "</g>\n";
  }
  out += "</svg>\n";
  return out;
}

}  // namespace metrics
BEM_NAMESPACE_END
