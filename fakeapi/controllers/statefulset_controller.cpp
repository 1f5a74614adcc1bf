#include "fakeapi/controllers/statefulset_controller.h"

#include <algorithm>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "core/api/object_members.h"
#include "core/api/object_ptr.h"
#include "core/kube/selector.h"
#include "fakeapi/controllers/pod_state.h"
#include "fakeapi/controllers/statefulset_identity.h"
#include "fakeapi/controllers/status_update.h"

namespace kun::sim {
namespace {

const Object& at(const Object& o, const char* key) {
  static const Object kNull;
  const Object* v = memberOf(o, key);
  return v ? *v : kNull;
}

std::int64_t intAt(const Object& o, const char* key, std::int64_t def) {
  const Object& v = at(o, key);
  return v.is_number_integer() ? v.get<std::int64_t>() : def;
}

std::string strAt(const Object& o, const char* key, const std::string& def = {}) {
  const Object& v = at(o, key);
  return v.is_string() ? v.get<std::string>() : def;
}

bool ownedBy(const Object& o, const std::string& uid) { return meta::controlledBy(o, uid); }

bool healthy(const Object& pod) { return isRunningAndReady(pod); }

// What one sync knows about the set it works on.
struct SetView {
  ObjectPtr set;  // the informer's copy, shared (each sync used to copy the whole set)
  std::string ns, name, uid;
  int replicas = 1;
  bool parallel = false;
  bool onDelete = false;
  int partition = 0;
};

}  // namespace

StatefulSetController::StatefulSetController(SimEnv env, StatefulSetControllerConfig cfg)
    : env_(env), cfg_(cfg),
      sets_(env.client, env.loop, res::statefulsets, {}, env.log),
      pods_(env.client, env.loop, res::pods, {}, env.log),
      events_(env.client, env.loop, "statefulset-controller") {
  sets_.addHandler([this](WatchEventType, const ObjectPtr& obj, const ObjectPtr&) {
    enqueue(meta::namespaceOf(*obj), meta::name(*obj));
  });
  pods_.addHandler([this](WatchEventType, const ObjectPtr& obj, const ObjectPtr&) {
    const Object* c = meta::controllerRef(*obj);
    if (c && meta::refField(*c, "kind") == "StatefulSet") enqueue(meta::namespaceOf(*obj), std::string(meta::refField(*c, "name")));
  });
}

StatefulSetController::~StatefulSetController() { stop(); }

void StatefulSetController::start() {
  if (running_) return;
  running_ = true;
  sets_.start();
  pods_.start();
}

void StatefulSetController::stop() {
  running_ = false;
  sets_.stop();
  pods_.stop();
  if (drainTimer_) env_.loop.cancel(drainTimer_);
  drainTimer_ = 0;
  for (auto& [k, t] : retryTimers_) env_.loop.cancel(t);
  retryTimers_.clear();
}

void StatefulSetController::enqueue(const std::string& ns, const std::string& name) {
  if (!running_) return;
  dirty_.insert({ns, name});
  if (!drainTimer_) drainTimer_ = env_.loop.post([this] { drain(); });
}

void StatefulSetController::drain() {
  drainTimer_ = 0;
  while (running_ && !dirty_.empty()) {
    const Key key = *dirty_.begin();
    dirty_.erase(dirty_.begin());
    if (auto t = retryTimers_.find(key); t != retryTimers_.end()) {
      env_.loop.cancel(t->second);
      retryTimers_.erase(t);
    }
    if (sync(key)) backoff_.erase(key); else retryLater(key);
  }
}

void StatefulSetController::retryLater(const Key& key) {
  Duration& b = backoff_[key];
  b = b.count() == 0 ? cfg_.retryMin : std::min(b * 2, cfg_.retryMax);
  if (retryTimers_.count(key)) return;
  retryTimers_[key] = env_.loop.runAfter(b, [this, key] {
    retryTimers_.erase(key);
    enqueue(key.first, key.second);
  });
}

bool StatefulSetController::sync(const Key& key) {
  ++syncs_;
  // Reads come from the informers' caches: every write of ours comes back as a watch
  // event, and its sync runs after it, so the caches are as fresh as a read would be
  // (a stale one costs at most an AlreadyExists and a retry).
  const ObjectPtr cached = sets_.get(key.first, key.second);
  if (!cached) return true;
  SetView v;
  v.set = cached;
  if (meta::isDeleting(*v.set)) return true;  // the garbage collector takes the pods
  v.ns = key.first;
  v.name = key.second;
  v.uid = meta::uid(*v.set);
  const Object& spec = at(*v.set, "spec");
  v.replicas = static_cast<int>(std::max<std::int64_t>(0, intAt(spec, "replicas", 1)));
  v.parallel = strAt(spec, "podManagementPolicy") == "Parallel";
  const Object& strategy = at(spec, "updateStrategy");
  v.onDelete = strAt(strategy, "type") == "OnDelete";
  v.partition = static_cast<int>(std::max<std::int64_t>(0, intAt(at(strategy, "rollingUpdate"), "partition", 0)));
  SpecMemo& memo = specMemo_[v.uid];
  if (const std::int64_t generation = meta::generation(*v.set); memo.generation != generation) {
    memo = SpecMemo{};
    memo.generation = generation;
  }
  if (!memo.selector) {
    memo.selector = LabelSelector::fromObject(at(spec, "selector"));
    if (*memo.selector) memo.selectorText = (*memo.selector)->toString();
  }
  const Result<LabelSelector>& sel = *memo.selector;
  if (!sel || sel->empty()) {
    events_.record(*v.set, EventType::Warning, "InvalidSelector",
                   sel ? std::string("empty selector is not allowed") : sel.error().message);
    return true;  // nothing to retry until the set changes
  }
  const LabelSelector& selector = sel.value();  // the memo's, not a copy per sync
  const Object& podTemplate = at(spec, "template");
  const std::string& selText = memo.selectorText;

  // --- revisions ---
  auto revList = env_.client.listShared(res::controllerrevisions, v.ns, ListOptions{selText, {}});
  if (!revList) return false;
  std::map<std::string, ObjectPtr> revisions;  // owned, by name
  std::int64_t maxRevision = 0;
  for (auto& r : *revList) {
    if (!ownedBy(*r, v.uid)) continue;
    maxRevision = std::max(maxRevision, intAt(*r, "revision", 0));
    revisions.emplace(meta::name(*r), std::move(r));
  }
  // The template is spec: the same generation, the same hash (serialising it to hash it
  // was a tenth of a simulated run, one sync per pod event).
  if (memo.templateHash.empty()) memo.templateHash = templateHash(podTemplate);
  const std::string hash = memo.templateHash;
  const std::string updateRev = revisionName(v.name, hash);
  if (auto it = revisions.find(updateRev); it == revisions.end()) {
    auto made = env_.client.createShared(res::controllerrevisions,
                                         newControllerRevision(*v.set, podTemplate, hash, maxRevision + 1));
    if (made.is(Reason::AlreadyExists)) return false;  // someone else's object: retry later
    if (!made) return false;
    maxRevision += 1;
    revisions.emplace(updateRev, std::move(made.value()));
    env_.note("statefulset", fmt::format("revision {}/{} {}", v.ns, updateRev, maxRevision));
  } else if (intAt(*it->second, "revision", 0) != maxRevision) {
    // Rolling back to an older template makes its revision the newest again.
    auto bumped = env_.client.patchShared(res::controllerrevisions, v.ns, updateRev, Object{{"revision", maxRevision + 1}});
    if (!bumped) return false;
    maxRevision += 1;
    it->second = std::move(bumped.value());
  }
  const Object& oldStatus = at(*v.set, "status");
  std::string currentRev = strAt(oldStatus, "currentRevision");
  if (currentRev.empty() || !revisions.count(currentRev)) currentRev = updateRev;
  // Only a pod created below the partition is made from it: extracted then, not per sync.
  std::optional<Object> currentTemplate;
  const ObjectPtr currentRevision = revisions.at(currentRev);

  // --- pods ---
  std::vector<ObjectPtr> slots(static_cast<std::size_t>(v.replicas));
  std::vector<std::pair<int, ObjectPtr>> condemned;
  for (const ObjectPtr& p : pods_.list(v.ns, selector)) {
    if (!ownedBy(*p, v.uid)) continue;
    auto ord = statefulSetOrdinal(v.name, meta::fieldView(*p, "name"));
    if (!ord) continue;
    if (*ord < v.replicas) slots[static_cast<std::size_t>(*ord)] = p;
    else condemned.emplace_back(*ord, p);
  }
  // Pods this sync deleted: counted as terminating in the status it writes.
  std::set<std::string, std::less<>> deletedNow;
  // A pod's readiness is asked up to four times a sync: read once per pod object (they are
  // all held for the whole sync, so an address names one object).
  std::vector<std::pair<const Object*, bool>> healthSeen;
  auto healthyPod = [&healthSeen](const Object& p) {
    for (const auto& [o, h] : healthSeen)
      if (o == &p) return h;
    const bool h = healthy(p);
    healthSeen.emplace_back(&p, h);
    return h;
  };
  std::sort(condemned.begin(), condemned.end(), [](const auto& a, const auto& b) { return a.first < b.first; });

  bool ok = true;
  auto deletePod = [&](const Object& pod, std::string_view why) {
    DeleteOptions opts;
    opts.preconditionUid = meta::uid(pod);
    auto st = env_.client.remove(res::pods, v.ns, meta::name(pod), opts);
    if (!st && !st.is(Reason::NotFound)) {
      ok = false;
      events_.record(*v.set, EventType::Warning, "FailedDelete",
                     fmt::format("delete Pod {} in StatefulSet {} failed error: {}", meta::name(pod), v.name, st.error().message));
      return false;
    }
    events_.record(*v.set, EventType::Normal, "SuccessfulDelete",
                   fmt::format("delete Pod {} in StatefulSet {} successful", meta::name(pod), v.name));
    env_.note("statefulset", fmt::format("delete pod {}/{} ({})", v.ns, meta::name(pod), why));
    deletedNow.insert(meta::name(pod));
    return true;
  };
  auto ensureClaims = [&](int ordinal) {
    for (const Object& claim : newClaims(*v.set, ordinal)) {
      auto cur = env_.client.getShared(res::persistentvolumeclaims, v.ns, meta::name(claim));
      if (cur) {
        if (meta::isDeleting(**cur)) {
          events_.record(*v.set, EventType::Warning, "FailedCreate",
                         fmt::format("create Claim {} for Pod {} in StatefulSet {} failed error: the claim is being deleted",
                                     meta::name(claim), statefulSetPodName(v.name, ordinal), v.name));
          return false;
        }
        continue;
      }
      if (!cur.is(Reason::NotFound)) return false;
      auto made = env_.client.createShared(res::persistentvolumeclaims, claim);
      if (!made && !made.is(Reason::AlreadyExists)) {
        events_.record(*v.set, EventType::Warning, "FailedCreate",
                       fmt::format("create Claim {} for Pod {} in StatefulSet {} failed error: {}", meta::name(claim),
                                   statefulSetPodName(v.name, ordinal), v.name, made.error().message));
        return false;
      }
      events_.record(*v.set, EventType::Normal, "SuccessfulCreate",
                     fmt::format("create Claim {} Pod {} in StatefulSet {} success", meta::name(claim),
                                 statefulSetPodName(v.name, ordinal), v.name));
      env_.note("statefulset", fmt::format("create claim {}/{}", v.ns, meta::name(claim)));
    }
    return true;
  };
  auto createPod = [&](int ordinal) -> bool {
    if (!ensureClaims(ordinal)) return false;
    const bool atCurrent = !v.onDelete && ordinal < v.partition;
    const std::string& rev = atCurrent ? currentRev : updateRev;
    if (atCurrent && !currentTemplate) currentTemplate = revisionTemplate(*currentRevision);
    Object pod = newStatefulSetPod(*v.set, atCurrent ? *currentTemplate : podTemplate, ordinal, rev);
    const std::string podName = meta::name(pod);
    auto made = env_.client.createShared(res::pods, std::move(pod));
    if (!made) {
      events_.record(*v.set, EventType::Warning, "FailedCreate",
                     fmt::format("create Pod {} in StatefulSet {} failed error: {}", podName, v.name, made.error().message));
      return false;
    }
    events_.record(*v.set, EventType::Normal, "SuccessfulCreate",
                   fmt::format("create Pod {} in StatefulSet {} successful", podName, v.name));
    env_.note("statefulset", fmt::format("create pod {}/{} rev={}", v.ns, podName, rev));
    slots[static_cast<std::size_t>(ordinal)] = std::move(made.value());
    return true;
  };

  const bool monotonic = !v.parallel;
  bool blocked = false;  // an OrderedReady step is waiting for the world

  // Failed pods are deleted, to be recreated once they are gone.
  for (auto& slot : slots) {
    if (slot && isTerminal(*slot) && !meta::isDeleting(*slot)) {
      events_.record(*v.set, EventType::Warning, "RecreatingFailedPod",
                     fmt::format("StatefulSet {}/{} is recreating failed Pod {}", v.ns, v.name, meta::name(*slot)));
      deletePod(*slot, "failed");
    }
  }
  // Create and wait, lowest ordinal first.
  for (int i = 0; i < v.replicas && !blocked; ++i) {
    auto& slot = slots[static_cast<std::size_t>(i)];
    if (!slot) {
      if (!createPod(i)) {
        ok = false;
        blocked = true;
        break;
      }
      if (monotonic) blocked = true;
      continue;
    }
    if (deletedNow.count(meta::fieldView(*slot, "name")) || meta::isDeleting(*slot) || !healthyPod(*slot)) {
      if (monotonic) blocked = true;
    }
  }
  // Scale down, highest ordinal first.
  if (!blocked) {
    const Object* firstUnhealthy = nullptr;
    for (const auto& [ord, pod] : condemned) {
      if (!healthyPod(*pod)) {
        firstUnhealthy = pod.get();
        break;
      }
    }
    for (auto it = condemned.rbegin(); it != condemned.rend() && !blocked; ++it) {
      const Object& pod = *it->second;
      if (meta::isDeleting(pod)) {
        if (monotonic) blocked = true;
        continue;
      }
      if (monotonic && firstUnhealthy && firstUnhealthy != &pod) {
        blocked = true;
        break;
      }
      if (!deletePod(pod, "scale down")) {
        blocked = true;
        break;
      }
      if (monotonic) blocked = true;
    }
  }
  // Rolling update, highest ordinal first, down to the partition.
  if (!blocked && !v.onDelete) {
    for (int target = v.replicas - 1; target >= v.partition; --target) {
      const auto& slot = slots[static_cast<std::size_t>(target)];
      if (!slot) break;
      if (labelView(*slot, kRevisionLabel) != updateRev && !meta::isDeleting(*slot)) {
        deletePod(*slot, "rolling update");
        break;
      }
      if (!healthyPod(*slot)) break;
    }
  }

  // --- status, from what this sync knows exists now ---
  std::int64_t count = 0, ready = 0, current = 0, updated = 0;
  std::set<std::string, std::less<>> liveRevisions{currentRev, updateRev};
  auto tally = [&](const Object& p) {
    const bool deleting = meta::isDeleting(p) || deletedNow.count(meta::fieldView(p, "name"));
    ++count;
    if (healthyPod(p) && !deleting) ++ready;
    // Read in place, and kept only when new: pods mostly carry a revision already there.
    const std::string_view rev = labelView(p, kRevisionLabel);
    if (liveRevisions.find(rev) == liveRevisions.end()) liveRevisions.emplace(rev);
    if (deleting) return;
    if (rev == currentRev) ++current;
    if (rev == updateRev) ++updated;
  };
  for (const auto& p : slots)
    if (p) tally(*p);
  for (const auto& [ord, p] : condemned) tally(*p);
  std::string statusCurrentRev = currentRev;
  // completeRollingUpdate: every pod updated and ready makes the update revision current.
  if (!v.onDelete && updated == count && ready == count) {
    statusCurrentRev = updateRev;
    current = updated;
  }
  const std::pair<const char*, Object> fields[] = {
      {"observedGeneration", meta::generation(*v.set)},
      {"replicas", count},
      {"readyReplicas", ready},
      {"availableReplicas", ready},
      {"currentReplicas", current},
      {"updatedReplicas", updated},
      {"currentRevision", statusCurrentRev},
      {"updateRevision", updateRev},
      {"collisionCount", 0},
  };
  auto fill = [&](Object& status) {
    for (const auto& [k, val] : fields) status[k] = val;
  };
  // Whether filling the cached status would change it, read field by field (not on a copy).
  bool changes = !oldStatus.is_object();
  for (const auto& [k, val] : fields) {
    if (changes) break;
    const Object* was = memberOf(oldStatus, k);
    changes = !was || *was != val;
  }
  Result<bool> st = false;
  if (changes) st = mutateStatus(env_.client, res::statefulsets, v.ns, v.name, v.uid, fill);
  if (!st && !st.is(Reason::NotFound)) return false;
  if (st && *st) {
    env_.note("statefulset", fmt::format("status {}/{} replicas={} ready={} current={} updated={} rev={}/{}", v.ns,
                                         v.name, count, ready, current, updated, statusCurrentRev, updateRev));
  }

  // --- history: keep revisionHistoryLimit unused revisions ---
  const std::int64_t limit = intAt(spec, "revisionHistoryLimit", 10);
  std::vector<std::pair<std::int64_t, std::string>> unused;
  for (const auto& [name, r] : revisions) {
    if (!liveRevisions.count(name) && name != statusCurrentRev) unused.emplace_back(intAt(*r, "revision", 0), name);
  }
  std::sort(unused.begin(), unused.end());
  for (std::size_t i = 0; static_cast<std::int64_t>(unused.size() - i) > limit; ++i) {
    auto gone = env_.client.remove(res::controllerrevisions, v.ns, unused[i].second);
    if (!gone && !gone.is(Reason::NotFound)) ok = false;
  }
  return ok;
}

}  // namespace kun::sim
