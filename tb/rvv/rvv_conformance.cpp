// `kcraft conformance rvv`: riscv-tests on the RTL, with QEMU beside it (rvv_conformance.h).
#include "tb/rvv/rvv_conformance.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>

#include <stdlib.h>

#include "isa/rvv/qemu_runner.h"
#include "isa/rvv/toolchain.h"
#include "tb/common/dram_model.h"
#include "tb/rvv/rvv_diff.h"
#include "tb/rvv/rvv_disasm.h"
#include "tb/rvv/rvv_platform.h"

namespace kcraft::rvv {

// The target environment, embedded at build time (isa/rvv/runtime_files.cpp.in).
extern const char* const kRiscvTestEnvSource;

namespace fs = std::filesystem;

namespace {

// riscv-tests' tests are a few thousand instructions; a run this long is stuck.
constexpr uint64_t kTestCycleCap = 5'000'000;
// The tests touch no DRAM; QEMU's runner wants an image all the same.
constexpr size_t kDramBytes = 4096;

std::string read_text(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// A fresh directory for the environment header, removed with it.
class EnvDir {
 public:
  EnvDir() {
    std::string pattern = (fs::temp_directory_path() / "kcraft-rvtest-env-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temp directory");
    path_ = pattern;
    std::ofstream(path_ / "riscv_test.h", std::ios::binary) << kRiscvTestEnvSource;
  }
  ~EnvDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  EnvDir(const EnvDir&) = delete;
  EnvDir& operator=(const EnvDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

enum class Verdict { kPass, kFail, kError, kTimeout, kBuildError, kDisagree, kNotApplicable };

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kFail:
      return "fail";
    case Verdict::kError:
      return "error";
    case Verdict::kTimeout:
      return "timeout";
    case Verdict::kBuildError:
      return "build_error";
    case Verdict::kDisagree:
      return "disagree";
    case Verdict::kNotApplicable:
      return "not_applicable";
  }
  return "?";
}

struct TestOutcome {
  Verdict verdict = Verdict::kError;
  std::string detail;
  std::string qemu;  // QEMU's verdict on the same ELF, in words
  uint64_t cycles = 0;
  uint64_t instructions = 0;
};

// What a finished run's a0 says under kcraft's riscv_test.h: 0 passed, (n << 1) | 1 failed test case n.
std::string a0_meaning(uint32_t a0) {
  if (a0 == 0) return "passes";
  if (a0 & 1) return fmt::format("fails test case {}", a0 >> 1);
  return fmt::format("ends with a0 = 0x{:x}, which is not the environment's pass or fail", a0);
}

std::string qemu_words(const RunResult& q) {
  switch (q.end) {
    case RunEnd::kExited:
      return "QEMU " + a0_meaning(q.signature.x[10]);
    case RunEnd::kTrapped:
      return fmt::format("QEMU stops with {}{}", q.signal_name,
                         q.pc ? fmt::format(" at pc 0x{:x}", *q.pc) : std::string());
    case RunEnd::kTimedOut:
      return "QEMU times out";
    case RunEnd::kFailed:
      return "QEMU fails: " + q.message;
  }
  return "";
}

TestOutcome build_and_run(const SuiteTest& test, const fs::path& suite_isa, const EnvDir& env, RvvHw& hw,
                          const Params& p) {
  TestOutcome out;
  if (!fs::is_regular_file(test.source)) {
    out.verdict = Verdict::kBuildError;
    out.detail = "the Makefrag lists it, but " + test.source.string() + " does not exist";
    return out;
  }
  BuildOptions o;
  o.language = "asm";
  o.gnu_assembler = true;
  o.file_name = test.source.filename().string();
  o.vlen = static_cast<int>(p.vlen);
  // Ours first: the suite's env/ has its own riscv_test.h. The group's folder resolves the wrappers'
  // `#include "../rv64ui/add.S"`.
  o.extra_flags = {"-I" + env.path().string(), "-I" + test.source.parent_path().string(),
                   "-I" + (suite_isa / "macros" / "scalar").string()};
  const BuiltKernel k = build_kernel(read_text(test.source), o);
  if (!k.ok) {
    out.verdict = Verdict::kBuildError;
    out.detail = format_diagnostics(k.diagnostics);
    if (out.detail.empty()) out.detail = k.log;
    while (!out.detail.empty() && out.detail.back() == '\n') out.detail.pop_back();
    return out;
  }

  tb::DramModel dram;
  dram.configure(tb::DramTiming{p.dram_latency, p.dram_bytes_per_cycle});
  const std::vector<uint8_t> image(kDramBytes, 0);
  dram.load(image);
  const BareRun rtl = hw.run(k.elf, dram, kTestCycleCap);
  out.cycles = rtl.cycles;
  out.instructions = rtl.counters[kCntInstret];

  RunOptions qo;
  qo.vlen = static_cast<int>(p.vlen);
  qo.timeout = std::chrono::seconds(30);
  RunResult q = run_qemu(k, image, qo);
  apply_qemu_result_hook(q);
  out.qemu = qemu_words(q);

  const auto listing = parse_objdump(k.disassembly);
  auto text_at = [&](uint32_t pc) {
    return instruction_text(listing, pc, pc / 4 < k.itcm.size() ? k.itcm[pc / 4] : 0u);
  };
  if (!rtl.stopped) {
    out.verdict = Verdict::kTimeout;
    out.detail =
        fmt::format("still running after {} cycles, at pc 0x{:x}: {}", rtl.cycles, rtl.pc, text_at(rtl.pc));
  } else if (rtl.error.code != ErrorCode::kNone) {
    out.verdict = Verdict::kError;
    out.detail =
        fmt::format("{} at pc 0x{:x}: {}", error_name(rtl.error.code), rtl.error.pc, text_at(rtl.error.pc));
    if (rtl.error.code != ErrorCode::kIllegal)
      out.detail += fmt::format(" (address 0x{:08x})", rtl.error.addr);
  } else if (!rtl.signature_valid) {
    out.verdict = Verdict::kError;
    out.detail =
        fmt::format("the run ended at pc 0x{:x} ({}) without crt0's end state", rtl.pc, text_at(rtl.pc));
  } else if (rtl.signature.x[10] != 0) {
    out.verdict = Verdict::kFail;
    out.detail = "the RTL " + a0_meaning(rtl.signature.x[10]);
  } else if (q.end != RunEnd::kExited || q.signature.x[10] != 0) {
    out.verdict = Verdict::kDisagree;
    out.detail = "the RTL passes, " + out.qemu;
  } else if (auto d = first_difference(rtl.signature, q.signature, dram.bytes(), q.dram)) {
    out.verdict = Verdict::kDisagree;
    out.detail = "both pass, but their end states differ: " + *d;
  } else {
    out.verdict = Verdict::kPass;
  }
  return out;
}

// A test that cannot pass by design is not applicable however it ends (a build error included), with what
// happened; one that passes anyway is a pass.
TestOutcome run_test(const SuiteTest& test, const fs::path& suite_isa, const EnvDir& env, RvvHw& hw,
                     const Params& p) {
  TestOutcome out = build_and_run(test, suite_isa, env, hw, p);
  const std::string why = conformance_not_applicable(test);
  if (out.verdict != Verdict::kPass && !why.empty()) {
    out.detail = why + " (" + out.detail + ")";
    out.verdict = Verdict::kNotApplicable;
  }
  return out;
}

bool selected(const SuiteTest& t, const std::vector<std::string>& only) {
  return only.empty() || std::find(only.begin(), only.end(), t.name) != only.end() ||
         std::find(only.begin(), only.end(), t.id()) != only.end();
}

fs::path isa_folder(const fs::path& suite) {
  return fs::is_directory(suite / "isa") ? suite / "isa" : suite;
}

}  // namespace

const std::vector<std::string>& conformance_groups() {
  static const std::vector<std::string> groups = {"rv32ui", "rv32um", "rv32uf"};
  return groups;
}

std::vector<std::string> makefrag_tests(const std::string& text, const std::string& group) {
  // Logical lines: a backslash before the newline continues the line.
  std::vector<std::string> lines(1);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      lines.back() += ' ';
      ++i;
    } else if (text[i] == '\n') {
      lines.emplace_back();
    } else {
      lines.back() += text[i];
    }
  }
  const std::string variable = group + "_sc_tests";
  for (std::string line : lines) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string name, op;
    if (!(words >> name) || name != variable) continue;
    if (!(words >> op) || (op != "=" && op != ":=" && op != "+=")) continue;
    std::vector<std::string> tests;
    for (std::string t; words >> t;) tests.push_back(t);
    return tests;
  }
  return {};
}

