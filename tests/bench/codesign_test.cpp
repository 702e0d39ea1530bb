// bench.Codesign.*: the attribution of cycles, fusion detection on synthetic traces, weighting, the
// candidates and their JSON (agent/bench/codesign.h).
#include "agent/bench/codesign.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "agent/bench/codesign_run.h"
#include "agent/bench/explore.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

namespace kcraft::bench::codesign {
namespace {

// "OP d, s1, s2": the first operand written, the others read; a token "[rN]" is the row addressed by rN.
std::vector<DataflowOp> toy_dataflow(const std::string& text) {
  std::istringstream in(text);
  DataflowOp op;
  in >> op.mnemonic;
  op.unit = op.mnemonic == "HALT" ? "control" : op.mnemonic[0] == 'S' ? "scalar" : "vector";
  std::string token;
  bool first = true;
  while (in >> token) {
    if (token.back() == ',') token.pop_back();
    DataflowPlace place{token, ""};
    if (token.front() == '[') place = {"ROW" + token, token.substr(1, token.size() - 2)};
    (first ? op.writes : op.reads).push_back(place);
    first = false;
  }
  return {op};
}

CodesignRules toy_rules() {
  CodesignRules r;
  r.issue_track = "issue";
  r.fusion_units = {"vector"};
  r.fusion_rule = "toy rule";
  r.fusion_saved_causes = {"dependency"};
  r.cause_units = {{"drain", "control"}};
  r.parameters = {{"dma_full", "", "SLOTS", {"4", "8"}, "more slots"}};
  r.essential = {"HALT"};
  return r;
}

RunTrace trace_of(const std::vector<std::pair<uint64_t, std::string>>& issues, uint64_t cycles,
                  std::vector<StallSpan> stalls = {}) {
  RunTrace t;
  t.task = "toy";
  t.config = "C1";
  t.cycles = cycles;
  for (const auto& [c, text] : issues) t.issues.push_back({c, text});
  t.stalls = std::move(stalls);
  return t;
}

TEST(Codesign, EveryCycleIsChargedExactlyOnce) {
  // Issues at 0, 1, 4, 5; a dependency stall before MAX, a drain after HALT, two cycles nobody names.
  const auto t = trace_of({{0, "MUL v1, v0"}, {1, "ADD v2, v1"}, {4, "MAX v3, v2"}, {5, "HALT"}}, 10,
                          {{2, 4, "dependency"}, {6, 8, "drain"}});
  const auto p = profile_run(t, toy_dataflow, toy_rules());
  EXPECT_EQ(p.attributed(), 10u);
  EXPECT_EQ(p.by_cause.at("issue"), 4u);
  EXPECT_EQ(p.by_cause.at("dependency"), 2u);
  EXPECT_EQ(p.by_cause.at("drain"), 2u);
  EXPECT_EQ(p.by_cause.at("idle"), 2u);
  // The stall is the next instruction's; everything after the last goes to it.
  EXPECT_EQ(p.by_instruction.at("MUL"), 1u);
  EXPECT_EQ(p.by_instruction.at("ADD"), 1u);
  EXPECT_EQ(p.by_instruction.at("MAX"), 3u);
  EXPECT_EQ(p.by_instruction.at("HALT"), 5u);
  EXPECT_EQ(p.issue_by_instruction.at("MAX"), 1u);
  uint64_t units = 0, instructions = 0;
  for (const auto& [u, c] : p.by_unit) units += c;
  for (const auto& [m, c] : p.by_instruction) instructions += c;
  EXPECT_EQ(units, 10u);
  EXPECT_EQ(instructions, 10u);
  // The drain is charged to the unit its rule names, the dependency and the idle cycles to the waiting
  // instruction's.
  EXPECT_EQ(p.by_unit.at("control"), 1u + 2u + 2u);  // HALT, the drain, the idle cycles after it
  EXPECT_EQ(p.by_unit.at("vector"), 3u + 2u);        // three issues, the dependency stall
  EXPECT_EQ((p.stall_by_waiting_unit.at({"dependency", "vector"})), 2u);
}

TEST(Codesign, AnIssueAfterTheRunsLastCycleIsNotCharged) {
  const auto t = trace_of({{0, "MUL v1, v0"}, {3, "HALT"}}, 3);
  const auto p = profile_run(t, toy_dataflow, toy_rules());
  EXPECT_EQ(p.attributed(), 3u);
  EXPECT_EQ(p.by_instruction.at("HALT"), 2u);  // the two cycles before it, not its own
}

TEST(Codesign, FindsDependentPairsAndTriplesWhoseIntermediateIsUsedOnce) {
  // Twice: MUL -> MULV -> ADD, each result used once by the next vector op; the scalar op between them
  // is another unit's. Then a MUL whose result is read twice, which is no fusion.
  std::vector<std::pair<uint64_t, std::string>> issues;
  uint64_t c = 0;
  for (int i = 0; i < 2; ++i) {
    issues.push_back({c++, "MUL v1, v0, f0"});
    issues.push_back({c++, "S_ADDI r1, r1"});
    c += 2;  // two stall cycles before MULV: charged to it
    issues.push_back({c++, "MULV v2, v1, v3"});
    issues.push_back({c++, "ADD v4, v2, v3"});
  }
  issues.push_back({c++, "MUL v5, v0, f0"});
  issues.push_back({c++, "ADD v6, v5, v0"});
  issues.push_back({c++, "ADD v7, v5, v0"});
  issues.push_back({c++, "HALT"});
  const auto t = trace_of(issues, c, {{2, 4, "dependency"}, {8, 10, "dependency"}});
  const auto p = profile_run(t, toy_dataflow, toy_rules());
  ASSERT_EQ(p.fusions.count("MUL>MULV"), 1u);
  EXPECT_EQ(p.fusions.at("MUL>MULV").occurrences, 2u);
  EXPECT_EQ(p.fusions.at("MUL>MULV").cycles, 2u * (1 + 3));
  EXPECT_EQ(p.fusions.at("MUL>MULV").saved, 2u * 3);
  EXPECT_EQ(p.fusions.count("MULV>ADD"), 0u) << "each MULV is in a MUL>MULV pair already: no overlaps";
  EXPECT_FALSE(p.fusions.at("MUL>MULV").accumulation);
  ASSERT_EQ(p.fusions.count("MUL>MULV>ADD"), 1u);
  EXPECT_EQ(p.fusions.at("MUL>MULV>ADD").saved, 2u * (3 + 1));
  EXPECT_EQ(p.fusions.count("MUL>ADD"), 0u) << "v5 is read twice: not an intermediate";
  EXPECT_EQ(p.fusions.count("ADD>ADD"), 0u);
  EXPECT_EQ(p.executed.at("MUL"), 3u);
}

TEST(Codesign, AnAccumulationChainCountsWithoutOverlapsAndIsMarked) {
  // MAC v1 += ...: five in a row, each reading the partial sum the one before wrote.
  std::vector<std::pair<uint64_t, std::string>> issues;
  for (uint64_t i = 0; i < 5; ++i) issues.push_back({i, "MAC v1, v1, v2"});
  issues.push_back({5, "HALT"});
  const auto p = profile_run(trace_of(issues, 6), toy_dataflow, toy_rules());
  ASSERT_EQ(p.fusions.count("MAC>MAC"), 1u);
  EXPECT_EQ(p.fusions.at("MAC>MAC").occurrences, 2u);
  EXPECT_EQ(p.fusions.at("MAC>MAC>MAC").occurrences, 1u);
  EXPECT_TRUE(p.fusions.at("MAC>MAC").accumulation);
  EXPECT_TRUE(p.fusions.at("MAC>MAC>MAC").accumulation);
  const auto w = combine({p}, "toy", "default", toy_rules(), {"MAC", "HALT"});
  const auto candidates = propose(w);
  ASSERT_FALSE(candidates.empty());
  EXPECT_EQ(candidates[0].kind, "accumulation");
  EXPECT_NE(candidates[0].title.find("accumulation chain"), std::string::npos) << candidates[0].title;
}

TEST(Codesign, InterleavedRowsStillFormPairsWithinTheWindow) {
  // Two rows interleaved: MUL a, MUL b, MULV a, MULV b; then a consumer five vector ops away.
  const auto t = trace_of({{0, "MUL v1, v0"},
                           {1, "MUL v2, v0"},
                           {2, "MULV v3, v1"},
                           {3, "MULV v4, v2"},
                           {4, "MUL v5, v0"},
                           {5, "ADD v6, v0"},
                           {6, "ADD v7, v0"},
                           {7, "ADD v8, v0"},
                           {8, "ADD v9, v0"},
                           {9, "MULV v10, v5"},
                           {10, "HALT"}},
                          11);
  const auto p = profile_run(t, toy_dataflow, toy_rules());
  ASSERT_EQ(p.fusions.count("MUL>MULV"), 1u);
  EXPECT_EQ(p.fusions.at("MUL>MULV").occurrences, 2u) << "the last pair is five vector ops apart";
}

TEST(Codesign, AnAddressRegisterWrittenBetweenEndsTheRowsDataflow) {
  // MUL writes the row r5 addresses; S_ADDI moves r5; MULV then reads another row.
  const auto moved =
      trace_of({{0, "MUL [r5], v0"}, {1, "S_ADDI r5, r5"}, {2, "MULV v2, [r5]"}, {3, "HALT"}}, 4);
  EXPECT_TRUE(profile_run(moved, toy_dataflow, toy_rules()).fusions.empty());
  const auto kept =
      trace_of({{0, "MUL [r5], v0"}, {1, "S_ADDI r6, r6"}, {2, "MULV v2, [r5]"}, {3, "HALT"}}, 4);
  EXPECT_EQ(profile_run(kept, toy_dataflow, toy_rules()).fusions.count("MUL>MULV"), 1u);
  // A read of the whole memory is a use of every row in it.
  const auto wide =
      trace_of({{0, "MUL [r5], v0"}, {1, "STORE v9, ROW[*]"}, {2, "MULV v2, [r5]"}, {3, "HALT"}}, 4);
  EXPECT_TRUE(profile_run(wide, toy_dataflow, toy_rules()).fusions.empty());
}

TEST(Codesign, WeightsScaleEveryRunsCycles) {
  auto a = profile_run(trace_of({{0, "MUL v1, v0"}, {1, "MULV v2, v1"}, {2, "HALT"}}, 4), toy_dataflow,
                       toy_rules());
  auto b = profile_run(trace_of({{0, "ADD v1, v0"}, {1, "HALT"}}, 10, {{2, 10, "dma_full"}}), toy_dataflow,
                       toy_rules());
  a.weight = 1;
  b.weight = 3;
  const auto w = combine({a, b}, "toy", "default", toy_rules(), {"MUL", "MULV", "ADD", "DIV", "HALT"});
  EXPECT_DOUBLE_EQ(w.total, 4 + 3 * 10);
  EXPECT_DOUBLE_EQ(w.by_instruction.at("HALT"), 2 + 3 * 9);
  EXPECT_DOUBLE_EQ(w.by_cause.at("dma_full"), 3 * 8);
  EXPECT_DOUBLE_EQ(w.executed.at("ADD"), 3);
  double sum = 0;
  for (const auto& [cause, cycles] : w.by_cause) sum += cycles;
  EXPECT_DOUBLE_EQ(sum, w.total);
}

TEST(Codesign, WorkloadFilesMapTasksToWeights) {
  const auto items = parse_workload("relu: 2\nrms_norm@C3: 0.5\n", "w.yaml", {"C1", "C2"});
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].task, "relu");
  EXPECT_EQ(items[0].config, "C1");
  EXPECT_EQ(items[1].config, "C2");
  EXPECT_DOUBLE_EQ(items[0].weight, 2);
  EXPECT_EQ(items[2].task, "rms_norm");
  EXPECT_EQ(items[2].config, "C3");
  EXPECT_DOUBLE_EQ(items[2].weight, 0.5);
  auto message = [](const std::string& text) {
    try {
      parse_workload(text, "w.yaml", {"C1"});
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("relu: -1").find("w.yaml: relu: the weight must be > 0"), std::string::npos);
  EXPECT_NE(message("relu: heavy").find("must be a number"), std::string::npos);
  EXPECT_NE(message("- relu").find("expected a map"), std::string::npos);
  EXPECT_NE(message("relu: [").find("not YAML"), std::string::npos);
}

TEST(Codesign, CandidatesRankFusionsAndParametersAndListUnusedInstructions) {
  std::vector<std::pair<uint64_t, std::string>> issues;
  for (uint64_t i = 0; i < 8; i += 2) {
    issues.push_back({i, "MUL v1, v0"});
    issues.push_back({i + 1, "MULV v2, v1"});
  }
  issues.push_back({8, "HALT"});
  auto run = profile_run(trace_of(issues, 20, {{9, 20, "dma_full"}}), toy_dataflow, toy_rules());
  const auto w = combine({run}, "toy", "default", toy_rules(), {"MUL", "MULV", "DIV", "HALT"});
  const auto candidates = propose(w);
  ASSERT_GE(candidates.size(), 3u);
  // The parameter's 11 stall cycles outrank the fusion's 4.
  EXPECT_EQ(candidates[0].kind, "parameter");
  EXPECT_DOUBLE_EQ(candidates[0].saved_cycles, 11);
  EXPECT_NE(candidates[0].explore_command.find("explore toy --base default --set SLOTS=4,8 --tasks toy"),
            std::string::npos);
  EXPECT_NEAR(candidates[0].speedup, 20.0 / 9.0, 1e-9);
  EXPECT_EQ(candidates[1].kind, "fusion");
  EXPECT_EQ(candidates[1].title, "fuse MUL -> MULV");
  EXPECT_EQ(candidates[1].occurrences, 4u);
  EXPECT_DOUBLE_EQ(candidates[1].saved_cycles, 4);
  EXPECT_NE(candidates[1].estimate_rule.find("toy rule"), std::string::npos);
  EXPECT_EQ(candidates.back().kind, "unused");
  EXPECT_EQ(candidates.back().title, "unused: DIV");  // HALT is essential
  for (const auto& c : candidates) EXPECT_EQ(c.title.find("HALT"), std::string::npos);

  const auto j = candidates_json(w, candidates);
  ASSERT_TRUE(j["candidates"].is_array());
  EXPECT_EQ(j["candidates"].size(), candidates.size());
  EXPECT_EQ(j["candidates"][0]["rank"], 1);
  EXPECT_EQ(j["candidates"][0]["explore_command"], candidates[0].explore_command);
  EXPECT_TRUE(j["candidates"][0]["cells_added"].is_null());
  EXPECT_EQ(j["candidates"][1]["evidence"]["sequence"], nlohmann::json::array({"MUL", "MULV"}));
  EXPECT_EQ(j["candidates"][1]["evidence"]["by_task"][0]["occurrences"], 4);
  EXPECT_EQ(j["fusion_rule"], "toy rule");
  const auto pj = profile_json(w);
  EXPECT_EQ(pj["runs"][0]["attributed"], 20);
  EXPECT_EQ(pj["runs"][0]["cycles"], 20);
  EXPECT_EQ(pj["by_cause"][0]["name"], "dma_full");
  EXPECT_DOUBLE_EQ(pj["total_cycles"].get<double>(), 20);
  const std::string html = codesign_html(w, &candidates);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("fuse MUL -&gt; MULV"), std::string::npos);
  EXPECT_NE(explore_script(w, candidates).find("--set SLOTS=4,8"), std::string::npos);
}

