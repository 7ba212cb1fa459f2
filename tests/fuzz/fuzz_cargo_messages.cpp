// What cargo and the test binary print, as the Rust suite's judge reads it
// (plugins/rust_cargo/cargo_runner.cpp): `cargo build --message-format=json`
// lines, libtest's result lines and cargo's stderr. A sample's own code
// writes some of these bytes, so they are untrusted; the readers take
// anything and never throw.
#include "cargo_runner.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(fuzz::as_text(data, size));
  std::vector<std::string> codes;
  std::string first;
  rust_cargo::parse_compiler_messages(text, codes, first);
  for (const auto& c : codes) (void)rust_cargo::is_borrow_check_error(c);
  (void)rust_cargo::parse_test_report(text);
  (void)rust_cargo::reported_child_signal(text);
  (void)rust_cargo::text_tail(text, rust_cargo::step_log_bytes);
  return 0;
}
