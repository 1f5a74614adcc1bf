// Linked into every benchmark program: the report's context names the allocator, so a
// figure in RESULTS.md says which malloc produced it.
#include <benchmark/benchmark.h>

#include "core/runtime/allocator.h"

namespace {
const bool kRegistered = [] {
  benchmark::AddCustomContext("allocator", kun::allocatorName());
  return true;
}();
}  // namespace
