#include "core/controller/controller.h"

#include "core/controller/inline_worker.h"
#include "core/controller/worker_threads_real.h"

namespace kun {

namespace {

// Everything but status and the version stamps: what a spec/metadata change moves.
bool onlyStatusChanged(const Object& now, const Object& old) {
  if (meta::generation(now) != meta::generation(old)) return false;
  if (meta::deletionTimestamp(now) != meta::deletionTimestamp(old)) return false;
  auto part = [](const Object& o, const char* k) -> const Object* {
    auto m = o.find("metadata");
    if (m == o.end()) return nullptr;
    auto it = m->find(k);
    return it == m->end() ? nullptr : &*it;
  };
  for (const char* k : {"labels", "annotations", "finalizers", "ownerReferences"}) {
    const Object* a = part(now, k);
    const Object* b = part(old, k);
    if ((a == nullptr) != (b == nullptr) || (a && *a != *b)) return false;
  }
  return meta::resourceVersion(now) != meta::resourceVersion(old);  // same version: a resync
}

}  // namespace

Controller::Controller(ControllerSeams seams, ControllerOptions opts, ReconcileFn fn)
    : seams_(std::move(seams)),
      opts_(std::move(opts)),
      fn_(std::move(fn)),
      queue_(seams_.loop, opts_.queue),
      owners_(queue_, OwnerKind{}) {
  ReconcileFn gate = [this](const std::string& key) { return gated(key); };
  if (opts_.workers > 0)
    threads_ = std::make_unique<WorkerThreads>(queue_, gate, opts_.workers);
  else
    inline_ = std::make_unique<InlineWorker>(seams_.loop, queue_, gate);
  if (opts_.leaderElection) {
    LeaderElectionOptions le = *opts_.leaderElection;
    auto started = le.onStartedLeading;
    auto stopped = le.onStoppedLeading;
    le.onStartedLeading = [this, started] {
      startActing();
      if (started) started();
    };
    le.onStoppedLeading = [this, stopped] {
      stopActing();
      if (stopped) stopped();
    };
    elector_ = std::make_unique<LeaderElector>(seams_.client, seams_.loop, std::move(le),
                                               seams_.log.withComponent("leader-election"), seams_.random,
                                               seams_.trace);
  }
  owners_.setFilter([this](const std::string& key) {
    if (!primary_) return true;
    const auto slash = key.find('/');
    ObjectPtr o = slash == std::string::npos ? primary_->get("", key)
                                             : primary_->get(key.substr(0, slash), key.substr(slash + 1));
    return !o || accepts(*o);
  });
}

Controller::~Controller() { stop(); }

void Controller::setPrimary(Informer& primary, std::function<bool(const Object&)> accept) {
  primary_ = &primary;
  accept_ = std::move(accept);
  informers_.insert(informers_.begin(), &primary);
  primary.addHandler([this](WatchEventType type, const ObjectPtr& obj, const ObjectPtr& old) {
    if (type == WatchEventType::Bookmark || !obj || !accepts(*obj)) return;
    if (type == WatchEventType::Modified && old && !opts_.enqueueStatusOnlyChanges && onlyStatusChanged(*obj, *old))
      return;
    queue_.add(meta::key(*obj));
  });
}

void Controller::addOwned(Informer& owned, std::vector<const Informer*> intermediates) {
  informers_.push_back(&owned);
  owners_.watch(owned, std::move(intermediates));
}

void Controller::addCache(Informer& inf) { informers_.push_back(&inf); }
void Controller::setOwnerKind(OwnerKind kind) { owners_.setOwner(std::move(kind)); }
void Controller::setOwnerFallback(OwnerMapper m) { owners_.setFallback(std::move(m)); }

void Controller::start() {
  if (started_) return;
  started_ = true;
  for (Informer* inf : informers_) inf->start();
  if (elector_)
    elector_->start();
  else
    startActing();
}

void Controller::stop() {
  if (!started_) return;
  started_ = false;
  if (elector_) elector_->stop();  // its callback stops acting
  stopActing();
  for (Informer* inf : informers_) inf->stop();
}

bool Controller::leading() const { return !elector_ || elector_->isLeader(); }
bool Controller::acting() const { return acting_ && leading(); }

bool Controller::synced() const {
  for (const Informer* inf : informers_)
    if (!inf->synced()) return false;
  return true;
}

void Controller::startActing() {
  if (acting_) return;
  acting_ = true;
  seams_.log.info("acting", {{"controller", opts_.name}});
  if (inline_) inline_->start();
  if (threads_) threads_->start();
  enqueueAllPrimary();
}

void Controller::stopActing() {
  if (!acting_) return;
  acting_ = false;
  seams_.log.info("not acting", {{"controller", opts_.name}});
  if (inline_) inline_->stop();
  // Threads cannot be restarted on a shut-down queue: in real mode a replica that lost its
  // Lease stops reconciling for good (and the binary exits so it restarts clean).
  if (threads_) threads_->stop();
}

void Controller::enqueueAllPrimary() {
  if (!primary_) return;
  for (const ObjectPtr& o : primary_->list(""))
    if (accepts(*o)) queue_.add(meta::key(*o));
}

ReconcileResult Controller::gated(const std::string& key) {
  if (!acting()) {
    // Queued before leadership lapsed: whoever leads now acts on it; re-queued on regain.
    skipped_.fetch_add(1, std::memory_order_relaxed);
    return ReconcileResult::done();
  }
  reconciles_.fetch_add(1, std::memory_order_relaxed);
  return fn_(key);
}

}  // namespace kun
