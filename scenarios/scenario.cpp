#include "scenarios/scenario.h"

namespace kun::scenario {

std::string_view stepKindName(StepKind k) {
  switch (k) {
    case StepKind::Apply: return "apply";
    case StepKind::Patch: return "patch";
    case StepKind::Fault: return "fault";
    case StepKind::Write: return "write";
    case StepKind::Read: return "read";
    case StepKind::WaitFor: return "waitFor";
    case StepKind::Assert: return "assert";
    case StepKind::Sleep: return "sleep";
  }
  return "?";
}

}  // namespace kun::scenario
