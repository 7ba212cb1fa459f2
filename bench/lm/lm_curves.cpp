// lm_curves: the learning curves of a language-modelling run as SVG
// (metrics/svg_plot.hpp): for each task and corpus of a results.jsonl from
// `bem-bench run configs/lm.toml`, the BEM LM's frozen validation bits per
// symbol against the training symbols read (records of split
// "model=bem,train=N"), one line per (task, corpus).
//
// Usage: lm_curves RESULTS.jsonl OUT.svg
#include <metrics/svg_plot.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: lm_curves RESULTS.jsonl OUT.svg\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "lm_curves: cannot read %s\n", argv[1]);
    return 2;
  }
  std::map<std::string, std::map<double, double>> curves;  // "task, corpus" -> train -> bits
  for (std::string line; std::getline(in, line);) {
    const auto r = nlohmann::json::parse(line);
    const std::string metric = r.value("metric", "");
    if (metric.rfind("validation_bits_per_", 0) != 0 || !r["value"].is_number()) continue;
    const auto& c = r["condition"];
    const auto& n = c["train"];  // written as a number or as text
    curves[r["task"].get<std::string>() + ", " + c["corpus"].get<std::string>()]
          [n.is_number() ? n.get<double>() : std::stod(n.get<std::string>())] = r["value"].get<double>();
  }
  std::vector<bem::metrics::plot_series> series;
  for (const auto& [label, points] : curves) {
    bem::metrics::plot_series s;
    s.label = label + (label.rfind("codelm", 0) == 0 ? " (bits/token)" : " (bits/char)");
    for (const auto& [x, y] : points) s.x.push_back(x), s.y.push_back(y);
    series.push_back(std::move(s));
  }
  bem::metrics::plot_options o;
  o.title = "BEM language model: frozen validation bits per symbol vs training symbols";
  o.x_label = "training symbols read";
  o.y_label = "bits per symbol (validation, frozen)";
  o.log2_x = true;
  o.width = 720;
  std::ofstream(argv[2]) << bem::metrics::line_chart_svg(series, o);
  return 0;
}
