// bem-rust-manifest DATASET_DIR: prints the manifest of a dataset version
// (one "SHA256  category/id" line per task) and, on stderr, the manifest's
// own SHA-256 — the value a released version pins in dataset.hpp.
#include "dataset.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: bem-rust-manifest DATASET_DIR > DATASET_DIR/MANIFEST.sha256\n");
    return 2;
  }
  try {
    const auto d = rust_cargo::load_dataset(argv[1]);
    std::fputs(d.manifest().c_str(), stdout);
    std::fprintf(stderr, "%zu tasks, manifest sha256 %s\n", d.tasks.size(), d.manifest_hash().c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bem-rust-manifest: %s\n", e.what());
    return 1;
  }
  return 0;
}
