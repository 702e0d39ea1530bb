#include "tb/vliw/vliw_coverage.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "isa/common/bundle.h"
#include "isa/vliw/random_program.h"
#include "isa/vliw/vliw_iss.h"
#include "tb/common/coverage_report.h"
#include "tb/common/rtl_coverage.h"
#include "tb/vliw/vliw_platform.h"
#include "tb/vliw/vliw_sim.h"
#include "vliw_isa.h"

namespace kcraft::vliw {

namespace {

const isa::IsaSpec& isa_spec() {
  return isa::vliw::spec();
}

constexpr const char* kSlotGroup = "ls slot";
constexpr const char* kWidthGroup = "bundle width";
constexpr const char* kLaneGroup = "fp lane class";
constexpr const char* kHazardGroup = "exposed hazard";

std::string width_bin(size_t ops) {
  return fmt::format("{} op{}", ops, ops == 1 ? "" : "s");
}
std::string early_read_bin(const std::string& cls) {
  return cls + " read before the result landed (old value)";
}
std::string landing_read_bin(const std::string& cls) {
  return cls + " read in the bundle the result lands";
}

// Register classes whose lanes are FP (vector registers hold BF16, accumulators FP32).
bool is_lane_class(const std::string& cls) {
  return cls == "vreg" || cls == "areg";
}

const std::string& class_name(const isa::OperandSpec& o) {
  return isa_spec().register_classes.at(static_cast<size_t>(o.register_class)).name;
}

bool is_register(const isa::OperandSpec& o) {
  return o.kind == isa::OperandKind::kRegister;
}

// Cycles per program: the cap keeps a runaway loop from hanging the command.
constexpr uint64_t kCycleCap = 2'000'000'000;

// The exposed-pipeline bookkeeping: the bundle index at which each register's last write was issued and
// the writer's latency, in bundles.
struct LastWrite {
  uint64_t bundle = 0;
  unsigned latency = 0;
};

}  // namespace

tb::Coverage vliw_coverage_bins() {
  tb::Coverage c;
  const isa::IsaSpec& spec = isa_spec();
  tb::declare_isa_bins(c, spec);
  for (const auto& insn : spec.instructions) {
    if (isa::slots_of_kind(spec.bundle, insn.slot) < 2) continue;
    for (const auto& slot : spec.bundle.slots) {
      if (slot.kind == insn.slot) c.declare(kSlotGroup, insn.name + " in " + slot.name);
    }
  }
  for (size_t n = 1; n <= spec.bundle.slots.size(); ++n) c.declare(kWidthGroup, width_bin(n));
  for (const auto& insn : spec.instructions) {
    for (const auto& o : insn.operands) {
      if (!is_register(o) || o.access == isa::Access::kWrite || !is_lane_class(class_name(o))) continue;
      for (const char* cls : tb::kFp32Classes)
        c.declare(kLaneGroup, tb::fp_operand_class_bin(insn.name, o.name, cls));
    }
  }
  for (const std::string& cls : spec.bundle.exposed_classes) {
    c.declare(kHazardGroup, early_read_bin(cls));
    c.declare(kHazardGroup, landing_read_bin(cls));
  }
  return c;
}

void record_vliw_coverage(const Params& params, const std::vector<uint32_t>& words,
                          const std::vector<uint8_t>& dram, tb::CoverageSource source,
                          tb::Coverage& coverage) {
  const isa::IsaSpec& spec = isa_spec();
  Iss iss(params);
  iss.reset(words);
  uint64_t bundle_index = 0;
  std::map<std::pair<std::string, unsigned>, LastWrite> last_write;
  iss.on_issue = [&](uint32_t /*pc*/, const std::vector<uint32_t>& bundle, uint64_t /*cycle*/) {
    std::vector<const isa::InstructionSpec*> ops;
    for (uint32_t word : bundle) {
      // An illegal word stops the model with an error, which the error bins count.
      if (!isa::vliw::is_legal(word)) return;
      ops.push_back(spec.find_opcode(isa::extract(word, spec.opcode_field)));
    }
    coverage.hit(kWidthGroup, width_bin(ops.size()), source);
    const auto slots = isa::slot_positions(spec, ops);
    const MachineState& s = iss.state();
    std::vector<std::pair<std::pair<std::string, unsigned>, LastWrite>> writes;
    for (size_t i = 0; i < ops.size(); ++i) {
      const isa::InstructionSpec& insn = *ops[i];
      const uint32_t word = bundle[i];
      coverage.hit("instruction", insn.name, source);
      if (slots && coverage.declared(kSlotGroup, insn.name + " in " + spec.bundle.slots[(*slots)[i]].name))
        coverage.hit(kSlotGroup, insn.name + " in " + spec.bundle.slots[(*slots)[i]].name, source);
      for (const auto& o : insn.operands) {
        if (!is_register(o)) continue;
        const std::string& cls = class_name(o);
        const auto reg = isa::extract(word, o.field);
        if (o.access != isa::Access::kRead) {
          const unsigned latency =
              isa::vliw::latency_of(static_cast<uint8_t>(isa::extract(word, spec.opcode_field)));
          writes.push_back({{cls, reg}, LastWrite{bundle_index, latency}});
        }
        if (o.access == isa::Access::kWrite) continue;
        if (spec.bundle.is_exposed(cls)) {
          const auto it = last_write.find({cls, reg});
          if (it != last_write.end()) {
            const uint64_t distance = bundle_index - it->second.bundle;
            if (distance < it->second.latency) coverage.hit(kHazardGroup, early_read_bin(cls), source);
            if (distance == it->second.latency) coverage.hit(kHazardGroup, landing_read_bin(cls), source);
          }
        }
        if (!is_lane_class(cls)) continue;
        std::set<std::string> classes;
        for (unsigned lane = 0; lane < params.vlen; ++lane) {
          const uint32_t bits =
              cls == "vreg" ? uint32_t{s.v[reg * params.vlen + lane]} << 16 : s.a[reg * params.vlen + lane];
          classes.insert(tb::fp32_class(bits));
        }
        for (const auto& k : classes)
          coverage.hit(kLaneGroup, tb::fp_operand_class_bin(insn.name, o.name, k), source);
      }
    }
    for (const auto& [key, w] : writes) last_write[key] = w;
    ++bundle_index;
  };
  std::vector<uint8_t> model_dram = dram;
  const auto result = iss.run(model_dram, kCycleCap);
  if (result.stop == Iss::Stop::kError) coverage.hit("error", error_name(iss.state().error.code), source);
  for (const auto& cause : spec.stall_causes.codes) {
    if (cause.code == 0) continue;
    for (const auto& counter : spec.counters) {
      if (counter.name == cause.counter && iss.counters()[counter.index] > 0)
        coverage.hit("stall cause", cause.name, source, iss.counters()[counter.index]);
    }
  }
}

RandomProgramOptions steered_random_options(unsigned bundles, const std::vector<CoverageBinName>& focus) {
  RandomProgramOptions o;
  o.bundles = bundles;
  const isa::IsaSpec& spec = isa_spec();
  const auto favour = [&](const std::string& name) {
    if (std::find(o.favoured.begin(), o.favoured.end(), name) == o.favoured.end()) o.favoured.push_back(name);
  };
  for (const CoverageBinName& bin : focus) {
    if (bin.group == "error") {
      const auto e =
          std::find_if(kErrors.begin(), kErrors.end(), [&](const auto& k) { return bin.name == k.name; });
      if (e == kErrors.end() || e->code == ErrorCode::kNone)
        throw std::invalid_argument(fmt::format("--steer: '{}' is no vliw error", bin.name));
      o.faults.push_back(e->code);
    } else if (bin.group == "instruction" || bin.group == kSlotGroup || bin.group == kLaneGroup) {
      // "L_VLD in ls1", "V_ADD va=nan": more of the instruction reaches more of its slot and lane bins.
      const std::string name = bin.name.substr(0, bin.name.find(' '));
      const isa::InstructionSpec* insn = spec.find_instruction(name);
      if (insn == nullptr || insn->name != name)
        throw std::invalid_argument(fmt::format("--steer: '{}' is no vliw instruction", bin.name));
      favour(name);
    }
  }
  constexpr double kSteeredFaultRate = 0.5;
  if (!o.faults.empty()) {
    o.fault_rate = kSteeredFaultRate;
    // Late in the program, so that the faults cost the other bins little of the body.
    o.fault_from = 0.75;
  }
  return o;
}

CommandReport VliwPlatform::coverage(const CoverageOptions& options, const tasks::TaskRegistry& tasks) const {
  const Params p = params(options.hw_config);
  tb::Coverage coverage = vliw_coverage_bins();
  // --rtl: the bins come from the cycle-exact model as without it; every program also runs on a coverage
  // build of the configuration's RTL, whose counts are taken after each source.
  std::string rtl_note;
  const HwConfig& hw = hw_config(options.hw_config);
  const std::string rtl_config =
      options.rtl ? tb::prepare_rtl_coverage_model(kName, hw, options.jobs, rtl_note) : options.hw_config;
  const tb::DramTiming timing{static_cast<uint64_t>(hw.runtime_param("dram_latency_cycles")),
                              static_cast<uint64_t>(hw.runtime_param("dram_bytes_per_cycle"))};
  tb::RtlCoverage rtl;
  // Random programs may loop on purpose; the model stops them by instruction count, the RTL by this cap.
  constexpr uint64_t kRtlCycleCap = 2'000'000;
  const auto run_rtl = [&](const std::vector<uint32_t>& words, const std::vector<uint8_t>& dram) {
    if (!options.rtl) return;
    RunJob job;
    job.config = rtl_config;
    job.program = words;
    job.dram = dram;
    job.timing = timing;
    job.cycle_cap = kRtlCycleCap;
    simulate(job);
  };
  const auto take_rtl = [&](tb::CoverageSource source) {
    if (options.rtl) rtl.take(rtl_hw(rtl_config), source, options.rtl_dat_dir);
  };

  // Directed: the ISA reference's example programs. The directed tests (tests/vliw/*_test.cpp) build their
  // programs inside gtest code, so no command can run them and they are not counted.
  constexpr size_t kExampleDramBytes = 1 << 16;
  const auto examples = tb::isa_example_programs(*this, isa_spec(), kExampleDramBytes);
  for (const auto& prog : examples) {
    record_vliw_coverage(p, prog.assembled.words, prog.dram, tb::CoverageSource::kDirected, coverage);
    run_rtl(prog.assembled.words, prog.dram);
  }
  take_rtl(tb::CoverageSource::kDirected);

  const RandomProgramOptions random = steered_random_options(options.length, options.focus);
  for (uint64_t i = 0; i < options.programs; ++i) {
    const auto prog = random_program(p, options.seed + i, random);
    record_vliw_coverage(p, prog.words, prog.dram, tb::CoverageSource::kRandom, coverage);
    run_rtl(prog.words, prog.dram);
  }
  take_rtl(tb::CoverageSource::kRandom);

  const auto baselines = tb::baseline_programs(*this, options, tasks);
  for (const auto& prog : baselines.programs) {
    record_vliw_coverage(p, prog.assembled.words, prog.dram, tb::CoverageSource::kBaselines, coverage);
    run_rtl(prog.assembled.words, prog.dram);
  }
  take_rtl(tb::CoverageSource::kBaselines);

  std::string notes = fmt::format(
      "sources: directed = the {} example program(s) of the ISA reference (isa/vliw.yaml `examples:`; the "
      "directed tests live in gtest code and are not counted); random = {} programs of `kcraft validate "
      "vliw`'s generator, seeds {}..{}, {} bundles each; baselines = {} baseline kernels ({}).\n"
      "every bin from the cycle-exact functional model (hits: ops, bundles, reads; stall causes in stalled "
      "cycles).",
      examples.size(), options.programs, options.seed, options.seed + options.programs - 1, options.length,
      baselines.programs.size(), fmt::join(options.configs, ", "));
  if (!options.focus.empty()) {
    notes +=
        fmt::format("\nrandom programs steered toward {} unhit bins: deliberate faults in {:.0f}% of them",
                    options.focus.size(), 100 * random.fault_rate);
    if (!random.faults.empty()) {
      std::vector<std::string> kinds;
      for (ErrorCode e : random.faults) kinds.emplace_back(error_name(e));
      notes += fmt::format(", of the kinds {}", fmt::join(kinds, " "));
    }
    if (!random.favoured.empty())
      notes += fmt::format("; favoured instructions: {}", fmt::join(random.favoured, " "));
  }
  for (const auto& s : baselines.skipped) notes += "\nbaseline not run: " + s;
  if (options.rtl)
    notes += "\nRTL coverage build (" + rtl_config + "; every program also runs on it): " + rtl_note;
  return tb::coverage_report(kName, options, coverage, notes, options.rtl ? &rtl : nullptr);
}

}  // namespace kcraft::vliw
