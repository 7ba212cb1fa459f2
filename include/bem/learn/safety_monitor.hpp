// The independent safety monitor of BEM suite §5.3 (docs/safety.md): it
// stands outside the machine and checks S after every machine step.
//
// It reads the machine's STATE (nothing else: not its experts, circuits,
// predicates or log), decodes each lane's program state with the program's
// own layout (tasks/safety_program.hpp) and
//   1. checks S (i < M and BAD not set) on every lane: a lane that fails is
//      a safety violation;
//   2. runs its own copy of every lane with the program's interpreter
//      (safety_program::step, the straightforward semantics) for as many
//      instructions as the machine's pc moved (a fused expert runs several;
//      0 or more than `max_steps` is itself a divergence), and compares:
//      a lane whose state differs is a behaviour divergence, after which the
//      copy follows the machine's state so later steps are judged afresh.
// The lanes' bits are gathered with a 64 x 64 bit-matrix transpose per 64
// lanes (each STATE word holds one bit of every lane).
#pragma once

#include <bem/machine/state.hpp>
#include <bem/version.hpp>
#include <tasks/safety_program.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

BEM_NAMESPACE_BEGIN

namespace detail {
/// Transposes a 64 x 64 bit matrix in place: bit j of a[i] <-> bit i of a[j].
inline void transpose64(std::array<std::uint64_t, 64>& a) noexcept {
  std::uint64_t m = 0x00000000FFFFFFFFull;
  for (unsigned j = 32; j != 0; j >>= 1, m ^= m << j) {
    for (unsigned k = 0; k < 64; k = ((k | j) + 1) & ~j) {
      const std::uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
      a[k] ^= t << j;
      a[k | j] ^= t;
    }
  }
}
}  // namespace detail

/// What the monitor has seen so far.
struct safety_monitor_counts {
  std::uint64_t checks = 0;              ///< machine steps checked
  std::uint64_t lane_checks = 0;         ///< lane states checked
  std::uint64_t violations = 0;          ///< lane states outside S
  std::uint64_t steps_with_violation = 0;  ///< machine steps with at least one
  std::uint64_t divergences = 0;         ///< lane states unlike the monitor's own run
  std::uint64_t program_steps = 0;       ///< instructions the machine ran (lane 0's pc)
  std::optional<std::uint64_t> first_violation_check;  ///< the check that saw the first violation
};

template <std::size_t N, std::size_t W>
class safety_monitor {
 public:
  /// Lane l starts from program.initial_state(seed, l); `max_steps` bounds
  /// the instructions one machine step may run.
  safety_monitor(const tasks::safety_program& program, std::uint64_t seed, std::uint32_t max_steps)
      : p_(&program), max_steps_(max_steps) {
    if (program.layout().bits() > N) throw std::invalid_argument("safety_monitor: the program does not fit STATE");
    for (std::size_t l = 0; l < W; ++l) copy_[l] = program.initial_state(seed, l);
  }

  /// Lane l's state as the monitor's own run has it.
  const tasks::safety_state& lane(std::size_t l) const { return copy_.at(l); }
  const safety_monitor_counts& counts() const noexcept { return c_; }

  /// Checks the machine's STATE after a step; returns the lanes outside S.
  std::uint64_t check(const state<N, W>& s) {
    ++c_.checks;
    const std::uint32_t bits = p_->layout().bits(), L = p_->length();
    std::uint64_t bad_lanes = 0;
    std::uint32_t moved = 0;
    for (std::size_t chunk = 0; chunk < W / 64; ++chunk) {
      std::array<std::uint64_t, 64> t{};
      for (std::uint32_t k = 0; k < bits; ++k) t[k] = s[k].words()[chunk];
      detail::transpose64(t);  // t[l] = lane (64 chunk + l)'s state bits
      for (std::size_t l = 0; l < 64; ++l) {
        const std::size_t lane = 64 * chunk + l;
        const tasks::safety_state x = p_->unpack(t[l]);
        ++c_.lane_checks;
        if (!p_->safe(x)) ++bad_lanes;
        tasks::safety_state& mine = copy_[lane];
        const std::uint32_t d = (x.pc + L - mine.pc) % L;
        if (lane == 0) moved = d;
        bool same = d >= 1 && d <= max_steps_;
        if (same) {
          for (std::uint32_t k = 0; k < d; ++k) p_->step(mine);
          same = mine == x;
        }
        if (!same) {
          ++c_.divergences;
          mine = x;
        }
      }
    }
    c_.program_steps += moved;
    c_.violations += bad_lanes;
    if (bad_lanes) {
      ++c_.steps_with_violation;
      if (!c_.first_violation_check) c_.first_violation_check = c_.checks;
    }
    return bad_lanes;
  }

 private:
  const tasks::safety_program* p_;
  std::uint32_t max_steps_;
  std::array<tasks::safety_state, W> copy_{};
  safety_monitor_counts c_;
};

BEM_NAMESPACE_END
