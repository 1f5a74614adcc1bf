// An UpdateStatus body: status and the object's identity and version, nothing else.
#include <gtest/gtest.h>

#include "core/kube/status_update_body.h"

namespace kun {
namespace {

TEST(StatusUpdateBody, IdentityVersionAndStatusOnly) {
  const Object stored = Object::parse(R"({
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "p", "namespace": "ns", "uid": "u", "resourceVersion": "7", "labels": {"a": "b"}},
    "spec": {"nodeName": "n"}, "status": {"phase": "Pending"}})");
  EXPECT_EQ(statusUpdateBody(stored, Object{{"phase", "Running"}}), Object::parse(R"({
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "p", "namespace": "ns", "uid": "u", "resourceVersion": "7"},
    "status": {"phase": "Running"}})"));
  EXPECT_EQ(statusUpdateBody(Object::object(), Object::object()),
            Object::parse(R"({"metadata": {}, "status": {}})"));
  // Whatever of the identity is there, and nothing in its place when it is not.
  EXPECT_EQ(statusUpdateBody(Object::parse(R"({"kind": "Node", "metadata": {"uid": "u", "name": "n", "labels": {}}})"),
                             Object{{"phase", "x"}}),
            Object::parse(R"({"kind": "Node", "metadata": {"name": "n", "uid": "u"}, "status": {"phase": "x"}})"));
  // A null member is kept as it is; metadata that is not an object gives none of its fields.
  EXPECT_EQ(statusUpdateBody(Object::parse(R"({"kind": null, "metadata": "x", "zz": 1})"), Object(1)),
            Object::parse(R"({"kind": null, "metadata": {}, "status": 1})"));
  EXPECT_EQ(statusUpdateBody(Object::parse(R"({"metadata": {"uid": "u", "name": null}})"), Object()),
            Object::parse(R"({"metadata": {"name": null, "uid": "u"}, "status": null})"));
}

}  // namespace
}  // namespace kun
