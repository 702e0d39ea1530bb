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
  return c;
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

  RandomProgramOptions random;
  random.length = options.length;
  random.vlen = p.vlen;
  random.vector = true;
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
  if (!options.focus.empty())
    notes += "\n--steer has no effect here: rvv's random generator has no knob for these bins (unsteered)";
  for (const auto& s : baselines.skipped) notes += "\nbaseline not run: " + s;
  if (!extras.unlisted.empty()) {
    notes += "\nretired but not in isa/rvv/rvv_isa.yaml:";
    for (const auto& [m, n] : extras.unlisted) notes += fmt::format(" {} ({})", m, n);
  }
  if (extras.vector_insns_with_unknown_vtype > 0)
    notes += fmt::format(
        "\nvector instructions after a register-form vsetvl (vtype unknown, no vector form bin): {}",
        extras.vector_insns_with_unknown_vtype);
  if (options.rtl) notes += "\nRTL coverage build (" + rtl_config + "): " + rtl_note;
  return tb::coverage_report(kName, options, coverage, notes, options.rtl ? &rtl : nullptr);
}

}  // namespace kcraft::rvv
