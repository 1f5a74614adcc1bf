// Sentinel's monitoring half: the timer, links (a command connection to every instance,
// a pub/sub connection to masters and replicas), PING / INFO / hello, SDOWN and ODOWN,
// what INFO tells it, and what hello messages tell it.
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <type_traits>
#include <string_view>

#include <fmt/format.h>

#include "fakeapi/redis/resp.h"
#include "fakeapi/redis/sentinel_node.h"
#include "fakeapi/redis/text_out.h"

namespace kun::redissim {

namespace {
constexpr std::int64_t kInfoPeriod = 10000;
constexpr std::int64_t kPingPeriod = 1000;
constexpr std::int64_t kAskPeriod = 1000;
constexpr std::int64_t kPublishPeriod = 2000;
constexpr std::int64_t kTiltTrigger = 2000;
constexpr std::int64_t kTiltPeriod = kPingPeriod * 30;
constexpr std::int64_t kMinLinkReconnectPeriod = 15000;
constexpr int kMaxPendingCommands = 100;
constexpr std::string_view kHelloChannel = "__sentinel__:hello";

// A command word as a string of known length: from a const char* each one took a strlen
// call (a PING a second and a hello every 2 s to every instance).
std::string word(std::string_view w) { return std::string(w.data(), w.size()); }

// A hello's eight comma-separated fields, as views into it; false when there are not
// exactly eight (every sentinel hears a hello from each peer every 2 s, on every link, so
// this must not allocate a vector of strings per message).
bool helloFields(std::string_view s, std::array<std::string_view, 8>& out) {
  std::size_t n = 0, pos = 0;
  while (true) {
    const std::size_t e = s.find(',', pos);
    if (n == out.size()) return false;
    out[n++] = s.substr(pos, e == std::string_view::npos ? std::string_view::npos : e - pos);
    if (e == std::string_view::npos) break;
    pos = e + 1;
  }
  return n == out.size();
}

// Where the line from pos ends: at the next "\r\n" (as find("\r\n", pos)), else at the end.
std::size_t lineEnd(std::string_view s, std::size_t pos) {
  const char* d = s.data();
  const std::size_t n = s.size();
  while (pos < n) {
    const void* cr = std::memchr(d + pos, '\r', n - pos);
    if (cr == nullptr) break;
    pos = static_cast<std::size_t>(static_cast<const char*>(cr) - d);
    if (pos + 1 < n && d[pos + 1] == '\n') return pos;
    ++pos;
  }
  return n;
}

// s is name, in any case (as iequals; name is lower-case letters and '-'), compared inline:
// asked for every SENTINEL command.
bool isName(std::string_view s, std::string_view name) {
  if (s.size() != name.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char n = name[i];
    if (n == '-' ? s[i] != '-' : (s[i] | 0x20) != n) return false;
  }
  return true;
}

// l starts with the literal p (compared inline: INFO has a hundred lines to look at).
template <std::size_t N>
[[gnu::always_inline]] inline bool startsWith(std::string_view l, const char (&p)[N]) {
  return l.size() >= N - 1 && std::memcmp(l.data(), p, N - 1) == 0;
}
}  // namespace

// --- the timer -----------------------------------------------------------------------------

Duration SentinelNode::drawTickPeriod() {
  // Sentinel changes its timer frequency on every run (10..19 Hz) so that sentinels
  // started together drift apart and do not keep asking for votes at the same moment.
  const std::int64_t hz = 10 + static_cast<std::int64_t>(tickRng_.below(10));
  return milliseconds(1000 / hz);
}

void SentinelNode::timer() {
  const std::int64_t now = mstime();
  tickEvent_ = 0;  // it fired: nothing to cancel when the next one is set
  ++ticksRun_;
  if (checkPlans_ && tickAt_ < wantAt_ && tickAt_ != tieAt_) {
    ++ticksPassed_;
    if (tilt_ || now >= wake_) ++planMisses_;  // the rule would pass by a tick that acts
  }
  if (tickIdx_ >= 2) {
    ticksPassed_ += tickIdx_ - 1;
    // The ticks passed by did nothing but take the time, as each tick does for TILT.
    previousTime_ = msAt(tickTimes_[tickIdx_ - 2]);
  }
  tickMs_ = now;
  inTick_ = true;
  checkTilt(now);
  handleAll(now);
  inTick_ = false;
  scheduleTimer();
}

void SentinelNode::scheduleTimer() {
  const TimePoint now = loop().now();
  tickTimes_.erase(tickTimes_.begin(), tickTimes_.begin() + static_cast<std::ptrdiff_t>(tickIdx_));
  // Late, if the process was hung: the next period counts from now.
  if (tickIdx_ != 0 && now != tickAt_)
    for (TimePoint& t : tickTimes_) t += now - tickAt_;
  if (tickTimes_.empty()) tickTimes_.push_back(now + drawTickPeriod());
  const auto [idx, at] = firstActingTick(now);
  wantAt_ = at;
  wantMs_ = msAt(at);
  if (checkPlans_) setTick(1, tickTimes_.front());
  else setTick(idx, at);
}

TimePoint SentinelNode::timeOfMs(std::int64_t ms) {
  // mstime() = wall / 1000 >= ms  <=>  wall >= ms * 1000 (the wall clock is positive).
  constexpr std::int64_t kLimit = std::numeric_limits<std::int64_t>::max() / 4000;
  if (ms <= -kLimit) return TimePoint::min();
  if (ms >= kLimit) return TimePoint::max();
  return loop().now() + Duration(ms * 1000 - wallMicros());
}

std::pair<std::size_t, TimePoint> SentinelNode::firstActingTick(TimePoint after) {
  const TimePoint from = std::max(tilt_ ? TimePoint::min() : timeOfMs(wake_), after + Duration(1));
  // Drawn as far as needed (each period once, in order); never more than kMaxTicksAhead
  // unless the ticks drawn all lie at or before `after`.
  while (tickTimes_.back() < from && (tickTimes_.size() < kMaxTicksAhead || tickTimes_.back() <= after))
    tickTimes_.push_back(tickTimes_.back() + drawTickPeriod());
  auto it = std::lower_bound(tickTimes_.begin(), tickTimes_.end(), from);
  if (it == tickTimes_.end()) --it;  // the last drawn: the kMaxTicksAhead-th
  return {static_cast<std::size_t>(it - tickTimes_.begin()) + 1, *it};
}

void SentinelNode::setTick(std::size_t idx, TimePoint at) {
  if (tickEvent_ != 0) cancelTimer(tickEvent_);
  tickIdx_ = idx;
  tickAt_ = at;
  if (idx == 0) {  // the boot tick
    wantAt_ = at;
    wantMs_ = kAlways;
  }
  tickEvent_ = after(at - loop().now(), [this] { timer(); });
}

void SentinelNode::rewake() {
  // Only while the event waits (not once it fired into a hung process's inbox, or is firing
  // now: a tick at this very time ran before what runs now).
  const TimePoint now = loop().now();
  // Check mode: a tick due at this very time, which the rule counts as run before what runs
  // now, still runs after it: not a tick the rule passed by.
  if (checkPlans_ && now == tickAt_) tieAt_ = now;
  if (state() != State::Running || now >= wantAt_ || now >= tickAt_ || tickIdx_ == 0) return;
  const auto [idx, at] = firstActingTick(now);
  if (at >= wantAt_) return;
  wantAt_ = at;
  wantMs_ = msAt(at);
  if (!checkPlans_) setTick(idx, at);
}

void SentinelNode::checkUnloweredWake() {
  if (wake_ >= wantMs_ || inTick_) return;
  const TimePoint picked = wantAt_;
  rewake();
  if (wantAt_ != picked) ++planMisses_;
}

void SentinelNode::onHang() {
  // A stopped process's next tick waits in its inbox and runs late, on SIGCONT: that is the
  // first tick from now on, whatever the plans say (it sees the time jump: TILT). A tick due
  // at this very time counts as after the stop (faults are scheduled long before).
  const TimePoint now = loop().now();
  if (now > tickAt_ || tickIdx_ == 0) return;
  // tickAt_ >= now is among the ticks drawn.
  const auto it = std::lower_bound(tickTimes_.begin(), tickTimes_.end(), now);
  wantAt_ = *it;
  wantMs_ = kAlways;  // no rewake while stopped
  if (!checkPlans_) setTick(static_cast<std::size_t>(it - tickTimes_.begin()) + 1, *it);
}

void SentinelNode::checkTilt(std::int64_t now) {
  const std::int64_t delta = now - previousTime_;
  if (delta < 0 || delta > kTiltTrigger) {
    tilt_ = true;
    viewChanged();
    tiltStart_ = now;
    unplanAll();
    event("+tilt", nullptr, "#tilt mode entered");
  }
  previousTime_ = now;
}

void SentinelNode::handleAll(std::int64_t now) {
  // Most ticks find nothing due for most instances (a PING a second, a hello every 2 s,
  // INFO every 10 s, against 10-19 ticks a second): an instance whose plan says so is
  // passed by, and a tick before every plan's time does nothing. Plans are exact (the
  // rules' own times), so the same ticks act as without them.
  const bool allQuiet = !tilt_ && now < wake_;
  if (allQuiet && !checkPlans_) return;
  wake_ = kNever;  // lowered again by every plan made or kept below
  auto handle = [this, now, allQuiet](Instance& ri) {
    if (allQuiet || quiet(ri, now)) {
      wake_ = std::min(wake_, ri.planDue);
      if (checkPlans_) checkQuietRun(ri, now, allQuiet);
      return;
    }
    handleInstance(ri);
    if (tilt_) unplan(ri);
    else replan(ri);
  };
  Instance* switchTo = nullptr;
  for (auto& [name, m] : masters_) {
    handle(*m);
    for (auto& [k, s] : m->slaves) handle(*s);
    for (auto& [k, s] : m->sentinels) handle(*s);
    if (m->failoverState == kUpdateConfig) switchTo = m.get();
  }
  if (switchTo) switchToPromoted(*switchTo);
}

// --- the timer's plans -----------------------------------------------------------------------

namespace {
// The time from which now - since > period holds.
std::int64_t dueAfter(std::int64_t since, std::int64_t period) {
  constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
  std::int64_t t;
  if (__builtin_add_overflow(since, period, &t) || t == kNever) return kNever;
  return t + 1;
}
// The same for one of the fixed periods above, from a time Sentinel took (which cannot
// overflow).
constexpr std::int64_t dueAfterFixed(std::int64_t since, std::int64_t period) { return since + period + 1; }
}  // namespace

inline std::int64_t SentinelNode::reconnectDueAt(const Instance& ri) {
  if (!ri.link.disconnected || ri.port == 0) return kNever;
  return ri.link.lastReconnTime + kPingPeriod;
}

inline std::int64_t SentinelNode::infoDueAt(const Instance& ri) {
  if (ri.flags & kSentinel) return kNever;
  if (ri.infoRefresh == 0) return kAlways;
  // Every second for a replica while its master is ODOWN or failing over, or while it
  // reports a broken link to its master.
  const bool often = (ri.flags & kSlave) &&
                     ((ri.master->flags & (kODown | kFailoverInProgress)) || ri.masterLinkDownTime != 0);
  return dueAfterFixed(ri.infoRefresh, often ? 1000 : kInfoPeriod);
}

inline std::int64_t SentinelNode::pingDueAt(const Instance& ri) {
  const std::int64_t period = std::min(ri.downAfter, kPingPeriod);
  return std::max(dueAfter(ri.link.lastPongTime, period), dueAfter(ri.link.lastPingTime, period / 2));
}

inline std::int64_t SentinelNode::helloDueAt(const Instance& ri) { return dueAfterFixed(ri.lastPubTime, kPublishPeriod); }

inline std::int64_t SentinelNode::closeCcDueAt(const Instance& ri) {
  const Link& link = ri.link;
  if (link.cc == 0 || link.actPingTime == 0) return kNever;
  return std::max({dueAfterFixed(link.ccConnTime, kMinLinkReconnectPeriod), dueAfter(link.actPingTime, ri.downAfter / 2),
                   dueAfter(link.lastPongTime, ri.downAfter / 2)});
}

inline std::int64_t SentinelNode::closePcDueAt(const Instance& ri) {
  const Link& link = ri.link;
  if (link.pc == 0) return kNever;
  return std::max(dueAfterFixed(link.pcConnTime, kMinLinkReconnectPeriod),
                  dueAfterFixed(link.pcLastActivity, kPublishPeriod * 3));
}

inline std::int64_t SentinelNode::sdownFrom(const Instance& ri) {
  const Link& link = ri.link;
  // Down when the oldest unanswered PING (or, with none and no link, the last sign of life)
  // is older than down-after-milliseconds...
  std::int64_t from = link.actPingTime      ? dueAfter(link.actPingTime, ri.downAfter)
                      : link.disconnected   ? dueAfter(link.lastAvailTime, ri.downAfter)
                      : 0 > ri.downAfter ? kAlways
                                            : kNever;
  // ...or, for a master, when it has said it is a replica for long enough.
  if ((ri.flags & kMaster) && ri.roleReported == kSlave)
    from = std::min(from, dueAfter(ri.roleReportedTime, ri.downAfter + kInfoPeriod * 2));
  return from;
}

std::int64_t SentinelNode::planFor(const Instance& ri, std::int64_t now) const {
  // A master down, or failing over, is followed tick by tick (votes, the state machine).
  if ((ri.flags & kMaster) && (ri.flags & (kSDown | kODown | kFailoverInProgress))) return kAlways;
  std::int64_t due = reconnectDueAt(ri);
  if (!ri.link.disconnected && ri.link.pendingCommands < kMaxPendingCommands)
    due = std::min({due, infoDueAt(ri), pingDueAt(ri), helloDueAt(ri)});
  due = std::min({due, closeCcDueAt(ri), closePcDueAt(ri)});
  // SDOWN flips when the rule's answer differs from the flag: once down, only a change
  // of state (a PONG) brings it back.
  if (!(ri.flags & kSDown)) due = std::min(due, sdownFrom(ri));
  else if (now < sdownFrom(ri)) due = kAlways;
  if (ri.flags & kMaster) {
    // Not SDOWN: no ODOWN, no votes asked; only stale answers of the others are forgotten.
    for (const auto& [k, s] : ri.sentinels)
      if ((s->flags & kMasterDown) || !s->leader.empty())
        due = std::min(due, dueAfterFixed(s->lastMasterDownReplyTime, kAskPeriod * 5));
  }
  return due;
}

bool SentinelNode::quiet(const Instance& ri, std::int64_t now) const {
  if (tilt_ || ri.planGen != planGen_ || now >= ri.planDue) return false;
  // A replica's INFO period follows its master's flags, which the master's tick may change.
  return !((ri.flags & kSlave) && (ri.master->flags & (kODown | kFailoverInProgress)));
}

void SentinelNode::checkQuietRun(Instance& ri, std::int64_t now, bool allQuiet) {
  ++planSkips_;
  if (allQuiet && !quiet(ri, now)) ++planMisses_;  // wake_ was not the earliest plan
  const std::vector<std::int64_t> before = probe(ri);
  handleInstance(ri);
  if (probe(ri) != before) ++planMisses_;
  if (tilt_) unplan(ri);
  else replan(ri);
}

std::vector<std::int64_t> SentinelNode::probe(const Instance& ri) const {
  std::vector<std::int64_t> v = {static_cast<std::int64_t>(activity_),
                                 ri.flags,
                                 ri.link.disconnected,
                                 ri.link.pendingCommands,
                                 static_cast<std::int64_t>(ri.link.cc),
                                 static_cast<std::int64_t>(ri.link.pc),
                                 static_cast<std::int64_t>(ri.link.ccGen),
                                 static_cast<std::int64_t>(ri.link.pcGen),
                                 ri.link.ccConnTime,
                                 ri.link.pcConnTime,
                                 ri.link.pcLastActivity,
                                 ri.link.lastAvailTime,
                                 ri.link.actPingTime,
                                 ri.link.lastPingTime,
                                 ri.link.lastPongTime,
                                 ri.link.lastReconnTime,
                                 ri.lastPubTime,
                                 ri.infoRefresh,
                                 ri.sDownSince,
                                 ri.oDownSince,
                                 ri.failoverState,
                                 ri.failoverStateChangeTime,
                                 ri.failoverStartTime,
                                 ri.failoverDelayLogged,
                                 static_cast<std::int64_t>(currentEpoch_),
                                 tilt_};
  for (const auto& [k, s] : ri.sentinels) {
    v.push_back(s->flags);
    v.push_back(static_cast<std::int64_t>(s->leader.size()));
    v.push_back(s->lastMasterDownReplyTime);
  }
  return v;
}

void SentinelNode::noteSentinelCommand(std::string_view sub) {
  // Those that only read (is-master-down-by-addr's vote unplans in voteLeader); any other
  // (SET, RESET, FAILOVER, MONITOR, ...) voids every plan.
  static constexpr std::string_view kReadOnly[] = {"masters",  "master",   "replicas",        "slaves",
                                                   "sentinels", "myid",     "get-master-addr-by-name",
                                                   "ckquorum",  "debug",    "pending-scripts", "is-master-down-by-addr"};
  for (std::string_view r : kReadOnly)
    if (isName(sub, r)) return;
  unplanAll();
  viewChanged();  // SET, REMOVE, ... write what the views read
}

void SentinelNode::handleInstance(Instance& ri) {
  reconnect(ri);
  sendPeriodic(ri);
  if (tilt_) {
    if (mstime() - tiltStart_ < kTiltPeriod) return;
    tilt_ = false;
    viewChanged();
    event("-tilt", nullptr, "#tilt mode exited");
  }
  checkSdown(ri);
  if (ri.flags & kMaster) {
    checkOdown(ri);
    if (startFailoverIfNeeded(ri)) askOthers(ri, true);
    failoverStateMachine(ri);
    askOthers(ri, false);
  }
}

// --- links -----------------------------------------------------------------------------------

void SentinelNode::closeCc(Instance& ri) {
  if (ri.link.cc == 0) return;
  unplan(ri);
  fabric().close(ri.link.cc);
  ri.link.cc = 0;
  ++ri.link.ccGen;
  ri.link.pendingCommands = 0;
  setViewed(ri.link.disconnected, true);
}

void SentinelNode::closePc(Instance& ri) {
  if (ri.link.pc == 0) return;
  unplan(ri);
  fabric().close(ri.link.pc);
  ri.link.pc = 0;
  ++ri.link.pcGen;
  setViewed(ri.link.disconnected, true);
}

template <class F, class Cmd>
void SentinelNode::send(Instance& ri, Cmd cmd, F onReply) {
  if (ri.link.cc == 0) return;
  ++activity_;
  ++ri.link.pendingCommands;
  const std::uint64_t uid = ri.uid, gen = ri.link.ccGen;
  // onReply is kept as it is inside the reply callback (not wrapped in a std::function
  // first), so the callback fits in the ReplyFn without an allocation. It gets the reply
  // by reference (no move per hop).
  fabric().request(ri.link.cc, std::move(cmd),
                   [this, uid, gen, onReply = std::move(onReply)](RedisReply&& r) mutable {
                     Instance* x = byUid(uid);
                     if (!x || x->link.ccGen != gen || x->link.cc == 0) return;
                     --x->link.pendingCommands;
                     if constexpr (!std::is_null_pointer_v<F>) {
                       onReply(*x, r);
                       x = byUid(uid);  // gone if the reply made the process crash
                       if (!x) return;
                     }
                     replan(*x);
                   });
}

void SentinelNode::sendAuthIfNeeded(Instance& ri, ConnId conn) {
  const std::string& pass = (ri.flags & kMaster) ? ri.authPass : (ri.flags & kSlave) ? ri.master->authPass : std::string();
  if (pass.empty()) return;
  if (conn == ri.link.cc) {
    send(ri, {"AUTH", pass}, nullptr);
  } else {
    ++ri.link.pendingCommands;
    fabric().request(conn, {"AUTH", pass}, nullptr);
  }
}

void SentinelNode::reconnect(Instance& ri) {
  Link& link = ri.link;
  const std::int64_t now = mstime();
  if (now < reconnectDueAt(ri)) return;
  link.lastReconnTime = now;
  const std::uint64_t uid = ri.uid;
  if (link.cc == 0) {
    const std::uint64_t gen = ++link.ccGen;
    ClientHandlers h;
    auto lost = [this, uid, gen] {
      Instance* x = byUid(uid);
      if (!x || x->link.ccGen != gen) return;
      x->link.cc = 0;
      x->link.pendingCommands = 0;
      setViewed(x->link.disconnected, true);
      unplanAll();  // its master's plan looks at a sentinel's link
    };
    h.onConnect = [lost](bool okc) {
      if (!okc) lost();
    };
    h.onClose = lost;
    link.cc = fabric().connect(procId(), netId(), {ri.host, ri.port}, std::move(h));
    fabric().markSentinelClient(link.cc);  // refreshInfo reads a few lines of INFO
    link.pendingCommands = 0;
    link.ccConnTime = now;
    sendAuthIfNeeded(ri, link.cc);
    sendPing(ri);  // a PING as soon as we reconnect
  }
  if ((ri.flags & (kMaster | kSlave)) && link.pc == 0) {
    const std::uint64_t gen = ++link.pcGen;
    ClientHandlers h;
    auto lost = [this, uid, gen] {
      Instance* x = byUid(uid);
      if (!x || x->link.pcGen != gen) return;
      x->link.pc = 0;
      setViewed(x->link.disconnected, true);
      unplan(*x);
    };
    h.onConnect = [lost](bool okc) {
      if (!okc) lost();
    };
    h.onClose = lost;
    h.onPush = [this, uid, gen](const RedisReply& msg) {
      Instance* x = byUid(uid);
      if (!x || x->link.pcGen != gen) return;
      const std::int64_t now = mstime();  // one clock reading for the activity and the hello
      x->link.pcLastActivity = now;
      if (msg.type != RedisReply::Type::Array || msg.elements.size() != 3 ||
          std::string_view(msg.elements[0].str) != "message")  // lengths first: no strlen
        return;
      const std::string& payload = msg.elements[2].str;
      if (const HelloSeen* seen = seenHello(payload)) {
        if (seen->mine || repeatHello(*seen, now)) return;
      } else if (payload.find(myid_) != std::string::npos) {  // our own hello
        rememberHello(payload).mine = true;
        return;
      }
      processHello(payload, nullptr);
    };
    link.pc = fabric().connect(procId(), netId(), {ri.host, ri.port}, std::move(h));
    link.pcConnTime = now;
    sendAuthIfNeeded(ri, link.pc);
    fabric().request(link.pc, {"SUBSCRIBE", word(kHelloChannel)}, [this, uid, gen](RedisReply) {
      Instance* x = byUid(uid);
      if (!x || x->link.pcGen != gen) return;
      x->link.pcLastActivity = mstime();
    });
  }
  if (link.cc != 0 && ((ri.flags & kSentinel) || link.pc != 0)) setViewed(link.disconnected, false);
}

// --- periodic commands ---------------------------------------------------------------------

void SentinelNode::sendPing(Instance& ri) {
  if (ri.link.cc == 0) return;
  static const SharedArgv ping = std::make_shared<const Argv>(Argv{word("PING")});
  send(ri, ping, [this](Instance& x, RedisReply& r) {
    const std::int64_t now = mstime();
    if (r.type == RedisReply::Type::Status || r.type == RedisReply::Type::Error) {
      if (startsWith(r.str, "PONG") || startsWith(r.str, "LOADING") || startsWith(r.str, "MASTERDOWN")) {
        x.link.lastAvailTime = now;
        x.link.actPingTime = 0;
      }
    }
    x.link.lastPongTime = now;
  });
  ri.link.lastPingTime = mstime();
  if (ri.link.actPingTime == 0) ri.link.actPingTime = ri.link.lastPingTime;
}

void SentinelNode::sendHello(Instance& ri) {
  if (ri.link.disconnected) return;
  Instance& m = (ri.flags & kMaster) ? ri : *ri.master;
  const Instance& at = currentMasterAt(m);
  Instance::Hello& h = m.hello;
  if (h.currentEpoch != currentEpoch_ || h.configEpoch != m.configEpoch || h.port != at.port || h.host != at.host) {
    // ip,port,runid,current_epoch,master_name,master_ip,master_port,master_config_epoch
    // (appended piece by piece: fmt's parsing of the pattern was most of a hello's cost).
    // Our address, id and the master's name do not change while the instance exists.
    h.text.clear();
    TextOut(h.text) << ip() << "," << port_ << "," << myid_ << "," << currentEpoch_ << "," << m.name << "," << at.host
                    << "," << at.port << "," << m.configEpoch;
    h.currentEpoch = currentEpoch_;
    h.configEpoch = m.configEpoch;
    h.host = at.host;
    h.port = at.port;
    h.publish = nullptr;
  }
  if (!h.publish) h.publish = std::make_shared<const Argv>(Argv{word("PUBLISH"), word(kHelloChannel), h.text});
  send(ri, h.publish, [this](Instance& x, RedisReply& r) {
    if (!r.isError()) x.lastPubTime = mstime();
  });
}

void SentinelNode::forceHelloUpdate(Instance& m) {
  auto back = [this](Instance& x) {
    if (x.lastPubTime >= kPublishPeriod + 1) x.lastPubTime -= kPublishPeriod + 1;
    unplan(x);
  };
  back(m);
  for (auto& [k, s] : m.sentinels) back(*s);
  for (auto& [k, s] : m.slaves) back(*s);
}

void SentinelNode::sendPeriodic(Instance& ri) {
  const std::int64_t now = mstime();
  if (ri.link.disconnected) return;
  if (ri.link.pendingCommands >= kMaxPendingCommands) return;
  if (now >= infoDueAt(ri)) {
    Argv info;
    info.push_back(word("INFO"));
    send(ri, std::move(info), [this](Instance& x, RedisReply& r) {
      if (r.type != RedisReply::Type::String) return;
      x.info.swap(r.str);  // kept as the last INFO seen, without copying it
      refreshInfo(x, x.info);
    });
  }
  if (now >= pingDueAt(ri)) sendPing(ri);
  if (now >= helloDueAt(ri)) sendHello(ri);
}

// --- availability ------------------------------------------------------------------------------

void SentinelNode::checkSdown(Instance& ri) {
  const std::int64_t now = mstime();
  const bool down = now >= sdownFrom(ri);  // as the links are before the closes below
  // A command link with a long-pending PING is torn down and rebuilt.
  if (now >= closeCcDueAt(ri)) closeCc(ri);
  // So is a pub/sub link that stayed silent (we hear our own hellos on it).
  if (now >= closePcDueAt(ri)) closePc(ri);
  if (down) {
    if (!(ri.flags & kSDown)) {
      event("+sdown", &ri);
      ri.sDownSince = now;
      ri.flags |= kSDown;
    }
  } else if (ri.flags & kSDown) {
    event("-sdown", &ri);
    ri.flags &= ~kSDown;
  }
}

void SentinelNode::checkOdown(Instance& m) {
  unsigned quorum = 0;
  bool odown = false;
  if (m.flags & kSDown) {
    quorum = 1;
    for (const auto& [k, s] : m.sentinels)
      if (s->flags & kMasterDown) ++quorum;
    if (quorum >= static_cast<unsigned>(m.quorum)) odown = true;
  }
  if (odown) {
    if (!(m.flags & kODown)) {
      event("+odown", &m, fmt::format("#quorum {}/{}", quorum, m.quorum));
      m.flags |= kODown;
      m.oDownSince = mstime();
    }
  } else if (m.flags & kODown) {
    event("-odown", &m);
    m.flags &= ~kODown;
  }
}

void SentinelNode::askOthers(Instance& m, bool forced) {
  const std::int64_t now = mstime();
  for (auto& [k, s] : m.sentinels) {
    Instance& ri = *s;
    if (now - ri.lastMasterDownReplyTime > kAskPeriod * 5) {  // stale answer: forget it
      setViewed(ri.flags, ri.flags & ~kMasterDown);
      if (!ri.leader.empty()) {
        ri.leader.clear();
        viewChanged();
      }
    }
    if (!(m.flags & kSDown)) continue;
    if (ri.link.disconnected) continue;
    if (!forced && now - ri.lastMasterDownReplyTime < kAskPeriod) continue;
    send(ri,
         {"SENTINEL", "is-master-down-by-addr", m.host, std::to_string(m.port), std::to_string(currentEpoch_),
          m.failoverState > kNone ? myid_ : "*"},
         [this](Instance& x, RedisReply& r) {
           if (r.type != RedisReply::Type::Array || r.elements.size() != 3 ||
               r.elements[0].type != RedisReply::Type::Integer || r.elements[1].type != RedisReply::Type::String ||
               r.elements[2].type != RedisReply::Type::Integer)
             return;
           x.lastMasterDownReplyTime = mstime();
           unplan(*x.master);  // its ODOWN counts the answers
           setViewed(x.flags, r.elements[0].integer == 1 ? x.flags | kMasterDown : x.flags & ~kMasterDown);
           if (r.elements[1].str != "*") {
             if (static_cast<std::int64_t>(x.leaderEpoch) != r.elements[2].integer)
               record(fmt::format("{} voted for {} {}", x.name, r.elements[1].str, r.elements[2].integer));
             setViewed(x.leader, r.elements[1].str);
             setViewed(x.leaderEpoch, static_cast<std::uint64_t>(r.elements[2].integer));
           }
         });
  }
}

bool SentinelNode::masterLooksSane(const Instance& m) const {
  return (m.flags & kMaster) && m.roleReported == kMaster && !(m.flags & (kSDown | kODown)) &&
         mstime() - m.infoRefresh < kInfoPeriod * 2;
}

bool SentinelNode::noDownFor(const Instance& ri, std::int64_t ms) const {
  const std::int64_t mostRecent = std::max(ri.sDownSince, ri.oDownSince);
  return mostRecent == 0 || mstime() - mostRecent > ms;
}

bool SentinelNode::sendSlaveOf(Instance& ri, const std::string& host, int port) {
  if (ri.link.cc == 0) return false;
  // As Sentinel does: one transaction that switches the role, rewrites the config and
  // drops the clients, so they reconnect and ask again who the master is.
  send(ri, {"MULTI"}, nullptr);
  if (host.empty()) send(ri, {"SLAVEOF", "NO", "ONE"}, nullptr);
  else send(ri, {"SLAVEOF", host, std::to_string(port)}, nullptr);
  send(ri, {"CONFIG", "REWRITE"}, nullptr);
  send(ri, {"CLIENT", "KILL", "TYPE", "normal"}, nullptr);
  send(ri, {"CLIENT", "KILL", "TYPE", "pubsub"}, nullptr);
  send(ri, {"EXEC"}, nullptr);
  return true;
}

// --- what INFO says ---------------------------------------------------------------------------

void SentinelNode::refreshInfo(Instance& ri, const std::string& info) {
  const std::int64_t now = mstime();
  // No plan to redo here but ri's (after the reply): what INFO changes of its master
  // happens during a failover (when the master is not planned), forceHelloUpdate unplans
  // those it moves, and a new replica is made without a plan.
  // A simulated redis-server answers us with only the lines read here (see
  // RedisNode::sentinelInfoText): a line this starts to read must be written there too.
  std::int64_t linkDownTime = 0;  // set once the lines are read: a change counts (setViewed)
  int role = 0;
  std::size_t pos = 0;
  while (pos < info.size()) {
    const std::size_t e = lineEnd(info, pos);
    const std::string_view l(info.data() + pos, e - pos);
    pos = e + 2;
    if (l.empty()) continue;
    auto starts = [&l](const auto& p) { return startsWith(l, p); };
    // Every field read below starts with 'm', 'r' or 's', and no line starts with two of
    // their names: a line is matched against the names of its first letter only (and a
    // section header, '#', against the two sections that hold them).
    switch (l[0]) {
      case 'r':
        if (l.size() >= 47 && starts("run_id:")) {
          const std::string_view id = l.substr(7, 40);
          if (ri.runid.empty()) {
            setViewed(ri.runid, id);
          } else if (ri.runid != id) {
            event("+reboot", &ri);
            setViewed(ri.runid, id);
          }
        } else if (starts("role:master")) {
          role = kMaster;
        } else if (starts("role:slave")) {
          role = kSlave;
        } else if (role == kSlave && starts("replica_announced:")) {
          auto v = parseInt(l.substr(18));
          setViewed(ri.replicaAnnounced, v ? static_cast<int>(*v) : 0);  // the views list announced ones
        }
        break;
      case 'm':
        if (l.size() >= 32 && starts("master_link_down_since_seconds")) {
          auto v = parseInt(l.substr(31));
          linkDownTime = v ? *v * 1000 : 0;
        } else if (role == kSlave) {
          if (starts("master_host:")) {
            const std::string_view h = l.substr(12);
            if (ri.slaveMasterHost.empty() || !iequals(h, ri.slaveMasterHost)) {
              setViewed(ri.slaveMasterHost, h);
              ri.slaveConfChangeTime = now;
            }
          } else if (starts("master_port:")) {
            auto p = parseInt(l.substr(12));
            const int port = p ? static_cast<int>(*p) : 0;
            if (ri.slaveMasterPort != port) {
              setViewed(ri.slaveMasterPort, port);
              ri.slaveConfChangeTime = now;
            }
          } else if (starts("master_link_status:")) {
            setViewed(ri.slaveMasterLinkUp, iequals(l.substr(19), "up"));
          }
        }
        break;
      case 's':
        if ((ri.flags & kMaster) && l.size() >= 7 && starts("slave") && std::isdigit(static_cast<unsigned char>(l[5]))) {
          auto ipAt = l.find("ip=");
          auto portAt = l.find("port=");
          if (ipAt != std::string_view::npos && portAt != std::string_view::npos) {
            std::string_view ipv = l.substr(ipAt + 3);
            ipv = ipv.substr(0, ipv.find(','));
            std::string_view pv = l.substr(portAt + 5);
            pv = pv.substr(0, pv.find(','));
            auto p = parseInt(pv);
            const std::string key = std::string(ipv) + ":" + std::string(pv);
            if (p && !ri.slaves.count(key)) {
              if (Instance* s = createInstance("", kSlave, std::string(ipv), static_cast<int>(*p), ri.quorum, &ri))
                event("+slave", s);
            }
          }
        } else if (role == kSlave) {
          if (starts("slave_priority:")) {
            auto v = parseInt(l.substr(15));
            setViewed(ri.slavePriority, v ? static_cast<int>(*v) : 0);
          } else if (starts("slave_repl_offset:")) {
            auto v = parseInt(l.substr(18));
            ri.slaveReplOffset = v ? *v : 0;
          }
        }
        break;
      case '#':
        // Only Server (run_id) and Replication hold lines read above: any other section
        // (a blank line ends each) is passed over whole.
        if (!starts("# Server") && !starts("# Replication")) {
          const std::size_t end = info.find("\r\n\r\n", e);
          pos = end == std::string::npos ? info.size() : end + 4;
        }
        break;
      default:
        break;
    }
  }
  ri.infoRefresh = now;
  setViewed(ri.masterLinkDownTime, linkDownTime);

  if (role != ri.roleReported) {
    ri.roleReportedTime = now;
    setViewed(ri.roleReported, role);
    if (role == kSlave) ri.slaveConfChangeTime = now;
  }
  if (tilt_) return;

  // A replica that turned into a master.
  if ((ri.flags & kSlave) && role == kMaster) {
    Instance& m = *ri.master;
    if ((ri.flags & kPromoted) && (m.flags & kFailoverInProgress) && m.failoverState == kWaitPromotion) {
      // The promotion took: our epoch becomes the configuration's epoch.
      m.configEpoch = m.failoverEpoch;
      m.failoverState = kReconfSlaves;
      m.failoverStateChangeTime = now;
      event("+promoted-slave", &ri);
      if (simCrashAfterPromotion_) {
        record("Sentinel CRASH because of SENTINEL simulate-failure");
        crash();
        return;
      }
      event("+failover-state-reconf-slaves", &m);
      forceHelloUpdate(m);
    } else {
      // Not ours: wait a little for a newer config to reach us, then force our view.
      const std::int64_t wait = kPublishPeriod * 4;
      if (!(ri.flags & kPromoted) && masterLooksSane(m) && noDownFor(ri, wait) && now - ri.roleReportedTime > wait) {
        if (sendSlaveOf(ri, m.host, m.port)) event("+convert-to-slave", &ri);
      }
    }
  }
  // A replica of the wrong master.
  if ((ri.flags & kSlave) && role == kSlave &&
      (ri.slaveMasterPort != ri.master->port || !iequals(ri.master->host, ri.slaveMasterHost))) {
    Instance& m = *ri.master;
    const std::int64_t wait = m.failoverTimeout;
    if (masterLooksSane(m) && noDownFor(ri, wait) && now - ri.slaveConfChangeTime > wait) {
      if (sendSlaveOf(ri, m.host, m.port)) event("+fix-slave-config", &ri);
    }
  }
  // Progress of a replica being reconfigured by our failover.
  if ((ri.flags & kSlave) && role == kSlave && (ri.flags & (kReconfSent | kReconfInprog)) && ri.master->promotedSlave) {
    const Instance& promoted = *ri.master->promotedSlave;
    if ((ri.flags & kReconfSent) && !ri.slaveMasterHost.empty() && iequals(promoted.host, ri.slaveMasterHost) &&
        ri.slaveMasterPort == promoted.port) {
      ri.flags &= ~kReconfSent;
      ri.flags |= kReconfInprog;
      event("+slave-reconf-inprog", &ri);
    }
    if ((ri.flags & kReconfInprog) && ri.slaveMasterLinkUp) {
      ri.flags &= ~kReconfInprog;
      ri.flags |= kReconfDone;
      event("+slave-reconf-done", &ri);
    }
  }
}

// --- what hello messages say --------------------------------------------------------------

namespace {
// Three words of a hello and its length, mixed: told apart by this, most remembered hellos
// are passed over without comparing the texts (each is heard on every link, ~90 bytes, and
// those of one length differ after their first bytes). Hellos of different senders differ
// in the run id, around the middle; those of one sender in the epochs and the master's
// address, toward the end.
std::uint64_t helloKey(std::string_view s) {
  const std::size_t n = s.size();
  std::uint64_t w[3] = {0, 0, 0};
  if (n >= 8) {
    std::memcpy(&w[0], s.data(), 8);
    std::memcpy(&w[1], s.data() + (n - 8) / 2, 8);
    std::memcpy(&w[2], s.data() + n - 8, 8);
  } else {
    std::memcpy(&w[0], s.data(), n);
  }
  return (n ^ w[0] * 0x9E3779B97F4A7C15ull ^ w[1] * 0xBF58476D1CE4E5B9ull) * 0x94D049BB133111EBull ^ w[2];
}
}  // namespace

const SentinelNode::HelloSeen* SentinelNode::seenHello(std::string_view hello) const {
  // Newest first: the hellos peers send now were remembered last, older ones wait to go.
  const std::uint64_t key = helloKey(hello);
  for (auto it = helloSeen_.rbegin(); it != helloSeen_.rend(); ++it)
    if (it->key == key && it->text == hello) return &*it;
  return nullptr;
}

bool SentinelNode::repeatHello(const HelloSeen& h, std::int64_t now) {
  // Live uids are the entries processHello would find again: a master's name and a
  // sentinel's address and run id never change, and an entry removed leaves byUid_.
  if (h.masterUid == 0 || h.sentinelUid == 0) return false;
  Instance* m = byUid(h.masterUid);
  Instance* si = byUid(h.sentinelUid);
  if (!m || !si || h.currentEpoch > currentEpoch_ || h.masterConfigEpoch > m->configEpoch) return false;
  si->lastHelloTime = now;
  return true;
}

SentinelNode::HelloSeen& SentinelNode::rememberHello(std::string_view hello) {
  constexpr std::size_t kRemembered = 8;
  for (HelloSeen& e : helloSeen_)
    if (e.text == hello) return e;
  if (helloSeen_.size() == kRemembered) helloSeen_.erase(helloSeen_.begin());
  HelloSeen& h = helloSeen_.emplace_back();
  h.text.assign(hello);
  h.key = helloKey(hello);
  return h;
}

void SentinelNode::processHello(std::string_view hello, const HelloSeen* seen) {
  if (seen && repeatHello(*seen, mstime())) return;  // only the hello time: no plan looks at it
  unplanAll();  // sentinels come and go, masters move
  std::array<std::string_view, 8> tok;
  if (!helloFields(hello, tok)) return;
  Instance* m = masterByName(std::string(tok[4]));
  if (!m) return;
  auto port = parseInt(tok[1]);
  auto mport = parseInt(tok[6]);
  auto cepoch = parseInt(tok[3]);
  auto mcepoch = parseInt(tok[7]);
  if (!port || !mport || !cepoch || !mcepoch) return;
  const std::string_view sip = tok[0];
  const std::string_view runid = tok[2];
  Instance* si = nullptr;
  for (auto& [k, s] : m->sentinels)
    if (s->port == *port && s->runid == runid && s->host == sip) si = s.get();
  if (!si) {
    // Unknown at this address: drop entries with this run id (it moved), or an entry
    // with this address but another run id (a new sentinel took the address).
    bool removed = false;
    for (auto it = m->sentinels.begin(); it != m->sentinels.end();) {
      if (it->second->runid == runid) {
        closeCc(*it->second);
        byUid_.erase(it->second->uid);
        it = m->sentinels.erase(it);
        removed = true;
      } else {
        ++it;
      }
    }
    if (removed) {
      event("+sentinel-address-switch", m, fmt::format("ip {} port {} for {}", sip, *port, runid));
    } else {
      std::string obsolete;
      for (auto& [k, s] : m->sentinels)
        if (s->host == sip && s->port == *port) {
          event("+sentinel-invalid-addr", s.get());
          obsolete = s->runid;
        }
      if (!obsolete.empty()) {
        for (auto& [n, mm] : masters_) {
          for (auto it = mm->sentinels.begin(); it != mm->sentinels.end();) {
            if (it->second->runid == obsolete) {
              closeCc(*it->second);
              byUid_.erase(it->second->uid);
              it = mm->sentinels.erase(it);
            } else {
              ++it;
            }
          }
        }
      }
    }
    si = createInstance(std::string(runid), kSentinel, std::string(sip), static_cast<int>(*port), m->quorum, m);
    if (si) {
      si->runid = runid;
      if (!removed) event("+sentinel", si);
    }
  }
  if (static_cast<std::uint64_t>(*cepoch) > currentEpoch_) {
    currentEpoch_ = static_cast<std::uint64_t>(*cepoch);
    event("+new-epoch", m, std::to_string(currentEpoch_));
  }
  if (si && m->configEpoch < static_cast<std::uint64_t>(*mcepoch)) {
    setViewed(m->configEpoch, static_cast<std::uint64_t>(*mcepoch));
    if (*mport != m->port || !iequals(m->host, tok[5])) {
      event("+config-update-from", si);
      event("+switch-master", nullptr, fmt::format("{} {} {} {} {}", m->name, m->host, m->port, tok[5], *mport));
      resetMasterAndChangeAddress(*m, std::string(tok[5]), static_cast<int>(*mport));  // keeps the sentinels, si too
    }
  }
  if (si) {
    si->lastHelloTime = mstime();
    HelloSeen& h = rememberHello(hello);
    h.mine = hello.find(myid_) != std::string_view::npos;
    h.masterUid = m->uid;
    h.sentinelUid = si->uid;
    h.currentEpoch = static_cast<std::uint64_t>(*cepoch);
    h.masterConfigEpoch = static_cast<std::uint64_t>(*mcepoch);
  }
}

}  // namespace kun::redissim
