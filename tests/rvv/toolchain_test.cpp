// The rvv toolchain and QEMU reference: real clang-16/ld.lld-16 builds run under qemu-riscv32.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "isa/rvv/elf32.h"
#include "isa/rvv/qemu_runner.h"
#include "isa/rvv/rvv_memory_map.h"
#include "isa/rvv/toolchain.h"
#include "tasks/common/inputs.h"
#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"
#include "tasks/rvv/symbols.h"

namespace kcraft::rvv {
namespace {

using namespace std::chrono_literals;

// The relu task at C1 in FP32 (16x16), its layout, inputs and the symbol header for a VLEN.
struct ReluTask {
  tasks::ResolvedConfig cfg;
  tasks::DramLayout layout;
  std::vector<tasks::Tensor> inputs;
  std::string header;

  explicit ReluTask(int vlen = 128) {
    const auto spec = tasks::load_task(std::string(KCRAFT_SOURCE_DIR) + "/tasks/specs/relu.yaml");
    cfg = spec.resolve("C1", tasks::DType::fp32);
    layout = tasks::compute_layout(cfg);
    inputs = tasks::make_inputs(cfg, 7);
    header = symbols_header(cfg, layout, {{"VLEN", vlen}});
  }

  // Builds and runs `source`, and checks y = max(x, 0) element by element against the host and that x is
  // untouched.
  void expect_relu(const std::string& source, BuildOptions options) const {
    options.symbols_header = header;
    const BuiltKernel k = build_kernel(source, options);
    ASSERT_TRUE(k.ok) << format_diagnostics(k.diagnostics) << k.log;
    const auto dram = tasks::make_dram_image(layout, inputs);
    const RunResult r = run_qemu(k, dram, {options.vlen, 10s, {}});
    ASSERT_EQ(r.end, RunEnd::kExited) << r.message << r.qemu_stderr;
    ASSERT_EQ(r.dram.size(), dram.size());
    const auto& x = layout.region("x");
    EXPECT_TRUE(std::equal(dram.begin() + x.address, dram.begin() + x.end(), r.dram.begin() + x.address));
    const auto y = tasks::read_outputs(layout, r.dram).at(0);
    const auto& in = inputs.at(0);
    ASSERT_EQ(y.size(), in.size());
    int negatives = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      const float xf = static_cast<float>(in.data[i]);
      negatives += xf < 0;
      ASSERT_EQ(y.data[i], xf > 0 ? xf : 0.0f) << "element " << i << " x=" << xf;
    }
    EXPECT_GT(negatives, 10);  // the inputs exercise both sides of relu
  }
};

const char* kIntrinsicsRelu = R"(#include <riscv_vector.h>
void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (size_t n = M * N, vl; n > 0; n -= vl, x += vl, y += vl) {
    vl = __riscv_vsetvl_e32m8(n);
    vfloat32m8_t v = __riscv_vle32_v_f32m8(x, vl);
    __riscv_vse32_v_f32m8(y, __riscv_vfmax_vf_f32m8(v, 0.0f, vl), vl);
  }
}
)";

const char* kAsmRelu = R"(  .text
  .globl kernel
kernel:
  li a0, ADDR_X
  li a1, ADDR_Y
  li a2, (M * N)
  fmv.w.x ft0, zero
1:
  vsetvli t0, a2, e32, m8, ta, ma
  vle32.v v8, (a0)
  vfmax.vf v8, v8, ft0
  vse32.v v8, (a1)
  slli t1, t0, 2
  add a0, a0, t1
  add a1, a1, t1
  sub a2, a2, t0
  bnez a2, 1b
  ret
)";

const char* kScalarRelu = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (int i = 0; i < M * N; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
)";

BuildOptions c_options(std::string file = "relu.c") {
  BuildOptions o;
  o.language = "c";
  o.file_name = std::move(file);
  return o;
}

BuildOptions asm_options(std::string file = "relu.S") {
  BuildOptions o;
  o.language = "asm";
  o.file_name = std::move(file);
  return o;
}

// Builds an assembly kernel (no task symbols) that must build.
BuiltKernel build_asm(const std::string& source) {
  BuiltKernel k = build_kernel(source, asm_options("k.S"));
  EXPECT_TRUE(k.ok) << format_diagnostics(k.diagnostics) << k.log;
  return k;
}

