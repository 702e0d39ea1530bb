#include "tb/common/sc_testbench.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "tb/common/sc_run.h"

namespace kcraft::tb {

using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

// The timeline recorder and the job's own observer behind the one observer a model takes.
class ObserverPair final : public CycleObserver {
 public:
  ObserverPair(CycleObserver* a, CycleObserver* b) : a_(a), b_(b) {}
  // Itself when both are set, else the one that is (or none).
  CycleObserver* single() { return a_ != nullptr && b_ != nullptr ? this : (a_ != nullptr ? a_ : b_); }
  void on_cycle(uint64_t cycle, uint32_t trace_word, bool issued, uint32_t pc, uint32_t insn) override {
    a_->on_cycle(cycle, trace_word, issued, pc, insn);
    b_->on_cycle(cycle, trace_word, issued, pc, insn);
  }
  void on_dram_request(uint64_t cycle, bool write, uint64_t addr, unsigned bytes, uint64_t due) override {
    a_->on_dram_request(cycle, write, addr, bytes, due);
    b_->on_dram_request(cycle, write, addr, bytes, due);
  }

 private:
  CycleObserver* a_;
  CycleObserver* b_;
};

}  // namespace

// ---- ScAccelerator

ScAccelerator::ScAccelerator(sc_core::sc_module_name name, std::unique_ptr<AcceleratorHw> hw)
    : sc_module(name), dram_socket("dram_socket"), ctl_socket("ctl_socket"), hw_(std::move(hw)) {
  ctl_socket.register_b_transport(this, &ScAccelerator::ctl_transport);
  SC_THREAD(run_thread);
}

