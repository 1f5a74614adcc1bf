#include "core/rediscluster/cluster_informers.h"

#include <fmt/format.h>

#include "core/rediscluster/labels.h"

namespace kun::rediscluster {

ClusterInformers::ClusterInformers(KubeClient& client, EventLoop& loop, const Scope& scope,
                                   const GenerateOptions& gen, const Logger& log, Duration resync) {
  const std::string ns = scope.watchNamespace();
  const std::string partOf = fmt::format("{}={}", labels::kPartOf, labels::kPartOfValue);
  // Indexed by the cluster-name label, which every selector the reconciler lists with
  // requires: a list costs the cluster's own objects, not the namespace's.
  auto make = [&](const Resource& r, std::string selector) {
    Informer::Options o;
    o.ns = ns;
    o.labelSelector = std::move(selector);
    o.resync = resync;
    if (!o.labelSelector.empty()) o.indexLabels = {std::string(labels::kName)};
    return std::make_unique<Informer>(client, loop, r, std::move(o),
                                      log.withComponent("informer-" + r.plural));
  };
  clusters_ = make(res::redisclusters, "");
  pods_ = make(res::pods, partOf);
  for (const Resource& r : ownedResources(gen)) {
    owned_.push_back(make(r, partOf));
    live_.add(*owned_.back());
  }
}

const Informer* ClusterInformers::find(const Resource& r) const {
  for (const auto& inf : owned_)
    if (inf->resource() == r) return inf.get();
  return nullptr;
}

const Informer& ClusterInformers::statefulsets() const { return *find(res::statefulsets); }
const Informer& ClusterInformers::services() const { return *find(res::services); }

void ClusterInformers::startAll() {
  clusters_->start();
  pods_->start();
  for (auto& inf : owned_) inf->start();
}

void ClusterInformers::stopAll() {
  clusters_->stop();
  pods_->stop();
  for (auto& inf : owned_) inf->stop();
}

bool ClusterInformers::synced() const {
  if (!clusters_->synced() || !pods_->synced()) return false;
  for (const auto& inf : owned_)
    if (!inf->synced()) return false;
  return true;
}

}  // namespace kun::rediscluster
