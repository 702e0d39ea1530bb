#include "isa/rvv/qemu_runner.h"

#include <fmt/format.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>

#include "isa/rvv/rvv_memory_map.h"
#include "isa/rvv/subprocess.h"

namespace kcraft::rvv {
namespace {

const std::string& qemu_path() {
  static const std::string path = find_tool("qemu-riscv32", "qemu-user");
  return path;
}

uint32_t word(const std::string& bytes, size_t at) {
  uint32_t v = 0;
  std::memcpy(&v, bytes.data() + at, 4);  // little-endian host, as the guest
  return v;
}

ElfImage program_image(const BuiltKernel& kernel, const std::vector<uint8_t>& dram) {
  ElfSegment itcm;
  itcm.address = RVV_ITCM_BASE;
  itcm.mem_bytes = RVV_ITCM_BYTES;
  itcm.writable = false;
  itcm.executable = true;
  // Whole regions as file data (p_filesz = p_memsz): QEMU 7.2 zero-fills a segment's tail by writing to
  // it, which crashes QEMU itself (host SIGSEGV) on a segment that is not writable.
  itcm.data.assign(RVV_ITCM_BYTES, 0);
  std::memcpy(itcm.data.data(), kernel.itcm.data(), kernel.itcm.size() * 4);

  ElfSegment dtcm;
  dtcm.address = RVV_DTCM_BASE;
  dtcm.mem_bytes = RVV_DTCM_BYTES;
  dtcm.writable = true;
  dtcm.data.assign(RVV_DTCM_BYTES, 0);
  for (const auto& d : kernel.data) {
    std::copy(d.bytes.begin(), d.bytes.end(), dtcm.data.begin() + (d.address - RVV_DTCM_BASE));
  }
  const auto n = static_cast<uint32_t>(dram.size());
  std::memcpy(dtcm.data.data() + (RVV_HOST_DRAM_BYTES - RVV_DTCM_BASE), &n, 4);
  const uint32_t flags = RVV_HOST_FLAG_TRAP_REPORT;
  std::memcpy(dtcm.data.data() + (RVV_HOST_FLAGS - RVV_DTCM_BASE), &flags, 4);

  ElfImage image;
  image.entry = kernel.entry;
  image.segments = {std::move(itcm), std::move(dtcm)};
  if (!dram.empty()) {
    ElfSegment d;
    d.address = RVV_DRAM_BASE;
    d.mem_bytes = n;
    d.writable = true;
    d.data = dram;
    image.segments.push_back(std::move(d));
  }
  return image;
}

}  // namespace

std::string_view run_end_name(RunEnd end) {
  switch (end) {
    case RunEnd::kExited:
      return "exited";
    case RunEnd::kTrapped:
      return "trapped";
    case RunEnd::kTimedOut:
      return "timed out";
    case RunEnd::kFailed:
      return "failed";
  }
  return "?";
}

std::string qemu_cpu(int vlen) {
  return fmt::format("rv32,v=false,Zve32f=true,vext_spec=v1.0,vlen={},elen=32,d=false,c=false,a=false", vlen);
}

RunResult interpret_qemu_run(const ProcessResult& p, size_t dram_bytes, std::chrono::milliseconds timeout) {
  RunResult r;
  r.seconds = p.seconds;
  r.qemu_stderr = p.err;
  r.exit_code = p.exit_code;
  if (!p.started) {
    r.started = false;
    r.message = "qemu-riscv32 could not run: " + p.error;
    return r;
  }
  if (p.timed_out) {
    r.end = RunEnd::kTimedOut;
    r.message = fmt::format("still running after {} ms (timeout)", timeout.count());
    return r;
  }
  constexpr size_t kTrapReportBytes = 16 + 128;
  if (p.exit_code == RVV_EXIT_TRAP && p.out.size() == kTrapReportBytes && word(p.out, 0) == RVV_TRAP_MAGIC) {
    r.end = RunEnd::kTrapped;
    r.signal = static_cast<int>(word(p.out, 4));
    r.signal_name = signal_name(r.signal);
    r.fault_address = word(p.out, 12);
    r.pc = word(p.out, 16);
    r.trap_registers.assign(32, 0);
    for (int i = 1; i < 32; ++i) r.trap_registers[i] = word(p.out, 16 + 4 * i);
    r.message = fmt::format("trapped: {} at pc 0x{:08x}", r.signal_name, *r.pc);
    if (r.signal == SIGSEGV || r.signal == SIGBUS)
      r.message += fmt::format(", address 0x{:08x}", *r.fault_address);
    return r;
  }
  if (p.signal != 0) {
    r.end = RunEnd::kTrapped;
    r.signal = p.signal;
    r.signal_name = signal_name(p.signal);
    // At most 8 hex digits: a guest address (a longer number in QEMU's stderr is not one).
    static const std::regex taken(R"(--- SIG[A-Z]+ \{[^}]*si_addr=0x([0-9a-fA-F]{1,8})\b)");
    std::smatch m;
    if (std::regex_search(p.err, m, taken))
      r.fault_address = static_cast<uint32_t>(std::stoul(m[1].str(), nullptr, 16));
    r.message = "trapped: " + r.signal_name;
    if (r.fault_address) {
      r.message += fmt::format(
          " at {} 0x{:08x}", p.signal == SIGSEGV || p.signal == SIGBUS ? "address" : "pc", *r.fault_address);
    }
    r.message += " (no trap report from crt0: its handler could not run, or QEMU itself crashed)";
    return r;
  }
  if (p.exit_code == RVV_EXIT_BAD_SP) {
    r.message = fmt::format("the kernel returned with sp not restored to 0x{:08x}", RVV_STACK_TOP);
    return r;
  }
  const size_t expected = RVV_SIG_BYTES + dram_bytes;
  if (p.exit_code != RVV_EXIT_OK || p.out.size() != expected ||
      word(p.out, RVV_SIG_OFF_MAGIC) != RVV_SIG_MAGIC) {
    r.message = fmt::format(
        "the program did not end through crt0 (exit code {}, {} of {} bytes of end state{}): an ecall in the "
        "kernel ends the program{}",
        p.exit_code, p.out.size(), expected,
        p.out.size() >= 4 && word(p.out, 0) != RVV_SIG_MAGIC ? ", no signature magic" : "",
        p.err.empty() ? "" : "; qemu: " + p.err);
    return r;
  }
  for (int i = 1; i < 32; ++i) r.signature.x[i] = word(p.out, RVV_SIG_OFF_X + 4 * i);
  for (int i = 0; i < 32; ++i) r.signature.f[i] = word(p.out, RVV_SIG_OFF_F + 4 * i);
  r.signature.fcsr = word(p.out, RVV_SIG_OFF_FCSR);
  r.signature.vl = word(p.out, RVV_SIG_OFF_VL);
  r.signature.vtype = word(p.out, RVV_SIG_OFF_VTYPE);
  r.signature.vstart = word(p.out, RVV_SIG_OFF_VSTART);
  r.signature.vlenb = word(p.out, RVV_SIG_OFF_VLENB);
  r.dram.assign(p.out.begin() + RVV_SIG_BYTES, p.out.end());
  r.end = RunEnd::kExited;
  r.message = "exited";
  return r;
}

RunResult run_qemu(const BuiltKernel& kernel, const std::vector<uint8_t>& dram, const RunOptions& options) {
  if (!kernel.ok || kernel.itcm.empty()) throw std::invalid_argument("rvv: run_qemu needs a built kernel");
  if (kernel.itcm.size() * 4 > RVV_ITCM_BYTES)
    throw std::invalid_argument("rvv: the code is larger than the ITCM");
  for (const auto& d : kernel.data) {
    if (d.address < RVV_DTCM_BASE || d.address + d.bytes.size() > RVV_STACK_TOP) {
      throw std::invalid_argument(
          fmt::format("rvv: a data segment at 0x{:08x} is outside the DTCM", d.address));
    }
  }
  if (dram.size() > RVV_DRAM_MAX_BYTES) {
    throw std::invalid_argument(fmt::format("rvv: a DRAM image of {} bytes is larger than the {} rvv allows",
                                            dram.size(), RVV_DRAM_MAX_BYTES));
  }
  const std::string qemu = qemu_path();
  std::string pattern = (std::filesystem::temp_directory_path() / "kcraft-rvv-XXXXXX").string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw std::runtime_error("rvv: cannot create a temp file for the program");
  ::close(fd);
  struct Remove {
    std::string path;
    ~Remove() { std::remove(path.c_str()); }
  } remove{pattern};
  {
    const auto elf = write_elf32(program_image(kernel, dram));
    std::ofstream f(pattern, std::ios::binary);
    f.write(reinterpret_cast<const char*>(elf.data()), static_cast<std::streamsize>(elf.size()));
    if (!f) throw std::runtime_error("rvv: cannot write " + pattern);
  }
  ::chmod(pattern.c_str(), 0700);

  std::vector<std::string> args{qemu, "-strace", "-cpu", qemu_cpu(options.vlen)};
  args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
  args.push_back(pattern);
  const ProcessResult p = run_process(args, options.timeout, "", options.max_log_bytes);
  return interpret_qemu_run(p, dram.size(), options.timeout);
}

}  // namespace kcraft::rvv
