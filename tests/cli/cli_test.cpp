// The kcraft binary as users and scripts call it.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace {

namespace fs = std::filesystem;

struct Run {
  int code = -1;
  std::string out;  // stdout and stderr together
};

// `environment`: "NAME=value ..." for this run; KCRAFT_PLATFORM is unset unless it names it (a user's own
// setting must not change what the tests see).
Run kcraft(const std::string& args, const std::string& environment = "") {
  const std::string cmd =
      "env -u KCRAFT_PLATFORM " + environment + " " + std::string(KCRAFT_BIN) + " " + args + " 2>&1";
  Run r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// stdout only, for --json output.
nlohmann::json kcraft_json(const std::string& args, int expected_code = 0) {
  const std::string cmd = "env -u KCRAFT_PLATFORM " + std::string(KCRAFT_BIN) + " " + args + " 2>/dev/null";
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  const int status = pclose(pipe);
  EXPECT_EQ(WEXITSTATUS(status), expected_code) << args;
  return nlohmann::json::parse(out);
}

fs::path temp_dir(const std::string& name) {
  auto d = fs::temp_directory_path() / ("kcraft_cli_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

TEST(Cli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(kcraft("--help").code, 0);
  EXPECT_EQ(kcraft("").code, 2);
  EXPECT_EQ(kcraft("frobnicate").code, 2);
  auto r = kcraft("isa nosuchplatform");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown platform 'nosuchplatform'"), std::string::npos) << r.out;
  r = kcraft("eval systolic relu /nonexistent/kernel.s");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("cannot read /nonexistent/kernel.s"), std::string::npos) << r.out;
  r = kcraft("task show relux");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("did you mean relu"), std::string::npos) << r.out;
}

TEST(Cli, EveryCommandNamesTheRegisteredPlatformsForAnUnknownOne) {
  for (const std::string command :
       {"isa nope", "tasks --platform nope", "task show relu --platform nope", "check nope k.s",
        "eval nope relu k.s", "baseline nope relu", "validate nope", "speed nope", "debug nope relu k.s"}) {
    const auto r = kcraft(command);
    EXPECT_EQ(r.code, 2) << command << "\n" << r.out;
    EXPECT_NE(r.out.find("kcraft: unknown platform 'nope' (available: systolic"), std::string::npos)
        << command << "\n"
        << r.out;
  }
  // `kcraft platforms` lists the registry, the default platform first.
  const auto listed = kcraft("platforms");
  EXPECT_EQ(listed.out.rfind("systolic  tensor NPU", 0), 0u) << listed.out;
}

TEST(Cli, PlatformsIsaAndTasks) {
  auto platforms = kcraft_json("platforms --json");
  // One entry per platform and hardware configuration, the default platform first.
  ASSERT_GE(platforms.size(), 2u);
  EXPECT_EQ(std::count_if(platforms.begin(), platforms.end(),
                          [](const auto& e) { return e["platform"] == "systolic"; }),
            2);
  EXPECT_EQ(platforms[0]["platform"], "systolic");
  EXPECT_EQ(platforms[0]["build"]["MLEN"], 16);
  auto isa = kcraft("isa systolic");
  EXPECT_EQ(isa.code, 0);
  for (const char* s : {"V_ADD_VV", "M_MM", "H_LOAD_V", "C_LOOPI", "latency"}) {
    EXPECT_NE(isa.out.find(s), std::string::npos) << s;
  }
  auto tasks = kcraft_json("tasks --json");
  ASSERT_GE(tasks.size(), 23u);
  const std::set<std::string> with_baseline = {"relu", "silu", "softmax", "rms_norm", "gemm", "linear"};
  for (const auto& t : tasks) {
    const std::string name = t["name"];
    if (with_baseline.count(name)) {
      EXPECT_EQ(t["support"]["systolic"]["C5"], "baseline") << name;
    }
    // Every platform answers for every configuration: a verdict or the reason it cannot run.
    for (const auto& [platform, support] : t["support"].items()) {
      ASSERT_EQ(support.size(), 5u) << name << " " << platform;
      for (const auto& [config, verdict] : support.items()) {
        ASSERT_TRUE(verdict.is_string()) << name << " " << platform << " " << config;
        EXPECT_FALSE(verdict.get<std::string>().empty()) << name << " " << platform << " " << config;
        // A level-3 block without a composite baseline says so rather than offering a cell with no kernel.
        if (t["level"] == 3 && verdict != "baseline") {
          EXPECT_NE(verdict.get<std::string>().find("no composite baseline yet"), std::string::npos)
              << name << " " << platform << " " << config << ": " << verdict;
        }
      }
    }
  }
}

// `kcraft isa PLATFORM --json` (the flag after the platform, too): the reference and, per instruction,
// its unit, latency, occupancy, hazards and (systolic) memory ranges, on the hardware configuration --hw
// names.
TEST(Cli, IsaJsonHasTheSchedulingTable) {
  for (const char* platform : {"systolic", "vliw", "rvv"}) {
    const nlohmann::json isa = kcraft_json(std::string("isa ") + platform + " --json");
    EXPECT_EQ(isa["platform"], platform);
    EXPECT_EQ(isa["hw"], "default");
    EXPECT_NE(isa["markdown"].get<std::string>().find("#"), std::string::npos);
    const nlohmann::json& s = isa["scheduling"];
    EXPECT_TRUE(s["time_unit"] == "cycles" || s["time_unit"] == "bundles") << platform;
    EXPECT_FALSE(s["issue"].get<std::string>().empty()) << platform;
    ASSERT_GE(s["instructions"].size(), 40u) << platform;
    size_t fixed = 0;
    for (const auto& row : s["instructions"]) {
      for (const char* key : {"name", "unit", "latency", "occupancy", "hazards"}) {
        ASSERT_TRUE(row[key].is_string()) << platform << " " << row.dump();
        EXPECT_FALSE(row[key].get<std::string>().empty()) << platform << " " << key << " " << row.dump();
      }
      EXPECT_TRUE(row["reads"].is_array() && row["writes"].is_array()) << row.dump();
      if (row["latency_value"].is_number()) ++fixed;
      // The memory ranges: systolic's YAML states them for every instruction (empty for those on registers
      // alone); a table without them leaves the keys out rather than claim no memory is touched.
      const bool states_memory = std::string(platform) == "systolic";
      EXPECT_EQ(row.contains("reads_memory") && row["reads_memory"].is_array(), states_memory) << row.dump();
      EXPECT_EQ(row.contains("writes_memory") && row["writes_memory"].is_array(), states_memory)
          << row.dump();
      if (row["name"] == "M_MM") {
        EXPECT_EQ(
            row["writes_memory"],
            nlohmann::json::parse(R"([{"space": "ACC", "first": "acc + off", "rows": "BLEN", "rows_value": 4,
                                            "stride": "1", "size": "1", "size_value": 1, "busy": "latency"}])"));
      }
    }
    EXPECT_GT(fixed, 10u) << platform;
    bool memory_rule = false;
    for (const auto& rule : s["rules"]) memory_rule = memory_rule || rule["title"] == "Memory ranges";
    EXPECT_EQ(memory_rule, std::string(platform) == "systolic") << platform;
  }
  // Another configuration's parameters give other values where a formula uses them.
  const nlohmann::json small = kcraft_json("isa systolic --json --hw small");
  EXPECT_EQ(small["hw"], "small");
  EXPECT_NE(small["scheduling"].dump(), kcraft_json("isa systolic --json")["scheduling"].dump());
  EXPECT_EQ(kcraft("isa systolic --json --hw nosuch").code, 2);
}

