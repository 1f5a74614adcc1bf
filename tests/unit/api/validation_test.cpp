#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/api/validation.h"

namespace kun::validation {
namespace {

using ::testing::HasSubstr;

std::string repeat(char c, std::size_t n) { return std::string(n, c); }

TEST(Dns1123Label, AcceptsValid) {
  for (const std::string& v : std::vector<std::string>{"a", "0", "redis-0", "a-b-c", "123", "x1", repeat('a', 63)})
    EXPECT_EQ(dns1123Label(v), "") << v;
}

TEST(Dns1123Label, RejectsInvalid) {
  for (const std::string& v : std::vector<std::string>{"", "-a", "a-", "A", "redis_0", "a.b", "a b", "é", "a\n"})
    EXPECT_THAT(dns1123Label(v), HasSubstr("a lowercase RFC 1123 label must consist of")) << v;
}

TEST(Dns1123Label, LengthBoundaryAt63) {
  EXPECT_EQ(dns1123Label(repeat('a', 63)), "");
  EXPECT_EQ(dns1123Label(repeat('a', 64)), "must be no more than 63 characters");
  // Both reasons are reported, as Kubernetes lists them.
  const auto both = dns1123Label(repeat('-', 64));
  EXPECT_THAT(both, HasSubstr("must be no more than 63 characters"));
  EXPECT_THAT(both, HasSubstr("RFC 1123 label"));
}

TEST(Dns1123Subdomain, AcceptsValid) {
  for (const std::string& v : std::vector<std::string>{"a", "example.com", "a.b.c", "my-name.x-1", "0.0", repeat('a', 253)})
    EXPECT_EQ(dns1123Subdomain(v), "") << v;
  // 253 characters made of 63-character labels.
  const std::string l = repeat('b', 63);
  const std::string v = l + "." + l + "." + l + "." + repeat('c', 61);
  ASSERT_EQ(v.size(), 253u);
  EXPECT_EQ(dns1123Subdomain(v), "");
}

TEST(Dns1123Subdomain, RejectsInvalid) {
  for (const std::string& v : std::vector<std::string>{"", ".a", "a.", "a..b", "a.-b", "a-.b", "A.b", "a_b", "a/b", "-"})
    EXPECT_THAT(dns1123Subdomain(v), HasSubstr("a lowercase RFC 1123 subdomain must consist of")) << v;
}

TEST(Dns1123Subdomain, LengthBoundaryAt253) {
  EXPECT_EQ(dns1123Subdomain(repeat('a', 253)), "");
  EXPECT_EQ(dns1123Subdomain(repeat('a', 254)), "must be no more than 253 characters");
}

TEST(Dns1035Label, StartsWithALetter) {
  for (const std::string& v : std::vector<std::string>{"a", "my-name", "abc-123", "z9", repeat('a', 63)}) EXPECT_EQ(dns1035Label(v), "") << v;
  for (const std::string& v : std::vector<std::string>{"", "1abc", "-a", "a-", "A", "a.b", "0"})
    EXPECT_THAT(dns1035Label(v), HasSubstr("a DNS-1035 label must consist of")) << v;
  EXPECT_EQ(dns1035Label(repeat('a', 64)), "must be no more than 63 characters");
}

TEST(LabelKey, AcceptsNamesAndPrefixedNames) {
  for (const std::string& v : std::vector<std::string>{"app", "App", "a", "9", "my.name", "my_name", "a-b_c.d", "example.com/MyName",
                        "app.kubernetes.io/name", "redis.kun/scope", "k8s.io/a", repeat('a', 63),
                        repeat('p', 253) + "/" + repeat('n', 63)})
    EXPECT_EQ(labelKey(v), "") << v;
}

TEST(LabelKey, RejectsBadNamePart) {
  for (const std::string& v : std::vector<std::string>{"-a", "a-", "_a", "a.", "a b", "a=b", "a!", "é"})
    EXPECT_THAT(labelKey(v), HasSubstr("name part must consist of alphanumeric characters")) << v;
  EXPECT_THAT(labelKey(""), HasSubstr("name part must be non-empty"));
  EXPECT_THAT(labelKey("example.com/"), HasSubstr("name part must be non-empty"));
}

TEST(LabelKey, NamePartBoundaryAt63) {
  EXPECT_EQ(labelKey(repeat('a', 63)), "");
  EXPECT_EQ(labelKey(repeat('a', 64)), "name part must be no more than 63 characters");
  EXPECT_EQ(labelKey("x.io/" + repeat('a', 64)), "name part must be no more than 63 characters");
}

TEST(LabelKey, PrefixMustBeASubdomainOfAtMost253) {
  EXPECT_EQ(labelKey(repeat('p', 253) + "/n"), "");
  EXPECT_EQ(labelKey(repeat('p', 254) + "/n"), "prefix part must be no more than 253 characters");
  EXPECT_THAT(labelKey("Example.com/n"), HasSubstr("prefix part a lowercase RFC 1123 subdomain"));
  EXPECT_THAT(labelKey("a..b/n"), HasSubstr("prefix part a lowercase RFC 1123 subdomain"));
  EXPECT_EQ(labelKey("/n"), "prefix part must be non-empty");
}

TEST(LabelKey, AtMostOneSlash) {
  EXPECT_THAT(labelKey("a/b/c"), HasSubstr("with an optional DNS subdomain prefix and '/'"));
}

TEST(LabelValue, EmptyOrQualifiedCharacters) {
  for (const std::string& v : std::vector<std::string>{"", "a", "MyValue", "my_value", "12345", "a.b-c_d", "v1.2.3", repeat('Z', 63)})
    EXPECT_EQ(labelValue(v), "") << v;
  for (const std::string& v : std::vector<std::string>{"-a", "a-", ".a", "a_", "a b", "a/b", "a=b", "é"})
    EXPECT_THAT(labelValue(v), HasSubstr("a valid label must be an empty string or consist of")) << v;
}

TEST(LabelValue, LengthBoundaryAt63) {
  EXPECT_EQ(labelValue(repeat('a', 63)), "");
  EXPECT_EQ(labelValue(repeat('a', 64)), "must be no more than 63 characters");
}

TEST(Messages, NameTheRegexAndExamples) {
  EXPECT_EQ(dns1123Label("A"),
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
            "must start and end with an alphanumeric character (e.g. 'my-name' or '123-abc', regex used "
            "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
}

TEST(Quantity, AcceptsKubernetesQuantities) {
  for (const char* ok : {"1", "500m", "0.5", ".5", "2.", "1.5Gi", "128Mi", "1Ki", "3E", "1e3", "1E-2", "+4k", "-1"})
    EXPECT_EQ(quantity(ok), "") << ok;
}

TEST(Quantity, RejectsTheRest) {
  for (const char* bad : {"", "lots", "1x", "Gi", "1.5 Gi", "1e", "1Gib", ".", "1..2", "e3"})
    EXPECT_NE(quantity(bad), "") << bad;
}

}  // namespace
}  // namespace kun::validation
