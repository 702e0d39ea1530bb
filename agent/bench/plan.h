// Planning a sweep: which runs a set of filters selects, which shard of them this process owns, and the
// platforms, hardware configurations and agents the runs name.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "agent/bench/run_record.h"
#include "isa/common/hw_config.h"
#include "tasks/common/task_spec.h"

namespace kcraft::bench {

// The attainable bound of a task configuration on a platform's hardware configuration, or nothing when
// the platform, task or configuration is unknown.
std::optional<double> attainable_cycles(const std::string& platform, const std::string& hw,
                                        const std::string& task, const std::string& config);

// How an agent named on the command line (--agents) runs:
//   baseline                       the template compiler's kernel, scored (the tuner with a budget of one
//                                  iteration)
//   tuner                          the offline tuner (default budget by level, 15/20/25)
//   llm:FILE.yaml                  the `single` workflow through a provider settings file; stored as
//                                  "llm:<file stem>"
//   workflow:NAME:FILE.yaml        agent/workflows/NAME.yaml with the file's settings (per role ones too);
//                                  stored as "workflow:NAME:<file stem>" ("llm:<file stem>" for single)
//   port:PLATFORM:FILE.yaml        porting: `single`, given the results store's best passing kernel of the
//   port:PLATFORM:NAME:FILE.yaml   same task and configuration on PLATFORM; or workflow NAME. Stored as
//                                  "port:PLATFORM:<file stem>" / "port:PLATFORM:NAME:<file stem>"
//   library:FILE.db                the kernel library of a results store: the passing kernel of the same
//                                  platform, task and configuration (one of the run's hardware configuration
//                                  name if any, else the fewest cycles), scored unchanged; stored as
//                                  "library:<file stem>". A cell the library has no kernel of is stored
//                                  with status no_library_kernel (kcraft explore: kernels on variants)
// An LLM agent (llm:, workflow:, search:, port:) may end in `@docs=LEVEL` (isa | guide | full): the same
// agent at that documentation level, a distinct agent whose name keeps the suffix ("llm:<stem>@docs=isa"),
// so a sweep runs one model at several levels side by side. Without it, the settings file's `docs:`, else
// full with --library-examples and guide without (what sweeps served before levels existed).
// More kinds: one entry in agent_kinds() (plan.cpp) and, when they run differently, a job kind.
struct AgentSpec {
  enum class Kind { kBaseline, kTuner, kLlm, kLibrary };
  Kind kind = Kind::kTuner;
  std::string name;                 // the `agent` column
  std::string settings_file;        // kLlm: provider settings YAML (absolute)
  std::string workflow = "single";  // kLlm: agent/workflows/<workflow>.yaml
  std::string port_from;            // kLlm: port the best passing kernel of this platform ("" = no porting)
  std::string search;  // kLlm: island | ucb: a search over candidates (agent/search) instead of a workflow
  std::string library_file;  // kLibrary: the results store whose kernels run (absolute)
  std::string docs;          // kLlm: the `@docs=` level, or the level the sweep resolved ("" = not yet)
  bool offline() const { return kind != Kind::kLlm; }
  std::string job_kind() const;  // the worker's agent_kind: baseline | tuner | llm | library
};

// One form of --agents entry: "PREFIX" alone or "PREFIX:FIELDS..." (fields split at ':').
struct AgentKindSyntax {
  std::string prefix;  // "baseline", "llm", "workflow", "port", ...
  std::string usage;   // e.g. "workflow:NAME:SETTINGS.yaml", for error messages
  // Builds the spec from the fields after the prefix; throws std::invalid_argument saying what is wrong.
  std::function<AgentSpec(const std::vector<std::string>& fields)> parse;
};
const std::vector<AgentKindSyntax>& agent_kinds();

// Throws std::invalid_argument for an unknown agent, a missing settings file, an unknown workflow or
// platform, or an unknown documentation level.
AgentSpec parse_agent(const std::string& text);

// The `@docs=` suffix of an agent name (kDocsSuffix), and where it starts (npos: none).
inline constexpr const char* kDocsSuffix = "@docs=";
size_t docs_suffix_at(const std::string& agent);

// The agent a porting agent is compared with: the same workflow and settings without porting
// ("port:P:m" -> "llm:m", "port:P:default:m" -> "workflow:default:m"); "" for an agent that does not port.
std::string unported_agent_name(const std::string& agent);

// `i/N`: this process runs the runs whose key hashes to i modulo N (0 <= i < N).
struct Shard {
  unsigned index = 0;
  unsigned count = 1;
  static Shard parse(const std::string& text);  // throws std::invalid_argument
  std::string to_string() const;
  bool owns(const RunKey& key) const;
};
unsigned shard_of(const RunKey& key, unsigned count);

struct SweepFilters {
  std::vector<std::string> platforms;   // empty: every platform
  std::vector<std::string> hw_configs;  // names ("small") or platform/name; empty: every configuration
  std::vector<std::string> tasks;       // empty: every task
  std::vector<int> levels;              // empty: every level
  std::vector<std::string> configs;     // empty: C1..C5
  std::vector<std::string> agents{"tuner"};
  unsigned attempts = 1;
  Shard shard;
  // With neither --hw nor --configs, the sweep is the quick one: each platform's `default` hardware
  // configuration at C1-C2, less the cells a platform keeps out of it (Platform::default_sweep_exclusion).
  // `full` (--full) plans every hardware configuration at C1..C5 and leaves no cell out.
  bool full = false;
};

// The configurations of the quick sweep, on the hardware configuration of this name.
inline const std::vector<std::string>& quick_sweep_configs() {
  static const std::vector<std::string> configs{"C1", "C2"};
  return configs;
}
inline constexpr const char* kQuickSweepHw = "default";

struct SweepPlan {
  std::vector<PlannedRun> runs;  // this shard's runs, sorted by key
  std::vector<UnsupportedCell> unsupported;
  // Cells the quick sweep leaves out (other hardware configurations, C3-C5, and the platforms' own
  // exclusions, Platform::default_sweep_exclusion), with the reason; only when neither --configs, --hw nor
  // --full chose the cells.
  std::vector<UnsupportedCell> left_out;
  bool quick = false;  // the quick sweep (SweepFilters::full)
  std::vector<HardwareRecord> hardware;
  std::vector<AgentSpec> agents;
  std::vector<double> costs;  // estimated relative cost of each run (same order as runs)
  const AgentSpec& agent(const std::string& name) const;
  const HardwareRecord& hardware_for(const std::string& platform, const std::string& hw) const;
};

// The plan's left-out cells for people: one line per platform, hardware configuration and reason, naming
// the configurations and how many tasks, then what --full adds and how to run it; empty when none is left
// out.
std::string left_out_text(const SweepPlan& plan);
// One line: what the plan covers ("quick sweep: a/default, b/default; 23 tasks; C1, C2; agent tuner:
// 92 runs").
std::string coverage_text(const SweepPlan& plan);

// Throws std::invalid_argument naming the unknown platform, configuration, task, level or agent.
SweepPlan build_plan(const SweepFilters& filters, const tasks::TaskRegistry& registry);

// A hardware configuration as the results store records it (its YAML as JSON, hashed for the id).
HardwareRecord hardware_record(const std::string& platform, const HwConfig& hw);
// The same by name; throws std::invalid_argument for an unknown platform or configuration.
HardwareRecord hardware_record(const std::string& platform, const std::string& hw);

// A YAML file as JSON (scalars that read as numbers or booleans become numbers or booleans).
// Throws ConfigError naming the file.
nlohmann::json yaml_file_to_json(const std::string& path);
// The same from text (`source` names it in messages).
nlohmann::json yaml_text_to_json(const std::string& yaml, const std::string& source);

}  // namespace kcraft::bench