TEST(Cli, TaskShowListsLayoutAndSymbols) {
  auto r = kcraft("task show gemm --platform systolic --config C3");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* s : {"ADDR_A=0x0", "ADDR_B=", "ADDR_C=", "MLEN=16", "K=64"}) {
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  }
  // The first line says whose symbols these are, and why that platform.
  EXPECT_EQ(r.out.rfind("Platform systolic (--platform), hardware configuration default: the layout and "
                        "symbols below are systolic's.\n",
                        0),
            0u)
      << r.out;
  EXPECT_EQ(r.out.find("the default platform"), std::string::npos) << r.out;
  auto implicit = kcraft("task show gemm --config C3");
  EXPECT_EQ(
      implicit.out.rfind("Platform systolic (the default platform; --platform NAME or KCRAFT_PLATFORM=NAME "
                         "for another: ",
                         0),
      0u)
      << implicit.out;
  auto j = kcraft_json("task show gemm --config C3 --json");
  EXPECT_EQ(j["symbols"]["ADDR_A"], 0);
  EXPECT_EQ(j["symbols"]["ADDR_B"], 64 * 64 * 2);
  EXPECT_EQ(j["platform_from"], "default");
}

// An option a subcommand does not take is named as typed (CLI11 alone lists extras last first: "x --db"),
// with the subcommand whose --help lists what it does take; nothing runs.
TEST(Cli, AnOptionASubcommandDoesNotTakeIsNamedInTheOrderTyped) {
  const auto r = kcraft("debug vliw softmax k.s --config C1 --db /tmp/results.db");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(
      r.out.find("kcraft: `kcraft debug` does not take --db /tmp/results.db (`kcraft debug --help` lists "
                 "what it takes)"),
      std::string::npos)
      << r.out;
  const auto with_variable = kcraft("eval relu k.s extra", "KCRAFT_PLATFORM=vliw");
  EXPECT_EQ(with_variable.code, 2);
  EXPECT_NE(with_variable.out.find("`kcraft eval` does not take extra"), std::string::npos)
      << with_variable.out;
  EXPECT_NE(with_variable.out.find("KCRAFT_PLATFORM=vliw is set"), std::string::npos) << with_variable.out;
}

