// Sentinel's acting half: votes and leader election by epoch, replica selection, and the
// failover state machine (wait-start, select-slave, send-slaveof-noone, wait-promotion,
// reconf-slaves, update-config), with sentinel.c's timeouts.
#include <algorithm>

#include <fmt/format.h>

#include "fakeapi/redis/resp.h"
#include "fakeapi/redis/sentinel_node.h"

namespace kun::redissim {

namespace {
constexpr std::int64_t kPingPeriod = 1000;
constexpr std::int64_t kInfoPeriod = 10000;
constexpr std::int64_t kElectionTimeout = 10000;
constexpr std::int64_t kSlaveReconfTimeout = 10000;
constexpr std::uint64_t kMaxDesync = 1000;
}  // namespace

std::string SentinelNode::voteLeader(Instance& m, std::uint64_t reqEpoch, const std::string& reqRunid,
                                     std::uint64_t* leaderEpoch) {
  unplanAll();  // a vote may move our own failover's start
  if (reqEpoch > currentEpoch_) {
    currentEpoch_ = reqEpoch;
    event("+new-epoch", &m, std::to_string(currentEpoch_));
  }
  if (m.leaderEpoch < reqEpoch && currentEpoch_ <= reqEpoch) {
    viewChanged();
    m.leader = reqRunid;
    m.leaderEpoch = currentEpoch_;
    event("+vote-for-leader", &m, fmt::format("{} {}", m.leader, m.leaderEpoch));
    // Having voted for another sentinel, do not start our own failover for a while.
    if (!iequals(m.leader, myid_))
      m.failoverStartTime = mstime() + static_cast<std::int64_t>(rng_.below(kMaxDesync));
  }
  *leaderEpoch = m.leaderEpoch;
  return m.leader;
}

std::string SentinelNode::getLeader(Instance& m, std::uint64_t epoch) {
  const unsigned voters = static_cast<unsigned>(m.sentinels.size()) + 1;
  std::map<std::string, std::uint64_t> counters;
  for (const auto& [k, s] : m.sentinels)
    if (!s->leader.empty() && s->leaderEpoch == currentEpoch_) ++counters[s->leader];
  std::string winner;
  std::uint64_t maxVotes = 0;
  for (const auto& [id, votes] : counters) {
    if (votes > maxVotes) {
      maxVotes = votes;
      winner = id;
    }
  }
  std::uint64_t leaderEpoch = 0;
  const std::string myvote = voteLeader(m, epoch, winner.empty() ? myid_ : winner, &leaderEpoch);
  if (!myvote.empty() && leaderEpoch == epoch) {
    const std::uint64_t votes = ++counters[myvote];
    if (votes > maxVotes) {
      maxVotes = votes;
      winner = myvote;
    }
  }
  const unsigned votersQuorum = voters / 2 + 1;
  if (!winner.empty() && (maxVotes < votersQuorum || maxVotes < static_cast<std::uint64_t>(m.quorum))) winner.clear();
  return winner;
}

void SentinelNode::startFailover(Instance& m) {
  viewChanged();
  m.failoverState = kWaitStart;
  m.flags |= kFailoverInProgress;
  m.failoverEpoch = ++currentEpoch_;
  event("+new-epoch", &m, std::to_string(currentEpoch_));
  event("+try-failover", &m);
  m.failoverStartTime = mstime() + static_cast<std::int64_t>(rng_.below(kMaxDesync));
  m.failoverStateChangeTime = mstime();
}

bool SentinelNode::startFailoverIfNeeded(Instance& m) {
  if (!(m.flags & kODown)) return false;
  if (m.flags & kFailoverInProgress) return false;
  if (mstime() - m.failoverStartTime < m.failoverTimeout * 2) {
    if (m.failoverDelayLogged != m.failoverStartTime) {
      m.failoverDelayLogged = m.failoverStartTime;
      record(fmt::format("Next failover delay: I will not start a failover before {}s",
                         (m.failoverStartTime + m.failoverTimeout * 2) / 1000));
    }
    return false;
  }
  startFailover(m);
  return true;
}

SentinelNode::Instance* SentinelNode::selectSlave(Instance& m) {
  const std::int64_t now = mstime();
  std::int64_t maxMasterDown = 0;
  if (m.flags & kSDown) maxMasterDown += now - m.sDownSince;
  maxMasterDown += m.downAfter * 10;
  std::vector<Instance*> ok;
  for (auto& [k, s] : m.slaves) {
    Instance& sl = *s;
    if (sl.flags & (kSDown | kODown)) continue;
    if (sl.link.disconnected) continue;
    if (now - sl.link.lastAvailTime > kPingPeriod * 5) continue;
    if (sl.slavePriority == 0) continue;
    const std::int64_t validity = (m.flags & kSDown) ? kPingPeriod * 5 : kInfoPeriod * 3;
    if (now - sl.infoRefresh > validity) continue;
    if (sl.masterLinkDownTime > maxMasterDown) continue;
    ok.push_back(&sl);
  }
  if (ok.empty()) return nullptr;
  // Lower priority first, then the larger replication offset, then the smaller run id.
  std::sort(ok.begin(), ok.end(), [](const Instance* a, const Instance* b) {
    if (a->slavePriority != b->slavePriority) return a->slavePriority < b->slavePriority;
    if (a->slaveReplOffset != b->slaveReplOffset) return a->slaveReplOffset > b->slaveReplOffset;
    if (a->runid.empty() != b->runid.empty()) return b->runid.empty();
    return lower(a->runid) < lower(b->runid);
  });
  return ok.front();
}

void SentinelNode::abortFailover(Instance& m) {
  viewChanged();
  m.flags &= ~(kFailoverInProgress | kForceFailover);
  m.failoverState = kNone;
  m.failoverStateChangeTime = mstime();
  if (m.promotedSlave) {
    m.promotedSlave->flags &= ~kPromoted;
    m.promotedSlave = nullptr;
  }
}

void SentinelNode::failoverWaitStart(Instance& m) {
  const std::string leader = getLeader(m, m.failoverEpoch);
  const bool isLeader = !leader.empty() && iequals(leader, myid_);
  if (!isLeader && !(m.flags & kForceFailover)) {
    const std::int64_t electionTimeout = std::min(kElectionTimeout, m.failoverTimeout);
    if (mstime() - m.failoverStartTime > electionTimeout) {
      event("-failover-abort-not-elected", &m);
      abortFailover(m);
    }
    return;
  }
  event("+elected-leader", &m);
  if (simCrashAfterElection_) {
    record("Sentinel CRASH because of SENTINEL simulate-failure");
    crash();
    return;
  }
  m.failoverState = kSelectSlave;
  m.failoverStateChangeTime = mstime();
  event("+failover-state-select-slave", &m);
}

void SentinelNode::failoverSelectSlave(Instance& m) {
  Instance* s = selectSlave(m);
  if (!s) {
    event("-failover-abort-no-good-slave", &m);
    abortFailover(m);
    return;
  }
  event("+selected-slave", s);
  viewChanged();
  s->flags |= kPromoted;
  m.promotedSlave = s;
  m.failoverState = kSendSlaveofNoone;
  m.failoverStateChangeTime = mstime();
  event("+failover-state-send-slaveof-noone", s);
}

void SentinelNode::failoverSendSlaveofNoone(Instance& m) {
  Instance& s = *m.promotedSlave;
  if (s.link.disconnected) {
    if (mstime() - m.failoverStateChangeTime > m.failoverTimeout) {
      event("-failover-abort-slave-timeout", &m);
      abortFailover(m);
    }
    return;
  }
  if (!sendSlaveOf(s, "", 0)) return;
  event("+failover-state-wait-promotion", &s);
  m.failoverState = kWaitPromotion;
  m.failoverStateChangeTime = mstime();
}

void SentinelNode::failoverDetectEnd(Instance& m) {
  const std::int64_t elapsed = mstime() - m.failoverStateChangeTime;
  if (!m.promotedSlave || (m.promotedSlave->flags & kSDown)) return;
  int notReconfigured = 0;
  for (const auto& [k, s] : m.slaves) {
    if (s->flags & (kPromoted | kReconfDone)) continue;
    if (s->flags & kSDown) continue;
    ++notReconfigured;
  }
  bool timeout = false;
  if (elapsed > m.failoverTimeout) {
    notReconfigured = 0;
    timeout = true;
    event("+failover-end-for-timeout", &m);
  }
  if (notReconfigured == 0) {
    event("+failover-end", &m);
    m.failoverState = kUpdateConfig;
    m.failoverStateChangeTime = mstime();
  }
  if (timeout) {
    for (auto& [k, s] : m.slaves) {
      if (s->flags & (kPromoted | kReconfDone | kReconfSent)) continue;
      if (s->link.disconnected) continue;
      if (sendSlaveOf(*s, m.promotedSlave->host, m.promotedSlave->port)) {
        event("+slave-reconf-sent-be", s.get());
        s->flags |= kReconfSent;
      }
    }
  }
}

void SentinelNode::failoverReconfNextSlave(Instance& m) {
  const std::int64_t now = mstime();
  int inProgress = 0;
  for (const auto& [k, s] : m.slaves)
    if (s->flags & (kReconfSent | kReconfInprog)) ++inProgress;
  for (auto& [k, sp] : m.slaves) {
    if (inProgress >= m.parallelSyncs) break;
    Instance& s = *sp;
    if (s.flags & (kPromoted | kReconfDone)) continue;
    // Stuck too long after SLAVEOF: count it done; a later check fixes its config.
    if ((s.flags & kReconfSent) && now - s.slaveReconfSentTime > kSlaveReconfTimeout) {
      event("-slave-reconf-sent-timeout", &s);
      s.flags &= ~kReconfSent;
      s.flags |= kReconfDone;
    }
    if (s.flags & (kReconfSent | kReconfInprog)) continue;
    if (s.link.disconnected) continue;
    if (sendSlaveOf(s, m.promotedSlave->host, m.promotedSlave->port)) {
      s.flags |= kReconfSent;
      s.slaveReconfSentTime = now;
      event("+slave-reconf-sent", &s);
      ++inProgress;
    }
  }
  failoverDetectEnd(m);
}

void SentinelNode::failoverStateMachine(Instance& m) {
  if (!(m.flags & kFailoverInProgress)) return;
  switch (m.failoverState) {
    case kWaitStart: failoverWaitStart(m); break;
    case kSelectSlave: failoverSelectSlave(m); break;
    case kSendSlaveofNoone: failoverSendSlaveofNoone(m); break;
    case kWaitPromotion:
      // Promotion is observed in the promoted replica's INFO; here only the timeout.
      if (mstime() - m.failoverStateChangeTime > m.failoverTimeout) {
        event("-failover-abort-slave-timeout", &m);
        abortFailover(m);
      }
      break;
    case kReconfSlaves: failoverReconfNextSlave(m); break;
    default: break;
  }
}

void SentinelNode::switchToPromoted(Instance& m) {
  const Instance* ref = m.promotedSlave ? m.promotedSlave : &m;
  const std::string host = ref->host;
  const int port = ref->port;
  if (m.configEpoch > m.failoverEpoch) ++staleEnds_;
  event("+switch-master", nullptr, fmt::format("{} {} {} {} {}", m.name, m.host, m.port, host, port));
  resetMasterAndChangeAddress(m, host, port);
}

}  // namespace kun::redissim
