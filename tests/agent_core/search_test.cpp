// Search over candidate kernels (agent/search) on the fake platform against the scripted OpenAI and
// Anthropic servers: UCB1 by the formula, island migration, crashed and hung candidates, both budgets,
// reproducibility with two workers, replay. Candidates are evaluated in worker processes: this binary,
// started again with --search-worker, registers the fake platform and runs the bench worker loop.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <string>

#include "agent/bench/plan.h"
#include "agent/bench/worker.h"
#include "agent/common/environment.h"
#include "agent/common/replay.h"
#include "agent/library/library.h"
#include "agent/search/search.h"
#include "tests/agent/mock_llm_server.h"
#include "tests/agent_core/fake_platform.h"

namespace kcraft::agent::search {
namespace {

using nlohmann::json;
using testing::MockLlmServer;
using testing::ReceivedRequest;
using testing::Step;
using testing::WireApi;

TaskContext fake_relu() {
  TaskContext c;
  c.platform = kcraft::testing::kFakePlatform;
  c.task = "relu";
  c.config = "C1";
  return c;
}

// A fake kernel of `ops` instructions (100 cycles each; the baseline has 3), tagged so that kernels of the
// same length differ.
std::string fake_kernel(unsigned ops, const std::string& tag) {
  std::string k = "; " + tag + "\n";
  for (unsigned i = 0; i < ops; ++i) k += "FAKE_OP\n";
  return k;
}

std::string fenced(const std::string& kernel) {
  return "Here it is.\n```asm\n" + kernel + "```\n";
}

uint64_t fnv(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : s) {
    h = (h ^ ch) * 1099511628211ull;
  }
  return h;
}

// A deterministic model: its answer is a function of the request's text only (1 to 4 instructions, or
// a kernel that does not assemble).
Step deterministic_model() {
  return Step::dynamic([](const ReceivedRequest& r) {
    const std::string text = r.messages.empty() ? "" : r.messages.back().content;
    const uint64_t h = fnv(text);
    if (h % 7 == 0) return Step::text(fenced("BAD\n"));
    return Step::text(fenced(fake_kernel(1 + static_cast<unsigned>(h % 4), std::to_string(h % 1000))));
  });
}

SearchOptions options(Strategy strategy) {
  SearchOptions o;
  o.strategy = strategy;
  o.worker_argv = {"/proc/self/exe", "--search-worker"};
  o.candidate_timeout_seconds = 30;
  return o;
}

std::vector<json> of_type(const Transcript& t, const std::string& type) {
  std::vector<json> out;
  for (const auto& e : t.events()) {
    if (e.value("type", "") == type) out.push_back(e);
  }
  return out;
}

// The events without what depends on time or on the server's port.
json stable(json j) {
  if (j.is_object()) {
    for (const char* k : {"t", "seconds", "wall_seconds", "job_seconds", "settings", "worker_pid"})
      j.erase(k);
    for (auto& [key, value] : j.items()) value = stable(value);
  } else if (j.is_array()) {
    for (auto& value : j) value = stable(value);
  }
  return j;
}

TEST(SearchUcb, Ucb1IsMeanPlusExploration) {
  EXPECT_DOUBLE_EQ(ucb1(3.0, 2, 10, 1.4), 1.5 + 1.4 * std::sqrt(std::log(10.0) / 2));
  EXPECT_DOUBLE_EQ(ucb1(3.0, 2, 10, 0), 1.5);
  EXPECT_TRUE(std::isinf(ucb1(0, 0, 10, 1.4)));
}

TEST(SearchUcb, SelectionFollowsTheFormula) {
  // Child 0: mean 1.0 over 2 visits; child 1: mean 0.9 over 1 visit; parent visits 3.
  const std::vector<std::pair<double, unsigned>> children = {{2.0, 2}, {0.9, 1}};
  // c = 1: 1.0 + sqrt(ln 3 / 2) = 1.741 < 0.9 + sqrt(ln 3) = 1.948: the less visited child.
  EXPECT_EQ(select_ucb(children, 3, 1.0), 1u);
  // c = 0.1: 1.074 > 1.005: the better mean.
  EXPECT_EQ(select_ucb(children, 3, 0.1), 0u);
  // An unvisited child goes first; equals go to the first.
  EXPECT_EQ(select_ucb({{5.0, 1}, {0.0, 0}}, 2, 1.0), 1u);
  EXPECT_EQ(select_ucb({{1.0, 1}, {1.0, 1}}, 2, 1.0), 0u);
  EXPECT_THROW(select_ucb({}, 1, 1.0), std::invalid_argument);
}

Candidate evaluated(unsigned id, const std::string& outcome, const std::string& verdict, uint64_t cycles) {
  Candidate c;
  c.id = id;
  c.kernel = "k";
  c.outcome = outcome;
  c.verdict = verdict;
  c.cycles = cycles;
  return c;
}

// In a search: with two children under the seed (A correct at 100 cycles, reward 3; B failing, reward
// 0) and one under A (200 cycles, reward 1.5), the fourth expansion goes where UCB1 says. Seed visits: 1 +
// 3 expansions = 4; A: mean (3 + 1.5) / 2 = 2.25 over 2 visits; B: 0 over 1.
//   c = 1.4: A 2.25 + 1.4 sqrt(ln 4 / 2) = 3.42 > B 1.4 sqrt(ln 4) = 1.65: A again.
//   c = 10:  A 2.25 + 10 sqrt(ln 4 / 2) = 10.58 < B 10 sqrt(ln 4) = 11.77: B.
std::string fourth_expansion_parent(double exploration) {
  MockLlmServer server(WireApi::kOpenAi);
  server.then(Step::text(fenced(fake_kernel(1, "kernel A"))))
      .then(Step::text(fenced("; kernel B\nBAD\n")))
      .then(Step::text(fenced(fake_kernel(2, "kernel C"))))
      .then(Step::text(fenced(fake_kernel(3, "kernel D"))));
  auto provider = make_provider(server.settings());
  auto o = options(Strategy::kUcb);
  o.max_children = 2;
  o.exploration = exploration;
  o.max_model_calls = 4;
  Transcript transcript;
  const auto r = run_search(o, *provider, fake_relu(), transcript);
  EXPECT_EQ(r.candidates.at(1).cycles, 100u);
  EXPECT_EQ(r.candidates.at(2).verdict, "build_error");
  EXPECT_EQ(r.candidates.at(3).parents, std::vector<unsigned>{1});  // the third expands A
  const auto& fourth = r.candidates.at(4).parents;
  return fourth.size() == 1 ? std::to_string(fourth[0]) : "none";
}

TEST(SearchUcb, TheSearchExpandsWhatTheFormulaPicks) {
  EXPECT_EQ(fourth_expansion_parent(1.4), "1");   // A
  EXPECT_EQ(fourth_expansion_parent(10.0), "2");  // B
}

TEST(SearchSelection, CorrectFirstThenCycles) {
  const Candidate fast_wrong = evaluated(1, "evaluated", "mismatch", 10);
  const Candidate slow_right = evaluated(2, "evaluated", "pass", 500);
  const Candidate fast_right = evaluated(3, "evaluated", "pass", 400);
  const Candidate crashed = evaluated(0, "crash", "", 0);
  EXPECT_TRUE(better(slow_right, fast_wrong));
  EXPECT_TRUE(better(fast_right, slow_right));
  EXPECT_TRUE(better(slow_right, crashed));
  EXPECT_TRUE(better(crashed, fast_wrong));  // neither is correct: the older one
}

TEST(SearchOptionsCheck, BadSettingsAreRefused) {
  auto o = options(Strategy::kIsland);
  o.islands = 0;
  EXPECT_THROW(o.validate(), std::invalid_argument);
  o = options(Strategy::kUcb);
  o.exploration = -1;
  EXPECT_THROW(o.validate(), std::invalid_argument);
  o = options(Strategy::kUcb);
  o.worker_argv.clear();
  EXPECT_THROW(o.validate(), std::invalid_argument);
  EXPECT_THROW(strategy_from_name("beam"), std::invalid_argument);
}

TEST(SearchIsland, MigrationCarriesAnIslandsBestToTheNext) {
  MockLlmServer server(WireApi::kOpenAi);
  // Generation 1 asks island 0 twice, then island 1 twice: island 0 finds a 1-instruction kernel,
  // island 1 only 2-instruction ones.
  server.then(Step::text(fenced(fake_kernel(1, "island0 a"))))
      .then(Step::text(fenced(fake_kernel(2, "island0 b"))))
      .then(Step::text(fenced(fake_kernel(2, "island1 a"))))
      .then(Step::text(fenced(fake_kernel(2, "island1 b"))));
  server.set_fallback(deterministic_model());
  auto provider = make_provider(server.settings());
  auto o = options(Strategy::kIsland);
  o.islands = 2;
  o.population = 2;
  o.generations = 2;
  o.migration_interval = 1;
  o.max_model_calls = 8;
  Transcript transcript;
  const auto r = run_search(o, *provider, fake_relu(), transcript);
  EXPECT_EQ(r.candidates.at(0).op, "seed");
  EXPECT_EQ(r.candidates.at(1).cycles, 100u);
  const auto migrations = of_type(transcript, "migration");
  ASSERT_FALSE(migrations.empty());
  bool zero_to_one = false;
  for (const auto& m : migrations) {
    if (m["from"] == 0 && m["to"] == 1 && m["generation"] == 1) {
      zero_to_one = true;
      EXPECT_EQ(m["candidate"], 1);  // island 0's best after generation 1
    }
  }
  EXPECT_TRUE(zero_to_one) << json(migrations).dump();
  // Island 1 breeds from the migrant in generation 2: after the migration it is island 1's best, and
  // the search keeps it (the final islands hold it in both).
  const auto islands = r.summary["strategy_state"]["islands"];
  EXPECT_NE(std::find(islands[1].begin(), islands[1].end(), json(1)), islands[1].end()) << islands.dump();
  EXPECT_EQ(r.summary["model_calls"], 8);
  EXPECT_EQ(r.agent.iterations, 8u);
  EXPECT_EQ(server.request_count(), 8u);
  EXPECT_EQ(r.agent.status, "search_complete");
  // The answer is scored on the hidden seeds like every agent's.
  EXPECT_EQ(r.agent.score.verdict, Verdict::kPass);
  EXPECT_EQ(r.agent.score.cycles, 100u);
  EXPECT_EQ(r.summary["lineage"].back()["op"], "seed");
}

TEST(SearchFaults, CrashedAndHungCandidatesDoNotStopTheSearch) {
  MockLlmServer server(WireApi::kAnthropic);
  server.set_fallback(deterministic_model());
  auto provider = make_provider(server.settings());
  auto o = options(Strategy::kUcb);
  o.jobs = 2;
  o.max_model_calls = 6;
  o.candidate_timeout_seconds = 2;
  o.faults = {{1, "crash"}, {2, "hang"}};
  Transcript transcript;
  const auto r = run_search(o, *provider, fake_relu(), transcript);
  ASSERT_GE(r.candidates.size(), 7u);
  EXPECT_EQ(r.candidates[1].outcome, "crash");
  EXPECT_NE(r.candidates[1].error.find("signal 11"), std::string::npos) << r.candidates[1].error;
  EXPECT_EQ(r.candidates[2].outcome, "timeout");
  EXPECT_NE(r.candidates[2].error.find("timeout"), std::string::npos) << r.candidates[2].error;
  unsigned evaluated_after = 0;
  for (size_t i = 3; i < r.candidates.size(); ++i) evaluated_after += r.candidates[i].outcome == "evaluated";
  EXPECT_GE(evaluated_after, 3u);
  EXPECT_EQ(r.agent.iterations, 6u);
  EXPECT_EQ(r.agent.score.verdict, Verdict::kPass);
  // Replay re-executes every evaluated candidate and says which it could not.
  const auto replayed = replay_events(transcript.events(), "search");
  EXPECT_TRUE(replayed.ok()) << replayed.summary();
  EXPECT_EQ(replayed.not_replayable, 2u);
  EXPECT_NE(replayed.summary().find("not replayed: 2 search candidates"), std::string::npos);
}

TEST(SearchBudget, ModelCallsEndIt) {
  MockLlmServer server(WireApi::kOpenAi);
  server.set_fallback(deterministic_model());
  auto provider = make_provider(server.settings());
  auto o = options(Strategy::kIsland);
  o.generations = 50;
  o.max_model_calls = 3;
  o.max_evaluations = 100;
  Transcript transcript;
  const auto r = run_search(o, *provider, fake_relu(), transcript);
  EXPECT_EQ(server.request_count(), 3u);
  EXPECT_EQ(r.agent.iterations, 3u);
  EXPECT_EQ(r.agent.status, "budget_exhausted");
  EXPECT_EQ(of_type(transcript, "llm_request").size(), 3u);
}

TEST(SearchBudget, EvaluationsEndIt) {
  MockLlmServer server(WireApi::kOpenAi);
  server.set_fallback(deterministic_model());
  auto provider = make_provider(server.settings());
  auto o = options(Strategy::kUcb);
  o.max_model_calls = 100;
  o.max_evaluations = 3;  // the seed and two candidates
  Transcript transcript;
  const auto r = run_search(o, *provider, fake_relu(), transcript);
  EXPECT_EQ(r.agent.evaluations, 3u);
  EXPECT_EQ(server.request_count(), 2u);
  EXPECT_EQ(r.agent.status, "budget_exhausted");
}

TEST(SearchRobustness, ARepliesWithoutKernelAndAFailingProvider) {
  MockLlmServer server(WireApi::kOpenAi);
  server
      .then(Step::text("I would rather not."))  // no code block: a candidate without a kernel
      .then(Step::text(fenced(fake_kernel(2, "two"))))
      .then(Step::http_error(400));  // not retried: the provider fails for good
  auto provider = make_provider(server.settings());
  auto o = options(Strategy::kUcb);
  o.max_model_calls = 10;
  Transcript transcript;
  const auto r = run_search(o, *provider, fake_relu(), transcript);
  ASSERT_EQ(r.candidates.size(), 3u);
  EXPECT_EQ(r.candidates[1].outcome, "no_kernel");
  EXPECT_EQ(r.candidates[2].cycles, 200u);
  EXPECT_EQ(r.agent.status, "provider_error");
  EXPECT_FALSE(r.agent.error.empty());
  // The best candidate so far is still the answer.
  EXPECT_EQ(r.agent.score.verdict, Verdict::kPass);
  EXPECT_EQ(r.agent.score.cycles, 200u);
  EXPECT_EQ(r.summary["best"]["id"], 2);
}

TEST(SearchSeeds, LibraryKernelsSeedTheSearchButNeverTheScoredCells) {
  const auto file = std::filesystem::temp_directory_path() / "kcraft_search_seeds_test.db";
  std::filesystem::remove(file);
  {
    library::KernelLibrary lib(file);
    auto entry = [](const std::string& config, const std::string& hw, unsigned ops) {
      library::KernelEntry e;
      e.platform = kcraft::testing::kFakePlatform;
      e.hw_config = hw;
      e.task = "relu";
      e.config = config;
      e.cycles = 100 * ops;
      e.agent = "test";
      e.source = fake_kernel(ops, "library " + config + " " + hw);
      return e;
    };
    lib.insert(entry("C2", "default", 2));  // another configuration of the task: a fair seed
    lib.insert(entry("C1", "default", 1));  // the scored cell itself: never
    lib.insert(entry("C1", "other", 1));    // the scored cell on another hardware configuration: never
  }
  MockLlmServer server(WireApi::kOpenAi);
  server.set_fallback(Step::text(fenced(fake_kernel(3, "model"))));
  auto provider = make_provider(server.settings());
  auto o = options(Strategy::kUcb);
  o.max_model_calls = 2;
  TaskContext ctx = fake_relu();
  ctx.library = file.string();
  Transcript transcript;
  const auto r = run_search(o, *provider, ctx, transcript);
  ASSERT_GE(r.candidates.size(), 2u);
  EXPECT_EQ(r.candidates[0].op, "seed");
  EXPECT_EQ(r.candidates[1].op, "library");
  EXPECT_NE(r.candidates[1].kernel.find("library C2"), std::string::npos);
  for (const auto& c : r.candidates) EXPECT_EQ(c.kernel.find("library C1"), std::string::npos) << c.kernel;
  EXPECT_EQ(r.summary["library_seed_origins"].size(), 1u);
  EXPECT_EQ(r.agent.evaluations, 4u);     // two seeds and two model candidates
  EXPECT_EQ(r.agent.score.cycles, 200u);  // the library seed is the best
  EXPECT_EQ(r.agent.scored_cell_examples, 0u);
  // Allowed explicitly, the scored cell is a seed and the result says so.
  ctx.library_allows_scored_cell = true;
  Transcript allowed;
  const auto a = run_search(o, *provider, ctx, allowed);
  EXPECT_GE(a.agent.scored_cell_examples, 1u);
  EXPECT_EQ(a.agent.score.cycles, 100u);
  std::filesystem::remove(file);
}

// Two runs with two workers against the same deterministic server: the same model calls in the same
// order, the same candidates, the same transcript (times aside) and the same answer.
void expect_reproducible(Strategy strategy, WireApi api) {
  MockLlmServer server(api);
  server.set_fallback(deterministic_model());
  auto provider = make_provider(server.settings());
  auto o = options(strategy);
  o.jobs = 2;
  o.max_model_calls = 10;
  o.seed = 42;
  o.islands = 2;
  o.population = 2;
  o.generations = 3;
  o.migration_interval = 1;
  o.crossover_rate = 0.5;
  Transcript first, second;
  const auto a = run_search(o, *provider, fake_relu(), first);
  const size_t calls = server.request_count();
  const auto b = run_search(o, *provider, fake_relu(), second);
  ASSERT_EQ(server.request_count(), 2 * calls);
  ASSERT_GE(calls, 5u);
  for (size_t i = 0; i < calls; ++i) {
    EXPECT_EQ(server.request(i).messages.back().content, server.request(calls + i).messages.back().content)
        << "model call " << i + 1;
  }
  ASSERT_EQ(a.candidates.size(), b.candidates.size());
  for (size_t i = 0; i < a.candidates.size(); ++i)
    EXPECT_EQ(a.candidates[i].to_json(true), b.candidates[i].to_json(true)) << "candidate " << i;
  ASSERT_EQ(first.events().size(), second.events().size());
  for (size_t i = 0; i < first.events().size(); ++i)
    EXPECT_EQ(stable(first.events()[i]), stable(second.events()[i])) << "event " << i;
  EXPECT_EQ(a.agent.final_code, b.agent.final_code);
  EXPECT_EQ(a.agent.score.cycles, b.agent.score.cycles);
  if (strategy == Strategy::kUcb) {
    // Asynchronous: candidate 2 is proposed while candidate 1 is still being evaluated.
    size_t proposed_2 = 0, applied_1 = 0;
    for (size_t i = 0; i < first.events().size(); ++i) {
      const json& e = first.events()[i];
      if (e["type"] == "llm_request" && e["candidate"] == 2) proposed_2 = i;
      if (e["type"] == "candidate" && e["id"] == 1) applied_1 = i;
    }
    EXPECT_LT(proposed_2, applied_1);
  }
  // A different seed makes different choices (island: parents and crossovers).
  if (strategy == Strategy::kIsland) {
    // The island schedule does not depend on the number of workers at all.
    o.jobs = 1;
    Transcript serial;
    const auto one = run_search(o, *provider, fake_relu(), serial);
    ASSERT_EQ(one.candidates.size(), a.candidates.size());
    for (size_t i = 0; i < a.candidates.size(); ++i)
      EXPECT_EQ(a.candidates[i].to_json(true), one.candidates[i].to_json(true)) << "candidate " << i;
    o.seed = 7;
    Transcript third;
    const auto c = run_search(o, *provider, fake_relu(), third);
    bool differs = c.candidates.size() != a.candidates.size();
    for (size_t i = 0; !differs && i < a.candidates.size(); ++i)
      differs = a.candidates[i].to_json(true) != c.candidates[i].to_json(true);
    EXPECT_TRUE(differs);
  }
  const auto replayed = replay_events(first.events(), "first");
  EXPECT_TRUE(replayed.ok()) << replayed.summary();
  EXPECT_GT(replayed.tool_calls, 0u);
}

TEST(SearchReproducible, IslandWithTwoWorkersOpenAi) {
  expect_reproducible(Strategy::kIsland, WireApi::kOpenAi);
}

TEST(SearchReproducible, UcbWithTwoWorkersAnthropic) {
  expect_reproducible(Strategy::kUcb, WireApi::kAnthropic);
}

// `kcraft agent --search` end to end on the default platform: the result JSON and the transcript's replay.
std::string capture(const std::string& command, int* status) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  *status = ::pclose(pipe);
  return out;
}