TEST(RvvSymbols, HeaderHasAbsoluteAddressesDimensionsAndHardware) {
  const ReluTask t;
  const auto& y = t.layout.region("y");
  EXPECT_NE(t.header.find("#define ADDR_X 0x80000000\n"), std::string::npos) << t.header;
  EXPECT_NE(t.header.find(fmt::format("#define ADDR_Y 0x{:08x}\n", 0x80000000u + y.address)),
            std::string::npos);
  EXPECT_GT(y.address, 0u);
  EXPECT_NE(t.header.find("#define BYTES_X 1024\n"), std::string::npos);
  EXPECT_NE(t.header.find("#define M 16\n"), std::string::npos);
  EXPECT_NE(t.header.find("#define N 16\n"), std::string::npos);
  EXPECT_NE(t.header.find("#define VLEN 128\n"), std::string::npos);
  EXPECT_THROW(symbols_header(t.cfg, t.layout, {{"bad name", 1}}), std::invalid_argument);
  EXPECT_THROW(symbols_header(t.cfg, t.layout, {{"M", 1}}), std::invalid_argument);  // clashes with a dim
}

TEST(RvvToolchain, LinkerScriptComesFromTheMemoryMap) {
  const std::string ld = linker_script();
  EXPECT_NE(ld.find("ITCM (rx) : ORIGIN = 0x00000000, LENGTH = 0x10000"), std::string::npos) << ld;
  EXPECT_NE(ld.find("DTCM (rw) : ORIGIN = 0x00010800, LENGTH = 0xf600"), std::string::npos) << ld;
}

TEST(RvvRun, IntrinsicsCReluMatchesHost) {
  ReluTask().expect_relu(kIntrinsicsRelu, c_options());
}

TEST(RvvRun, AssemblyReluMatchesHost) {
  ReluTask().expect_relu(kAsmRelu, asm_options());
}

TEST(RvvRun, AssemblyReluMatchesHostAtVlen256) {
  BuildOptions o = asm_options();
  o.vlen = 256;
  ReluTask(256).expect_relu(kAsmRelu, o);
}

TEST(RvvRun, ScalarCIsAutoVectorizedAtO2AndMatchesHost) {
  const ReluTask t;
  BuildOptions o = c_options("scalar.c");
  o.symbols_header = t.header;
  const BuiltKernel k = build_kernel(kScalarRelu, o);
  ASSERT_TRUE(k.ok) << format_diagnostics(k.diagnostics);
  EXPECT_NE(k.disassembly.find("vfmax.v"), std::string::npos) << k.disassembly;
  // The negative control: with the vectorizers off the same loop stays scalar.
  o.auto_vectorize = false;
  const BuiltKernel scalar = build_kernel(kScalarRelu, o);
  ASSERT_TRUE(scalar.ok);
  EXPECT_EQ(scalar.disassembly.find("vfmax.v"), std::string::npos) << scalar.disassembly;
  EXPECT_NE(scalar.disassembly.find("fmax.s"), std::string::npos);
  // Nor does clang 16 vectorize it for plain Zve32f (no minimum VLEN; the last -march wins): why the
  // toolchain says Zvl<VLEN>b.
  o.auto_vectorize = true;
  o.extra_flags = {"-march=rv32imf_zve32f"};
  const BuiltKernel no_zvl = build_kernel(kScalarRelu, o);
  ASSERT_TRUE(no_zvl.ok) << format_diagnostics(no_zvl.diagnostics);
  EXPECT_EQ(no_zvl.disassembly.find("vfmax.v"), std::string::npos) << no_zvl.disassembly;
  t.expect_relu(kScalarRelu, c_options("scalar.c"));
}

