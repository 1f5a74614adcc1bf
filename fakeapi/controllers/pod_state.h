#pragma once
// What a Pod object says about its state, and the one way this package writes a status
// condition (lastTransitionTime moves only when the status value changes).
#include <string>
#include <string_view>

#include "core/api/object.h"

namespace kun::sim {

std::string podPhase(const Object& pod);     // "" when unset
std::string podNodeName(const Object& pod);  // spec.nodeName
std::string podIP(const Object& pod);        // status.podIP
// The condition of that type in status.conditions, or nullptr.
const Object* podCondition(const Object& pod, std::string_view type);
bool podConditionTrue(const Object& pod, std::string_view type);
// Running, Ready=True and not being deleted: what OrderedReady waits for.
bool isRunningAndReady(const Object& pod);
bool isTerminal(const Object& pod);  // Succeeded or Failed
int podRestartCount(const Object& pod, std::string_view container);  // -1 if not reported

// Sets condition `type` in status.conditions (an array, created if absent). The transition
// time is `now` when the status value changed, otherwise the old one is kept.
void setCondition(Object& status, std::string_view type, std::string_view value,
                  std::string_view reason, std::string_view message, const std::string& now);

}  // namespace kun::sim
