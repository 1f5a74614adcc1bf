// The in-place controller reference read (and controllerOf, built on it) answers as the
// rule reads on the parsed references: the first one whose "controller" is true.
#include <gtest/gtest.h>

#include "core/api/object.h"

namespace kun::meta {
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
    std::optional<OwnerReference> want;
    for (const auto& r : ownerReferences(o))
      if (r.controller && !want) want = r;
    const auto parsed = controllerOf(o);
    ASSERT_EQ(parsed.has_value(), want.has_value()) << o.dump();
    if (want) {
      EXPECT_EQ(parsed->uid, want->uid) << o.dump();
    }
    const Object* got = controllerRef(o);
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
}  // namespace kun::meta
