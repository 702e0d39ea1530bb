// Loading task specs: the shipped ones, and every class of broken file (written to a temp dir), whose
// errors must name the file and the field path.
#include <gtest/gtest.h>

#include "tasks/common/inputs.h"
#include "tasks/golden/golden.h"
#include "test_util.h"

namespace kcraft::tasks {
namespace {

using testing::TempDir;

std::string shipped(const std::string& name) {
  return testing::read_file(std::filesystem::path(KCRAFT_TASK_SPEC_DIR) / (name + ".yaml"));
}

// `text` with `from` replaced by `to` (exactly one occurrence must exist).
std::string mutate(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "fixture lacks '" << from << "'";
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "fixture has '" << from << "' twice";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

struct LoadFailure {
  std::string message;
  std::string file;
  std::string field;
  int line = 0;
};

LoadFailure load_failure(const std::string& text, const std::string& file_name = "gemm.yaml") {
  TempDir dir;
  const auto path = dir.path() / file_name;
  testing::write_file(path, text);
  try {
    load_task(path);
  } catch (const TaskSpecError& error) {
    EXPECT_EQ(error.file(), path.string());
    EXPECT_EQ(std::string(error.what()).rfind(path.string() + ": ", 0), 0u)
        << "message must start with the file";
    return {error.what(), error.file(), error.field(), error.line()};
  }
  ADD_FAILURE() << "expected a TaskSpecError";
  return {};
}

#define EXPECT_CONTAINS(haystack, needle)                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) \
      << "'" << (haystack) << "' lacks '" << (needle) << "'"

TEST(Loader, LoadsTheShippedSpecs) {
  const TaskRegistry& registry = testing::registry();
  // Level 1, level 2, then level 3, by name within a level.
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"batch_matmul",
                                                        "conv2d",
                                                        "depthwise_conv",
                                                        "gelu",
                                                        "gemm",
                                                        "gemv",
                                                        "layer_norm",
                                                        "linear",
                                                        "relu",
                                                        "rms_norm",
                                                        "silu",
                                                        "softmax",
                                                        "attention",
                                                        "ffn",
                                                        "flash_attention",
                                                        "gqa",
                                                        "mha",
                                                        "mqa",
                                                        "rope",
                                                        "swiglu",
                                                        "conv_block",
                                                        "decoder_block_llama",
                                                        "decoder_block_t5"}));
  for (const TaskSpec& spec : registry.tasks()) {
    EXPECT_EQ(spec.config_names(), standard_config_names()) << spec.name;
    EXPECT_NE(find_golden(spec.golden), nullptr) << spec.name;
  }
  const TaskSpec& gemm = registry.get("gemm");
  EXPECT_EQ(gemm.level, 1);
  const ResolvedConfig c3 = gemm.resolve("C3", DType::bf16);
  EXPECT_EQ(c3.dim("M"), 64);
  EXPECT_EQ(c3.dim("K"), 64);
  EXPECT_EQ(c3.dim("N"), 128);
  EXPECT_EQ(c3.inputs[1].shape, (Shape{64, 128}));
  EXPECT_DOUBLE_EQ(c3.inputs[1].init_b, 0.125);  // 1/sqrt(K)
  EXPECT_EQ(c3.flops, 2.0 * 64 * 64 * 128);
  // log10(1048576) = 6.0206 -> 6.02
  EXPECT_DOUBLE_EQ(c3.complexity, 6.02);
  EXPECT_DOUBLE_EQ(registry.get("rms_norm").resolve("C1", DType::fp32).param("eps"), 1e-5);
  EXPECT_THROW(registry.get("gem"), std::invalid_argument);
  try {
    registry.get("gem");
  } catch (const std::invalid_argument& error) {
    EXPECT_CONTAINS(error.what(), "did you mean gemm");
  }
  EXPECT_THROW(gemm.resolve("C9", DType::bf16), std::invalid_argument);
  // A level-3 block: LLaMA C5 (S 64, D 256, 4 heads on 1 KV head of 64, F 688). Its MACs stay within 3x
  // attention C5's (16.8M), the budget that keeps C5 near a minute on the RTL.
  const ResolvedConfig llama = registry.get("decoder_block_llama").resolve("C5", DType::bf16);
  EXPECT_EQ(llama.level, 3);
  const double macs =
      64.0 * 256 * (4 + 2) * 64 + 2.0 * 4 * 64 * 64 * 64 + 64.0 * 256 * 256 + 3.0 * 64 * 256 * 688;
  EXPECT_DOUBLE_EQ(llama.macs, macs);
  EXPECT_LE(llama.macs, 3 * registry.get("attention").resolve("C5", DType::bf16).macs);
  EXPECT_DOUBLE_EQ(llama.param("scale"), 0.125);
  EXPECT_EQ(llama.inputs[2].shape, (Shape{256, 256}));  // Wq [HEADS*DH, D]
  EXPECT_EQ(llama.scratch_bytes, (3 * 64 * 256 + 2 * 64 * 256 + 2 * 64 * 64 + 64 * 64 + 2 * 64 * 688) * 2);
}

