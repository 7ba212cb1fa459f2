// The observation function O(s, M) = (task_id, context_hash, local_bits,
// feature_bits): what a fast-path step routes on, derived by the machine from
// STATE and SHARED, so a caller streams tokens by writing input bits and the
// machine observes for itself.
//
// ## observation_policy (concept)
// Minimal definition — a type `O` with
//   `using observation_policy_concept = bem::observation_policy_t;`
//        the opt-in (the project's one spelling: docs/architecture.md);
//   `observation o.observe(const state<N, W>& s, const shared_memory<K, P>& m) const`
//        the step's observation (one for all lanes);
// and, for the per-lane scheme only,
//   `observation o.observe_lane(s, m, std::size_t lane) const`.
// Laws:
//   1. Purity: the observation depends only on (s, m) (and the lane), never
//      on history; equal arguments give equal observations.
//   2. Bounded cost: a constant number of word operations, whatever the step.
//   3. task_id is below the machine's `tasks`; the machine checks it.
// Model in the library: bem::field_observation (below).
//
// ## field_observation
// Every field is read from fixed places given at construction:
//   task_id       the SHARED bits [task_offset, task_offset + task_bits),
//                 bit j = bit j of the id (task_bits = 0: task 0);
//   context_hash  h = 0; for each STATE word k in [context_offset,
//                 context_offset + context_words) and each of its 64-bit
//                 words v: h = mix64(h ^ v); then for each 64-bit chunk c of
//                 the SHARED bits [shared_context_offset, + shared_context_bits)
//                 (the last chunk zero-padded): h = mix64(h ^ c)
//                 (mix64: bem/prng.hpp), so all lanes' context bits and the
//                 SHARED context enter one hash;
//   local_bits    lane 0's STATE bits [local_offset, local_offset + local_bits)
//                 (at most 64), bit j = STATE bit local_offset + j;
//   feature_bits  the SHARED bits [feature_offset, feature_offset + feature_bits)
//                 (at most 64).
// observe_lane reads the same fields, with the context hash taken over the
// lane's own context bits (one bit per STATE word, then the SHARED chunks)
// and local_bits from that lane.
//
// Example (compiled by tests/machine/observation.cpp):
//
//     // Tokens enter STATE bits 0..3 of each lane; SHARED bits 0..1 hold the
//     // task; routing hashes the current token of every lane.
//     bem::field_observation obs;
//     obs.task_bits = 2;                                  // SHARED 0..1
//     obs.context_offset = 0, obs.context_words = 4;      // STATE 0..3
//     obs.local_offset = 0, obs.local_bits = 4;           // lane 0's token
//     static_assert(bem::observation_policy<bem::field_observation, 8, 64, 64, 16>);
//     bem::state<8, 64> s;
//     bem::shared_memory<64, 16> m;
//     s.set_bit(2, 0, true);                              // lane 0 reads token 0b0100
//     m.set_bit(0, true);                                 // task 1
//     const bem::observation o = obs.observe(s, m);
//     // o.task_id == 1, o.local_bits == 0b0100
#pragma once

#include <bem/machine/state.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

BEM_NAMESPACE_BEGIN

/// What the machine observes at a step.
struct observation {
  std::uint32_t task_id = 0;
  std::uint64_t context_hash = 0;
  std::uint64_t local_bits = 0;
  std::uint64_t feature_bits = 0;
  friend bool operator==(const observation&, const observation&) = default;
};

/// The opt-in tag of observation_policy.
struct observation_policy_t {};

namespace detail {
template <class O>
concept observation_opted_in = requires { typename O::observation_policy_concept; } &&
                               std::derived_from<typename O::observation_policy_concept, observation_policy_t>;
template <class O, std::size_t N, std::size_t K, std::size_t W, std::size_t P>
concept has_observe = requires(const O& o, const state<N, W>& s, const shared_memory<K, P>& m) {
  { o.observe(s, m) } -> std::same_as<observation>;
};
template <class O, std::size_t N, std::size_t K, std::size_t W, std::size_t P>
concept has_observe_lane = requires(const O& o, const state<N, W>& s, const shared_memory<K, P>& m, std::size_t l) {
  { o.observe_lane(s, m, l) } -> std::same_as<observation>;
};
}  // namespace detail

template <class O, std::size_t N, std::size_t K, std::size_t W, std::size_t P>
concept observation_policy = detail::observation_opted_in<O> && detail::has_observe<O, N, K, W, P>;

