#include "core/runtime/allocator.h"

#include <gtest/gtest.h>

namespace kun {
namespace {

// The build says which allocator it links; the program must really run on it (a link
// order that let glibc's malloc win would pass silently otherwise).
TEST(Allocator, MallocAndNewComeFromTheAllocatorTheBuildLinks) {
#ifdef KUN_EXPECT_MIMALLOC
  EXPECT_EQ(allocatorName().rfind("mimalloc ", 0), 0u) << allocatorName();
#else
  EXPECT_EQ(allocatorName(), "system");
#endif
  EXPECT_TRUE(allocatorServesMalloc()) << allocatorName();
}

}  // namespace
}  // namespace kun
