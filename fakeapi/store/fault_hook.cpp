#include "fakeapi/store/fault_hook.h"

#include <algorithm>

namespace kun {

std::string_view storeVerbName(StoreVerb v) {
  switch (v) {
    case StoreVerb::Get: return "get";
    case StoreVerb::List: return "list";
    case StoreVerb::Create: return "create";
    case StoreVerb::Update: return "update";
    case StoreVerb::UpdateStatus: return "updateStatus";
    case StoreVerb::Patch: return "patch";
    case StoreVerb::Delete: return "delete";
    case StoreVerb::Watch: return "watch";
  }
  return "?";
}

bool isWrite(StoreVerb v) {
  return v == StoreVerb::Create || v == StoreVerb::Update || v == StoreVerb::UpdateStatus ||
         v == StoreVerb::Patch || v == StoreVerb::Delete;
}

Error tooManyRequests(int retryAfterSeconds, std::string message) {
  Error e = makeError(Reason::TooManyRequests, std::move(message));
  e.retryAfterSeconds = retryAfterSeconds;
  return e;
}

FaultHook::RuleId FaultHook::add(FaultRule rule) {
  const RuleId id = nextId_++;
  rules_.emplace(id, std::move(rule));
  return id;
}

bool FaultHook::remove(RuleId id) { return rules_.erase(id) > 0; }

void FaultHook::clear() { rules_.clear(); }

void FaultHook::setWatchDelay(Duration d) {
  watchDelay_ = std::max(d, Duration{0});
  if (setDelay_) setDelay_(watchDelay_);
}

void FaultHook::closeAllWatches(const Error& why) {
  if (closeAll_) closeAll_(why);
}

void FaultHook::bindWatchControls(std::function<void(Duration)> setDelay,
                                  std::function<void(const Error&)> closeAll) {
  setDelay_ = std::move(setDelay);
  closeAll_ = std::move(closeAll);
  if (setDelay_) setDelay_(watchDelay_);
}

bool FaultHook::matches(const FaultRule& rule, StoreVerb verb, const std::string& groupResource, TimePoint now) {
  if (now < rule.from || now >= rule.until) return false;
  if (!rule.verbs.empty() && std::find(rule.verbs.begin(), rule.verbs.end(), verb) == rule.verbs.end()) return false;
  if (!rule.resources.empty() &&
      std::find(rule.resources.begin(), rule.resources.end(), groupResource) == rule.resources.end())
    return false;
  return true;
}

std::optional<FaultHook::Decision> FaultHook::onCall(StoreVerb verb, const Resource& r, TimePoint now) {
  if (rules_.empty() && goneWatches_ == 0) return std::nullopt;  // the common case, kept cheap
  const std::string groupResource = r.groupResource();
  if (verb == StoreVerb::Watch && goneWatches_ > 0) {
    --goneWatches_;
    ++injected_;
    return Decision{makeError(Reason::Gone, "too old resource version (injected)"), false};
  }
  for (const auto& [id, rule] : rules_) {
    if (!matches(rule, verb, groupResource, now)) continue;
    // A draw only for a matching rule, so rules for other calls do not shift the stream.
    if (!random_.chance(rule.num, rule.den)) continue;
    ++injected_;
    return Decision{rule.error, rule.afterCommit && isWrite(verb)};
  }
  return std::nullopt;
}

}  // namespace kun
