#include "core/kube/forwarding_client.h"

namespace kun {

Result<Object> ForwardingClient::get(const Resource& r, std::string_view ns, std::string_view name) {
  return around("get", r, false, [&] { return inner_.get(r, ns, name); });
}

Result<ObjectList> ForwardingClient::list(const Resource& r, std::string_view ns, const ListOptions& opts) {
  return around("list", r, false, [&] { return inner_.list(r, ns, opts); });
}

Result<Object> ForwardingClient::create(const Resource& r, const Object& obj) {
  return around("create", r, true, [&] { return inner_.create(r, obj); });
}

Result<Object> ForwardingClient::update(const Resource& r, const Object& obj) {
  return around("update", r, true, [&] { return inner_.update(r, obj); });
}

Result<Object> ForwardingClient::updateStatus(const Resource& r, const Object& obj) {
  return around("updateStatus", r, true, [&] { return inner_.updateStatus(r, obj); });
}

Result<Object> ForwardingClient::patch(const Resource& r, std::string_view ns, std::string_view name,
                                       const Object& mergePatch) {
  return around("patch", r, true, [&] { return inner_.patch(r, ns, name, mergePatch); });
}

Status ForwardingClient::remove(const Resource& r, std::string_view ns, std::string_view name,
                                const DeleteOptions& opts) {
  return around("delete", r, true, [&] { return inner_.remove(r, ns, name, opts); });
}

Result<std::unique_ptr<Watch>> ForwardingClient::watch(const Resource& r, std::string_view ns,
                                                       const WatchOptions& opts, WatchHandler onEvent,
                                                       WatchClosedHandler onClosed) {
  return around("watch", r, false, [&] { return inner_.watch(r, ns, opts, std::move(onEvent), std::move(onClosed)); });
}

Result<ObjectPtr> ForwardingClient::getShared(const Resource& r, std::string_view ns, std::string_view name) {
  return around("get", r, false, [&] { return inner_.getShared(r, ns, name); });
}

Result<std::vector<ObjectPtr>> ForwardingClient::listShared(const Resource& r, std::string_view ns,
                                                            const ListOptions& opts) {
  return around("list", r, false, [&] { return inner_.listShared(r, ns, opts); });
}

Result<ObjectPtr> ForwardingClient::createShared(const Resource& r, Object obj) {
  return around("create", r, true, [&] { return inner_.createShared(r, std::move(obj)); });
}

Result<ObjectPtr> ForwardingClient::patchShared(const Resource& r, std::string_view ns, std::string_view name,
                                                const Object& mergePatch) {
  return around("patch", r, true, [&] { return inner_.patchShared(r, ns, name, mergePatch); });
}

Result<ObjectPtr> ForwardingClient::updateShared(const Resource& r, Object obj) {
  return around("update", r, true, [&] { return inner_.updateShared(r, std::move(obj)); });
}

Result<ObjectPtr> ForwardingClient::updateStatusShared(const Resource& r, Object obj) {
  return around("updateStatus", r, true, [&] { return inner_.updateStatusShared(r, std::move(obj)); });
}

void CountingClient::enter(std::string_view verb, const Resource& r, bool write) {
  if (!write) {
    ++reads_;
    return;
  }
  ++writes_;
  ++byKind_[std::string(verb) + " " + r.groupResource()];
}

std::string CountingClient::describe() const {
  std::string out;
  for (const auto& [k, n] : byKind_) out += (out.empty() ? "" : ", ") + k + " x" + std::to_string(n);
  return out.empty() ? "none" : out;
}

void CountingClient::reset() {
  writes_ = reads_ = 0;
  byKind_.clear();
}

}  // namespace kun
