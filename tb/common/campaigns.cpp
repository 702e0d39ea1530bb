#include "tb/common/campaigns.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <stdexcept>

#include <fmt/format.h>

namespace kcraft::tb {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// CPU time of this process: what a run costs, whatever else the machine is doing.
double cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

CommandReport run_validation_campaign(const std::string& platform, const ValidationOptions& a,
                                      const CampaignWording& wording,
                                      const std::function<CampaignStep(uint64_t seed)>& step) {
  const std::string units = wording.unit + "s";
  uint64_t cycles = 0, issued = 0, faulted = 0;
  const auto t0 = std::chrono::steady_clock::now();
  CommandReport report;
  for (uint64_t i = 0; i < a.programs; ++i) {
    const uint64_t seed = a.seed + i;
    const CampaignStep s = step(seed);
    cycles += s.cycles;
    issued += s.issued;
    faulted += s.faulted ? 1 : 0;
    if (!s.divergence) continue;
    const CampaignDivergence& d = *s.divergence;
    nlohmann::json words = nlohmann::json::array();
    for (uint32_t w : s.words) words.push_back(w);
    report.ok = false;
    report.json = {{"result", "divergence"}, {"program_seed", seed},       {"pc", d.pc},
                   {wording.unit, d.issued}, {"difference", d.difference}, {"program", words}};
    report.text = fmt::format("DIVERGENCE in random program seed {} ({} words)\n", seed, s.words.size());
    report.text += fmt::format("first diverging {}: pc {}: {}\n", wording.unit, d.pc, d.issued);
    report.text += fmt::format("state difference (RTL vs model): {}\n", d.difference);
    report.text += fmt::format("reproduce: kcraft validate {} --hw {} --seed {} --programs 1 --length {}\n",
                               platform, a.hw_config, seed, a.length);
    report.text += "program:\n" + s.listing;
    return report;
  }
  const double wall = seconds_since(t0);
  report.json = {{"result", "agree"},    {"programs", a.programs}, {"faulting_programs", faulted},
                 {"rtl_cycles", cycles}, {units, issued},          {"seconds", wall}};
  report.text = fmt::format(
      "{} random programs on {}/{} (seeds {}..{}, {} {} issued, {} RTL cycles, {} ending in a deliberate "
      "fault): "
      "RTL and functional model agree on {} ({:.1f} s)\n",
      a.programs, platform, a.hw_config, a.seed, a.seed + a.programs - 1, issued, units, cycles, faulted,
      wording.agreed_on, wall);
  return report;
}

CommandReport run_speed_comparison(const std::string& platform, const SpeedOptions& a, double target_ratio,
                                   const std::function<uint64_t()>& systemc_run,
                                   const std::function<uint64_t()>& bare_run) {
  // Rates per wall second and per CPU second of each run; the CPU rates are the platform's speed figures
  // (docs/simulation-speed.md), the wall rates what a user waits.
  std::vector<double> sc_wall, sc_cpu, bare_wall, bare_cpu;
  uint64_t cycles = 0;
  const unsigned repeats = std::max(1u, a.repeats);
  auto timed = [](const std::function<uint64_t()>& run, std::vector<double>& wall, std::vector<double>& cpu) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_seconds();
    const uint64_t n = run();
    cpu.push_back(static_cast<double>(n) / std::max(1e-9, cpu_seconds() - c0));
    wall.push_back(static_cast<double>(n) / std::max(1e-9, seconds_since(t0)));
    return n;
  };
  for (unsigned r = 0; r < repeats; ++r) {
    cycles = timed(systemc_run, sc_wall, sc_cpu);
    const uint64_t bare_cycles = timed(bare_run, bare_wall, bare_cpu);
    if (bare_cycles != cycles)
      throw std::runtime_error(fmt::format("bare run took {} cycles, SystemC run {}", bare_cycles, cycles));
  }
  const double sc = median(sc_cpu), bt = median(bare_cpu);
  CommandReport report;
  report.json = {{"platform", platform},
                 {"workload", a.task + " " + a.config + " baseline"},
                 {"task", a.task},
                 {"config", a.config},
                 {"hw_config", a.hw_config},
                 {"cycles", cycles},
                 {"systemc_cycles_per_cpu_second", sc},
                 {"bare_cycles_per_cpu_second", bt},
                 {"systemc_cycles_per_second", median(sc_wall)},
                 {"bare_cycles_per_second", median(bare_wall)},
                 {"ratio", sc / bt},
                 {"target_ratio", target_ratio},
                 {"repeats", repeats}};
  report.text = fmt::format("{:<22} {:>12} {:>14.0f} {:>14.0f} {:>8.3f}\n", a.task + " " + a.config, cycles,
                            sc, bt, sc / bt);
  return report;
}

}  // namespace kcraft::tb