TEST(SearchCli, AgentSearchReportsCallsTokensEvaluationsAndLineageAndReplays) {
  const Platform& p = platform(default_platform_name());
  auto cfg = task_registry().get("relu").resolve("C1", p.dtype());
  const auto baseline = p.baseline_compiler("default")->generate(cfg, p.layout(cfg));
  const std::string tag = p.language(baseline.language).name;
  MockLlmServer server(WireApi::kOpenAi);
  // Two rewrites of the template's kernel (the second one's comment makes it a different kernel) and
  // one that does not build.
  const std::string comment = p.language(baseline.language).name == "c" ? "// " : "; ";
  server
      .then(
          Step::text("```" + tag + "\n" + comment + "rewrite 1\n" + baseline.source + "```", {100, 20, 0, 0}))
      .then(Step::text("```" + tag + "\nNOT_AN_INSTRUCTION 1, 2\n```", {100, 20, 0, 0}));
  server.set_fallback(
      Step::text("```" + tag + "\n" + comment + "rewrite n\n" + baseline.source + "```", {100, 20, 0, 0}));
  const auto dir = std::filesystem::temp_directory_path() / "kcraft_search_cli_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    std::ofstream settings(dir / "mock.yaml");
    settings << "provider: openai\nbase_url: " << server.base_url() << "\nmodel: mock-model\n";
  }
  const auto transcript = dir / "search.jsonl";
  int status = -1;
  const std::string out = capture(
      fmt::format("{} --json agent --task relu --config C1 --provider-config {} --search island --islands 2 "
                  "--population 2 --generations 2 --migration-interval 1 --search-jobs 2 --budget 5 "
                  "--no-tuned-baseline --no-library --transcript {}",
                  KCRAFT_BIN, (dir / "mock.yaml").string(), transcript.string()),
      &status);
  ASSERT_EQ(status, 0) << out;
  const json j = json::parse(out);
  EXPECT_EQ(j["agent"], "llm:openai/mock-model@search:island");
  EXPECT_EQ(j["score"]["verdict"], "pass");
  const json& s = j["search"];
  EXPECT_EQ(s["model_calls"], 5);
  EXPECT_EQ(s["tokens"]["prompt_tokens"], 500);
  EXPECT_EQ(s["evaluations"], 6);
  EXPECT_EQ(s["outcomes"]["build_error"], 1);
  EXPECT_GT(s["wall_seconds"].get<double>(), 0);
  ASSERT_TRUE(s["lineage"].is_array());
  EXPECT_EQ(s["lineage"].back()["op"], "seed");
  EXPECT_EQ(s["lineage"].front()["id"], s["best"]["id"]);
  EXPECT_EQ(server.request_count(), 5u);
  const std::string replayed =
      capture(fmt::format("{} --json agent replay {}", KCRAFT_BIN, transcript.string()), &status);
  ASSERT_EQ(status, 0) << replayed;
  const json r = json::parse(replayed);
  EXPECT_TRUE(r["ok"].get<bool>());
  EXPECT_GE(r["tool_calls"].get<unsigned>(), 12u);  // write_code + run_eval (+ profile) per candidate
  std::filesystem::remove_all(dir);
}

TEST(SearchInTheSweep, SearchAgentsParseAndBadOnesAreRefused) {
  const auto file = std::filesystem::temp_directory_path() / "kcraft_search_agent.yaml";
  {
    std::ofstream out(file);
    out << "provider: openai\nbase_url: http://127.0.0.1:1/v1\nmodel: m\n";
  }
  const auto island = bench::parse_agent("search:island:" + file.string());
  EXPECT_EQ(island.name, "search:island:kcraft_search_agent");
  EXPECT_EQ(island.search, "island");
  EXPECT_EQ(island.job_kind(), "llm");
  EXPECT_EQ(bench::parse_agent("search:ucb:" + file.string()).search, "ucb");
  try {
    bench::parse_agent("search:beam:" + file.string());
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("island, ucb"), std::string::npos) << e.what();
  }
  EXPECT_THROW(bench::parse_agent("search:island"), std::invalid_argument);
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace kcraft::agent::search

int main(int argc, char** argv) {
  kcraft::register_platform(kcraft::testing::kFakePlatform, kcraft::testing::make_fake_platform);
  if (argc > 1 && std::strcmp(argv[1], "--search-worker") == 0) return kcraft::bench::worker_main();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
