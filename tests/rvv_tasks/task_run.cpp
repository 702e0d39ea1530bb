#include "tests/rvv_tasks/task_run.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unordered_map>

#include "isa/rvv/elf32.h"
#include "isa/rvv/rvv_memory_map.h"
#include "tasks/common/inputs.h"
#include "tasks/golden/golden.h"
#include "tasks/rvv/baseline_compiler.h"
#include "tasks/rvv/symbols.h"

namespace kcraft::rvv::testing {

const tasks::TaskRegistry& registry() {
  static const tasks::TaskRegistry r =
      tasks::TaskRegistry::load_directory(std::string(KCRAFT_SOURCE_DIR) + "/tasks/specs");
  return r;
}

TaskRun run_task(const std::string& task, const std::string& config, const std::string& source, int vlen,
                 uint64_t seed, const std::string& language) {
  using namespace std::chrono_literals;
  TaskRun r;
  const tasks::TaskSpec& spec = registry().get(task);
  r.cfg = spec.resolve(config, tasks::DType::fp32);
  r.layout = task_layout(r.cfg);
  const auto inputs = tasks::make_inputs(r.cfg, seed);
  BuildOptions o;
  o.language = language;
  o.file_name = language == "c" ? "kernel.c" : "kernel.S";
  o.vlen = vlen;
  o.symbols_header = symbols_header(r.cfg, r.layout, {{"VLEN", vlen}});
  const auto t0 = std::chrono::steady_clock::now();
  r.built = build_kernel(source, o);
  r.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!r.built.ok) {
    r.message = "build failed:\n" + format_diagnostics(r.built.diagnostics) + r.built.log;
    return r;
  }
  const auto dram = tasks::make_dram_image(r.layout, inputs);
  r.run = run_qemu(r.built, dram, {vlen, 120s, {}});
  if (r.run.end != RunEnd::kExited) {
    r.message = fmt::format("QEMU: {}: {}", run_end_name(r.run.end), r.run.message);
    return r;
  }
  r.inputs_intact = r.run.dram.size() == dram.size();
  for (const auto& region : r.layout.regions) {
    if (region.kind != tasks::RegionKind::input || !r.inputs_intact) continue;
    r.inputs_intact = std::equal(dram.begin() + static_cast<std::ptrdiff_t>(region.address),
                                 dram.begin() + static_cast<std::ptrdiff_t>(region.end()),
                                 r.run.dram.begin() + static_cast<std::ptrdiff_t>(region.address));
  }
  const auto outputs = tasks::read_outputs(r.layout, r.run.dram);
  const auto refs = tasks::compute_reference(r.cfg, spec.golden, inputs);
  r.compare = tasks::compare_outputs(r.cfg, outputs, refs);
  return r;
}

std::vector<uint8_t> program_elf(const BuiltKernel& kernel, const std::vector<uint8_t>& dram) {
  ElfSegment itcm;
  itcm.address = RVV_ITCM_BASE;
  itcm.mem_bytes = RVV_ITCM_BYTES;
  itcm.executable = true;
  itcm.data.assign(RVV_ITCM_BYTES, 0);
  std::memcpy(itcm.data.data(), kernel.itcm.data(), kernel.itcm.size() * 4);
  ElfSegment dtcm;
  dtcm.address = RVV_DTCM_BASE;
  dtcm.mem_bytes = RVV_DTCM_BYTES;
  dtcm.writable = true;
  dtcm.data.assign(RVV_DTCM_BYTES, 0);
  for (const auto& d : kernel.data)
    std::copy(d.bytes.begin(), d.bytes.end(), dtcm.data.begin() + (d.address - RVV_DTCM_BASE));
  const auto n = static_cast<uint32_t>(dram.size());
  std::memcpy(dtcm.data.data() + (RVV_HOST_DRAM_BYTES - RVV_DTCM_BASE), &n, 4);
  ElfSegment d;
  d.address = RVV_DRAM_BASE;
  d.mem_bytes = n;
  d.writable = true;
  d.data = dram;
  ElfImage image;
  image.entry = kernel.entry;
  image.segments = {std::move(itcm), std::move(dtcm), std::move(d)};
  return write_elf32(image);
}

// The block's instructions: "0x00000010:  00a00513          addi a0,zero,10" lines after "IN:".
InstructionCount count_instructions(const BuiltKernel& k, const std::vector<uint8_t>& dram, int vlen) {
  const auto elf = program_elf(k, dram);
  std::string path = (std::filesystem::temp_directory_path() / "kcraft-icount-XXXXXX").string();
  const int fd = ::mkstemp(path.data());
  if (fd < 0) throw std::runtime_error("cannot create a temp file");
  ::close(fd);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(elf.data()), static_cast<std::streamsize>(elf.size()));
  ::chmod(path.c_str(), 0700);
  const std::string qemu = find_tool("qemu-riscv32", "qemu-user");
  const std::string cmd = fmt::format(
      "exec {} -cpu {} -d in_asm,exec,nochain -D /dev/fd/3 {} 3>&1 1>/dev/null", qemu, qemu_cpu(vlen), path);
  const auto t0 = std::chrono::steady_clock::now();
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) throw std::runtime_error("cannot run " + qemu);
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> blocks;  // pc -> (instructions, vector ones)
  InstructionCount c;
  char line[512];
  bool in_block = false;
  uint32_t start = 0, n = 0, nv = 0;
  while (std::fgets(line, sizeof line, p) != nullptr) {
    const std::string s(line);
    if (s.rfind("IN:", 0) == 0) {
      in_block = true;
      n = nv = 0;
      continue;
    }
    if (in_block) {
      if (s.rfind("0x", 0) == 0) {
        const uint32_t pc = static_cast<uint32_t>(std::stoul(s.substr(0, 10), nullptr, 16));
        if (n == 0) start = pc;
        ++n;
        // "0x00000010:  00a00513          addi ..." : the mnemonic after the encoding
        const auto enc = s.find_first_not_of(' ', 11);
        const auto mn = s.find_first_not_of(' ', s.find(' ', enc));
        if (mn != std::string::npos && s[mn] == 'v') ++nv;
        continue;
      }
      if (n > 0) blocks[start] = {n, nv};
      in_block = false;
    }
    if (s.rfind("Trace ", 0) == 0) {  // "Trace 0: 0x7f.. [00000000/00000010/00000000/ff000000] "
      const auto slash = s.find('/');
      if (slash == std::string::npos) continue;
      const uint32_t pc = static_cast<uint32_t>(std::stoul(s.substr(slash + 1, 8), nullptr, 16));
      const auto it = blocks.find(pc);
      if (it == blocks.end())
        throw std::runtime_error(fmt::format("executed block at 0x{:08x} never translated", pc));
      c.instructions += it->second.first;
      c.vector_instructions += it->second.second;
      ++c.blocks;
    }
  }
  const int status = ::pclose(p);
  std::remove(path.c_str());
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (status != 0) throw std::runtime_error(fmt::format("qemu-riscv32 exited with status {}", status));
  return c;
}

}  // namespace kcraft::rvv::testing
