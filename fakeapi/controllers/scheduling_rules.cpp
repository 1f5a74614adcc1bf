#include "fakeapi/controllers/scheduling_rules.h"

#include <charconv>

#include <fmt/format.h>

namespace kun::sim {
namespace {

const Object& field(const Object& o, std::initializer_list<const char*> path) {
  static const Object kNull;
  const Object* cur = &o;
  // memberOf, not nlohmann's find: every pass reads every pod's and node's fields by path.
  for (const char* p : path)
    if (cur = memberOf(*cur, p); !cur) return kNull;
  return *cur;
}

std::string s(const Object& o, const char* key) {
  const Object* it = memberOf(o, key);
  return it && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<long long> toInt(const std::string& v) {
  long long out = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || p != v.data() + v.size()) return std::nullopt;
  return out;
}

// One node selector requirement (In, NotIn, Exists, DoesNotExist, Gt, Lt) against a value
// that may be absent.
bool requirementHolds(const Object& req, const std::optional<std::string>& value) {
  const std::string op = s(req, "operator");
  std::vector<std::string> values;
  if (auto v = req.find("values"); v != req.end() && v->is_array()) {
    for (const auto& x : *v)
      if (x.is_string()) values.push_back(x.get<std::string>());
  }
  auto in = [&] {
    for (const auto& v : values)
      if (value && *value == v) return true;
    return false;
  };
  if (op == "In") return value && in();
  if (op == "NotIn") return !value || !in();
  if (op == "Exists") return value.has_value();
  if (op == "DoesNotExist") return !value.has_value();
  if (op == "Gt" || op == "Lt") {
    if (!value || values.size() != 1) return false;
    auto have = toInt(*value);
    auto want = toInt(values[0]);
    if (!have || !want) return false;
    return op == "Gt" ? *have > *want : *have < *want;
  }
  return false;
}

// A nodeSelectorTerm: every matchExpression on labels and every matchField must hold; a
// term with neither matches nothing.
bool termMatchesNode(const Object& term, const Object& node) {
  const Object& exprs = field(term, {"matchExpressions"});
  const Object& fields = field(term, {"matchFields"});
  const bool hasExprs = exprs.is_array() && !exprs.empty();
  const bool hasFields = fields.is_array() && !fields.empty();
  if (!hasExprs && !hasFields) return false;
  const auto labels = meta::labels(node);
  if (hasExprs) {
    for (const auto& req : exprs) {
      auto it = labels.find(s(req, "key"));
      std::optional<std::string> v;
      if (it != labels.end()) v = it->second;
      if (!requirementHolds(req, v)) return false;
    }
  }
  if (hasFields) {
    for (const auto& req : fields) {
      if (s(req, "key") != "metadata.name") return false;
      if (!requirementHolds(req, meta::name(node))) return false;
    }
  }
  return true;
}

std::vector<PodAffinityTerm> parseTerms(const Object& arr, const std::string& podNs, bool weighted) {
  std::vector<PodAffinityTerm> out;
  if (!arr.is_array()) return out;
  for (const auto& item : arr) {
    const Object& t = weighted ? field(item, {"podAffinityTerm"}) : item;
    if (!t.is_object()) continue;
    PodAffinityTerm term;
    term.topologyKey = s(t, "topologyKey");
    if (weighted) term.weight = item.value("weight", 0);
    const Object& sel = field(t, {"labelSelector"});
    if (sel.is_null()) {
      term.matchNothing = true;
    } else {
      auto parsed = LabelSelector::fromObject(sel);
      if (!parsed) continue;
      term.selector = std::move(parsed.value());
    }
    const Object& nsList = field(t, {"namespaces"});
    if (nsList.is_array()) {
      for (const auto& n : nsList)
        if (n.is_string()) term.namespaces.insert(n.get<std::string>());
    }
    const Object& nsSel = field(t, {"namespaceSelector"});
    // An empty namespaceSelector selects every namespace. A non-empty one needs namespace
    // labels, which this model does not read: such a term falls back to the listed
    // namespaces plus the pod's own.
    if (nsSel.is_object() && nsSel.value("matchLabels", Object::object()).empty() &&
        nsSel.value("matchExpressions", Object::array()).empty()) {
      term.allNamespaces = true;
    }
    if (term.namespaces.empty() || (nsSel.is_object() && !term.allNamespaces)) term.namespaces.insert(podNs);
    out.push_back(std::move(term));
  }
  return out;
}

}  // namespace

bool toleratesTaint(const Object& tolerations, const Object& taint) {
  if (!tolerations.is_array()) return false;
  const std::string key = s(taint, "key"), value = s(taint, "value"), effect = s(taint, "effect");
  for (const auto& t : tolerations) {
    if (!t.is_object()) continue;
    const std::string te = s(t, "effect"), tk = s(t, "key"), op = s(t, "operator");
    if (!te.empty() && te != effect) continue;
    if (!tk.empty() && tk != key) continue;
    if (op == "Exists") return true;
    if ((op.empty() || op == "Equal") && s(t, "value") == value) return true;
  }
  return false;
}

std::optional<Object> firstUntoleratedTaint(const Object& pod, const Object& node) {
  const Object& taints = field(node, {"spec", "taints"});
  if (!taints.is_array()) return std::nullopt;
  const Object& tolerations = field(pod, {"spec", "tolerations"});
  for (const auto& t : taints) {
    const std::string effect = s(t, "effect");
    if (effect != "NoSchedule" && effect != "NoExecute") continue;
    if (!toleratesTaint(tolerations, t)) return t;
  }
  return std::nullopt;
}

int untoleratedPreferNoSchedule(const Object& pod, const Object& node) {
  const Object& taints = field(node, {"spec", "taints"});
  if (!taints.is_array()) return 0;
  const Object& tolerations = field(pod, {"spec", "tolerations"});
  int n = 0;
  for (const auto& t : taints) {
    if (s(t, "effect") == "PreferNoSchedule" && !toleratesTaint(tolerations, t)) ++n;
  }
  return n;
}

std::string describeTaint(const Object& taint) {
  return fmt::format("{{{}: {}}}", s(taint, "key"), s(taint, "value"));
}

bool matchesNodeSelectorAndAffinity(const Object& pod, const Object& node) {
  const Object& sel = field(pod, {"spec", "nodeSelector"});
  if (sel.is_object()) {
    const auto labels = meta::labels(node);
    for (const auto& [k, v] : sel.items()) {
      auto it = labels.find(k);
      if (it == labels.end() || !v.is_string() || it->second != v.get<std::string>()) return false;
    }
  }
  const Object& terms = field(pod, {"spec", "affinity", "nodeAffinity",
                                    "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"});
  if (terms.is_array()) {
    bool any = false;
    for (const auto& t : terms) {
      if (termMatchesNode(t, node)) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  return true;
}

int preferredNodeAffinityScore(const Object& pod, const Object& node) {
  const Object& prefs = field(pod, {"spec", "affinity", "nodeAffinity",
                                    "preferredDuringSchedulingIgnoredDuringExecution"});
  if (!prefs.is_array()) return 0;
  int score = 0;
  for (const auto& p : prefs) {
    if (termMatchesNode(field(p, {"preference"}), node)) score += p.value("weight", 0);
  }
  return score;
}

bool PodAffinityTerm::matches(const Object& otherPod) const {
  if (matchNothing) return false;
  if (!allNamespaces && !namespaces.count(meta::namespaceOf(otherPod))) return false;
  return selector.matches(otherPod);
}

PodAffinity podAffinityOf(const Object& pod) {
  PodAffinity a;
  const std::string ns = meta::namespaceOf(pod);
  const Object& aff = field(pod, {"spec", "affinity", "podAffinity"});
  const Object& anti = field(pod, {"spec", "affinity", "podAntiAffinity"});
  a.requiredAffinity = parseTerms(field(aff, {"requiredDuringSchedulingIgnoredDuringExecution"}), ns, false);
  a.preferredAffinity = parseTerms(field(aff, {"preferredDuringSchedulingIgnoredDuringExecution"}), ns, true);
  a.requiredAntiAffinity = parseTerms(field(anti, {"requiredDuringSchedulingIgnoredDuringExecution"}), ns, false);
  a.preferredAntiAffinity = parseTerms(field(anti, {"preferredDuringSchedulingIgnoredDuringExecution"}), ns, true);
  return a;
}

std::optional<std::string> topologyValue(const Object& node, const std::string& key) {
  const Object& labels = field(node, {"metadata", "labels"});
  if (!labels.is_object()) return std::nullopt;
  const Object* it = memberOf(labels, key);
  if (!it || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

}  // namespace kun::sim
