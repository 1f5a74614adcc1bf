// The delete step: a deleted cluster is held to no-orphans, with and without
// keepAfterDeletion, and leftovers are reported.
#include <gtest/gtest.h>

#include <filesystem>

#include "scenarios/invariants.h"
#include "scenarios/scenario_parse.h"
#include "scenarios/scenario_runner.h"
#include "tests/scenario/harness/demo_scenario.h"

namespace kun::scenario {
namespace {

RunOptions quick() {
  RunOptions o;
  o.quietWindow = seconds(10);
  return o;
}

const InvariantOutcome& orphans(const RunReport& r) { return r.invariants.at(std::string(inv::kNoOrphans)); }

// One cluster kept its volumes, was made again and still has its data; the other took
// everything with it, claims included.
TEST(DeleteRun, LibraryScenarioHoldsNoOrphansWithAndWithoutKeepAfterDeletion) {
  const auto root = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().parent_path();
  auto s = readScenarioFile((root / "scenarios" / "delete-cluster.yaml").string());
  ASSERT_TRUE(s.ok()) << s.error().message;
  const auto r = runScenario(*s, quick()).report;
  EXPECT_TRUE(r.passed()) << r.failureDetail;
  EXPECT_EQ(orphans(r).state, InvariantOutcome::State::Held) << orphans(r).detail;
  EXPECT_EQ(r.writesAcknowledged, 20);
  EXPECT_EQ(r.writesLost, 0);  // read back from the kept volumes
}

// Garbage collection that leaves the cluster's objects behind (here: the dependents
// orphaned on purpose) is a liveness failure naming what remains.
TEST(DeleteRun, ObjectsLeftBehindAreReported) {
  const auto r = runScenario(demoScenario("delete: {propagation: orphan}"), quick()).report;
  EXPECT_EQ(r.failure, FailureClass::Liveness) << r.failureDetail;
  EXPECT_EQ(orphans(r).state, InvariantOutcome::State::Violated);
  EXPECT_NE(orphans(r).detail.find("of the deleted cluster remains"), std::string::npos) << orphans(r).detail;
  const auto clean = runScenario(demoScenario("delete: {}"), quick()).report;
  EXPECT_TRUE(clean.passed()) << clean.failureDetail;
  EXPECT_EQ(orphans(clean).state, InvariantOutcome::State::Held);
  EXPECT_EQ(clean.writesLost, 0);  // forgotten with the cluster, not lost
}

// Any object by kind and name; the operator makes it again and nothing is orphaned.
TEST(DeleteRun, DeletingAnOwnedObjectIsHealedAndNotAnOrphanCheck) {
  const auto r = runScenario(demoScenario("delete: {kind: ConfigMap, name: redis-cluster-demo}"), quick()).report;
  EXPECT_TRUE(r.passed()) << r.failureDetail;
  EXPECT_EQ(orphans(r).state, InvariantOutcome::State::NotChecked);
  const auto missing = runScenario(demoScenario("delete: {kind: Service, name: no-such-service}"), quick()).report;
  EXPECT_EQ(missing.failure, FailureClass::BadInput) << missing.failureDetail;
  EXPECT_NE(missing.failureDetail.find("inline.yaml:9"), std::string::npos) << missing.failureDetail;
}

}  // namespace
}  // namespace kun::scenario
