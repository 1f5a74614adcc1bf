#include "scenarios/failover_timing_args.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace kun {
namespace {

Result<FailoverTimingArgs> parse(std::initializer_list<const char*> args) {
  std::vector<std::string> store{"failover-timing"};
  for (const char* a : args) store.emplace_back(a);
  std::vector<char*> argv;
  for (auto& s : store) argv.push_back(s.data());
  return parseFailoverTimingArgs(static_cast<int>(argv.size()), argv.data());
}

const std::initializer_list<const char*> kRequired = {
    "--down-after", "1000", "--failover-timeout", "60000", "--parallel-syncs", "1",
    "--fault", "kill"};

TEST(FailoverTimingArgs, AllOptions) {
  auto a = parse({"--down-after", "5000", "--failover-timeout", "30000", "--parallel-syncs", "2",
                  "--fault", "hang:3000", "--runs", "7", "--seed", "42", "--json", "out.json",
                  "--mode", "local"});
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->opts.downAfterMs, 5000);
  EXPECT_EQ(a->opts.failoverTimeoutMs, 30000);
  EXPECT_EQ(a->opts.parallelSyncs, 2);
  EXPECT_EQ(a->opts.fault, FailoverTimingOptions::Fault::Hang);
  EXPECT_EQ(a->opts.hangMs, 3000);
  EXPECT_EQ(a->opts.runs, 7);
  EXPECT_EQ(a->opts.seed, 42u);
  EXPECT_EQ(a->jsonOut, "out.json");
  EXPECT_EQ(a->mode, "local");
  EXPECT_FALSE(a->help);
}

TEST(FailoverTimingArgs, DefaultsAndEqualsSyntax) {
  auto a = parse({"--down-after=1000", "--failover-timeout=60000", "--parallel-syncs=1",
                  "--fault=kill"});
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->opts.fault, FailoverTimingOptions::Fault::Kill);
  EXPECT_EQ(a->opts.runs, 5);
  EXPECT_EQ(a->opts.seed, 1u);
  EXPECT_EQ(a->mode, "sim");
  EXPECT_TRUE(a->jsonOut.empty());
  EXPECT_GE(a->opts.observeMs, 60000);
}

TEST(FailoverTimingArgs, HelpNeedsNothingElse) {
  auto a = parse({"--help"});
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->help);
  EXPECT_NE(failoverTimingUsage().find("--fault"), std::string::npos);
}

struct BadCase {
  std::vector<const char*> args;  // replaces or adds to the required ones
  std::string field;
  std::string mentions;
};

TEST(FailoverTimingArgs, BadInputNamesTheOptionAndWhatWasExpected) {
  const std::vector<BadCase> cases = {
      {{"--down-after", "abc"}, "--down-after", "positive integer"},
      {{"--down-after", "0"}, "--down-after", "positive integer"},
      {{"--down-after", "-5"}, "--down-after", "positive integer"},
      {{"--failover-timeout", "1.5"}, "--failover-timeout", "positive integer"},
      {{"--parallel-syncs", "0"}, "--parallel-syncs", ">= 1"},
      {{"--fault", "crash"}, "--fault", "kill or hang:MS"},
      {{"--fault", "hang:"}, "--fault", "kill or hang:MS"},
      {{"--fault", "hang:0"}, "--fault", "kill or hang:MS"},
      {{"--fault", "hang:3s"}, "--fault", "kill or hang:MS"},
      {{"--runs", "0"}, "--runs", ">= 1"},
      {{"--seed", "-1"}, "--seed", "non-negative"},
      {{"--mode", "kind"}, "--mode", "sim or local"},
  };
  for (const auto& c : cases) {
    // Later values of an option are errors in program_options; build the list so the bad
    // option appears once.
    std::vector<std::string> store{"failover-timing"};
    std::vector<std::string> req(kRequired.begin(), kRequired.end());
    for (std::size_t i = 0; i < req.size(); i += 2) {
      if (req[i] != c.args[0]) {
        store.push_back(req[i]);
        store.push_back(req[i + 1]);
      }
    }
    for (const char* a : c.args) store.emplace_back(a);
    std::vector<char*> argv;
    for (auto& s : store) argv.push_back(s.data());
    auto r = parseFailoverTimingArgs(static_cast<int>(argv.size()), argv.data());
    ASSERT_FALSE(r.ok()) << c.args[0] << " " << c.args[1];
    EXPECT_EQ(r.error().reason, Reason::Invalid);
    EXPECT_EQ(r.error().field, c.field) << r.error().message;
    EXPECT_NE(r.error().message.find(c.mentions), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(c.args[1]), std::string::npos) << r.error().message;
  }
}

TEST(FailoverTimingArgs, MissingRequiredOptionIsNamed) {
  auto r = parse({"--down-after", "1000", "--failover-timeout", "60000", "--fault", "kill"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "--parallel-syncs");
  EXPECT_NE(r.error().message.find("required"), std::string::npos);
}

TEST(FailoverTimingArgs, UnknownOptionsAndStrayArgumentsAreRejected) {
  auto unknown = parse({"--down-after", "1000", "--failover-timeout", "60000",
                        "--parallel-syncs", "1", "--fault", "kill", "--observe", "5"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("--observe"), std::string::npos) << unknown.error().message;

  auto stray = parse({"--down-after", "1000", "--failover-timeout", "60000", "--parallel-syncs",
                      "1", "--fault", "kill", "extra"});
  EXPECT_FALSE(stray.ok());

  auto noValue = parse({"--down-after"});
  EXPECT_FALSE(noValue.ok());

  // No abbreviations: --down would be a guess.
  auto guessed = parse({"--down", "1000", "--failover-timeout", "60000", "--parallel-syncs", "1",
                        "--fault", "kill"});
  EXPECT_FALSE(guessed.ok());
}

}  // namespace
}  // namespace kun