TEST(RvvToolchain, BuiltKernelHasCodeAtTheEntryAndDataInDtcm) {
  // A table of constants goes to .rodata in DTCM; the kernel copies it to y.
  const ReluTask t;
  BuildOptions o = c_options("table.c");
  o.symbols_header = t.header;
  const BuiltKernel k = build_kernel(R"(static const float table[4] = {1.5f, -2.0f, 3.25f, 4.0f};
volatile float sink;
void kernel(void) {
  float* y = (float*)ADDR_Y;
  for (int i = 0; i < 4; ++i) y[i] = table[i] + sink;
}
)",
                                     o);
  ASSERT_TRUE(k.ok) << format_diagnostics(k.diagnostics);
  EXPECT_EQ(k.entry, RVV_ITCM_BASE);
  ASSERT_FALSE(k.itcm.empty());
  EXPECT_EQ(k.itcm[0] & 0x7f, 0x37u);  // crt0 starts with lui sp, ...
  ASSERT_FALSE(k.data.empty());
  for (const auto& d : k.data) {
    EXPECT_GE(d.address, uint32_t{RVV_DTCM_BASE});
    EXPECT_LE(d.address + d.bytes.size(), uint32_t{RVV_STACK_TOP});
  }
  EXPECT_NE(k.disassembly.find("<kernel>:"), std::string::npos);
  const auto dram = tasks::make_dram_image(t.layout, t.inputs);
  const RunResult r = run_qemu(k, dram);
  ASSERT_EQ(r.end, RunEnd::kExited) << r.message;
  float y[4];
  std::memcpy(y, r.dram.data() + t.layout.region("y").address, sizeof y);
  EXPECT_EQ(y[0], 1.5f);
  EXPECT_EQ(y[1], -2.0f);
  EXPECT_EQ(y[2], 3.25f);
  EXPECT_EQ(y[3], 4.0f);
}

TEST(RvvToolchain, CErrorHasTheLineAndColumnOfTheUsersFile) {
  const ReluTask t;  // with the symbol header included: lines must still be the kernel's own
  BuildOptions o = c_options("bad.c");
  o.symbols_header = t.header;
  const BuiltKernel k =
      build_kernel("void kernel(void) {\n  float* y = (float*)ADDR_Y;\n  y[0] = undefined_name;\n}\n", o);
  ASSERT_FALSE(k.ok);
  ASSERT_FALSE(k.diagnostics.empty()) << k.log;
  const auto& d = k.diagnostics.front();
  EXPECT_EQ(d.file, "bad.c");
  EXPECT_EQ(d.line, 3);
  EXPECT_EQ(d.column, 10);
  EXPECT_EQ(d.severity, isa::Severity::kError);
  EXPECT_NE(d.message.find("undefined_name"), std::string::npos) << d.message;
  EXPECT_NE(format_diagnostics(k.diagnostics).find("bad.c:3:10: error: "), std::string::npos);
}

TEST(RvvToolchain, AssemblyErrorsHaveTheLineAndColumnOfTheUsersFile) {
  const ReluTask t;
  BuildOptions o = asm_options("bad.S");
  o.symbols_header = t.header;
  const BuiltKernel k = build_kernel(
      "  .globl kernel\nkernel:\n  li a0, ADDR_X\n  vbogus.v v1, v2\n  addi a0, a0, 5000\n  ret\n", o);
  ASSERT_FALSE(k.ok);
  ASSERT_EQ(k.diagnostics.size(), 2u) << format_diagnostics(k.diagnostics) << k.log;
  EXPECT_EQ(k.diagnostics[0].file, "bad.S");
  EXPECT_EQ(k.diagnostics[0].line, 4);
  EXPECT_EQ(k.diagnostics[0].column, 3);
  EXPECT_EQ(k.diagnostics[1].line, 5);
  EXPECT_EQ(k.diagnostics[1].column, 16);  // the immediate
}

TEST(RvvToolchain, MissingKernelIsALinkError) {
  const BuiltKernel k = build_kernel("  .globl not_kernel\nnot_kernel:\n  ret\n", asm_options());
  ASSERT_FALSE(k.ok);
  ASSERT_FALSE(k.diagnostics.empty()) << k.log;
  EXPECT_EQ(k.diagnostics[0].file, "");
  EXPECT_NE(k.diagnostics[0].message.find("undefined symbol: kernel"), std::string::npos)
      << k.diagnostics[0].message;
}

TEST(RvvToolchain, ParsesGnuAssemblerMessages) {
  const auto d = parse_diagnostics("tmp.S: Assembler messages:\ntmp.S:7: Error: unrecognized opcode `foo'\n",
                                   "tmp.S", "user.S");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].file, "user.S");
  EXPECT_EQ(d[0].line, 7);
  EXPECT_EQ(d[0].column, 0);
  EXPECT_EQ(d[0].message, "unrecognized opcode `foo'");
}

