#include "fakeapi/redis/sim_process.h"

namespace kun::redissim {

SimProcess::SimProcess(Fabric& fabric, std::string ip, Trace* trace)
    : fabric_(fabric), ip_(std::move(ip)), netId_(fabric.net().intern(ip_)), trace_(trace) {
  id_ = fabric_.attach(this);
}

SimProcess::~SimProcess() { fabric_.detach(id_); }

void SimProcess::record(std::string_view text) {
  if (trace_) trace_->record(loop().now(), traceName(), text);
}

void SimProcess::crash() {
  if (state_ == State::Down) return;
  const bool booted = up();  // a process killed while starting had no state yet
  state_ = State::Down;
  fabric_.noteViewChange();
  ++incarnation_;
  inbox_.clear();
  fabric_.processDown(id_);
  if (booted) onDown();
}

void SimProcess::hang() {
  if (state_ != State::Running) return;
  state_ = State::Hung;
  fabric_.noteViewChange();
  record("hung");
  onHang();
}

void SimProcess::resume() {
  if (state_ != State::Hung) return;
  state_ = State::Running;
  fabric_.noteViewChange();
  record("resumed");
  if (inbox_.empty()) return;
  std::weak_ptr<int> alive = alive_;
  const std::uint64_t inc = incarnation_;
  loop().post([this, alive, inc] {
    if (alive.expired() || inc != incarnation_) return;
    drainInbox();
  });
}

void SimProcess::drainInbox() {
  if (draining_) return;
  draining_ = true;
  const std::uint64_t inc = incarnation_;
  while (!inbox_.empty() && state_ == State::Running && inc == incarnation_) {
    Task t = std::move(inbox_.front());
    inbox_.pop_front();
    t();
  }
  draining_ = false;
}

void SimProcess::start(Duration bootDelay) {
  if (state_ != State::Down) return;
  state_ = State::Starting;
  fabric_.noteViewChange();
  ++incarnation_;
  startedAt_ = loop().now();
  std::weak_ptr<int> alive = alive_;
  const std::uint64_t inc = incarnation_;
  loop().runAfter(bootDelay, [this, alive, inc] {
    if (alive.expired() || inc != incarnation_ || state_ != State::Starting) return;
    state_ = State::Running;
    fabric_.noteViewChange();
    onBoot();
  });
}

}  // namespace kun::redissim