TEST(Loader, ComplexityScoreFormula) {
  EXPECT_DOUBLE_EQ(complexity_score(1000.0, 1), 3.0);
  EXPECT_DOUBLE_EQ(complexity_score(1000.0, 3), 7.0);
  EXPECT_DOUBLE_EQ(complexity_score(256.0, 1), 2.41);       // log10(256) = 2.408
  EXPECT_DOUBLE_EQ(complexity_score(33554432.0, 2), 9.53);  // 7.5258 + 2
}

TEST(Loader, PhasesAreNamedUniqueAndReachTheResolvedConfig) {
  const TaskSpec llama = load_task(std::filesystem::path(KCRAFT_TASK_SPEC_DIR) / "decoder_block_llama.yaml");
  ASSERT_EQ(llama.phases.size(), 7u);
  EXPECT_EQ(llama.phases[3].name, "attention");
  EXPECT_FALSE(llama.phases[3].description.empty());
  EXPECT_EQ(llama.resolve("C1", DType::bf16).phases.size(), 7u);
  EXPECT_TRUE(load_task(std::filesystem::path(KCRAFT_TASK_SPEC_DIR) / "gemm.yaml").phases.empty());
  const std::string gemm = shipped("gemm");
  EXPECT_EQ(parse_task(gemm + "phases: [load, compute]\n", "gemm.yaml").phases[1].name, "compute");
  EXPECT_CONTAINS(load_failure(gemm + "phases: [a, a]\n").message, "phases[1]: duplicate phase 'a'");
  EXPECT_CONTAINS(load_failure(gemm + "phases: []\n").message, "phases: must not be empty");
  EXPECT_CONTAINS(load_failure(gemm + "phases: [{name: a, cycles: 3}]\n").message, "cycles");
  EXPECT_CONTAINS(load_failure(mutate(gemm, "- name: A", "- name: phase_a")).message,
                  "reserved for phase markers");
}

TEST(Loader, ComposedOfNamesLowerLevelTasksThatExist) {
  EXPECT_EQ(testing::registry().get("conv_block").composed_of, (std::vector<std::string>{"conv2d", "relu"}));
  TempDir dir;
  testing::write_file(dir.path() / "gemm.yaml", shipped("gemm"));
  testing::write_file(dir.path() / "relu.yaml", shipped("relu") + "composed_of: [gemm]\n");
  try {
    TaskRegistry::load_directory(dir.path());
    ADD_FAILURE() << "a level-1 task composed of a level-1 task loaded";
  } catch (const TaskSpecError& e) {
    EXPECT_CONTAINS(std::string(e.what()),
                    "relu.yaml: composed_of: gemm is level 1, not below this task's level 1");
  }
  testing::write_file(dir.path() / "relu.yaml",
                      mutate(shipped("relu"), "level: 1", "level: 2") + "composed_of: [gem]\n");
  try {
    TaskRegistry::load_directory(dir.path());
    ADD_FAILURE() << "an unknown part loaded";
  } catch (const TaskSpecError& e) {
    EXPECT_CONTAINS(std::string(e.what()), "composed_of: unknown task 'gem' (did you mean gemm?)");
  }
  EXPECT_CONTAINS(load_failure(shipped("gemm") + "composed_of: [gemm]\n").message,
                  "cannot be composed of itself");
}

TEST(Loader, BadIntegerNamesFileAndFieldPath) {
  auto failure = load_failure(mutate(shipped("gemm"), "C3: {M: 64, K: 64,", "C3: {M: 64, K: x,"));
  EXPECT_EQ(failure.field, "configs.C3.K");
  EXPECT_CONTAINS(failure.message, "gemm.yaml: configs.C3.K: expected a positive integer, got 'x'");
  EXPECT_GT(failure.line, 0);
}

