#pragma once
// `kun-sim prop --jobs N`: the runs split over N child processes side by side, one per
// core. Job k is exactly `kun-sim prop --seed S+k --runs R_k` (the same options otherwise;
// R_k is its share of the runs), so any job's sequence can be run again alone. The first
// job to find a failure (shrunk and written as usual) is the answer and the other jobs
// are stopped. Processes rather than threads: each job's simulated world stays the only
// one in its process, as it is in a single run.
#include <cstdint>
#include <string>

#include "scenarios/prop_run.h"

namespace kun::scenario {

struct PropJob {
  int index = 0;
  std::uint64_t seed = 0;  // the job's sequence: --seed
  int runs = 0;            // its share of the runs: --runs
};

// Job k of `jobs` for these options (jobs > 0, k < jobs).
PropJob propJob(const PropOptions& opts, int jobs, int k);

struct PropJobsResult {
  // On a pass, the runs of all jobs (trials); on a failure, the failing job's result as
  // runProperty gives it. error: a job could not run, or ended without an answer.
  PropResult result;
  PropJob failed;  // the job whose failure result holds (result.failed)
  int jobs = 0;    // jobs run (never more than the runs)
};

// opts.progress gets every job's lines, each prefixed "[job k] ". With jobs == 1 this is
// runProperty in this process.
PropJobsResult runPropertyJobs(const PropOptions& opts, int jobs);

}  // namespace kun::scenario
