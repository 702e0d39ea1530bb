// The SystemC side of the vliw testbench: accelerator, DRAM and host as TLM-2.0 components.
//
//   VliwHost --ctl (MMIO)--> VliwAccel --DMA--> DramTarget
//       `---------------- debug transport ----------'
//
// The accelerator advances its Verilated model up to kQuantumCycles per wait() (temporal decoupling), so
// the SystemC kernel costs almost nothing per simulated cycle; DRAM accesses carry the accelerator's local
// time offset and come back with the cycle their response is due (the timing of tb::DramModel, which the
// functional model assumes).
#include <verilated.h>  // before <systemc>

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
#include "tb/vliw/vliw_regs.h"
#include "tb/vliw/vliw_sim.h"

namespace kcraft::vliw {

namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr uint64_t kQuantumCycles = 10'000;

class VliwAccel : public sc_core::sc_module, public MemoryPort {
 public:
  tlm_utils::simple_initiator_socket<VliwAccel> dram_socket;
  tlm_utils::simple_target_socket<VliwAccel> ctl_socket;
  sc_core::sc_event done;

  SC_HAS_PROCESS(VliwAccel);
  VliwAccel(sc_core::sc_module_name name, std::unique_ptr<VliwHw> hw)
      : sc_module(name), dram_socket("dram_socket"), ctl_socket("ctl_socket"), hw_(std::move(hw)) {
    ctl_socket.register_b_transport(this, &VliwAccel::ctl_transport);
    SC_THREAD(run_thread);
  }

  VliwHw& hw() { return *hw_; }
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
    if (!trans.is_write() || trans.get_data_length() != 4) {
      trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    const auto addr = static_cast<uint32_t>(trans.get_address());
    uint32_t data = 0;
    std::memcpy(&data, trans.get_data_ptr(), 4);
    hw_->ctl_write(addr, data);
    if (addr == regs::kCtlStart) start_.notify(sc_core::SC_ZERO_TIME);
    delay += period_;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  void run_thread() {
    while (true) {
      wait(start_);
      // Start on a clock edge of this configuration (simulation time carries over from earlier runs,
      // possibly with another period): every cycle number derived from time must be a whole multiple.
      const sc_time::value_type phase = sc_core::sc_time_stamp().value() % period_.value();
      if (phase != 0) wait(sc_time::from_value(period_.value() - phase));
      run_start_time_ = sc_core::sc_time_stamp();
      synced_cycle_ = 0;
      timed_out_ = false;
      while (!hw_->stopped()) {
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

  std::unique_ptr<VliwHw> hw_;
  sc_time period_{1, SC_NS};
  sc_time run_start_time_;
  uint64_t synced_cycle_ = 0;
  uint64_t cycle_cap_ = 0;
  bool timed_out_ = false;
  sc_core::sc_event start_;
};

// Loads a job through the TLM sockets, starts the accelerator and collects the results.
class VliwHost : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<VliwHost> ctl_socket;
  tlm_utils::simple_initiator_socket<VliwHost> dram_socket;

  VliwHost(sc_core::sc_module_name name, VliwAccel& accel, tb::DramTarget& dram)
      : sc_module(name), ctl_socket("ctl_socket"), dram_socket("dram_socket"), accel_(accel), dram_(dram) {}

  void execute(const RunJob& job, RunResult& out) {
    const auto wall_start = std::chrono::steady_clock::now();
    VliwHw& hw = accel_.hw();
    if (!(job.clock_mhz > 0)) throw std::invalid_argument("clock_mhz must be positive");
    const sc_time period(1000.0 / job.clock_mhz, SC_NS);
    accel_.set_period(period);
    dram_.set_clock_period(period);
    dram_.model().configure(job.timing);
    dram_.model().load(std::vector<uint8_t>(job.dram.size()));
    dram_.model().set_writable(job.writable);
    debug_transfer(true, const_cast<uint8_t*>(job.dram.data()), job.dram.size());

    hw.reset_and_clear();
    if (!job.waveform_path.empty()) hw.open_waveform(job.waveform_path);
    out.trace.clear();
    hw.set_instruction_trace(job.instruction_trace ? &out.trace : nullptr);
    for (size_t i = 0; i < job.program.size(); ++i)
      ctl_write(regs::kCtlImem + static_cast<uint32_t>(i), job.program[i]);
    ctl_write(regs::kCtlDramBytes, static_cast<uint32_t>(std::min<uint64_t>(job.dram.size(), 0xFFFFFFFFu)));
    accel_.set_cycle_cap(job.cycle_cap);
    ctl_write(regs::kCtlStart, 1);
    wait(accel_.done);
    hw.set_instruction_trace(nullptr);
    hw.close_waveform();

    out.counters = hw.counters();
    out.cycles = out.counters[kCycles];
    out.state = hw.read_state();
    if (accel_.timed_out()) {
      out.stop = RunResult::Stop::kTimeout;
      out.hang = hw.hang_report();
    } else {
      out.stop = RunResult::Stop::kStopped;
    }
    out.dram.resize(job.dram.size());
    debug_transfer(false, out.dram.data(), out.dram.size());
    out.violations = dram_.model().violations();
    out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
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

  void debug_transfer(bool write, uint8_t* data, size_t len) {
    tlm::tlm_generic_payload trans;
    trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans.set_address(0);
    trans.set_data_ptr(data);
    trans.set_data_length(static_cast<unsigned>(len));
    if (dram_socket->transport_dbg(trans) != len) throw std::runtime_error("DRAM debug transfer incomplete");
  }

  VliwAccel& accel_;
  tb::DramTarget& dram_;
};

// One accelerator + DRAM + host per linked hardware configuration, and the thread that hands jobs to them.
class VliwWorld : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(VliwWorld);
  explicit VliwWorld(sc_core::sc_module_name name) : sc_module(name) {
    for (const auto& config : vliw_hw_configs()) {
      auto sys = std::make_unique<System>();
      sys->accel = std::make_unique<VliwAccel>(("accel_" + config).c_str(), make_vliw_hw(config));
      sys->dram = std::make_unique<tb::DramTarget>(("dram_" + config).c_str(), sc_time(1, SC_NS));
      sys->host = std::make_unique<VliwHost>(("host_" + config).c_str(), *sys->accel, *sys->dram);
      sys->accel->dram_socket.bind(sys->dram->socket);
      sys->host->ctl_socket.bind(sys->accel->ctl_socket);
      sys->host->dram_socket.bind(sys->dram->socket);
      systems_.emplace(config, std::move(sys));
    }
    SC_THREAD(dispatch);
  }

  RunResult run(const RunJob& job) {
    if (systems_.find(job.config) == systems_.end())
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

 private:
  struct System {
    std::unique_ptr<VliwAccel> accel;
    std::unique_ptr<tb::DramTarget> dram;
    std::unique_ptr<VliwHost> host;
  };

  // Waits for an event when idle (other platforms share the simulation), pauses it after each job.
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

VliwWorld* instance = nullptr;

}  // namespace

void announce_systemc_world() {
  tb::sc_world_add("vliw", [] {
    sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
    instance = new VliwWorld("vliw");
  });
}

RunResult simulate(const RunJob& job) {
  announce_systemc_world();
  tb::sc_world_elaborate();
  return instance->run(job);
}

}  // namespace kcraft::vliw
