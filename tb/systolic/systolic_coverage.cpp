#include "tb/systolic/systolic_coverage.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "isa/systolic/random_program.h"
#include "isa/systolic/systolic_iss.h"
#include "systolic_isa.h"
#include "tb/common/coverage_report.h"
#include "tb/common/rtl_coverage.h"
#include "tb/systolic/systolic_platform.h"
#include "tb/systolic/systolic_sim.h"

namespace kcraft::systolic {

namespace {

const isa::IsaSpec& isa_spec() {
  return isa::systolic::spec();
}

int fp_register_class() {
  return isa_spec().find_register_class("freg");
}

bool reads_fp_register(const isa::OperandSpec& o) {
  return o.kind == isa::OperandKind::kRegister && o.register_class == fp_register_class() &&
         o.access != isa::Access::kWrite;
}

const isa::OperandSpec& operand(const isa::InstructionSpec& insn, const std::string& name) {
  for (const auto& o : insn.operands) {
    if (o.name == name) return o;
  }
  throw std::logic_error(insn.name + " has no operand " + name);
}

constexpr const char* kFpGroup = "fp operand class";
constexpr const char* kDmaGroup = "dma form";
constexpr std::array<const char*, 3> kDmaForms{"one row", "dense rows", "strided rows"};

// Instructions run: the cap keeps a runaway loop from hanging the command (the RTL's cycle cap does the
// same).
constexpr uint64_t kInstructionCap = 200'000'000;

}  // namespace

tb::Coverage systolic_coverage_bins() {
  tb::Coverage c;
  tb::declare_isa_bins(c, isa_spec());
  for (const auto& insn : isa_spec().instructions) {
    for (const auto& o : insn.operands) {
      if (!reads_fp_register(o)) continue;
      for (const char* cls : tb::kFp32Classes)
        c.declare(kFpGroup, tb::fp_operand_class_bin(insn.name, o.name, cls));
    }
  }
  for (const auto& insn : isa_spec().instructions) {
    if (insn.unit != "dma") continue;
    for (const char* form : kDmaForms) c.declare(kDmaGroup, insn.name + " " + form);
  }
  return c;
}

void record_systolic_coverage(const std::string& hw, const std::vector<uint32_t>& words,
                              const std::vector<uint8_t>& dram, const tb::DramTiming& timing,
                              tb::CoverageSource source, tb::Coverage& coverage) {
  const Params p = rtl_params(hw);
  Iss iss(p);
  iss.reset(words);
  iss.on_issue = [&](uint32_t /*pc*/, uint32_t word) {
    // An illegal word stops the model with an error, which the error bins count.
    if (!isa::systolic::is_legal(word)) return;
    const isa::InstructionSpec* insn = isa_spec().find_opcode(isa::extract(word, isa_spec().opcode_field));
    coverage.hit("instruction", insn->name, source);
    const MachineState& s = iss.state();
    for (const auto& o : insn->operands) {
      if (!reads_fp_register(o)) continue;
      const uint32_t bits = s.f[isa::extract(word, o.field)];
      coverage.hit(kFpGroup, tb::fp_operand_class_bin(insn->name, o.name, tb::fp32_class(bits)), source);
    }
    if (insn->unit == "dma") {
      const auto count = isa::extract(word, operand(*insn, "count").field);
      const uint32_t stride = s.x[isa::extract(word, operand(*insn, "stride").field)];
      const char* form = count == 1 ? kDmaForms[0] : stride == p.row_bytes() ? kDmaForms[1] : kDmaForms[2];
      coverage.hit(kDmaGroup, insn->name + " " + form, source);
    }
  };
  std::vector<uint8_t> model_dram = dram;
  const auto result = iss.run(model_dram, kInstructionCap);
  if (result.stop == Iss::Stop::kError) coverage.hit("error", error_name(iss.state().error.code), source);

  RunJob job;
  job.config = hw;
  job.program = words;
  job.dram = dram;
  job.timing = timing;
  const RunResult rtl = run_on_rtl(job);
  for (const auto& cause : isa_spec().stall_causes.codes) {
    if (cause.code == 0) continue;
    for (const auto& counter : isa_spec().counters) {
      if (counter.name == cause.counter && rtl.counters[counter.index] > 0)
        coverage.hit("stall cause", cause.name, source, rtl.counters[counter.index]);
    }
  }
}

RandomProgramOptions steered_random_options(unsigned length, const std::vector<CoverageBinName>& focus) {
  RandomProgramOptions o;
  o.length = length;
  for (const CoverageBinName& bin : focus) {
    if (bin.group != "error") continue;
    const auto e =
        std::find_if(kErrors.begin(), kErrors.end(), [&](const auto& k) { return bin.name == k.name; });
    if (e == kErrors.end() || e->code == ErrorCode::kNone)
      throw std::invalid_argument(fmt::format("--steer: '{}' is no systolic error", bin.name));
    if (std::find(o.faults.begin(), o.faults.end(), e->code) == o.faults.end()) o.faults.push_back(e->code);
  }
  constexpr double kSteeredFaultRate = 0.5;
  if (!o.faults.empty()) {
    o.fault_rate = kSteeredFaultRate;
    // Late in the program, so that the faults cost the other bins little of the body.
    o.fault_from = 0.75;
  }
  return o;
}

CommandReport SystolicPlatform::coverage(const CoverageOptions& options,
                                         const tasks::TaskRegistry& tasks) const {
  const HwConfig& hw = hw_config(options.hw_config);
  const Params p = params(options.hw_config);
  const tb::DramTiming timing{static_cast<uint64_t>(hw.runtime_param("dram_latency_cycles")),
                              static_cast<uint64_t>(hw.runtime_param("dram_bytes_per_cycle"))};
  tb::Coverage coverage = systolic_coverage_bins();
  // --rtl: every program runs on a coverage build of the configuration instead, and its counts are taken
  // after each source.
  std::string rtl_note;
  const std::string rtl_config =
      options.rtl ? tb::prepare_rtl_coverage_model(kName, hw, options.jobs, rtl_note) : options.hw_config;
  tb::RtlCoverage rtl;
  const auto take_rtl = [&](tb::CoverageSource source) {
    if (options.rtl) rtl.take(rtl_hw(rtl_config), source, options.rtl_dat_dir);
  };

  // Directed: the ISA reference's example programs. The directed RTL tests (tests/systolic/*_test.cpp)
  // build their programs inside gtest code, so no command can run them and they are not counted.
  constexpr size_t kExampleDramBytes = 1 << 20;
  const auto examples = tb::isa_example_programs(*this, isa_spec(), kExampleDramBytes);
  for (const auto& prog : examples)
    record_systolic_coverage(rtl_config, prog.assembled.words, prog.dram, timing,
                             tb::CoverageSource::kDirected, coverage);
  take_rtl(tb::CoverageSource::kDirected);

  const RandomProgramOptions random = steered_random_options(options.length, options.focus);
  for (uint64_t i = 0; i < options.programs; ++i) {
    const auto prog = random_program(p, options.seed + i, random);
    record_systolic_coverage(rtl_config, prog.words, prog.dram, timing, tb::CoverageSource::kRandom,
                             coverage);
  }
  take_rtl(tb::CoverageSource::kRandom);

  const auto baselines = tb::baseline_programs(*this, options, tasks);
  for (const auto& prog : baselines.programs)
    record_systolic_coverage(rtl_config, prog.assembled.words, prog.dram, timing,
                             tb::CoverageSource::kBaselines, coverage);
  take_rtl(tb::CoverageSource::kBaselines);

  std::string notes = fmt::format(
      "sources: directed = the {} example program(s) of the ISA reference (isa/systolic.yaml `examples:`; "
      "the "
      "directed RTL tests live in gtest code and are not counted); random = {} programs of `kcraft validate "
      "systolic`'s generator, seeds {}..{}, {} instructions each; baselines = {} baseline kernels ({}).\n"
      "instructions, FP operand classes, DMA forms and errors from the functional model; stall causes from "
      "the "
      "RTL's counters (hits = stalled cycles).",
      examples.size(), options.programs, options.seed, options.seed + options.programs - 1, options.length,
      baselines.programs.size(), fmt::join(options.configs, ", "));
  if (!options.focus.empty()) {
    notes +=
        fmt::format("\nrandom programs steered toward {} unhit bins: deliberate faults in {:.0f}% of them",
                    options.focus.size(), 100 * random.fault_rate);
    std::vector<std::string> kinds;
    for (ErrorCode e : random.faults) kinds.emplace_back(error_name(e));
    if (!kinds.empty()) notes += fmt::format(", of the kinds {}", fmt::join(kinds, " "));
  }
  for (const auto& s : baselines.skipped) notes += "\nbaseline not run: " + s;
  if (options.rtl) notes += "\nRTL coverage build (" + rtl_config + "): " + rtl_note;
  return tb::coverage_report(kName, options, coverage, notes, options.rtl ? &rtl : nullptr);
}

}  // namespace kcraft::systolic
