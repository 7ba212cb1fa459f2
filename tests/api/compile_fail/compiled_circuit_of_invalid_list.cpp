// expect: bem::compiled_circuit: a gate has an unknown operation or reads a node that is not earlier
// A static gate list whose second gate reads itself (node 3 of 2 inputs):
// the run-time gate_list throws for it, the compiled form refuses to compile.
#include <bem/circuits/compiled.hpp>

static constexpr bem::static_gate_list<2, 2, 1> bad_list{
    {{{bem::gate_op::and_, 0, 0, 1, 0}, {bem::gate_op::xor_, 0, 2, 3, 0}}},
    {{3}},
};

int main() {
  const bem::compiled_circuit<bad_list> c;
  return static_cast<int>(c.gate_count());
}
