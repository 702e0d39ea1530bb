// DRAM as a SystemC TLM-2.0 loosely-timed target around DramModel.
//
// b_transport performs the access, checks the write permissions and annotates the delay until the
// response is due (latency + bandwidth queueing, in the model's clock). A byte-enable array, if given,
// has one entry per data byte (TLM_BYTE_ENABLED / TLM_BYTE_DISABLED) and selects the bytes accessed. transport_dbg gives the host
// zero-time access for loading inputs and reading outputs. Initiators tag each transaction with the
// issuing instruction's PC (InstrTag) so a forbidden write can be reported against its instruction.
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

#include "tb/common/dram_model.h"

namespace kcraft::tb {

// TLM extension: the PC of the instruction behind a transaction.
struct InstrTag : tlm::tlm_extension<InstrTag> {
  uint32_t pc = 0;
  tlm::tlm_extension_base* clone() const override { return new InstrTag(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    pc = static_cast<const InstrTag&>(other).pc;
  }
};

class DramTarget : public sc_core::sc_module {
 public:
  // Several initiators (the accelerator's DMA, the host's loader) bind to the same socket.
  tlm_utils::multi_passthrough_target_socket<DramTarget> socket;

  DramTarget(sc_core::sc_module_name name, sc_core::sc_time clock_period);

  DramModel& model() { return model_; }
  void set_clock_period(sc_core::sc_time period) { period_ = period; }

 private:
  void b_transport(int initiator, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(int initiator, tlm::tlm_generic_payload& trans);

  DramModel model_;
  sc_core::sc_time period_;
};

}  // namespace kcraft::tb
