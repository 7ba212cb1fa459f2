// A Rust task's metadata.yaml (plugins/rust_cargo/dataset.cpp, load_task):
// the bytes are the metadata of a task folder whose other files are those
// of a valid task. Bad metadata is a dataset_error naming file and field.
#include "dataset.hpp"
#include "fuzz_common.hpp"

#ifndef FUZZ_TASK_DIR
#error "define FUZZ_TASK_DIR as a task folder of benchmarks_v1 (its files other than metadata.yaml are used)"
#endif

namespace {
// A copy of a real task folder, under its category; its metadata.yaml is
// rewritten with the fuzzed bytes for each input.
const std::filesystem::path& task_dir() {
  static const std::filesystem::path dir = [] {
    const std::filesystem::path source = FUZZ_TASK_DIR;
    const auto d = fuzz::scratch_dir() / source.parent_path().filename() / source.filename();
    std::filesystem::create_directories(d.parent_path());
    std::filesystem::copy(source, d, std::filesystem::copy_options::recursive);
    return d;
  }();
  return dir;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::write_file(task_dir() / "metadata.yaml", fuzz::as_text(data, size));
  try {
    const auto t = rust_cargo::load_task(task_dir());
    (void)t.crate_files(t.oracle_output());
  } catch (const rust_cargo::dataset_error&) {
  }
  return 0;
}
