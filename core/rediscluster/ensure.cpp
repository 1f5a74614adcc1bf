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

EnsureOutcome Ensurer::ensure(const std::vector<DesiredObject>& desired) {
  EnsureOutcome out;
  for (const auto& d : desired) {
    if (!live_.synced(d.resource)) {
      out.status = makeError(Reason::Unavailable,
                             fmt::format("the cache of {} is not synced yet", d.resource.groupResource()));
      return out;
    }
  }
  for (const auto& d : desired) {
    out.status = ensureOne(d, out.report);
    if (!out.status) break;
  }
  return out;
}

Status Ensurer::ensureOne(const DesiredObject& d, EnsureReport& report) {
  const ObjectPtr live = live_.get(d.resource, meta::namespaceOf(d.object), meta::name(d.object));
  if (!live) {
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
