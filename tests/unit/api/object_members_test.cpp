#include "core/api/object_members.h"

#include <gtest/gtest.h>

namespace kun {
namespace {

TEST(ObjectMembers, CopyWithoutIsTheObjectWithThatMemberErased) {
  const Object o = Object::parse(R"({"a": 1, "metadata": {"name": "x"}, "spec": {"k": [1, 2]}, "status": {"p": "q"}, "z": null})");
  for (const char* key : {"a", "metadata", "spec", "status", "z", "absent", ""}) {
    Object expected = o;
    expected.erase(key);
    EXPECT_EQ(copyWithout(o, key), expected) << key;
  }
  EXPECT_EQ(copyWithout(Object::object(), "status"), Object::object());
}

TEST(ObjectMembers, MemberSlotIsOperatorBrackets) {
  const Object o = Object::parse(R"({"a": 1, "metadata": {"name": "x"}, "status": null})");
  for (const char* key : {"a", "metadata", "status", "absent", ""}) {
    Object viaSlot = o, viaBrackets = o;
    EXPECT_EQ(memberSlot(viaSlot, key), viaBrackets[key]) << key;
    memberSlot(viaSlot, key) = "set";
    viaBrackets[key] = "set";
    EXPECT_EQ(viaSlot, viaBrackets) << key;
  }
  Object null;
  memberSlot(null, "k") = 1;
  EXPECT_EQ(null, (Object{{"k", 1}}));
}

}  // namespace
}  // namespace kun
