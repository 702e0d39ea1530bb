// The evaluation cache (agent/common/eval_cache.h): a hit is the identical result with nothing simulated,
// and every input an evaluation depends on is in the key, so changing any of them misses.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "agent/common/environment.h"
#include "agent/common/eval_cache.h"
#include "agent/common/scoring.h"
#include "tasks/common/compare.h"
#include "tb/common/eval_identity.h"
#include "tb/common/platform.h"

namespace kcraft::agent {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// This test process's scratch directory, removed when the process exits.
const fs::path& scratch_dir() {
  static const struct Scratch {
    fs::path dir = fs::temp_directory_path() / ("kcraft-eval-cache-test-" + std::to_string(::getpid()));
    ~Scratch() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } scratch;
  return scratch.dir;
}

fs::path fresh_db(const std::string& name) {
  const fs::path& dir = scratch_dir();
  fs::create_directories(dir);
  const fs::path db = dir / (name + ".db");
  fs::remove(db);
  return db;
}

// The default platform's baseline kernel of `task` at `config`, asked for at `run_config`.
EvalRequest baseline_request(const std::string& task, const std::string& config,
                             const std::string& run_config, uint64_t seed) {
  TaskContext ctx;
  ctx.task = task;
  ctx.config = config;
  const auto kernel = baseline_kernel(ctx);
  EvalRequest r;
  r.platform = ctx.platform;
  r.hw_config = ctx.hw_config;
  r.task = task;
  r.config = run_config;
  r.seed = seed;
  r.source = kernel.source;
  r.filename = platform(ctx.platform).kernel_file_name(kernel.language);
  return r;
}

json without_cache_field(const EvalReport& r) {
  json j = r.to_json();
  j.erase("cache");
  return j;
}

TEST(EvalCache, AHitReturnsTheIdenticalResultAndSimulatesNothing) {
  const auto db = fresh_db("hit");
  const EvalRequest request = baseline_request("relu", "C1", "C1", 3);
  EvalCache cache(db);
  const EvalReport first = cache.evaluate(request, task_registry());
  ASSERT_EQ(first.verdict, Verdict::kPass) << first.headline;
  EXPECT_EQ(first.cache, "miss");
  const EvalReport second = cache.evaluate(request, task_registry());
  EXPECT_EQ(second.cache, "hit");
  EXPECT_EQ(report_to_cache_json(second), report_to_cache_json(first));
  EXPECT_EQ(without_cache_field(second), without_cache_field(first));
  EXPECT_EQ(second.cycles, first.cycles);
  EXPECT_GT(second.cycles, 0u);
  EXPECT_EQ(cache.stats().hits, 1u);
  EXPECT_EQ(cache.stats().misses, 1u);
  EXPECT_EQ(cache.size(), 1u);
  // Another process's view of the same store finds it too.
  EvalCache other(db);
  const auto stored = other.find(evaluation_key(request, task_registry()));
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(report_to_cache_json(*stored), report_to_cache_json(first));
}

TEST(EvalCache, AMismatchComesBackWithEveryRowAndElement) {
  // C1's kernel on C3's inputs: it writes only part of the output.
  const EvalRequest request = baseline_request("relu", "C1", "C3", 5);
  EvalCache cache(fresh_db("mismatch"));
  const EvalReport first = cache.evaluate(request, task_registry());
  ASSERT_EQ(first.verdict, Verdict::kMismatch) << first.headline;
  ASSERT_TRUE(first.compare.has_value());
  ASSERT_FALSE(first.compare->outputs.empty());
  EXPECT_GT(first.compare->outputs.front().rows.size(), 64u);  // more than eval's JSON shows
  const EvalReport second = cache.evaluate(request, task_registry());
  ASSERT_EQ(second.cache, "hit");
  ASSERT_TRUE(second.compare.has_value());
  EXPECT_EQ(tasks::to_json(*second.compare), tasks::to_json(*first.compare));
  EXPECT_EQ(tasks::format_compare(*second.compare), tasks::format_compare(*first.compare));
  EXPECT_EQ(without_cache_field(second), without_cache_field(first));
}

TEST(EvalCache, AChangedKernelByteOrSeedMisses) {
  EvalCache cache(fresh_db("changes"));
  EvalRequest request = baseline_request("relu", "C1", "C1", 7);
  ASSERT_EQ(cache.evaluate(request, task_registry()).cache, "miss");
  ASSERT_EQ(cache.evaluate(request, task_registry()).cache, "hit");

  EvalRequest changed_byte = request;
  ASSERT_FALSE(changed_byte.source.empty());
  const auto at = changed_byte.source.find('\n');  // the first line is a comment: the result stays the same
  ASSERT_NE(at, std::string::npos);
  changed_byte.source.insert(at, " ");
  const EvalReport byte = cache.evaluate(changed_byte, task_registry());
  EXPECT_EQ(byte.cache, "miss");
  EXPECT_EQ(byte.verdict, Verdict::kPass);

  EvalRequest other_seed = request;
  other_seed.seed = 8;
  EXPECT_EQ(cache.evaluate(other_seed, task_registry()).cache, "miss");
  EXPECT_EQ(cache.evaluate(other_seed, task_registry()).cache, "hit");
  EXPECT_EQ(cache.size(), 3u);
}

TEST(EvalCache, EveryInputIsInTheKey) {
  const EvalRequest request = baseline_request("relu", "C1", "C1", 7);
  const Platform& p = platform(request.platform);
  EvalKeyContext context;
  context.identity = tb::eval_identity(request.platform);
  context.toolchain = p.toolchain_identity();
  context.hw = p.hw_config(request.hw_config);
  context.task_spec = "name: relu\n";
  ASSERT_EQ(context.identity.size(), 64u) << "the build embeds no identity of " << request.platform;
  const auto key = [](const EvalRequest& r, const EvalKeyContext& c) {
    return sha256_hex(evaluation_key_material(r, c).dump());
  };
  const std::string base = key(request, context);
  EXPECT_EQ(key(request, context), base);
  // The RTL, the testbench, the compiler (the identity; tests/tb/eval_identity_test.cpp checks that a
  // changed RTL file changes it) and the platform's external tools.
  EvalKeyContext c = context;
  c.identity.back() = c.identity.back() == '0' ? '1' : '0';
  EXPECT_NE(key(request, c), base);
  c = context;
  c.toolchain += "clang 17\n";
  EXPECT_NE(key(request, c), base);
  // Every hardware parameter, built or runtime.
  ASSERT_FALSE(context.hw.build.empty());
  ASSERT_FALSE(context.hw.runtime.empty());
  c = context;
  c.hw.build.begin()->second += 1;
  EXPECT_NE(key(request, c), base);
  c = context;
  c.hw.runtime.begin()->second += 1;
  EXPECT_NE(key(request, c), base);
  c = context;
  c.task_spec += "# changed\n";
  EXPECT_NE(key(request, c), base);
  // The request itself.
  for (const auto& change : std::vector<std::function<void(EvalRequest&)>>{
           [](EvalRequest& r) { r.source.back() ^= 1; }, [](EvalRequest& r) { ++r.seed; },
           [](EvalRequest& r) { r.config = "C2"; }, [](EvalRequest& r) { r.task = "silu"; },
           [](EvalRequest& r) { r.filename = "other.s"; }, [](EvalRequest& r) { r.cycle_cap = 1000; },
           [](EvalRequest& r) { r.check_model = false; }, [](EvalRequest& r) { r.max_cycles = 1000; }}) {
    EvalRequest r = request;
    change(r);
    EXPECT_NE(key(r, context), base);
  }
}

// kcraft serve's cycle ceiling enters the key only when it is set: the key material of a request without
// one has exactly the fields it had before the ceiling existed, so no key already in a store changes.
TEST(EvalCache, TheCycleCeilingEntersTheKeyOnlyWhenSet) {
  const EvalRequest request = baseline_request("relu", "C1", "C1", 7);
  EvalKeyContext context;
  context.identity = std::string(64, 'a');
  context.hw = platform(request.platform).hw_config(request.hw_config);
  const nlohmann::json material = evaluation_key_material(request, context);
  EXPECT_FALSE(material.contains("max_cycles"));
  const std::vector<std::string> fields_before_the_ceiling = {
      "format", "platform", "identity",  "toolchain",   "hw",       "task",  "task_spec",
      "config", "seed",     "cycle_cap", "check_model", "filename", "source"};
  std::vector<std::string> fields;
  for (const auto& [name, value] : material.items()) fields.push_back(name);
  std::sort(fields.begin(), fields.end());
  std::vector<std::string> expected = fields_before_the_ceiling;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(fields, expected);
  EvalRequest ceiling = request;
  ceiling.max_cycles = 5000;
  EXPECT_EQ(evaluation_key_material(ceiling, context).value("max_cycles", uint64_t{0}), 5000u);
  // The effective cap: the ceiling lowers the default or an explicit cap, never raises it.
  EXPECT_EQ(effective_cycle_cap(request, 9000), 9000u);
  EXPECT_EQ(effective_cycle_cap(ceiling, 9000), 5000u);
  ceiling.cycle_cap = 4000;
  EXPECT_EQ(effective_cycle_cap(ceiling, 9000), 4000u);
}

TEST(EvalCache, TracesAndInputErrorsAreNotKept) {
  EvalCache cache(fresh_db("uncached"));
  EvalRequest traced = baseline_request("relu", "C1", "C1", 2);
  traced.instruction_trace = true;
  EXPECT_TRUE(evaluation_key(traced, task_registry()).empty());
  const EvalReport report = cache.evaluate(traced, task_registry());
  EXPECT_EQ(report.verdict, Verdict::kPass);
  EXPECT_EQ(report.cache, "");
  EXPECT_FALSE(report.trace.empty());
  EvalRequest unknown = baseline_request("relu", "C1", "C1", 2);
  unknown.config = "C9";
  EXPECT_EQ(cache.evaluate(unknown, task_registry()).verdict, Verdict::kInputError);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.stats().uncached, 2u);
}

TEST(EvalCache, TheProcessCacheServesTheAgentTools) {
  const auto db = fresh_db("process");
  use_evaluation_cache(db);
  TaskContext ctx;
  ctx.task = "relu";
  ctx.config = "C1";
  const auto kernel = baseline_kernel(ctx);
  const Score first = score_kernel(ctx, kernel.source, kernel.language);
  const auto after_first = evaluation_cache()->stats();
  const Score second = score_kernel(ctx, kernel.source, kernel.language);
  const auto after_second = evaluation_cache()->stats();
  use_evaluation_cache({});
  EXPECT_EQ(evaluation_cache(), nullptr);
  ASSERT_EQ(first.verdict, Verdict::kPass);
  EXPECT_EQ(second.cycles, first.cycles);
  EXPECT_EQ(second.to_json(), first.to_json());
  EXPECT_GE(after_first.misses, 2u);  // the hidden seeds
  EXPECT_EQ(after_second.misses, after_first.misses);
  EXPECT_EQ(after_second.hits - after_first.hits, 2u);
}

}  // namespace
}  // namespace kcraft::agent
