// ODR test: two translation units that include every public header (this
// one and odr_b.cpp), plus one built with BEM_CHECKED=1, linked into one
// program. Linking proves the headers define nothing non-inline; running
// proves the merged program behaves as each unit alone would.
#include "odr_probe.inc"

#include <cstddef>
#include <cstdio>
#include <cstring>

#if BEM_TEST_HAVE_C
extern "C" {
std::size_t bem_test_c_sizeof_plugin(void);
std::size_t bem_test_c_sizeof_task_type(void);
std::size_t bem_test_c_sizeof_model_type(void);
std::size_t bem_test_c_sizeof_batch(void);
unsigned bem_test_c_abi_version(void);
}
#endif

std::string odr_probe_a() { return probe(); }

int main() {
  int failures = 0;
  auto expect = [&](bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAIL", what);
    failures += ok ? 0 : 1;
  };
  const std::string a = odr_probe_a();
  expect(!a.empty(), "the probe ran");
  expect(a == odr_probe_b(), "two units including every header compute the same");
  expect(a == odr_probe_checked(), "a BEM_CHECKED=1 unit in the same program computes the same");
  expect(std::strcmp(odr_tag_b(), bem::abi_tag) == 0, "the two unchecked units share one ABI tag");
  expect(std::string(odr_tag_checked()) == std::string(bem::abi_tag) + "_checked",
         "the checked unit has its own ABI tag (<tag>_checked)");
#if BEM_TEST_HAVE_C
  expect(bem_test_c_abi_version() == BEM_PLUGIN_ABI_VERSION, "C and C++ agree on the ABI version");
  expect(bem_test_c_sizeof_plugin() == sizeof(bem_plugin_v1), "C and C++ agree on sizeof(bem_plugin_v1)");
  expect(bem_test_c_sizeof_task_type() == sizeof(bem_task_type_v1), "C and C++ agree on sizeof(bem_task_type_v1)");
  expect(bem_test_c_sizeof_model_type() == sizeof(bem_model_type_v1), "C and C++ agree on sizeof(bem_model_type_v1)");
  expect(bem_test_c_sizeof_batch() == sizeof(bem_batch_v1), "C and C++ agree on sizeof(bem_batch_v1)");
#else
  std::printf("skip: no C compiler configured, plugin_abi.h was compiled as C++ only\n");
#endif
  std::printf("%s\n", a.c_str());
  return failures == 0 ? 0 : 1;
}
