// The identity tests' view of the heap: operator new and delete are replaced
// once for the whole test executable (allocation_hooks.cpp), so that tests
// can make an allocation fail on demand, see the largest allocation, and
// count the bytes the heap holds (malloc_usable_size of every live block).
#pragma once

#include <cstddef>

namespace identity_test {
/// The n-th allocation after this is set to n throws std::bad_alloc (the
/// 0-th: the next one); -1 disarms.
extern long allocations_until_failure;
/// While true, largest_allocation keeps the largest size asked for.
extern bool tracking_allocations;
extern std::size_t largest_allocation;
/// Bytes of every block allocated through operator new and not yet freed,
/// and their largest value since a test last set peak_heap_bytes.
extern std::size_t live_heap_bytes;
extern std::size_t peak_heap_bytes;
}  // namespace identity_test
