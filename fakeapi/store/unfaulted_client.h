#pragma once
// The fake store as the harness sees it: every call skips the fault hook (no injected
// error, no draw from the hook's random stream), so the checks, the fault targets and the
// scenario's own steps read and change the world without changing how a run unfolds.
#include <deque>

#include "core/kube/forwarding_client.h"
#include "fakeapi/store/fake_store.h"

namespace kun {

class UnfaultedClient final : public ForwardingClient {
 public:
  explicit UnfaultedClient(FakeStore& store) : ForwardingClient(store), store_(store) {}

 protected:
  void enter(std::string_view, const Resource&, bool) override { bypass_.emplace_back(store_); }
  void leave() override { bypass_.pop_back(); }

 private:
  FakeStore& store_;
  std::deque<FakeStore::FaultBypass> bypass_;  // one per call in progress (calls nest through watches)
};

}  // namespace kun
