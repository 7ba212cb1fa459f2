// The same kind of program written against the 0.0 header paths, which 0.1
// keeps as deprecated forwarding headers (CHANGELOG.md): it must still build
// and run, and each old include must warn with its new path (check.sh).
#include <bem/machine.hpp>
#include <bem/parameters.hpp>
#include <bem/sequence_model.hpp>
#include <tasks/parity.hpp>

#include <cstdio>

int main() {
  bem::parameters params;
  params.set("length", std::int64_t{16});
  bem::tasks::parity_task task(params);
  static_assert(bem::sequence_model<bem::tasks::parity_task::reference_model>);
  bem::machine<8, 64, 64> m{bem::machine_config{}};
  std::printf("old paths: parity v%s, a machine with %zu experts\n", bem::tasks::parity_task::version,
              m.expert_count());
  return 0;
}
