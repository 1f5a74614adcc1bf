// A simulated Sentinel's INFO is answered with only the lines its parse reads
// (RedisNode::sentinelInfoText). Those must be the lines of the whole INFO text that
// SentinelNode::refreshInfo reads, in order and as far as it reads them, in every state a
// node goes through; and a world whose sentinels get the lines must run event for event
// as one whose sentinels get the whole text.
#include <gtest/gtest.h>

#include <cctype>
#include <set>

#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

bool startsWith(std::string_view l, std::string_view p) { return l.substr(0, p.size()) == p; }

// The lines of a whole INFO text refreshInfo reads: those of the Server and Replication
// sections it matches by name, a replica line up to its port (it reads ip= and port= to
// the next comma).
std::string linesSentinelReads(const std::string& info) {
  std::string out;
  bool skipping = false;
  std::size_t pos = 0;
  while (pos < info.size()) {
    std::size_t e = info.find("\r\n", pos);
    if (e == std::string::npos) e = info.size();
    std::string_view l(info.data() + pos, e - pos);
    pos = e + 2;
    if (l.empty()) continue;
    if (l[0] == '#') {
      skipping = !startsWith(l, "# Server") && !startsWith(l, "# Replication");
      continue;
    }
    if (skipping) continue;
    const bool replicaLine = l.size() >= 7 && startsWith(l, "slave") && std::isdigit(static_cast<unsigned char>(l[5]));
    if (replicaLine) {
      l = l.substr(0, l.find(",state="));
    } else if (!(l.size() >= 47 && startsWith(l, "run_id:")) && !startsWith(l, "role:master") &&
               !startsWith(l, "role:slave") && !startsWith(l, "replica_announced:") &&
               !(l.size() >= 32 && startsWith(l, "master_link_down_since_seconds")) &&
               !startsWith(l, "master_host:") && !startsWith(l, "master_port:") &&
               !startsWith(l, "master_link_status:") && !startsWith(l, "slave_priority:") &&
               !startsWith(l, "slave_repl_offset:")) {
      continue;
    }
    out.append(l);
    out += "\r\n";
  }
  return out;
}

struct Counts {
  int compared = 0, whole = 0;
  std::set<std::string> seen;
};

void expectLinesOfTheText(const Topology& t, Counts& n) {
  for (int i = 0; i < t.redisCount(); ++i) {
    RedisNode& r = t.redis(i);
    if (r.state() != SimProcess::State::Running) continue;
    std::string lines;
    if (!r.sentinelInfoText(lines)) {
      ++n.whole;
      continue;
    }
    ++n.compared;
    const std::string info = r.infoText("default");
    EXPECT_EQ(lines, linesSentinelReads(info)) << info;
    n.seen.insert(r.isMaster() ? "master" : r.masterLinkUp() ? "link up" : "link down");
    if (r.connectedReplicas() > 0) n.seen.insert("replicas");
    if (info.find("master_link_down_since_seconds:-1") != std::string::npos) n.seen.insert("never up");
    if (info.find("replica_announced:0") != std::string::npos) n.seen.insert("not announced");
  }
}

// One run of a 1+2 / 3-sentinel layout through crashes, a failover, a replica pointed
// elsewhere, changed priorities and announcements, and odd master hosts; `each` runs
// every 100 ms of it.
template <class F>
void scenario(SimWorld& w, Topology& t, F each) {
  auto step = [&](Duration d) {
    for (Duration done{}; done < d; done += milliseconds(100)) {
      w.runFor(milliseconds(100));
      each();
    }
  };
  step(seconds(20));
  (void)w.must(Topology::redisEp(0), {"SET", "k", "v"});
  (void)w.must(Topology::redisEp(2), {"CONFIG", "SET", "replica-priority", "7"});
  (void)w.must(Topology::redisEp(1), {"CONFIG", "SET", "replica-announced", "no"});
  step(seconds(12));
  (void)w.must(Topology::redisEp(1), {"CONFIG", "SET", "replica-announced", "yes"});
  (void)w.must(Topology::redisEp(2), {"REPLICAOF", "10.0.0.77", "6379"});  // sentinels fix it
  step(seconds(15));
  t.redis(0).crash();  // failover
  step(seconds(25));
  t.redis(0).start();  // the old master comes back and is converted
  step(seconds(20));
  t.redis(1).hang();
  step(seconds(3));
  t.redis(1).resume();
  step(seconds(10));
  // Master hosts as a client may give them: a trailing space, a line break (the whole
  // text is answered then).
  bool first = true;
  for (int i = 0; i < t.redisCount(); ++i) {
    if (t.redis(i).isMaster()) continue;
    (void)w.must(Topology::redisEp(i), {"REPLICAOF", first ? "10.0.0.9 " : "10.0.0.9\r\nrole:master", "6379"});
    first = false;
  }
  step(seconds(12));
}

TEST(SentinelInfoText, LinesAreThoseOfTheWholeTextSentinelReads) {
  SimWorld w;
  Topology t{w.sim, {}};
  Counts n;
  scenario(w, t, [&] { expectLinesOfTheText(t, n); });
  EXPECT_GT(n.compared, 2000);
  EXPECT_GT(n.whole, 0);  // the host with a line break
  for (const char* s : {"master", "link up", "link down", "replicas", "never up", "not announced"})
    EXPECT_EQ(n.seen.count(s), 1u) << s;
}

std::vector<std::string> traceOf(bool lines, std::uint64_t seed) {
  SimWorld w(seed);
  w.sim.fabric().setSentinelInfoLines(lines);
  Topology t{w.sim, {}};
  scenario(w, t, [] {});
  std::vector<std::string> out;
  for (const auto& e : w.trace.entries())
    out.push_back(formatLoopTime(e.time) + " " + e.component + " | " + e.text);
  return out;
}

TEST(SentinelInfoText, SentinelsRunAsWithTheWholeText) {
  for (std::uint64_t seed : {1, 2, 3}) {
    const auto whole = traceOf(false, seed);
    const auto lines = traceOf(true, seed);
    ASSERT_EQ(lines.size(), whole.size()) << "seed " << seed;
    for (std::size_t i = 0; i < whole.size(); ++i) ASSERT_EQ(lines[i], whole[i]) << "seed " << seed << " entry " << i;
    int events = 0;
    for (const auto& e : whole) events += e.find("+slave ") != std::string::npos || e.find("+fix-slave-config") != std::string::npos ||
                                          e.find("+convert-to-slave") != std::string::npos;
    EXPECT_GT(events, 3) << "seed " << seed;
  }
}

}  // namespace
}  // namespace kun::redissim::test