/// Asserts each requirement with a readable message; returns true.
template <class O, std::size_t N, std::size_t K, std::size_t W, std::size_t P>
consteval bool assert_observation_policy() {
  static_assert(detail::observation_opted_in<O>,
                "bem::observation_policy: opt in with `using observation_policy_concept = bem::observation_policy_t;`");
  static_assert(detail::has_observe<O, N, K, W, P>,
                "bem::observation_policy: the policy needs `bem::observation observe(const bem::state<N, W>&, "
                "const bem::shared_memory<K, P>&) const`");
  return true;
}

/// The default observation: fields read from fixed places (file comment).
struct field_observation {
  using observation_policy_concept = observation_policy_t;

  std::uint32_t task_offset = 0, task_bits = 0;                    ///< SHARED
  std::uint32_t context_offset = 0, context_words = 0;             ///< STATE words
  std::uint32_t shared_context_offset = 0, shared_context_bits = 0;  ///< SHARED
  std::uint32_t local_offset = 0, local_bits = 0;                  ///< STATE, lane 0 (at most 64)
  std::uint32_t feature_offset = 0, feature_bits = 0;              ///< SHARED (at most 64)

  /// Throws std::out_of_range naming the field unless every place lies
  /// within N STATE and K SHARED bits and the widths fit their fields.
  void check_fits(std::size_t n, std::size_t k) const {
    const auto need = [](bool ok, const char* what) {
      if (!ok) throw std::out_of_range(std::string("field_observation: ") + what);
    };
    need(task_bits <= 32 && task_offset + task_bits <= k, "task bits must be at most 32 and lie in SHARED");
    need(context_offset + context_words <= n, "context words must lie in STATE");
    need(shared_context_offset + shared_context_bits <= k, "SHARED context bits must lie in SHARED");
    need(local_bits <= 64 && local_offset + local_bits <= n, "local bits must be at most 64 and lie in STATE");
    need(feature_bits <= 64 && feature_offset + feature_bits <= k,
         "feature bits must be at most 64 and lie in SHARED");
  }

  template <std::size_t N, std::size_t W, std::size_t K, std::size_t P>
  observation observe(const state<N, W>& s, const shared_memory<K, P>& m) const {
    observation o = shared_fields(m);
    std::uint64_t h = 0;
    for (std::uint32_t k = context_offset; k < context_offset + context_words; ++k)
      for (const std::uint64_t v : s[k].words()) h = mix64(h ^ v);
    o.context_hash = hash_shared_context(h, m);
    for (std::uint32_t j = 0; j < local_bits; ++j)
      o.local_bits |= static_cast<std::uint64_t>(s.bit(local_offset + j, 0)) << j;
    return o;
  }

  template <std::size_t N, std::size_t W, std::size_t K, std::size_t P>
  observation observe_lane(const state<N, W>& s, const shared_memory<K, P>& m, std::size_t lane) const {
    observation o = shared_fields(m);
    std::uint64_t h = 0, chunk = 0;
    std::uint32_t filled = 0;
    for (std::uint32_t k = context_offset; k < context_offset + context_words; ++k) {
      chunk |= static_cast<std::uint64_t>(s.bit(k, lane)) << filled;
      if (++filled == 64) {
        h = mix64(h ^ chunk);
        chunk = 0;
        filled = 0;
      }
    }
    if (filled) h = mix64(h ^ chunk);
    o.context_hash = hash_shared_context(h, m);
    for (std::uint32_t j = 0; j < local_bits; ++j)
      o.local_bits |= static_cast<std::uint64_t>(s.bit(local_offset + j, lane)) << j;
    return o;
  }

 private:
  template <std::size_t K, std::size_t P>
  static std::uint64_t bits_of(const shared_memory<K, P>& m, std::uint32_t offset, std::uint32_t count) {
    std::uint64_t v = 0;
    for (std::uint32_t j = 0; j < count; ++j) v |= static_cast<std::uint64_t>(m.bit(offset + j)) << j;
    return v;
  }
  template <std::size_t K, std::size_t P>
  observation shared_fields(const shared_memory<K, P>& m) const {
    observation o;
    o.task_id = static_cast<std::uint32_t>(bits_of(m, task_offset, task_bits));
    o.feature_bits = bits_of(m, feature_offset, feature_bits);
    return o;
  }
  template <std::size_t K, std::size_t P>
  std::uint64_t hash_shared_context(std::uint64_t h, const shared_memory<K, P>& m) const {
    for (std::uint32_t j = 0; j < shared_context_bits; j += 64)
      h = mix64(h ^ bits_of(m, shared_context_offset + j, std::min<std::uint32_t>(64, shared_context_bits - j)));
    return h;
  }
};

BEM_NAMESPACE_END
