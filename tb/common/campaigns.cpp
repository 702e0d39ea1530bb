#include "tb/common/campaigns.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include <fmt/format.h>

namespace kcraft::tb {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
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
  std::vector<double> sc_rates, bare_rates;
  uint64_t cycles = 0;
  const unsigned repeats = std::max(1u, a.repeats);
  for (unsigned r = 0; r < repeats; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    cycles = systemc_run();
    sc_rates.push_back(static_cast<double>(cycles) / seconds_since(t0));
    t0 = std::chrono::steady_clock::now();
    const uint64_t bare_cycles = bare_run();
    bare_rates.push_back(static_cast<double>(bare_cycles) / seconds_since(t0));
    if (bare_cycles != cycles)
      throw std::runtime_error(fmt::format("bare run took {} cycles, SystemC run {}", bare_cycles, cycles));
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const double sc = median(sc_rates), bt = median(bare_rates);
  CommandReport report;
  report.json = {{"workload", a.task + " " + a.config + " baseline"},
                 {"hw_config", a.hw_config},
                 {"cycles", cycles},
                 {"systemc_cycles_per_second", sc},
                 {"bare_cycles_per_second", bt},
                 {"ratio", sc / bt},
                 {"repeats", repeats}};
  report.text = fmt::format("workload: {} {} baseline on {}/{}, {} cycles per run, median of {} runs\n",
                            a.task, a.config, platform, a.hw_config, cycles, repeats);
  report.text += fmt::format("  SystemC testbench : {:>10.0f} cycles/s\n", sc);
  report.text += fmt::format("  bare Verilator    : {:>10.0f} cycles/s\n", bt);
  report.text += fmt::format("  ratio SystemC/bare: {:.3f}  (target >= {})\n", sc / bt, target_ratio);
  return report;
}

}  // namespace kcraft::tb
