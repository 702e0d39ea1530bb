// Functional coverage for `kcraft coverage <platform>` (tb/common/platform.h): which instructions, operand
// classes, errors and stall causes the directed programs, the random campaign and the task baselines
// exercised. Platform-neutral: bins are (group, name) with a hit count per source; a platform declares
// every bin up front (from its ISA's YAML, so the totals are real and "never hit" means never hit) and
// records hits from its functional model or RTL in its own tb/<platform>/ folder.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "isa/common/isa_spec.h"
#include "tb/common/platform.h"

namespace kcraft::tb {

// Where a hit came from. The order is the column order of every rendering.
enum class CoverageSource : unsigned { kDirected = 0, kRandom = 1, kBaselines = 2 };
inline constexpr unsigned kNumCoverageSources = 3;
const char* coverage_source_name(CoverageSource source);  // "directed", "random", "baselines"

struct CoverageBin {
  std::string group;  // "instruction", "fp operand class", ...
  std::string name;   // "V_ADD_VV", "S_ADD_FP rs=nan", ...
  std::array<uint64_t, kNumCoverageSources> hits{};

  uint64_t total_hits() const;
};

// Covered bins of one group, per source and over all sources.
struct CoverageGroupSummary {
  std::string group;
  size_t total = 0;
  std::array<size_t, kNumCoverageSources> covered{};
  size_t covered_any = 0;
  std::vector<std::string> never_hit;  // in declaration order
};

class Coverage {
 public:
  // Declares a bin (again: no effect). Groups keep the order of their first declaration.
  void declare(const std::string& group, const std::string& name);
  // Counts hits of a declared bin. Throws std::logic_error for an undeclared one: a platform that hits
  // a bin it never declared has a wrong bin list, and silently adding it would make the totals lie.
  void hit(const std::string& group, const std::string& name, CoverageSource source, uint64_t count = 1);
  bool declared(const std::string& group, const std::string& name) const;
  // Hits of a bin from one source, or over all sources; throws std::logic_error when undeclared.
  uint64_t hits(const std::string& group, const std::string& name, CoverageSource source) const;
  uint64_t hits(const std::string& group, const std::string& name) const;

  // Adds `other`'s bins (declaring the missing ones) and hits.
  void merge(const Coverage& other);

  const std::vector<CoverageBin>& bins() const { return bins_; }
  std::vector<std::string> groups() const;
  std::vector<CoverageGroupSummary> summary() const;

  // {"groups": [{group, total, covered: {directed, random, baselines, combined}, never_hit: [...]}],
  //  "bins": [{group, name, hits: {directed, random, baselines}}]}
  nlohmann::json to_json() const;
  // Reads to_json()'s output back; throws std::invalid_argument naming what is malformed.
  static Coverage from_json(const nlohmann::json& json);

  // A table of covered/total per group and source, then the bins never hit per group.
  std::string text() const;
  // A self-contained HTML page: the same table with bars, and every bin with its hits per source.
  // `after_summary` (HTML) goes between the summary and the per-group tables: the RTL coverage section,
  // which would otherwise sit below hundreds of bin rows.
  std::string html(const std::string& title, const std::string& notes,
                   const std::string& after_summary = "") const;

 private:
  CoverageBin& find(const std::string& group, const std::string& name);
  const CoverageBin& find(const std::string& group, const std::string& name) const;

  std::vector<CoverageBin> bins_;
  std::map<std::pair<std::string, std::string>, size_t> index_;
};

// The bins of `coverage` with no hit from any source, in declaration order.
std::vector<CoverageBinName> never_hit_bins(const Coverage& coverage);
// Reads a `kcraft coverage --json` file; throws std::invalid_argument naming the file when it is unreadable
// or malformed.
Coverage load_coverage_json(const std::string& path);
// Whether any focus bin belongs to `group` (a platform steers its generator per group).
bool focus_has_group(const std::vector<CoverageBinName>& focus, const std::string& group);

// Bins every ISA spec provides: group "instruction" (every instruction of the YAML), "error" (every error
// code but "none") and "stall cause" (every stall cause but "none").
void declare_isa_bins(Coverage& coverage, const isa::IsaSpec& spec);

// The IEEE class of an FP32 value as coverage bins name it: "zero", "subnormal", "normal", "inf", "nan".
const char* fp32_class(uint32_t bits);
inline constexpr std::array<const char*, 5> kFp32Classes{"zero", "subnormal", "normal", "inf", "nan"};
// The same with the sign of zeros and infinities and the kind of NaN (the cases IEEE 754 arithmetic treats
// apart: -0 in sums and products, sNaN raising NV): "+zero", "-zero", "subnormal", "normal", "+inf", "-inf",
// "qnan", "snan".
const char* fp32_signed_class(uint32_t bits);
inline constexpr std::array<const char*, 8> kFp32SignedClasses{"+zero", "-zero", "subnormal", "normal",
                                                               "+inf",  "-inf",  "qnan",      "snan"};
// The bin of an FP operand's class, "<instruction> <operand>=<class>" ("S_ADD_FP rs=nan", "FADD.S fs1=snan"):
// every platform's operand-class group names its bins so.
std::string fp_operand_class_bin(const std::string& instruction, const std::string& operand,
                                 const std::string& cls);

// A program a coverage source runs, assembled, with its initial DRAM image.
struct CoverageProgram {
  std::string label;  // "example 'Nested loops'", "gemm C1 baseline"
  isa::AssembleResult assembled;
  std::vector<uint8_t> dram;
};

// The worked example programs of the ISA reference (the YAML's `examples:`), assembled with the symbols the
// example lists (as the ISA generator does), each with a zeroed DRAM of `dram_bytes`. Throws
// std::runtime_error when one does not assemble (the generator checks that they do).
std::vector<CoverageProgram> isa_example_programs(const Platform& platform, const isa::IsaSpec& spec,
                                                  size_t dram_bytes);

// The baseline kernel of every task with a template, for each of options.configs, with the task's inputs
// (seed 1) in DRAM. Cells the platform or its compiler cannot run are left out and listed in `skipped`
// with the reason, so a gap is never silent.
struct BaselinePrograms {
  std::vector<CoverageProgram> programs;
  std::vector<std::string> skipped;  // "conv_block C1: <reason>"
};
BaselinePrograms baseline_programs(const Platform& platform, const CoverageOptions& options,
                                   const tasks::TaskRegistry& tasks);

}  // namespace kcraft::tb
