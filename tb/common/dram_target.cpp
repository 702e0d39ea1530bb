#include "tb/common/dram_target.h"

#include <cstring>

namespace kcraft::tb {

DramTarget::DramTarget(sc_core::sc_module_name name, sc_core::sc_time clock_period)
    : sc_core::sc_module(name), socket("socket"), period_(clock_period) {
  socket.register_b_transport(this, &DramTarget::b_transport);
  socket.register_transport_dbg(this, &DramTarget::transport_dbg);
}

void DramTarget::b_transport(int /*initiator*/, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t addr = trans.get_address();
  const unsigned len = trans.get_data_length();
  // Byte enables, if any, cover the data one to one (no repeating pattern); no streaming.
  const uint8_t* be = trans.get_byte_enable_ptr();
  if (trans.get_streaming_width() < len) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (be != nullptr && trans.get_byte_enable_length() != len) {
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (!model_.in_range(addr, len, be)) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  InstrTag* tag = nullptr;
  trans.get_extension(tag);
  // Cycle of the request in the initiator's local time (temporal decoupling).
  const uint64_t now = static_cast<uint64_t>((sc_core::sc_time_stamp() + delay) / period_ + 0.5);
  const uint64_t due =
      model_.access(trans.is_write(), addr, trans.get_data_ptr(), len, now, tag ? tag->pc : 0, be);
  delay = period_ * static_cast<double>(due) - sc_core::sc_time_stamp();
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned DramTarget::transport_dbg(int /*initiator*/, tlm::tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  unsigned len = trans.get_data_length();
  if (addr >= model_.size()) return 0;
  if (addr + len > model_.size()) len = static_cast<unsigned>(model_.size() - addr);
  auto& mem = model_.bytes();
  if (trans.is_write()) {
    std::memcpy(&mem[addr], trans.get_data_ptr(), len);
  } else {
    std::memcpy(trans.get_data_ptr(), &mem[addr], len);
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return len;
}

}  // namespace kcraft::tb
