// Second translation unit of the ODR test; see odr_probe.inc.
#include "odr_probe.inc"

std::string odr_probe_b() { return probe(); }
const char* odr_tag_b() { return bem::abi_tag; }
