// kcraft explore's pieces that need no simulation: --set parsing, variants from a base configuration
// (names, the cartesian product, which need a build, the errors naming a parameter) and the Pareto front.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <tuple>

#include <unistd.h>

#include "agent/bench/explore.h"
#include "tb/common/hw_variants.h"
#include "tb/common/paths.h"

namespace kcraft::bench {
namespace {

const char* kBaseYaml = R"(platform: toy
name: default
description: a toy
build:
  LANES: 16
  MEM_ROWS: 1024
runtime:
  dram_latency_cycles: 40
  dram_bytes_per_cycle: 32
)";

HwConfig base() {
  return parse_hw_config(kBaseYaml, "toy/default.yaml");
}

std::vector<Variant> variants(const std::vector<std::string>& sets) {
  std::vector<ParameterValues> parsed;
  for (const auto& s : sets) parsed.push_back(parse_parameter_values(s));
  return make_variants("toy", base(), kBaseYaml, parsed, {base()});
}

std::string error_of(const std::vector<std::string>& sets) {
  try {
    variants(sets);
  } catch (const ExploreError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Explore, SetParsesNamesAndValuesAndRejectsMalformedText) {
  const auto p = parse_parameter_values("LANES,MEM_ROWS=8,16");
  EXPECT_EQ(p.names, (std::vector<std::string>{"LANES", "MEM_ROWS"}));
  EXPECT_EQ(p.values, (std::vector<std::string>{"8", "16"}));
  for (const char* bad : {"LANES", "=8", "LANES=", "LANES=8,,16", "LANES=8,8"})
    EXPECT_THROW(parse_parameter_values(bad), ExploreError) << bad;
}

TEST(Explore, VariantsAreTheCartesianProductWithDistinctStableNames) {
  const auto v = variants({"dram_latency_cycles=40,90,200", "LANES=8,16"});
  ASSERT_EQ(v.size(), 6u);
  std::set<std::string> names;
  for (const auto& x : v) names.insert(x.name);
  EXPECT_EQ(names.size(), 6u);
  // The first --set varies slowest; the file carries the values and the name.
  EXPECT_EQ(v[1].settings_text(), "dram_latency_cycles=40, LANES=16");
  EXPECT_EQ(v[5].config.runtime.at("dram_latency_cycles"), 200);
  EXPECT_EQ(v[5].config.build.at("LANES"), 16);
  EXPECT_EQ(v[4].config.build.at("LANES"), 8);
  EXPECT_EQ(parse_hw_config(v[4].yaml, "x").name, v[4].name);
  EXPECT_EQ(v[4].name.rfind("dlc200_lanes8_", 0), 0u) << v[4].name;
  // The same parameters give the same name in another exploration.
  EXPECT_EQ(variants({"LANES=8", "dram_latency_cycles=200"})[0].name.substr(v[4].name.size() - 8),
            v[4].name.substr(v[4].name.size() - 8));
}

TEST(Explore, OnlyVariantsWithNewBuildParametersNeedABuild) {
  const auto v = variants({"LANES=8,16", "dram_bytes_per_cycle=8,32"});
  for (const auto& x : v) EXPECT_EQ(x.needs_build, x.config.build.at("LANES") == 8) << x.name;
  // Runtime-only variants share the base's synthesis result.
  EXPECT_EQ(v[2].build_hash, v[3].build_hash);
  EXPECT_NE(v[0].build_hash, v[2].build_hash);
}

TEST(Explore, BadParametersAreErrorsNamingThem) {
  EXPECT_NE(error_of({"LANE=8"}).find("--set LANE: not a parameter of toy/default"), std::string::npos)
      << error_of({"LANE=8"});
  EXPECT_NE(error_of({"LANE=8"}).find("build: LANES, MEM_ROWS; runtime: dram_bytes_per_cycle"),
            std::string::npos);
  EXPECT_NE(error_of({"LANES=eight"}).find("build.LANES: expected an integer, got 'eight'"),
            std::string::npos)
      << error_of({"LANES=eight"});
  EXPECT_NE(error_of({"dram_latency_cycles=-5"}).find("runtime.dram_latency_cycles"), std::string::npos)
      << error_of({"dram_latency_cycles=-5"});
  EXPECT_NE(error_of({"LANES=8", "LANES=4"}).find("LANES is given twice"), std::string::npos);
  EXPECT_THROW(variants({}), ExploreError);
}

TEST(Explore, ParetoFrontKeepsThePointsNothingDominates) {
  // (cells, cycles): smaller is better in both.
  const std::vector<std::pair<double, double>> points = {
      {100, 900},  // front: smallest
      {200, 500},  // front
      {250, 500},  // dominated by (200, 500): bigger, not faster
      {300, 600},  // dominated by (200, 500)
      {400, 200},  // front: fastest
      {400, 200},  // an equal twin: neither dominates the other
      {500, 200},  // dominated by (400, 200)
  };
  EXPECT_EQ(pareto_front(points), (std::vector<bool>{true, true, false, false, true, true, false}));
  EXPECT_TRUE(pareto_front({}).empty());
  EXPECT_EQ(pareto_front({{1, 1}}), std::vector<bool>{true});
}

// An exploration with sizes as run_exploration fills it: four variants, one of them dominated.
Exploration hand_made_exploration() {
  Exploration e;
  e.platform = "toy";
  e.base = "default";
  e.parameters = {"LANES"};
  e.cells = {"gemm/C1"};
  const std::vector<std::tuple<std::string, uint64_t, double>> points = {
      {"4", 1000, 900}, {"8", 2000, 500}, {"12", 3500, 700}, {"16", 4000, 300}};
  std::vector<std::pair<double, double>> xy;
  for (const auto& [lanes, cells, cycles] : points) {
    VariantResult r;
    r.variant = variants({"LANES=" + lanes})[0];
    r.size = SynthesisSize{cells, 2, 1, true};
    r.geomean_cycles = cycles;
    r.mean_utilization = 0.5;
    r.best_cycles["gemm/C1"] = static_cast<uint64_t>(cycles);
    r.best_utilization["gemm/C1"] = 0.5;
    r.passed = 1;
    xy.emplace_back(static_cast<double>(cells), cycles);
    e.variants.push_back(r);
  }
  const auto front = pareto_front(xy);
  for (size_t i = 0; i < front.size(); ++i) e.variants[i].pareto = front[i];
  return e;
}

size_t occurrences(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(Explore, ReportsMarkTheParetoFrontInTheTableChartCsvAndJson) {
  const auto e = hand_made_exploration();
  const auto html = exploration_html(e);
  EXPECT_EQ(occurrences(html, "<circle"), 4u);
  EXPECT_EQ(occurrences(html, "class=\"point pareto\""), 3u);  // LANES=12 is bigger and slower than 8
  EXPECT_EQ(occurrences(html, "<tr class=\"front\""), 3u);
  EXPECT_NE(html.find("<polyline id=\"front\""), std::string::npos);
  EXPECT_NE(html.find("(LANES=12): 3500 cells, 700 cycles"), std::string::npos) << html;
  const auto text = exploration_text(e);
  EXPECT_EQ(occurrences(text, "  *\n"), 3u) << text;
  const auto j = exploration_json(e);
  EXPECT_FALSE(j["variants"][2]["pareto"].get<bool>());
  EXPECT_EQ(j["variants"][2]["yosys_cells"], 3500);
  const auto csv_file = std::filesystem::temp_directory_path() / "kcraft_explore_test.csv";
  write_exploration_csv(e, csv_file);
  std::ifstream in(csv_file);
  std::string header, row;
  std::getline(in, header);
  EXPECT_EQ(header, "variant,LANES,yosys_cells,geomean_cycles,pareto,task,config,cycles,utilization,status");
  std::getline(in, row);
  EXPECT_NE(row.find(",4,1000,900.0,1,gemm,C1,900,0.5000,pass"), std::string::npos) << row;
  std::filesystem::remove(csv_file);
  if (const char* out = std::getenv("KCRAFT_EXPLORE_HTML_SAMPLE")) std::ofstream(out) << html;  // to look at
}

// How a process finds the model of a configuration it has no build of (tb/common/hw_variants.h), on a
// data root made here: `default` is built in, `slow` shares its build parameters, `wide` has a plugin
// file, `odd` has neither.
TEST(Explore, DataRootVariantsRunOnTheBuiltInModelOfTheirBuildParametersOrTheirPlugin) {
  namespace fs = std::filesystem;
  const auto root = fs::temp_directory_path() / ("kcraft_hw_variants_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "rtl" / "toy" / "configs");
  fs::create_directories(root / "rtl" / "toy" / "models");
  const auto write = [&](const std::string& name, const std::string& yaml) {
    std::string text = kBaseYaml;
    text.replace(text.find("name: default"), 13, "name: " + name);
    if (!yaml.empty()) text.replace(text.find("LANES: 16"), 9, yaml);
    std::ofstream(root / "rtl" / "toy" / "configs" / (name + ".yaml")) << text;
  };
  write("default", "");
  write("slow", "");
  write("wide", "LANES: 32");
  write("odd", "LANES: 4");
  std::ofstream(root / "rtl" / "toy" / "models" / "wide.so") << "not a shared library";
  const auto previous = kcraft::root();
  kcraft::set_root(root);
  const std::vector<std::string> builtin = {"default"};
  EXPECT_EQ(tb::configs_with_variants("toy", builtin), (std::vector<std::string>{"default", "slow", "wide"}));
  ASSERT_TRUE(tb::find_variant_model("toy", "slow", builtin));
  EXPECT_EQ(tb::find_variant_model("toy", "slow", builtin)->builtin, "default");
  ASSERT_TRUE(tb::find_variant_model("toy", "wide", builtin));
  EXPECT_EQ(tb::find_variant_model("toy", "wide", builtin)->plugin,
            root / "rtl" / "toy" / "models" / "wide.so");
  EXPECT_FALSE(tb::find_variant_model("toy", "odd", builtin));
  EXPECT_FALSE(tb::find_variant_model("toy", "missing", builtin));
  // A file that is not a plugin is an error naming it, not a crash.
  try {
    tb::load_variant_plugin(root / "rtl" / "toy" / "models" / "wide.so", "toy", "wide");
    ADD_FAILURE() << "loaded a text file as a plugin";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot load the hardware variant"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("wide.so"), std::string::npos) << e.what();
  }
  kcraft::set_root(previous);
  fs::remove_all(root);
}

}  // namespace
}  // namespace kcraft::bench
