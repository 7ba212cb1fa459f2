// Third translation unit of the ODR test, compiled with -DBEM_CHECKED=1: its
// library entities live in the inline namespace v<version>_checked, so they
// differ from the unchecked ones by name and both sets coexist in one program
// without violating the one-definition rule.
#include "odr_probe.inc"

#if !BEM_CHECKED
#error "odr_checked.cpp must be compiled with -DBEM_CHECKED=1"
#endif

std::string odr_probe_checked() { return probe(); }
const char* odr_tag_checked() { return bem::abi_tag; }
