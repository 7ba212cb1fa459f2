// bem-bench's suite files (examples/bem-bench/suite.cpp): the TOML text of
// `bem-bench run SUITE.toml`. Bad input is a config_error naming file,
// line and column.
#include "fuzz_common.hpp"
#include "suite.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto s = bench_driver::parse_suite(std::string(fuzz::as_text(data, size)), "fuzz.toml");
    for (const auto& r : s.runs) (void)bench_driver::locate(r, "params", "length");
  } catch (const bench_driver::config_error&) {
  }
  return 0;
}