std::vector<SuiteTest> riscv_tests_list(const fs::path& suite) {
  if (!fs::is_directory(suite)) {
    throw std::invalid_argument("no riscv-tests checkout at " + suite.string() + ": it is not a folder");
  }
  const fs::path isa = isa_folder(suite);
  std::vector<SuiteTest> tests;
  for (const std::string& group : conformance_groups()) {
    const fs::path makefrag = isa / group / "Makefrag";
    if (!fs::is_regular_file(makefrag)) {
      throw std::invalid_argument(fmt::format(
          "no riscv-tests checkout at {}: {} does not exist (give the repository's folder, or its isa/)",
          suite.string(), makefrag.string()));
    }
    for (const std::string& name : makefrag_tests(read_text(makefrag), group)) {
      tests.push_back({group, name, isa / group / (name + ".S")});
    }
  }
  return tests;
}

std::string conformance_not_applicable(const SuiteTest& test) {
  // The core's documented choices where the ISA leaves one open (docs/rvv.md); each test is still run,
  // and one that passes anyway is reported as a pass.
  static const std::map<std::string, std::string> reasons = {
      {"rv32ui-fence_i",
       "fence.i (Zifencei) is not in this core's ISA: code lives in the ITCM, which stores cannot write, so "
       "there is no self-modifying code to synchronise (QEMU's runner maps the ITCM read/execute too)"},
      {"rv32ui-ma_data",
       "misaligned loads and stores stop the run on this core (the privileged spec lets an implementation "
       "trap them; with no trap handler here that ends the run)"},
  };
  const auto it = reasons.find(test.id());
  return it == reasons.end() ? "" : it->second;
}

