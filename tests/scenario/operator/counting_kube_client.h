#pragma once
// A KubeClient that forwards to another and counts the writes made through it, by
// "verb resource" ("updateStatus redisclusters", "create events"): how the scenario tests
// check that a healthy cluster costs the API server nothing. Reads are not counted.
#include <cstdint>
#include <map>
#include <string>

#include "core/kube/kube_client.h"

namespace kun::scenario {

class CountingKubeClient final : public KubeClient {
 public:
  explicit CountingKubeClient(KubeClient& inner) : inner_(inner) {}

  std::uint64_t writes() const { return writes_; }
  const std::map<std::string, std::uint64_t>& writesByKind() const { return byKind_; }
  std::string describe() const {
    std::string out;
    for (const auto& [k, n] : byKind_) out += (out.empty() ? "" : ", ") + k + " x" + std::to_string(n);
    return out.empty() ? "none" : out;
  }
  void reset() {
    writes_ = 0;
    byKind_.clear();
  }

  Result<Object> get(const Resource& r, std::string_view ns, std::string_view name) override {
    return inner_.get(r, ns, name);
  }
  Result<ObjectList> list(const Resource& r, std::string_view ns, const ListOptions& opts) override {
    return inner_.list(r, ns, opts);
  }
  Result<Object> create(const Resource& r, const Object& obj) override {
    count("create", r);
    return inner_.create(r, obj);
  }
  Result<Object> update(const Resource& r, const Object& obj) override {
    count("update", r);
    return inner_.update(r, obj);
  }
  Result<Object> updateStatus(const Resource& r, const Object& obj) override {
    count("updateStatus", r);
    return inner_.updateStatus(r, obj);
  }
  Result<Object> patch(const Resource& r, std::string_view ns, std::string_view name, const Object& p) override {
    count("patch", r);
    return inner_.patch(r, ns, name, p);
  }
  Status remove(const Resource& r, std::string_view ns, std::string_view name, const DeleteOptions& opts) override {
    count("delete", r);
    return inner_.remove(r, ns, name, opts);
  }
  Result<std::unique_ptr<Watch>> watch(const Resource& r, std::string_view ns, const WatchOptions& opts,
                                       WatchHandler onEvent, WatchClosedHandler onClosed) override {
    return inner_.watch(r, ns, opts, std::move(onEvent), std::move(onClosed));
  }
  Result<ObjectPtr> getShared(const Resource& r, std::string_view ns, std::string_view name) override {
    return inner_.getShared(r, ns, name);
  }
  Result<ObjectPtr> updateShared(const Resource& r, Object obj) override {
    count("update", r);
    return inner_.updateShared(r, std::move(obj));
  }
  Result<ObjectPtr> updateStatusShared(const Resource& r, Object obj) override {
    count("updateStatus", r);
    return inner_.updateStatusShared(r, std::move(obj));
  }

 private:
  void count(const char* verb, const Resource& r) {
    ++writes_;
    ++byKind_[std::string(verb) + " " + r.plural];
  }

  KubeClient& inner_;
  std::uint64_t writes_ = 0;
  std::map<std::string, std::uint64_t> byKind_;
};

}  // namespace kun::scenario
