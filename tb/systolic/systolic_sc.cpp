// The SystemC side of the systolic testbench: accelerator, DRAM and host as TLM-2.0 components.
//
//   SystolicHost --ctl (MMIO)--> SystolicAccel --DMA--> DramTarget
//        `------------------ debug transport ------------'
//
// The accelerator advances its Verilated model up to kQuantumCycles per wait() (temporal decoupling), so
// the SystemC kernel costs almost nothing per simulated cycle; DRAM accesses carry the accelerator's
// local time offset and come back with the cycle their response is due.
#include <verilated.h>  // before <systemc> (shared/reference/simulation.md)

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <systemc>
#include <tlm>

#include "tb/common/dram_target.h"
#include "tb/common/sc_run.h"
#include "tb/systolic/systolic_regs.h"
#include "tb/systolic/systolic_sim.h"
#include "tb/systolic/systolic_timeline.h"

namespace kcraft::systolic {

namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr uint64_t kQuantumCycles = 10'000;
constexpr uint32_t kCtlReadFlag = 0x80000000u;  // ctl socket: reads address (sel << 24) | index

// MMIO address of a back-door read.
uint32_t dbg_address(unsigned sel, uint32_t index) {
  return kCtlReadFlag | (sel << 24) | (index & 0xFFFFFFu);
}

class SystolicAccel : public sc_core::sc_module, public MemoryPort {
 public:
  tlm_utils::simple_initiator_socket<SystolicAccel> dram_socket;
  tlm_utils::simple_target_socket<SystolicAccel> ctl_socket;
  sc_core::sc_event done;

  SC_HAS_PROCESS(SystolicAccel);
  SystolicAccel(sc_core::sc_module_name name, std::unique_ptr<SystolicHw> hw)
      : sc_module(name), dram_socket("dram_socket"), ctl_socket("ctl_socket"), hw_(std::move(hw)) {
    ctl_socket.register_b_transport(this, &SystolicAccel::ctl_transport);
    SC_THREAD(run_thread);
  }

  SystolicHw& hw() { return *hw_; }
  void set_period(sc_time period) { period_ = period; }
  void set_cycle_cap(uint64_t cap) { cycle_cap_ = cap; }
  bool timed_out() const { return timed_out_; }

  uint64_t access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t cycle,
                  uint32_t pc) override {
    tlm::tlm_generic_payload trans;
    tb::InstrTag tag;
    tag.pc = pc;
    trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans.set_address(addr);
    trans.set_data_ptr(data);
    trans.set_data_length(len);
    trans.set_streaming_width(len);
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    trans.set_extension(&tag);
    // Local time offset of this cycle relative to the last synchronisation point.
    sc_time delay = period_ * static_cast<double>(cycle - synced_cycle_);
    dram_socket->b_transport(trans, delay);
    trans.clear_extension(&tag);
    if (trans.is_response_error()) {
      throw std::runtime_error("hardware bug: DRAM rejected a " + std::string(write ? "write" : "read") +
                               " at 0x" + std::to_string(addr) + " that the RTL's range check let through (" +
                               trans.get_response_string() + ")");
    }
    const auto due_abs = static_cast<uint64_t>((sc_core::sc_time_stamp() + delay) / period_ + 0.5);
    const auto start_abs = static_cast<uint64_t>(run_start_time_ / period_ + 0.5);
    return due_abs - start_abs;
  }

 private:
  void ctl_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
    const auto addr = static_cast<uint32_t>(trans.get_address());
    const unsigned len = trans.get_data_length();
    if (trans.is_write()) {
      if (len != 4 || (addr & kCtlReadFlag)) {
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
      }
      uint32_t data = 0;
      std::memcpy(&data, trans.get_data_ptr(), 4);
      hw_->ctl_write(addr, data);
      if (addr == regs::kCtlStart) start_.notify(sc_core::SC_ZERO_TIME);
      delay += period_;
    } else {
      if (!(addr & kCtlReadFlag)) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
      }
      hw_->dbg_read((addr >> 24) & 0x7Fu, addr & 0xFFFFFFu, trans.get_data_ptr(), len);
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  void run_thread() {
    while (true) {
      wait(start_);
      // Start on a clock edge of this configuration: simulation time carries over from earlier runs,
      // possibly of another configuration with another period, and every cycle number derived from
      // time below must be an exact multiple of the period.
      const sc_time::value_type phase = sc_core::sc_time_stamp().value() % period_.value();
      if (phase != 0) wait(sc_time::from_value(period_.value() - phase));
      run_start_time_ = sc_core::sc_time_stamp();
      synced_cycle_ = 0;
      timed_out_ = false;
      while (!hw_->halted()) {
        const uint64_t left = cycle_cap_ - hw_->cycle();
        if (left == 0) {
          timed_out_ = true;
          break;
        }
        const uint64_t ran = hw_->run_cycles(std::min(left, kQuantumCycles), *this);
        synced_cycle_ += ran;
        wait(period_ * static_cast<double>(ran));
      }
      done.notify(sc_core::SC_ZERO_TIME);
    }
  }

