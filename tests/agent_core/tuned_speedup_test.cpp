// The speedup over the autotuned baseline in an agent's result: the score's fields, the one-run summary
// and its JSON, and the identity of the tuner's search space that keys the cached tuned baseline.
#include <gtest/gtest.h>

#include <set>

#include "agent/common/agent_run.h"
#include "agent/tuner/tuner.h"

namespace kcraft::agent {
namespace {

AgentResult passing_result(uint64_t cycles, uint64_t baseline_cycles) {
  AgentResult r;
  r.agent = "llm:openai/some-model";
  r.context.task = "gemm";
  r.context.config = "C4";
  r.status = "submitted";
  r.iterations = 7;
  r.budget = 15;
  r.final_code = "C_HALT\n";
  r.score.verdict = Verdict::kPass;
  r.score.cycles = cycles;
  r.score.baseline_cycles = baseline_cycles;
  r.score.speedup = static_cast<double>(baseline_cycles) / static_cast<double>(cycles);
  return r;
}

TEST(TunedSpeedup, ScoreComparesWithTheTunedBaselineOnlyForPassingKernels) {
  Score s;
  s.verdict = Verdict::kPass;
  s.cycles = 1000;
  EXPECT_FALSE(s.to_json().contains("tuned_speedup"));  // not looked up: not reported as 0
  s.set_tuned_baseline(1250);
  EXPECT_DOUBLE_EQ(s.tuned_speedup, 1.25);
  EXPECT_EQ(s.to_json()["tuned_baseline_cycles"], 1250);
  EXPECT_DOUBLE_EQ(s.to_json()["tuned_speedup"].get<double>(), 1.25);
  s.set_tuned_baseline(0);  // the tuner found nothing correct: no speedup over it
  EXPECT_EQ(s.tuned_speedup, 0.0);
  Score failed;
  failed.verdict = Verdict::kMismatch;
  failed.cycles = 900;
  failed.set_tuned_baseline(1250);
  EXPECT_EQ(failed.tuned_speedup, 0.0);
}

TEST(TunedSpeedup, SummaryShowsBothSpeedupsAndWhereTheTunedBaselineCameFrom) {
  AgentResult r = passing_result(800, 2000);
  const std::string without = r.summary();
  EXPECT_NE(without.find("vs baseline 2000 = speedup 2.500x"), std::string::npos) << without;
  EXPECT_EQ(without.find("tuned"), std::string::npos) << without;

  r.score.set_tuned_baseline(1000);
  r.tuned_baseline =
      TunedBaselineInfo{"cached", "the offline tuner's best kernel, cached in x.db", "x.db", {}};
  const std::string text = r.summary();
  EXPECT_NE(text.find("800 cycles vs baseline 2000 = speedup 2.500x; vs tuned baseline 1000 = 1.250x"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  tuned baseline (cached): the offline tuner's best kernel, cached in x.db\n"),
            std::string::npos)
      << text;
  const auto j = r.to_json();
  EXPECT_DOUBLE_EQ(j["score"]["speedup"].get<double>(), 2.5);  // unchanged: over the template baseline
  EXPECT_EQ(j["score"]["tuned_baseline_cycles"], 1000);
  EXPECT_DOUBLE_EQ(j["score"]["tuned_speedup"].get<double>(), 1.25);
  EXPECT_EQ(j["tuned_baseline"]["origin"], "cached");
  EXPECT_EQ(j["tuned_baseline"]["store"], "x.db");

  // A kernel slower than the tuned baseline says so with a speedup below 1.
  AgentResult slow = passing_result(1500, 2000);
  slow.score.set_tuned_baseline(1000);
  EXPECT_NE(slow.summary().find("vs tuned baseline 1000 = 0.667x"), std::string::npos) << slow.summary();
}

TEST(TunedSpeedup, SearchSpaceIdIsStableAndSeparatesWhatTheTunerExplores) {
  std::set<std::string> ids;
  for (const std::string hw : {"default", "small"}) {
    for (const std::string task : {"gemm", "relu"}) {
      for (const std::string config : {"C1", "C2"}) {
        TaskContext ctx;
        ctx.hw_config = hw;
        ctx.task = task;
        ctx.config = config;
        const std::string id = tuner_search_space_id(ctx);
        ASSERT_EQ(id.size(), 16u) << hw << " " << task << " " << config;
        EXPECT_EQ(id, tuner_search_space_id(ctx));  // stable
        ctx.dev_seed = 99;  // the tuned baseline's definition fixes the seed: the context's does not matter
        EXPECT_EQ(id, tuner_search_space_id(ctx));
        ids.insert(id);
      }
    }
  }
  EXPECT_EQ(ids.size(), 8u);  // each cell's knobs and baseline kernel differ
}

}  // namespace
}  // namespace kcraft::agent
