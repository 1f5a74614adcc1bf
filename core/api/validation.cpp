#include "core/api/validation.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <vector>

namespace kun::validation {
namespace {

// Lengths and wording follow k8s.io/apimachinery/pkg/util/validation, so an error from the
// fake API server reads like one from a real one. Characters are checked by hand: these
// run on every create and every selector parse.
constexpr std::size_t kLabelMax = 63;
constexpr std::size_t kSubdomainMax = 253;

constexpr std::string_view kLabelRe = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kSubdomainRe = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kDns1035Re = "[a-z]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kQualifiedRe = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kLabelValueRe = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";

bool lowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool lowerAlpha(char c) { return c >= 'a' && c <= 'z'; }
bool alnum(char c) { return lowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

std::string maxLenError(std::size_t n) {
  return "must be no more than " + std::to_string(n) + " characters";
}

std::string regexError(std::string_view what, std::string_view re,
                       std::initializer_list<std::string_view> examples) {
  std::string s(what);
  s += " (e.g. ";
  bool first = true;
  for (auto e : examples) {
    if (!first) s += " or ";
    first = false;
    s += '\'';
    s += e;
    s += '\'';
  }
  s += ", regex used for validation is '";
  s += re;
  s += "')";
  return s;
}

void append(std::string& errs, std::string_view e) {
  if (!errs.empty()) errs += "; ";
  errs += e;
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?, non-empty.
bool isLabelChars(std::string_view v) {
  if (v.empty() || !lowerAlnum(v.front()) || !lowerAlnum(v.back())) return false;
  for (char c : v)
    if (!lowerAlnum(c) && c != '-') return false;
  return true;
}

// Dot-separated RFC 1123 labels: "a..b" and "a.-b" are not subdomains.
bool isSubdomainChars(std::string_view v) {
  if (v.empty()) return false;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = v.find('.', start);
    if (!isLabelChars(v.substr(start, dot == std::string_view::npos ? dot : dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], non-empty.
bool isQualifiedChars(std::string_view v) {
  if (v.empty() || !alnum(v.front()) || !alnum(v.back())) return false;
  for (char c : v)
    if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

std::string qualifiedNameRegexError() {
  return regexError(
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
      "an alphanumeric character",
      kQualifiedRe, {"MyName", "my.name", "123-abc"});
}

std::vector<std::string> subdomainErrors(std::string_view v) {
  std::vector<std::string> errs;
  if (v.size() > kSubdomainMax) errs.push_back(maxLenError(kSubdomainMax));
  if (!isSubdomainChars(v))
    errs.push_back(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                              "characters, '-' or '.', and must start and end with an alphanumeric "
                              "character",
                              kSubdomainRe, {"example.com"}));
  return errs;
}

}  // namespace

std::string dns1123Subdomain(std::string_view v) {
  std::string errs;
  for (const auto& e : subdomainErrors(v)) append(errs, e);
  return errs;
}

std::string dns1123Label(std::string_view v) {
  std::string errs;
  if (v.size() > kLabelMax) append(errs, maxLenError(kLabelMax));
  if (!isLabelChars(v))
    append(errs, regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric "
                            "characters or '-', and must start and end with an alphanumeric character",
                            kLabelRe, {"my-name", "123-abc"}));
  return errs;
}

std::string dns1035Label(std::string_view v) {
  std::string errs;
  if (v.size() > kLabelMax) append(errs, maxLenError(kLabelMax));
  if (!isLabelChars(v) || !lowerAlpha(v.front()))
    append(errs, regexError("a DNS-1035 label must consist of lower case alphanumeric characters or "
                            "'-', start with an alphabetic character, and end with an alphanumeric "
                            "character",
                            kDns1035Re, {"my-name", "abc-123"}));
  return errs;
}

std::string labelKey(std::string_view v) {
  std::string errs;
  std::string_view nm = v;
  if (const auto slash = v.find('/'); slash != std::string_view::npos) {
    if (v.find('/', slash + 1) != std::string_view::npos) {
      return "a qualified name " + qualifiedNameRegexError() +
             " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
    }
    const std::string_view prefix = v.substr(0, slash);
    nm = v.substr(slash + 1);
    if (prefix.empty()) {
      append(errs, "prefix part must be non-empty");
    } else {
      for (const auto& e : subdomainErrors(prefix)) append(errs, "prefix part " + e);
    }
  }
  if (nm.empty()) {
    append(errs, "name part must be non-empty");
  } else if (nm.size() > kLabelMax) {
    append(errs, "name part " + maxLenError(kLabelMax));
  }
  if (!isQualifiedChars(nm)) append(errs, "name part " + qualifiedNameRegexError());
  return errs;
}

std::string labelValue(std::string_view v) {
  std::string errs;
  if (v.size() > kLabelMax) append(errs, maxLenError(kLabelMax));
  if (!v.empty() && !isQualifiedChars(v))
    append(errs, regexError("a valid label must be an empty string or consist of alphanumeric "
                            "characters, '-', '_' or '.', and must start and end with an "
                            "alphanumeric character",
                            kLabelValueRe, {"MyValue", "my_value", "12345"}));
  return errs;
}

std::string quantity(std::string_view v) {
  const std::string_view whole = v;
  auto bad = [whole] {
    return "must be a quantity such as 500m, 2, 1.5Gi or 1e3 (got \"" + std::string(whole) + "\")";
  };
  if (!v.empty() && (v.front() == '+' || v.front() == '-')) v.remove_prefix(1);
  std::size_t digits = 0, i = 0;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) ++i, ++digits;
  if (i < v.size() && v[i] == '.') {
    ++i;
    while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) ++i, ++digits;
  }
  if (digits == 0) return bad();
  const std::string_view suffix = v.substr(i);
  static constexpr std::string_view kSuffixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
                                                   "m", "k", "M", "G", "T", "P", "E"};
  for (std::string_view s : kSuffixes)
    if (suffix == s) return "";
  if (suffix[0] == 'e' || suffix[0] == 'E') {
    std::string_view exp = suffix.substr(1);
    if (!exp.empty() && (exp.front() == '+' || exp.front() == '-')) exp.remove_prefix(1);
    if (!exp.empty() && std::all_of(exp.begin(), exp.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return "";
  }
  return bad();
}

}  // namespace kun::validation
