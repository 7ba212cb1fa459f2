// A machine's trace: trace files as `bem-bench log verify FILE` reads them
// (include/bem/machine/trace_file.hpp, from memory and through a file
// descriptor) and in-memory log images (trace_log::load). The verifier
// never throws: it reports. load() throws std::invalid_argument for an
// ill-formed image; an image it accepts is written back byte for byte.
#include "fuzz_common.hpp"

#include <bem/machine/trace_file.hpp>
#include <bem/machine/trace_log.hpp>

#include <span>
#include <sstream>
#include <stdexcept>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  const auto in_memory = bem::verify_trace_bytes(bytes);
  const auto file = fuzz::scratch_dir() / "trace.bemtrace";
  fuzz::write_file(file, fuzz::as_text(data, size));
  std::ostringstream said;
  const int code = bem::detail::trace_file_verify_main(file.string(), said);
  if (code != in_memory.exit_code()) fuzz::law_broken("the file and the same bytes in memory got different verdicts");

  // Segments of 4 entries: the images in the corpus span several.
  try {
    const auto log = bem::trace_log::load(bytes, 4);
    (void)log.verify();
    for (std::size_t s = 0; s * log.segment_entries() < log.size(); ++s) (void)log.segment_root(s);
    const auto image = log.image();
    if (!std::equal(image.begin(), image.end(), bytes.begin(), bytes.end()))
      fuzz::law_broken("trace_log::load(image).image() != image");
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
