// Replay of the learning state from a machine's trace alone.
//
// Everything that changes the bandit statistics, the log-weights (Theta_L)
// or Theta is a trace entry (bem/machine/machine.hpp): the configuration
// entry gives the table's shape and the mid path's fixed-point parameters,
// each STATS_UPDATE entry one record, each mid-path entry one update, each
// Theta write the parameter's new value. Fixed point makes the replay exact:
// `learning_replayer` fed the entries of a run ends with a selection table
// and Theta equal to the live machine's, bit for bit (tests/machine checks
// this after 10^5 steps). It also checks what it can: a mid-path entry's S
// must equal the replayed S, so a log that was edited or cut shows where.
#pragma once

#include <bem/machine/fixed_point.hpp>
#include <bem/machine/machine.hpp>
#include <bem/machine/selection.hpp>
#include <bem/machine/trace_log.hpp>
#include <bem/version.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

/// What replay rebuilds.
struct learning_state {
  selection_table selection;
  std::vector<q16_16> theta;
  std::uint64_t stats_updates = 0;
  std::uint64_t mid_path_updates = 0;
  std::uint64_t theta_writes = 0;
};

/// Thrown for a log that cannot be replayed; says which entry and why.
class replay_error : public std::runtime_error {
 public:
  replay_error(std::size_t entry, const std::string& what)
      : std::runtime_error("trace entry " + std::to_string(entry) + ": " + what), entry_(entry) {}
  std::size_t entry() const noexcept { return entry_; }

 private:
  std::size_t entry_;
};

/// Feeds entries one at a time (the log may stream from disk).
class learning_replayer {
 public:
  /// Applies entry number `index` (0 for the first entry of the log).
  void apply(std::size_t index, const trace_entry& e) {
    const std::span<const std::uint8_t> p(e.payload);
    const auto need = [&](std::size_t bytes, const char* what) {
      if (p.size() < bytes)
        throw replay_error(index, std::string(what) + " payload has " + std::to_string(p.size()) +
                                      " bytes, needs " + std::to_string(bytes));
    };
    if (e.kind == configuration_kind) {
      need(48, "configuration");
      if (detail::get_le(p, 0, 4) != configuration_magic)
        throw replay_error(index, "configuration entry without the machine's magic");
      const std::uint64_t tasks = detail::get_le(p, 4, 8), experts = detail::get_le(p, 12, 8);
      const std::uint64_t params = detail::get_le(p, 20, 8);
      if (tasks == 0 || experts == 0 || tasks > (1u << 20) || experts > (1u << 24) || params > (1u << 20))
        throw replay_error(index, "configuration with an impossible shape");
      mid_.c_eta_raw = static_cast<std::uint32_t>(detail::get_le(p, 28, 4));
      mid_.eps_raw = detail::get_le(p, 32, 8);
      mid_.loss_max_raw = static_cast<std::uint32_t>(detail::get_le(p, 40, 4));
      mid_.step_max_raw = static_cast<std::uint32_t>(detail::get_le(p, 44, 4));
      state_.emplace(learning_state{selection_table(tasks, experts), std::vector<q16_16>(params), 0, 0, 0});
      return;
    }
    if (e.kind != stats_update_kind && e.kind != mid_path_kind && e.kind != theta_write_kind) return;
    if (!state_) throw replay_error(index, "a learning entry before the configuration entry");
    learning_state& s = *state_;
    if (e.kind == stats_update_kind) {
      need(12, "STATS_UPDATE");
      const auto task = detail::get_le(p, 0, 4), slot = detail::get_le(p, 4, 4), r = detail::get_le(p, 8, 4);
      try {
        s.selection.record_raw(task, slot, static_cast<std::uint32_t>(r));
      } catch (const std::exception& x) {
        throw replay_error(index, std::string("STATS_UPDATE: ") + x.what());
      }
      ++s.stats_updates;
    } else if (e.kind == mid_path_kind) {
      need(12, "mid-path");
      s.selection.update_log_weights(mid_);
      if (s.selection.loss_accumulator_raw() != detail::get_le(p, 4, 8))
        throw replay_error(index, "mid-path update: the logged S is " + std::to_string(detail::get_le(p, 4, 8)) +
                                      ", the replayed S " + std::to_string(s.selection.loss_accumulator_raw()));
      ++s.mid_path_updates;
    } else {
      need(8, "Theta write");
      const auto i = detail::get_le(p, 0, 4);
      if (i >= s.theta.size()) throw replay_error(index, "Theta write of parameter " + std::to_string(i));
      s.theta[i] = q16_16::from_raw(static_cast<std::int32_t>(static_cast<std::uint32_t>(detail::get_le(p, 4, 4))));
      ++s.theta_writes;
    }
  }

  /// The state so far; throws when no configuration entry was seen.
  const learning_state& state() const {
    if (!state_) throw std::logic_error("learning_replayer: no configuration entry seen");
    return *state_;
  }

 private:
  std::optional<learning_state> state_;
  log_weight_fixed mid_;
};

/// Replays a whole in-memory log.
inline learning_state replay_learning(const trace_log& log) {
  learning_replayer r;
  for (std::size_t k = 0; k < log.size(); ++k) r.apply(k, log.entry(k));
  return r.state();
}

BEM_NAMESPACE_END