TEST(Loader, ZeroAndNonMultipleDimsAreRejected) {
  EXPECT_CONTAINS(
      load_failure(mutate(shipped("gemm"), "C2: {M: 32,", "C2: {M: 0,")).message,
      "configs.C2.M: expected a positive integer, got '0' (a dimension may be 0 only when dims sets "
      "min: 0)");
  EXPECT_CONTAINS(load_failure(mutate(shipped("gemm"), "C2: {M: 32,", "C2: {M: -32,")).message,
                  "configs.C2.M: expected a positive integer, got '-32'");
  EXPECT_CONTAINS(load_failure(mutate(shipped("gemm"), "C2: {M: 32,", "C2: {M: 20,")).message,
                  "configs.C2.M: 20 is not a multiple of 16");
}

TEST(Loader, DimMinimumAllowsZeroFlagsAndCounts) {
  // Shipped: conv2d C2 has PAD 0 and attention C1 has CAUSAL 0 (both dims say min: 0).
  EXPECT_EQ(testing::registry().get("conv2d").resolve("C2", DType::bf16).dim("PAD"), 0);
  EXPECT_EQ(testing::registry().get("attention").resolve("C1", DType::bf16).dim("CAUSAL"), 0);
  const std::string conv = shipped("conv2d");
  auto raised =
      load_failure(mutate(conv, "min: 0, description: zero", "min: 1, description: zero"), "conv2d.yaml");
  EXPECT_EQ(raised.field, "configs.C2.PAD");
  EXPECT_CONTAINS(raised.message, "expected a positive integer, got '0' (a dimension may be 0 only when");
  auto above =
      load_failure(mutate(conv, "min: 0, description: zero", "min: 2, description: zero"), "conv2d.yaml");
  EXPECT_CONTAINS(above.message, "configs.C1.PAD: 1 is below the minimum of 2 (line");
  auto negative =
      load_failure(mutate(conv, "min: 0, description: zero", "min: -1, description: zero"), "conv2d.yaml");
  EXPECT_EQ(negative.field, "dims[7].min");
  EXPECT_CONTAINS(negative.message, "expected a non-negative integer, got '-1'");
}

TEST(Loader, RopeTablesNeedABaseAndAnEvenTwoDimensionalShape) {
  const std::string rope = shipped("rope");
  auto no_base = load_failure(mutate(rope, "{dist: rope_cos, base: 10000}", "{dist: rope_cos}"), "rope.yaml");
  EXPECT_EQ(no_base.field, "inputs[1].init.base");
  EXPECT_CONTAINS(no_base.message, "missing required field");
  auto extra = load_failure(
      mutate(rope, "{dist: rope_sin, base: 10000}", "{dist: rope_sin, base: 10000, std: 1}"), "rope.yaml");
  EXPECT_CONTAINS(extra.message, "inputs[2].init.std: unknown key");
  auto zero_base =
      load_failure(mutate(rope, "{dist: rope_sin, base: 10000}", "{dist: rope_sin, base: 0}"), "rope.yaml");
  EXPECT_EQ(zero_base.field, "inputs[2].init.base");
  EXPECT_CONTAINS(zero_base.message, "base must be positive, got 0");
  auto flat = load_failure(mutate(rope, "  - name: cos\n    shape: [S, D]", "  - name: cos\n    shape: [S]"),
                           "rope.yaml");
  EXPECT_EQ(flat.field, "inputs[1].shape");
  EXPECT_CONTAINS(flat.message, "rope_cos needs a 2-D [S, D] shape with D even, got [16]");
  auto odd = load_failure(
      mutate(rope, "  - name: cos\n    shape: [S, D]", "  - name: cos\n    shape: [S, D - 1]"), "rope.yaml");
  EXPECT_CONTAINS(odd.message, "with D even, got [16, 63]");
  auto typo = load_failure(mutate(rope, "{dist: rope_sin, base: 10000}", "{dist: rope_tan, base: 10000}"),
                           "rope.yaml");
  EXPECT_CONTAINS(
      typo.message,
      "unknown distribution 'rope_tan' (expected normal, uniform, constant, rope_cos or rope_sin)");
}

TEST(Loader, DimsAReferenceReadsMustBeDeclared) {
  std::string text = shipped("attention");
  for (auto at = text.find("CAUSAL"); at != std::string::npos; at = text.find("CAUSAL", at))
    text.replace(at, 6, "MASKED");
  auto failure = load_failure(text, "attention.yaml");
  EXPECT_EQ(failure.field, "golden");
  EXPECT_CONTAINS(failure.message,
                  "reference 'attention' reads dimension CAUSAL, which the spec does not declare");
}

