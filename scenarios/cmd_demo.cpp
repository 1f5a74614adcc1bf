// `kun-sim demo`: a StatefulSet in a simulated 3-node cluster heals after pod deletions and
// scaling. Prints a timeline in virtual time and a verdict line.
#include <boost/program_options.hpp>

#include <charconv>
#include <cstdio>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fakeapi/controllers/pod_state.h"
#include "fakeapi/controllers/sim_cluster.h"
#include "fakeapi/controllers/statefulset_identity.h"
#include "scenarios/commands.h"

namespace kun::cli {
namespace {

namespace po = boost::program_options;

constexpr const char* kNamespace = "default";
constexpr const char* kSet = "redis";

struct DemoArgs {
  std::uint64_t seed = 1;
  int replicas = 3;
};

po::options_description describe() {
  po::options_description d("options");
  d.add_options()
      ("seed", po::value<std::string>()->value_name("N"), "seed of the simulated run (default 1)")
      ("replicas", po::value<std::string>()->value_name("N"), "StatefulSet size, 1..20 (default 3)")
      ("help,h", "show this help");
  return d;
}

std::string usage() {
  std::ostringstream out;
  out << "usage: kun-sim demo [--seed N] [--replicas N]\n\n"
         "Creates a simulated 3-node cluster (fake API server, scheduler, kubelet, StatefulSet\n"
         "and PVC controllers, all in virtual time), a StatefulSet with a volume claim per pod,\n"
         "waits until every pod is Running and Ready, then deletes pods and scales, and shows\n"
         "it heal. Exit 0 if it healed every time, 1 if not, 2 on bad options.\n\n"
      << describe();
  return out.str();
}

template <class Int>
Result<Int> number(const po::variables_map& vm, const char* option, Int lo, Int hi) {
  const std::string& s = vm[option].as<std::string>();
  Int v{};
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) {
    return makeError(Reason::Invalid,
                     fmt::format("--{}: expected an integer in {}..{}, got '{}'", option, lo, hi, s),
                     fmt::format("--{}", option));
  }
  return v;
}

// Ok(nullopt) for --help.
Result<std::optional<DemoArgs>> parse(int argc, char** argv) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv)  // skips argv[0], the subcommand
                  .options(describe())
                  .style(po::command_line_style::unix_style ^ po::command_line_style::allow_guessing)
                  .run(),
              vm);
  } catch (const po::error& e) {
    return makeError(Reason::Invalid, e.what());
  }
  if (vm.count("help")) return std::optional<DemoArgs>();
  DemoArgs a;
  if (vm.count("seed")) {
    auto s = number<std::uint64_t>(vm, "seed", 0, std::numeric_limits<std::uint64_t>::max());
    if (!s) return s.error();
    a.seed = *s;
  }
  if (vm.count("replicas")) {
    auto r = number<int>(vm, "replicas", 1, 20);
    if (!r) return r.error();
    a.replicas = *r;
  }
  return std::optional<DemoArgs>(a);
}

Object demoStatefulSet(int replicas) {
  const Object labels = {{"app", kSet}};
  const Object spread = {
      {"podAntiAffinity",
       {{"preferredDuringSchedulingIgnoredDuringExecution",
         Object::array({{{"weight", 100},
                         {"podAffinityTerm",
                          {{"labelSelector", {{"matchLabels", labels}}},
                           {"topologyKey", "kubernetes.io/hostname"}}}}})}}}};
  return Object{
      {"apiVersion", "apps/v1"},
      {"kind", "StatefulSet"},
      {"metadata", {{"name", kSet}, {"namespace", kNamespace}}},
      {"spec",
       {{"replicas", replicas},
        {"serviceName", kSet},
        {"selector", {{"matchLabels", labels}}},
        {"template",
         {{"metadata", {{"labels", labels}}},
          {"spec",
           {{"terminationGracePeriodSeconds", 10},
            {"affinity", spread},
            {"containers", Object::array({{{"name", "redis"}, {"image", "redis:7.2"}}})}}}}},
        {"volumeClaimTemplates",
         Object::array({{{"metadata", {{"name", "data"}}},
                         {"spec", {{"accessModes", Object::array({"ReadWriteOnce"})},
                                   {"resources", {{"requests", {{"storage", "1Gi"}}}}}}}}})}}},
  };
}

