// The timeline picture is a pure function of its data and shows each part of it.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "scenarios/timeline.h"

namespace kun::scenario {
namespace {

TimePoint at(int s) { return TimePoint{} + seconds(s); }

Timeline sample() {
  Timeline t;
  t.title = "kill <master> & heal";
  t.samples = {
      {at(0), {{"redis-0", "master"}, {"redis-1", "replica"}, {"sentinel-0", "sentinel"}}, true},
      {at(10), {{"redis-0", "master"}, {"redis-1", "replica"}, {"sentinel-0", "sentinel"}}, true},
      {at(20), {{"redis-1", "replica"}, {"sentinel-0", "sentinel"}}, false},
      {at(35), {{"redis-0", "replica"}, {"redis-1", "master"}, {"sentinel-0", "sentinel"}}, true},
  };
  t.faults = {{"pod-kill master", at(20), at(20)}, {"network-partition", at(25), at(40)}, {"api-errors", at(30), at(50)}};
  t.failovers = {{at(33), "failover 10.0.0.1 -> 10.0.0.2"}};
  t.end = at(60);
  return t;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(Timeline, SameDataSameBytes) { EXPECT_EQ(renderTimelineSvg(sample()), renderTimelineSvg(sample())); }

TEST(Timeline, DrawsRolesMergedHealthFaultsAndFailovers) {
  const auto svg = renderTimelineSvg(sample());
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  // Equal neighbouring samples make one bar: redis-0 master 0..20 once, then absent, then replica.
  EXPECT_EQ(count(svg, "<title>redis-0 master from 0.000s to 20.000s</title>"), 1);
  EXPECT_EQ(count(svg, "<title>redis-0 replica from 35.000s to 60.000s</title>"), 1);
  EXPECT_EQ(count(svg, "<title>redis-1 master from 35.000s to 60.000s</title>"), 1);
  EXPECT_EQ(count(svg, "<title>sentinel-0 sentinel from 0.000s to 60.000s</title>"), 1);
  EXPECT_EQ(count(svg, "<title>not healthy from 20.000s to 35.000s</title>"), 1);
  EXPECT_EQ(count(svg, "<title>healthy from 0.000s to 20.000s</title>"), 1);
  EXPECT_EQ(count(svg, "pod-kill master"), 2);  // bar title and its label
  EXPECT_NE(svg.find("failover 10.0.0.1 -&gt; 10.0.0.2 at 33.000s"), std::string::npos);
  // Text is escaped.
  EXPECT_NE(svg.find("kill &lt;master&gt; &amp; heal"), std::string::npos);
  EXPECT_EQ(svg.find("<master>"), std::string::npos);
}

TEST(Timeline, OverlappingFaultsTakeSeparateLanes) {
  const auto svg = renderTimelineSvg(sample());
  // Faults are bars with fill #9467bd; the partition and the API errors overlap so they are
  // on different rows (different y).
  std::regex bar(R"re(<rect x="[0-9.]+" y="([0-9]+)"[^>]*fill="#9467bd")re");
  std::set<std::string> ys;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator(); ++it)
    ys.insert((*it)[1].str());
  // The kill (an instant, over by 25s) and the partition share a lane; the API errors do not.
  EXPECT_EQ(ys.size(), 2u);
}

TEST(Timeline, EmptyDataStillMakesAPicture) {
  Timeline t;
  t.title = "nothing";
  const auto svg = renderTimelineSvg(t);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(count(svg, "<rect"), 0);
}

}  // namespace
}  // namespace kun::scenario
