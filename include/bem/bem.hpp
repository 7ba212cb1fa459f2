// bem — the umbrella header: the whole header-only library in one include.
//
// Each component also has its own header (listed below by folder,
// docs/architecture.md says what each folder holds and may include); include
// those directly to keep compile times down. Not included here:
// bem/plugin/adapter.hpp and bem/plugin/toml_parameters.hpp (they need the
// compiled toml++ library: plugin authors include them),
// bem/plugin/host.hpp (dlopen), and bem/prover/cadical_backend.hpp (needs
// libcadical-dev).
#pragma once

// Foundation: version and ABI namespace, the PRNG.
#include <bem/version.hpp>
#include <bem/prng.hpp>

// platform/: CPU features, cycle counters, the hardware report.
#include <bem/platform/cpu_features.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/platform/hwinfo.hpp>

// machine/: lanes and BIT-ALU, STATE/SHARED, experts, identifiers, HASH, LOG,
// selection, bem::machine; circuits/, route/, prover/: its parts.
#include <bem/machine/lanes.hpp>
#include <bem/machine/state.hpp>
#include <bem/circuits/circuit.hpp>
#include <bem/circuits/gate.hpp>
#include <bem/circuits/lut.hpp>
#include <bem/circuits/anf.hpp>
#include <bem/circuits/robdd.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/compiled.hpp>
#include <bem/circuits/jit.hpp>
#include <bem/circuits/linear_argmax.hpp>
#include <bem/circuits/convert.hpp>
#include <bem/circuits/random_circuit.hpp>
#include <bem/machine/expert.hpp>
#include <bem/machine/identifier.hpp>
#include <bem/machine/hash.hpp>
#include <bem/machine/trace_log.hpp>
#include <bem/machine/trace_file.hpp>
#include <bem/route/router.hpp>
#include <bem/route/exact_router.hpp>
#include <bem/route/multi_index_router.hpp>
#include <bem/prover/cnf.hpp>
#include <bem/prover/dimacs.hpp>
#include <bem/prover/proof.hpp>
#include <bem/prover/sat_backend.hpp>
#include <bem/prover/cdcl.hpp>
#include <bem/prover/drat.hpp>
#include <bem/prover/incremental.hpp>
#include <bem/prover/random_cnf.hpp>
#include <bem/prover/bitblast.hpp>
#include <bem/prover/hoare.hpp>
#include <bem/prover/cegis.hpp>
#include <bem/machine/selection.hpp>
#include <bem/machine/observation.hpp>
#include <bem/machine/fixed_point.hpp>
#include <bem/machine/identifier_map.hpp>
#include <bem/machine/machine.hpp>
#include <bem/machine/replay.hpp>
#include <bem/machine/predicate.hpp>
#include <bem/machine/verification.hpp>
#include <bem/machine/slow_path.hpp>

// harness/: parameters, the model and benchmark concepts, baselines;
// tasks/ and metrics/: task families and what is measured on them.
#include <bem/harness/parameters.hpp>
#include <bem/harness/sequence_model.hpp>
#include <bem/harness/benchmark.hpp>
#include <bem/harness/baselines.hpp>
#include <tasks/batch.hpp>
#include <tasks/concepts.hpp>
#include <tasks/laws.hpp>
#include <tasks/temporal.hpp>
#include <tasks/parity.hpp>
#include <tasks/dyck.hpp>
#include <tasks/kv_retrieval.hpp>
#include <tasks/contextual_bandit.hpp>
#include <metrics/statistics.hpp>
#include <metrics/metric_value.hpp>
#include <metrics/sequence_metrics.hpp>
#include <metrics/records.hpp>
#include <metrics/svg_plot.hpp>
#include <metrics/bandit_metrics.hpp>

// learn/: models built on bem::machine.
#include <bem/learn/automaton_identification.hpp>
#include <bem/learn/bandit_policy.hpp>
#include <bem/learn/bem_bandit.hpp>
#include <bem/learn/bandit_policies.hpp>
#include <bem/learn/hypotheses.hpp>
#include <bem/learn/learning_bem.hpp>

// nn/: sequence models with hand-written backward passes.
#include <bem/nn/ops.hpp>
#include <bem/nn/e88.hpp>
#include <bem/nn/mamba2.hpp>
#include <bem/nn/baseline_layers.hpp>
#include <bem/nn/network.hpp>
#include <bem/nn/trainer.hpp>
#include <bem/nn/models.hpp>
