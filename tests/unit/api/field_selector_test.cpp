#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/kube/kube_client.h"
#include "core/kube/selector.h"

namespace kun {
namespace {

using ::testing::HasSubstr;

const Object kEvent = Object::parse(R"({
  "kind": "Event",
  "metadata": {"name": "ev.1", "namespace": "prod"},
  "involvedObject": {"kind": "Pod", "name": "redis-0", "namespace": "prod", "uid": "u-1"}
})");

const Object kPod = Object::parse(R"({
  "kind": "Pod",
  "metadata": {"name": "redis-0", "namespace": "prod"},
  "spec": {"nodeName": "node-a"},
  "status": {"phase": "Running"}
})");

FieldSelector mustParse(std::string_view s) {
  auto r = FieldSelector::parse(s);
  EXPECT_TRUE(r.ok()) << s << ": " << (r.ok() ? "" : r.error().toString());
  return r.ok() ? *r : FieldSelector();
}

TEST(FieldSelector, EmptyMatchesEverything) {
  auto sel = mustParse("");
  EXPECT_TRUE(sel.empty());
  EXPECT_TRUE(sel.matches(kPod));
  EXPECT_TRUE(mustParse("  ").empty());
}

TEST(FieldSelector, ParsesTerms) {
  auto sel = mustParse("metadata.name=a, metadata.namespace==b,status.phase!=Failed");
  ASSERT_EQ(sel.terms().size(), 3u);
  EXPECT_EQ(sel.terms()[0].field, "metadata.name");
  EXPECT_TRUE(sel.terms()[0].equals);
  EXPECT_EQ(sel.terms()[0].value, "a");
  EXPECT_EQ(sel.terms()[1].field, "metadata.namespace");
  EXPECT_TRUE(sel.terms()[1].equals);
  EXPECT_EQ(sel.terms()[1].value, "b");
  EXPECT_FALSE(sel.terms()[2].equals);
  EXPECT_EQ(sel.terms()[2].value, "Failed");
}

struct MatchCase {
  const char* selector;
  const Object* object;
  bool matches;
};

class FieldSelectorMatch : public ::testing::TestWithParam<MatchCase> {};

TEST_P(FieldSelectorMatch, Table) {
  EXPECT_EQ(mustParse(GetParam().selector).matches(*GetParam().object), GetParam().matches)
      << GetParam().selector;
}

INSTANTIATE_TEST_SUITE_P(
    Fields, FieldSelectorMatch,
    ::testing::Values(MatchCase{"metadata.name=redis-0", &kPod, true},
                      MatchCase{"metadata.name=redis-1", &kPod, false},
                      MatchCase{"metadata.name!=redis-1", &kPod, true},
                      MatchCase{"metadata.namespace=prod", &kPod, true},
                      MatchCase{"metadata.namespace=prod,metadata.name=redis-0", &kPod, true},
                      MatchCase{"metadata.namespace=prod,metadata.name=x", &kPod, false},
                      MatchCase{"spec.nodeName=node-a", &kPod, true},
                      MatchCase{"spec.nodeName=", &kPod, false},
                      MatchCase{"spec.nodeName=", &kEvent, true},  // absent reads as ""
                      MatchCase{"spec.nodeName!=", &kPod, true},
                      MatchCase{"status.phase=Running", &kPod, true},
                      MatchCase{"status.phase!=Running", &kPod, false},
                      MatchCase{"involvedObject.kind=Pod", &kEvent, true},
                      MatchCase{"involvedObject.name=redis-0", &kEvent, true},
                      MatchCase{"involvedObject.namespace=prod", &kEvent, true},
                      MatchCase{"involvedObject.uid=u-1", &kEvent, true},
                      MatchCase{"involvedObject.uid=u-2", &kEvent, false},
                      MatchCase{"involvedObject.uid=u-1", &kPod, false},
                      MatchCase{"metadata.name=ev.1", &kEvent, true}));

TEST(FieldSelector, EscapedValues) {
  Object o = Object::parse(R"({"metadata": {"name": "a,b=c\\d"}})");
  auto sel = mustParse(R"(metadata.name=a\,b\=c\\d)");
  ASSERT_EQ(sel.terms().size(), 1u);
  EXPECT_EQ(sel.terms()[0].value, "a,b=c\\d");
  EXPECT_TRUE(sel.matches(o));
}

TEST(FieldSelector, NonStringFieldsReadAsEmpty) {
  Object o = Object::parse(R"({"metadata": {"name": 5}, "status": "x"})");
  EXPECT_TRUE(mustParse("metadata.name=,status.phase=").matches(o));
}

TEST(FieldSelector, ToleratesEmptyTerms) {
  EXPECT_EQ(mustParse("metadata.name=a,,metadata.namespace=b,").terms().size(), 2u);
}

struct BadCase {
  const char* text;
  const char* message;
};

class FieldSelectorErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(FieldSelectorErrors, Invalid) {
  auto r = FieldSelector::parse(GetParam().text);
  ASSERT_FALSE(r.ok()) << GetParam().text;
  EXPECT_EQ(r.error().reason, Reason::Invalid);
  EXPECT_EQ(r.error().field, "fieldSelector");
  EXPECT_THAT(r.error().message, HasSubstr(GetParam().message)) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(
    Table, FieldSelectorErrors,
    ::testing::Values(BadCase{"metadata.uid=x", "field label not supported: \"metadata.uid\""},
                      BadCase{"spec.replicas=3", "\"spec.replicas\""},
                      BadCase{"=x", "field label not supported: \"\""},
                      BadCase{"metadata.name", "expected field=value"},
                      BadCase{"metadata.name=a=b", "unescaped '='"},
                      BadCase{R"(metadata.name=a\x)", "invalid escape sequence '\\x'"},
                      BadCase{R"(metadata.name=a\)", "may not end with"}));

TEST(WatchEventTypeName, KubernetesNames) {
  EXPECT_EQ(watchEventTypeName(WatchEventType::Added), "ADDED");
  EXPECT_EQ(watchEventTypeName(WatchEventType::Modified), "MODIFIED");
  EXPECT_EQ(watchEventTypeName(WatchEventType::Deleted), "DELETED");
  EXPECT_EQ(watchEventTypeName(WatchEventType::Bookmark), "BOOKMARK");
}

}  // namespace
}  // namespace kun