// Prints one line per pod change worth seeing: created, scheduled, running, ready, deleted.
class Timeline {
 public:
  explicit Timeline(sim::SimCluster& c) : c_(c) {
    auto w = c.client().watch(res::pods, kNamespace, {}, [this](const WatchEvent& ev) { onPod(ev); },
                              [this](const Error& e) { line("watch", "pod watch closed: " + e.message); });
    if (w) watch_ = std::move(w.value());
  }

  void line(std::string_view what, const std::string& text) {
    std::printf("%10s  %-8s %s\n", formatLoopTime(c_.loop().now()).c_str(), std::string(what).c_str(), text.c_str());
  }

 private:
  struct Seen {
    std::string uid, node, ip;
    bool running = false, ready = false, deleting = false;
  };

  void onPod(const WatchEvent& ev) {
    const Object& pod = *ev.object;
    const std::string name = meta::name(pod);
    if (ev.type == WatchEventType::Deleted) {
      line("pod", name + " deleted");
      seen_.erase(name);
      return;
    }
    Seen& s = seen_[name];
    if (s.uid != meta::uid(pod)) {
      s = Seen{meta::uid(pod), "", "", false, false, false};
      line("pod", name + " created");
    }
    const std::string node = sim::podNodeName(pod);
    if (node != s.node && !node.empty()) line("pod", fmt::format("{} scheduled on {}", name, node));
    s.node = node;
    const bool running = sim::podPhase(pod) == "Running";
    const std::string ip = sim::podIP(pod);
    if (running && (!s.running || ip != s.ip)) line("pod", fmt::format("{} Running, ip {}", name, ip));
    s.running = running;
    s.ip = ip;
    const bool ready = sim::podConditionTrue(pod, "Ready");
    if (ready != s.ready) line("pod", fmt::format("{} {}", name, ready ? "Ready" : "not Ready"));
    s.ready = ready;
    if (meta::isDeleting(pod) && !s.deleting) {
      line("pod", fmt::format("{} terminating (grace {}s)", name,
                              meta::deletionGracePeriodSeconds(pod).value_or(0)));
    }
    s.deleting = meta::isDeleting(pod);
  }

  sim::SimCluster& c_;
  std::unique_ptr<Watch> watch_;
  std::map<std::string, Seen> seen_;
};

// Exactly redis-0..n-1 exist, Running and Ready, and the StatefulSet's status says so.
bool healthy(KubeClient& client, int n) {
  auto pods = client.list(res::pods, kNamespace, ListOptions{"app=redis", {}});
  if (!pods || static_cast<int>(pods->items.size()) != n) return false;
  for (const auto& p : pods->items) {
    auto ord = sim::statefulSetOrdinal(kSet, meta::name(p));
    if (!ord || *ord >= n || !sim::isRunningAndReady(p)) return false;
  }
  auto set = client.get(res::statefulsets, kNamespace, kSet);
  if (!set || !set->contains("status")) return false;
  return (*set)["status"].value("readyReplicas", -1) == n && (*set)["status"].value("replicas", -1) == n;
}

