#pragma once
// A KubeClient in front of another that can be cut off: while down, every call fails with
// Unavailable, as when one operator replica loses its connection to the API server while
// the others keep theirs.
#include "core/kube/kube_client.h"

namespace kun::test {

class SwitchableClient final : public KubeClient {
 public:
  explicit SwitchableClient(KubeClient& inner) : inner_(inner) {}
  bool down = false;
  std::uint64_t calls = 0;

  Result<Object> get(const Resource& r, std::string_view ns, std::string_view name) override {
    if (auto e = cut()) return *e;
    return inner_.get(r, ns, name);
  }
  Result<ObjectList> list(const Resource& r, std::string_view ns, const ListOptions& o) override {
    if (auto e = cut()) return *e;
    return inner_.list(r, ns, o);
  }
  Result<Object> create(const Resource& r, const Object& obj) override {
    if (auto e = cut()) return *e;
    return inner_.create(r, obj);
  }
  Result<Object> update(const Resource& r, const Object& obj) override {
    if (auto e = cut()) return *e;
    return inner_.update(r, obj);
  }
  Result<Object> updateStatus(const Resource& r, const Object& obj) override {
    if (auto e = cut()) return *e;
    return inner_.updateStatus(r, obj);
  }
  Result<Object> patch(const Resource& r, std::string_view ns, std::string_view name, const Object& p) override {
    if (auto e = cut()) return *e;
    return inner_.patch(r, ns, name, p);
  }
  Status remove(const Resource& r, std::string_view ns, std::string_view name, const DeleteOptions& o) override {
    if (auto e = cut()) return *e;
    return inner_.remove(r, ns, name, o);
  }
  Result<std::unique_ptr<Watch>> watch(const Resource& r, std::string_view ns, const WatchOptions& o,
                                       WatchHandler onEvent, WatchClosedHandler onClosed) override {
    if (auto e = cut()) return *e;
    return inner_.watch(r, ns, o, std::move(onEvent), std::move(onClosed));
  }

 private:
  std::optional<Error> cut() {
    ++calls;
    if (!down) return std::nullopt;
    return makeError(Reason::Unavailable, "connection refused (test)");
  }
  KubeClient& inner_;
};

}  // namespace kun::test