uint64_t ScAccelerator::access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t cycle,
                               uint32_t pc, const uint8_t* byte_enable) {
  tlm::tlm_generic_payload& trans = dram_trans_;
  InstrTag tag;
  tag.pc = pc;
  trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  trans.set_address(addr);
  trans.set_data_ptr(data);
  trans.set_data_length(len);
  trans.set_streaming_width(len);
  // TLM's byte-enable pointer is not const, but targets only read it.
  trans.set_byte_enable_ptr(const_cast<uint8_t*>(byte_enable));
  trans.set_byte_enable_length(byte_enable != nullptr ? len : 0);
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

void ScAccelerator::ctl_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
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

void ScAccelerator::run_thread() {
  while (true) {
    wait(start_);
    // Start on a clock edge of this configuration: simulation time carries over from earlier runs,
    // possibly of another configuration with another period, and every cycle number derived from time
    // below must be an exact multiple of the period.
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

// ---- ScHost

ScHost::ScHost(sc_core::sc_module_name name, ScAccelerator& accel, DramTarget& dram)
    : sc_module(name), ctl_socket("ctl_socket"), dram_socket("dram_socket"), accel_(accel), dram_(dram) {}

std::unique_ptr<TimelineRecorder> ScHost::make_timeline_recorder(const RunJob&, double) {
  return nullptr;
}

void ScHost::load_program(const RunJob& job) {
  if (job.program.size() > accel_.hw().imem_words()) {
    throw std::invalid_argument("program of " + std::to_string(job.program.size()) +
                                " words does not fit IMEM_WORDS=" + std::to_string(accel_.hw().imem_words()));
  }
  for (size_t i = 0; i < job.program.size(); ++i)
    ctl_write(regs::kCtlImem + static_cast<uint32_t>(i), job.program[i]);
}

void ScHost::run(const RunJob& job, RunOutcome& out) {
  const auto wall_start = std::chrono::steady_clock::now();
  AcceleratorHw& hw = accel_.hw();
  if (!(job.clock_mhz > 0)) throw std::invalid_argument("clock_mhz must be positive");
  const sc_time period(1000.0 / job.clock_mhz, SC_NS);
  accel_.set_period(period);
  dram_.set_clock_period(period);
  dram_.model().configure(job.timing);
  dram_.model().load(std::vector<uint8_t>(job.dram.size()));
  dram_.model().set_writable(job.writable);
  dram_.model().set_phase_markers(job.phase_markers);
  debug_transfer(true, 0, const_cast<uint8_t*>(job.dram.data()), job.dram.size());

  hw.reset_and_clear();
  if (!job.waveform_path.empty()) hw.open_waveform(job.waveform_path);
  out.trace.clear();
  hw.set_instruction_trace(job.instruction_trace ? &out.trace : nullptr);
  std::unique_ptr<TimelineRecorder> recorder;
  if (job.timeline) recorder = make_timeline_recorder(job, period.to_seconds() * 1e9);
  ObserverPair observers(recorder.get(), job.observer);
  hw.set_cycle_observer(observers.single());
  load_program(job);
  ctl_write(regs::kCtlDramBytes, static_cast<uint32_t>(std::min<uint64_t>(job.dram.size(), 0xFFFFFFFFu)));
  accel_.set_cycle_cap(job.cycle_cap);
  ctl_write(regs::kCtlStart, 1);
  wait(accel_.done);
  hw.set_instruction_trace(nullptr);
  hw.set_cycle_observer(nullptr);
  hw.close_waveform();
  out.cycles = hw.run_length();
  if (recorder) out.timeline = std::make_shared<Timeline>(recorder->finish(out.cycles));
  out.timed_out = accel_.timed_out();
  out.dram.resize(job.dram.size());
  debug_transfer(false, 0, out.dram.data(), out.dram.size());
  out.violations = dram_.model().violations();
  out.phase_marks = dram_.model().phase_marks();
  // The DRAM model stamps marks with the simulation's absolute cycle; runs count from their own start
  // (a test or bench worker runs many kernels in one simulation).
  for (auto& mark : out.phase_marks) mark.cycle -= std::min(mark.cycle, accel_.run_start_cycle());
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
}

void ScHost::ctl_write(uint32_t addr, uint32_t data) {
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

uint64_t ScHost::dbg_read64(unsigned sel, uint32_t index) {
  uint64_t v = 0;
  tlm::tlm_generic_payload trans;
  sc_time delay = sc_core::SC_ZERO_TIME;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(ScAccelerator::kCtlReadFlag | (sel << 24) | (index & 0xFFFFFFu));
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
  trans.set_data_length(8);
  trans.set_streaming_width(8);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  ctl_socket->b_transport(trans, delay);
  if (trans.is_response_error())
    throw std::runtime_error("back-door read failed: " + trans.get_response_string());
  return v;
}

void ScHost::debug_transfer(bool write, uint64_t addr, uint8_t* data, size_t len) {
  tlm::tlm_generic_payload trans;
  trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  trans.set_address(addr);
  trans.set_data_ptr(data);
  trans.set_data_length(static_cast<unsigned>(len));
  if (dram_socket->transport_dbg(trans) != len) throw std::runtime_error("DRAM debug transfer incomplete");
}

// ---- ScWorld

ScWorld::ScWorld(sc_core::sc_module_name name, const std::vector<std::string>& configs, const MakeHw& make_hw,
                 const MakeHost& make_host)
    : sc_module(name) {
  for (const auto& config : configs) {
    auto sys = std::make_unique<System>();
    sys->accel = std::make_unique<ScAccelerator>(("accel_" + config).c_str(), make_hw(config));
    sys->dram = std::make_unique<DramTarget>(("dram_" + config).c_str(), sc_time(1, SC_NS));
    sys->host = make_host(("host_" + config).c_str(), *sys->accel, *sys->dram);
    sys->accel->dram_socket.bind(sys->dram->socket);
    sys->host->ctl_socket.bind(sys->accel->ctl_socket);
    sys->host->dram_socket.bind(sys->dram->socket);
    systems_.emplace(config, std::move(sys));
  }
  SC_THREAD(dispatch);
  // Jobs run on this thread's stack (assembling, loading, the host's transactions): room for a sanitizer
  // build's redzones and unoptimised frames, far beyond SystemC's default of a few hundred KiB.
  set_stack_size(16u << 20);
}

ScWorld::System& ScWorld::system(const std::string& config) {
  auto it = systems_.find(config);
  if (it == systems_.end()) {
    // Its model came (was built or registered) after this process's simulation was elaborated.
    throw std::invalid_argument("hardware configuration '" + config +
                                "' is not in this process's simulation (it was elaborated before the "
                                "configuration's model was built; run it in a new process)");
  }
  return *it->second;
}

AcceleratorHw& ScWorld::hw(const std::string& config) {
  return system(config).accel->hw();
}

void ScWorld::run(const std::string& config, const std::function<void(ScHost&)>& work) {
  host_ = system(config).host.get();
  work_ = &work;
  error_.clear();
  job_posted_.notify(sc_core::SC_ZERO_TIME);
  sc_start_and_restore_stack();
  if (work_ != nullptr) {
    work_ = nullptr;
    throw std::runtime_error("SystemC simulation stopped before the job finished");
  }
  if (!error_.empty()) throw std::runtime_error(error_);
}

// Idle, it waits for an event rather than pausing the simulation every delta cycle: other platforms'
// worlds share the simulation (tb/common/sc_run.h) and run their jobs while this one waits.
void ScWorld::dispatch() {
  while (true) {
    while (work_ == nullptr) wait(job_posted_);
    try {
      (*work_)(*host_);
    } catch (const std::exception& e) {
      error_ = e.what();
    }
    work_ = nullptr;
    sc_core::sc_pause();
  }
}

// ---- ScWorldSlot

ScWorldSlot::ScWorldSlot(std::string platform, std::function<std::vector<std::string>()> configs,
                         ScWorld::MakeHw make_hw, ScWorld::MakeHost make_host)
    : platform_(std::move(platform)),
      configs_(std::move(configs)),
      make_hw_(std::move(make_hw)),
      make_host_(std::move(make_host)) {}

void ScWorldSlot::announce() {
  sc_world_add(platform_, [this] {
    sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
    world_ = new ScWorld(platform_.c_str(), configs_(), make_hw_, make_host_);
  });
}

ScWorld& ScWorldSlot::get() {
  announce();
  sc_world_elaborate();
  return *world_;
}

}  // namespace kcraft::tb
