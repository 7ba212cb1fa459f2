// The circuits of bench/run expert: random layered gate lists with 32
// inputs, 8 outputs and G gates, all live, known at compile time (the same
// seeds as the expert_eval microbenchmark).
#pragma once

#include <bem/circuits/random_circuit.hpp>

namespace expert_bench {
constexpr auto circuit64 = bem::static_random_circuit<32, 64, 8>(0x23030000u + 64);
constexpr auto circuit128 = bem::static_random_circuit<32, 128, 8>(0x23030000u + 128);
constexpr auto circuit256 = bem::static_random_circuit<32, 256, 8>(0x23030000u + 256);
constexpr auto circuit512 = bem::static_random_circuit<32, 512, 8>(0x23030000u + 512);
}  // namespace expert_bench
