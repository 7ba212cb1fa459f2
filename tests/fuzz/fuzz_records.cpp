// Result records as the driver reads them back (examples/bem-bench/report.cpp):
// the bytes are a results directory's results.jsonl for `bem-bench report`
// (write_outputs) and for --resume (read_jsonl, then finished_runs), and a
// metrics.json for `bem-bench compare`. Unreadable input is a
// std::runtime_error naming the file, which bem-bench prints before it
// exits with status 2.
#include "fuzz_common.hpp"
#include "report.hpp"

#include <metrics/records.hpp>

#include <ostream>
#include <stdexcept>
#include <streambuf>

namespace {
struct discard_buffer : std::streambuf {
  int overflow(int c) override { return c; }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto dir = fuzz::scratch_dir() / "results";
  const auto text = fuzz::as_text(data, size);
  fuzz::write_file(dir / "context.json", R"({"suite":{"name":"fuzz","description":"","runs":1}})" "\n");
  fuzz::write_file(dir / "results.jsonl", text);
  fuzz::write_file(dir / "metrics.json", text);
  try {
    // What --resume does before it keeps the finished runs' records.
    const auto path = (dir / "results.jsonl").string();
    const auto records = bem::metrics::read_jsonl(path);
    bench_driver::check_records(records, path);
    (void)bench_driver::finished_runs(records);
  } catch (const std::runtime_error&) {
  }
  try {
    bench_driver::write_outputs({dir.string()}, (fuzz::scratch_dir() / "report").string());
  } catch (const std::runtime_error&) {
  }
  discard_buffer nothing;
  std::ostream out(&nothing);
  for (const bool across_models : {false, true}) {
    try {
      const auto m = (dir / "metrics.json").string();
      (void)bench_driver::compare_metrics(m, m, 0.05, true, across_models, out);
    } catch (const std::runtime_error&) {
    }
  }
  return 0;
}