TEST(Loader, UnknownKeysAreRejectedWithAHint) {
  auto top = load_failure(mutate(shipped("gemm"), "golden: gemm", "golden: gemm\ntolerence: {}"));
  EXPECT_EQ(top.field, "tolerence");
  EXPECT_CONTAINS(top.message, "unknown key (did you mean 'tolerance'?)");
  auto nested = load_failure(mutate(shipped("gemm"), "    role: weight", "    rol: weight"));
  EXPECT_EQ(nested.field, "inputs[1].rol");
  auto in_init = load_failure(mutate(shipped("gemm"), "std: 1/sqrt(K)}", "std: 1/sqrt(K), lo: 3}"));
  EXPECT_EQ(in_init.field, "inputs[1].init.lo");
  auto in_config =
      load_failure(mutate(shipped("gemm"), "C1: {M: 16, K: 16, N: 16}", "C1: {M: 16, K: 16, N: 16, P: 16}"));
  EXPECT_EQ(in_config.field, "configs.C1.P");
  auto extra_config = load_failure(mutate(shipped("gemm"), "  C5:", "  C6: {M: 16, K: 16, N: 16}\n  C5:"));
  EXPECT_EQ(extra_config.field, "configs.C6");
}

TEST(Loader, MissingFieldsAreNamed) {
  auto flops = load_failure(mutate(shipped("gemm"), "flops: 2*M*N*K\n", ""));
  EXPECT_EQ(flops.field, "flops");
  EXPECT_CONTAINS(flops.message, "flops: missing required field");
  auto config = load_failure(mutate(shipped("gemm"), "  C4: {M: 128, K: 256, N: 128}\n", ""));
  EXPECT_EQ(config.field, "configs.C4");
  auto dim = load_failure(mutate(shipped("gemm"), "C4: {M: 128, K: 256, N: 128}", "C4: {M: 128, K: 256}"));
  EXPECT_EQ(dim.field, "configs.C4.N");
  auto init = load_failure(
      mutate(shipped("gemm"), "init: {dist: normal, mean: 0, std: 1}", "init: {dist: normal, mean: 0}"));
  EXPECT_EQ(init.field, "inputs[0].init.std");
  auto empty = load_failure("");
  EXPECT_CONTAINS(empty.message, "expected a mapping");
}

TEST(Loader, ShapeNamesMustBeDims) {
  auto failure = load_failure(mutate(shipped("gemm"), "    shape: [K, N]", "    shape: [Q, N]"));
  EXPECT_EQ(failure.field, "inputs[1].shape[0]");
  EXPECT_CONTAINS(failure.message, "'Q' is not a dimension");
  EXPECT_CONTAINS(failure.message, "known: M, K, N");
  EXPECT_EQ(failure.message.find("did you mean"), std::string::npos);  // no hint for a one-letter name
  // Also inside expressions.
  auto expr = load_failure(mutate(shipped("gemm"), "    shape: [K, N]", "    shape: [K, 2*Z]"));
  EXPECT_EQ(expr.field, "inputs[1].shape[1]");
  // And too many dimensions.
  auto rank = load_failure(mutate(shipped("gemm"), "    shape: [K, N]", "    shape: [K, N, 16, 16, 16]"));
  EXPECT_CONTAINS(rank.message, "rank 5 is above the maximum of 4");
}

