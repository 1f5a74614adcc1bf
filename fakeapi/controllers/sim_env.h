#pragma once
// What every simulated cluster component is handed: the API (through the KubeClient seam
// only, so a component would run against a real API server too), the clock, the run's
// trace and a logger.
#include <string_view>

#include "core/kube/kube_client.h"
#include "core/runtime/event_loop.h"
#include "core/runtime/log.h"
#include "core/runtime/trace.h"

namespace kun::sim {

struct SimEnv {
  KubeClient& client;
  EventLoop& loop;
  Trace* trace = nullptr;
  Logger log{nullptr, LogLevel::Off};

  // Appends a trace entry at the current virtual time (no-op without a trace).
  void note(std::string_view component, std::string_view text) const {
    if (trace) trace->record(loop.now(), component, text);
  }
};

}  // namespace kun::sim
