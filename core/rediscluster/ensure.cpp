#include "core/rediscluster/ensure.h"

#include <fmt/format.h>

#include "core/rediscluster/update_merge.h"

namespace kun::rediscluster {

namespace {

std::string describe(const DesiredObject& d) {
  return fmt::format("{} {}", d.resource.kind, meta::key(d.object));
}

// The write's own error, with which object it was about (the server's message may not
// say). Never the object's content.
Error about(const DesiredObject& d, std::string_view verb, const Error& e) {
  Error out = e;
  out.message = fmt::format("{} {}: {}", verb, describe(d), e.message);
  return out;
}



}  // namespace

Status Ensurer::checkSynced(const std::vector<DesiredObject>& desired) const {
  for (const auto& d : desired) {
    if (!live_.synced(d.resource))
      return makeError(Reason::Unavailable, fmt::format("the cache of {} is not synced yet", d.resource.groupResource()));
  }
  return {};
}

ObjectPtr Ensurer::liveOf(const DesiredObject& d) const {
  // In place: liveOf runs for every desired object on every pass.
  return live_.get(d.resource, meta::fieldView(d.object, "namespace"), meta::fieldView(d.object, "name"));
}

EnsureOutcome Ensurer::ensure(const std::vector<DesiredObject>& desired) {
  ownerChecked_ = false;
  EnsureOutcome out;
  out.status = checkSynced(desired);
  if (!out.status) return out;
  for (const auto& d : desired) {
    out.status = ensureOne(d, liveOf(d), out.report);
    if (!out.status) break;
  }
  return out;
}

EnsureOutcome Ensurer::ensure(const std::shared_ptr<const std::vector<DesiredObject>>& desired, EnsureMemo& memo) {
  ownerChecked_ = false;
  EnsureOutcome out;
  out.status = checkSynced(*desired);
  if (!out.status) {
    memo = {};
    return out;
  }
  const std::optional<std::uint64_t> changes = live_.changes();  // before anything is read
  if (changes && memo.desired == desired && memo.liveChanges == changes) {
    out.report.unchanged = static_cast<std::int32_t>(desired->size());
    return out;
  }
  std::vector<ObjectPtr> live;
  live.reserve(desired->size());
  for (const auto& d : *desired) live.push_back(liveOf(d));
  if (memo.desired == desired && memo.live == live) {
    memo.liveChanges = changes;
    out.report.unchanged = static_cast<std::int32_t>(desired->size());
    return out;
  }
  // An object the clean pass remembered found up to date, and still the same cached object,
  // is again (ensureOne depends on nothing else): only what changed since is compared.
  const bool sameDesired = memo.desired == desired;
  for (std::size_t i = 0; i < desired->size(); ++i) {
    // Read again: a write made earlier in this pass may already be in the cache.
    live[i] = liveOf((*desired)[i]);
    if (sameDesired && live[i] && memo.live[i] == live[i]) {
      ++out.report.unchanged;
      continue;
    }
    out.status = ensureOne((*desired)[i], live[i], out.report);
    if (!out.status) break;
  }
  if (out.ok() && out.report.unchanged == static_cast<std::int32_t>(desired->size()))
    memo = EnsureMemo{desired, std::move(live), changes};
  else
    memo = {};
  return out;
}

// Before the first create of a pass: the controlling RedisCluster, asked of the API server,
// not the cache. A cache that lags a deletion (its watch lost, the relist not done yet)
// would have the operator re-create what the garbage collector just removed, and the
// collector remove it again, for as long as the lag lasts.
Status Ensurer::ownerExists(const DesiredObject& d) {
  if (ownerChecked_) return {};
  const auto owner = meta::controllerOf(d.object);
  if (!owner || owner->kind != res::redisclusters.kind) return {};
  auto got = client_.get(res::redisclusters, meta::namespaceOf(d.object), owner->name);
  if (!got) {
    if (got.error().reason != Reason::NotFound) return about(d, "check the owner of", got.error());
    return makeError(Reason::Conflict, fmt::format("RedisCluster {} is gone; not creating {}", owner->name, describe(d)));
  }
  if (meta::uid(*got) != owner->uid || meta::isDeleting(*got))
    return makeError(Reason::Conflict,
                     fmt::format("RedisCluster {} is gone or going; not creating {}", owner->name, describe(d)));
  ownerChecked_ = true;
  return {};
}

Status Ensurer::ensureOne(const DesiredObject& d, const ObjectPtr& live, EnsureReport& report) {
  if (!live) {
    if (auto st = ownerExists(d); !st) return st;
    auto made = client_.create(d.resource, d.object);
    if (!made) return about(d, "create", made.error());
    ++report.created;
    report.actions.push_back("create " + describe(d));
    return {};
  }
  if (meta::isDeleting(*live))
    return makeError(Reason::Conflict, fmt::format("{} is being deleted; it is re-created once it is gone", describe(d)));
  if (const std::string_view ctl = controllerUidIn(*live); !ctl.empty() && ctl != controllerUidIn(d.object)) {
    const auto owner = meta::controllerOf(*live);
    return makeError(Reason::AlreadyExists,
                     fmt::format("{} exists and is controlled by {} {}; not overwriting it", describe(d),
                                 owner ? owner->kind : "", owner ? owner->name : std::string(ctl)));
  }
  if (upToDate(d, *live)) {
    ++report.unchanged;
    return {};
  }
  auto written = client_.update(d.resource, mergeForUpdate(d, *live, &report.immutableKept));
  if (!written) return about(d, "update", written.error());
  ++report.updated;
  report.actions.push_back("update " + describe(d));
  return {};
}

}  // namespace kun::rediscluster