TEST(Loader, ExpressionsAreCheckedAtLoad) {
  auto syntax = load_failure(mutate(shipped("gemm"), "flops: 2*M*N*K", "flops: 2*M*N*"));
  EXPECT_EQ(syntax.field, "flops");
  EXPECT_CONTAINS(syntax.message, "expression ends early");
  auto unknown = load_failure(mutate(shipped("gemm"), "flops: 2*M*N*K", "flops: 2*M*N*L"));
  EXPECT_CONTAINS(unknown.message, "flops: 'L' is not a dimension or parameter");
  auto function = load_failure(mutate(shipped("gemm"), "std: 1/sqrt(K)", "std: 1/sqr(K)"));
  EXPECT_EQ(function.field, "inputs[1].init.std");
  EXPECT_CONTAINS(function.message, "unknown function 'sqr'");
  // Non-integer shape in some config: found when every config is resolved at load.
  auto fraction = load_failure(mutate(shipped("gemm"), "    shape: [M, N]", "    shape: [M, N/3]"));
  EXPECT_EQ(fraction.field, "outputs[0].shape[1]");
  EXPECT_CONTAINS(fraction.message, "in config C1: 'N/3' evaluates to 5.333");
  EXPECT_EQ(fraction.line, 25);  // the line of the shape, not of the config
  auto zero_flops = load_failure(mutate(shipped("gemm"), "flops: 2*M*N*K", "flops: M - M"));
  EXPECT_CONTAINS(zero_flops.message, "expected at least 1");
  auto negative_std = load_failure(mutate(shipped("gemm"), "std: 1/sqrt(K)", "std: -1/sqrt(K)"));
  EXPECT_CONTAINS(negative_std.message, "std must not be negative");
  auto bad_uniform = load_failure(mutate(shipped("linear"), "lo: -1/sqrt(K), hi: 1/sqrt(K)", "lo: 1, hi: -1"),
                                  "linear.yaml");
  EXPECT_EQ(bad_uniform.field, "inputs[2].init");
  auto bad_scratch =
      load_failure(mutate(shipped("gemm"), "golden: gemm", "golden: gemm\nscratch_bytes: M*ELEM_BYTES/3"));
  EXPECT_EQ(bad_scratch.field, "scratch_bytes");
}

TEST(Loader, UnknownGoldenAndSignatureMismatch) {
  auto unknown = load_failure(mutate(shipped("gemm"), "golden: gemm", "golden: gemmm"));
  EXPECT_EQ(unknown.field, "golden");
  EXPECT_CONTAINS(unknown.message, "unknown golden reference 'gemmm' (did you mean 'gemm'?)");
  auto renamed = load_failure(mutate(shipped("gemm"), "  - name: B\n", "  - name: W\n"));
  EXPECT_EQ(renamed.field, "golden");
  EXPECT_CONTAINS(renamed.message, "reference 'gemm' expects inputs (A, B) but the spec declares (A, W)");
  auto missing_param =
      load_failure(mutate(shipped("rms_norm"), "  - name: eps\n", "  - name: epsilon\n"), "rms_norm.yaml");
  EXPECT_CONTAINS(missing_param.message, "expects params (eps)");
}

TEST(Loader, DuplicatesAreRejected) {
  auto tensor = load_failure(mutate(shipped("gemm"), "  - name: C\n", "  - name: A\n"));
  EXPECT_EQ(tensor.field, "outputs[0].name");
  EXPECT_CONTAINS(tensor.message, "duplicate tensor name 'A'");
  auto key = load_failure(mutate(shipped("gemm"), "level: 1\n", "level: 1\nlevel: 2\n"));
  EXPECT_EQ(key.field, "level");
  EXPECT_CONTAINS(key.message, "duplicate key");
  auto dim = load_failure(mutate(shipped("gemm"), "dims: [M, K, N]", "dims: [M, K, N, K]"));
  EXPECT_EQ(dim.field, "dims[3]");
}

TEST(Loader, WrongTypesAndValues) {
  auto dims = load_failure(mutate(shipped("gemm"), "dims: [M, K, N]", "dims: M"));
  EXPECT_EQ(dims.field, "dims");
  EXPECT_CONTAINS(dims.message, "expected a list");
  auto level = load_failure(mutate(shipped("gemm"), "level: 1", "level: 4"));
  EXPECT_CONTAINS(level.message, "level: expected 1, 2 or 3, got 4");
  auto role = load_failure(mutate(shipped("gemm"), "role: weight", "role: bias"));
  EXPECT_EQ(role.field, "inputs[1].role");
  auto dist = load_failure(
      mutate(shipped("gemm"), "dist: normal, mean: 0, std: 1}", "dist: gauss, mean: 0, std: 1}"));
  EXPECT_EQ(dist.field, "inputs[0].init.dist");
  EXPECT_CONTAINS(dist.message, "unknown distribution 'gauss'");
  auto tolerance =
      load_failure(mutate(shipped("gemm"), "golden: gemm", "golden: gemm\ntolerance: {bf16: {atol: -1}}"));
  EXPECT_EQ(tolerance.field, "tolerance.bf16.atol");
  auto tolerance_text =
      load_failure(mutate(shipped("gemm"), "golden: gemm", "golden: gemm\ntolerance: {fp32: {rtol: big}}"));
  EXPECT_CONTAINS(tolerance_text.message, "tolerance.fp32.rtol: expected a finite number, got 'big'");
  auto name = load_failure(shipped("gemm"), "matmul.yaml");
  EXPECT_CONTAINS(name.message, "name: 'gemm' must match the file name 'matmul'");
  auto bad_name = load_failure(mutate(shipped("gemm"), "  - name: C\n", "  - name: 2C\n"));
  EXPECT_CONTAINS(bad_name.message, "'2C' is not a valid name");
}

