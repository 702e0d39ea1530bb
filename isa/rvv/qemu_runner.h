// Runs a built rvv kernel under QEMU user mode (qemu-riscv32, Debian's qemu-user), the functional
// reference of the rvv platform, with a DRAM image, and reads back the end state by the protocol of
// rvv_memory_map.h: the signature, then the DRAM image, on QEMU's stdout.
//
// The runner writes a program ELF of whole regions: the ITCM (64 KiB, read/execute: code then zeros, so a
// jump into empty ITCM is an illegal instruction), the DTCM (64 KiB, read/write, with the kernel's data
// and the DRAM byte count in RVV_HOST_DRAM_BYTES), and the DRAM image at RVV_DRAM_BASE (read/write).
// QEMU maps them page by page: a load or store outside them is SIGSEGV, a store to the ITCM too.
//
// Traps: the runner sets RVV_HOST_FLAG_TRAP_REPORT, so crt0's signal handler reports the signal, its
// si_addr and the registers at the trap (pc included) on stdout; QEMU 7.2 user mode itself says nothing
// and writes no guest core dump. QEMU also runs with -strace, whose "--- SIGSEGV {... si_addr=...} ---"
// line is the fallback when the handler cannot run.
// QEMU 7.2 user mode has no instruction budget (icount is system mode only): only the wall-clock timeout
// bounds a run. Its CPU:
// `rv32,v=false,Zve32f=true,vext_spec=v1.0,vlen=<VLEN>,elen=32,d=false,c=false,a=false` (RV32IMF + Zve32f:
// e64 vtypes set vill; D, C and A instructions are illegal).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/rvv/subprocess.h"
#include "isa/rvv/toolchain.h"

namespace kcraft::rvv {

struct RunOptions {
  int vlen = 128;
  std::chrono::milliseconds timeout{10000};
  // QEMU options put before the program, e.g. {"-singlestep", "-d", "cpu,fpu,nochain", "-D", log} for a
  // per-instruction register log (kcraft debug).
  std::vector<std::string> extra_args;
  // Caps the files QEMU writes (its -D log), in bytes; 0: no cap. A log that reaches it is cut short
  // (QEMU usually ends with SIGXFSZ): a kernel that never ends does not fill the disk.
  uint64_t max_log_bytes = 0;
};

// The end state crt0 saved (rvv_memory_map.h).
struct Signature {
  uint32_t x[32] = {};  // x[0] = 0
  uint32_t f[32] = {};  // raw bits
  uint32_t fcsr = 0, vl = 0, vtype = 0, vstart = 0, vlenb = 0;
};

enum class RunEnd {
  kExited,    // the kernel returned; dram and signature hold the end state
  kTrapped,   // a fatal signal (illegal instruction, bad access...): `signal`
  kTimedOut,  // still running at the timeout
  kFailed,    // anything else: QEMU failed, the kernel broke the protocol (own ecall, sp not restored)
};
std::string_view run_end_name(RunEnd end);

struct RunResult {
  RunEnd end = RunEnd::kFailed;
  int signal = 0;           // kTrapped: the host signal number (SIGILL, SIGSEGV, ...)
  std::string signal_name;  // "SIGILL"
  // kTrapped: the signal's si_addr: for SIGILL the PC of the instruction, for SIGSEGV/SIGBUS the address
  // accessed (for a fetch, the PC).
  std::optional<uint32_t> fault_address;
  std::optional<uint32_t> pc;            // kTrapped: the PC of the trapping instruction
  std::vector<uint32_t> trap_registers;  // kTrapped: x0..x31 at the trap (x0 = 0), when reported
  int exit_code = -1;                    // when QEMU exited
  std::vector<uint8_t> dram;             // kExited: the final DRAM image (same size as the input)
  Signature signature;                   // kExited
  std::string message;                   // what happened, for a report
  std::string qemu_stderr;
  double seconds = 0.0;
  bool started = true;  // false: QEMU could not be started (`message` says why)
};

// What a finished QEMU process (run_process) means by the protocol of rvv_memory_map.h: the end state
// after a normal end (exactly the signature then `dram_bytes` of DRAM, with the magic), a trap report, a
// signal, a timeout, or a broken protocol (kFailed, with the reason). QEMU's output is outside input: any
// bytes give a RunResult, never an exception.
RunResult interpret_qemu_run(const ProcessResult& process, size_t dram_bytes,
                             std::chrono::milliseconds timeout);

// The -cpu argument for a VLEN.
std::string qemu_cpu(int vlen);

// Throws std::runtime_error when qemu-riscv32 is missing (naming the Debian package qemu-user),
// std::invalid_argument when the kernel was not built or the DRAM image is larger than RVV_DRAM_MAX_BYTES.
RunResult run_qemu(const BuiltKernel& kernel, const std::vector<uint8_t>& dram,
                   const RunOptions& options = {});

}  // namespace kcraft::rvv