// KCRAFT_PLATFORM names the platform of every subcommand that takes one and was given none; the command
// line wins; an unknown name is an error naming the variable.
TEST(Cli, TheEnvironmentNamesThePlatform) {
  const auto shown = kcraft("task show gemm --config C3", "KCRAFT_PLATFORM=vliw");
  ASSERT_EQ(shown.code, 0) << shown.out;
  EXPECT_EQ(shown.out.rfind("Platform vliw (from KCRAFT_PLATFORM), hardware configuration default:", 0), 0u)
      << shown.out;
  // The same task text as with --platform (only the first line says where the platform came from).
  const auto explicit_vliw = kcraft("task show gemm --config C3 --platform vliw");
  EXPECT_EQ(shown.out.substr(shown.out.find('\n')), explicit_vliw.out.substr(explicit_vliw.out.find('\n')));
  const auto flag_wins = kcraft("task show gemm --platform rvv", "KCRAFT_PLATFORM=vliw");
  EXPECT_EQ(flag_wins.out.rfind("Platform rvv (--platform)", 0), 0u) << flag_wins.out;

  // Positional platforms: left out with the variable set, given (and winning) without it.
  EXPECT_EQ(kcraft("isa", "KCRAFT_PLATFORM=vliw").out, kcraft("isa vliw").out);
  EXPECT_EQ(kcraft("isa systolic", "KCRAFT_PLATFORM=vliw").out, kcraft("isa systolic").out);
  EXPECT_EQ(kcraft("baseline relu --config C2", "KCRAFT_PLATFORM=vliw").out,
            kcraft("baseline vliw relu --config C2").out);
  const auto dir = temp_dir("environment");
  const auto kernel = dir / "relu.s";
  write(kernel, kcraft("baseline systolic relu").out);
  const auto checked = kcraft("check " + kernel.string() + " --task relu", "KCRAFT_PLATFORM=systolic");
  EXPECT_EQ(checked.code, 0) << checked.out;
  EXPECT_EQ(checked.out, kcraft("check systolic " + kernel.string() + " --task relu").out);
  const auto evaluated = kcraft("eval relu " + kernel.string() + " --no-cache", "KCRAFT_PLATFORM=systolic");
  EXPECT_EQ(evaluated.code, 0) << evaluated.out;
  EXPECT_EQ(kcraft("tasks", "KCRAFT_PLATFORM=vliw").out, kcraft("tasks --platform vliw").out);
  EXPECT_NE(kcraft("tasks", "KCRAFT_PLATFORM=vliw").out, kcraft("tasks").out);

  // No platform anywhere: the positional is missing, and the error says both ways to give one.
  const auto missing = kcraft("isa");
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.out.find("kcraft: isa: no platform: name one first (systolic"), std::string::npos)
      << missing.out;
  EXPECT_NE(missing.out.find("or set KCRAFT_PLATFORM"), std::string::npos) << missing.out;

  // An unknown name in the variable, for every subcommand that takes a platform: nothing runs.
  for (const std::string command :
       {"isa", "tasks", "task show relu", "task dump relu --out /nonexistent", "check k.s", "eval relu k.s",
        "debug relu k.s", "baseline relu", "profile relu k.s", "validate", "speed", "coverage",
        "conformance --suite /nonexistent", "explore --set build:MLEN=8", "agent --task relu", "mcp"}) {
    const auto r = kcraft(command, "KCRAFT_PLATFORM=nope");
    EXPECT_EQ(r.code, 2) << command << "\n" << r.out;
    EXPECT_NE(r.out.find("kcraft: KCRAFT_PLATFORM=nope names no platform (available: systolic"),
              std::string::npos)
        << command << "\n"
        << r.out;
  }
  // An explicit platform does not read the variable.
  EXPECT_EQ(kcraft("isa vliw", "KCRAFT_PLATFORM=nope").code, 0);
}

TEST(Cli, TaskDumpWritesNpyFilesNumpyCanLoad) {
  auto dir = temp_dir("dump");
  auto r = kcraft("task dump linear --config C1 --seed 3 --platform systolic --out " + dir.string());
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* f : {"x.npy", "W.npy", "b.npy", "y.ref.npy", "manifest.json"}) {
    EXPECT_TRUE(fs::exists(dir / f)) << f;
  }
  // numpy recomputes the reference from the dumped inputs.
  const std::string script = dir.string() + "/check.py";
  write(script,
        "import numpy as np, sys\n"
        "d = sys.argv[1]\n"
        "x, W, b = (np.load(f'{d}/{n}.npy').astype(np.float64) for n in ('x', 'W', 'b'))\n"
        "ref = np.load(f'{d}/y.ref.npy')\n"
        "assert np.allclose(x @ W.T + b, ref, rtol=1e-12, atol=1e-12), abs(x @ W.T + b - ref).max()\n"
        "print('ok')\n");
  FILE* p = popen((std::string(KCRAFT_PYTHON) + " -c 'import numpy' 2>/dev/null").c_str(), "r");
  if (pclose(p) != 0) GTEST_SKIP() << "/usr/bin/python3 has no numpy";
  p = popen((std::string(KCRAFT_PYTHON) + " " + script + " " + dir.string() + " 2>&1").c_str(), "r");
  std::array<char, 256> buf{};
  std::string out(buf.data(), fread(buf.data(), 1, buf.size(), p));
  EXPECT_EQ(pclose(p), 0) << out;
  EXPECT_NE(out.find("ok"), std::string::npos) << out;
}