// The work a kernel cannot skip (what the platforms' bounds count): the causal mask's masked half is left
// out; without a mask, and in tasks that do not say, it is all the work.
TEST(Loader, EssentialWorkLeavesOutTheCausalMasksHalfAndIsCheckedAgainstTheWork) {
  const TaskRegistry registry = TaskRegistry::load_directory(KCRAFT_TASK_SPEC_DIR);
  const ResolvedConfig causal = registry.get("attention").resolve("C2", DType::bf16);  // S 64, D 64, CAUSAL 1
  ASSERT_EQ(causal.dim("CAUSAL"), 1);
  EXPECT_DOUBLE_EQ(causal.macs, 2.0 * 64 * 64 * 64);
  EXPECT_DOUBLE_EQ(causal.essential_macs, 64.0 * 65 * 64);  // S(S+1)/2 pairs, D MACs each, twice
  EXPECT_DOUBLE_EQ(causal.essential_flops, (4.0 * 64 + 5) * 64 * 65 / 2);
  const ResolvedConfig open = registry.get("attention").resolve("C1", DType::bf16);
  ASSERT_EQ(open.dim("CAUSAL"), 0);
  EXPECT_DOUBLE_EQ(open.essential_macs, open.macs);
  EXPECT_DOUBLE_EQ(open.essential_flops, open.flops);
  const ResolvedConfig gemm = registry.get("gemm").resolve("C2", DType::bf16);
  EXPECT_DOUBLE_EQ(gemm.essential_macs, gemm.macs);
  EXPECT_DOUBLE_EQ(gemm.essential_flops, gemm.flops);

  const std::string gemm_text = shipped("gemm");
  const auto too_many =
      load_failure(mutate(gemm_text, "golden: gemm", "golden: gemm\nessential_macs: 2*M*N*K"));
  EXPECT_CONTAINS(too_many.message, "expected 0 <= essential_macs <= macs");
  const auto above_flops =
      load_failure(mutate(gemm_text, "golden: gemm", "golden: gemm\nessential_flops: 4*M*N*K"));
  EXPECT_CONTAINS(above_flops.message, "expected 1 <= essential_flops <= flops");
  const auto unknown = load_failure(mutate(gemm_text, "golden: gemm", "golden: gemm\nessential_macs: M*Q"));
  EXPECT_EQ(unknown.field, "essential_macs");
}

TEST(Loader, YamlSyntaxErrorsGiveTheLine) {
  auto failure = load_failure(mutate(shipped("gemm"), "dims: [M, K, N]", "dims: [M, K, N"));
  EXPECT_CONTAINS(failure.message, "YAML syntax error");
  EXPECT_GT(failure.line, 0);
}

TEST(Loader, RegistryNamesEveryBrokenFile) {
  TempDir dir;
  testing::write_file(dir.path() / "gemm.yaml", mutate(shipped("gemm"), "golden: gemm", "golden: nope"));
  testing::write_file(dir.path() / "relu.yaml", mutate(shipped("relu"), "flops: M*N", "flops: M*"));
  testing::write_file(dir.path() / "silu.yaml", shipped("silu"));
  try {
    TaskRegistry::load_directory(dir.path());
    ADD_FAILURE() << "expected an error";
  } catch (const TaskSpecError& error) {
    EXPECT_CONTAINS(error.what(), "2 broken task specs");
    EXPECT_CONTAINS(error.what(), "gemm.yaml: golden:");
    EXPECT_CONTAINS(error.what(), "relu.yaml: flops:");
  }
  // With one broken file left, its own error comes through unchanged.
  testing::write_file(dir.path() / "relu.yaml", shipped("relu"));
  try {
    TaskRegistry::load_directory(dir.path());
    ADD_FAILURE() << "expected an error";
  } catch (const TaskSpecError& error) {
    EXPECT_EQ(error.file(), (dir.path() / "gemm.yaml").string());
    EXPECT_EQ(error.field(), "golden");
  }
  std::filesystem::remove(dir.path() / "gemm.yaml");
  EXPECT_EQ(TaskRegistry::load_directory(dir.path()).names(), (std::vector<std::string>{"relu", "silu"}));
  EXPECT_THROW(TaskRegistry::load_directory(dir.path() / "missing"), TaskSpecError);
  EXPECT_THROW(load_task(dir.path() / "missing.yaml"), TaskSpecError);
}

