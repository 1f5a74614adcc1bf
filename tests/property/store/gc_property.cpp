// Property (c): after an owner is deleted with background or foreground propagation,
// nothing whose owner chain leads to it remains once the loop has run: exactly the objects
// all of whose owners are gone are collected (transitively), and the survivors keep only
// their references to owners that still exist. With orphan propagation only the owner
// goes and its dependents lose their references to it.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/runtime/sim_loop.h"
#include "fakeapi/store/fake_store.h"

namespace kun {
namespace {

struct Node {
  std::vector<int> owners;  // indices of earlier nodes
  bool secret;              // kind: Secret or ConfigMap, so chains cross kinds
  bool block;               // blockOwnerDeletion on its references
};

const Resource& kindOf(const Node& n) { return n.secret ? res::secrets : res::configmaps; }
std::string nameOf(int i) { return "n" + std::to_string(i); }

RC_GTEST_PROP(StoreGcProperty, NothingOwnedByADeletedOwnerRemains, ()) {
  const int count = *rc::gen::inRange(1, 25);
  std::vector<Node> nodes;
  for (int i = 0; i < count; ++i) {
    Node n;
    n.secret = *rc::gen::arbitrary<bool>();
    n.block = *rc::gen::arbitrary<bool>();
    if (i > 0) {
      const int k = *rc::gen::inRange(0, 3);
      std::set<int> owners;
      for (int j = 0; j < k; ++j) owners.insert(*rc::gen::inRange(0, i));
      n.owners.assign(owners.begin(), owners.end());
    }
    nodes.push_back(n);
  }
  const int victim = *rc::gen::inRange(0, count);
  const auto policy = *rc::gen::element(PropagationPolicy::Background, PropagationPolicy::Foreground,
                                        PropagationPolicy::Orphan);

  SimLoop loop;
  FakeStore store(loop);
  std::vector<std::string> uids;
  for (int i = 0; i < count; ++i) {
    Object o{{"metadata", {{"name", nameOf(i)}, {"namespace", "default"}}}};
    for (int owner : nodes[i].owners) {
      const Resource& ok = kindOf(nodes[owner]);
      meta::addOwnerReference(o, OwnerReference{ok.apiVersion(), ok.kind, nameOf(owner), uids[owner], false,
                                                nodes[i].block});
    }
    auto created = store.create(kindOf(nodes[i]), o);
    RC_ASSERT(created.ok());
    uids.push_back(meta::uid(*created));
  }
  loop.runUntil([&] { return loop.idle(); }, loop.now() + minutes(5));  // nothing dangles yet
  RC_ASSERT(store.objectCount() == static_cast<std::size_t>(count) + 2);  // + default, kube-system

  DeleteOptions opts;
  opts.propagationPolicy = policy;
  RC_ASSERT(store.remove(kindOf(nodes[victim]), "default", nameOf(victim), opts).ok());
  loop.runUntil([&] { return loop.idle(); }, loop.now() + hours(1));
  RC_ASSERT(store.settled());

  // The expected collection: the victim, then (unless orphaning) every object all of whose
  // owners are collected, to a fixpoint.
  std::set<int> gone{victim};
  if (policy != PropagationPolicy::Orphan) {
    for (bool grew = true; grew;) {
      grew = false;
      for (int i = 0; i < count; ++i) {
        if (gone.count(i) || nodes[i].owners.empty()) continue;
        bool all = true;
        for (int o : nodes[i].owners) all = all && gone.count(o);
        if (all) grew = gone.insert(i).second || grew;
      }
    }
  }
  for (int i = 0; i < count; ++i) {
    auto got = store.get(kindOf(nodes[i]), "default", nameOf(i));
    RC_ASSERT(got.ok() == (gone.count(i) == 0));
    if (!got.ok()) continue;
    RC_ASSERT(!meta::isDeleting(*got));
    std::set<std::string> want;
    for (int o : nodes[i].owners)
      if (!gone.count(o)) want.insert(uids[o]);
    std::set<std::string> have;
    for (const auto& ref : meta::ownerReferences(*got)) have.insert(ref.uid);
    RC_ASSERT(have == want);
  }
}

}  // namespace
}  // namespace kun