// --range-stress draws the hidden range-stress set (seed bit 50) in task dump, eval and debug; task show
// states it.
TEST(Cli, RangeStressInputsOnRequest) {
  const auto show = kcraft("task show softmax --platform rvv --config C1");
  ASSERT_EQ(show.code, 0) << show.out;
  EXPECT_NE(show.out.find("Range stress"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("x ~ normal(mean 50, std 50)"), std::string::npos) << show.out;
  const auto shown = kcraft_json("--json task show softmax --platform rvv --config C1");
  EXPECT_EQ(shown["range_stress"]["inputs"][0]["init"]["std"], 50.0);
  EXPECT_TRUE(kcraft_json("--json task show gemm --platform rvv --config C1")["range_stress"].is_null());
  // Where the element type cannot carry the stress (attention in BF16), task show says plainly that the
  // set draws the ordinary distributions, not the values the description names.
  const auto bf16 = kcraft("task show attention --platform vliw --config C1");
  EXPECT_NE(bf16.out.find("in bf16 (this platform's element type) the set draws every input from its "
                          "ordinary distribution under Inputs"),
            std::string::npos)
      << bf16.out;
  // The essential work of a causal task: task show states what a kernel may skip.
  const auto causal = kcraft("task show attention --platform vliw --config C2");
  EXPECT_NE(causal.out.find("a kernel may skip all but (4*D + 5)*S*(2*S - CAUSAL*(S - 1))/2 = "),
            std::string::npos)
      << causal.out;

  const auto dir = temp_dir("range_stress");
  auto r =
      kcraft("task dump softmax --config C1 --seed 3 --platform rvv --range-stress --out " + dir.string());
  ASSERT_EQ(r.code, 0) << r.out;
  nlohmann::json manifest;
  std::ifstream(dir / "manifest.json") >> manifest;
  EXPECT_EQ(manifest["seed"], (uint64_t{1} << 50) | 3u);
  EXPECT_TRUE(manifest["range_stress"].get<bool>());
  EXPECT_EQ(manifest["inputs"][0]["init"]["mean"], 50.0);
  // The stored values: little-endian float32 after the .npy header; the logits reach exp's overflow.
  std::ifstream npy(dir / "x.npy", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(npy)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 16u * 16u * 4u);
  float largest = -1e30f;
  for (std::size_t i = bytes.size() - 16 * 16 * 4; i < bytes.size(); i += 4) {
    float v = 0;
    std::memcpy(&v, bytes.data() + i, 4);
    largest = std::max(largest, v);
  }
  EXPECT_GT(largest, 88.8f);
  const auto plain_dir = temp_dir("range_stress_plain");
  ASSERT_EQ(kcraft("task dump softmax --config C1 --seed 3 --platform rvv --out " + plain_dir.string()).code,
            0);
  nlohmann::json plain;
  std::ifstream(plain_dir / "manifest.json") >> plain;
  EXPECT_EQ(plain["seed"], 3u);
  EXPECT_FALSE(plain["range_stress"].get<bool>());
  EXPECT_EQ(plain["inputs"][0]["init"]["std"], 2.0);

  // eval: the template kernel (it subtracts the row maximum) passes the stress set; a copy that skips the
  // maximum passes the ordinary seed and fails the stress set.
  const auto base = kcraft("baseline rvv softmax --config C1 --compiler");
  ASSERT_EQ(base.code, 0) << base.out;
  write(dir / "softmax.c", base.out);
  auto stressed =
      kcraft_json("eval rvv softmax " + (dir / "softmax.c").string() + " --range-stress --no-cache --json");
  EXPECT_EQ(stressed["verdict"], "pass");
  EXPECT_TRUE(stressed["range_stress"].get<bool>());
  std::string naive = base.out;
  const std::string subtract = "kc_expf(xr[n] - max)";
  ASSERT_NE(naive.find(subtract), std::string::npos) << naive;
  naive.replace(naive.find(subtract), subtract.size(), "kc_expf(xr[n])");
  write(dir / "naive.c", naive);
  EXPECT_EQ(kcraft("eval rvv softmax " + (dir / "naive.c").string() + " --no-cache").code, 0);
  const auto failed = kcraft("eval rvv softmax " + (dir / "naive.c").string() + " --range-stress --no-cache");
  EXPECT_EQ(failed.code, 1) << failed.out;
  EXPECT_NE(failed.out.find("range-stress inputs"), std::string::npos) << failed.out;
  // debug loads the same inputs.
  const auto debug = kcraft("debug rvv softmax " + (dir / "naive.c").string() + " --range-stress");
  EXPECT_NE(debug.code, 2) << debug.out;
}

TEST(Cli, CheckReportsDiagnostics) {
  auto dir = temp_dir("check");
  write(dir / "good.s", "S_LI r1, ADDR_X\nC_HALT\n");
  write(dir / "bad.s", "S_LI r1, ADDR_X\nV_ADD_VX r1, r2, r3\nS_ADDI r1, r0, 70000\n");
  auto good = kcraft("check systolic " + (dir / "good.s").string() + " --task relu --config C1");
  EXPECT_EQ(good.code, 0) << good.out;
  EXPECT_NE(good.out.find("ok, 2 instructions"), std::string::npos) << good.out;
  auto bad = kcraft("check systolic " + (dir / "bad.s").string() + " --task relu");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.out.find("bad.s:2:1: error"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("bad.s:3:16: error"), std::string::npos) << bad.out;
  auto j = kcraft_json("check systolic " + (dir / "bad.s").string() + " --json", 1);
  EXPECT_FALSE(j["ok"].get<bool>());
  EXPECT_EQ(j["errors"], 3);  // ADDR_X is unknown without --task
  // ... and the hint says so, rather than suggesting a .equ.
  auto no_task = kcraft("check vliw " + (dir / "good.s").string());
  EXPECT_EQ(no_task.code, 1);
  EXPECT_NE(no_task.out.find("ADDR_X is a task symbol: add --task NAME"), std::string::npos) << no_task.out;
  // A symbol no task defines keeps the .equ hint.
  write(dir / "typo.s", "S_LI r1, NO_SUCH_SYMBOL\nC_HALT\n");
  auto typo = kcraft("check vliw " + (dir / "typo.s").string());
  EXPECT_NE(typo.out.find("define it with '.equ NO_SUCH_SYMBOL"), std::string::npos) << typo.out;
  // The same hint for a C compiler's undeclared identifier.
  write(dir / "relu.c", "void kernel(void) { float* y = (float*)ADDR_Y; y[0] = 0.0f; }\n");
  auto c_no_task = kcraft("check rvv " + (dir / "relu.c").string());
  EXPECT_EQ(c_no_task.code, 1);
  EXPECT_NE(c_no_task.out.find("ADDR_Y is a task symbol: add --task NAME"), std::string::npos)
      << c_no_task.out;
  // And for an assembler whose error does not name the symbol (clang: "immediate must be an integer ..."):
  // the task symbol on the error's line is named.
  write(dir / "relu.S", ".globl kernel\nkernel:\n  li a0, ADDR_X\n  ret\n");
  auto asm_no_task = kcraft("check rvv " + (dir / "relu.S").string());
  EXPECT_EQ(asm_no_task.code, 1);
  EXPECT_NE(asm_no_task.out.find("ADDR_X is a task symbol: add --task NAME"), std::string::npos)
      << asm_no_task.out;
  // clang's note points before its error's column (13:7 for an error at 13:34): it stays after the error.
  write(dir / "note.c",
        "#include <riscv_vector.h>\nvoid kernel(void) { size_t vl = __riscv_vsetvl_e32m1(4); "
        "__riscv_vse32_v_f32m1((float*)0, 1.0f, vl); }\n");
  auto note = kcraft("check rvv " + (dir / "note.c").string());
  EXPECT_EQ(note.code, 1);
  const auto error_at = note.out.find("error: passing 'float'");
  const auto note_at = note.out.find("note: passing argument to parameter here");
  ASSERT_NE(error_at, std::string::npos) << note.out;
  ASSERT_NE(note_at, std::string::npos) << note.out;
  EXPECT_LT(error_at, note_at) << note.out;
}

// The kernel's language comes from its file's extension; the built-in assembly platforms take .s and .S.
TEST(Cli, TheKernelLanguageComesFromTheFileExtension) {
  auto dir = temp_dir("languages");
  write(dir / "k.S", "S_LI r1, ADDR_X\nC_HALT\n");
  write(dir / "k.txt", "S_LI r1, ADDR_X\nC_HALT\n");
  write(dir / "k.c", "void kernel(void) {}\n");
  EXPECT_EQ(kcraft("check systolic " + (dir / "k.S").string() + " --task relu").code, 0);
  for (const std::string file : {"k.txt", "k.c"}) {
    for (const auto& command :
         {"check systolic " + (dir / file).string(), "eval systolic relu " + (dir / file).string()}) {
      const auto r = kcraft(command);
      EXPECT_EQ(r.code, 2) << command << "\n" << r.out;
      EXPECT_NE(r.out.find(file + ": systolic kernels are asm (.s, .S); the extension '" +
                           fs::path(file).extension().string() + "' is none of them"),
                std::string::npos)
          << command << "\n"
          << r.out;
    }
  }
  // `kcraft platforms` says what each platform takes.
  const auto platforms = kcraft_json("platforms --json");
  EXPECT_EQ(platforms[0]["languages"][0]["name"], "asm");
  EXPECT_EQ(platforms[0]["languages"][0]["extensions"], nlohmann::json::array({".s", ".S"}));
  EXPECT_NE(kcraft("platforms").out.find("  kernels in: asm (.s .S)\n"), std::string::npos);
}

// eval shows the first warnings and counts the rest (check lists them all); the verdict stays on top.
TEST(Cli, EvalAbridgesWarningsThatCheckListsInFull) {
  auto dir = temp_dir("warnings");
  write(dir / "hazards.s",
        "L_VLD v1, p0, 0\nV_MAX v2, v1, v1\nV_MAX v3, v1, v1\nL_VLD v4, p0, 0\nV_MAX v5, v4, v4\n"
        "V_MAX v6, v4, v4\nC_HALT\n");
  auto check = kcraft("check vliw " + (dir / "hazards.s").string() + " --task relu");
  EXPECT_EQ(check.code, 0) << check.out;
  EXPECT_NE(check.out.find("hazards.s:6:11: warning"), std::string::npos) << check.out;
  auto eval = kcraft("eval vliw relu " + (dir / "hazards.s").string());
  EXPECT_EQ(eval.out.rfind("mismatch:", 0), 0u) << eval.out;
  EXPECT_NE(eval.out.find("hazards.s:5:11: warning"), std::string::npos) << eval.out;
  EXPECT_EQ(eval.out.find("hazards.s:6:11: warning"), std::string::npos) << eval.out;
  EXPECT_NE(eval.out.find("[1 more warning: `kcraft check`"), std::string::npos) << eval.out;
}

TEST(Cli, BaselineThenEvalPasses) {
  auto dir = temp_dir("eval");
  auto base = kcraft("baseline systolic softmax --config C2");
  ASSERT_EQ(base.code, 0) << base.out;
  write(dir / "softmax.s", base.out);
  auto j = kcraft_json("eval systolic softmax " + (dir / "softmax.s").string() + " --config C2 --json");
  EXPECT_EQ(j["verdict"], "pass");
  EXPECT_EQ(j["model_check"], "agree");
  EXPECT_GT(j["cycles"].get<uint64_t>(), 0u);
  // Traces on request.
  auto traced = kcraft("eval systolic softmax " + (dir / "softmax.s").string() + " --config C2 --trace " +
                       (dir / "w.fst").string() + " --itrace " + (dir / "t.txt").string());
  EXPECT_EQ(traced.code, 0) << traced.out;
  EXPECT_GT(fs::file_size(dir / "w.fst"), 1000u);
  std::ifstream t(dir / "t.txt");
  std::string header, first;
  std::getline(t, header);
  std::getline(t, first);
  EXPECT_NE(first.find("S_ADDI"), std::string::npos) << first;
  // Knobs change the kernel; unknown knobs are usage errors.
  auto knobbed = kcraft("baseline systolic gemm --config C2 --knob block_rows=16 --knob unroll=2");
  EXPECT_EQ(knobbed.code, 0);
  EXPECT_NE(knobbed.out.find("block_rows=16"), std::string::npos);
  EXPECT_EQ(kcraft("baseline systolic gemm --knob nosuch=3").code, 2);
}

// The second platform through the same commands: baseline, eval with both traces and the timeline.
TEST(Cli, VliwBaselineThenEvalPassesWithTraces) {
  auto dir = temp_dir("eval_vliw");
  auto base = kcraft("baseline vliw relu --config C2");
  ASSERT_EQ(base.code, 0) << base.out;
  write(dir / "relu.s", base.out);
  auto traced = kcraft("eval vliw relu " + (dir / "relu.s").string() + " --config C2 --trace " +
                       (dir / "w.fst").string() + " --itrace " + (dir / "t.txt").string() + " --timeline " +
                       (dir / "tl.json").string());
  EXPECT_EQ(traced.code, 0) << traced.out;
  EXPECT_NE(traced.out.find("functional model: agree"), std::string::npos) << traced.out;
  EXPECT_GT(fs::file_size(dir / "w.fst"), 1000u);
  std::ifstream t(dir / "t.txt");
  std::string header, first;
  std::getline(t, header);
  std::getline(t, first);
  EXPECT_NE(first.find("         0      0  "), std::string::npos) << first;
  ASSERT_TRUE(fs::exists(dir / "tl.json"));
  std::ifstream tl(dir / "tl.json");
  const auto trace = nlohmann::json::parse(tl);
  bool slot_track = false;
  for (const auto& e : trace.at("traceEvents"))
    if (e.value("ph", "") == "M" && e.at("args").value("name", "").rfind("vec (vector slot)", 0) == 0)
      slot_track = true;
  EXPECT_TRUE(slot_track) << "no vector-slot track in the vliw timeline";
}

TEST(Cli, EvalExitCodesFollowTheVerdict) {
  auto dir = temp_dir("verdicts");
  write(dir / "wrong.s", "C_HALT\n");
  write(dir / "broken.s", "C_HALTT\n");
  write(dir / "oob.s", "S_LI r1, VSRAM_ROWS\nV_EXP_V r1, r1\nC_HALT\n");
  EXPECT_EQ(kcraft_json("eval systolic relu " + (dir / "wrong.s").string() + " --json", 1)["verdict"],
            "mismatch");
  EXPECT_EQ(kcraft_json("eval systolic relu " + (dir / "broken.s").string() + " --json", 1)["verdict"],
            "build_error");
  EXPECT_EQ(kcraft_json("eval systolic relu " + (dir / "oob.s").string() + " --json", 1)["verdict"],
            "runtime_error");
  EXPECT_EQ(
      kcraft_json("eval systolic relu " + (dir / "wrong.s").string() + " --config C7 --json", 2)["verdict"],
      "input_error");
}

TEST(Cli, BenchValidateAndSpeed) {
  auto bench = kcraft("bench --tasks relu,gemm --configs C1,C2 --hw default --agents baseline --db " +
                      (temp_dir("bench") / "results.db").string());
  EXPECT_EQ(bench.code, 0) << bench.out;
  EXPECT_NE(bench.out.find("relu"), std::string::npos);
  EXPECT_NE(bench.out.find("total              | 4/4"), std::string::npos) << bench.out;
  auto validate = kcraft("validate systolic --programs 5 --hw small");
  EXPECT_EQ(validate.code, 0) << validate.out;
  EXPECT_NE(validate.out.find("agree"), std::string::npos);
  // One workload: the baseline kernel's run, the same cycles as `kcraft eval` gives it.
  const auto dir = temp_dir("speed");
  std::ofstream(dir / "relu.s") << kcraft("baseline systolic relu --config C2").out;
  const auto eval = kcraft_json("eval systolic relu " + (dir / "relu.s").string() + " --config C2 --json");
  auto speed = kcraft_json("speed systolic --task relu --config C2 --repeats 1 --json");
  ASSERT_EQ(speed["workloads"].size(), 1u) << speed.dump();
  const auto& relu = speed["workloads"][0];
  EXPECT_EQ(relu["workload"], "relu C2 baseline");
  EXPECT_EQ(relu["cycles"], eval["cycles"]);
  for (const char* rate : {"systemc_cycles_per_cpu_second", "bare_cycles_per_cpu_second",
                           "systemc_cycles_per_second", "bare_cycles_per_second", "ratio"})
    EXPECT_GT(relu[rate].get<double>(), 0) << rate;
  // No --task: the platform's fixed set, each with its own cycles.
  auto fixed = kcraft_json("speed systolic --repeats 1 --json");
  std::vector<std::string> names;
  for (const auto& w : fixed["workloads"]) {
    names.push_back(w["workload"]);
    EXPECT_GT(w["cycles"].get<uint64_t>(), 0u) << w.dump();
  }
  EXPECT_EQ(names, (std::vector<std::string>{"gemm C4 baseline", "softmax C5 baseline", "relu C5 baseline"}));
  EXPECT_EQ(kcraft("speed systolic --config C2").code, 2);
  // The same commands on the second platform.
  auto vliw_validate = kcraft("validate vliw --programs 20 --hw small");
  EXPECT_EQ(vliw_validate.code, 0) << vliw_validate.out;
  EXPECT_NE(vliw_validate.out.find("agree"), std::string::npos) << vliw_validate.out;
  auto vliw_speed = kcraft_json("speed vliw --task relu --config C2 --repeats 1 --json")["workloads"][0];
  EXPECT_GT(vliw_speed["cycles"].get<uint64_t>(), 0u);
  EXPECT_GT(vliw_speed["ratio"].get<double>(), 0);
}

TEST(Cli, AgentShowsItsSpeedupOverTheTunedBaselineAndWhereItCameFrom) {
  const auto dir = temp_dir("agent_tuned");
  const std::string db = (dir / "r.db").string();
  const std::string run = "agent --task gemm --config C4 --agent tuner --db " + db + " --transcript ";
  // The tuner at its default budget is the tuned baseline itself: 1x over it, and it is cached.
  const auto tuner = kcraft_json(run + (dir / "tuner.jsonl").string() + " --json");
  EXPECT_EQ(tuner["tuned_baseline"]["origin"], "this_run") << tuner.dump(2);
  EXPECT_EQ(tuner["score"]["tuned_baseline_cycles"], tuner["score"]["cycles"]);
  EXPECT_EQ(tuner["score"]["tuned_speedup"].get<double>(), 1.0);
  const auto tuned_cycles = tuner["score"]["cycles"].get<uint64_t>();
  const double tuner_speedup = tuner["score"]["speedup"].get<double>();
  ASSERT_GT(tuner_speedup, 1.05);  // gemm C4: the default knobs are weak

  // The template's kernel (a budget of one iteration) is fast against the baseline (1x) and slow against
  // the tuned baseline, which now comes from the store.
  const auto text = kcraft(run + (dir / "one.jsonl").string() + " --budget 1");
  EXPECT_EQ(text.code, 0) << text.out;
  const std::string expected_line =
      "= speedup 1.000x; vs tuned baseline " + std::to_string(tuned_cycles) + " = " + [&] {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3fx", 1.0 / tuner_speedup);
        return std::string(buf);
      }();
  EXPECT_NE(text.out.find(expected_line), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  tuned baseline (cached): the offline tuner's best kernel"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("cached in " + db), std::string::npos) << text.out;

  // Without a cached one it is computed now, next to the run's transcript, and cached for the next run.
  const std::string fresh = (dir / "fresh.db").string();
  const std::string one = "agent --task gemm --config C4 --agent tuner --budget 1 --json --db " + fresh +
                          " --transcript " + (dir / "fresh.jsonl").string();
  const auto computed = kcraft_json(one);
  EXPECT_EQ(computed["tuned_baseline"]["origin"], "computed") << computed.dump(2);
  EXPECT_EQ(computed["score"]["tuned_baseline_cycles"], tuned_cycles);
  EXPECT_NEAR(computed["score"]["tuned_speedup"].get<double>(), 1.0 / tuner_speedup, 1e-12);
  EXPECT_TRUE(fs::is_regular_file(dir / "fresh_tuned-baseline.jsonl"));
  EXPECT_EQ(kcraft_json(one)["tuned_baseline"]["origin"], "cached");
  // And it can be left out.
  const auto without = kcraft_json(one + " --no-tuned-baseline");
  EXPECT_FALSE(without.contains("tuned_baseline"));
  EXPECT_FALSE(without["score"].contains("tuned_speedup"));
  fs::remove_all(dir);
}

TEST(Cli, BrokenDataFilesNameTheFileAndField) {
  // A copy of the data root with one broken task spec and one broken hardware configuration.
  auto root = temp_dir("root");
  fs::create_directories(root / "tasks");
  fs::copy(fs::path(KCRAFT_SOURCE_DIR) / "tasks" / "specs", root / "tasks" / "specs",
           fs::copy_options::recursive);
  // Every platform's configurations (the built-in platforms are made together).
  for (const auto& dir : fs::directory_iterator(fs::path(KCRAFT_SOURCE_DIR) / "rtl")) {
    if (!fs::is_directory(dir.path() / "configs")) continue;
    fs::create_directories(root / "rtl" / dir.path().filename());
    fs::copy(dir.path() / "configs", root / "rtl" / dir.path().filename() / "configs",
             fs::copy_options::recursive);
  }
  std::ifstream in(root / "tasks" / "specs" / "relu.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.replace(text.find("level: 1"), 8, "level: one");
  write(root / "tasks" / "specs" / "relu.yaml", text);
  auto r = kcraft("tasks --root " + root.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("relu.yaml: level"), std::string::npos) << r.out;

  fs::remove(root / "tasks" / "specs" / "relu.yaml");
  write(root / "rtl" / "systolic" / "configs" / "small.yaml",
        "platform: systolic\nname: small\nbuild: {MLEN: 8}\n");
  r = kcraft("platforms --root " + root.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("small.yaml: build.VLEN: missing"), std::string::npos) << r.out;
}

}  // namespace

namespace {

// `kcraft debug` end to end: the stop at a label, --json, the exit codes, lockstep's report, the help text.
TEST(Cli, DebugStopsDumpsAndFindsTheFirstDivergence) {
  const auto dir = temp_dir("debug");
  write(dir / "loops.s",
        "  S_ADDI r1, r0, 0\n  C_LOOPI 5, one_done\n  S_ADDI r1, r1, 1\none_done:\n"
        "after_loop:\n  S_ADDI r4, r1, 7\n  C_HALT\n");
  const std::string kernel = (dir / "loops.s").string();
  const auto stop =
      kcraft_json("debug systolic relu " + kernel + " --stop-at-pc after_loop --rows vsram:0-1 --json");
  EXPECT_EQ(stop["stop"]["retired"], 7);
  EXPECT_EQ(stop["rtl"]["registers"]["r1"], "5 (0x5)");
  EXPECT_EQ(stop["model"]["registers"]["r4"], "0 (0x0)");
  EXPECT_TRUE(stop["agree"].get<bool>());

  const auto diverged =
      kcraft("debug systolic relu " + kernel + " --lockstep --inject-model-fault 4:r12:0x8");
  EXPECT_EQ(diverged.code, 3) << diverged.out;
  EXPECT_NE(diverged.out.find("first divergence at retired instruction 4 (pc 2: "), std::string::npos)
      << diverged.out;
  EXPECT_NE(diverged.out.find("r12: RTL 0 (0x0), model 8 (0x8)"), std::string::npos) << diverged.out;

  const auto bad = kcraft("debug systolic relu " + kernel + " --stop-at-pc nowhere");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("neither a number nor a label"), std::string::npos) << bad.out;
  const auto help = kcraft("debug --help");
  EXPECT_NE(help.out.find("--lockstep"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("--stop-at-cycle"), std::string::npos) << help.out;
}

// `kcraft debug` shows DRAM tensors by name next to the golden, and a kernel that never halts stops at
// --cycle-cap / --stop-at-cycle with eval's diagnosis instead of an internal error.
TEST(Cli, DebugShowsDramTensorsAndHangs) {
  const auto dir = temp_dir("debug_dram");
  // relu's y is never stored: every row is outside the golden's tolerance (eval's fill reads as NaN).
  write(dir / "nostore.s", "  S_LI r1, ADDR_X\n  C_HALT\n");
  const std::string nostore = (dir / "nostore.s").string();
  const auto rows = kcraft("debug systolic relu " + nostore + " --rows y:0-1 --rows x:0");
  EXPECT_EQ(rows.code, 0) << rows.out;
  EXPECT_NE(rows.out.find("-- DRAM tensors"), std::string::npos) << rows.out;
  EXPECT_NE(rows.out.find("-- y: 16 rows of 16 elements"), std::string::npos) << rows.out;
  EXPECT_NE(rows.out.find("16 of the RTL's outside the golden's tolerance"), std::string::npos) << rows.out;
  EXPECT_NE(rows.out.find("!y[1] golden"), std::string::npos) << rows.out;
  EXPECT_NE(rows.out.find(" x[0] RTL"), std::string::npos) << rows.out;
  const auto unknown = kcraft("debug systolic relu " + nostore + " --rows dram");
  EXPECT_EQ(unknown.code, 2) << unknown.out;
  EXPECT_NE(unknown.out.find("DRAM tensors: x, y"), std::string::npos) << unknown.out;

  // C_ACQ before the DMA that would release its lock: a deadlock.
  write(dir / "deadlock.s",
        "  S_ADDI r1, r0, ADDR_X\n  S_ADDI r3, r0, 32\n  S_ADDI r4, r0, 16\n  C_ACQ 0\n"
        "  C_DMALD 0, r0, r1, r3, r4, 0\n  C_HALT\n");
  const std::string deadlock = (dir / "deadlock.s").string();
  const auto capped = kcraft("debug vliw relu " + deadlock + " --cycle-cap 2000");
  EXPECT_EQ(capped.code, 0) << capped.out;
  EXPECT_EQ(capped.out.find("internal error"), std::string::npos) << capped.out;
  EXPECT_NE(capped.out.find("RTL stopped: cycle cap 2000 reached at pc 3"), std::string::npos) << capped.out;
  EXPECT_NE(capped.out.find("a lock deadlock"), std::string::npos) << capped.out;
  const auto eval = kcraft("eval vliw relu " + deadlock + " --cycle-cap 2000 --no-cache");
  EXPECT_EQ(eval.code, 1) << eval.out;
  EXPECT_NE(eval.out.find("cycle cap 2000 reached at pc 3"), std::string::npos) << eval.out;
  const auto at = kcraft_json("debug vliw relu " + deadlock + " --stop-at-cycle 300 --json");
  EXPECT_EQ(at["rtl"]["cycle"], 300) << at.dump(2);
  EXPECT_NE(at["rtl"]["why"].get<std::string>().find("a lock deadlock"), std::string::npos) << at.dump(2);
}

}  // namespace

namespace {

// A copy of the data root (task specs, every platform's hardware configurations) to change files in.
fs::path data_root_copy(const std::string& name) {
  auto root = temp_dir(name);
  fs::create_directories(root / "tasks");
  fs::copy(fs::path(KCRAFT_SOURCE_DIR) / "tasks" / "specs", root / "tasks" / "specs",
           fs::copy_options::recursive);
  for (const auto& dir : fs::directory_iterator(fs::path(KCRAFT_SOURCE_DIR) / "rtl")) {
    if (!fs::is_directory(dir.path() / "configs")) continue;
    fs::create_directories(root / "rtl" / dir.path().filename());
    fs::copy(dir.path() / "configs", root / "rtl" / dir.path().filename() / "configs",
             fs::copy_options::recursive);
  }
  return root;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// `kcraft eval` through the evaluation cache: the same run again is the stored result, nothing simulated;
// --no-cache simulates; a changed DRAM latency (a runtime parameter in the data root's YAML) misses and takes
// other cycles, while a copy of the data root with the same contents hits.
TEST(Cli, EvalTakesARunAskedForBeforeFromTheEvaluationCache) {
  auto dir = temp_dir("eval_cache");
  const std::string db = (dir / "cache.db").string();
  auto base = kcraft("baseline systolic relu --config C2");
  ASSERT_EQ(base.code, 0) << base.out;
  write(dir / "relu.s", base.out);
  const std::string eval = "eval systolic relu " + (dir / "relu.s").string() + " --config C2 --db " + db;
  auto first = kcraft_json(eval + " --json");
  EXPECT_EQ(first["verdict"], "pass");
  EXPECT_EQ(first["cache"], "miss");
  auto second = kcraft_json(eval + " --json");
  EXPECT_EQ(second["cache"], "hit");
  first.erase("cache");
  second.erase("cache");
  EXPECT_EQ(second, first);
  auto text = kcraft(eval);
  EXPECT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("(from the evaluation cache"), std::string::npos) << text.out;
  auto uncached = kcraft_json(eval + " --no-cache --json");
  EXPECT_FALSE(uncached.contains("cache")) << uncached.dump();
  EXPECT_EQ(uncached["cycles"], first["cycles"]);

  // The same files under another data root: the key is their contents, so it hits.
  const auto root = data_root_copy("eval_cache_root");
  EXPECT_EQ(kcraft_json(eval + " --root " + root.string() + " --json")["cache"], "hit");
  // A slower DRAM in the default configuration's YAML: a miss, and more cycles.
  std::ifstream in(root / "rtl" / "systolic" / "configs" / "default.yaml");
  const std::string yaml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  write(root / "rtl" / "systolic" / "configs" / "default.yaml",
        replaced(yaml, "dram_latency_cycles: 40", "dram_latency_cycles: 400"));
  auto slow = kcraft_json(eval + " --root " + root.string() + " --json");
  EXPECT_EQ(slow["cache"], "miss");
  EXPECT_EQ(slow["verdict"], "pass");
  EXPECT_GT(slow["cycles"].get<uint64_t>(), first["cycles"].get<uint64_t>());
  // A changed seed misses too; a bad database path is not fatal: the run simulates without the cache.
  EXPECT_EQ(kcraft_json(eval + " --seed 2 --json")["cache"], "miss");
  auto no_db =
      kcraft("eval systolic relu " + (dir / "relu.s").string() + " --config C2 --db /proc/no/such.db");
  EXPECT_EQ(no_db.code, 0) << no_db.out;
  EXPECT_NE(no_db.out.find("without the evaluation cache"), std::string::npos) << no_db.out;
}

}  // namespace
