// The implemented subset as one definition (isa/rvv/rvv_isa.yaml): `check` (and the agents' check_syntax)
// rejects every instruction outside it with the guide's wording, at the kernel's line (C kernels too), and
// accepts a kernel of every implemented instruction; the generated reference and the guide (docs/rvv.md)
// agree on the facts both state.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "agent/common/tools.h"
#include "isa/rvv/isa_reference.h"
#include "isa/rvv/rvv_memory_map.h"
#include "tb/rvv/rvv_disasm.h"
#include "tests/rvv_platform/rvv_test_support.h"

namespace kcraft::rvv::test {
namespace {

// Operands that assemble for a vector mnemonic, from its form (the suffix) and family. v8, v16 and v24
// never overlap at any LMUL, so the assembler's register checks pass.
std::string vector_operands(const std::string& m) {
  static const std::map<std::string, std::string> special = {
      {"vsetvli", "a0, a1, e32, m1, ta, ma"},
      {"vsetivli", "a0, 4, e32, m1, ta, ma"},
      {"vsetvl", "a0, a1, a2"},
      {"vmv.v.v", "v8, v16"},
      {"vmv.v.x", "v8, a0"},
      {"vmv.v.i", "v8, 3"},
      {"vfmv.v.f", "v8, fa0"},
      {"vmv.x.s", "a0, v16"},
      {"vmv.s.x", "v8, a0"},
      {"vfmv.f.s", "fa0, v16"},
      {"vfmv.s.f", "v8, fa0"},
      {"vcpop.m", "a0, v16"},
      {"vfirst.m", "a0, v16"},
      {"vid.v", "v8"},
      {"vlm.v", "v8, (a0)"},
      {"vsm.v", "v8, (a0)"},
  };
  if (const auto it = special.find(m); it != special.end()) return it->second;
  // Loads and stores: indexed (…x…ei…), strided (vlse, vsse, vlsseg, vssseg), the rest unit-stride or
  // whole-register.
  static const std::regex indexed(R"(^v[ls][uo]x(seg\d)?ei\d+\.v$)");
  static const std::regex strided(R"(^v[ls]s(seg\d)?e\d+\.v$)");
  static const std::regex unit(R"(^(v[ls](seg\d)?e\d+(ff)?\.v|vl\dre\d+\.v|vs\dr\.v)$)");
  if (std::regex_match(m, indexed)) return "v8, (a0), v16";
  if (std::regex_match(m, strided)) return "v8, (a0), a1";
  if (std::regex_match(m, unit)) return "v8, (a0)";
  // Multiply-adds take the scalar first: vd, rs1, vs2.
  const bool multiply_add = std::regex_search(
      m, std::regex(R"(^vf?w?n?(macc|nmsac|madd|nmsub|msac|msub|nmadd|nmacc|maccu|maccsu|maccus)\.)"));
  const std::string form = m.substr(m.rfind('.') + 1);
  if (form == "vv" || form == "wv" || form == "mm" || form == "vs" || form == "vm") return "v8, v16, v24";
  if (form == "vx" || form == "wx") return multiply_add ? "v8, a0, v16" : "v8, v16, a0";
  if (form == "vf" || form == "wf") return multiply_add ? "v8, fa0, v16" : "v8, v16, fa0";
  if (form == "vi" || form == "wi") return "v8, v16, 3";
  if (form == "vvm") return "v8, v16, v24, v0";
  if (form == "vxm") return "v8, v16, a0, v0";
  if (form == "vim") return "v8, v16, 3, v0";
  if (form == "vfm") return "v8, v16, fa0, v0";
  return "v8, v16";  // unary: .v, .w, .m, .vf2, whole-register moves
}

// One line per scalar instruction of the table (the vector ones come from vector_operands).
const char* const kScalarLines = R"(  lui a0, 1
  auipc a0, 1
  addi a0, a1, 1
  slti a0, a1, 1
  sltiu a0, a1, 1
  xori a0, a1, 1
  ori a0, a1, 1
  andi a0, a1, 1
  slli a0, a1, 1
  srli a0, a1, 1
  srai a0, a1, 1
  add a0, a1, a2
  sub a0, a1, a2
  sll a0, a1, a2
  slt a0, a1, a2
  sltu a0, a1, a2
  xor a0, a1, a2
  srl a0, a1, a2
  sra a0, a1, a2
  or a0, a1, a2
  and a0, a1, a2
  jal zero, 1f
1:
  jalr zero, 0(ra)
  beq a0, a1, 1f
  bne a0, a1, 1f
  blt a0, a1, 1f
  bge a0, a1, 1f
  bltu a0, a1, 1f
  bgeu a0, a1, 1f
1:
  lb a0, 0(a1)
  lh a0, 0(a1)
  lw a0, 0(a1)
  lbu a0, 0(a1)
  lhu a0, 0(a1)
  sb a0, 0(a1)
  sh a0, 0(a1)
  sw a0, 0(a1)
  fence
  fence.i
  ecall
  ebreak
  mul a0, a1, a2
  mulh a0, a1, a2
  mulhsu a0, a1, a2
  mulhu a0, a1, a2
  div a0, a1, a2
  divu a0, a1, a2
  rem a0, a1, a2
  remu a0, a1, a2
  csrrw a0, fcsr, a1
  csrrs a0, fcsr, a1
  csrrc a0, fcsr, a1
  csrrwi a0, fcsr, 1
  csrrsi a0, fcsr, 1
  csrrci a0, fcsr, 1
  flw fa0, 0(a1)
  fsw fa0, 0(a1)
  fmadd.s fa0, fa1, fa2, fa3
  fmsub.s fa0, fa1, fa2, fa3
  fnmsub.s fa0, fa1, fa2, fa3
  fnmadd.s fa0, fa1, fa2, fa3
  fadd.s fa0, fa1, fa2
  fsub.s fa0, fa1, fa2
  fmul.s fa0, fa1, fa2
  fdiv.s fa0, fa1, fa2
  fsqrt.s fa0, fa1
  fsgnj.s fa0, fa1, fa2
  fsgnjn.s fa0, fa1, fa2
  fsgnjx.s fa0, fa1, fa2
  fmin.s fa0, fa1, fa2
  fmax.s fa0, fa1, fa2
  fcvt.w.s a0, fa1
  fcvt.wu.s a0, fa1
  fmv.x.w a0, fa1
  feq.s a0, fa1, fa2
  flt.s a0, fa1, fa2
  fle.s a0, fa1, fa2
  fclass.s a0, fa1
  fcvt.s.w fa0, a1
  fcvt.s.wu fa0, a1
  fmv.w.x fa0, a1
)";

// An assembly kernel of the given vector mnemonics, one per line from line 4 on (never run: check only).
std::string vector_kernel(const std::vector<std::string>& mnemonics, const std::string& scalar = "") {
  std::string s = "  .globl kernel\nkernel:\n  vsetvli t0, zero, e32, m1, ta, ma\n";
  for (const auto& m : mnemonics) s += "  " + m + " " + vector_operands(m) + "\n";
  return s + scalar + "  ret\n";
}

std::vector<std::string> sorted(const std::set<std::string>& names, bool vector) {
  std::vector<std::string> out;
  for (const auto& n : names)
    if ((n[0] == 'v') == vector) out.push_back(n);
  return out;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string guide() {
  return read_text(rvv().guide_path().string());
}

// Markdown text with its line breaks and indentation made single spaces.
std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == '\n' || c == ' ';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

TEST(RvvSubset, TheTableDefinesItOnce) {
  EXPECT_EQ(expand_braces("vadd.{vv,vx}"), (std::vector<std::string>{"vadd.vv", "vadd.vx"}));
  EXPECT_EQ(expand_braces("vwredsum{,u}.vs"), (std::vector<std::string>{"vwredsum.vs", "vwredsumu.vs"}));
  EXPECT_EQ(expand_braces("v{l,s}e{8,16}.v").size(), 4u);
  const auto& implemented = implemented_mnemonics();
  for (const auto& name : instruction_names()) {
    std::string lower = name;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(implemented.count(lower), 1u) << name;
  }
  ASSERT_FALSE(outside_classes().empty());
  for (const auto& c : outside_classes()) {
    for (const auto& m : c.mnemonics) {
      EXPECT_EQ(implemented.count(m), 0u) << m << " is both implemented and outside (" << c.what << ")";
      EXPECT_EQ(outside_reason(m), c.what) << m << " belongs to two classes";
    }
  }
  EXPECT_EQ(outside_reason("vfrec7.v"), "`vfrec7`, `vfrsqrt7`");
  EXPECT_EQ(outside_reason("vfmacc.vf"), "");
  // Every implemented instruction is named in the reference's text (the rows and their "also ..."), up to
  // its element widths and an unsigned `u` ("vl2re16.v" is in "vl1re32.v (also vl2re32.v ...)", "vmsltu"
  // in "vmslt(u)").
  const auto without_digits = [](std::string s) {
    s.erase(std::remove_if(s.begin(), s.end(),
                           [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }),
            s.end());
    return s;
  };
  const std::string md = without_digits(isa_markdown(128));
  for (const auto& m : implemented) {
    std::string base = without_digits(m.substr(0, m.find('.')));
    if (md.find(base) == std::string::npos && base.back() == 'u') base.pop_back();
    EXPECT_NE(md.find(base), std::string::npos) << m << " is implemented but the reference never names it";
  }
}

// The vfrec7.v of the issue, in C: check names it at the intrinsic's line, in the guide's wording.
TEST(RvvSubset, CheckRejectsAnUnimplementedInstructionOfACKernelAtItsLine) {
  const std::string source =
      "#include <riscv_vector.h>\n"
      "void kernel(void) {\n"
      "  float *x = (float *)ADDR_X;\n"
      "  size_t vl = __riscv_vsetvl_e32m1(4);\n"
      "  vfloat32m1_t v = __riscv_vle32_v_f32m1(x, vl);\n"
      "  v = __riscv_vfrec7_v_f32m1(v, vl);\n"
      "  __riscv_vse32_v_f32m1((float *)ADDR_Y, v, vl);\n"
      "}\n";
  const auto cfg = registry().get("relu").resolve("C1", rvv().dtype());
  const auto layout = rvv().layout(cfg);
  const auto symbols = rvv().symbols("default", &cfg, &layout);
  // The build alone accepts it (eval runs it, and the RTL stops on it); check does not.
  EXPECT_TRUE(rvv().assemble(source, "k.c", symbols).ok);
  const auto r = rvv().check(source, "k.c", symbols);
  ASSERT_FALSE(r.ok);
  ASSERT_EQ(r.error_count(), 1u) << isa::format_diagnostics(r, source);
  const auto& d = r.diagnostics.front();
  EXPECT_EQ(d.line, 6) << d.message;
  EXPECT_NE(d.message.find("`vfrec7.v v8,v8`"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("is outside the implemented subset: `vfrec7`, `vfrsqrt7`"), std::string::npos)
      << d.message;
  EXPECT_NE(d.hint.find("ERR_ILLEGAL"), std::string::npos) << d.hint;

  // The agents' check_syntax says the same.
  agent::ToolSession s(agent::TaskContext{"rvv", "default", "relu", "C1", 1});
  const auto tool = s.call("check_syntax", {{"code", source}, {"language", "c"}});
  EXPECT_FALSE(tool.data.value("ok", true)) << tool.text;
  EXPECT_NE(tool.text.find("kernel.c:6:"), std::string::npos) << tool.text;
  EXPECT_NE(tool.text.find("outside the implemented subset: `vfrec7`, `vfrsqrt7`"), std::string::npos)
      << tool.text;
}

// Every instruction of every class the guide lists as outside the subset is rejected at its line: by the
// assembler (clang refuses 64-bit element widths under Zve32f; the hint then gives the guide's words), or by
// check, with the class's wording, at its column; and objdump's names are the table's (each error quotes it).
TEST(RvvSubset, CheckRejectsEveryInstructionOutsideTheSubset) {
  std::vector<std::string> mnemonics;
  std::map<std::string, std::string> what;
  for (const auto& c : outside_classes()) {
    for (const auto& m : c.mnemonics) {
      mnemonics.push_back(m);
      what[m] = c.what;
    }
  }
  const auto errors_by_line = [](const isa::AssembleResult& r) {
    std::map<int, isa::Diagnostic> by_line;
    for (const auto& d : r.diagnostics)
      if (d.severity == isa::Severity::kError) by_line.emplace(d.line, d);
    return by_line;
  };
  const auto symbols = rvv().symbols("default");
  const std::string all = vector_kernel(mnemonics);
  const auto refused = errors_by_line(rvv().check(all, "outside.S", symbols));
  std::vector<std::string> assembled;
  for (size_t i = 0; i < mnemonics.size(); ++i) {
    const auto it = refused.find(static_cast<int>(i) + 4);
    if (it == refused.end()) {
      assembled.push_back(mnemonics[i]);
      continue;
    }
    // Only 64-bit element widths, which Zve32f lacks (vle64.v, vlseg2e64.v, vluxei64.v, vle64ff.v, ...).
    EXPECT_TRUE(std::regex_search(mnemonics[i], std::regex("ei?64")))
        << mnemonics[i] << ": " << it->second.message;
    EXPECT_EQ(it->second.hint, "outside the implemented subset: " + what[mnemonics[i]]) << mnemonics[i];
  }
  ASSERT_GT(assembled.size(), 200u);

  // What the assembler takes, check rejects: one error per line, in the guide's words, in kernels of 20
  // lines (check lists 20 and counts the rest). Words objdump decodes as EEW = 64 accesses (vle64.v
  // v8,(a0); vlseg2e64.v v8,(a0); vl1re64.v v8,(a0)) are rejected in the same words, at no line (the
  // assembler's line table has no row for data: the previous instruction's line would be wrong).
  const std::vector<std::string> words = {"0x02057407", "0x22057407", "0x02857407"};
  for (size_t first = 0; first < assembled.size() + words.size(); first += 20) {
    std::vector<std::string> lines;  // mnemonics, or ".word 0x..."
    for (size_t i = first; i < std::min(first + 20, assembled.size() + words.size()); ++i)
      lines.push_back(i < assembled.size() ? assembled[i] : ".word " + words[i - assembled.size()]);
    std::string source = "  .globl kernel\nkernel:\n  vsetvli t0, zero, e32, m1, ta, ma\n";
    for (const auto& l : lines) source += "  " + l + (l[0] == '.' ? "" : " " + vector_operands(l)) + "\n";
    source += "  ret\n";
    const auto r = rvv().check(source, "outside.S", symbols);
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.error_count(), lines.size()) << isa::format_diagnostics(r, source);
    const auto by_line = errors_by_line(r);
    std::string at_no_line;
    for (const auto& d : r.diagnostics) {
      if (d.line == 0) at_no_line += d.message + "\n";
    }
    if (std::find(lines.begin(), lines.end(), ".word " + words[0]) != lines.end()) {
      const std::string no_line = " no source line known) is outside the implemented subset: ";
      for (const std::string expected :
           {"`vle64.v v8,(a0)` (pc 0x", "`vlseg2e64.v v8,(a0)` (pc 0x", "`vl1re64.v v8,(a0)` (pc 0x"}) {
        const auto at = at_no_line.find(expected);
        ASSERT_NE(at, std::string::npos) << expected << "\n" << at_no_line;
        const std::string message = at_no_line.substr(at, at_no_line.find('\n', at) - at);
        const std::string m = expected.substr(1, expected.find(' ') - 1);
        EXPECT_NE(message.find(no_line + what[m]), std::string::npos) << message;
      }
    }
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::string& m = lines[i];
      if (m[0] == '.') continue;
      const auto it = by_line.find(static_cast<int>(i) + 4);
      ASSERT_NE(it, by_line.end()) << m << " was not rejected";
      const std::string& message = it->second.message;
      EXPECT_NE(message.find("`" + m + " "), std::string::npos) << m << ": " << message;
      EXPECT_NE(message.find(") is outside the implemented subset: " + what[m]), std::string::npos)
          << message;
      EXPECT_EQ(it->second.column, 3) << m;
    }
  }
}

// A kernel of every implemented instruction checks clean, and its disassembly names each of them: the
// table's names are objdump's.
TEST(RvvSubset, CheckAcceptsAKernelOfEveryImplementedInstruction) {
  const auto& implemented = implemented_mnemonics();
  const std::string source = vector_kernel(sorted(implemented, true), kScalarLines);
  const auto r = rvv().check(source, "implemented.S", rvv().symbols("default"));
  EXPECT_TRUE(r.ok) << isa::format_diagnostics(r, source).substr(0, 4000);
  EXPECT_EQ(r.error_count(), 0u);
  std::set<std::string> seen;
  for (const auto& [pc, text] : parse_objdump(objdump_words(r.words, 0, true)))
    seen.insert(text.substr(0, text.find(' ')));
  for (const auto& m : implemented) EXPECT_EQ(seen.count(m), 1u) << m << " is not objdump's name of any word";
}

// Every baseline kernel (the templates and the compiler's) checks clean: real kernels, C and assembly.
TEST(RvvSubset, EveryBaselineChecksClean) {
  const auto compiler = rvv().baseline_compiler("default");
  for (const auto& task : compiler->supported_tasks()) {
    const auto cfg = registry().get(task).resolve("C1", rvv().dtype());
    const auto layout = rvv().layout(cfg);
    const auto symbols = rvv().symbols("default", &cfg, &layout);
    for (const auto& kernel :
         {compiler->generate(cfg, layout, {}), compiler->compiler_baseline(cfg, layout)}) {
      if (kernel.source.empty()) continue;
      const std::string file = rvv().kernel_file_name(kernel.language);
      const auto r = rvv().check(kernel.source, file, symbols);
      EXPECT_TRUE(r.ok) << task << " " << file << "\n" << isa::format_diagnostics(r, kernel.source);
    }
  }
}

// The generated reference (`kcraft isa rvv`) and the guide state the same facts where both state one.
TEST(RvvSubset, TheReferenceAndTheGuideAgree) {
  const std::string md = one_line(isa_markdown(128));
  const std::string doc = one_line(guide());
  ASSERT_GT(doc.size(), 10000u);
  // The classes outside the subset, in the same words (check's errors quote them).
  for (const auto& c : outside_classes()) {
    EXPECT_NE(md.find(c.what), std::string::npos) << "reference: " << c.what;
    EXPECT_NE(doc.find(c.what), std::string::npos) << "guide: " << c.what;
  }
  // The DRAM scratch region: which tasks have one, from their rvv layouts.
  std::set<std::string> with_scratch;
  for (const auto& name : registry().names()) {
    const auto cfg = registry().get(name).resolve("C1", rvv().dtype());
    const auto layout = rvv().layout(cfg);
    if (std::any_of(layout.regions.begin(), layout.regions.end(),
                    [](const tasks::DramRegion& r) { return r.kind == tasks::RegionKind::scratch; }))
      with_scratch.insert(name);
  }
  ASSERT_FALSE(with_scratch.empty());
  const std::string marker = "The tasks with a DRAM scratch region: ";
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"reference", md}, {"guide", doc}}) {
    EXPECT_EQ(text.find("no DRAM scratch"), std::string::npos) << name;
    const auto at = text.find(marker);
    ASSERT_NE(at, std::string::npos) << name;
    const auto end = text.find(';', at);
    std::set<std::string> listed;
    std::istringstream list(text.substr(at + marker.size(), end - at - marker.size()));
    for (std::string item; std::getline(list, item, ',');) {
      item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
      listed.insert(item);
    }
    EXPECT_EQ(listed, with_scratch) << name;
  }
  EXPECT_NE(md.find("ADDR_SCRATCH"), std::string::npos);
  EXPECT_NE(doc.find("ADDR_SCRATCH"), std::string::npos);
  // The memory map (isa/rvv/rvv_memory_map.h).
  const auto hex = [](uint32_t a) { return fmt::format("0x{:04X}_{:04X}", a >> 16, a & 0xffff); };
  for (const std::string& fact : {hex(RVV_DTCM_BASE), hex(RVV_DRAM_BASE), hex(RVV_STACK_TOP)}) {
    EXPECT_NE(md.find(fact), std::string::npos) << "reference: " << fact;
    EXPECT_NE(doc.find(fact), std::string::npos) << "guide: " << fact;
  }
  const std::string dtcm_size = fmt::format("{} KiB", RVV_DTCM_BYTES / 1024);
  EXPECT_NE(md.find("DTCM (" + hex(RVV_DTCM_BASE) + ", " + dtcm_size), std::string::npos);
  EXPECT_NE(doc.find("| DTCM | `" + hex(RVV_DTCM_BASE) + "` | " + dtcm_size + " |"), std::string::npos);
}

}  // namespace
}  // namespace kcraft::rvv::test