// Found by fuzzing (tests/fuzz/regressions/rvv_tool_diagnostics): a line number too long for an int threw
// out of the parser; other files of the build directory came out with their temporary paths.
TEST(RvvToolchain, DiagnosticsNeverShowTheBuildDirectoryOrOverflow) {
  const auto d = parse_diagnostics(
      "/tmp/b/kernel.c:99999999999999999999:3: error: x\n/tmp/b/kcraft_symbols.h:2:9: warning: y\n"
      "/tmp/bc:3: Error: z\n",
      "/tmp/b/kernel.c", "user.c");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].file, "user.c");
  EXPECT_EQ(d[0].line, std::numeric_limits<int>::max());
  EXPECT_EQ(d[0].column, 3);
  EXPECT_EQ(d[1].file, "kcraft_symbols.h");
  EXPECT_EQ(d[2].file, "/tmp/bc");  // not in the build directory: as the tool wrote it
}

// Found by fuzzing (tests/fuzz/regressions/rvv_elf32): a segment with more file bytes than memory bytes was
// accepted, and program headers of the wrong size were read as if they were 32 bytes.
TEST(RvvElf32, MalformedProgramHeadersAreErrors) {
  ElfImage image;
  image.entry = 0x100;
  image.segments.push_back({0x0, 64, std::vector<uint8_t>(16, 0x13), true, false, true});
  const std::vector<uint8_t> good = write_elf32(image);
  const ElfImage back = read_elf32(good);
  ASSERT_EQ(back.segments.size(), 1u);
  EXPECT_EQ(back.segments[0].mem_bytes, 64u);
  EXPECT_EQ(back.entry, 0x100u);
  auto put32 = [](std::vector<uint8_t>& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
  };
  const uint32_t phoff = good[28] | good[29] << 8 | good[30] << 16 | uint32_t{good[31]} << 24;
  auto expect_error = [](const std::vector<uint8_t>& bytes, const std::string& message) {
    try {
      read_elf32(bytes);
      ADD_FAILURE() << "accepted; expected: " << message;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  };
  std::vector<uint8_t> bad = good;
  put32(bad, phoff + 20, 8);  // p_memsz below p_filesz
  expect_error(bad, "more file bytes than memory bytes");
  bad = good;
  put32(bad, phoff + 8, 0xFFFFFFF0u);  // p_vaddr + p_memsz wraps
  expect_error(bad, "past the end of the 32-bit address space");
  bad = good;
  bad[42] = 16;  // e_phentsize
  expect_error(bad, "not 32 bytes each");
}

TEST(RvvToolchain, AMissingToolNamesItsDebianPackage) {
  try {
    find_tool("kcraft-no-such-tool-16", "kcraft-no-such-package");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("kcraft-no-such-tool-16 is not in PATH"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("apt-get install kcraft-no-such-package"), std::string::npos);
  }
  EXPECT_EQ(find_tool("clang-16", "clang-16").substr(0, 1), "/");
}

TEST(RvvToolchain, TempFilesAreRemoved) {
  // Builds that succeed and fail, runs that exit and trap: nothing is left in TMPDIR.
  const std::string tmp = ::testing::TempDir() + "/kcraft-rvv-tmp-test";
  std::filesystem::remove_all(tmp);
  std::filesystem::create_directories(tmp);
  ::setenv("TMPDIR", tmp.c_str(), 1);
  EXPECT_FALSE(build_kernel("void kernel(void) { error }\n", c_options()).ok);
  run_qemu(build_asm("  .globl kernel\nkernel:\n  ret\n"), {1, 2, 3});
  run_qemu(build_asm("  .globl kernel\nkernel:\n  .word 0\n"), {});
  ::unsetenv("TMPDIR");
  EXPECT_TRUE(std::filesystem::is_empty(tmp));
  std::filesystem::remove_all(tmp);
}

// A build the source decided is kept for the rest of the process (an evaluation builds once for all its
// seeds): the same inputs again need no tools and no temporary directory, and every input that decides
// the program (the source, the symbols, the VLEN) gives a build of its own.
TEST(RvvToolchain, RepeatedBuildsComeFromTheProcesssMemo) {
  const std::string source = "void kernel(void) { *(volatile int*)0x80000000 = VALUE; }\n";
  BuildOptions o = c_options("memo.c");
  o.symbols_header = "#define VALUE 1234567\n";
  const BuiltKernel first = build_kernel(source, o);
  ASSERT_TRUE(first.ok) << first.log;

  const std::string tmp = ::testing::TempDir() + "/kcraft-rvv-no-such-dir/deeper";
  std::filesystem::remove_all(::testing::TempDir() + "/kcraft-rvv-no-such-dir");
  ::setenv("TMPDIR", tmp.c_str(), 1);  // a build that runs the tools now fails
  const BuiltKernel again = build_kernel(source, o);
  BuildOptions other_symbols = o;
  other_symbols.symbols_header = "#define VALUE 7654321\n";
  BuildOptions other_vlen = o;
  other_vlen.vlen = 256;
  EXPECT_THROW(build_kernel(source, other_symbols), std::runtime_error);
  EXPECT_THROW(build_kernel(source, other_vlen), std::runtime_error);
  EXPECT_THROW(build_kernel(source + "// changed\n", o), std::runtime_error);
  ::unsetenv("TMPDIR");

  ASSERT_TRUE(again.ok);
  EXPECT_EQ(again.itcm, first.itcm);
  EXPECT_EQ(again.disassembly, first.disassembly);
  const BuiltKernel changed = build_kernel(source, other_symbols);
  ASSERT_TRUE(changed.ok) << changed.log;
  EXPECT_NE(changed.itcm, first.itcm);  // the constant is in the code
}

// A build that failed because of the source is remembered as failed; one the tools could not finish is not.
TEST(RvvToolchain, CompileErrorsAreRememberedToo) {
  const BuiltKernel first = build_kernel("void kernel(void) { memo_error }\n", c_options("memo_error.c"));
  ASSERT_FALSE(first.ok);
  ASSERT_TRUE(first.reproducible);
  const std::string tmp = ::testing::TempDir() + "/kcraft-rvv-no-such-dir/deeper";
  ::setenv("TMPDIR", tmp.c_str(), 1);  // no tool can run now
  std::optional<BuiltKernel> again;
  EXPECT_NO_THROW(again = build_kernel("void kernel(void) { memo_error }\n", c_options("memo_error.c")));
  ::unsetenv("TMPDIR");
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->ok);
  EXPECT_EQ(format_diagnostics(again->diagnostics), format_diagnostics(first.diagnostics));
}

