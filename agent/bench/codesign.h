// ISA co-design (`kcraft codesign profile|propose PLATFORM`, docs/codesign.md): where the cycles of a
// workload's best kernels go, instruction by instruction, and which ISA or hardware changes the profile
// says would pay: fused instructions, binding parameters, unused instructions.
//
// Platform-neutral: what a platform's timing model means (its issue track, units, stall causes, binding
// parameters, an instruction's dataflow) comes from Platform::codesign_rules() and Platform::dataflow().
//
// The attribution rule: every cycle of a run is charged exactly once. A cycle in which an instruction
// issues (retires, on a pipeline that traces retirement) is charged to it, as "issue"; any other cycle is
// charged to the next instruction that issues (the one the cycle delayed), under the stall cause the
// timeline names for it, or "idle" when it names none; cycles after the last instruction go to the last.
// A bundle's cycles go to its op on the highest-priority unit (CodesignRules::unit_priority).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/common/platform.h"
#include "tb/common/timeline.h"

namespace kcraft::bench::codesign {

// ---- a run as the profiler sees it

struct Issue {
  uint64_t cycle = 0;
  std::string text;  // the instruction's (bundle's) disassembly
};

struct StallSpan {
  uint64_t begin = 0, end = 0;  // [begin, end)
  std::string cause;
};

struct RunTrace {
  std::string task, config;
  std::string kernel_from;  // where the kernel came from: "baseline", "library (tuner)", ...
  double weight = 1;
  uint64_t cycles = 0;
  std::vector<Issue> issues;  // in cycle order
  std::vector<StallSpan> stalls;
};

// The issued instructions and the stalls of a recorded timeline. Throws std::invalid_argument when it has
// no track named rules.issue_track.
RunTrace trace_from_timeline(const tb::Timeline& timeline, const CodesignRules& rules);

// ---- one run's profile

// A dependent sequence of 2 or 3 ops of one unit, each op's result used exactly once, by the next.
// Occurrences do not overlap: a chain of n ops counts n / 2 pairs and n / 3 triples.
struct FusionStats {
  uint64_t occurrences = 0;
  uint64_t cycles = 0;  // charged to all its ops
  uint64_t saved = 0;   // charged to the later ops: what a fused instruction would save
  // One instruction accumulating into the place it reads (a partial sum): one instruction over more data
  // rather than a new operation.
  bool accumulation = false;
};

struct RunProfile {
  std::string task, config, kernel_from;
  double weight = 1;
  uint64_t cycles = 0;
  std::map<std::string, uint64_t> by_instruction;        // mnemonic -> cycles charged
  std::map<std::string, uint64_t> issue_by_instruction;  // mnemonic -> its issue cycles
  std::map<std::string, uint64_t> by_unit;
  std::map<std::string, uint64_t> by_cause;  // "issue", each stall cause, "idle"
  // (stall cause, unit of the instruction that waited) -> cycles
  std::map<std::pair<std::string, std::string>, uint64_t> stall_by_waiting_unit;
  std::map<std::string, uint64_t> executed;    // mnemonic -> ops executed (every op of a bundle)
  std::map<std::string, FusionStats> fusions;  // "A>B" or "A>B>C"
  uint64_t attributed() const;                 // the sum of by_cause: equals cycles
};

// An instruction's (bundle's) ops from its text: Platform::dataflow, or a test's.
using DataflowFn = std::function<std::vector<DataflowOp>(const std::string&)>;

RunProfile profile_run(const RunTrace& trace, const DataflowFn& dataflow, const CodesignRules& rules);

// ---- the workload

struct WorkloadItem {
  std::string task, config;
  double weight = 1;
};

// A workload file: a YAML map of task (or "task@C2") to weight > 0. A task without "@" takes every one of
// `configs`. Throws std::invalid_argument naming the file and the entry for bad input.
std::vector<WorkloadItem> parse_workload(const std::string& yaml_text, const std::string& file_name,
                                         const std::vector<std::string>& configs);
// The level-3 tasks of the registry at each of `configs`, weight 1 each.
std::vector<WorkloadItem> default_workload(const tasks::TaskRegistry& registry,
                                           const std::vector<std::string>& configs);

struct WeightedProfile {
  std::string platform, hw_config;
  std::vector<RunProfile> runs;
  std::vector<std::string> skipped;  // "task C1: why" for items without a passing kernel
  CodesignRules rules;
  std::vector<std::string> instruction_names;  // of the ISA, for the unused ones
  // Weighted sums over the runs (weight x cycles).
  double total = 0;
  std::map<std::string, double> by_instruction, by_unit, by_cause, executed;
  std::map<std::pair<std::string, std::string>, double> stall_by_waiting_unit;
  std::map<std::string, FusionStats> fusions;  // weighted and rounded
};

// Weighted sums of the runs; `instruction_names` are the ISA's (for the unused ones).
WeightedProfile combine(std::vector<RunProfile> runs, const std::string& platform, const std::string& hw,
                        CodesignRules rules, std::vector<std::string> instruction_names);

// ---- candidates

struct Candidate {
  std::string
      kind;  // "fusion", "accumulation" (a fusion of one instruction into itself), "parameter", "unused"
  std::string title;
  double workload_cycles = 0;  // weighted cycles of the workload it concerns
  double saved_cycles = 0;     // estimated weighted cycles saved (0 for unused instructions)
  double speedup = 1;          // total / (total - saved)
  uint64_t occurrences = 0;
  std::string estimate_rule;    // how saved_cycles was estimated
  std::string explore_command;  // parameters: a ready `kcraft explore` command line
  int64_t cells_added = -1;     // from explore's yosys sizes; -1 = not known
  nlohmann::json evidence;
};

struct ProposeOptions {
  size_t max_fusions = 10;
  double min_share = 0.005;        // parameters: the cause's share of the workload's cycles at least
  double rare_share = 0.001;       // instructions executed less often than this share of all ops are rare
  std::string command = "kcraft";  // how the explore command lines start
};

std::vector<Candidate> propose(const WeightedProfile& profile, const ProposeOptions& options = {});

// ---- output

nlohmann::json profile_json(const WeightedProfile& profile);
std::string profile_text(const WeightedProfile& profile, size_t top = 15);
nlohmann::json candidates_json(const WeightedProfile& profile, const std::vector<Candidate>& candidates);
std::string candidates_text(const WeightedProfile& profile, const std::vector<Candidate>& candidates);
// A self-contained page: the profile's tables and, when given, the candidates with a chart of estimated
// workload speedup against cells added.
std::string codesign_html(const WeightedProfile& profile, const std::vector<Candidate>* candidates);
// An explore spec: one `kcraft explore` command line per parameter candidate, as a shell script.
std::string explore_script(const WeightedProfile& profile, const std::vector<Candidate>& candidates);

}  // namespace kcraft::bench::codesign