CommandReport RvvPlatform::conformance(const ConformanceOptions& a) const {
  const Params p = params(a.hw_config);
  // Absolute: the tests are built in a temporary folder.
  const fs::path suite = fs::absolute(a.suite_dir).lexically_normal();
  std::vector<SuiteTest> tests = riscv_tests_list(suite);
  for (const std::string& name : a.only) {
    if (std::none_of(tests.begin(), tests.end(),
                     [&](const SuiteTest& t) { return t.name == name || t.id() == name; })) {
      throw std::invalid_argument("--only: the suite has no test '" + name + "' in " +
                                  fmt::format("{}", fmt::join(conformance_groups(), ", ")));
    }
  }
  tests.erase(
      std::remove_if(tests.begin(), tests.end(), [&](const SuiteTest& t) { return !selected(t, a.only); }),
      tests.end());

  const fs::path isa = isa_folder(suite);
  EnvDir env;
  auto hw = make_rvv_hw(a.hw_config);
  CommandReport report;
  report.json = {{"platform", kName},
                 {"hw", a.hw_config},
                 {"suite", suite.string()},
                 {"environment", "isa/rvv/conformance/riscv_test.h"},
                 {"tests", nlohmann::json::array()}};
  std::map<std::string, std::map<Verdict, unsigned>> tally;
  unsigned not_built = 0, rtl_failed = 0;
  std::string table =
      fmt::format("{:<22} {:<15} {:>8} {:>8}  {}\n", "test", "verdict", "cycles", "instrs", "detail");
  for (const SuiteTest& t : tests) {
    const TestOutcome r = run_test(t, isa, env, *hw, p);
    ++tally[t.group][r.verdict];
    const bool failed = r.verdict != Verdict::kPass && r.verdict != Verdict::kNotApplicable;
    if (failed) report.ok = false;
    if (r.verdict == Verdict::kBuildError)
      ++not_built;
    else if (failed)
      ++rtl_failed;
    std::string detail = r.detail;
    if (r.verdict != Verdict::kPass && !r.qemu.empty()) detail += (detail.empty() ? "" : "; ") + r.qemu;
    std::replace(detail.begin(), detail.end(), '\n', ' ');
    table += fmt::format("{:<22} {:<15} {:>8} {:>8}  {}\n", t.id(), verdict_name(r.verdict), r.cycles,
                         r.instructions, detail);
    report.json["tests"].push_back({{"group", t.group},
                                    {"test", t.name},
                                    {"verdict", verdict_name(r.verdict)},
                                    {"detail", r.detail},
                                    {"qemu", r.qemu},
                                    {"cycles", r.cycles},
                                    {"instructions", r.instructions}});
  }
  std::string summary;
  nlohmann::json groups = nlohmann::json::object();
  for (const std::string& g : conformance_groups()) {
    const auto& counts = tally[g];
    unsigned total = 0;
    for (const auto& [v, n] : counts) total += n;
    if (total == 0) continue;
    auto count = [&](Verdict v) {
      const auto it = counts.find(v);
      return it == counts.end() ? 0u : it->second;
    };
    const unsigned pass = count(Verdict::kPass), na = count(Verdict::kNotApplicable);
    summary += fmt::format("{}: {} of {} pass{}{}\n", g, pass, total,
                           na ? fmt::format(", {} not applicable", na) : "",
                           total - pass - na ? fmt::format(", {} FAIL", total - pass - na) : "");
    groups[g] = {{"tests", total}, {"pass", pass}, {"not_applicable", na}, {"failed", total - pass - na}};
  }
  report.json["groups"] = groups;
  report.json["result"] = report.ok ? "pass" : "fail";
  report.text = fmt::format(
      "riscv-tests on the rvv RTL ({}, VLEN {}), environment isa/rvv/conformance/riscv_test.h, QEMU beside "
      "it\n"
      "suite: {}\n\n{}\n{}{}",
      a.hw_config, p.vlen, suite.string(), table, summary,
      report.ok ? std::string("every test that applies passes\n")
                : fmt::format("{}{}{} (above)\n", rtl_failed ? "the RTL FAILS tests that apply" : "",
                              rtl_failed && not_built ? "; " : "",
                              not_built ? fmt::format("{} tests did not build", not_built) : ""));
  return report;
}

}  // namespace kcraft::rvv
