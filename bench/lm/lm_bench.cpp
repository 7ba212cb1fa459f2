// lm_bench: the BEM language model against general-purpose compressors on
// the English corpus (tasks/corpus.hpp: linux-doc-6.1, pinned), in one run
// on the same bytes.
//
// Every program sees the text over the alphabet C: the training split (or
// its last --train-chars characters) and the test split. A compressor's
// bits per test character is its conditional code length,
//   (size(compress(train || test)) - size(compress(train))) * 8 / |test|,
// what the test costs once the training text has been read: the measure a
// model that learns while it codes (the BEM language model's adaptive mode)
// is compared with. The BEM LM trains on train, then scores test learning as
// it goes; the Kneser-Ney 6-gram (bem/learn/ngram.hpp) is trained on train
// and scored frozen. Seconds are wall time of each compressor's two runs;
// the BEM LM's cost is its cycles per test character.
//
// Goals (docs/lm-results.md):
//   RESULT name=lm       ratio = best bpc of xz, zstd, bzip2, brotli, PPMd
//                        / the BEM LM's adaptive bpc, goal 1.0
//   RESULT name=lm_zpaq  ratio = zpaq -method 5's bpc / the BEM LM's, goal 1.0
// A compressor not installed is reported as not measured; with none of the
// five, or no zpaq, that RESULT line says skipped.
//
// Usage: lm_bench [--train-chars N] [--corpus english|rust]
#include <bem/learn/language_model.hpp>
#include <bem/learn/ngram.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/platform/other_cpu.hpp>
#include <tasks/corpus.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;

struct peer {
  const char* name;
  const char* program;  // what must be on PATH
  std::string command;  // %IN and %OUT replaced
  bool classic;         // counts for RESULT name=lm
};

std::string replaced(std::string s, const std::string& in, const std::string& out) {
  for (auto [k, v] : {std::pair<std::string, std::string>{"%IN", in}, {"%OUT", out}})
    for (std::size_t i; (i = s.find(k)) != std::string::npos;) s.replace(i, k.size(), v);
  return s;
}

bool on_path(const char* program) {
  return std::system(("command -v " + std::string(program) + " >/dev/null 2>&1").c_str()) == 0;
}

/// The compressed size of `in`, or nothing when the command fails.
std::optional<std::uintmax_t> compressed_size(const peer& p, const fs::path& in, const fs::path& dir, double& seconds) {
  const fs::path out = dir / (std::string(p.program) + ".out");
  fs::remove(out);
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = std::system(("{ " + replaced(p.command, in.string(), out.string()) + "; } >/dev/null 2>&1").c_str());
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (rc != 0 || !fs::exists(out)) return std::nullopt;
  return fs::file_size(out);
}

}  // namespace

