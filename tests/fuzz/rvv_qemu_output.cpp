// Fuzzes the reading of what QEMU returns for an rvv run (isa/rvv/qemu_runner.cpp, interpret_qemu_run):
// its stdout (crt0's signature and DRAM stream or trap report), its stderr (-strace lines) and how it
// ended are outside input, and every eval twin-runs QEMU.
//
// Any outcome must give a RunResult (never a crash or an exception) that is consistent: a normal end has
// exactly the DRAM size asked for and the end state the stream carried, a trap names its signal, and every
// result that is not a normal end says why.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "isa/rvv/qemu_runner.h"
#include "isa/rvv/rvv_memory_map.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  // Byte 0: how the process ended; byte 1: the DRAM size in 16-byte units; byte 2: where stdout ends and
  // stderr begins (a share of the rest); byte 3: whether stdout starts with the signature magic.
  rvv::ProcessResult p;
  p.started = (data[0] & 0x80) == 0;
  p.timed_out = (data[0] & 0x40) != 0;
  const unsigned end = data[0] & 0x07;
  const int exit_codes[] = {RVV_EXIT_OK, RVV_EXIT_TRAP, RVV_EXIT_BAD_SP, RVV_EXIT_WRITE_FAILED, 1};
  if (end < 5) {
    p.exit_code = exit_codes[end];
  } else {
    p.signal = end == 5 ? 11 : end == 6 ? 4 : 6;  // SIGSEGV, SIGILL, SIGABRT
  }
  const size_t dram_bytes = size_t{data[1]} * 16;
  const std::string rest = fuzz::text_of(data + 4, size - 4);
  const size_t split = rest.size() * data[2] / 255;
  p.out = rest.substr(0, split);
  p.err = rest.substr(split);
  if ((data[3] & 1) != 0 && p.out.size() >= 4) {
    const uint32_t magic = (data[3] & 2) != 0 ? RVV_TRAP_MAGIC : RVV_SIG_MAGIC;
    std::memcpy(p.out.data(), &magic, 4);
  }
  if ((data[3] & 4) != 0) p.out.resize(RVV_SIG_BYTES + dram_bytes, '\0');  // the expected length

  const rvv::RunResult r = rvv::interpret_qemu_run(p, dram_bytes, std::chrono::milliseconds(1000));
  fuzz::check(!r.message.empty(), "a result without a message");
  switch (r.end) {
    case rvv::RunEnd::kExited:
      fuzz::check(p.started && !p.timed_out && p.exit_code == RVV_EXIT_OK && p.signal == 0,
                  "a normal end from a run that did not exit normally");
      fuzz::check(r.dram.size() == dram_bytes, "the DRAM image has another size than asked for");
      // (An empty image has no data pointer: memcmp would be handed null.)
      fuzz::check(
          dram_bytes == 0 || std::memcmp(r.dram.data(), p.out.data() + RVV_SIG_BYTES, dram_bytes) == 0,
          "the DRAM image is not the stream's");
      break;
    case rvv::RunEnd::kTrapped:
      fuzz::check(!r.signal_name.empty() && r.pc.has_value() == (r.trap_registers.size() == 32),
                  "a trap without its signal, or registers without a pc");
      break;
    case rvv::RunEnd::kTimedOut:
      fuzz::check(p.timed_out, "a timeout that QEMU did not have");
      break;
    case rvv::RunEnd::kFailed:
      fuzz::check(r.dram.empty(), "a failed run with a DRAM image");
      break;
  }
  return 0;
}