// The schema carries what the remaining tasks need: several outputs, 1-4-D shapes given by expressions,
// dims that are not multiples of 16, params computed from dims, constant inputs, scratch in ELEM_BYTES.
void row_stats(GoldenContext& context) {
  const Tensor& x = context.input("x");
  Tensor& row_max = context.output("row_max");
  Tensor& scaled_sum = context.output("scaled_sum");
  const int64_t n = x.shape.back();
  for (std::size_t r = 0; r < row_max.data.size(); ++r) {
    double best = x.data[r * static_cast<std::size_t>(n)];
    double sum = 0.0;
    for (int64_t j = 0; j < n; ++j) {
      best = std::max(best, x.data[r * static_cast<std::size_t>(n) + static_cast<std::size_t>(j)]);
      sum += x.data[r * static_cast<std::size_t>(n) + static_cast<std::size_t>(j)];
    }
    row_max.data[r] = best;
    scaled_sum.data[r] = sum * context.param("scale") + context.input("offset").data[0];
  }
}

// The range_stress block: malformed ones name the field and say what is expected.
TEST(Loader, RangeStressBlocksAreCheckedWithClearMessages) {
  const std::string softmax = shipped("softmax");
  const std::string block = "  inputs:\n    x: {dist: normal, mean: 50, std: 50}\n";
  auto broken = [&](const std::string& to) {
    return load_failure(mutate(softmax, block, to), "softmax.yaml");
  };

  auto f = broken("  inputs:\n    y: {dist: normal, mean: 50, std: 50}\n");
  EXPECT_EQ(f.field, "range_stress.inputs.y");
  EXPECT_CONTAINS(f.message, "'y' is not an input of the task");
  EXPECT_CONTAINS(f.message, "inputs: x");
  EXPECT_GT(f.line, 0);
  f = broken("  inputs:\n    x: {dist: normal, mean: 50}\n");
  EXPECT_EQ(f.field, "range_stress.inputs.x.std");
  EXPECT_CONTAINS(f.message, "missing required field");
  f = broken("  inputs:\n    x: {dist: rope_cos, base: 10000}\n");
  EXPECT_EQ(f.field, "range_stress.inputs.x.dist");
  EXPECT_CONTAINS(f.message, "range stress uses normal, uniform or constant");
  f = broken("  inputs: {}\n");
  EXPECT_EQ(f.field, "range_stress.inputs");
  EXPECT_CONTAINS(f.message, "must name at least one input");
  f = broken("  inputs: [x]\n");
  EXPECT_EQ(f.field, "range_stress.inputs");
  EXPECT_CONTAINS(f.message, "expected a mapping of input name to init");
  f = broken(
      "  inputs:\n    x: {dist: normal, mean: 50, std: 50}\n  fp16:\n    x: {dist: normal, mean: 0, std: "
      "1}\n");
  EXPECT_EQ(f.field, "range_stress.fp16");
  EXPECT_CONTAINS(f.message, "unknown key");
  f = broken("  inputs:\n    x: {dist: normal, mean: 50, std: -1}\n");
  EXPECT_EQ(f.field, "range_stress.inputs.x.std");
  EXPECT_CONTAINS(f.message, "std must not be negative");
  f = broken("  inputs:\n    x: {dist: uniform, lo: 5, hi: M - 100}\n");
  EXPECT_EQ(f.field, "range_stress.inputs.x");
  EXPECT_CONTAINS(f.message, "must be below hi");
  f = broken(
      "  inputs:\n    x: {dist: normal, mean: 50, std: 50}\n  bf16:\n    x: {dist: normal, mean: Q, std: "
      "1}\n");
  EXPECT_EQ(f.field, "range_stress.bf16.x.mean");
  EXPECT_CONTAINS(f.message, "'Q' is not a dimension or parameter");
  f = load_failure(mutate(softmax, "  description: |\n    Large logits", "  descripton: |\n    Large logits"),
                   "softmax.yaml");
  EXPECT_EQ(f.field, "range_stress.descripton");
  EXPECT_CONTAINS(f.message, "did you mean 'description'?");

  // A per-dtype entry overrides the common one for that dtype only.
  const TaskSpec spec = parse_task(
      mutate(softmax, block, block + "  fp32:\n    x: {dist: uniform, lo: -100, hi: 100}\n"), "softmax.yaml");
  const ResolvedConfig bf16 = spec.resolve("C1", DType::bf16);
  const ResolvedConfig fp32 = spec.resolve("C1", DType::fp32);
  EXPECT_EQ(bf16.inputs[0].stress_dist, InitDist::normal);
  EXPECT_EQ(bf16.inputs[0].stress_b, 50.0);
  EXPECT_EQ(fp32.inputs[0].stress_dist, InitDist::uniform);
  EXPECT_EQ(fp32.inputs[0].stress_a, -100.0);
  EXPECT_EQ(fp32.inputs[0].dist, InitDist::normal);  // the ordinary init is untouched
  EXPECT_EQ(fp32.inputs[0].init_b, 2.0);
}