int run(const DemoArgs& args) {
  sim::SimClusterOptions opts;
  opts.seed = args.seed;
  opts.nodes = 3;
  opts.zones = 3;
  sim::SimCluster c(opts);
  if (!c.setupStatus().ok()) {
    std::fprintf(stderr, "kun-sim demo: cluster set-up failed: %s\n", c.setupStatus().error().toString().c_str());
    return 1;
  }
  std::printf("kun-sim demo: seed %llu, StatefulSet %s/%s with %d replicas, 3 nodes\n\n",
              static_cast<unsigned long long>(args.seed), kNamespace, kSet, args.replicas);
  Timeline tl(c);
  std::string nodes;
  for (const auto& n : c.nodeNames()) {
    auto node = c.client().get(res::nodes, "", n);
    nodes += fmt::format("{}{} ({})", nodes.empty() ? "" : ", ", n,
                         node ? meta::label(*node, "topology.kubernetes.io/zone") : "?");
  }
  tl.line("cluster", fmt::format("{} nodes: {}", c.nodeNames().size(), nodes));

  int failures = 0;
  int steps = 0;
  Duration slowest{0};
  auto await = [&](int n, const std::string& what) {
    ++steps;
    const TimePoint from = c.loop().now();
    const bool ok = c.runUntil([&] { return healthy(c.client(), n); }, minutes(10));
    const Duration took = c.loop().now() - from;
    if (ok) {
      slowest = std::max(slowest, took);
      tl.line("check", fmt::format("healed: {}/{} pods Running and Ready after {} ({})", n, n,
                                   formatLoopTime(TimePoint(took)), what));
    } else {
      ++failures;
      tl.line("check", fmt::format("NOT healed within 10m: {}", what));
    }
    return ok;
  };
  auto deletePod = [&](int ordinal) {
    const std::string name = sim::statefulSetPodName(kSet, ordinal);
    tl.line("fault", "delete pod " + name);
    auto st = c.client().remove(res::pods, kNamespace, name);
    if (!st) tl.line("fault", "delete failed: " + st.error().toString());
  };
  auto scaleTo = [&](int n) {
    tl.line("apply", fmt::format("scale {} to {}", kSet, n));
    auto st = c.client().patch(res::statefulsets, kNamespace, kSet, Object{{"spec", {{"replicas", n}}}});
    if (!st) tl.line("apply", "scale failed: " + st.error().toString());
  };

  const int n = args.replicas;
  tl.line("apply", fmt::format("StatefulSet {} replicas={} (OrderedReady, PVC data-{}-N per pod)", kSet, n, kSet));
  if (auto made = c.client().create(res::statefulsets, demoStatefulSet(n)); !made) {
    std::fprintf(stderr, "kun-sim demo: creating the StatefulSet failed: %s\n", made.error().toString().c_str());
    return 1;
  }
  if (await(n, "initial roll-out")) {
    deletePod(n / 2);
    c.runFor(milliseconds(1));
    await(n, "one pod deleted");
    deletePod(0);
    if (n > 1) deletePod(n - 1);
    c.runFor(milliseconds(1));
    await(n, n > 1 ? "two pods deleted at once" : "pod deleted again");
    scaleTo(n + 2);
    c.runFor(milliseconds(1));
    await(n + 2, "scaled up");
    scaleTo(n);
    c.runFor(milliseconds(1));
    await(n, "scaled down");
  }
  // The claims outlive the pods: one per ordinal ever created, all Bound.
  auto claims = c.client().list(res::persistentvolumeclaims, kNamespace);
  int bound = 0;
  if (claims) {
    for (const auto& pvc : claims->items)
      if (pvc.contains("status") && pvc["status"].value("phase", "") == "Bound") ++bound;
  }
  tl.line("check", fmt::format("{} PVCs Bound (they outlive their pods)", bound));
  std::printf("\n");
  if (failures == 0) {
    std::printf("verdict: HEALED - %d/%d steps converged, slowest %s; virtual time %s, trace %s (seed %llu)\n",
                steps, steps, formatLoopTime(TimePoint(slowest)).c_str(), formatLoopTime(c.loop().now()).c_str(),
                c.trace().hashHex().c_str(), static_cast<unsigned long long>(args.seed));
    return 0;
  }
  std::printf("verdict: NOT HEALED - %d of %d steps did not converge; replay: kun-sim demo --seed %llu --replicas %d\n",
              failures, steps, static_cast<unsigned long long>(args.seed), n);
  return 1;
}

}  // namespace

int demoStatefulSet(int argc, char** argv) {
  auto args = parse(argc, argv);
  if (!args) {
    std::fprintf(stderr, "kun-sim demo: %s\n\n%s", args.error().message.c_str(), usage().c_str());
    return 2;
  }
  if (!args->has_value()) {
    std::printf("%s", usage().c_str());
    return 0;
  }
  return run(**args);
}

}  // namespace kun::cli
