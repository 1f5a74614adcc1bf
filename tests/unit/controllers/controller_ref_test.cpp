// The in-place controller reference read answers as meta::controllerOf does.
#include <gtest/gtest.h>

#include "fakeapi/controllers/controller_ref.h"

namespace kun::sim {
namespace {

Object withRefs(Object refs) { return Object{{"metadata", {{"name", "p"}, {"ownerReferences", std::move(refs)}}}}; }

TEST(ControllerRef, FindsWhatControllerOfFinds) {
  const Object ref1 = {{"kind", "ReplicaSet"}, {"name", "a"}, {"uid", "u1"}};
  const Object ctl = {{"kind", "StatefulSet"}, {"name", "web"}, {"uid", "u2"}, {"controller", true}};
  const Object ctl2 = {{"kind", "Other"}, {"name", "b"}, {"uid", "u3"}, {"controller", true}};
  const std::vector<Object> cases = {
      Object{{"metadata", {{"name", "p"}}}},
      Object(),
      Object::array(),
      Object{{"metadata", "x"}},
      withRefs(Object::array({ref1})),
      withRefs(Object::array({ref1, ctl, ctl2})),
      withRefs(Object::array({"junk", ctl2})),
      withRefs(Object::array({Object{{"controller", "true"}, {"uid", "s"}}, ctl})),
      withRefs(Object::array({Object{{"controller", true}, {"uid", 7}, {"kind", "StatefulSet"}}})),
      withRefs(Object{{"not", "an array"}}),
  };
  for (const auto& o : cases) {
    const auto want = meta::controllerOf(o);
    const Object* got = controllerRefOf(o);
    ASSERT_EQ(got != nullptr, want.has_value()) << o.dump();
    if (!want) {
      EXPECT_FALSE(controlledBy(o, ""));
      continue;
    }
    EXPECT_EQ(refField(*got, "uid"), want->uid) << o.dump();
    EXPECT_EQ(refField(*got, "kind"), want->kind) << o.dump();
    EXPECT_EQ(refField(*got, "name"), want->name) << o.dump();
    EXPECT_TRUE(controlledBy(o, want->uid));
    EXPECT_FALSE(controlledBy(o, want->uid + "x"));
  }
}

}  // namespace
}  // namespace kun::sim
