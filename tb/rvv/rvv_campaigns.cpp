// `kcraft validate rvv` (random programs on the RTL and under QEMU, end states compared) and `kcraft speed
// rvv` (the SystemC testbench against the bare Verilated model).
#include <fmt/format.h>

#include <chrono>
#include <map>
#include <stdexcept>

#include "isa/rvv/qemu_runner.h"
#include "isa/rvv/random_program.h"
#include "isa/rvv/toolchain.h"
#include "tasks/common/inputs.h"
#include "tasks/rvv/baseline_compiler.h"
#include "tb/common/campaigns.h"
#include "tb/common/dram_model.h"
#include "tb/rvv/rvv_coverage.h"
#include "tb/rvv/rvv_diff.h"
#include "tb/rvv/rvv_disasm.h"
#include "tb/rvv/rvv_platform.h"
#include "tb/rvv/rvv_sim.h"

namespace kcraft::rvv {

namespace {

constexpr uint64_t kCampaignCycleCap = 2'000'000;

std::string qemu_end(const RunResult& q) {
  std::string s(run_end_name(q.end));
  if (q.end == RunEnd::kTrapped) {
    s = q.signal_name + (q.pc ? fmt::format(" at pc 0x{:x}", *q.pc) : "");
    if (q.fault_address) s += fmt::format(" (address 0x{:08x})", *q.fault_address);
  }
  return q.message.empty() ? s : s + ": " + q.message;
}

}  // namespace

CommandReport RvvPlatform::validate(const ValidationOptions& a) const {
  const Params p = params(a.hw_config);
  auto hw = make_rvv_hw(a.hw_config);
  const RandomProgramOptions options = steered_random_options(a.length, p.vlen, a.focus);
  tb::CampaignWording wording;
  wording.unit = "instruction";
  wording.agreed_on =
      "x1..x31, f0..f31, fcsr, vl, vtype, vstart, vlenb, every vector register and DTCM buffer byte (stored "
      "to DRAM by the epilogue) and every DRAM byte";
  return tb::run_validation_campaign(kName, a, wording, [&](uint64_t seed) {
    const RandomProgram prog = random_program(seed, options);
    BuildOptions o;
    o.language = "asm";
    o.file_name = fmt::format("random_{}.S", seed);
    o.vlen = static_cast<int>(p.vlen);
    const BuiltKernel k = build_kernel(prog.source, o);
    if (!k.ok) {
      throw std::runtime_error(fmt::format("random program {} does not build (a generator bug):\n{}{}", seed,
                                           format_diagnostics(k.diagnostics), k.log));
    }
    tb::DramModel dram;
    dram.configure(tb::DramTiming{p.dram_latency, p.dram_bytes_per_cycle});
    dram.load(prog.dram);
    const BareRun rtl = hw->run(k.elf, dram, kCampaignCycleCap);
    RunOptions qo;
    qo.vlen = static_cast<int>(p.vlen);
    qo.timeout = std::chrono::seconds(30);
    const RunResult q = run_qemu(k, prog.dram, qo);

    tb::CampaignStep step;
    step.words = k.itcm;
    step.cycles = rtl.cycles;
    step.issued = rtl.counters[kCntInstret];
    std::map<uint32_t, std::string> listing;
    if (!rtl.stopped || rtl.error.code != ErrorCode::kNone || q.end != RunEnd::kExited)
      listing = parse_objdump(objdump_words(k.itcm));
    auto text_at = [&](uint32_t pc) {
      return instruction_text(listing, pc, pc / 4 < k.itcm.size() ? k.itcm[pc / 4] : 0u);
    };
    std::optional<tb::CampaignDivergence> div;
    if (!rtl.stopped) {
      div = tb::CampaignDivergence{
          rtl.pc, text_at(rtl.pc),
          fmt::format("the RTL is still running after {} cycles; QEMU: {}", rtl.cycles, qemu_end(q))};
    } else if (rtl.error.code != ErrorCode::kNone) {
      div = tb::CampaignDivergence{
          rtl.error.pc, text_at(rtl.error.pc),
          fmt::format("the RTL stopped: {}; QEMU: {}", rtl.error.describe(), qemu_end(q))};
    } else if (!rtl.signature_valid) {
      div = tb::CampaignDivergence{rtl.pc, text_at(rtl.pc), "the RTL stopped without crt0's signature"};
    } else if (q.end != RunEnd::kExited) {
      div = tb::CampaignDivergence{q.pc.value_or(0), q.pc ? text_at(*q.pc) : "",
                                   "the RTL ran to the end, QEMU did not: " + qemu_end(q)};
    } else if (auto d = first_difference(rtl.signature, q.signature, dram.bytes(), q.dram)) {
      div = tb::CampaignDivergence{rtl.pc, "(end state)", *d};
    }
    if (div) {
      step.divergence = std::move(div);
      step.listing = prog.source;
    }
    return step;
  });
}

// One to two million cycles each of the template's main shapes: the vector unit streaming a matrix product,
// a row reduction with exp, an element-wise pass (softmax C5 would take tens of seconds per run).
std::vector<SpeedWorkload> RvvPlatform::speed_workloads() const {
  return {{"gemm", "C4"}, {"softmax", "C4"}, {"relu", "C5"}};
}

CommandReport RvvPlatform::speed(const SpeedOptions& a, const tasks::TaskRegistry& registry) const {
  const Params p = params(a.hw_config);
  const auto cfg = registry.get(a.task).resolve(a.config, kDType);
  const auto lay = layout(cfg);
  const auto kernel = make_baseline_compiler(static_cast<int>(p.vlen))->generate(cfg, lay);
  const auto assembled =
      assemble(kernel.source, kernel_file_name(kernel.language), symbols(a.hw_config, &cfg, &lay));
  if (!assembled.ok) throw std::runtime_error("the baseline kernel does not build");
  const auto built = std::any_cast<std::shared_ptr<const BuiltKernel>>(assembled.artifact);
  auto image = tasks::make_dram_image(lay, tasks::make_inputs(cfg, 1));
  image.resize(lay.total_bytes, 0);
  constexpr uint64_t kCap = 2'000'000'000;

  // SystemC: the full testbench (accelerator module, TLM DRAM target, host) as every eval uses it.
  RunJob job;
  job.config = a.hw_config;
  job.program = built->itcm;
  job.dram = image;
  job.timing = tb::DramTiming{p.dram_latency, p.dram_bytes_per_cycle};
  job.cycle_cap = kCap;
  // Bare: the same Verilated configuration driven from a plain C++ loop with the same DRAM model.
  auto bare = make_rvv_hw(a.hw_config);
  return tb::run_speed_comparison(
      kName, a, 0.9, [&] { return simulate(job, built->elf).cycles; },
      [&] {
        tb::DramModel dram;
        dram.configure(job.timing);
        dram.load(image);
        return bare->run(built->elf, dram, kCap).cycles;
      });
}

}  // namespace kcraft::rvv
