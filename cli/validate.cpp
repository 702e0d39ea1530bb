#include "cli/validate.h"

#include <algorithm>
#include <iostream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tasks/common/task_spec.h"
#include "tb/common/coverage.h"
#include "tb/common/paths.h"
#include "tb/common/platform.h"

namespace kcraft::cli {

namespace {

struct ValidateArgs {
  std::string platform;
  ValidationOptions options;
  std::string steer;  // a `kcraft coverage --json` file
};

// The bins a coverage report never hit: what --steer aims the random generator at.
std::vector<CoverageBinName> steer_focus(const std::string& path) {
  if (path.empty()) return {};
  return tb::never_hit_bins(tb::load_coverage_json(path));
}

void print(const GlobalOptions& g, const CommandReport& report) {
  if (g.json) {
    std::cout << report.json.dump(2) << "\n";
  } else {
    std::cout << report.text;
  }
}

int run_validate(const GlobalOptions& g, ValidateArgs a) {
  a.options.focus = steer_focus(a.steer);
  const CommandReport report = require_platform(a.platform).validate(a.options);
  print(g, report);
  return report.ok ? kExitOk : kExitHardwareBug;
}

struct SpeedArgs {
  std::string platform;
  SpeedOptions options;
  std::string task, config;  // one workload; neither: the platform's fixed set
};

int run_speed(const GlobalOptions& g, const SpeedArgs& a) {
  const Platform& platform = require_platform(a.platform);
  if (a.task.empty() && !a.config.empty())
    throw std::invalid_argument("--config names the configuration of --task's workload: give --task too");
  std::vector<SpeedWorkload> workloads = platform.speed_workloads();
  if (!a.task.empty()) workloads = {{a.task, a.config.empty() ? std::string("C4") : a.config}};
  const auto registry = tasks::TaskRegistry::load_directory(task_spec_dir());
  CommandReport all;
  all.json = {{"platform", a.platform},
              {"hw_config", a.options.hw_config},
              {"repeats", a.options.repeats},
              {"workloads", nlohmann::json::array()}};
  all.text = fmt::format(
      "{}/{}: simulated cycles per CPU-second, median of {} runs of each baseline kernel\n"
      "{:<22} {:>12} {:>14} {:>14} {:>8}\n",
      a.platform, a.options.hw_config, std::max(1u, a.options.repeats), "workload", "cycles", "SystemC",
      "bare Verilator", "ratio");
  double target = 0;
  for (const auto& w : workloads) {
    SpeedOptions one = a.options;
    one.task = w.task;
    one.config = w.config;
    const CommandReport r = platform.speed(one, registry);
    all.json["workloads"].push_back(r.json);
    all.text += r.text;
    target = r.json.value("target_ratio", 0.0);
  }
  all.text += fmt::format("(ratio: SystemC testbench over bare Verilator, target >= {})\n", target);
  print(g, all);
  return kExitOk;
}

struct CoverageArgs {
  std::string platform;
  CoverageOptions options;
  std::string steer;
};

int run_coverage(const GlobalOptions& g, CoverageArgs a) {
  const Platform& platform = require_platform(a.platform);
  a.options.focus = steer_focus(a.steer);
  const auto registry = tasks::TaskRegistry::load_directory(task_spec_dir());
  print(g, platform.coverage(a.options, registry));
  return kExitOk;
}

struct ConformanceArgs {
  std::string platform;
  ConformanceOptions options;
};

int run_conformance(const GlobalOptions& g, const ConformanceArgs& a) {
  const CommandReport report = require_platform(a.platform).conformance(a.options);
  print(g, report);
  return report.ok ? kExitOk : kExitHardwareBug;
}

}  // namespace

void register_validate_commands(CLI::App& app, GlobalOptions& g, std::function<int()>& run) {
  static ValidateArgs v;
  auto* validate =
      app.add_subcommand("validate", "random differential campaign: RTL against the functional model");
  add_platform_argument(validate, v.platform);
  validate->add_option("--hw", v.options.hw_config, "hardware configuration")->capture_default_str();
  validate->add_option("--programs", v.options.programs, "number of random programs")->capture_default_str();
  validate->add_option("--seed", v.options.seed, "seed of the first program")->capture_default_str();
  validate->add_option("--length", v.options.length, "instructions per program")->capture_default_str();
  validate->add_option(
      "--steer", v.steer,
      "bias the random programs toward the bins this `kcraft coverage --json` file never hit");
  validate->callback([&] { run = [&] { return run_validate(g, v); }; });

  static SpeedArgs s;
  auto* speed = app.add_subcommand(
      "speed",
      "simulated cycles per CPU-second of a fixed set of workloads: SystemC testbench vs bare Verilator");
  add_platform_argument(speed, s.platform);
  speed->add_option("--hw", s.options.hw_config, "hardware configuration")->capture_default_str();
  speed->add_option("--task", s.task,
                    "one workload: this task's baseline kernel (default: the platform's set)");
  speed->add_option("--config", s.config, "that workload's configuration (default C4)");
  speed->add_option("--repeats", s.options.repeats, "runs of each (the median is reported)")
      ->capture_default_str();
  speed->callback([&] { run = [&] { return run_speed(g, s); }; });

  static CoverageArgs c;
  auto* coverage = app.add_subcommand(
      "coverage",
      "which instructions, operand classes, errors and stalls the directed programs, the random "
      "campaign and the task baselines exercise");
  add_platform_argument(coverage, c.platform);
  coverage->add_option("--hw", c.options.hw_config, "hardware configuration")->capture_default_str();
  coverage->add_option("--programs", c.options.programs, "random programs (kcraft validate's generator)")
      ->capture_default_str();
  coverage->add_option("--seed", c.options.seed, "seed of the first random program")->capture_default_str();
  coverage->add_option("--length", c.options.length, "instructions per random program")
      ->capture_default_str();
  coverage->add_option("--configs", c.options.configs, "task configurations whose baselines run")
      ->delimiter(',')
      ->capture_default_str();
  coverage->add_option("--html", c.options.html_path, "also write the report as an HTML page to this file");
  coverage->add_option("--steer", c.steer, "steer the random programs as `kcraft validate --steer` does");
  coverage->add_flag(
      "--rtl", c.options.rtl,
      "also Verilator line and toggle coverage of the RTL, per module (builds a coverage model once)");
  coverage->add_option("--rtl-dat", c.options.rtl_dat_dir,
                       "with --rtl: keep each source's Verilator coverage file (DIR/<source>.dat)");
  coverage->add_option("--jobs", c.options.jobs, "parallel compiles of the --rtl coverage build")
      ->capture_default_str();
  coverage->callback([&] { run = [&] { return run_coverage(g, c); }; });

  static ConformanceArgs k;
  auto* conformance = app.add_subcommand(
      "conformance",
      "an external test suite of a standard ISA (e.g. riscv-tests) on the RTL, its reference beside it");
  add_platform_argument(conformance, k.platform);
  conformance->add_option("--suite", k.options.suite_dir, "the suite's folder (a riscv-tests checkout)")
      ->required();
  conformance->add_option("--hw", k.options.hw_config, "hardware configuration")->capture_default_str();
  conformance->add_option("--only", k.options.only, "only these tests (\"add\" or \"rv32ui-add\")")
      ->delimiter(',');
  conformance->callback([&] { run = [&] { return run_conformance(g, k); }; });
}

}  // namespace kcraft::cli