TEST(Codesign, TraceFromTimelineTakesTheIssueTracksInstructionsAndEveryStall) {
  tb::Timeline tl;
  tl.cycles = 5;
  tl.tracks = {{"issue", "", tb::TimelineTrack::Role::kOther},
               {"vector unit", "", tb::TimelineTrack::Role::kCompute}};
  tl.slices.push_back({0, 0, 1, "MUL v1, v0", "instruction", 0, "", "", 0});
  tl.slices.push_back({1, 0, 1, "MUL v1, v0", "op", 0, "", "", 0});
  tl.slices.push_back({0, 1, 3, "stall: dependency", "stall", 1, "dependency", "", 0});
  tl.slices.push_back({0, 3, 4, "HALT", "instruction", 1, "", "", 0});
  const auto t = trace_from_timeline(tl, toy_rules());
  ASSERT_EQ(t.issues.size(), 2u);
  EXPECT_EQ(t.issues[1].cycle, 3u);
  ASSERT_EQ(t.stalls.size(), 1u);
  EXPECT_EQ(t.stalls[0].cause, "dependency");
  CodesignRules other = toy_rules();
  other.issue_track = "retire";
  EXPECT_THROW(trace_from_timeline(tl, other), std::invalid_argument);
}

TEST(Codesign, CellsAddedComeFromExploresSynthesisCache) {
  const auto cache = std::filesystem::temp_directory_path() / "kcraft_codesign_cells";
  std::filesystem::remove_all(cache);
  ::setenv("KCRAFT_VARIANT_CACHE", cache.c_str(), 1);
  WeightedProfile w;
  w.platform = "systolic";
  w.hw_config = "default";
  Candidate c;
  c.kind = "parameter";
  c.evidence = {{"parameter", "DMA_SLOTS"}, {"values", {"4", "8"}}};
  std::vector<Candidate> candidates = {c};
  fill_cells_added(w, candidates);
  EXPECT_EQ(candidates[0].cells_added, -1) << "nothing synthesized yet";
  const auto files = synthesis_cache_files("systolic", "default", {{"DMA_SLOTS"}, {"4", "8"}});
  ASSERT_EQ(files.size(), 2u);
  EXPECT_NE(files[0], files[1]);
  for (size_t i = 0; i < 2; ++i) {
    std::filesystem::create_directories(files[i].parent_path());
    std::ofstream(files[i]) << nlohmann::json{
        {"cells", 50000 + 700 * i},
        {"memories", 3},
        {"seconds", 1}}.dump();
  }
  fill_cells_added(w, candidates);
  EXPECT_EQ(candidates[0].cells_added, 700);
  ::unsetenv("KCRAFT_VARIANT_CACHE");
  std::filesystem::remove_all(cache);
}

}  // namespace
}  // namespace kcraft::bench::codesign
