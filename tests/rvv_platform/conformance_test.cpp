// kcraft conformance rvv: riscv-tests' layout read from its Makefrags, tests built with kcraft's target
// environment and GNU as, run on the RTL and under QEMU, every verdict. The sample suite beside this file
// (conformance_sample/) is kcraft's own, in the suite's shape: the real suite is not in Debian, so a user
// points at a checkout (docs/rvv.md has the results of one).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <map>
#include <string>

#include "tb/rvv/rvv_conformance.h"
#include "tb/rvv/rvv_platform.h"
#include "tests/rvv_platform/rvv_test_support.h"

namespace kcraft::rvv::test {
namespace {

const std::string kSample = KCRAFT_CONFORMANCE_SAMPLE;

std::map<std::string, nlohmann::json> by_test(const nlohmann::json& report) {
  std::map<std::string, nlohmann::json> out;
  for (const auto& t : report["tests"])
    out[t["group"].get<std::string>() + "-" + t["test"].get<std::string>()] = t;
  return out;
}

TEST(RvvConformance, MakefragListsFollowMakesContinuationsAndComments) {
  const std::string text =
      "rv32ui_p_tests = $(addprefix rv32ui-p-, $(rv32ui_sc_tests))\n"
      "rv32ui_sc_tests = \\\n"
      "\tadd addi \\\n"
      "\tlw # lb lh \\\n"  // a comment runs to the end of the logical line, continuations included
      "\tsw\n"
      "rv32um_sc_tests = mul\n";
  EXPECT_EQ(makefrag_tests(text, "rv32ui"), (std::vector<std::string>{"add", "addi", "lw"}));
  EXPECT_EQ(makefrag_tests(text, "rv32um"), (std::vector<std::string>{"mul"}));
  EXPECT_TRUE(makefrag_tests(text, "rv32uf").empty());
  EXPECT_TRUE(makefrag_tests("rv32ui_sc_tests_more = add\n", "rv32ui").empty());

  const auto tests = riscv_tests_list(kSample);
  std::vector<std::string> ids;
  for (const auto& t : tests) ids.push_back(t.id());
  EXPECT_EQ(ids, (std::vector<std::string>{"rv32ui-add", "rv32ui-wrong", "rv32ui-illegal", "rv32ui-ma_data",
                                           "rv32um-mul", "rv32uf-fadd"}));
  // The repository's folder or its isa/ folder.
  EXPECT_EQ(riscv_tests_list(kSample + "/isa").size(), tests.size());
}

TEST(RvvConformance, EveryVerdictOfTheSampleSuite) {
  const CommandReport report = rvv().conformance(ConformanceOptions{"default", kSample, {}});
  EXPECT_FALSE(report.ok) << report.text;
  const auto t = by_test(report.json);
  ASSERT_EQ(t.size(), 6u) << report.json.dump(2);

  // A wrapper around ../rv64ui/add.S, ra and sp used as scratch: passes, QEMU's end state equal.
  EXPECT_EQ(t.at("rv32ui-add")["verdict"], "pass") << report.text;
  EXPECT_GT(t.at("rv32ui-add")["cycles"].get<uint64_t>(), 0u);
  EXPECT_GT(t.at("rv32ui-add")["instructions"].get<uint64_t>(), 20u);
  EXPECT_EQ(t.at("rv32um-mul")["verdict"], "pass") << report.text;
  // GNU as's hex floats and the flags of fadd.s/fmul.s.
  EXPECT_EQ(t.at("rv32uf-fadd")["verdict"], "pass") << report.text;

  EXPECT_EQ(t.at("rv32ui-wrong")["verdict"], "fail");
  EXPECT_EQ(t.at("rv32ui-wrong")["detail"], "the RTL fails test case 3");
  EXPECT_EQ(t.at("rv32ui-wrong")["qemu"], "QEMU fails test case 3");

  EXPECT_EQ(t.at("rv32ui-illegal")["verdict"], "error");
  const std::string illegal = t.at("rv32ui-illegal")["detail"];
  EXPECT_NE(illegal.find("illegal instruction at pc 0x"), std::string::npos) << illegal;
  // Outside the ISA the program is built for, so objdump shows the word.
  EXPECT_NE(illegal.find(".word 0x00b5202f"), std::string::npos) << illegal;
  EXPECT_NE(t.at("rv32ui-illegal")["qemu"].get<std::string>().find("SIGILL"), std::string::npos);

  // Misaligned accesses stop this core by design: not applicable, with what happened.
  EXPECT_EQ(t.at("rv32ui-ma_data")["verdict"], "not_applicable");
  const std::string ma = t.at("rv32ui-ma_data")["detail"];
  EXPECT_NE(ma.find("misaligned loads and stores stop the run"), std::string::npos) << ma;
  EXPECT_NE(ma.find("misaligned access at pc 0x"), std::string::npos) << ma;
  EXPECT_NE(ma.find("lw a1,3(a0)"), std::string::npos) << ma;
  EXPECT_EQ(t.at("rv32ui-ma_data")["qemu"], "QEMU passes");  // QEMU performs misaligned loads

  EXPECT_EQ(report.json["groups"]["rv32ui"]["tests"], 4);
  EXPECT_EQ(report.json["groups"]["rv32ui"]["pass"], 1);
  EXPECT_EQ(report.json["groups"]["rv32ui"]["not_applicable"], 1);
  EXPECT_EQ(report.json["groups"]["rv32ui"]["failed"], 2);
  EXPECT_NE(report.text.find("rv32ui: 1 of 4 pass, 1 not applicable, 2 FAIL"), std::string::npos)
      << report.text;
  EXPECT_NE(report.text.find("rv32uf: 1 of 1 pass"), std::string::npos) << report.text;
}

TEST(RvvConformance, OnlyRunsTheNamedTestsOnEitherConfiguration) {
  for (const char* hw : {"default", "wide"}) {
    const CommandReport report = rvv().conformance(ConformanceOptions{hw, kSample, {"add", "rv32uf-fadd"}});
    EXPECT_TRUE(report.ok) << report.text;
    const auto t = by_test(report.json);
    EXPECT_EQ(t.size(), 2u);
    EXPECT_EQ(t.at("rv32ui-add")["verdict"], "pass");
    EXPECT_EQ(t.at("rv32uf-fadd")["verdict"], "pass");
  }
  EXPECT_THROW(rvv().conformance(ConformanceOptions{"default", kSample, {"no_such_test"}}),
               std::invalid_argument);
}

TEST(RvvConformance, AnEndStateQemuDisagreesWithIsReported) {
  set_qemu_result_hook([](RunResult& q) { q.signature.f[5] ^= 1; });
  const CommandReport report = rvv().conformance(ConformanceOptions{"default", kSample, {"add"}});
  set_qemu_result_hook(nullptr);
  EXPECT_FALSE(report.ok);
  const auto t = by_test(report.json);
  EXPECT_EQ(t.at("rv32ui-add")["verdict"], "disagree");
  const std::string detail = t.at("rv32ui-add")["detail"];
  EXPECT_NE(detail.find("end states differ: f5"), std::string::npos) << detail;
}

TEST(RvvConformance, ATestQemuFailsAndTheRtlPassesIsADisagreement) {
  set_qemu_result_hook([](RunResult& q) { q.signature.x[10] = 5 << 1 | 1; });
  const CommandReport report = rvv().conformance(ConformanceOptions{"default", kSample, {"rv32um-mul"}});
  set_qemu_result_hook(nullptr);
  EXPECT_FALSE(report.ok);
  const auto t = by_test(report.json);
  EXPECT_EQ(t.at("rv32um-mul")["verdict"], "disagree");
  EXPECT_EQ(t.at("rv32um-mul")["detail"], "the RTL passes, QEMU fails test case 5");
}

TEST(RvvConformance, WhatIsNotASuiteIsAnErrorNamingTheMakefrag) {
  try {
    rvv().conformance(ConformanceOptions{"default", kSample + "/isa/rv32ui", {}});
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("rv32ui/Makefrag does not exist"), std::string::npos) << e.what();
  }
  EXPECT_THROW(rvv().conformance(ConformanceOptions{"default", "/no/such/folder", {}}),
               std::invalid_argument);
}

int kcraft_exit(const std::string& args, std::string* out) {
  const std::string cmd = std::string(KCRAFT_BIN) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return -1;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out->append(buf.data(), n);
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(RvvConformance, CliExitCodes) {
  std::string out;
  EXPECT_EQ(kcraft_exit("conformance rvv --suite " + kSample + " --only add,mul", &out), 0) << out;
  EXPECT_NE(out.find("every test that applies passes"), std::string::npos) << out;
  out.clear();
  EXPECT_EQ(kcraft_exit("conformance rvv --suite " + kSample, &out), 3) << out;  // the RTL fails tests
  EXPECT_NE(out.find("rv32ui-wrong"), std::string::npos) << out;
  out.clear();
  EXPECT_EQ(kcraft_exit("conformance systolic --suite " + kSample, &out), 2) << out;
  EXPECT_NE(out.find("no external conformance suite"), std::string::npos) << out;
  out.clear();
  EXPECT_EQ(kcraft_exit("conformance rvv --suite /no/such/folder", &out), 2) << out;
}

}  // namespace
}  // namespace kcraft::rvv::test
