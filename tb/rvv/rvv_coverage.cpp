#include "tb/rvv/rvv_coverage.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "isa/rvv/isa_reference.h"
#include "isa/rvv/random_program.h"
#include "tasks/common/inputs.h"
#include "tb/common/coverage_report.h"
#include "tb/common/paths.h"
#include "tb/common/rtl_coverage.h"
#include "tb/rvv/rvv_disasm.h"
#include "tb/rvv/rvv_platform.h"
#include "tb/rvv/rvv_regs.h"
#include "tb/rvv/rvv_sim.h"

namespace kcraft::rvv {

namespace {

constexpr const char* kVtypeGroup = "vector form";
constexpr const char* kStallGroup = "stall cause";
constexpr uint64_t kCycleCap = 2'000'000'000;
constexpr unsigned kElen = 32;  // Zve32f

struct Lmul {
  const char* name;
  unsigned num, den;  // LMUL = num / den
};
constexpr std::array<Lmul, 7> kLmuls{
    {{"mf8", 1, 8}, {"mf4", 1, 4}, {"mf2", 1, 2}, {"m1", 1, 1}, {"m2", 2, 1}, {"m4", 4, 1}, {"m8", 8, 1}}};
constexpr std::array<unsigned, 3> kSews{8, 16, 32};

// Zve32f: a vtype is legal when SEW <= LMUL * ELEN.
bool legal_vtype(unsigned sew, const Lmul& l) {
  return sew * l.den <= kElen * l.num;
}

std::string vtype_bin(const std::string& vtype, bool masked) {
  return vtype + (masked ? " masked" : " unmasked");
}

// The stall causes the core's counters distinguish (tb/rvv/rvv_regs.h), by the name docs/rvv.md uses.
constexpr std::array<std::pair<const char*, Counter>, 6> kStalls{{{"data", kCntStallData},
                                                                  {"load_use", kCntStallLoadUse},
                                                                  {"fp_div_sqrt", kCntStallFpDivSqrt},
                                                                  {"vector", kCntStallVector},
                                                                  {"memory", kCntStallMemory},
                                                                  {"branch", kCntStallBranch}}};

// ---- IEEE 754 FP32 bins

constexpr const char* kRoundingGroup = "rounding mode";
constexpr const char* kOperandClassGroup = "fp operand class";
constexpr const char* kFlagGroup = "fp exception flag";

// FP instruction groups, by encoding (RV32F and the vector spec's OPFVV/OPFVF).
enum class FpGroup { kNone, kArithmetic, kFma, kConversion, kCompare, kVector };

struct FpGroupInfo {
  FpGroup group;
  const char* name;
  bool static_rm;  // has an rm field (vector FP instructions always round by frm)
  uint32_t flags;  // the exception flags its instructions can raise (fflags bits)
};

// fflags bits (NX 0 .. NV 4) by the names of the F extension.
constexpr std::array<const char*, 5> kFlagNames{"NX", "UF", "OF", "DZ", "NV"};
constexpr uint32_t kAllFlags = 0x1F, kNv = 0x10, kDz = 0x08, kNx = 0x01;

constexpr std::array<FpGroupInfo, 5> kFpGroups{{
    {FpGroup::kArithmetic, "F arithmetic", true, kAllFlags},  // fadd fsub fmul fdiv fsqrt
    {FpGroup::kFma, "F fused multiply-add", true, kAllFlags & ~kDz},
    {FpGroup::kConversion, "F conversion", true, kNv | kNx},  // fcvt.w[u].s, fcvt.s.w[u]
    {FpGroup::kCompare, "F compare/min/max", false, kNv},     // feq flt fle fmin fmax: NaN operands
    {FpGroup::kVector, "vector FP", false, kAllFlags},
}};

constexpr std::array<const char*, 5> kRoundingModes{"rne", "rtz", "rdn", "rup", "rmm"};
constexpr uint32_t kRmDyn = 7;

const FpGroupInfo* group_info(FpGroup g) {
  for (const auto& info : kFpGroups) {
    if (info.group == g) return &info;
  }
  return nullptr;
}

uint32_t bits(uint32_t word, unsigned hi, unsigned lo) {
  return (word >> lo) & ((1u << (hi - lo + 1)) - 1);
}

FpGroup fp_group(uint32_t word) {
  const uint32_t opcode = bits(word, 6, 0), funct7 = bits(word, 31, 25);
  switch (opcode) {
    case 0x43:
    case 0x47:
    case 0x4B:
    case 0x4F:
      return FpGroup::kFma;
    case 0x53:
      switch (funct7) {
        case 0x00:
        case 0x04:
        case 0x08:
        case 0x0C:
        case 0x2C:
          return FpGroup::kArithmetic;
        case 0x60:
        case 0x68:
          return FpGroup::kConversion;
        case 0x14:
        case 0x50:
          return FpGroup::kCompare;
        default:
          return FpGroup::kNone;  // sign injection, fmv, fclass: no rounding, no flags
      }
    case 0x57: {
      const uint32_t funct3 = bits(word, 14, 12);
      return funct3 == 1 || funct3 == 5 ? FpGroup::kVector : FpGroup::kNone;  // OPFVV, OPFVF
    }
    default:
      return FpGroup::kNone;
  }
}

// Whether a vector FP instruction rounds under frm: arithmetic, FMA, sums, conversions but the .rtz and
// round-to-odd ones, vfsqrt, vfrec7; not moves, sign injection, min/max, compares, vfclass, vfrsqrt7.
bool vector_rounds(uint32_t word) {
  const uint32_t funct6 = bits(word, 31, 26), vs1 = bits(word, 19, 15);
  switch (funct6) {
    case 0x00:  // vfadd
    case 0x01:  // vfredusum
    case 0x02:  // vfsub
    case 0x03:  // vfredosum
    case 0x20:  // vfdiv
    case 0x21:  // vfrdiv
    case 0x24:  // vfmul
    case 0x27:  // vfrsub
      return true;
    case 0x12:  // VFUNARY0: conversions; vs1 bits 2:1 = 11 are the .rtz forms, 10101 vfncvt.rod
      return bits(vs1, 2, 1) != 3 && vs1 != 0x15;
    case 0x13:  // VFUNARY1: vfsqrt (0), vfrec7 (5)
      return vs1 == 0 || vs1 == 5;
    default:
      return funct6 >= 0x28;  // vfmadd .. vfnmsac, the widening ops
  }
}

// The f registers a scalar F instruction reads, by the table's operand names.
std::vector<std::pair<const char*, uint32_t>> fp_sources(uint32_t word) {
  const uint32_t opcode = bits(word, 6, 0), funct7 = bits(word, 31, 25);
  const uint32_t rs1 = bits(word, 19, 15), rs2 = bits(word, 24, 20), rs3 = bits(word, 31, 27);
  if (opcode == 0x27 && bits(word, 14, 12) == 2) return {{"fs2", rs2}};  // fsw
  if (fp_group(word) == FpGroup::kFma) return {{"fs1", rs1}, {"fs2", rs2}, {"fs3", rs3}};
  if (opcode != 0x53) return {};
  switch (funct7) {
    case 0x68:  // fcvt.s.w[u]
    case 0x78:  // fmv.w.x
      return {};
    case 0x2C:  // fsqrt
    case 0x60:  // fcvt.w[u].s
    case 0x70:  // fmv.x.w, fclass
      return {{"fs1", rs1}};
    default:
      return {{"fs1", rs1}, {"fs2", rs2}};
  }
}

// The rows of the table whose f operands have class bins, with the operands (the table's names).
const std::vector<std::pair<std::string, std::vector<const char*>>>& fp_operand_rows() {
  static const std::vector<std::pair<std::string, std::vector<const char*>>> rows{
      {"FSW", {"fs2"}},
      {"FMADD.S", {"fs1", "fs2", "fs3"}},
      {"FMSUB.S", {"fs1", "fs2", "fs3"}},
      {"FNMSUB.S", {"fs1", "fs2", "fs3"}},
      {"FNMADD.S", {"fs1", "fs2", "fs3"}},
      {"FADD.S", {"fs1", "fs2"}},
      {"FSUB.S", {"fs1", "fs2"}},
      {"FMUL.S", {"fs1", "fs2"}},
      {"FDIV.S", {"fs1", "fs2"}},
      {"FSQRT.S", {"fs1"}},
      {"FSGNJ.S", {"fs1", "fs2"}},
      {"FSGNJN.S", {"fs1", "fs2"}},
      {"FSGNJX.S", {"fs1", "fs2"}},
      {"FMIN.S", {"fs1", "fs2"}},
      {"FMAX.S", {"fs1", "fs2"}},
      {"FCVT.W.S", {"fs1"}},
      {"FCVT.WU.S", {"fs1"}},
      {"FMV.X.W", {"fs1"}},
      {"FEQ.S", {"fs1", "fs2"}},
      {"FLT.S", {"fs1", "fs2"}},
      {"FLE.S", {"fs1", "fs2"}},
      {"FCLASS.S", {"fs1"}}};
  return rows;
}

std::string rounding_bin(const FpGroupInfo& g, uint32_t rm, uint32_t frm) {
  return rm == kRmDyn ? fmt::format("{} dyn={}", g.name, kRoundingModes[frm])
                      : fmt::format("{} {}", g.name, kRoundingModes[rm]);
}

std::string flag_bin(const FpGroupInfo& g, unsigned flag) {
  return fmt::format("{} {}", g.name, kFlagNames[flag]);
}

// One scalar F instruction's source values, read on its retirement cycle.
struct FpRead {
  uint32_t word = 0;
  std::vector<std::pair<const char*, uint32_t>> values;  // operand name, bits
};

// Sees every cycle of a coverage run: rounding modes and exception flags as instructions retire and vector
// FP instructions finish, and the source values of scalar F instructions (whose rows are known only after
// the run's objdump pass). On a retirement cycle the register file and frm still hold the state before the
// retiring instruction's write (it lands on the clock edge): the values it read.
class FpRecorder final : public tb::CycleObserver {
 public:
  FpRecorder(RvvHw& hw, tb::CoverageSource source, tb::Coverage& coverage)
      : hw_(hw), source_(source), coverage_(coverage) {}

