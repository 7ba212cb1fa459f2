// What every harness shares: a scratch folder of its own for parsers that
// read files, and the rule for exceptions. A harness catches only the
// exception types its parser documents for bad input; anything else
// escapes LLVMFuzzerTestOneInput, std::terminate aborts, and libFuzzer
// reports the input as a crash, as it does for sanitizer reports.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace fuzz {

/// A folder under $TMPDIR made once per process and removed at exit.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "bem-fuzz-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
      std::perror("mkdtemp");
      std::abort();
    }
    static struct remover {
      std::filesystem::path p;
      ~remover() {
        std::error_code ec;
        std::filesystem::remove_all(p, ec);
      }
    } at_exit{pattern};
    return std::filesystem::path(pattern);
  }();
  return dir;
}

inline void write_file(const std::filesystem::path& p, std::string_view bytes) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", p.c_str());
    std::abort();
  }
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// A violated law of a parser (a round trip that changes the value): a
/// finding like a crash.
[[noreturn]] inline void law_broken(const char* what) {
  std::fprintf(stderr, "law broken: %s\n", what);
  std::abort();
}

}  // namespace fuzz
