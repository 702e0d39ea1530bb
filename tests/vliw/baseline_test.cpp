// The vliw baseline compiler: every task x C1..C5 x hardware configuration assembles without errors or
// hazard warnings and passes on the functional model against the golden reference; non-default knob
// points pass too; a kernel with one bundle removed fails the comparison (so the check can fail); the
// shuffle networks the templates use are what V_SHUF does.
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "isa/common/hw_config.h"
#include "tasks/common/task_spec.h"
#include "tasks/vliw/kernel_builder.h"
#include "tasks/vliw/task_run.h"
#include "tasks/vliw/template_compiler.h"

namespace kcraft::vliw {
namespace {

constexpr uint64_t kSeed = 1234;

Params params(const std::string& hw) {
  return Params::from_config(
      load_hw_config(std::string(KCRAFT_SOURCE_DIR) + "/rtl/vliw/configs/" + hw + ".yaml"));
}

const tasks::TaskRegistry& registry() {
  static const tasks::TaskRegistry r =
      tasks::TaskRegistry::load_directory(std::string(KCRAFT_SOURCE_DIR) + "/tasks/specs");
  return r;
}

struct Outcome {
  GeneratedKernel kernel;
  TaskRun run;
};

Outcome compile_and_run(const std::string& task, const std::string& config, const std::string& hw,
                        const KnobValues& knobs = {}) {
  const Params p = params(hw);
  const tasks::TaskSpec& spec = registry().get(task);
  const auto cfg = spec.resolve(config, tasks::DType::bf16);
  TemplateCompiler tc(p);
  Outcome o;
  o.kernel = tc.generate(cfg, task_layout(cfg), knobs);
  o.run = run_task_kernel(p, o.kernel.source, spec, config, kSeed);
  if (const char* dir = std::getenv("KCRAFT_VLIW_DUMP")) {  // for debugging: the kernels as generated
    std::ofstream(fmt::format("{}/{}_{}_{}.s", dir, task, config, hw)) << o.kernel.source;
  }
  return o;
}

void expect_clean_pass(const Outcome& o, const std::string& what) {
  const auto& a = o.run.assembled;
  ASSERT_TRUE(a.ok) << what << "\n" << o.run.message;
  EXPECT_EQ(a.warning_count(), 0u) << what << "\n" << isa::format_diagnostics(a, o.kernel.source);
  ASSERT_TRUE(o.run.halted()) << what << ": " << o.run.message;
  EXPECT_TRUE(o.run.compare.pass) << what << "\n" << tasks::format_compare(o.run.compare);
}

using Case = std::tuple<std::string, std::string, std::string>;  // task, config, hw

class VliwBaseline : public ::testing::TestWithParam<Case> {};

TEST_P(VliwBaseline, AssemblesCleanAndPassesOnTheModel) {
  const auto& [task, config, hw] = GetParam();
  const auto cfg = registry().get(task).resolve(config, tasks::DType::bf16);
  if (const std::string why = TemplateCompiler(params(hw)).unsupported_reason(cfg); !why.empty())
    GTEST_SKIP() << why;
  const Outcome o = compile_and_run(task, config, hw);
  expect_clean_pass(o, fmt::format("{} {} {}", task, config, hw));
  std::string knobs;
  for (const auto& [k, v] : o.kernel.knobs) knobs += fmt::format(" {}={}", k, v);
  RecordProperty("cycles", std::to_string(o.run.result.cycles));
  const Counters& n = o.run.counters;
  std::printf(
      "%s %s %s: %llu cycles (vec slot busy %llu, stalls: lock %llu, dma queue %llu, bank %llu, drain %llu), "
      "%zu words,%s\n",
      task.c_str(), config.c_str(), hw.c_str(), static_cast<unsigned long long>(o.run.result.cycles),
      static_cast<unsigned long long>(n[kOpsVec]), static_cast<unsigned long long>(n[kStallLockWait]),
      static_cast<unsigned long long>(n[kStallDmaQueue]),
      static_cast<unsigned long long>(n[kStallBankConflict]), static_cast<unsigned long long>(n[kStallDrain]),
      o.run.assembled.words.size(), knobs.c_str());
}

// Every task with a template (the issue 11 tasks after the first six, then the level-3 composites).
const std::vector<std::string>& all_tasks() {
  static const std::vector<std::string> tasks = [] {
    std::vector<std::string> t = {"relu",   "silu",   "softmax",        "rms_norm", "gemm",
                                  "linear", "gelu",   "layer_norm",     "gemv",     "batch_matmul",
                                  "ffn",    "swiglu", "attention",      "mha",      "gqa",
                                  "mqa",    "rope",   "depthwise_conv", "conv2d",   "flash_attention"};
    // the level-3 composites
    for (const char* task : {"conv_block", "decoder_block_llama", "decoder_block_t5"}) t.push_back(task);
    return t;
  }();
  return tasks;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const std::string& task : all_tasks()) {
    for (const char* config : {"C1", "C2", "C3", "C4", "C5"}) {
      for (const char* hw : {"default", "small"}) cases.emplace_back(task, config, hw);
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, VliwBaseline, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& p) {
                           return std::get<0>(p.param) + "_" + std::get<1>(p.param) + "_" +
                                  std::get<2>(p.param);
                         });

// Non-default knob points (every knob value is clamped to what the shapes allow, so each must stay correct).
struct KnobCase {
  std::string task, config, hw;
  KnobValues knobs;
};

TEST(VliwBaselineKnobs, NonDefaultPointsPass) {
  const std::vector<KnobCase> cases = {
      {"relu", "C3", "default", {{"tile_rows", 32}, {"unroll", 1}, {"buffers", 3}}},
      {"relu", "C2", "small", {{"tile_rows", 64}, {"unroll", 16}, {"buffers", 4}}},
      {"silu", "C3", "default", {{"tile_rows", 1024}, {"unroll", 2}, {"buffers", 2}}},
      {"silu", "C2", "small", {{"unroll", 1}, {"buffers", 3}}},
      {"softmax", "C3", "default", {{"tile_rows", 1}, {"unroll", 2}, {"buffers", 3}}},
      {"softmax", "C2", "small", {{"tile_rows", 16}, {"unroll", 16}}},
      {"rms_norm", "C3", "small", {{"tile_rows", 8}, {"unroll", 2}, {"buffers", 3}}},
      {"rms_norm", "C2", "default", {{"tile_rows", 1}, {"unroll", 16}}},
      {"gemm", "C2", "default", {{"strips", 1}, {"m_tiles", 1}, {"unroll", 4}}},
      {"gemm", "C3", "small", {{"strips", 8}, {"m_tiles", 1}, {"unroll", 8}}},
      {"linear", "C2", "default", {{"strips", 2}, {"m_tiles", 1}, {"unroll", 8}}},
      {"linear", "C3", "small", {{"strips", 1}, {"unroll", 4}}},
      {"gelu", "C3", "small", {{"tile_rows", 64}, {"unroll", 2}, {"buffers", 3}}},
      {"layer_norm", "C3", "default", {{"tile_rows", 1}, {"unroll", 2}, {"buffers", 3}}},
      {"gemv", "C3", "small", {{"tile_rows", 1}, {"unroll", 16}, {"buffers", 3}}},
      {"batch_matmul", "C3", "default", {{"strips", 1}, {"m_tiles", 1}, {"unroll", 8}}},
      {"ffn", "C2", "default", {{"strips", 1}, {"m_tiles", 1}, {"unroll", 4}}},
      {"swiglu", "C2", "small", {{"strips", 2}, {"unroll", 8}}},
      {"attention", "C2", "default", {{"strips", 1}, {"unroll", 4}, {"softmax_unroll", 2}}},
      {"mha", "C2", "small", {{"m_tiles", 1}, {"softmax_unroll", 4}}},
      {"gqa", "C2", "default", {{"unroll", 8}, {"softmax_unroll", 2}}},
      {"mqa", "C3", "small", {{"strips", 2}, {"unroll", 4}}},
      {"rope", "C3", "default", {{"positions", 8}, {"unroll", 2}}},
      {"depthwise_conv", "C3", "default", {{"unroll", 1}}},
      {"conv2d", "C3", "small", {{"strips", 1}, {"m_tiles", 1}, {"unroll", 8}}},
      {"conv2d", "C1", "default", {{"k_pieces", 2}, {"strips", 1}}},
      {"flash_attention", "C2", "default", {{"key_block", 16}}},
      {"flash_attention", "C4", "small", {{"key_block", 256}}},
      {"flash_attention", "C5", "default", {{"key_block", 256}}},
      {"conv_block", "C3", "small", {{"strips", 1}, {"k_pieces", 2}}},
      {"decoder_block_llama", "C2", "default", {{"m_tiles", 1}, {"norm_unroll", 2}, {"act_unroll", 4}}},
      {"decoder_block_t5", "C3", "default", {{"unroll", 4}, {"softmax_unroll", 4}, {"norm_unroll", 4}}},
  };
  for (const auto& c : cases) {
    std::string what = fmt::format("{} {} {}", c.task, c.config, c.hw);
    for (const auto& [k, v] : c.knobs) what += fmt::format(" {}={}", k, v);
    expect_clean_pass(compile_and_run(c.task, c.config, c.hw, c.knobs), what);
  }
}

// K in pieces keeps the FP32 accumulators exactly (three BF16 parts in DM between pieces): the outputs are
// bit for bit those of the product over the whole K at once.
TEST(VliwBaselineKnobs, KInPiecesGivesTheOutputsOfOneK) {
  const std::vector<KnobCase> cases = {
      {"gemm", "C2", "default", {{"k_pieces", 2}}},  // K = 48: pieces of 32 and 16 rows of B
      {"gemm", "C2", "default", {{"k_pieces", 3}}},
      {"linear", "C3", "small", {{"k_pieces", 2}}},  // VLEN 8: W's tiles take two chunks at a time
      {"linear", "C2", "default", {{"k_pieces", 2}, {"strips", 1}, {"m_tiles", 1}}},
      {"ffn", "C3", "default", {{"k_pieces", 3}}},
      {"swiglu", "C2", "default", {{"k_pieces", 2}}},
  };
  for (const auto& c : cases) {
    const std::string what =
        fmt::format("{} {} {} k_pieces={}", c.task, c.config, c.hw, c.knobs.at("k_pieces"));
    const Outcome pieces = compile_and_run(c.task, c.config, c.hw, c.knobs);
    expect_clean_pass(pieces, what);
    EXPECT_EQ(pieces.kernel.knobs.at("k_pieces"), c.knobs.at("k_pieces")) << what;
    KnobValues whole = c.knobs;
    whole["k_pieces"] = 1;
    const Outcome one = compile_and_run(c.task, c.config, c.hw, whole);
    ASSERT_TRUE(one.run.pass()) << what;
    EXPECT_EQ(one.kernel.knobs.at("k_pieces"), 1) << what;
    ASSERT_EQ(pieces.run.outputs.size(), one.run.outputs.size());
    for (size_t i = 0; i < one.run.outputs.size(); ++i)
      EXPECT_EQ(pieces.run.outputs[i].data, one.run.outputs[i].data)
          << what << ": " << one.run.outputs[i].name;
  }
}

// The very last resort for IMEM: a product with K in pieces as one hardware loop over (panel, piece) pairs
// (equal pieces, the first and last piece's code in 0/1 loops) gives exactly the outputs of one pass over K.
TEST(VliwBaselineKnobs, LoopedPiecesGiveTheOutputsOfOneK) {
  const std::vector<KnobCase> cases = {
      {"swiglu", "C2", "default", {{"k_pieces", 2}, {"force_loop_pieces", 1}}},  // F = 96: 3 pieces of 32
      {"swiglu", "C3", "small", {{"k_pieces", 2}, {"force_loop_pieces", 1}}},  // VLEN 8, two chunks per group
  };
  for (const auto& c : cases) {
    const std::string what = fmt::format("{} {} {} looped pieces", c.task, c.config, c.hw);
    const Outcome looped = compile_and_run(c.task, c.config, c.hw, c.knobs);
    expect_clean_pass(looped, what);
    EXPECT_EQ(looped.kernel.knobs.count("loop_pieces"), 1u) << what;
    EXPECT_GT(looped.kernel.knobs.at("k_pieces"), 1) << what;
    EXPECT_NE(looped.kernel.summary.find("one hardware loop over (panel, piece) pairs"), std::string::npos)
        << looped.kernel.summary;
    const Outcome one = compile_and_run(c.task, c.config, c.hw, {{"k_pieces", 1}});
    ASSERT_TRUE(one.run.pass()) << what;
    ASSERT_EQ(looped.run.outputs.size(), one.run.outputs.size());
    for (size_t i = 0; i < one.run.outputs.size(); ++i)
      EXPECT_EQ(looped.run.outputs[i].data, one.run.outputs[i].data)
          << what << ": " << one.run.outputs[i].name;
  }
}

// On the small tile the decoder blocks' C3 and C5 need the last resorts: LLaMA's FFN down projection (K = F =
// 688) fits DM in one piece with one raw W strip buffer, T5's (K = 1024) loops over equal pieces of K.
TEST(VliwBaselineKnobs, DecoderBlocksC3AndC5FitTheSmallTileByTheLastResorts) {
  for (const char* task : {"decoder_block_llama", "decoder_block_t5"}) {
    for (const char* config : {"C3", "C5"}) {
      const std::string what = fmt::format("{} {} small", task, config);
      const Outcome o = compile_and_run(task, config, "small");
      expect_clean_pass(o, what);
      EXPECT_EQ(o.kernel.knobs.count("loop_pieces"), 1u) << what;
      const bool llama = std::string(task) == "decoder_block_llama";
      EXPECT_EQ(o.kernel.summary.find("one raw B strip buffer") != std::string::npos, llama) << what;
      EXPECT_EQ(o.kernel.summary.find("one hardware loop over (panel, piece) pairs") != std::string::npos,
                !llama)
          << what;
      EXPECT_LE(o.run.assembled.words.size(), params("small").imem_words) << what;
      const Outcome d = compile_and_run(task, config, "default");  // never on the default tile
      EXPECT_EQ(d.kernel.knobs.count("loop_pieces"), 0u) << what;
      EXPECT_EQ(d.kernel.knobs.count("compact_loops"), 0u) << what;
    }
  }
}

// Compact loops are the generator's last resort for IMEM: the decoder blocks take them on the small tile
// (and pass: VliwBaseline above), never on the default one, where every kernel fits without.
TEST(VliwBaselineKnobs, CompactLoopsOnlyWhenNothingElseFits) {
  for (const char* task : {"decoder_block_llama", "decoder_block_t5"}) {
    for (const char* hw : {"default", "small"}) {
      const std::string what = fmt::format("{} C1 {}", task, hw);
      const Outcome o = compile_and_run(task, "C1", hw);
      EXPECT_EQ(o.kernel.knobs.count("compact_loops") != 0, std::string(hw) == "small") << what;
      expect_clean_pass(o, what);
      EXPECT_LE(o.run.assembled.words.size(), params(hw).imem_words) << what;
    }
  }
}

// Every combination of the tuner's candidate values, on the small shapes of both hardware configurations.
TEST(VliwBaselineKnobs, EveryCandidateCombinationPassesOnC1AndC2) {
  int runs = 0;
  for (const char* hw : {"default", "small"}) {
    const TemplateCompiler tc(params(hw));
    // The composites reuse the matmul and row templates swept here; NonDefaultPointsPass covers them.
    for (const std::string& task : all_tasks()) {
      if (task == "ffn" || task == "swiglu" || task == "attention" || task == "mha" || task == "gqa" ||
          task == "mqa" || registry().get(task).level >= 3)
        continue;
      for (const char* config : {"C1", "C2"}) {
        const auto cfg = registry().get(task).resolve(config, tasks::DType::bf16);
        if (!tc.unsupported_reason(cfg).empty()) continue;
        const std::vector<Knob> knobs = tc.knobs(cfg);
        std::vector<size_t> at(knobs.size(), 0);
        for (;;) {
          KnobValues values;
          std::string what = fmt::format("{} {} {}", task, config, hw);
          for (size_t i = 0; i < knobs.size(); ++i) {
            values[knobs[i].name] = knobs[i].candidates[at[i]];
            what += fmt::format(" {}={}", knobs[i].name, knobs[i].candidates[at[i]]);
          }
          expect_clean_pass(compile_and_run(task, config, hw, values), what);
          ++runs;
          size_t i = 0;
          while (i < knobs.size() && ++at[i] == knobs[i].candidates.size()) at[i++] = 0;
          if (i == knobs.size()) break;
        }
      }
    }
  }
  EXPECT_GT(runs, 300);
}

// The check can fail: the baseline with one compute bundle deleted from its source does not pass.
TEST(VliwBaselineKnobs, KernelWithABundleRemovedFails) {
  for (const auto& [task, op] :
       std::vector<std::pair<std::string, std::string>>{{"gemm", "A_MMAC"},
                                                        {"relu", "V_MAX"},
                                                        {"softmax", "A_EXP"},
                                                        {"gemv", "A_VMAC"},
                                                        {"layer_norm", "A_RSQRT"},
                                                        {"attention", "A_EXP"},
                                                        {"rope", "A_VMAC"},
                                                        {"depthwise_conv", "A_VMAC"},
                                                        {"conv2d", "C_DMAST"},
                                                        {"flash_attention", "A_MUL"},
                                                        {"conv_block", "V_MAX"},
                                                        {"decoder_block_llama", "A_EXP"},
                                                        {"decoder_block_t5", "A_RSQRT"}}) {
    const Params p = params("default");
    const tasks::TaskSpec& spec = registry().get(task);
    const auto cfg = spec.resolve("C2", tasks::DType::bf16);
    const GeneratedKernel g = TemplateCompiler(p).generate(cfg, task_layout(cfg));
    // Delete the first straight-line bundle with the op (outside loops' first bundles is not needed: any).
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < g.source.size()) {
      const size_t end = g.source.find('\n', start);
      lines.push_back(g.source.substr(start, end - start));
      start = end == std::string::npos ? g.source.size() : end + 1;
    }
    bool removed = false;
    std::string broken;
    for (const auto& l : lines) {
      if (!removed && l.find(op) != std::string::npos && l.find(';') != 0) {
        removed = true;
        continue;
      }
      broken += l + "\n";
    }
    ASSERT_TRUE(removed) << task;
    const TaskRun ok = run_task_kernel(p, g.source, spec, "C2", kSeed);
    ASSERT_TRUE(ok.pass()) << task;
    const TaskRun bad = run_task_kernel(p, broken, spec, "C2", kSeed);
    EXPECT_FALSE(bad.pass()) << task << ": the kernel without one " << op << " bundle still passes";
  }
}

// The target: gemm C5 on the default configuration at >= 70 % of the A_MMUL peak.
TEST(VliwBaselinePerformance, GemmC5ReachesSeventyPercentOfTheMatrixPeak) {
  const Params p = params("default");
  const Outcome o = compile_and_run("gemm", "C5", "default");
  ASSERT_TRUE(o.run.pass()) << o.run.message;
  const double peak = static_cast<double>(p.mmul_m() * p.mmul_k() * p.mmul_n());
  const double fraction = 256.0 * 256.0 * 256.0 / (static_cast<double>(o.run.result.cycles) * peak);
  EXPECT_GE(fraction, 0.70) << o.run.result.cycles << " cycles";
  EXPECT_EQ(o.run.counters[kMacs], 256u * 256u * 256u);
}

// docs/vliw.md §5 quotes the relu C3 baseline's cycle count: it must be what the kernel does.
TEST(VliwBaselinePerformance, TheWorkedKernelInTheGuideTakesTheCyclesItStates) {
  std::ifstream in(std::string(KCRAFT_SOURCE_DIR) + "/docs/vliw.md");
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const Outcome o = compile_and_run("relu", "C3", "default");
  ASSERT_TRUE(o.run.pass());
  EXPECT_NE(doc.find(fmt::format("### relu C3 on `default`: {} cycles", o.run.result.cycles)),
            std::string::npos)
      << "the guide's worked kernel should say " << o.run.result.cycles << " cycles";
  EXPECT_NE(doc.find(fmt::format("| relu | C3 | {} |", o.run.result.cycles)), std::string::npos);
}

// docs/vliw.md §1: a correct, fully scheduled kernel that reads old values on purpose, with those reads
// marked, checks without a warning; the same kernel unmarked warns about each of them and runs the same.
TEST(VliwReadsOld, APipelinedReluWithItsReadsMarkedChecksCleanAndPasses) {
  const std::string marked =
      "; relu C1, software-pipelined through the exposed pipeline: one register per stage, each read taking\n"
      "; the value that landed last (the row loaded three bundles earlier, the maximum of two bundles "
      "earlier).\n"
      "    V_BCST v0, r0\n"
      "    S_ADDI r1, r0, ADDR_X\n"
      "    S_ADDI r2, r0, ADDR_Y\n"
      "    S_ADDI r3, r0, ROW_BYTES\n"
      "    S_ADDI r4, r0, M\n"
      "    C_DMALD 0, r0, r1, r3, r4, 0\n"
      "    C_ACQ 0\n"
      "    S_PMOV p0, r0\n"
      "    S_PMOV p1, r0\n"
      ".reads_old begin v1, v2\n"
      "    L_VLD v1, p0, ROW_BYTES\n"
      "    L_VLD v1, p0, ROW_BYTES\n"
      "    L_VLD v1, p0, ROW_BYTES\n"
      "    { L_VLD v1, p0, ROW_BYTES ; V_MAX v2, v1, v0 }\n"
      "    { L_VLD v1, p0, ROW_BYTES ; V_MAX v2, v1, v0 ; C_LOOPI M - 5, done }\n"
      "    { L_VST v2, p1, ROW_BYTES ; L_VLD v1, p0, ROW_BYTES ; V_MAX v2, v1, v0 }\n"
      "done:\n"
      "    { L_VST v2, p1, ROW_BYTES ; V_MAX v2, v1, v0 }\n"
      "    { L_VST v2, p1, ROW_BYTES ; V_MAX v2, v1, v0 }\n"
      "    { L_VST v2, p1, ROW_BYTES ; V_MAX v2, v1, v0 }\n"
      "    L_VST v2, p1, ROW_BYTES\n"
      "    L_VST v2, p1, ROW_BYTES\n"
      ".reads_old end\n"
      "    C_DMAST 0, r0, r2, r3, r4\n"
      "    C_HALT\n";
  const Params p = params("default");
  const tasks::TaskSpec& spec = registry().get("relu");
  const TaskRun run = run_task_kernel(p, marked, spec, "C1", kSeed);
  ASSERT_TRUE(run.assembled.ok) << isa::format_diagnostics(run.assembled, marked);
  EXPECT_EQ(run.assembled.warning_count(), 0u) << isa::format_diagnostics(run.assembled, marked);
  ASSERT_TRUE(run.halted()) << run.message;
  EXPECT_TRUE(run.compare.pass) << tasks::format_compare(run.compare);

  std::string unmarked;
  std::istringstream lines(marked);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(".reads_old", 0) != 0) unmarked += line + "\n";
  }
  const TaskRun bare = run_task_kernel(p, unmarked, spec, "C1", kSeed);
  EXPECT_EQ(bare.assembled.words, run.assembled.words);
  EXPECT_GE(bare.assembled.warning_count(), 5u);  // the maxima's reads of v1, the stores' reads of v2
  EXPECT_TRUE(bare.pass());
}