TEST(Loader, SchemaFitsMultiOutputTasks) {
  register_golden({"test_row_stats", {"x", "offset"}, {"row_max", "scaled_sum"}, {"scale"}, row_stats});
  const std::string text = R"(name: row_stats
level: 2
title: Row statistics
description: Per row of x, the maximum and a scaled sum.
dims:
  - {name: B, multiple_of: 1, description: batch}
  - H
  - S
  - D
configs:
  C1: {B: 1, H: 16, S: 16, D: 16}
  C2: {B: 2, H: 16, S: 32, D: 16}
  C3: {B: 3, H: 16, S: 32, D: 32}
  C4: {B: 4, H: 32, S: 32, D: 32}
  C5: {B: 5, H: 32, S: 64, D: 32}
params:
  - {name: scale, value: 1/sqrt(D), description: applied to the sum}
inputs:
  - {name: x, shape: [B, H, S, D], role: activation, init: {dist: normal, mean: 0, std: scale}}
  - {name: offset, shape: [1], role: weight, init: {dist: constant, value: 0.5}}
outputs:
  - {name: row_max, shape: [B, H, S]}
  - {name: scaled_sum, shape: [B*H*S]}
flops: 2*B*H*S*D
scratch_bytes: 2*S*D*ELEM_BYTES
tolerance: {fp32: {rtol: 1e-3}}
golden: test_row_stats
)";
  const TaskSpec spec = parse_task(text, "row_stats.yaml");
  const ResolvedConfig c2 = spec.resolve("C2", DType::fp32);
  EXPECT_EQ(c2.inputs[0].shape, (Shape{2, 16, 32, 16}));
  EXPECT_EQ(c2.outputs[1].shape, (Shape{2 * 16 * 32}));
  EXPECT_DOUBLE_EQ(c2.param("scale"), 0.25);
  EXPECT_DOUBLE_EQ(c2.inputs[0].init_b, 0.25);
  EXPECT_EQ(c2.scratch_bytes, 2u * 32 * 16 * 4);
  EXPECT_EQ(spec.resolve("C2", DType::bf16).scratch_bytes, 2u * 32 * 16 * 2);
  EXPECT_DOUBLE_EQ(c2.tolerance.rtol, 1e-3);
  EXPECT_DOUBLE_EQ(c2.tolerance.atol, 1e-5);  // not overridden
  EXPECT_DOUBLE_EQ(c2.complexity, complexity_score(2.0 * 2 * 16 * 32 * 16, 2));
  const auto inputs = make_inputs(c2, 3);
  for (double v : inputs[1].data) EXPECT_EQ(v, 0.5);
  const auto refs = compute_reference(c2, spec.golden, inputs);
  ASSERT_EQ(refs.size(), 2u);
  EXPECT_EQ(refs[0].shape, (Shape{2, 16, 32}));
  double sum = 0.0;
  for (int j = 0; j < 16; ++j) sum += inputs[0].data[static_cast<std::size_t>(j)];
  EXPECT_DOUBLE_EQ(refs[1].data[0], sum * 0.25 + 0.5);
  // multiple_of defaults to 16 for H.
  EXPECT_THROW(parse_task(mutate(text, "C1: {B: 1, H: 16,", "C1: {B: 1, H: 8,"), "row_stats.yaml"),
               TaskSpecError);
}

}  // namespace
}  // namespace kcraft::tasks
