// bem — the umbrella header: the whole header-only library in one include.
//
// Each component also has its own header (listed below by folder); include
// those directly to keep compile times down. Not included here:
// bem/plugin.hpp and bem/toml_parameters.hpp (they need the compiled toml++
// library: plugin authors include them), bem/plugin_host.hpp (dlopen), and
// bem/prover/cadical_backend.hpp (needs libcadical-dev).
#pragma once

// Foundation: version and ABI namespace, PRNG, parameters, concepts.
#include <bem/version.hpp>
#include <bem/prng.hpp>
#include <bem/parameters.hpp>
#include <bem/sequence_model.hpp>
#include <bem/benchmark.hpp>
#include <bem/baselines.hpp>
#include <bem/cycles.hpp>
#include <bem/hwinfo.hpp>

// Tasks and metrics.
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

// The machine: lanes, STATE/SHARED, circuits, experts, identifiers, HASH/LOG,
// ROUTE, PROVER, selection, bem::machine.
#include <bem/lanes.hpp>
#include <bem/state.hpp>
#include <bem/circuits/circuit.hpp>
#include <bem/circuits/gate.hpp>
#include <bem/circuits/lut.hpp>
#include <bem/circuits/anf.hpp>
#include <bem/circuits/robdd.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/compiled.hpp>
#include <bem/circuits/jit.hpp>
#include <bem/circuits/convert.hpp>
#include <bem/circuits/random_circuit.hpp>
#include <bem/expert.hpp>
#include <bem/identifier.hpp>
#include <bem/hash.hpp>
#include <bem/trace_log.hpp>
#include <bem/route/router.hpp>
#include <bem/route/exact_router.hpp>
#include <bem/route/multi_index_router.hpp>
#include <bem/prover/cnf.hpp>
#include <bem/prover/dimacs.hpp>
#include <bem/prover/proof.hpp>
#include <bem/prover/cdcl.hpp>
#include <bem/prover/drat.hpp>
#include <bem/prover/sat_backend.hpp>
#include <bem/prover/incremental.hpp>
#include <bem/prover/random_cnf.hpp>
#include <bem/prover/bitblast.hpp>
#include <bem/prover/hoare.hpp>
#include <bem/prover/cegis.hpp>
#include <bem/selection.hpp>
#include <bem/machine.hpp>
#include <bem/bandit_policies.hpp>

// Sequence models with hand-written backward passes.
#include <bem/nn/ops.hpp>
#include <bem/nn/e88.hpp>
#include <bem/nn/mamba2.hpp>
#include <bem/nn/baseline_layers.hpp>
#include <bem/nn/network.hpp>
#include <bem/nn/trainer.hpp>
#include <bem/nn/models.hpp>