TEST(RvvToolchain, BadOptionsAreRejected) {
  BuildOptions o;
  o.language = "fortran";
  EXPECT_THROW(build_kernel("", o), std::invalid_argument);
  o = c_options();
  o.vlen = 96;
  EXPECT_THROW(build_kernel("", o), std::invalid_argument);
}

// The address of `kernel`, from the disassembly.
uint32_t kernel_address(const BuiltKernel& k) {
  const size_t at = k.disassembly.find(" <kernel>:");
  if (at == std::string::npos || at < 8) throw std::runtime_error("no <kernel> in the disassembly");
  return static_cast<uint32_t>(std::stoul(k.disassembly.substr(at - 8, 8), nullptr, 16));
}

TEST(RvvRun, IllegalInstructionIsATrapWithItsPc) {
  const BuiltKernel k = build_asm("  .globl kernel\nkernel:\n  li s3, 0x5a5\n  .word 0\n  ret\n");
  const RunResult r = run_qemu(k, {});
  EXPECT_EQ(r.end, RunEnd::kTrapped) << r.message;
  EXPECT_EQ(r.signal_name, "SIGILL");
  // The zero word is the kernel's second instruction (li of a 12-bit value is one).
  const uint32_t pc = kernel_address(k) + 4;
  EXPECT_EQ(k.itcm.at(pc / 4), 0u);
  ASSERT_TRUE(r.pc.has_value()) << r.message << r.qemu_stderr;
  EXPECT_EQ(*r.pc, pc);
  EXPECT_EQ(r.fault_address, pc);
  ASSERT_EQ(r.trap_registers.size(), 32u);
  EXPECT_EQ(r.trap_registers[19], 0x5a5u);  // s3 at the trap
  EXPECT_NE(r.message.find(fmt::format("SIGILL at pc 0x{:08x}", pc)), std::string::npos) << r.message;
}

TEST(RvvRun, DoublePrecisionIsIllegalOnZve32f) {
  // The core is RV32IMF: the D extension is off in QEMU too. fadd.d f0, f0, f0 as a word: clang 16 has no
  // `.option arch`.
  const RunResult r = run_qemu(build_asm("  .globl kernel\nkernel:\n  .word 0x02007053\n  ret\n"), {});
  EXPECT_EQ(r.end, RunEnd::kTrapped) << r.message;
  EXPECT_EQ(r.signal_name, "SIGILL");
}

