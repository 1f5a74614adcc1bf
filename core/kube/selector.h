#pragma once
// Label selectors (equality- and set-based) and field selectors, as Kubernetes parses and
// matches them.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/object.h"
#include "core/runtime/result.h"

namespace kun {

class LabelSelector {
 public:
  enum class Op { Equals, NotEquals, In, NotIn, Exists, DoesNotExist };
  struct Requirement {
    std::string key;
    Op op;
    std::vector<std::string> values;  // sorted, for In/NotIn (one value for (Not)Equals)
  };

  // Empty selector: matches everything.
  LabelSelector() = default;
  // "a=b,c!=d,e in (x,y),f notin (z),g,!h" (also "=="). Invalid with a message on bad syntax
  // or an invalid label key/value.
  static Result<LabelSelector> parse(std::string_view text);
  // A metav1.LabelSelector object: {matchLabels: {...}, matchExpressions: [{key, operator, values}]}.
  static Result<LabelSelector> fromObject(const Object& selector);
  static LabelSelector fromMap(const std::map<std::string, std::string>& labels);

  bool empty() const { return reqs_.empty(); }
  bool matches(const std::map<std::string, std::string>& labels) const;
  bool matches(const Object& obj) const;  // its metadata.labels
  const std::vector<Requirement>& requirements() const { return reqs_; }
  // Canonical string form (requirements sorted by key), parseable by parse().
  std::string toString() const;
  // The key=value pairs every match must carry (from = / == / single-value in): what an
  // index by label can narrow on.
  std::vector<std::pair<std::string, std::string>> requiredPairs() const;

 private:
  std::vector<Requirement> reqs_;
};

class FieldSelector {
 public:
  struct Term {
    std::string field;  // "metadata.name", "metadata.namespace", "involvedObject.uid", ...
    bool equals;        // = / == versus !=
    std::string value;
  };
  FieldSelector() = default;
  // Supported fields: metadata.name, metadata.namespace, involvedObject.{kind,name,namespace,
  // uid}, spec.nodeName, status.phase; anything else is Invalid (naming the field).
  static Result<FieldSelector> parse(std::string_view text);
  bool empty() const { return terms_.empty(); }
  bool matches(const Object& obj) const;
  const std::vector<Term>& terms() const { return terms_; }

 private:
  std::vector<Term> terms_;
};

}  // namespace kun
