#include "core/api/object_ptr.h"

#include <gtest/gtest.h>

namespace kun {
namespace {

Object pod() {
  return Object{{"metadata", {{"name", "web-0"}, {"labels", {{"app", "redis"}, {"a-long-label-key-of-many-bytes", "v"}}}}},
                {"spec", {{"containers", Object::array({Object{{"name", "redis"}, {"ports", Object::array({6379})}}})}}}};
}

TEST(ObjectPtr, ASharedObjectIsTheObjectItWasMadeFrom) {
  const Object o = pod();
  const ObjectPtr p = shareObject(o);
  EXPECT_EQ(*p, o);
  const ObjectPtr q = p;  // shared, not copied
  EXPECT_EQ(q.get(), p.get());
}

TEST(ObjectPtr, DismantlingEmptiesEveryContainerFromTheLeavesUp) {
  Object o = pod();
  dismantle(o);
  EXPECT_TRUE(o.is_object());
  EXPECT_TRUE(o.empty());
  Object scalar = "text";
  dismantle(scalar);
  EXPECT_EQ(scalar, "text");  // nothing to take apart
}

// Nesting deeper than the bounded recursion is left to nlohmann's iterative destructor:
// neither path may overflow the call stack.
TEST(ObjectPtr, AnObjectNestedFarDeeperThanTheRecursionBoundIsFreed) {
  Object deep = Object::array();
  for (int i = 0; i < 200000; ++i) {
    Object outer = Object::array();
    outer.push_back(std::move(deep));
    deep = std::move(outer);
  }
  ObjectPtr p = shareObject(std::move(deep));
  EXPECT_TRUE(p->is_array());
  p.reset();
  Object again = Object::object();
  for (int i = 0; i < 200000; ++i) {
    Object outer = Object::object();
    outer["x"] = std::move(again);
    again = std::move(outer);
  }
  dismantle(again);
  EXPECT_TRUE(again.empty());
}

}  // namespace
}  // namespace kun
