#include "core/rediscluster/observe.h"

#include <algorithm>
#include <charconv>

#include "core/redis/reply_error.h"
#include "core/rediscluster/layout.h"

namespace kun::rediscluster {

namespace {

constexpr std::string_view kPlaceholderHost = "127.0.0.1";

std::int32_t ordinalOf(std::string_view name) {
  const auto dash = name.rfind('-');
  if (dash == std::string_view::npos || dash + 1 == name.size()) return -1;
  std::int32_t n = -1;
  const char* first = name.data() + dash + 1;
  const char* last = name.data() + name.size();
  auto [ptr, ec] = std::from_chars(first, last, n);
  if (ec != std::errc() || ptr != last) return -1;
  return n;
}

// A refused password: try the next one. Redis answers WRONGPASS/NOAUTH for a wrong or
// missing one, and an ERR for AUTH sent to a node that has none.
bool passwordRefused(const RedisReply& r) {
  if (!r.isError()) return false;
  const std::string code = r.errorCode();
  if (code == "NOAUTH" || code == "WRONGPASS") return true;
  return r.str.find("without any password configured") != std::string::npos ||
         r.str.find("invalid password") != std::string::npos;
}

bool ordinalLess(const PodInfo& a, const PodInfo& b) {
  return a.ordinal != b.ordinal ? a.ordinal < b.ordinal : a.name < b.name;
}

// pods in ordinal order: pods itself when it is (the reconciler's are), else a sorted copy
// kept in `sorted`.
const std::vector<PodInfo>& byOrdinal(const std::vector<PodInfo>& pods, std::vector<PodInfo>& sorted) {
  if (std::is_sorted(pods.begin(), pods.end(), ordinalLess)) return pods;
  sorted = pods;
  std::sort(sorted.begin(), sorted.end(), ordinalLess);
  return sorted;
}

// A SENTINEL REPLICAS or SENTINELS list, as the node's reply or straight from the node.
template <class Info>
Result<std::vector<Info>> instances(RedisAdmin& admin, const RedisEndpoint& ep, const std::vector<std::string>& argv,
                                    Result<std::vector<Info>> (*parse)(const RedisReply&)) {
  SentinelReader<Info> reader;
  auto reply = admin.sentinelInstances(ep, argv, reader);
  if (!reply.ok()) return reply.error();
  return *reply ? parse(**reply) : reader.takeAll();
}

}  // namespace

PodInfo podInfoFrom(const Object& pod) {
  PodInfo p;
  p.name = meta::name(pod);
  p.uid = meta::uid(pod);
  p.ordinal = ordinalOf(p.name);
  p.terminating = meta::isDeleting(pod);
  p.revision = meta::label(pod, "controller-revision-hash");
  p.creationTimestamp = meta::creationTimestamp(pod);
  // One walk per member (memberOf), where contains() and then [] searched twice.
  const Object* status = memberOf(pod, "status");
  if (status && status->is_object()) {
    if (const Object* ip = memberOf(*status, "podIP"); ip && ip->is_string()) p.ip = ip->get<std::string>();
    if (const Object* phase = memberOf(*status, "phase"); phase && phase->is_string())
      p.running = phase->get_ref<const std::string&>() == "Running";
    if (const Object* conditions = memberOf(*status, "conditions"); conditions && conditions->is_array())
      for (const Object& c : *conditions)
        if (c.is_object() && c.value("type", "") == "Ready") p.ready = c.value("status", "") == "True";
  }
  return p;
}

bool RedisNodeView::onPlaceholder() const {
  return isReplica() && replication.masterHost == kPlaceholderHost;
}

bool RedisNodeView::inSync() const {
  return isReplica() && replication.masterLinkUp() && !replication.masterSyncInProgress;
}

std::int64_t RedisNodeView::offset() const {
  return std::max(replication.masterReplOffset, replication.isReplica() ? replication.slaveReplOffset : 0);
}

bool SentinelNodeView::failoverInProgress() const {
  return monitoring && (master.flags.failoverInProgress || !master.failoverState.empty());
}

bool SentinelNodeView::onPlaceholder() const { return monitoring && master.ip == kPlaceholderHost; }

const RedisNodeView* ClusterView::redisByIp(std::string_view ip) const {
  if (ip.empty()) return nullptr;
  for (const auto& n : redis)
    if (n.pod.ip == ip) return &n;
  return nullptr;
}

const SentinelNodeView* ClusterView::sentinelByIp(std::string_view ip) const {
  if (ip.empty()) return nullptr;
  for (const auto& s : sentinels)
    if (s.pod.ip == ip) return &s;
  return nullptr;
}

std::vector<const RedisNodeView*> ClusterView::masters() const {
  std::vector<const RedisNodeView*> out;
  for (const auto& n : redis)
    if (n.isMaster()) out.push_back(&n);
  return out;
}

bool ClusterView::anyFailoverInProgress() const {
  return std::any_of(sentinels.begin(), sentinels.end(), [](const SentinelNodeView& s) { return s.failoverInProgress(); });
}

namespace {

// observeRedis into a default-constructed view: observe() fills its list's elements in
// place, where moving each view in costs a dozen string moves.
void readRedis(RedisAdmin& admin, const PodInfo& pod, const std::vector<std::string>& passwords, RedisNodeView& v) {
  v.pod = pod;
  if (pod.ip.empty()) {
    v.error = makeError(Reason::Unavailable, pod.name + ": no pod IP yet");
    return;
  }
  const RedisEndpoint ep{pod.ip, layout::kRedisPort};
  static const std::vector<std::string> kNoPassword{std::string()};
  const auto& tries = passwords.empty() ? kNoPassword : passwords;
  for (std::size_t i = 0; i < tries.size(); ++i) {
    // Only the replication section: everything the view needs is there, and the default
    // sections cost the node several times as much to render and the operator to parse.
    auto answer = admin.replicationInfo(ep, tries[i], v.replication);
    if (!answer.ok()) {
      v.replication = ReplicationInfo{};  // the node may have answered before the link failed
      v.error = answer.error();
      return;  // the transport failed: another password will not help
    }
    if (const auto& reply = *answer) {  // the text, to parse here
      if (passwordRefused(*reply)) {
        v.error = errorFromReply(*reply);
        continue;
      }
      if (reply->isError() || reply->type != RedisReply::Type::String) {
        v.error = reply->isError() ? errorFromReply(*reply) : unexpectedReply("INFO", "a bulk string", *reply);
        return;
      }
      auto repl = parseReplicationInfo(std::string_view(reply->str));
      if (!repl.ok()) {
        v.error = repl.error();
        return;
      }
      v.replication = std::move(*repl);
    }
    v.replicaPriority = v.replication.slavePriority;
    v.password = static_cast<PasswordIndex>(i);
    v.reachable = true;
    v.error = Error{};
    return;
  }
  // Every password refused (wrong, or sent to a node that has none): an Auth error, however
  // the node worded its last refusal.
  v.error = makeError(Reason::Auth, v.error.message);
}

// observeSentinel into a default-constructed view, as readRedis.
void readSentinel(RedisAdmin& admin, const PodInfo& pod, SentinelNodeView& v) {
  v.pod = pod;
  if (pod.ip.empty()) {
    v.error = makeError(Reason::Unavailable, pod.name + ": no pod IP yet");
    return;
  }
  const RedisEndpoint ep{pod.ip, layout::kSentinelPort};
  // The same three commands every time: built once.
  static const std::string name(layout::kMasterName);
  static const std::vector<std::string> kMaster{"SENTINEL", "MASTER", name};
  static const std::vector<std::string> kReplicas{"SENTINEL", "REPLICAS", name};
  static const std::vector<std::string> kSentinels{"SENTINEL", "SENTINELS", name};
  static const std::vector<std::string> kInfo{"INFO", "sentinel"};
  SentinelReader<SentinelMasterInfo> masterReader;
  auto master = admin.sentinelInstances(ep, kMaster, masterReader);
  if (!master.ok()) {
    v.error = master.error();
    return;
  }
  if (*master && (*master)->isError()) {
    const Error e = errorFromReply(**master);
    if (e.reason != Reason::NotFound) {
      v.error = e;
      return;
    }
    v.reachable = true;  // it answers, and monitors nothing under our name
    return;
  }
  if (*master) {
    auto parsed = parseSentinelMaster(**master);
    if (!parsed.ok()) {
      v.error = parsed.error();
      return;
    }
    v.master = std::move(*parsed);
  } else if (Status taken = masterReader.takeOne(v.master); !taken.ok()) {
    v.error = taken.error();
    return;
  }
  v.reachable = true;
  v.monitoring = true;
  if (auto list = instances(admin, ep, kReplicas, parseSentinelReplicas); list.ok()) v.replicas = std::move(*list);
  if (auto list = instances(admin, ep, kSentinels, parseSentinelSentinels); list.ok()) v.peers = std::move(*list);
  if (auto info = admin.command(ep, kInfo); info.ok() && !info->isError())
    v.tilt = infoValue(info->str, "sentinel_tilt") == std::optional<std::string_view>("1");
}

}  // namespace

RedisNodeView observeRedis(RedisAdmin& admin, const PodInfo& pod, const std::vector<std::string>& passwords) {
  RedisNodeView v;
  readRedis(admin, pod, passwords, v);
  return v;
}

SentinelNodeView observeSentinel(RedisAdmin& admin, const PodInfo& pod) {
  SentinelNodeView v;
  readSentinel(admin, pod, v);
  return v;
}

ClusterView observe(RedisAdmin& admin, const ClusterPods& pods, const std::vector<std::string>& passwords) {
  std::vector<PodInfo> redisCopy, sentinelsCopy;
  const auto& redis = byOrdinal(pods.redis, redisCopy);
  const auto& sentinels = byOrdinal(pods.sentinels, sentinelsCopy);
  ClusterView view;
  view.redis.reserve(redis.size());
  for (const auto& p : redis) readRedis(admin, p, passwords, view.redis.emplace_back());
  view.sentinels.reserve(sentinels.size());
  for (const auto& p : sentinels) readSentinel(admin, p, view.sentinels.emplace_back());
  return view;
}

ClusterView observe(RedisAdmin& admin, const ClusterPods& pods, const std::string& password) {
  return observe(admin, pods, std::vector<std::string>{password});
}

}  // namespace kun::rediscluster
