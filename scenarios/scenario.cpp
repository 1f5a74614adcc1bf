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
    case StepKind::Delete: return "delete";
  }
  return "?";
}

std::string_view deletePropagationName(DeletePropagation p) {
  switch (p) {
    case DeletePropagation::Background: return "background";
    case DeletePropagation::Foreground: return "foreground";
    case DeletePropagation::Orphan: return "orphan";
  }
  return "?";
}

}  // namespace kun::scenario
