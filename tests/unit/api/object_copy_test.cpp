#include "core/api/object_copy.h"

#include <gtest/gtest.h>

namespace kun {
namespace {

TEST(ObjectCopy, CopyWithoutIsTheObjectWithThatMemberErased) {
  const Object o = Object::parse(R"({"a": 1, "metadata": {"name": "x"}, "spec": {"k": [1, 2]}, "status": {"p": "q"}, "z": null})");
  for (const char* key : {"a", "metadata", "spec", "status", "z", "absent", ""}) {
    Object expected = o;
    expected.erase(key);
    EXPECT_EQ(copyWithout(o, key), expected) << key;
  }
  EXPECT_EQ(copyWithout(Object::object(), "status"), Object::object());
}

}  // namespace
}  // namespace kun
