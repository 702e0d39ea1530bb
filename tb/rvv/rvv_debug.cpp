// `kcraft debug rvv`: the rvv core's DebugTarget (tb/common/debug_session.h). The functional twin is QEMU:
// run one instruction per translation block with `-d cpu,fpu,nochain` it logs x0..x31 and f0..f31 before
// every instruction. The RTL runs bare (the Verilated core with the DRAM timing model every run uses) and
// the register file is read through the back door after every retirement (write-back is the retire
// stage). crt0 runs differently under QEMU (its trap reporter), so both traces are aligned at the first
// instruction of `kernel`, from where crt0 guarantees the same state: instruction counts are the kernel's.
// Vector registers and memory are not in QEMU's log; they are compared at the end of the run by the
// evaluation (`kcraft eval`), not here.
#include <fmt/format.h>

#include <unistd.h>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "isa/rvv/qemu_runner.h"
#include "tb/common/debug_session.h"
#include "tb/common/evaluation_steps.h"
#include "tb/rvv/rvv_debug.h"
#include "tb/rvv/rvv_disasm.h"
#include "tb/rvv/rvv_hw.h"
#include "tb/rvv/rvv_platform.h"

namespace kcraft::rvv {

namespace {

// The whole token as a hexadecimal number of at most 64 bits; nullopt for anything else.
std::optional<uint64_t> whole_hex(const std::string& token) {
  uint64_t value = 0;
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, value, 16);
  if (ec != std::errc() || ptr != end || token.empty()) return std::nullopt;
  return value;
}

}  // namespace

