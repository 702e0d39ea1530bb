// The SystemC side of every platform's testbench: accelerator, DRAM and host as TLM-2.0 components.
//
//   <platform> host --ctl (MMIO)--> ScAccelerator --DMA--> DramTarget
//         `------------------- debug transport --------------'
//
// The accelerator advances its Verilated model (an AcceleratorHw) up to kQuantumCycles per wait()
// (temporal decoupling), so the SystemC kernel costs almost nothing per simulated cycle; DRAM accesses
// carry the accelerator's local time offset and come back with the cycle their response is due. The
// process's one SystemC design (tb/common/sc_run.h) holds an ScWorld per platform: for every hardware
// configuration linked in, one accelerator, one DRAM target and one host, and a thread that hands them
// jobs. A platform supplies its host (what to read back after a run) and its RunResult.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "tb/common/accelerator_hw.h"
#include "tb/common/dram_target.h"
#include "tb/common/run_job.h"

namespace kcraft::tb {

class ScAccelerator : public sc_core::sc_module, public MemoryPort {
 public:
  static constexpr uint64_t kQuantumCycles = 10'000;
  static constexpr uint32_t kCtlReadFlag = 0x80000000u;  // ctl socket reads address (sel << 24) | index

  tlm_utils::simple_initiator_socket<ScAccelerator> dram_socket;
  tlm_utils::simple_target_socket<ScAccelerator> ctl_socket;
  sc_core::sc_event done;

  SC_HAS_PROCESS(ScAccelerator);
  ScAccelerator(sc_core::sc_module_name name, std::unique_ptr<AcceleratorHw> hw);

  AcceleratorHw& hw() { return *hw_; }
  void set_period(sc_core::sc_time period) { period_ = period; }
  void set_cycle_cap(uint64_t cap) { cycle_cap_ = cap; }
  bool timed_out() const { return timed_out_; }
  // The absolute cycle (of the whole simulation, which outlives runs) at which this run started.
  uint64_t run_start_cycle() const { return static_cast<uint64_t>(run_start_time_ / period_ + 0.5); }

  uint64_t access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t cycle, uint32_t pc,
                  const uint8_t* byte_enable = nullptr) override;

 private:
  void ctl_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void run_thread();

  std::unique_ptr<AcceleratorHw> hw_;
  // The DRAM transaction, reused: a payload built per request allocates its extension array (TLM-2.0's
  // payload pool, for the one request in flight at a time).
  tlm::tlm_generic_payload dram_trans_;
  sc_core::sc_time period_{1, sc_core::SC_NS};
  sc_core::sc_time run_start_time_;
  uint64_t synced_cycle_ = 0;
  uint64_t cycle_cap_ = 0;
  bool timed_out_ = false;
  sc_core::sc_event start_;
};

// Loads a job through the TLM sockets, starts the accelerator and collects what every platform reports.
class ScHost : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<ScHost> ctl_socket;
  tlm_utils::simple_initiator_socket<ScHost> dram_socket;

  ScHost(sc_core::sc_module_name name, ScAccelerator& accel, DramTarget& dram);

  // Runs the job to its end or its cycle cap and fills `out`; the accelerator's state is left for the
  // platform to read back.
  void run(const RunJob& job, RunOutcome& out);

 protected:
  // The platform's timeline recorder for a run (nullptr: the platform records none).
  virtual std::unique_ptr<TimelineRecorder> make_timeline_recorder(const RunJob& job, double cycle_ns);
  // Loads the job's program through the control port after the reset and clear (default: job.program into
  // IMEM; std::invalid_argument if it does not fit). A platform whose programs carry more than IMEM words
  // (initialised data memories, loader words) writes them here.
  virtual void load_program(const RunJob& job);

  AcceleratorHw& hw() { return accel_.hw(); }
  void ctl_write(uint32_t addr, uint32_t data);
  // A back-door read through the control socket.
  uint64_t dbg_read64(unsigned sel, uint32_t index);
  void debug_transfer(bool write, uint64_t addr, uint8_t* data, size_t len);

 private:
  ScAccelerator& accel_;
  DramTarget& dram_;
};

// One accelerator + DRAM + host per hardware configuration of a platform, and the thread that hands jobs
// to them. sc_start() returns whenever the dispatcher pauses between jobs.
class ScWorld : public sc_core::sc_module {
 public:
  using MakeHw = std::function<std::unique_ptr<AcceleratorHw>(const std::string& config)>;
  using MakeHost = std::function<std::unique_ptr<ScHost>(const char* name, ScAccelerator&, DramTarget&)>;

  SC_HAS_PROCESS(ScWorld);
  ScWorld(sc_core::sc_module_name name, const std::vector<std::string>& configs, const MakeHw& make_hw,
          const MakeHost& make_host);

  // Runs `work` on the configuration's host inside the simulation; rethrows what it threw.
  void run(const std::string& config, const std::function<void(ScHost&)>& work);
  AcceleratorHw& hw(const std::string& config);

 private:
  struct System {
    std::unique_ptr<ScAccelerator> accel;
    std::unique_ptr<DramTarget> dram;
    std::unique_ptr<ScHost> host;
  };
  System& system(const std::string& config);
  void dispatch();

  std::map<std::string, std::unique_ptr<System>> systems_;
  ScHost* host_ = nullptr;
  const std::function<void(ScHost&)>* work_ = nullptr;
  std::string error_;
  sc_core::sc_event job_posted_;
};

// A platform's ScWorld in the process's one SystemC design: announce() adds it (when the Platform object is
// made, so that every platform is in the design before the first job), get() elaborates what is pending
// and returns it.
class ScWorldSlot {
 public:
  ScWorldSlot(std::string platform, std::function<std::vector<std::string>()> configs,
              ScWorld::MakeHw make_hw, ScWorld::MakeHost make_host);
  void announce();
  ScWorld& get();

 private:
  std::string platform_;
  std::function<std::vector<std::string>()> configs_;
  ScWorld::MakeHw make_hw_;
  ScWorld::MakeHost make_host_;
  ScWorld* world_ = nullptr;  // owned by the SystemC simulation, which lives as long as the process
};

}  // namespace kcraft::tb
