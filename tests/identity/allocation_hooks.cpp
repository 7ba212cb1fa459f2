#include "allocation_hooks.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>

#include <malloc.h>

namespace identity_test {
long allocations_until_failure = -1;
bool tracking_allocations = false;
std::size_t largest_allocation = 0;
std::size_t live_heap_bytes = 0;
std::size_t peak_heap_bytes = 0;
}  // namespace identity_test

void* operator new(std::size_t n) {
  using namespace identity_test;
  if (tracking_allocations) largest_allocation = std::max(largest_allocation, n);
  if (allocations_until_failure == 0) {
    allocations_until_failure = -1;
    throw std::bad_alloc();
  }
  if (allocations_until_failure > 0) --allocations_until_failure;
  void* p = std::malloc(n != 0 ? n : 1);
  if (p == nullptr) throw std::bad_alloc();
  live_heap_bytes += malloc_usable_size(p);
  peak_heap_bytes = std::max(peak_heap_bytes, live_heap_bytes);
  return p;
}
// GCC pairs new-expressions it inlines with these and cannot see that the
// replaced operator new above is malloc.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept {
  if (p != nullptr) identity_test::live_heap_bytes -= malloc_usable_size(p);
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
#pragma GCC diagnostic pop