// ---------------------------------------------------------------- shuffle networks

TEST(VliwShuffles, LabelsFollowVShufSemantics) {
  const Labels a = {0, 1, 2, 3, 4, 5, 6, 7}, b = {8, 9, 10, 11, 12, 13, 14, 15};
  EXPECT_EQ(shuffle_labels(a, b, 0), (Labels{0, 8, 1, 9, 2, 10, 3, 11}));
  EXPECT_EQ(shuffle_labels(a, b, 1), (Labels{4, 12, 5, 13, 6, 14, 7, 15}));
  EXPECT_EQ(shuffle_labels(a, b, 2), (Labels{0, 2, 4, 6, 8, 10, 12, 14}));
  EXPECT_EQ(shuffle_labels(a, b, 3), (Labels{1, 3, 5, 7, 9, 11, 13, 15}));
}

TEST(VliwShuffles, PlannerFindsATransposeOfFourByFourBlocks) {
  // Four rows of 16 lanes -> four tiles of four 4-lane pieces (one per row): two zip levels.
  std::vector<Labels> rows(4);
  for (int r = 0; r < 4; ++r) {
    for (int l = 0; l < 16; ++l) rows[static_cast<size_t>(r)].push_back(r * 16 + l);
  }
  std::vector<Labels> tiles;
  for (int q = 0; q < 4; ++q) {
    Labels t;
    for (int n = 0; n < 4; ++n) {
      for (int k = 0; k < 4; ++k) t.push_back(k * 16 + q * 4 + n);
    }
    tiles.push_back(t);
  }
  const auto levels = plan_shuffles(rows, tiles);
  EXPECT_EQ(levels.size(), 2u);
  const auto out = apply_levels(rows, levels);
  for (const auto& t : tiles) EXPECT_GE(find_labels(out, t), 0);
}

}  // namespace
}  // namespace kcraft::vliw