int main(int argc, char** argv) {
  // Other processes' share of the machine while this bench runs (bem/platform/other_cpu.hpp):
  // printed as every bench prints it, though bits per character do not depend on it.
  const bem::other_cpu_meter other_cpu;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each line as it is measured (the whole run takes minutes)
  std::size_t train_chars = 0;
  std::string corpus_name = "english";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--train-chars" && i + 1 < argc) train_chars = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--corpus" && i + 1 < argc) corpus_name = argv[++i];
    else {
      std::fprintf(stderr, "usage: lm_bench [--train-chars N] [--corpus english|rust]\n");
      return 2;
    }
  }
  bem::tasks::corpus c;
  try {
    c = bem::tasks::load_corpus(bem::tasks::corpus_named(corpus_name));
  } catch (const std::exception& e) {
    std::printf("lm_bench: %s\nRESULT name=lm skipped=corpus not installed or not as pinned\n"
                "RESULT name=lm_zpaq skipped=corpus not installed or not as pinned\n", e.what());
    return 0;
  }
  const std::string& full_train = c.split(bem::tasks::corpus_split::train);
  const std::string train = train_chars && train_chars < full_train.size()
                                ? full_train.substr(full_train.size() - train_chars)
                                : full_train;
  const std::string& test = c.split(bem::tasks::corpus_split::test);
  std::printf("corpus %s (%s %s): train %zu characters (of %zu), test %zu characters\n", c.name.c_str(),
              c.package.c_str(), c.version.c_str(), train.size(), full_train.size(), test.size());

  // The BEM language model: train, then score test learning as it goes.
  std::vector<std::uint32_t> stream;
  for (char ch : train + test) stream.push_back(static_cast<std::uint32_t>(bem::tasks::symbol_of(ch)));
  bem::learn::language_model lm(bem::learn::language_model_config{});
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < train.size(); ++i) lm.code_length(stream[i], true);
  const double train_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  bem::cycle_counter counter;
  double bits = 0;
  counter.start();
  for (std::size_t i = train.size(); i < stream.size(); ++i) bits += lm.code_length(stream[i], true);
  const auto sample = counter.stop();
  const double bem_bpc = bits / static_cast<double>(test.size());
  const double cycles_per_char = sample.cycles / static_cast<double>(test.size());

  const std::span<const std::uint32_t> all(stream);
  const bem::learn::kneser_ney_model kn(all.first(train.size()), bem::tasks::alphabet_size, 6);
  double kn_bits = 0;
  for (std::size_t i = train.size(); i < all.size(); ++i) kn_bits -= std::log2(kn.probability(all.first(i), all[i]));
  const double kn_bpc = kn_bits / static_cast<double>(test.size());

  // The compressors, on files of the same characters.
  const fs::path dir = fs::temp_directory_path() / ("lm_bench." + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "train.txt", std::ios::binary) << train;
  std::ofstream(dir / "both.txt", std::ios::binary) << train << test;
  const std::vector<peer> peers = {
      {"xz -9e", "xz", "xz -9e -c %IN > %OUT", true},
      {"zstd --ultra -22 --long", "zstd", "zstd -q --ultra -22 --long=27 -c %IN > %OUT", true},
      {"bzip2 -9", "bzip2", "bzip2 -9 -c %IN > %OUT", true},
      {"brotli -q 11", "brotli", "brotli -q 11 -c %IN > %OUT", true},
      {"7-Zip PPMd (-mx=9)", "7zz", "7zz a -bd -m0=PPMd -mx=9 %OUT.7z %IN && mv %OUT.7z %OUT", true},
      {"zpaq -method 5", "zpaq", "zpaq a %OUT.zpaq %IN -method 5 && mv %OUT.zpaq %OUT", false},
  };
  std::printf("\n%-26s %12s %10s\n", "model", "bits/char", "seconds");
  std::printf("%-26s %12.4f %10.1f   (training %.1f s; %.0f %s per test char)\n", "BEM LM, adaptive", bem_bpc,
              sample.seconds, train_seconds, cycles_per_char, counter.unit());
  std::printf("%-26s %12.4f\n", "Kneser-Ney 6-gram, frozen", kn_bpc);
  std::optional<double> best_classic, zpaq;
  for (const auto& p : peers) {
    if (!on_path(p.program)) {
      std::printf("%-26s %12s   (%s not installed)\n", p.name, "not measured", p.program);
      continue;
    }
    double seconds = 0;
    const auto a = compressed_size(p, dir / "train.txt", dir, seconds);
    const auto b = compressed_size(p, dir / "both.txt", dir, seconds);
    if (!a || !b) {
      std::printf("%-26s %12s   (the command failed)\n", p.name, "not measured");
      continue;
    }
    const double bpc = (static_cast<double>(*b) - static_cast<double>(*a)) * 8 / static_cast<double>(test.size());
    std::printf("%-26s %12.4f %10.1f   (%ju and %ju bytes)\n", p.name, bpc, seconds, *a, *b);
    if (p.classic) best_classic = best_classic ? std::min(*best_classic, bpc) : bpc;
    else zpaq = bpc;
  }
  fs::remove_all(dir);
  std::printf("\nBEM LM against Kneser-Ney: %.4f vs %.4f bits/char (%s)\n", bem_bpc, kn_bpc,
              bem_bpc < kn_bpc ? "BEM better" : "KN better");
  const double other = other_cpu.share();
  if (best_classic)
    std::printf("RESULT name=lm ratio=%.4f goal=1.0 %s\n", *best_classic / bem_bpc,
                bem::other_cpu_field(other).c_str());
  else std::printf("RESULT name=lm skipped=none of xz, zstd, bzip2, brotli, 7zz is installed\n");
  if (zpaq)
    std::printf("RESULT name=lm_zpaq ratio=%.4f goal=1.0 %s\n", *zpaq / bem_bpc, bem::other_cpu_field(other).c_str());
  else std::printf("RESULT name=lm_zpaq skipped=zpaq is not installed (apt-get install zpaq)\n");
  return 0;
}
