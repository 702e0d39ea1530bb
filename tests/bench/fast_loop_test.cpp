// The fast loops of `kcraft bench`: a sweep run again takes every evaluation from the evaluation cache and
// stores the same results; a hardware configuration not compiled into the binary is built on first use.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/bench/test_util.h"

namespace kcraft::bench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Output {
  int code = -1;
  std::string out, err;
};

// Runs kcraft with `args` in `dir`; stdout and stderr apart.
Output kcraft_in(const fs::path& dir, const std::string& args) {
  const fs::path err = dir / "stderr.txt";
  const std::string cmd =
      "cd '" + dir.string() + "' && " + std::string(KCRAFT_BIN) + " " + args + " 2>'" + err.string() + "'";
  Output r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err);
  r.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return r;
}

// What must not change when a run is taken from the cache instead of simulated.
json outcome(const json& row) {
  json o;
  for (const char* field : {"verdict", "seed_verdicts", "cycles", "baseline_cycles", "speedup", "utilization",
                            "counters", "kernel", "iterations", "evaluations", "tuned_baseline_cycles"}) {
    if (row.contains(field)) o[field] = row[field];
  }
  return o;
}

std::map<std::string, json> outcomes(const json& result) {
  std::map<std::string, json> by_key;
  for (const auto& row : result.at("runs")) {
    by_key[row.at("platform").get<std::string>() + "/" + row.at("hw_config").get<std::string>() + "/" +
           row.at("task").get<std::string>() + "/" + row.at("config").get<std::string>() + "/" +
           row.at("agent").get<std::string>()] = outcome(row);
  }
  return by_key;
}

// A second sweep of the same runs (--rerun) simulates nothing and stores identical results; --no-cache
// simulates them again, with the same results.
TEST(FastLoops, ASweepRunAgainTakesEveryEvaluationFromTheCache) {
  const auto dir = testing::fresh_dir("rerun_cache");
  const std::string sweep =
      "--json bench --tasks relu,softmax --configs C1 --hw default --agents baseline,tuner --budget 4 --jobs "
      "2 "
      "--progress none --transcripts none --db " +
      (dir / "r.db").string();
  const auto first = kcraft_in(dir, sweep);
  ASSERT_EQ(first.code, 0) << first.err;
  const auto a = json::parse(first.out);
  EXPECT_GT(a["sweep"]["evaluations"]["simulated"].get<uint64_t>(), 0u) << a["sweep"].dump();
  ASSERT_FALSE(a["runs"].empty());
  for (const auto& row : a["runs"]) EXPECT_EQ(row["verdict"], "pass") << row.dump();

  const auto second = kcraft_in(dir, sweep + " --rerun");
  ASSERT_EQ(second.code, 0) << second.err;
  const auto b = json::parse(second.out);
  EXPECT_EQ(b["sweep"]["ran"], a["sweep"]["ran"]);
  EXPECT_EQ(b["sweep"]["evaluations"]["simulated"], 0u) << b["sweep"].dump();
  EXPECT_GT(b["sweep"]["evaluations"]["cached"].get<uint64_t>(), 0u);
  EXPECT_EQ(outcomes(b), outcomes(a));

  const auto third = kcraft_in(dir, sweep + " --rerun --no-cache");
  ASSERT_EQ(third.code, 0) << third.err;
  const auto c = json::parse(third.out);
  EXPECT_EQ(c["sweep"]["evaluations"]["cached"], 0u) << c["sweep"].dump();
  EXPECT_EQ(outcomes(c), outcomes(a));
  fs::remove_all(dir);
}

// A hardware configuration of the data root that the binary was not built with, whose build parameters
// are another configuration's (here the default's with an 8x8 array, the variant the explore test builds,
// sharing its cache): `eval` builds its model on first use with a progress line, later uses find it.
TEST(FastLoops, AConfigurationNotCompiledInIsBuiltOnFirstUse) {
  const auto dir = testing::fresh_dir("first_use");
  const fs::path root = dir / "root";
  fs::create_directories(root / "tasks");
  fs::copy(fs::path(KCRAFT_SOURCE_DIR) / "tasks" / "specs", root / "tasks" / "specs",
           fs::copy_options::recursive);
  for (const auto& p : fs::directory_iterator(fs::path(KCRAFT_SOURCE_DIR) / "rtl")) {
    if (!fs::is_directory(p.path() / "configs")) continue;
    fs::create_directories(root / "rtl" / p.path().filename());
    fs::copy(p.path() / "configs", root / "rtl" / p.path().filename() / "configs",
             fs::copy_options::recursive);
  }
  // The systolic RTL ties VLEN to MLEN; the rest as in default.yaml.
  std::ifstream in(root / "rtl" / "systolic" / "configs" / "default.yaml");
  std::string yaml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"name: default", "name: mlen8"}, {"MLEN: 16", "MLEN: 8"}, {"VLEN: 16", "VLEN: 8"}}) {
    const auto at = yaml.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    yaml.replace(at, from.size(), to);
  }
  std::ofstream(root / "rtl" / "systolic" / "configs" / "mlen8.yaml") << yaml;
  ::setenv("KCRAFT_VARIANT_CACHE", KCRAFT_TEST_VARIANT_CACHE, 1);
  const auto baseline =
      kcraft_in(dir, "baseline systolic relu --config C1 --hw mlen8 --root " + root.string());
  ASSERT_EQ(baseline.code, 0) << baseline.err;
  std::ofstream(dir / "relu.s") << baseline.out;
  const std::string eval = "--json eval systolic relu " + (dir / "relu.s").string() +
                           " --hw mlen8 --no-cache --root " + root.string();
  const auto first = kcraft_in(dir, eval);
  ASSERT_EQ(first.code, 0) << first.err << first.out;
  const auto j = json::parse(first.out);
  EXPECT_EQ(j["verdict"], "pass") << j.dump();
  EXPECT_EQ(j["model_check"], "agree");
  const bool built_now =
      first.err.find("building the Verilated model of systolic/mlen8 on first use") != std::string::npos;
  // Built by this process, or by another one (the explore test builds the same variant) while it waited.
  if (built_now) {
    EXPECT_TRUE(first.err.find("built the Verilated model of systolic/mlen8 in") != std::string::npos ||
                first.err.find("another kcraft process built the Verilated model of systolic/mlen8") !=
                    std::string::npos)
        << first.err;
  }
  std::cout << "systolic/mlen8: " << (built_now ? "built on first use" : "found in the variant cache")
            << "\n";
  const auto second = kcraft_in(dir, eval);
  ASSERT_EQ(second.code, 0) << second.err;
  EXPECT_EQ(second.err.find("building the Verilated model"), std::string::npos) << second.err;
  EXPECT_EQ(json::parse(second.out)["cycles"], j["cycles"]);
  // `kcraft platforms` says where each configuration's model comes from.
  const auto platforms = kcraft_in(dir, "--json platforms --root " + root.string());
  ASSERT_EQ(platforms.code, 0) << platforms.err;
  std::map<std::string, std::string> model;
  for (const auto& c : json::parse(platforms.out))
    if (c["platform"] == "systolic") model[c["config"].get<std::string>()] = c["model"].get<std::string>();
  EXPECT_EQ(model["default"], "compiled in");
  EXPECT_EQ(model["mlen8"].rfind("built on first use (ready in ", 0), 0u) << model["mlen8"];
  fs::remove_all(dir);
}

}  // namespace
}  // namespace kcraft::bench