  void on_cycle(uint64_t /*cycle*/, uint32_t trace_word, bool retired, uint32_t /*pc*/,
                uint32_t word) override {
    if (const uint32_t v = trace_vector_fflags(trace_word)) hit_flags(*group_info(FpGroup::kVector), v, word);
    if (!retired) return;
    const FpGroupInfo* g = group_info(fp_group(word));
    if (g != nullptr && (g->static_rm || (g->group == FpGroup::kVector && vector_rounds(word)))) {
      const uint32_t rm = g->static_rm ? bits(word, 14, 12) : kRmDyn;
      const uint32_t frm = rm == kRmDyn ? hw_.csr(kCsrFrm) & 7 : 0;
      // Reserved modes make the instruction illegal: it never retires.
      if (rm < kRoundingModes.size() || (rm == kRmDyn && frm < kRoundingModes.size()))
        coverage_.hit(kRoundingGroup, rounding_bin(*g, rm, frm), source_);
    }
    if (const uint32_t f = trace_retire_fflags(trace_word)) {
      if (g != nullptr && g->group != FpGroup::kVector) {
        hit_flags(*g, f, word);
      } else {
        ++unbinned_flags[word];
      }
    }
    const auto sources = fp_sources(word);
    if (sources.empty()) return;
    FpRead read{word, {}};
    for (const auto& [name, reg] : sources) read.values.emplace_back(name, hw_.freg(reg));
    reads.push_back(std::move(read));
  }

