// Properties of label selectors over generated selectors and label maps. Keys and values
// come from small pools so that generated labels actually hit generated requirements.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>

#include "core/kube/selector.h"

namespace kun {
namespace {

using Labels = std::map<std::string, std::string>;
using Op = LabelSelector::Op;

const std::vector<std::string> kKeys{"a", "b", "app", "x.io/role", "Z_9"};
const std::vector<std::string> kValues{"", "1", "v", "redis", "A.b-c"};

// A requirement as the test knows it, independently of the parser.
struct Req {
  std::string key;
  Op op;
  std::vector<std::string> values;  // as generated: unsorted, maybe repeated
};

// Counts and choices use gen::element, which is uniform at every size. gen::inRange scales
// with the size, so under a small gen::resize it almost always picks its minimum (the first
// operator), and the properties would test only equality.
rc::Gen<Op> genOp() {
  return rc::gen::element(Op::Equals, Op::NotEquals, Op::In, Op::NotIn, Op::Exists, Op::DoesNotExist);
}

rc::Gen<Req> genReq() {
  return rc::gen::mapcat(rc::gen::pair(rc::gen::elementOf(kKeys), genOp()), [](const auto& kp) {
    const std::string key = kp.first;
    const Op op = kp.second;
    switch (op) {
      case Op::Equals:
      case Op::NotEquals:
        return rc::gen::map(rc::gen::elementOf(kValues), [=](const std::string& v) { return Req{key, op, {v}}; });
      case Op::In:
      case Op::NotIn:
        return rc::gen::mapcat(rc::gen::element<std::size_t>(1, 2, 3), [=](std::size_t n) {
          return rc::gen::map(rc::gen::container<std::vector<std::string>>(n, rc::gen::elementOf(kValues)),
                              [=](std::vector<std::string> vs) { return Req{key, op, std::move(vs)}; });
        });
      default:
        return rc::gen::just(Req{key, op, {}});
    }
  });
}

rc::Gen<std::vector<Req>> genReqs() {
  return rc::gen::mapcat(rc::gen::element<std::size_t>(0, 1, 2, 3, 4, 5, 6),
                         [](std::size_t n) { return rc::gen::container<std::vector<Req>>(n, genReq()); });
}

rc::Gen<Labels> genLabels() {
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  return rc::gen::mapcat(rc::gen::element<std::size_t>(0, 1, 2, 3, 4, 5), [](std::size_t n) {
    return rc::gen::map(rc::gen::container<Pairs>(n, rc::gen::pair(rc::gen::elementOf(kKeys), rc::gen::elementOf(kValues))),
                        [](const Pairs& ps) { return Labels(ps.begin(), ps.end()); });
  });
}

rc::Gen<int> genStyle() { return rc::gen::element(0, 1, 2, 3, 4, 5); }

// Whitespace the parser must ignore: between every pair of tokens.
std::string pad(int n) { return std::string(static_cast<std::size_t>(n % 3), ' '); }

// The string form of generated requirements, spelled in the variants Kubernetes accepts.
std::string render(const std::vector<Req>& reqs, int style) {
  std::string s;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    const Req& r = reqs[i];
    const std::string sp = pad(style + static_cast<int>(i));
    if (i) s += sp + "," + sp;
    switch (r.op) {
      case Op::Equals: s += r.key + sp + ((style + i) % 2 ? "==" : "=") + sp + r.values[0]; break;
      case Op::NotEquals: s += r.key + sp + "!=" + sp + r.values[0]; break;
      case Op::In:
      case Op::NotIn: {
        s += r.key + " " + (r.op == Op::In ? "in" : "notin") + sp + "(";
        bool onlyEmpty = true;
        for (std::size_t j = 0; j < r.values.size(); ++j) {
          if (j) s += sp + "," + sp;
          s += r.values[j];
          onlyEmpty = onlyEmpty && r.values[j].empty();
        }
        if (onlyEmpty) s += ",";  // "()" is an empty set, which is an error
        s += sp + ")";
        break;
      }
      case Op::Exists: s += r.key; break;
      case Op::DoesNotExist: s += "!" + sp + r.key; break;
    }
  }
  return s;
}

// What Kubernetes' semantics say, evaluated straight from the generated requirements.
bool reference(const std::vector<Req>& reqs, const Labels& labels) {
  return std::all_of(reqs.begin(), reqs.end(), [&](const Req& r) {
    const auto it = labels.find(r.key);
    const bool has = it != labels.end();
    const bool inSet = has && std::find(r.values.begin(), r.values.end(), it->second) != r.values.end();
    switch (r.op) {
      case Op::Equals:
      case Op::In: return inSet;
      case Op::NotEquals:
      case Op::NotIn: return !inSet;
      case Op::Exists: return has;
      case Op::DoesNotExist: return !has;
    }
    return false;
  });
}

Object toObject(const Labels& labels) {
  Object o = Object::object();
  o["metadata"]["labels"] = Object::object();
  for (const auto& [k, v] : labels) o["metadata"]["labels"][k] = v;
  return o;
}

RC_GTEST_PROP(LabelSelectorProperties, ParsesEveryRenderedSelector, ()) {
  const auto reqs = *genReqs();
  const int style = *genStyle();
  const std::string text = render(reqs, style);
  auto sel = LabelSelector::parse(text);
  RC_ASSERT(sel.ok());
  RC_ASSERT(sel->requirements().size() == reqs.size());
}

RC_GTEST_PROP(LabelSelectorProperties, ToStringRoundTrips, ()) {
  const auto reqs = *genReqs();
  auto sel = LabelSelector::parse(render(reqs, *genStyle()));
  RC_ASSERT(sel.ok());
  const std::string canon = sel->toString();
  auto again = LabelSelector::parse(canon);
  RC_ASSERT(again.ok());
  RC_ASSERT(again->toString() == canon);
  RC_ASSERT(again->requirements().size() == sel->requirements().size());
  for (std::size_t i = 0; i < sel->requirements().size(); ++i) {
    RC_ASSERT(again->requirements()[i].key == sel->requirements()[i].key);
    RC_ASSERT(again->requirements()[i].op == sel->requirements()[i].op);
    RC_ASSERT(again->requirements()[i].values == sel->requirements()[i].values);
  }
  // And the order requirements were written in does not change the canonical form.
  auto shuffled = reqs;
  std::reverse(shuffled.begin(), shuffled.end());
  auto rev = LabelSelector::parse(render(shuffled, 0));
  RC_ASSERT(rev.ok());
  RC_ASSERT(rev->toString() == canon);
}

RC_GTEST_PROP(LabelSelectorProperties, MatchesAgreesWithReference, ()) {
  const auto reqs = *genReqs();
  const auto labels = *genLabels();
  auto sel = LabelSelector::parse(render(reqs, *genStyle()));
  RC_ASSERT(sel.ok());
  const bool expected = reference(reqs, labels);
  RC_ASSERT(sel->matches(labels) == expected);
  RC_ASSERT(sel->matches(toObject(labels)) == expected);
  auto canon = LabelSelector::parse(sel->toString());
  RC_ASSERT(canon.ok());
  RC_ASSERT(canon->matches(labels) == expected);
  const bool missingKeyDecides = std::any_of(reqs.begin(), reqs.end(), [&](const Req& r) {
    return (r.op == Op::NotIn || r.op == Op::NotEquals || r.op == Op::DoesNotExist) && !labels.count(r.key);
  });
  RC_TAG(expected ? "match" : "no match", missingKeyDecides ? "a key is absent" : "all keys present");
}

RC_GTEST_PROP(LabelSelectorProperties, RequiredPairsHoldOnEveryMatch, ()) {
  const auto reqs = *genReqs();
  const auto labels = *genLabels();
  auto sel = LabelSelector::parse(render(reqs, 0));
  RC_ASSERT(sel.ok());
  if (!sel->matches(labels)) return;
  for (const auto& [k, v] : sel->requiredPairs()) {
    auto it = labels.find(k);
    RC_ASSERT(it != labels.end());
    RC_ASSERT(it->second == v);
  }
}

RC_GTEST_PROP(LabelSelectorProperties, FromObjectAgreesWithStringForm, ()) {
  // Only the operators a metav1.LabelSelector can express: matchLabels equality and the
  // four set operators.
  auto reqs = *genReqs();
  reqs.erase(std::remove_if(reqs.begin(), reqs.end(), [](const Req& r) { return r.op == Op::NotEquals; }),
             reqs.end());
  Object sel = Object::object();
  for (const auto& r : reqs) {
    if (r.op == Op::Equals) {
      // matchLabels holds one value per key; a second Equals on the key becomes In.
      if (!sel["matchLabels"].contains(r.key)) {
        sel["matchLabels"][r.key] = r.values[0];
        continue;
      }
    }
    static const char* kNames[] = {"In", "NotIn", "In", "NotIn", "Exists", "DoesNotExist"};
    Object e{{"key", r.key}, {"operator", kNames[static_cast<int>(r.op)]}};
    if (!r.values.empty()) e["values"] = r.values;
    sel["matchExpressions"].push_back(e);
  }
  auto fromObj = LabelSelector::fromObject(sel);
  RC_ASSERT(fromObj.ok());
  const auto labels = *genLabels();
  RC_ASSERT(fromObj->matches(labels) == reference(reqs, labels));
  auto viaString = LabelSelector::parse(fromObj->toString());
  RC_ASSERT(viaString.ok());
  RC_ASSERT(viaString->toString() == fromObj->toString());
}

RC_GTEST_PROP(LabelSelectorProperties, FromMapMatchesSupersets, ()) {
  const auto want = *genLabels();
  const auto extra = *genLabels();
  Labels have = want;
  for (const auto& [k, v] : extra) have.emplace(k, v);  // never overrides a wanted key
  const auto sel = LabelSelector::fromMap(want);
  RC_ASSERT(sel.matches(have));
  RC_ASSERT(sel.matches(extra) == std::includes(extra.begin(), extra.end(), want.begin(), want.end()));
}

}  // namespace
}  // namespace kun
