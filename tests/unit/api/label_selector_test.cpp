#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/kube/selector.h"

namespace kun {
namespace {

using ::testing::HasSubstr;
using Labels = std::map<std::string, std::string>;
using Op = LabelSelector::Op;

LabelSelector mustParse(std::string_view s) {
  auto r = LabelSelector::parse(s);
  EXPECT_TRUE(r.ok()) << s << ": " << (r.ok() ? "" : r.error().toString());
  return r.ok() ? *r : LabelSelector();
}

TEST(LabelSelectorParse, EmptyMatchesEverything) {
  for (std::string_view s : {"", "   ", "\t"}) {
    auto sel = mustParse(s);
    EXPECT_TRUE(sel.empty());
    EXPECT_TRUE(sel.matches(Labels{}));
    EXPECT_TRUE(sel.matches(Labels{{"a", "b"}}));
    EXPECT_EQ(sel.toString(), "");
  }
}

TEST(LabelSelectorParse, EveryOperator) {
  auto sel = mustParse("a=b,c==d,e!=f,g in (y,x),h notin (z),i,!j");
  const auto& r = sel.requirements();
  ASSERT_EQ(r.size(), 7u);
  EXPECT_EQ(r[0].key, "a");
  EXPECT_EQ(r[0].op, Op::Equals);
  EXPECT_EQ(r[0].values, (std::vector<std::string>{"b"}));
  EXPECT_EQ(r[1].op, Op::Equals);  // "==" is the same operator
  EXPECT_EQ(r[2].op, Op::NotEquals);
  EXPECT_EQ(r[3].op, Op::In);
  EXPECT_EQ(r[3].values, (std::vector<std::string>{"x", "y"}));  // sorted
  EXPECT_EQ(r[4].op, Op::NotIn);
  EXPECT_EQ(r[5].op, Op::Exists);
  EXPECT_TRUE(r[5].values.empty());
  EXPECT_EQ(r[6].key, "j");
  EXPECT_EQ(r[6].op, Op::DoesNotExist);
}

TEST(LabelSelectorParse, WhitespaceTolerant) {
  auto a = mustParse("  a = b ,  c  in(x, y ) , ! d ,e!=f ,  g  ");
  auto b = mustParse("a=b,c in (x,y),!d,e!=f,g");
  EXPECT_EQ(a.toString(), b.toString());
  EXPECT_EQ(a.requirements().size(), 5u);
}

TEST(LabelSelectorParse, PrefixedKeysAndEmptyValues) {
  auto sel = mustParse("app.kubernetes.io/name=redis,redis.kun/scope,x=,y in (a,),z notin (,)");
  EXPECT_TRUE(sel.matches(Labels{{"app.kubernetes.io/name", "redis"}, {"redis.kun/scope", "c"},
                                 {"x", ""}, {"y", ""}, {"z", "q"}}));
  EXPECT_FALSE(sel.matches(Labels{{"app.kubernetes.io/name", "redis"}, {"redis.kun/scope", "c"},
                                  {"x", ""}, {"y", "a"}, {"z", ""}}));
  const auto& r = sel.requirements();
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[3].key, "y");
  EXPECT_EQ(r[3].values, (std::vector<std::string>{"", "a"}));
  EXPECT_EQ(r[4].values, (std::vector<std::string>{""}));
}

TEST(LabelSelectorParse, KeywordsAreKeysWhereAKeyIsExpected) {
  auto sel = mustParse("in,notin=x");
  EXPECT_TRUE(sel.matches(Labels{{"in", "1"}, {"notin", "x"}}));
}

TEST(LabelSelectorParse, DuplicateValuesCollapse) {
  auto sel = mustParse("a in (x,x,y,x)");
  EXPECT_EQ(sel.requirements()[0].values, (std::vector<std::string>{"x", "y"}));
}

struct BadCase {
  const char* text;
  const char* message;  // a substring of the error
};

class LabelSelectorErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(LabelSelectorErrors, InvalidWithMessageAndField) {
  auto r = LabelSelector::parse(GetParam().text);
  ASSERT_FALSE(r.ok()) << GetParam().text << " parsed as " << r->toString();
  EXPECT_EQ(r.error().reason, Reason::Invalid);
  EXPECT_EQ(r.error().field, "labelSelector");
  EXPECT_THAT(r.error().message, HasSubstr(GetParam().message)) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(
    Table, LabelSelectorErrors,
    ::testing::Values(
        BadCase{",", "expected a label key"},
        BadCase{"a=b,", "found end of input, expected a label key"},
        BadCase{"a=b,,c=d", "found ',', expected a label key"},
        BadCase{"=b", "found '=', expected a label key"},
        BadCase{"a b", "found 'b' after \"a\""},
        BadCase{"a=b c", "found 'c', expected ',' or end of input"},
        BadCase{"a=(b)", "found '(' after \"a=\", expected a label value"},
        BadCase{"a in x", "expected '('"},
        BadCase{"a in ()", "values set can't be empty"},
        BadCase{"a notin ()", "values set can't be empty"},
        BadCase{"a in (x", "found end of input in the values of \"a\""},
        BadCase{"a in (x y)", "found 'y' in the values of \"a\""},
        BadCase{"a in (x))", "found ')', expected ',' or end of input"},
        BadCase{"!", "found end of input after '!', expected a label key"},
        BadCase{"!a=b", "found '=' after \"!a\""},
        BadCase{"!!a", "found '!' after '!'"},
        BadCase{"a>1", "operator '>'"},
        BadCase{"a<1", "operator '<'"},
        BadCase{"-a=b", "invalid label key \"-a\""},
        BadCase{"a/b/c", "invalid label key \"a/b/c\""},
        BadCase{"a=-b", "invalid label value \"-b\" for key \"a\""},
        BadCase{"a in (ok,b_)", "invalid label value \"b_\""},
        BadCase{"a=b&c", "invalid label value \"b&c\""},
        BadCase{"Key.With/slash=x", "invalid label key"}));

TEST(LabelSelectorParse, DoubleEqualsWithEmptyValue) {
  auto sel = mustParse("a==");
  EXPECT_TRUE(sel.matches(Labels{{"a", ""}}));
  EXPECT_FALSE(sel.matches(Labels{{"a", "x"}}));
  EXPECT_FALSE(sel.matches(Labels{}));
}

TEST(LabelSelectorParse, KeyAndValueLengthLimits) {
  EXPECT_TRUE(LabelSelector::parse(std::string(63, 'k') + "=" + std::string(63, 'v')).ok());
  auto longKey = LabelSelector::parse(std::string(64, 'k') + "=v");
  ASSERT_FALSE(longKey.ok());
  EXPECT_THAT(longKey.error().message, HasSubstr("name part must be no more than 63 characters"));
  auto longValue = LabelSelector::parse("k=" + std::string(64, 'v'));
  ASSERT_FALSE(longValue.ok());
  EXPECT_THAT(longValue.error().message, HasSubstr("must be no more than 63 characters"));
}

struct MatchCase {
  const char* selector;
  Labels labels;
  bool matches;
};

class LabelSelectorMatch : public ::testing::TestWithParam<MatchCase> {};

TEST_P(LabelSelectorMatch, AsKubernetes) {
  const auto& c = GetParam();
  auto sel = mustParse(c.selector);
  EXPECT_EQ(sel.matches(c.labels), c.matches) << c.selector;
  // The Object overload reads metadata.labels and agrees.
  Object o = Object::object();
  for (const auto& [k, v] : c.labels) o["metadata"]["labels"][k] = v;
  EXPECT_EQ(sel.matches(o), c.matches) << c.selector;
}

INSTANTIATE_TEST_SUITE_P(
    Table, LabelSelectorMatch,
    ::testing::Values(
        MatchCase{"a=b", {{"a", "b"}}, true}, MatchCase{"a=b", {{"a", "c"}}, false},
        MatchCase{"a=b", {}, false}, MatchCase{"a==b", {{"a", "b"}, {"x", "y"}}, true},
        MatchCase{"a!=b", {{"a", "c"}}, true}, MatchCase{"a!=b", {{"a", "b"}}, false},
        MatchCase{"a!=b", {}, true},  // a missing key satisfies !=
        MatchCase{"a in (x,y)", {{"a", "y"}}, true}, MatchCase{"a in (x,y)", {{"a", "z"}}, false},
        MatchCase{"a in (x,y)", {}, false}, MatchCase{"a notin (x,y)", {{"a", "z"}}, true},
        MatchCase{"a notin (x,y)", {{"a", "x"}}, false},
        MatchCase{"a notin (x,y)", {}, true},  // and notin
        MatchCase{"a", {{"a", ""}}, true}, MatchCase{"a", {{"b", "a"}}, false},
        MatchCase{"!a", {{"b", "a"}}, true}, MatchCase{"!a", {{"a", ""}}, false},
        MatchCase{"a=b,c=d", {{"a", "b"}, {"c", "d"}}, true},
        MatchCase{"a=b,c=d", {{"a", "b"}, {"c", "e"}}, false},
        MatchCase{"a=b,a=c", {{"a", "b"}}, false},
        MatchCase{"a,!b,c in (1),d notin (2)", {{"a", "x"}, {"c", "1"}}, true},
        MatchCase{"a,!b,c in (1),d notin (2)", {{"a", "x"}, {"c", "1"}, {"d", "2"}}, false},
        MatchCase{"a=", {{"a", ""}}, true}, MatchCase{"a=", {}, false}));

TEST(LabelSelectorMatchObject, NoLabelsOrBadLabels) {
  auto sel = mustParse("!a,b!=c");
  EXPECT_TRUE(sel.matches(Object()));
  EXPECT_TRUE(sel.matches(Object::parse(R"({"metadata": {}})")));
  EXPECT_TRUE(sel.matches(Object::parse(R"({"metadata": {"labels": {"a": 5}}})")));  // not a string
  EXPECT_FALSE(mustParse("a").matches(Object::parse(R"({"metadata": {"labels": null}})")));
  EXPECT_TRUE(LabelSelector().matches(Object()));
}

TEST(LabelSelectorToString, CanonicalAndParseable) {
  auto sel = mustParse("z=1, b notin (q,p), !y, a in (c,b,a), m, a!=x, a=b");
  EXPECT_EQ(sel.toString(), "a=b,a!=x,a in (a,b,c),b notin (p,q),m,!y,z=1");
  EXPECT_EQ(mustParse(sel.toString()).toString(), sel.toString());
}

TEST(LabelSelectorToString, EmptyValueSetMembersRoundTrip) {
  for (std::string_view s : {"a in (,)", "a notin (,x)", "a=", "a!=", "a in (x,)"}) {
    auto sel = mustParse(s);
    auto again = mustParse(sel.toString());
    EXPECT_EQ(again.toString(), sel.toString()) << s;
    ASSERT_EQ(again.requirements().size(), 1u);
    EXPECT_EQ(again.requirements()[0].values, sel.requirements()[0].values) << s;
  }
}

TEST(LabelSelectorFromMap, EqualityRequirements) {
  auto sel = LabelSelector::fromMap({{"b", "2"}, {"a", "1"}});
  EXPECT_EQ(sel.toString(), "a=1,b=2");
  EXPECT_TRUE(sel.matches(Labels{{"a", "1"}, {"b", "2"}, {"c", "3"}}));
  EXPECT_FALSE(sel.matches(Labels{{"a", "1"}}));
  EXPECT_TRUE(LabelSelector::fromMap({}).empty());
}

TEST(LabelSelectorRequiredPairs, FromEqualityAndSingleValueIn) {
  auto sel = mustParse("a=1,b in (2),c in (3,4),d!=5,e,!f,g notin (6),a==1");
  EXPECT_EQ(sel.requiredPairs(),
            (std::vector<std::pair<std::string, std::string>>{{"a", "1"}, {"b", "2"}}));
  EXPECT_TRUE(mustParse("x,!y").requiredPairs().empty());
}

TEST(LabelSelectorFromObject, MatchLabelsAndExpressions) {
  auto r = LabelSelector::fromObject(Object::parse(R"({
    "matchLabels": {"app": "redis", "tier": "cache"},
    "matchExpressions": [
      {"key": "zone", "operator": "In", "values": ["b", "a"]},
      {"key": "legacy", "operator": "DoesNotExist"},
      {"key": "role", "operator": "NotIn", "values": ["sentinel"]},
      {"key": "owner", "operator": "Exists", "values": []}
    ]})"));
  ASSERT_TRUE(r.ok()) << r.error().toString();
  EXPECT_EQ(r->toString(), "app=redis,!legacy,owner,role notin (sentinel),tier=cache,zone in (a,b)");
  EXPECT_TRUE(r->matches(Labels{{"app", "redis"}, {"tier", "cache"}, {"zone", "a"}, {"owner", "x"}}));
  EXPECT_FALSE(r->matches(Labels{{"app", "redis"}, {"tier", "cache"}, {"zone", "c"}, {"owner", "x"}}));
  EXPECT_FALSE(r->matches(
      Labels{{"app", "redis"}, {"tier", "cache"}, {"zone", "a"}, {"owner", "x"}, {"legacy", "1"}}));
}

TEST(LabelSelectorFromObject, EmptyAndNullMatchEverything) {
  for (const char* s : {"{}", "null", R"({"matchLabels": null, "matchExpressions": null})"}) {
    auto r = LabelSelector::fromObject(Object::parse(s));
    ASSERT_TRUE(r.ok()) << s;
    EXPECT_TRUE(r->empty());
  }
}

struct BadObject {
  const char* json;
  const char* field;
  const char* message;
};

class LabelSelectorFromObjectErrors : public ::testing::TestWithParam<BadObject> {};

TEST_P(LabelSelectorFromObjectErrors, Invalid) {
  auto r = LabelSelector::fromObject(Object::parse(GetParam().json));
  ASSERT_FALSE(r.ok()) << GetParam().json;
  EXPECT_EQ(r.error().reason, Reason::Invalid);
  EXPECT_EQ(r.error().field, GetParam().field);
  EXPECT_THAT(r.error().message, HasSubstr(GetParam().message));
}

INSTANTIATE_TEST_SUITE_P(
    Table, LabelSelectorFromObjectErrors,
    ::testing::Values(
        BadObject{R"("app=x")", "selector", "must be an object"},
        BadObject{R"({"matchLabels": {"-bad": "x"}})", "selector.matchLabels", "invalid label key \"-bad\""},
        BadObject{R"({"matchLabels": {"a": "-x"}})", "selector.matchLabels", "invalid label value \"-x\""},
        BadObject{R"({"matchLabels": {"a": 1}})", "selector.matchLabels", "must be a string"},
        BadObject{R"({"matchLabels": []})", "selector.matchLabels", "must be an object"},
        BadObject{R"({"matchExpressions": {}})", "selector.matchExpressions", "must be an array"},
        BadObject{R"({"matchExpressions": [{"key": "a", "operator": "Equals", "values": ["x"]}]})",
                  "selector.matchExpressions[0].operator", "\"Equals\" is not a valid label selector operator"},
        BadObject{R"({"matchExpressions": [{"key": "a", "operator": "in", "values": ["x"]}]})",
                  "selector.matchExpressions[0].operator", "not a valid label selector operator"},
        BadObject{R"({"matchExpressions": [{"key": "a", "operator": "In"}]})",
                  "selector.matchExpressions[0].values", "must be specified when `operator` is 'In' or 'NotIn'"},
        BadObject{R"({"matchExpressions": [{"key": "a", "operator": "Exists"},
                                           {"key": "b", "operator": "NotIn", "values": []}]})",
                  "selector.matchExpressions[1].values", "must be specified"},
        BadObject{R"({"matchExpressions": [{"key": "a", "operator": "DoesNotExist", "values": ["x"]}]})",
                  "selector.matchExpressions[0].values", "may not be specified"},
        BadObject{R"({"matchExpressions": [{"key": "a", "operator": "In", "values": ["a b"]}]})",
                  "selector.matchExpressions[0].values", "invalid label value \"a b\""},
        BadObject{R"({"matchExpressions": [{"key": "a", "operator": "In", "values": [1]}]})",
                  "selector.matchExpressions[0].values", "array of strings"},
        BadObject{R"({"matchExpressions": [{"operator": "Exists"}]})", "selector.matchExpressions[0].key",
                  "invalid label key \"\""},
        BadObject{R"({"matchExpressions": ["x"]})", "selector.matchExpressions[0]", "must be an object"}));

}  // namespace
}  // namespace kun
