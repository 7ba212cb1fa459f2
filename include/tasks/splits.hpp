// Helpers shared by the task families: the usual train / validation / test
// split layout and per-sequence generators.
#pragma once

#include <bem/harness/parameters.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>

#include <cstdint>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace tasks {

/// The generator of sequence `index` of a split: see bem/prng.hpp.
inline xoshiro256ss sequence_rng(std::uint64_t seed, const split_info& split, std::int64_t index) {
  return xoshiro256ss(sequence_seed(seed, split.name, index));
}

/// The spec of a task over the two tokens "0" and "1" with a binary label.
inline task_spec bit_stream_spec(output_kind output) {
  task_spec s;
  s.vocab_size = 2;
  s.output = output;
  s.num_classes = 2;
  s.token_names = {"0", "1"};
  return s;
}

/// Appends one test split per length: "test/T=<L>", condition {"length": L}.
inline void add_length_test_splits(std::vector<split_info>& out, const std::vector<std::int32_t>& lengths) {
  for (auto L : lengths)
    out.push_back({"test/T=" + std::to_string(L), split_role::test, L, {number_field("length", L)}});
}

/// Reads a list of positive lengths; names the parameter when one is not.
inline std::vector<std::int32_t> read_lengths(parameters& p, const char* key, std::vector<std::int64_t> fallback,
                                              std::int64_t max_length = 1 << 20) {
  std::vector<std::int32_t> out;
  const auto v = p.get_int_list(key, std::move(fallback));
  if (v.empty()) throw parameter_error(key, "must list at least one length");
  for (auto x : v) {
    if (x < 1 || x > max_length)
      throw parameter_error(key, "lengths must lie in [1, " + std::to_string(max_length) + "], got " + std::to_string(x));
    out.push_back(static_cast<std::int32_t>(x));
  }
  return out;
}

/// Throws parameter_error(key) when a value is listed twice: each one names
/// a split ("test/T=64"), and split names are unique.
inline void reject_duplicates(const std::vector<std::int32_t>& v, const char* key) {
  for (std::size_t i = 0; i < v.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (v[i] == v[j]) throw parameter_error(key, "lists " + std::to_string(v[i]) + " twice");
}

}  // namespace tasks
BEM_NAMESPACE_END
