#include "cli/validate.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "isa/common/disassembler.h"
#include "isa/systolic/random_program.h"
#include "systolic_isa.h"
#include "tasks/common/inputs.h"
#include "tasks/systolic/template_compiler.h"
#include "tb/common/dram_model.h"
#include "tb/common/paths.h"
#include "tb/systolic/systolic_diff.h"
#include "tb/systolic/systolic_hw.h"
#include "tb/systolic/systolic_platform.h"
#include "tb/systolic/systolic_regs.h"
#include "tb/systolic/systolic_sim.h"

namespace kcraft::cli {

namespace {

struct ValidateArgs {
  std::string platform;
  std::string hw = "default";
  uint64_t programs = 200;
  uint64_t seed = 1;
  unsigned length = 160;
};

int run_validate(const GlobalOptions& g, const ValidateArgs& a) {
  if (a.platform != "systolic")
    throw UsageError("unknown platform '" + a.platform + "' (available: systolic)");
  systolic::SystolicPlatform platform;
  const auto params = platform.params(a.hw);
  systolic::RandomProgramOptions options;
  options.length = a.length;
  uint64_t cycles = 0, instructions = 0, faulted = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < a.programs; ++i) {
    const uint64_t seed = a.seed + i;
    auto prog = systolic::random_program(params, seed, options);
    auto outcome = systolic::compare_rtl_and_model(a.hw, prog.words, prog.dram);
    cycles += outcome.cycles;
    instructions += outcome.instructions;
    faulted += outcome.halted_with_error ? 1 : 0;
    if (outcome.divergence) {
      const auto& d = *outcome.divergence;
      if (g.json) {
        nlohmann::json words = nlohmann::json::array();
        for (auto w : prog.words) words.push_back(w);
        std::cout
            << nlohmann::json{{"result", "divergence"},       {"program_seed", seed}, {"pc", d.pc},
                              {"instruction", d.instruction}, {"difference", d.what}, {"program", words}}
                   .dump(2)
            << "\n";
      } else {
        std::cout << fmt::format("DIVERGENCE in random program seed {} ({} instructions)\n", seed,
                                 prog.words.size());
        std::cout << fmt::format("first diverging instruction: pc {}: {}\n", d.pc, d.instruction);
        std::cout << fmt::format("state difference (RTL vs model): {}\n", d.what);
        std::cout << fmt::format(
            "reproduce: kcraft validate systolic --hw {} --seed {} --programs 1 --length {}\n", a.hw, seed,
            a.length);
        std::cout << "program:\n" << isa::disassemble_program(isa::systolic::spec(), prog.words, {true});
      }
      return kExitHardwareBug;
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (g.json) {
    std::cout << nlohmann::json{{"result", "agree"},
                                {"programs", a.programs},
                                {"faulting_programs", faulted},
                                {"rtl_cycles", cycles},
                                {"instructions", instructions},
                                {"seconds", wall}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << fmt::format(
        "{} random programs (seeds {}..{}, {} instructions executed, {} RTL cycles, {} ending in a "
        "deliberate "
        "fault): RTL and functional model agree on every register, SRAM, accumulator, weight, DRAM byte, "
        "error and architectural counter ({:.1f} s)\n",
        a.programs, a.seed, a.seed + a.programs - 1, instructions, cycles, faulted, wall);
  }
  return kExitOk;
}

// ---------------------------------------------------------------- speed
struct SpeedArgs {
  std::string platform;
  std::string hw = "default";
  std::string task = "gemm";
  std::string config = "C4";
  unsigned repeats = 3;
};

class BarePort : public systolic::MemoryPort {
 public:
  explicit BarePort(tb::DramModel& dram) : dram_(dram) {}
  uint64_t access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t cycle,
                  uint32_t pc) override {
    return dram_.access(write, addr, data, len, cycle, pc);
  }

 private:
  tb::DramModel& dram_;
};

int run_speed(const GlobalOptions& g, const SpeedArgs& a) {
  if (a.platform != "systolic")
    throw UsageError("unknown platform '" + a.platform + "' (available: systolic)");
  auto registry = tasks::TaskRegistry::load_directory(task_spec_dir());
  systolic::SystolicPlatform platform;
  const HwConfig& hw = platform.hw_config(a.hw);
  auto cfg = registry.get(a.task).resolve(a.config, systolic::SystolicPlatform::kDType);
  auto layout = platform.layout(cfg);
  systolic::TemplateCompiler compiler(platform.params(a.hw));
  auto kernel = compiler.generate(cfg, layout);
  auto assembled = platform.assemble(kernel.source, "speed.s", platform.symbols(a.hw, &cfg, &layout));
  if (!assembled.ok) throw std::runtime_error("baseline kernel does not assemble");
  auto image = tasks::make_dram_image(layout, tasks::make_inputs(cfg, 1));
  image.resize(layout.total_bytes, 0xFF);
  tb::DramTiming timing{static_cast<uint64_t>(hw.runtime_param("dram_latency_cycles")),
                        static_cast<uint64_t>(hw.runtime_param("dram_bytes_per_cycle"))};

  // SystemC: the full testbench (accelerator module, TLM DRAM target, host) as every eval uses it.
  systolic::RunJob job;
  job.config = a.hw;
  job.program = assembled.words;
  job.dram = image;
  job.timing = timing;
  // Bare: the same Verilated configuration driven from a plain C++ loop with the same DRAM model.
  auto bare = systolic::make_systolic_hw(a.hw);
  tb::DramModel dram;
  dram.configure(timing);
  BarePort port(dram);

  std::vector<double> sc_rates, bare_rates;
  uint64_t cycles = 0;
  for (unsigned r = 0; r < a.repeats; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    auto result = systolic::run_on_rtl(job);
    double sc = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cycles = result.cycles;
    sc_rates.push_back(static_cast<double>(result.cycles) / sc);

    t0 = std::chrono::steady_clock::now();
    dram.load(image);
    bare->reset_and_clear();
    bare->load_program(assembled.words);
    bare->ctl_write(systolic::regs::kCtlDramBytes, static_cast<uint32_t>(image.size()));
    bare->ctl_write(systolic::regs::kCtlStart, 1);
    while (!bare->halted()) bare->run_cycles(1'000'000, port);
    (void)bare->counters();
    double bt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (bare->cycle() != result.cycles) {
      throw std::runtime_error(
          fmt::format("bare run took {} cycles, SystemC run {}", bare->cycle(), result.cycles));
    }
    bare_rates.push_back(static_cast<double>(bare->cycle()) / bt);
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const double sc = median(sc_rates), bt = median(bare_rates);
  if (g.json) {
    std::cout << nlohmann::json{{"workload", a.task + " " + a.config + " baseline"},
                                {"hw_config", a.hw},
                                {"cycles", cycles},
                                {"systemc_cycles_per_second", sc},
                                {"bare_cycles_per_second", bt},
                                {"ratio", sc / bt},
                                {"repeats", a.repeats}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << fmt::format(
        "workload: {} {} baseline on systolic/{}, {} cycles per run, median of {} runs\n", a.task, a.config,
        a.hw, cycles, a.repeats);
    std::cout << fmt::format("  SystemC testbench : {:>10.0f} cycles/s\n", sc);
    std::cout << fmt::format("  bare Verilator    : {:>10.0f} cycles/s\n", bt);
    std::cout << fmt::format("  ratio SystemC/bare: {:.3f}  (target >= 0.7)\n", sc / bt);
  }
  return kExitOk;
}

}  // namespace

void register_validate_commands(CLI::App& app, GlobalOptions& g, std::function<int()>& run) {
  static ValidateArgs v;
  auto* validate =
      app.add_subcommand("validate", "random differential campaign: RTL against the functional model");
  validate->add_option("platform", v.platform, "platform")->required();
  validate->add_option("--hw", v.hw, "hardware configuration")->capture_default_str();
  validate->add_option("--programs", v.programs, "number of random programs")->capture_default_str();
  validate->add_option("--seed", v.seed, "seed of the first program")->capture_default_str();
  validate->add_option("--length", v.length, "instructions per program")->capture_default_str();
  validate->callback([&] { run = [&] { return run_validate(g, v); }; });

  static SpeedArgs s;
  auto* speed =
      app.add_subcommand("speed", "simulated cycles per second: SystemC testbench vs bare Verilator");
  speed->add_option("platform", s.platform, "platform")->required();
  speed->add_option("--hw", s.hw, "hardware configuration")->capture_default_str();
  speed->add_option("--task", s.task, "workload: this task's baseline kernel")->capture_default_str();
  speed->add_option("--config", s.config, "workload configuration")->capture_default_str();
  speed->add_option("--repeats", s.repeats, "runs of each (the median is reported)")->capture_default_str();
  speed->callback([&] { run = [&] { return run_speed(g, s); }; });
}

}  // namespace kcraft::cli
