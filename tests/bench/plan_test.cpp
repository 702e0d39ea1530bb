// Planning: filters, unsupported cells, agents, and shards that partition the sweep.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "agent/bench/plan.h"
#include "agent/bench/sweep.h"
#include "tb/common/paths.h"
#include "tb/common/platform.h"

namespace kcraft::bench {
namespace {

const tasks::TaskRegistry& registry() {
  static const auto r = tasks::TaskRegistry::load_directory(task_spec_dir());
  return r;
}

std::set<RunKey> keys(const SweepPlan& p) {
  std::set<RunKey> k;
  for (const auto& r : p.runs) k.insert(r.key);
  return k;
}

TEST(Plan, EveryTaskConfigurationTargetAgentAndAttempt) {
  SweepFilters f;
  f.agents = {"baseline", "tuner"};
  f.attempts = 2;
  const auto plan = build_plan(f, registry());
  size_t targets = 0;
  for (const Platform* p : platforms()) targets += p->hw_configs().size();
  const size_t cells = registry().tasks().size() * tasks::standard_config_names().size() * targets;
  // 2 agents x 2 attempts
  EXPECT_EQ(plan.runs.size() + (plan.unsupported.size() + plan.left_out.size()) * 4, cells * 4);
  EXPECT_EQ(keys(plan).size(), plan.runs.size());
  EXPECT_EQ(plan.hardware.size(), targets);
  for (const auto& h : plan.hardware) {
    EXPECT_EQ(h.id.size(), 16u);
    EXPECT_TRUE(h.config.contains("build")) << h.config.dump();
  }
  EXPECT_TRUE(std::is_sorted(plan.runs.begin(), plan.runs.end(),
                             [](const PlannedRun& a, const PlannedRun& b) { return a.key < b.key; }));
}

// Without --hw, --configs or --full the sweep is the quick one: each platform's default hardware at C1-C2,
// less the cells a platform keeps out; every other cell is listed with its reason, the last line says what
// --full adds, and --full (or naming the configurations) runs them all.
TEST(Plan, TheQuickSweepListsWhatItLeavesOutAndFullRunsEverything) {
  SweepFilters f;
  f.agents = {"baseline"};
  const auto plan = build_plan(f, registry());
  EXPECT_TRUE(plan.quick);
  const auto& quick = quick_sweep_configs();
  size_t expected_runs = 0, expected_left_out = 0;
  for (const Platform* p : platforms()) {
    for (const auto& hw : p->hw_configs()) {
      for (const auto& spec : registry().tasks()) {
        for (const auto& c : tasks::standard_config_names()) {
          const auto cfg = spec.resolve(c, p->dtype());
          if (!p->unsupported_reason(cfg, hw.name).empty()) continue;
          const RunKey key{p->name(), hw.name, spec.name, c, "baseline", 1};
          std::string why;
          if (hw.name != kQuickSweepHw) {
            why = "the quick sweep runs each platform's default hardware configuration";
          } else if (std::count(quick.begin(), quick.end(), c) == 0) {
            why = "the quick sweep runs C1, C2";
          } else {
            why = p->default_sweep_exclusion(cfg, hw.name);
          }
          if (why.empty()) {
            ++expected_runs;
            EXPECT_EQ(keys(plan).count(key), 1u) << key.id();
            continue;
          }
          ++expected_left_out;
          EXPECT_EQ(keys(plan).count(key), 0u) << key.id();
          EXPECT_TRUE(std::any_of(plan.left_out.begin(), plan.left_out.end(),
                                  [&](const UnsupportedCell& u) {
                                    return u.platform == p->name() && u.hw_config == hw.name &&
                                           u.task == spec.name && u.config == c && u.reason == why;
                                  }))
              << key.id() << ": " << why;
        }
      }
    }
  }
  EXPECT_EQ(plan.runs.size(), expected_runs);
  EXPECT_EQ(plan.left_out.size(), expected_left_out);
  for (const auto& r : plan.runs) EXPECT_EQ(r.key.hw_config, kQuickSweepHw);
  const auto text = left_out_text(plan);
  for (const auto& u : plan.left_out) {
    EXPECT_NE(text.find(u.platform + "/" + u.hw_config), std::string::npos) << text;
    EXPECT_NE(text.find(u.reason), std::string::npos) << text;
  }
  EXPECT_NE(text.find(fmt::format("the full sweep adds these {} cells", plan.left_out.size())),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("--full"), std::string::npos) << text;
  const auto covered = coverage_text(plan);
  EXPECT_EQ(covered.rfind("quick sweep: ", 0), 0u) << covered;
  EXPECT_NE(covered.find(fmt::format("{} runs", plan.runs.size())), std::string::npos) << covered;

  // --full runs whatever is supported, left out of the quick sweep or not; so do named configurations.
  SweepFilters full_filters = f;
  full_filters.full = true;
  const auto full = build_plan(full_filters, registry());
  EXPECT_FALSE(full.quick);
  EXPECT_TRUE(full.left_out.empty());
  EXPECT_TRUE(left_out_text(full).empty());
  EXPECT_EQ(full.runs.size(), plan.runs.size() + plan.left_out.size());
  for (const auto& u : plan.left_out)
    EXPECT_EQ(keys(full).count(RunKey{u.platform, u.hw_config, u.task, u.config, "baseline", 1}), 1u);
  SweepFilters named = f;
  named.configs = tasks::standard_config_names();
  EXPECT_EQ(build_plan(named, registry()).runs.size(), full.runs.size());
}

// Level-3 blocks leave no silent gap: a cell the sweep runs has a baseline kernel to run, and every other
// cell is listed as unsupported with its platform's reason (no composite baseline yet, until the composition
// layer exists).
TEST(Plan, LevelThreeCellsRunWithABaselineOrAreUnsupportedWithAReason) {
  SweepFilters f;
  f.agents = {"baseline"};
  f.configs = tasks::standard_config_names();
  const auto plan = build_plan(f, registry());
  size_t level_three_cells = 0;
  for (const Platform* p : platforms()) {
    for (const auto& hw : p->hw_configs()) {
      for (const auto& spec : registry().tasks()) {
        if (spec.level != 3) continue;
        for (const auto& c : tasks::standard_config_names()) {
          ++level_three_cells;
          const RunKey key{p->name(), hw.name, spec.name, c, "baseline", 1};
          if (keys(plan).count(key) == 1) {
            EXPECT_TRUE(p->has_baseline(spec.name)) << key.id() << " is planned without a baseline kernel";
            continue;
          }
          const auto unsupported =
              std::find_if(plan.unsupported.begin(), plan.unsupported.end(), [&](const UnsupportedCell& u) {
                return u.platform == p->name() && u.hw_config == hw.name && u.task == spec.name &&
                       u.config == c;
              });
          ASSERT_NE(unsupported, plan.unsupported.end()) << key.id() << " is neither planned nor unsupported";
          EXPECT_FALSE(unsupported->reason.empty()) << key.id();
          if (!p->has_baseline(spec.name)) {
            EXPECT_NE(unsupported->reason.find("no composite baseline yet"), std::string::npos)
                << key.id() << ": " << unsupported->reason;
          }
        }
      }
    }
  }
  EXPECT_GT(level_three_cells, 0u);  // the level-3 specs are loaded
}

TEST(Plan, FiltersSelectAndUnknownNamesAreErrors) {
  SweepFilters f;
  f.tasks = {"relu", "gemm"};
  f.configs = {"C2"};
  f.hw_configs = {"systolic/small"};
  f.agents = {"baseline"};
  const auto plan = build_plan(f, registry());
  ASSERT_EQ(plan.runs.size(), 2u);
  for (const auto& r : plan.runs) {
    EXPECT_EQ(r.key.hw_config, "small");
    EXPECT_EQ(r.key.config, "C2");
    EXPECT_EQ(r.key.agent, "baseline");
  }
  auto fails_with = [](SweepFilters bad, const std::string& text) {
    try {
      build_plan(bad, registry());
      ADD_FAILURE() << "no error for " << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  SweepFilters b = f;
  b.tasks = {"gemmm"};
  fails_with(b, "gemmm");
  b = f;
  b.configs = {"C9"};
  fails_with(b, "C9");
  b = f;
  b.platforms = {"tpu"};
  fails_with(b, "tpu");
  b = f;
  b.hw_configs = {"huge"};
  fails_with(b, "huge");
  b = f;
  b.levels = {4};
  fails_with(b, "level 4");
  b = f;
  b.agents = {"gpt"};
  fails_with(b, "unknown agent 'gpt'");
  b = f;
  b.agents = {"llm:/no/such/file.yaml"};
  fails_with(b, "/no/such/file.yaml");
  b = f;
  b.attempts = 0;
  fails_with(b, "--attempts");
}

TEST(Plan, WorkflowAndPortingAgentsAreNamedAfterTheirWorkflowAndSettings) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("kcraft_plan_agents_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "team.yaml").string();
  std::ofstream(file) << "provider: openai\nmodel: m\n";
  const std::string other = platform_names().front();
  const std::string port_target = platform_names().back();
  EXPECT_EQ(parse_agent("llm:" + file).name, "llm:team");
  const auto wf = parse_agent("workflow:default:" + file);
  EXPECT_EQ(wf.name, "workflow:default:team");
  EXPECT_EQ(wf.workflow, "default");
  EXPECT_EQ(wf.job_kind(), "llm");
  EXPECT_EQ(wf.settings_file, file);
  EXPECT_EQ(parse_agent("workflow:single:" + file).name, "llm:team");  // one agent, one name
  const auto port = parse_agent("port:" + other + ":" + file);
  EXPECT_EQ(port.name, "port:" + other + ":team");
  EXPECT_EQ(port.port_from, other);
  EXPECT_EQ(port.workflow, "single");
  const auto port_wf = parse_agent("port:" + other + ":coder_only:" + file);
  EXPECT_EQ(port_wf.name, "port:" + other + ":coder_only:team");
  EXPECT_EQ(port_wf.workflow, "coder_only");
  EXPECT_EQ(unported_agent_name(port.name), "llm:team");
  EXPECT_EQ(unported_agent_name(port_wf.name), "workflow:coder_only:team");
  EXPECT_EQ(unported_agent_name("workflow:default:team"), "");
  const auto error = [](const std::string& text) -> std::string {
    try {
      parse_agent(text);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(error("workflow:nosuch:" + file).find("nosuch"), std::string::npos);
  EXPECT_NE(error("workflow:" + file).find("workflow:NAME:SETTINGS.yaml"), std::string::npos);
  EXPECT_NE(error("port:tpu:" + file).find("unknown platform 'tpu'"), std::string::npos);
  EXPECT_NE(error("port:" + other + ":/no/such.yaml").find("/no/such.yaml"), std::string::npos);
  EXPECT_NE(error("tuner:x").find("takes no fields"), std::string::npos);
  EXPECT_NE(error("gpt").find("port:PLATFORM:SETTINGS.yaml"), std::string::npos);  // lists the kinds

  // Porting runs on every selected platform but its source.
  if (other != port_target) {
    SweepFilters f;
    f.platforms = {other, port_target};
    f.tasks = {"relu"};
    f.configs = {"C1"};
    f.hw_configs = {"default"};
    f.agents = {"port:" + other + ":" + file};
    const auto plan = build_plan(f, registry());
    ASSERT_FALSE(plan.runs.empty());
    for (const auto& r : plan.runs) EXPECT_EQ(r.key.platform, port_target);
  }
  std::filesystem::remove_all(dir);
}

// `@docs=LEVEL` makes the same settings a distinct agent at that documentation level; a bad level or an
// agent that reads no documentation is refused, naming what is wrong.
TEST(Plan, ADocumentationLevelSuffixNamesADistinctLlmAgent) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("kcraft_plan_docs_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "team.yaml").string();
  std::ofstream(file) << "provider: openai\nmodel: m\n";
  const auto plain = parse_agent("llm:" + file);
  EXPECT_EQ(plain.name, "llm:team");
  EXPECT_EQ(plain.docs, "");  // the sweep settles it (the file's `docs:`, else by --library-examples)
  const auto isa = parse_agent("llm:" + file + "@docs=isa");
  EXPECT_EQ(isa.name, "llm:team@docs=isa");
  EXPECT_EQ(isa.docs, "isa");
  EXPECT_EQ(isa.settings_file, file);
  const auto wf = parse_agent("workflow:default:" + file + "@docs=full");
  EXPECT_EQ(wf.name, "workflow:default:team@docs=full");
  EXPECT_EQ(wf.workflow, "default");
  const std::string other = platform_names().front();
  const auto port = parse_agent("port:" + other + ":" + file + "@docs=guide");
  EXPECT_EQ(port.name, "port:" + other + ":team@docs=guide");
  EXPECT_EQ(port.port_from, other);
  EXPECT_EQ(unported_agent_name(port.name), "llm:team@docs=guide");  // compared at the same level

  // Two levels of one model in one plan: two agents, each with its runs.
  SweepFilters f;
  f.platforms = {other};
  f.tasks = {"relu"};
  f.configs = {"C1"};
  f.hw_configs = {"default"};
  f.attempts = 3;
  f.agents = {"llm:" + file + "@docs=isa", "llm:" + file + "@docs=guide"};
  const auto plan = build_plan(f, registry());
  ASSERT_EQ(plan.agents.size(), 2u);
  EXPECT_EQ(plan.agent("llm:team@docs=isa").docs, "isa");
  EXPECT_EQ(plan.agent("llm:team@docs=guide").docs, "guide");
  EXPECT_EQ(plan.runs.size(), 6u);

  const auto error = [](const std::string& text) -> std::string {
    try {
      parse_agent(text);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(error("llm:" + file + "@docs=most").find("unknown documentation level 'most'"), std::string::npos)
      << error("llm:" + file + "@docs=most");
  EXPECT_NE(error("tuner@docs=isa").find("reads no documentation"), std::string::npos)
      << error("tuner@docs=isa");
  EXPECT_NE(error("baseline@docs=full").find("reads no documentation"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(Plan, APortingRunStartsFromTheBestKernelOfItsHardwareNameThenTheFewestCycles) {
  const auto entry = [](const std::string& platform, const std::string& hw, const std::string& config,
                        uint64_t cycles, const std::string& source) {
    library::KernelEntry e;
    e.platform = platform;
    e.hw_config = hw;
    e.task = "relu";
    e.config = config;
    e.cycles = cycles;
    e.agent = "tuner";
    e.source = source;
    return e;
  };
  const RunKey run{"b", "default", "relu", "C1", "port:a:m", 1};
  std::vector<library::KernelEntry> kernels = {
      entry("a", "small", "C1", 10, "small hw"), entry("a", "default", "C1", 500, "slow"),
      entry("a", "default", "C1", 300, "fast"), entry("a", "default", "C2", 1, "other config"),
      entry("b", "default", "C1", 1, "the run's own platform")};
  auto port = best_kernel_to_port(kernels, "a", run);
  ASSERT_TRUE(port.has_value());
  EXPECT_EQ(port->source, "fast");
  EXPECT_EQ(port->cycles, 300u);
  EXPECT_EQ(port->platform, "a");
  EXPECT_NE(port->origin.find("relu C1 on a/default"), std::string::npos) << port->origin;
  kernels.erase(kernels.begin() + 1, kernels.begin() + 3);  // no kernel of the run's hardware name
  EXPECT_EQ(best_kernel_to_port(kernels, "a", run)->source, "small hw");
  EXPECT_FALSE(best_kernel_to_port(kernels, "c", run).has_value());
}

TEST(Shard, ParsesIOverNAndRejectsTheRest) {
  const auto s = Shard::parse("2/5");
  EXPECT_EQ(s.index, 2u);
  EXPECT_EQ(s.count, 5u);
  EXPECT_EQ(s.to_string(), "2/5");
  for (const char* bad : {"5/5", "1/0", "a/3", "1", "1/3x", "-1/3", ""}) {
    EXPECT_THROW(Shard::parse(bad), std::invalid_argument) << bad;
  }
}

TEST(Shard, ShardsAreDisjointAndTheirUnionIsTheSweep) {
  SweepFilters f;
  f.agents = {"baseline", "tuner"};
  f.attempts = 3;
  const auto full = keys(build_plan(f, registry()));
  ASSERT_GT(full.size(), 100u);
  for (unsigned n : {1u, 2u, 3u, 7u}) {
    std::set<RunKey> seen;
    size_t total = 0;
    for (unsigned i = 0; i < n; ++i) {
      f.shard = Shard{i, n};
      const auto shard = keys(build_plan(f, registry()));
      EXPECT_EQ(shard, keys(build_plan(f, registry())));  // deterministic
      if (n > 1) {
        EXPECT_LT(shard.size(), full.size());
      }
      total += shard.size();
      seen.insert(shard.begin(), shard.end());
    }
    EXPECT_EQ(total, full.size()) << "shards overlap for N=" << n;
    EXPECT_EQ(seen, full) << "shards miss runs for N=" << n;
  }
  // A run's shard depends on its key only, not on what else the filters select.
  f.shard = Shard{1, 3};
  const auto wide = keys(build_plan(f, registry()));
  f.tasks = {"gemm"};
  for (const auto& k : keys(build_plan(f, registry()))) EXPECT_TRUE(wide.count(k)) << k.id();
}

TEST(Plan, YamlBecomesTypedJson) {
  const auto j = yaml_file_to_json((root() / "rtl" / "systolic" / "configs" / "default.yaml").string());
  EXPECT_EQ(j["name"], "default");
  EXPECT_TRUE(j["build"]["MLEN"].is_number_integer());
  EXPECT_TRUE(j["runtime"]["dram_latency_cycles"].is_number());
}

}  // namespace
}  // namespace kcraft::bench

namespace kcraft::bench {
namespace {

TEST(Plan, CompilerBaselinesAreSimulatedAtTheQuickSweepsConfigurationsUnlessAllOrCached) {
  const auto mode = parse_compiler_baseline_mode("auto");
  for (const std::string config : {"C1", "C2"}) EXPECT_TRUE(simulates_compiler_baseline(mode, config));
  for (const std::string config : {"C3", "C4", "C5"}) EXPECT_FALSE(simulates_compiler_baseline(mode, config));
  for (const std::string config : {"C1", "C5"}) {
    EXPECT_TRUE(simulates_compiler_baseline(parse_compiler_baseline_mode("all"), config));
    EXPECT_FALSE(simulates_compiler_baseline(parse_compiler_baseline_mode("cached"), config));
  }
  EXPECT_THROW(parse_compiler_baseline_mode("none"), std::invalid_argument);
}

}  // namespace
}  // namespace kcraft::bench