std::vector<RegisterStep> parse_qemu_cpu_log(const std::string& log) {
  std::vector<RegisterStep> steps;
  std::istringstream in(log);
  std::string token;
  // " pc       00000074" starts a dump; then "x5/t0 0000abcd" and "f3/ft3 ffffffff3f800000" pairs. Anything
  // else (another QEMU's wording, a cut log) is skipped, never an exception.
  while (in >> token) {
    if (token == "pc") {
      std::string value;
      if (!(in >> value)) break;
      const auto pc = whole_hex(value);
      if (!pc) continue;
      steps.emplace_back();
      steps.back().pc = static_cast<uint32_t>(*pc);
      continue;
    }
    if (steps.empty() || token.size() < 2 || (token[0] != 'x' && token[0] != 'f')) continue;
    const auto slash = token.find('/');
    if (slash == std::string::npos || slash < 2 || slash > 3) continue;  // x0 .. x31: one or two digits
    const std::string digits = token.substr(1, slash - 1);
    if (digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const unsigned index = static_cast<unsigned>(std::stoul(digits));
    std::string value;
    if (index >= 32 || !(in >> value)) continue;
    const auto bits = whole_hex(value);
    if (!bits) continue;
    if (token[0] == 'x') {
      steps.back().x[index] = static_cast<uint32_t>(*bits);
    } else {
      steps.back().f[index] = static_cast<uint32_t>(*bits);  // the low half of the NaN-boxed value
    }
  }
  return steps;
}

namespace {

using tb::MachineSnapshot;
using tb::ValueFormat;

// Reads the register file after every retirement: on the first cycle after the retiring edge.
class RetireRecorder final : public tb::CycleObserver {
 public:
  explicit RetireRecorder(RvvHw& hw) : hw_(hw) {}
  void on_cycle(uint64_t cycle, uint32_t /*trace_word*/, bool retired, uint32_t pc,
                uint32_t /*insn*/) override {
    flush();
    if (retired) pending_ = RegisterStep{pc, cycle, {}, {}};
  }
  // After the run's last edge.
  void flush() {
    if (!pending_) return;
    for (unsigned i = 1; i < 32; ++i) pending_->x[i] = hw_.xreg(i);
    for (unsigned i = 0; i < 32; ++i) pending_->f[i] = hw_.freg(i);
    steps.push_back(*pending_);
    pending_.reset();
  }
  std::vector<RegisterStep> steps;  // pc: the retired instruction; registers: after it

 private:
  RvvHw& hw_;
  std::optional<RegisterStep> pending_;
};

MachineSnapshot snapshot(const RegisterStep& regs, uint32_t next_pc, uint64_t retired) {
  MachineSnapshot s;
  s.pc = next_pc;
  s.retired = retired;
  s.cycle = regs.cycle;
  for (unsigned i = 0; i < 32; ++i)
    s.registers.push_back({"integer", fmt::format("x{}", i), regs.x[i], ValueFormat::kInt});
  for (unsigned i = 0; i < 32; ++i)
    s.registers.push_back({"fp", fmt::format("f{}", i), regs.f[i], ValueFormat::kFp32});
  return s;
}

class RvvDebugTarget final : public tb::DebugTarget {
 public:
  RvvDebugTarget(const tb::PreparedRun& run, const Params& p, const BuiltKernel& built, uint64_t cycle_cap,
                 std::optional<ModelFault> fault)
      : run_(run), p_(p), built_(built), cycle_cap_(cycle_cap), fault_(std::move(fault)) {
    labels_ = symbols_of(built.disassembly);
    const auto kernel = labels_.find("kernel");
    if (kernel == labels_.end()) throw std::runtime_error("rvv: the linked program has no `kernel` symbol");
    kernel_pc_ = kernel->second;
  }

  bool snapshots_are_cheap() const override { return true; }
  std::string pc_text(uint32_t pc) const override { return fmt::format("0x{:x}", pc); }

  std::vector<uint32_t> model_pcs(uint64_t /*limit*/) override {
    trace_rtl();  // first: how far the RTL gets bounds QEMU's log
    trace_qemu();
    std::vector<uint32_t> pcs;
    for (size_t k = 0; k + 1 < qemu_.size(); ++k) pcs.push_back(qemu_[k].pc);
    return pcs;
  }

  MachineSnapshot model_after(uint64_t retired) override {
    const size_t k = std::min<size_t>(retired, qemu_.size() - 1);
    RegisterStep regs = qemu_[k];
    if (fault_ && fault_->after_instruction <= retired) apply_fault(regs);
    MachineSnapshot s = snapshot(regs, qemu_[k].pc, k);
    s.cycle = std::nullopt;  // QEMU has no cycles
    s.status = "stopped";
    if (k + 1 >= qemu_.size()) {
      s.status = qemu_end_;
      s.why = qemu_why_;
      if (qemu_dram_) append_dram(s, *qemu_dram_);
    }
    return s;
  }

  MachineSnapshot rtl_after(uint64_t retired, const std::vector<uint32_t>& /*pcs*/) override {
    // rtl_[0] is the state at the kernel's entry; rtl_[k] after k of its instructions.
    const size_t k = std::min<size_t>(retired, rtl_.size() - 1);
    MachineSnapshot s = snapshot(rtl_[k], rtl_next_pc(k), k);
    s.status = "stopped";
    if (k >= rtl_last_) {
      // The RTL's run is over here: how it ended, and the cycles `kcraft eval` reports for it.
      s.status = rtl_end_;
      s.why = rtl_why_;
      s.cycle = rtl_run_length_;
      if (rtl_end_pc_) s.pc = *rtl_end_pc_;
      append_dram(s, rtl_dram_);
    } else if (!rtl_stopped_ && k + 1 >= qemu_.size()) {
      // A kernel that never returns, compared as far as QEMU's capped log goes: the RTL's hang still shows.
      s.status = rtl_end_;
      s.why = rtl_why_;
    }
    return s;
  }

  const tb::PreparedRun* prepared() const override { return &run_; }

  uint64_t rtl_retired_at_cycle(uint64_t cycle) override {
    uint64_t k = 0;
    while (k + 1 < rtl_.size() && rtl_[k + 1].cycle < cycle) ++k;
    return k;
  }

  std::string describe(uint32_t pc) override {
    if (!listing_) {
      try {
        listing_ = parse_objdump(objdump_words(built_.itcm));
      } catch (const std::exception&) {
        listing_ = parse_objdump(built_.disassembly);
      }
    }
    const uint32_t word = pc / 4 < built_.itcm.size() ? built_.itcm[pc / 4] : 0u;
    return instruction_text(*listing_, pc, word);
  }

  std::optional<uint32_t> label(const std::string& name) override {
    const auto it = labels_.find(name);
    if (it == labels_.end()) return std::nullopt;
    return it->second;
  }

 private:
  // "00000104 <kernel>:" lines of objdump's listing: the program's symbols (functions, assembly labels).
  static std::map<std::string, uint32_t> symbols_of(const std::string& disassembly) {
    std::map<std::string, uint32_t> out;
    static const std::regex line(R"(^([0-9a-fA-F]+) <([^>+]+)>:\s*$)");
    std::istringstream in(disassembly);
    std::string text;
    std::smatch m;
    while (std::getline(in, text)) {
      if (std::regex_match(text, m, line))
        out.emplace(m[2].str(), static_cast<uint32_t>(std::stoul(m[1].str(), nullptr, 16)));
    }
    return out;
  }

  // DRAM is known at the end of a run only (QEMU's log holds registers alone).
  void append_dram(MachineSnapshot& s, const std::vector<uint8_t>& dram) const {
    for (auto& m : tb::dram_tensors(run_, dram, 4)) s.memories.push_back(std::move(m));
  }

  // eval's text of an instruction: "0x104: addi a0, a0, 1".
  std::string eval_describe(uint32_t pc) { return fmt::format("0x{:x}: {}", pc, describe(pc)); }

  void trace_qemu() {
    if (!qemu_.empty()) return;
    const std::string log = (std::filesystem::temp_directory_path() /
                             fmt::format("kcraft-rvv-debug-{}-{}.log", ::getpid(), counter_++))
                                .string();
    RunOptions o;
    o.vlen = static_cast<int>(p_.vlen);
    // A step of the log is about 2.5 KB. When the RTL ran into its cycle cap (a kernel that never
    // returns), QEMU would only spin to its timeout writing gigabytes: its log is capped a little past
    // the RTL's retirements (crt0's included), and its leash is short.
    constexpr uint64_t kLogBytesPerStep = 3072;
    constexpr uint64_t kMaxHangLogBytes = uint64_t{256} << 20;
    const uint64_t steps = rtl_retirements_ + 4096;
    o.timeout = rtl_stopped_ ? std::chrono::seconds(120) : std::chrono::seconds(20);
    o.max_log_bytes =
        rtl_stopped_ ? 4 * steps * kLogBytesPerStep : std::min(steps * kLogBytesPerStep, kMaxHangLogBytes);
    o.extra_args = {"-singlestep", "-d", "cpu,fpu,nochain", "-D", log};
    struct Remove {
      std::string path;
      ~Remove() { std::remove(path.c_str()); }
    } remove{log};
    const RunResult r = run_qemu(built_, run_.job.dram, o);
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    qemu_end_ = r.end == RunEnd::kExited ? "returned" : std::string(run_end_name(r.end));
    if (r.end != RunEnd::kExited) qemu_why_ = fmt::format("QEMU: {}: {}", run_end_name(r.end), r.message);
    if (r.end == RunEnd::kExited) qemu_dram_ = r.dram;
    const auto all = parse_qemu_cpu_log(text.str());
    // From the kernel's first instruction: each dump is the state before that instruction.
    auto first =
        std::find_if(all.begin(), all.end(), [&](const RegisterStep& s) { return s.pc == kernel_pc_; });
    if (first == all.end())
      throw std::runtime_error("rvv: QEMU's run never reached `kernel`: " + qemu_end_ + " " + qemu_why_);
    // Up to the first ecall, where the RTL's run ends (QEMU goes on with the end-of-run protocol).
    constexpr uint32_t kEcall = 0x00000073u;
    auto end = std::find_if(first, all.end(), [&](const RegisterStep& s) {
      return s.pc / 4 < built_.itcm.size() && built_.itcm[s.pc / 4] == kEcall;
    });
    qemu_.assign(first, end == all.end() ? end : end + 1);
    if (!rtl_stopped_ && qemu_.size() > rtl_.size()) {
      // The RTL's run was cut by its cycle cap: QEMU's trace is compared as far as the RTL got.
      qemu_.resize(rtl_.size());
      qemu_end_ = "stopped";
      qemu_why_.clear();
      qemu_dram_.reset();
    }
  }

  void trace_rtl() {
    if (!rtl_.empty()) return;
    hw_ = make_rvv_hw(run_.job.config);
    tb::DramModel dram;
    dram.configure(run_.job.timing);
    dram.load(run_.job.dram);
    tb::DramModelPort port(dram);
    RetireRecorder recorder(*hw_);
    hw_->load(built_.elf, dram.size());
    hw_->set_cycle_observer(&recorder);
    hw_->ctl_write(regs::kCtlStart, 1);
    while (!hw_->stopped() && hw_->cycle() < cycle_cap_) hw_->run_cycles(cycle_cap_ - hw_->cycle(), port);
    recorder.flush();
    hw_->set_cycle_observer(nullptr);
    rtl_stopped_ = hw_->stopped();
    rtl_retirements_ = recorder.steps.size();
    rtl_run_length_ = rtl_stopped_ ? hw_->run_length() : hw_->cycle();
    rtl_dram_ = dram.bytes();
    const ErrorReport error = hw_->error();
    if (!rtl_stopped_) {
      rtl_end_ = "cycle cap";
      rtl_why_ = hang_diagnosis(hw_->pc(), hw_->stall(), cycle_cap_, [&](uint32_t pc) {
                   return eval_describe(pc);
                 }).detail;
    } else if (error.code != ErrorCode::kNone) {
      rtl_end_ = "error";
      rtl_end_pc_ = error.pc;
      rtl_why_ = runtime_error_text(error, [&](uint32_t pc) { return eval_describe(pc); });
    } else {
      rtl_end_ = "ecall";
    }
    auto entry = std::find_if(recorder.steps.begin(), recorder.steps.end(),
                              [&](const RegisterStep& s) { return s.pc == kernel_pc_; });
    if (entry == recorder.steps.end())
      throw std::runtime_error("rvv: the RTL never reached `kernel`: " + rtl_end_ + " " + rtl_why_);
    // The state at the entry: after the instruction before it (the call).
    RegisterStep at_entry = entry == recorder.steps.begin() ? RegisterStep{} : *(entry - 1);
    rtl_.push_back(at_entry);
    rtl_pcs_.push_back(entry->pc);
    for (auto it = entry; it != recorder.steps.end(); ++it) {
      rtl_.push_back(*it);
      rtl_pcs_.push_back(it + 1 == recorder.steps.end() ? hw_->pc() : (it + 1)->pc);
    }
    if (!rtl_stopped_ && rtl_.size() > 1) {
      // Cut by the cycle cap: what follows the last retirement is undecided (decode may hold a fall-through
      // a taken branch is about to flush), so the trace ends one retirement earlier, at a known next pc.
      rtl_.pop_back();
      rtl_pcs_.pop_back();
    }
    // Where the RTL's run is over: after its last retirement, or before the ecall that ended it (QEMU's
    // trace stops there too).
    rtl_last_ = rtl_.size() - 1;
    constexpr uint32_t kEcall = 0x00000073u;
    const uint32_t last_pc = rtl_.back().pc;
    if (rtl_stopped_ && error.code == ErrorCode::kNone && rtl_last_ > 0 && last_pc / 4 < built_.itcm.size() &&
        built_.itcm[last_pc / 4] == kEcall) {
      --rtl_last_;
    }
  }

  uint32_t rtl_next_pc(size_t k) const { return k < rtl_pcs_.size() ? rtl_pcs_[k] : 0; }

  void apply_fault(RegisterStep& regs) const {
    const std::string& reg = fault_->register_name;
    const bool x = reg[0] == 'x', f = reg[0] == 'f';
    int i = -1;
    if ((x || f) && reg.size() > 1 && reg.find_first_not_of("0123456789", 1) == std::string::npos)
      i = std::stoi(reg.substr(1));
    if (i < 0 || i >= 32)
      throw std::invalid_argument("model fault: no register '" + reg + "' (x0..x31, f0..f31)");
    (x ? regs.x[i] : regs.f[i]) ^= static_cast<uint32_t>(fault_->xor_mask);
  }

  const tb::PreparedRun& run_;
  Params p_;
  const BuiltKernel& built_;
  uint64_t cycle_cap_;
  std::optional<ModelFault> fault_;
  std::map<std::string, uint32_t> labels_;
  uint32_t kernel_pc_ = 0;
  std::unique_ptr<RvvHw> hw_;
  std::vector<RegisterStep> qemu_;  // qemu_[k]: pc of instruction k, registers before it
  std::vector<RegisterStep> rtl_;   // rtl_[k]: registers after k kernel instructions
  std::vector<uint32_t> rtl_pcs_;   // rtl_pcs_[k]: the next instruction's pc
  std::string qemu_end_, rtl_end_;
  std::string qemu_why_, rtl_why_;  // eval's words for how each run ended ("" for a normal end)
  std::optional<std::vector<uint8_t>> qemu_dram_;  // QEMU's final DRAM, when the kernel returned
  std::vector<uint8_t> rtl_dram_;                  // the RTL's DRAM at the end of its run
  size_t rtl_last_ = 0;                            // rtl_[rtl_last_]: the state where the RTL's run ends
  std::optional<uint32_t> rtl_end_pc_;             // the erring instruction's pc
  uint64_t rtl_run_length_ = 0;
  uint64_t rtl_retirements_ = 0;  // all of the RTL's, crt0's included
  bool rtl_stopped_ = true;
  std::optional<std::map<uint32_t, std::string>> listing_;
  static inline unsigned counter_ = 0;
};

}  // namespace

CommandReport RvvPlatform::debug(const DebugOptions& o, const tasks::TaskRegistry& registry) const {
  // The same image `kcraft eval` runs on.
  const auto debug_run = tb::prepare_debug_run(*this, o, registry, rvv_hw_configs, 0);
  if (!debug_run.run) return debug_run.failed;
  const auto& prepared = debug_run.run;
  const auto built = std::any_cast<std::shared_ptr<const BuiltKernel>>(prepared->program.artifact);
  const uint64_t cap = o.cycle_cap != 0 ? o.cycle_cap : default_cycle_cap(prepared->cfg);
  RvvDebugTarget target(*prepared, params_from_config(*prepared->hw), *built, cap, o.model_fault);
  return tb::run_debug_session(o, target);
}

}  // namespace kcraft::rvv
