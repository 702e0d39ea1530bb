// rvv_icount: the dynamic instruction counts of rvv task kernels, under QEMU with TB logging
// (-d in_asm,exec,nochain: every translated block's instructions once, then one line per executed block),
// streamed through a pipe, so even 10^8-instruction runs need no disk.
//
//   rvv_icount [--vlen N] <task> <config> [knob=value ...]   one template kernel (default knobs without)
//   rvv_icount [--vlen N] <task> <config> compiler            the compiler baseline (scalar C at -O2)
//   rvv_icount [--vlen N] --table <config>                   every task's compiler baseline and template
//   rvv_icount --source <task> <config> [knob=value ...]     print the kernel instead
//   rvv_icount [--vlen N] --file <kernel.c|.S> <task> <config>  a kernel of your own
//
// Counts include crt0 (a few hundred instructions: its register clearing and the end-state signature).
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "isa/rvv/qemu_runner.h"
#include "isa/rvv/toolchain.h"
#include "tasks/common/inputs.h"
#include "tasks/rvv/baseline_compiler.h"
#include "tasks/rvv/symbols.h"
#include "tests/rvv_tasks/task_run.h"

namespace kcraft::rvv {
namespace {

testing::InstructionCount count_kernel(const std::string& task, const std::string& config,
                                       const tasks::KnobValues& knobs, bool compiler, int vlen,
                                       std::string* used_knobs = nullptr) {
  const auto cfg = testing::registry().get(task).resolve(config, tasks::DType::fp32);
  const auto layout = task_layout(cfg);
  const BaselineCompiler c(vlen);
  const auto kernel = compiler ? c.compiler_baseline(cfg, layout) : c.generate(cfg, layout, knobs);
  if (compiler && used_knobs != nullptr) *used_knobs += "compiler baseline ";
  // The kernel must be correct before its count means anything.
  const auto run = testing::run_task(task, config, kernel.source, vlen);
  if (!run.passed())
    throw std::runtime_error(fmt::format("{} {}: the kernel does not pass: {}{}", task, config, run.message,
                                         tasks::format_compare(run.compare)));
  if (used_knobs != nullptr) {
    for (const auto& [k, v] : kernel.knobs) *used_knobs += fmt::format("{}={} ", k, v);
  }
  return testing::count_instructions(run.built, tasks::make_dram_image(layout, tasks::make_inputs(cfg, 1234)),
                                     vlen);
}

int usage() {
  std::fprintf(stderr,
               "usage: rvv_icount [--vlen N] <task> <config> [knob=value ... | compiler]\n"
               "       rvv_icount [--vlen N] --table <config>\n"
               "       rvv_icount --source <task> <config> [knob=value ...]\n"
               "       rvv_icount [--vlen N] --file <kernel.c|kernel.S> <task> <config>\n");
  return 2;
}

int run(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  int vlen = 128;
  if (args.size() >= 2 && args[0] == "--vlen") {
    vlen = std::stoi(args[1]);
    args.erase(args.begin(), args.begin() + 2);
  }
  if (args.size() == 2 && args[0] == "--table") {
    std::printf(
        "| task | config | kernel | instructions | vector | QEMU s (logging) |\n|---|---|---|---|---|---|\n");
    for (const auto& task : BaselineCompiler(vlen).supported_tasks()) {
      for (const bool compiler : {true, false}) {
        std::string knobs;
        const testing::InstructionCount c = count_kernel(task, args[1], {}, compiler, vlen, &knobs);
        std::printf("| %s | %s | %s| %llu | %llu | %.1f |\n", task.c_str(), args[1].c_str(), knobs.c_str(),
                    static_cast<unsigned long long>(c.instructions),
                    static_cast<unsigned long long>(c.vector_instructions), c.seconds);
        std::fflush(stdout);
      }
    }
    return 0;
  }
  if (args.size() == 4 && args[0] == "--file") {
    std::ifstream f(args[1]);
    if (!f) throw std::runtime_error("cannot read " + args[1]);
    const std::string text{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    const std::string ext = std::filesystem::path(args[1]).extension().string();
    const auto run = testing::run_task(args[2], args[3], text, vlen, 1234, ext == ".c" ? "c" : "asm");
    if (!run.passed())
      throw std::runtime_error(
          fmt::format("{} does not pass: {}{}", args[1], run.message, tasks::format_compare(run.compare)));
    const auto cfg = testing::registry().get(args[2]).resolve(args[3], tasks::DType::fp32);
    const auto c = testing::count_instructions(
        run.built, tasks::make_dram_image(task_layout(cfg), tasks::make_inputs(cfg, 1234)), vlen);
    std::printf("%s (%s %s): %llu instructions (%llu vector), %.1f s\n", args[1].c_str(), args[2].c_str(),
                args[3].c_str(), static_cast<unsigned long long>(c.instructions),
                static_cast<unsigned long long>(c.vector_instructions), c.seconds);
    return 0;
  }
  const bool source = !args.empty() && args[0] == "--source";
  if (source) args.erase(args.begin());
  if (args.size() < 2) return usage();
  tasks::KnobValues knobs;
  const bool compiler = args.size() == 3 && args[2] == "compiler";
  for (size_t i = compiler ? 3 : 2; i < args.size(); ++i) {
    const auto eq = args[i].find('=');
    if (eq == std::string::npos) return usage();
    knobs[args[i].substr(0, eq)] = std::stoll(args[i].substr(eq + 1));
  }
  if (source) {
    const auto cfg = testing::registry().get(args[0]).resolve(args[1], tasks::DType::fp32);
    const BaselineCompiler c(vlen);
    const auto kernel =
        compiler ? c.compiler_baseline(cfg, task_layout(cfg)) : c.generate(cfg, task_layout(cfg), knobs);
    std::fputs(kernel.source.c_str(), stdout);
    return 0;
  }
  std::string used;
  const testing::InstructionCount c = count_kernel(args[0], args[1], knobs, compiler, vlen, &used);
  std::printf("%s %s %s: %llu instructions (%llu vector) in %llu blocks, %.1f s\n", args[0].c_str(),
              args[1].c_str(), used.c_str(), static_cast<unsigned long long>(c.instructions),
              static_cast<unsigned long long>(c.vector_instructions),
              static_cast<unsigned long long>(c.blocks), c.seconds);
  return 0;
}

}  // namespace
}  // namespace kcraft::rvv

int main(int argc, char** argv) {
  try {
    return kcraft::rvv::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rvv_icount: %s\n", e.what());
    return 1;
  }
}