  std::unique_ptr<SystolicHw> hw_;
  sc_time period_{1, SC_NS};
  sc_time run_start_time_;
  uint64_t synced_cycle_ = 0;
  uint64_t cycle_cap_ = 0;
  bool timed_out_ = false;
  sc_core::sc_event start_;
};

// Loads a job through the TLM sockets, starts the accelerator and collects the results.
class SystolicHost : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<SystolicHost> ctl_socket;
  tlm_utils::simple_initiator_socket<SystolicHost> dram_socket;

  SystolicHost(sc_core::sc_module_name name, SystolicAccel& accel, tb::DramTarget& dram)
      : sc_module(name), ctl_socket("ctl_socket"), dram_socket("dram_socket"), accel_(accel), dram_(dram) {}

  void execute(const RunJob& job, RunResult& out) {
    auto wall_start = std::chrono::steady_clock::now();
    SystolicHw& hw = accel_.hw();
    const sc_time period = accel_period(job);
    accel_.set_period(period);
    dram_.set_clock_period(period);
    dram_.model().configure(job.timing);
    dram_.model().load(std::vector<uint8_t>(job.dram.size()));
    dram_.model().set_writable(job.writable);
    debug_transfer(true, 0, const_cast<uint8_t*>(job.dram.data()), job.dram.size());

    hw.reset_and_clear();
    if (!job.waveform_path.empty()) hw.open_waveform(job.waveform_path);
    out.trace.clear();
    hw.set_instruction_trace(job.instruction_trace ? &out.trace : nullptr);
    std::unique_ptr<SystolicTimelineRecorder> recorder;
    if (job.timeline) {
      recorder = std::make_unique<SystolicTimelineRecorder>(hw.params(), job.timeline_title,
                                                            period.to_seconds() * 1e9);
    }
    hw.set_cycle_observer(recorder.get());
    for (size_t i = 0; i < job.program.size(); ++i)
      ctl_write(regs::kCtlImem + static_cast<uint32_t>(i), job.program[i]);
    ctl_write(regs::kCtlDramBytes, static_cast<uint32_t>(std::min<uint64_t>(job.dram.size(), 0xFFFFFFFFu)));
    accel_.set_cycle_cap(job.cycle_cap);
    ctl_write(regs::kCtlStart, 1);
    wait(accel_.done);
    hw.set_instruction_trace(nullptr);
    hw.set_cycle_observer(nullptr);
    hw.close_waveform();
    if (recorder) out.timeline = std::make_shared<tb::Timeline>(recorder->finish(hw.cycle()));

    out.cycles = hw.cycle();
    for (unsigned i = 0; i < kNumCounters; ++i) out.counters[i] = dbg_read64(regs::kDbgCounter, i);
    if (accel_.timed_out()) {
      out.stop = RunResult::Stop::kTimeout;
      out.hang = hw.hang_report();
    } else {
      const auto code = static_cast<ErrorCode>(dbg_read64(regs::kDbgStatus, regs::kStErrCode));
      out.stop = code == ErrorCode::kNone ? RunResult::Stop::kHalted : RunResult::Stop::kError;
      if (code != ErrorCode::kNone) {
        out.error.code = code;
        out.error.pc = static_cast<uint32_t>(dbg_read64(regs::kDbgStatus, regs::kStErrPc));
        out.error.lo = dbg_read64(regs::kDbgStatus, regs::kStErrLo);
        out.error.hi = dbg_read64(regs::kDbgStatus, regs::kStErrHi);
      }
    }
    out.dram.resize(job.dram.size());
    debug_transfer(false, 0, out.dram.data(), out.dram.size());
    out.violations = dram_.model().violations();
    if (job.read_state) out.state = hw.read_state();
    out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  }

  static sc_time accel_period(const RunJob& job) {
    if (!(job.clock_mhz > 0)) throw std::invalid_argument("clock_mhz must be positive");
    return sc_time(1000.0 / job.clock_mhz, SC_NS);
  }

 private:
  void ctl_write(uint32_t addr, uint32_t data) {
    tlm::tlm_generic_payload trans;
    sc_time delay = sc_core::SC_ZERO_TIME;
    trans.set_command(tlm::TLM_WRITE_COMMAND);
    trans.set_address(addr);
    trans.set_data_ptr(reinterpret_cast<unsigned char*>(&data));
    trans.set_data_length(4);
    trans.set_streaming_width(4);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    ctl_socket->b_transport(trans, delay);
    if (trans.is_response_error())
      throw std::runtime_error("control write failed: " + trans.get_response_string());
  }

  uint64_t dbg_read64(unsigned sel, uint32_t index) {
    uint64_t v = 0;
    tlm::tlm_generic_payload trans;
    sc_time delay = sc_core::SC_ZERO_TIME;
    trans.set_command(tlm::TLM_READ_COMMAND);
    trans.set_address(dbg_address(sel, index));
    trans.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    trans.set_data_length(8);
    trans.set_streaming_width(8);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    ctl_socket->b_transport(trans, delay);
    return v;
  }

  void debug_transfer(bool write, uint64_t addr, uint8_t* data, size_t len) {
    tlm::tlm_generic_payload trans;
    trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans.set_address(addr);
    trans.set_data_ptr(data);
    trans.set_data_length(static_cast<unsigned>(len));
    if (dram_socket->transport_dbg(trans) != len) throw std::runtime_error("DRAM debug transfer incomplete");
  }

  SystolicAccel& accel_;
  tb::DramTarget& dram_;
};