  std::vector<FpRead> reads;
  std::map<uint32_t, uint64_t> unbinned_flags;  // word -> retirements raising a flag with no bin

 private:
  void hit_flags(const FpGroupInfo& g, uint32_t flags, uint32_t word) {
    for (unsigned b = 0; b < kFlagNames.size(); ++b) {
      if ((flags >> b & 1u) == 0) continue;
      if ((g.flags >> b & 1u) != 0) {
        coverage_.hit(kFlagGroup, flag_bin(g, b), source_);
      } else {
        ++unbinned_flags[word];
      }
    }
  }

  RvvHw& hw_;
  tb::CoverageSource source_;
  tb::Coverage& coverage_;
};

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// "e32,m4" of a vsetvli/vsetivli's text ("vsetvli a0,a1,e32,m4,ta,ma"), nullopt when it has none.
std::optional<std::string> vtype_of(const std::string& text) {
  std::string sew, lmul;
  std::stringstream fields(text.substr(text.find(' ') + 1));
  std::string f;
  while (std::getline(fields, f, ',')) {
    if (f.size() >= 2 && f[0] == 'e' && std::isdigit(static_cast<unsigned char>(f[1]))) sew = f;
    if (f.size() >= 2 && f[0] == 'm' && (f[1] == 'f' || std::isdigit(static_cast<unsigned char>(f[1]))))
      lmul = f;
  }
  if (sew.empty()) return std::nullopt;
  return sew + "," + (lmul.empty() ? "m1" : lmul);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Retired mnemonics that a row of the table covers besides its own: the full mnemonics and the ".vx"-style
// suffixes (on the row's base) its "(also ...)" note names, e.g. vmv.v.i -> VMV.V.V, vadd.vx -> VADD.VV.
// Prose there ("vor, vxor likewise") names no exact instruction and maps nothing.
const std::map<std::string, std::string>& row_of_variant() {
  static const std::map<std::string, std::string> table = [] {
    std::map<std::string, std::string> out;
    static const std::regex full("^[a-z][a-z0-9]*(\\.[a-z0-9]+)+$"), suffix("^\\.[a-z0-9]+$");
    const std::string md = isa_markdown(128);
    size_t pos = 0;
    while ((pos = md.find("\n#### ", pos)) != std::string::npos) {
      pos += 6;
      const std::string name = md.substr(pos, md.find('\n', pos) - pos);
      const size_t next = md.find("\n#### ", pos);
      const std::string body = md.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
      const size_t also = body.find("(also ");
      if (also == std::string::npos) continue;
      const size_t close = body.find(')', also);
      std::string list =
          body.substr(also + 6, close == std::string::npos ? std::string::npos : close - also - 6);
      for (char& c : list) {
        if (c == ';') c = ',';
      }
      const std::string base = lower(name.substr(0, name.find('.')));
      std::stringstream items(list);
      std::string item;
      while (std::getline(items, item, ',')) {
        item = trim(item);
        if (std::regex_match(item, full)) out.emplace(item, name);
        if (std::regex_match(item, suffix)) out.emplace(base + item, name);
      }
    }
    return out;
  }();
  return table;
}

}  // namespace

tb::Coverage rvv_coverage_bins() {
  tb::Coverage c;
  for (const auto& name : instruction_names()) c.declare("instruction", name);
  for (unsigned sew : kSews) {
    for (const Lmul& l : kLmuls) {
      if (!legal_vtype(sew, l)) continue;
      for (bool masked : {false, true})
        c.declare(kVtypeGroup, vtype_bin(fmt::format("e{},{}", sew, l.name), masked));
    }
  }
  for (const auto& [name, counter] : kStalls) c.declare(kStallGroup, name);
  for (const FpGroupInfo& g : kFpGroups) {
    if (g.group == FpGroup::kCompare) continue;  // no rounding
    for (uint32_t m = 0; m < kRoundingModes.size(); ++m) {
      if (g.static_rm) c.declare(kRoundingGroup, rounding_bin(g, m, 0));
    }
    for (uint32_t m = 0; m < kRoundingModes.size(); ++m)
      c.declare(kRoundingGroup, rounding_bin(g, kRmDyn, m));
  }
  for (const auto& [row, operands] : fp_operand_rows()) {
    for (const char* operand : operands) {
      for (const char* cls : tb::kFp32SignedClasses)
        c.declare(kOperandClassGroup, tb::fp_operand_class_bin(row, operand, cls));
    }
  }
  for (const FpGroupInfo& g : kFpGroups) {
    for (unsigned b = kFlagNames.size(); b-- > 0;) {  // NV DZ OF UF NX, as the F extension lists them
      if ((g.flags >> b & 1u) != 0) c.declare(kFlagGroup, flag_bin(g, b));
    }
  }
  return c;
}

RandomProgramOptions steered_random_options(unsigned length, unsigned vlen,
                                            const std::vector<CoverageBinName>& focus) {
  RandomProgramOptions o;
  o.length = length;
  o.vlen = vlen;
  o.vector = true;
  for (const auto& bin : focus) {
    if (bin.group != kRoundingGroup) continue;
    // "<group> rup" or "<group> dyn=rup": the mode is the name's last three letters.
    for (unsigned m = 0; m < kRoundingModes.size(); ++m) {
      const std::string mode = kRoundingModes[m];
      if (bin.name.size() > mode.size() &&
          bin.name.compare(bin.name.size() - mode.size(), mode.size(), mode) == 0 &&
          std::find(o.rounding_modes.begin(), o.rounding_modes.end(), m) == o.rounding_modes.end())
        o.rounding_modes.push_back(m);
    }
  }
  std::sort(o.rounding_modes.begin(), o.rounding_modes.end());
  constexpr unsigned kSteeredReloadPercent = 30;
  if (tb::focus_has_group(focus, kOperandClassGroup) || tb::focus_has_group(focus, kFlagGroup))
    o.special_reload_percent = kSteeredReloadPercent;
  return o;
}

void record_rvv_coverage(const std::string& hw, const BuiltKernel& kernel, const std::vector<uint8_t>& dram,
                         const tb::DramTiming& timing, tb::CoverageSource source, tb::Coverage& coverage,
                         RvvCoverageExtras& extras) {
  RunJob job;
  job.config = hw;
  job.program = kernel.itcm;
  job.dram = dram;
  job.timing = timing;
  job.cycle_cap = kCycleCap;
  job.instruction_trace = true;
  FpRecorder fp(static_cast<RvvHw&>(rtl_hw(hw)), source, coverage);
  job.observer = &fp;
  const SimResult run = simulate(job, kernel.elf);

  // Decode each distinct retired word once: one objdump per run.
  std::map<uint32_t, uint64_t> retired;
  for (const auto& t : run.trace) ++retired[t.word];
  std::vector<uint32_t> words;
  for (const auto& [w, n] : retired) words.push_back(w);
  const auto listing = parse_objdump(objdump_words(words, 0, /*canonical=*/true));
  std::map<uint32_t, std::string> text_of;
  for (size_t i = 0; i < words.size(); ++i) text_of[words[i]] = instruction_text(listing, 4 * i, words[i]);

  std::optional<std::string> vtype;
  for (const auto& t : run.trace) {
    const std::string& text = text_of[t.word];
    const std::string mnemonic = text.substr(0, text.find(' '));
    const auto variant = row_of_variant().find(mnemonic);
    if (coverage.declared("instruction", upper(mnemonic))) {
      coverage.hit("instruction", upper(mnemonic), source);
    } else if (variant != row_of_variant().end()) {
      coverage.hit("instruction", variant->second, source);
    } else {
      ++extras.unlisted[mnemonic];
    }
    if (mnemonic == "vsetvli" || mnemonic == "vsetivli") {
      vtype = vtype_of(text);
    } else if (mnemonic == "vsetvl") {
      vtype.reset();  // the vtype comes from a register the trace does not show
    } else if (!mnemonic.empty() && mnemonic[0] == 'v') {
      if (!vtype) {
        ++extras.vector_insns_with_unknown_vtype;
        continue;
      }
      const bool masked = text.find("v0.t") != std::string::npos;
      const std::string bin = vtype_bin(*vtype, masked);
      // An illegal vtype sets vill and the instruction traps; it has no bin.
      if (coverage.declared(kVtypeGroup, bin)) coverage.hit(kVtypeGroup, bin, source);
    }
  }
  for (const auto& [name, counter] : kStalls) {
    if (run.counters[counter] > 0) coverage.hit(kStallGroup, name, source, run.counters[counter]);
  }

  // Operand classes under the rows the instruction bins use (the words were decoded above).
  const auto row_of = [&](uint32_t word) {
    const std::string& text = text_of[word];
    return upper(text.substr(0, text.find(' ')));
  };
  for (const FpRead& r : fp.reads) {
    const std::string row = row_of(r.word);
    for (const auto& [operand, value] : r.values) {
      const std::string bin = tb::fp_operand_class_bin(row, operand, tb::fp32_signed_class(value));
      if (coverage.declared(kOperandClassGroup, bin)) {
        coverage.hit(kOperandClassGroup, bin, source);
      } else {
        ++extras.unbinned_fp[lower(row) + " " + operand + " read"];
      }
    }
  }
  for (const auto& [word, n] : fp.unbinned_flags) extras.unbinned_fp[lower(row_of(word)) + " flags"] += n;
}

CommandReport RvvPlatform::coverage(const CoverageOptions& options, const tasks::TaskRegistry& tasks) const {
  const Params p = params(options.hw_config);
  const tb::DramTiming timing{p.dram_latency, p.dram_bytes_per_cycle};
  tb::Coverage coverage = rvv_coverage_bins();
  // --rtl: every program runs on a coverage build of the configuration instead, and its counts are taken
  // after each source.
  std::string rtl_note;
  const std::string rtl_config =
      options.rtl
          ? tb::prepare_rtl_coverage_model(kName, hw_config(options.hw_config), options.jobs, rtl_note)
          : options.hw_config;
  tb::RtlCoverage rtl;
  const auto take_rtl = [&](tb::CoverageSource source) {
    if (options.rtl) rtl.take(rtl_hw(rtl_config), source, options.rtl_dat_dir);
  };
  RvvCoverageExtras extras;

  // Directed: the worked examples of docs/examples/rvv (gemm.c, gemm.S) on the gemm task, first configuration
  // asked for. The directed RTL tests (tests/rvv_*/) build their programs inside gtest code and are not
  // counted.
  const std::string directed_config = options.configs.empty() ? "C1" : options.configs.front();
  const auto gemm = tasks.get("gemm").resolve(directed_config, kDType);
  const auto gemm_layout = layout(gemm);
  const auto gemm_symbols = symbols(options.hw_config, &gemm, &gemm_layout);
  auto gemm_dram = tasks::make_dram_image(gemm_layout, tasks::make_inputs(gemm, 1));
  gemm_dram.resize(gemm_layout.total_bytes, 0);
  std::vector<std::string> directed;
  for (const char* file : {"gemm.c", "gemm.S"}) {
    const auto path = root() / "docs" / "examples" / "rvv" / file;
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    std::stringstream source;
    source << in.rdbuf();
    const auto assembled = assemble(source.str(), file, gemm_symbols);
    if (!assembled.ok) throw std::runtime_error(path.string() + " does not build");
    const auto& built = *std::any_cast<std::shared_ptr<const BuiltKernel>>(assembled.artifact);
    record_rvv_coverage(rtl_config, built, gemm_dram, timing, tb::CoverageSource::kDirected, coverage,
                        extras);
    directed.push_back(fmt::format("docs/examples/rvv/{} (gemm {})", file, directed_config));
  }
  take_rtl(tb::CoverageSource::kDirected);

  const RandomProgramOptions random = steered_random_options(options.length, p.vlen, options.focus);
  for (uint64_t i = 0; i < options.programs; ++i) {
    const uint64_t seed = options.seed + i;
    const RandomProgram prog = random_program(seed, random);
    BuildOptions o;
    o.language = "asm";
    o.file_name = fmt::format("random_{}.S", seed);
    o.vlen = static_cast<int>(p.vlen);
    const BuiltKernel k = build_kernel(prog.source, o);
    if (!k.ok)
      throw std::runtime_error(fmt::format("random program {} does not build (a generator bug)", seed));
    record_rvv_coverage(rtl_config, k, prog.dram, timing, tb::CoverageSource::kRandom, coverage, extras);
  }
  take_rtl(tb::CoverageSource::kRandom);

  const auto baselines = tb::baseline_programs(*this, options, tasks);
  for (const auto& prog : baselines.programs) {
    const auto& built = *std::any_cast<std::shared_ptr<const BuiltKernel>>(prog.assembled.artifact);
    record_rvv_coverage(rtl_config, built, prog.dram, timing, tb::CoverageSource::kBaselines, coverage,
                        extras);
  }
  take_rtl(tb::CoverageSource::kBaselines);

  std::string notes = fmt::format(
      "sources: directed = {}; random = {} programs of `kcraft validate rvv`'s generator, seeds {}..{}, {} "
      "instructions each; baselines = {} baseline kernels ({}).\n"
      "rvv's functional model is QEMU, which reports no per-instruction events: every bin comes from the RTL "
      "(retired instructions from its instruction trace, decoded by objdump without aliases; stall causes "
      "from its counters, hits = stalled cycles).",
      fmt::join(directed, ", "), options.programs, options.seed, options.seed + options.programs - 1,
      options.length, baselines.programs.size(), fmt::join(options.configs, ", "));
  if (!options.focus.empty()) {
    notes += fmt::format(
        "\nrandom programs steered toward {} unhit bins: favoured rounding modes [{}], a special-value "
        "reload "
        "before {}% of the F instructions (no knob for the other groups)",
        options.focus.size(), fmt::join(random.rounding_modes, ", "), random.special_reload_percent);
  }
  for (const auto& s : baselines.skipped) notes += "\nbaseline not run: " + s;
  if (!extras.unlisted.empty()) {
    notes += "\nretired but not in isa/rvv/rvv_isa.yaml:";
    for (const auto& [m, n] : extras.unlisted) notes += fmt::format(" {} ({})", m, n);
  }
  if (!extras.unbinned_fp.empty()) {
    notes += "\nFP events with no bin:";
    for (const auto& [what, n] : extras.unbinned_fp) notes += fmt::format(" {} ({})", what, n);
  }
  if (extras.vector_insns_with_unknown_vtype > 0)
    notes += fmt::format(
        "\nvector instructions after a register-form vsetvl (vtype unknown, no vector form bin): {}",
        extras.vector_insns_with_unknown_vtype);
  if (options.rtl) notes += "\nRTL coverage build (" + rtl_config + "): " + rtl_note;
  return tb::coverage_report(kName, options, coverage, notes, options.rtl ? &rtl : nullptr);
}

}  // namespace kcraft::rvv
