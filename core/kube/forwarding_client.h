#pragma once
// A KubeClient that passes every call to another one, with a hook around each call, for
// wrappers that observe or adjust calls without reimplementing the interface: counting
// the operator's writes (CountingClient), reading the fake store past its fault hook
// (fakeapi/store/unfaulted_client.h).
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "core/kube/kube_client.h"

namespace kun {

class ForwardingClient : public KubeClient {
 public:
  explicit ForwardingClient(KubeClient& inner) : inner_(inner) {}

  Result<Object> get(const Resource& r, std::string_view ns, std::string_view name) override;
  Result<ObjectList> list(const Resource& r, std::string_view ns, const ListOptions& opts = {}) override;
  Result<Object> create(const Resource& r, const Object& obj) override;
  Result<Object> update(const Resource& r, const Object& obj) override;
  Result<Object> updateStatus(const Resource& r, const Object& obj) override;
  Result<Object> patch(const Resource& r, std::string_view ns, std::string_view name,
                       const Object& mergePatch) override;
  Status remove(const Resource& r, std::string_view ns, std::string_view name,
                const DeleteOptions& opts = {}) override;
  Result<std::unique_ptr<Watch>> watch(const Resource& r, std::string_view ns, const WatchOptions& opts,
                                       WatchHandler onEvent, WatchClosedHandler onClosed) override;
  Result<ObjectPtr> getShared(const Resource& r, std::string_view ns, std::string_view name) override;
  Result<std::vector<ObjectPtr>> listShared(const Resource& r, std::string_view ns, const ListOptions& opts = {}) override;
  Result<ObjectPtr> createShared(const Resource& r, Object obj) override;
  Result<ObjectPtr> updateShared(const Resource& r, Object obj) override;
  Result<ObjectPtr> updateStatusShared(const Resource& r, Object obj) override;
  Result<ObjectPtr> patchShared(const Resource& r, std::string_view ns, std::string_view name,
                                const Object& mergePatch) override;

 protected:
  // Around every call. verb: "get", "list", "watch", "create", "update", "updateStatus",
  // "patch", "delete"; write is true for the last five.
  virtual void enter(std::string_view verb, const Resource& r, bool write) {
    (void)verb, (void)r, (void)write;
  }
  virtual void leave() {}

 private:
  // Calls f with enter/leave around it.
  template <typename F>
  auto around(std::string_view verb, const Resource& r, bool write, F&& f) {
    enter(verb, r, write);
    struct Leave {
      ForwardingClient* c;
      ~Leave() { c->leave(); }
    } l{this};
    return f();
  }

  KubeClient& inner_;
};

// Counts the calls that ask the API server to change something, whatever their answer, by
// "verb resource" ("updateStatus redisclusters.redis.kun"): the harness and the scenario
// tests wrap the operator's client in one to check that a healthy cluster costs no API
// writes.
class CountingClient final : public ForwardingClient {
 public:
  using ForwardingClient::ForwardingClient;
  std::uint64_t writes() const { return writes_; }
  std::uint64_t reads() const { return reads_; }  // get, list and watch calls
  const std::map<std::string, std::uint64_t>& writesByKind() const { return byKind_; }
  // "patch events x3, updateStatus redisclusters.redis.kun x1", or "none".
  std::string describe() const;
  void reset();

 protected:
  void enter(std::string_view verb, const Resource& r, bool write) override;

 private:
  std::uint64_t writes_ = 0, reads_ = 0;
  std::map<std::string, std::uint64_t> byKind_;
};

}  // namespace kun
