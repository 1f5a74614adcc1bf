#pragma once
// The fake store's fault hook: what the chaos layer turns to make the API server misbehave.
// Every KubeClient call on the store asks the hook first. Rules fail chosen verbs of
// chosen resources with a chosen Error, at an integer rate drawn from the hook's Random, in
// a time window; the watch controls delay deliveries, close every running watch, or make
// the next watch() calls fail with Gone.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/kube/resource.h"
#include "core/runtime/random.h"
#include "core/runtime/result.h"
#include "core/runtime/time.h"

namespace kun {

enum class StoreVerb { Get, List, Create, Update, UpdateStatus, Patch, Delete, Watch };
std::string_view storeVerbName(StoreVerb v);  // "get", "list", ..., "updateStatus"
bool isWrite(StoreVerb v);

struct FaultRule {
  std::vector<StoreVerb> verbs;        // empty: every verb
  std::vector<std::string> resources;  // group-resources ("pods", "statefulsets.apps"); empty: all
  Error error{Reason::Unavailable, "the server is currently unable to handle the request (injected)", {}, 0};
  std::uint64_t num = 1, den = 1;      // fail num of every den matching calls
  TimePoint from{};                    // active while from <= now < until
  TimePoint until = TimePoint::max();
  // Writes only: apply the write, then report the error, as when a reply is lost after the
  // server committed. The caller cannot tell which happened — exactly the real ambiguity.
  bool afterCommit = false;
};

// 429 with Retry-After, as an overloaded API server answers.
Error tooManyRequests(int retryAfterSeconds, std::string message = "too many requests (injected)");

class FaultHook {
 public:
  using RuleId = std::uint64_t;
  struct Decision {
    Error error;
    bool afterCommit = false;
  };

  explicit FaultHook(Random random) : random_(random) {}

  RuleId add(FaultRule rule);
  bool remove(RuleId id);
  void clear();  // rules only; watch delay and pending Gone are separate
  std::size_t ruleCount() const { return rules_.size(); }

  // Every watch event (and close notice) is delivered this much later than it happened;
  // order is kept. Zero: deliver on the next loop turn.
  void setWatchDelay(Duration d);
  Duration watchDelay() const { return watchDelay_; }
  // Closes every running watch now: each gets onClosed(why) (asynchronously) and no more
  // events, as when the API server restarts.
  void closeAllWatches(const Error& why = makeError(Reason::Unavailable, "watch closed (injected)"));
  // The next n watch() calls fail with Gone, as after the server compacted its history.
  void failNextWatchesWithGone(int n = 1) { goneWatches_ += n; }

  // --- called by the store ---
  // The fault for this call, if one fires. Watch calls also consume failNextWatchesWithGone.
  std::optional<Decision> onCall(StoreVerb verb, const Resource& r, TimePoint now);
  std::uint64_t injected() const { return injected_; }
  // The store connects the watch controls to its watches.
  void bindWatchControls(std::function<void(Duration)> setDelay, std::function<void(const Error&)> closeAll);

 private:
  static bool matches(const FaultRule& rule, StoreVerb verb, const std::string& groupResource, TimePoint now);

  Random random_;
  std::map<RuleId, FaultRule> rules_;  // applied in the order they were added
  RuleId nextId_ = 1;
  Duration watchDelay_{0};
  int goneWatches_ = 0;
  std::uint64_t injected_ = 0;
  std::function<void(Duration)> setDelay_;
  std::function<void(const Error&)> closeAll_;
};

}  // namespace kun