TEST(RvvRun, OutOfRangeStoresAreTraps) {
  for (const char* address : {"0x90000000", "0x00000100" /* ITCM */, "0x00020000" /* past DTCM */}) {
    const BuiltKernel k = build_asm(std::string("  .globl kernel\nkernel:\n  li t0, ") + address +
                                    "\n  sw zero, 0(t0)\n  ret\n");
    const RunResult r = run_qemu(k, std::vector<uint8_t>(64, 0));
    EXPECT_EQ(r.end, RunEnd::kTrapped) << address << ": " << r.message;
    EXPECT_EQ(r.signal_name, "SIGSEGV") << address;
    ASSERT_TRUE(r.fault_address.has_value()) << r.qemu_stderr;
    EXPECT_EQ(*r.fault_address, std::stoul(address, nullptr, 16));
    // The store is the kernel's second instruction (each li here is one instruction).
    ASSERT_TRUE(r.pc.has_value()) << r.message;
    EXPECT_EQ(*r.pc, kernel_address(k) + 4) << address;
    EXPECT_EQ(r.trap_registers.at(5), *r.fault_address);  // t0
  }
}

TEST(RvvRun, InfiniteLoopTimesOut) {
  const BuiltKernel k = build_asm("  .globl kernel\nkernel:\n1:\n  j 1b\n");
  const auto start = std::chrono::steady_clock::now();
  const RunResult r = run_qemu(k, {}, {128, 300ms, {}});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.end, RunEnd::kTimedOut) << r.message;
  EXPECT_GE(seconds, 0.3);
  EXPECT_LT(seconds, 3.0);
}

TEST(RvvRun, SignatureHoldsTheKernelsRegisters) {
  const BuiltKernel k = build_asm(R"(  .globl kernel
kernel:
  li s2, 0x12345678
  li t0, 0x40490fdb
  fmv.w.x f8, t0
  li a0, -7
  li t1, 5
  vsetvli t2, t1, e32, m2, ta, ma
  ret
)");
  for (const int vlen : {128, 256}) {
    const RunResult r = run_qemu(k, std::vector<uint8_t>(16, 0xab), {vlen, 10s, {}});
    ASSERT_EQ(r.end, RunEnd::kExited) << r.message;
    EXPECT_EQ(r.signature.x[18], 0x12345678u);  // s2
    EXPECT_EQ(r.signature.x[10], static_cast<uint32_t>(-7));
    EXPECT_EQ(r.signature.x[2], uint32_t{RVV_STACK_TOP});
    EXPECT_EQ(r.signature.x[7], 5u);  // t2 = vl
    EXPECT_EQ(r.signature.f[8], 0x40490fdbu);
    EXPECT_EQ(r.signature.f[9], 0u);  // crt0 zeroes the rest
    EXPECT_EQ(r.signature.vl, 5u);
    EXPECT_EQ(r.signature.vtype, 0xd1u);  // ma ta e32 m2
    EXPECT_EQ(r.signature.vlenb, static_cast<uint32_t>(vlen / 8));
    EXPECT_EQ(r.dram, std::vector<uint8_t>(16, 0xab));
  }
}

TEST(RvvRun, SixtyFourBitElementsAreNotAvailable) {
  // Zve32f has ELEN = 32: an e64 vtype sets vill and vl = 0.
  const RunResult r =
      run_qemu(build_asm("  .globl kernel\nkernel:\n  vsetivli t0, 4, e64, m1, ta, ma\n  ret\n"), {});
  ASSERT_EQ(r.end, RunEnd::kExited) << r.message;
  EXPECT_EQ(r.signature.vtype, 0x80000000u);
  EXPECT_EQ(r.signature.vl, 0u);
}

TEST(RvvRun, ProtocolBreachesFail) {
  // sp not restored.
  RunResult r = run_qemu(build_asm("  .globl kernel\nkernel:\n  addi sp, sp, -16\n  ret\n"), {});
  EXPECT_EQ(r.end, RunEnd::kFailed);
  EXPECT_NE(r.message.find("sp"), std::string::npos) << r.message;
  // The kernel's own exit ecall.
  r = run_qemu(build_asm("  .globl kernel\nkernel:\n  li a0, 0\n  li a7, 93\n  ecall\n  ret\n"), {});
  EXPECT_EQ(r.end, RunEnd::kFailed);
  EXPECT_NE(r.message.find("ecall"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace kcraft::rvv