// One accelerator + DRAM + host per linked hardware configuration, and the thread that hands jobs to
// them. Built once per process; sc_start() returns whenever the dispatcher pauses between jobs.
class SystolicWorld : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(SystolicWorld);
  explicit SystolicWorld(sc_core::sc_module_name name) : sc_module(name) {
    for (const auto& config : systolic_hw_configs()) {
      auto sys = std::make_unique<System>();
      sys->accel = std::make_unique<SystolicAccel>(("accel_" + config).c_str(), make_systolic_hw(config));
      sys->dram = std::make_unique<tb::DramTarget>(("dram_" + config).c_str(), sc_time(1, SC_NS));
      sys->host = std::make_unique<SystolicHost>(("host_" + config).c_str(), *sys->accel, *sys->dram);
      sys->accel->dram_socket.bind(sys->dram->socket);
      sys->host->ctl_socket.bind(sys->accel->ctl_socket);
      sys->host->dram_socket.bind(sys->dram->socket);
      systems_.emplace(config, std::move(sys));
    }
    SC_THREAD(dispatch);
  }

  RunResult run(const RunJob& job) {
    auto it = systems_.find(job.config);
    if (it == systems_.end())
      throw std::invalid_argument("unknown hardware configuration '" + job.config + "'");
    job_ = &job;
    result_ = RunResult{};
    error_.clear();
    job_posted_.notify(sc_core::SC_ZERO_TIME);
    tb::sc_start_and_restore_stack();
    if (job_ != nullptr) throw std::runtime_error("SystemC simulation stopped before the job finished");
    if (!error_.empty()) throw std::runtime_error(error_);
    return std::move(result_);
  }

  Params params(const std::string& config) {
    auto it = systems_.find(config);
    if (it == systems_.end()) throw std::invalid_argument("unknown hardware configuration '" + config + "'");
    return it->second->accel->hw().params();
  }

 private:
  struct System {
    std::unique_ptr<SystolicAccel> accel;
    std::unique_ptr<tb::DramTarget> dram;
    std::unique_ptr<SystolicHost> host;
  };

  // Idle, it waits for an event rather than pausing the simulation every delta cycle: other platforms'
  // testbenches share the simulation (tb/common/sc_run.h) and run their jobs while this one waits.
  void dispatch() {
    while (true) {
      while (job_ == nullptr) wait(job_posted_);
      try {
        systems_.at(job_->config)->host->execute(*job_, result_);
      } catch (const std::exception& e) {
        error_ = e.what();
      }
      job_ = nullptr;
      sc_core::sc_pause();
    }
  }

  std::map<std::string, std::unique_ptr<System>> systems_;
  const RunJob* job_ = nullptr;
  RunResult result_;
  std::string error_;
  sc_core::sc_event job_posted_;
};

SystolicWorld* instance = nullptr;

SystolicWorld& world() {
  announce_systemc_world();
  tb::sc_world_elaborate();
  return *instance;
}

}  // namespace

void announce_systemc_world() {
  tb::sc_world_add("systolic", [] {
    sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
    instance = new SystolicWorld("systolic");
  });
}

RunResult run_on_rtl(const RunJob& job) {
  return world().run(job);
}

Params rtl_params(const std::string& config) {
  return world().params(config);
}

}  // namespace kcraft::systolic
