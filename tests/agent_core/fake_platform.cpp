#include "tests/agent_core/fake_platform.h"

#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

namespace kcraft::testing {

namespace {

class FakeCompiler : public tasks::BaselineCompiler {
 public:
  std::vector<std::string> supported_tasks() const override { return {"relu", "silu"}; }
  std::string unsupported_reason(const tasks::ResolvedConfig& cfg) const override {
    return supports(cfg.task) ? "" : "no template for task " + cfg.task;
  }
  std::vector<tasks::Knob> knobs(const tasks::ResolvedConfig& cfg) const override {
    if (!supports(cfg.task)) throw std::invalid_argument("no template for task " + cfg.task);
    if (cfg.task == "silu") return {};  // a template without knobs: one candidate
    // 4 is a knob point the template refuses (as a real one refuses a kernel that outgrows instruction
    // memory): the tuner must skip it, and it comes first so a search meets it.
    return {{"unroll", "FAKE_OPs per row", 3, {4, 1, 2, 3}}};
  }
  using BaselineCompiler::generate;
  tasks::GeneratedKernel generate(const tasks::ResolvedConfig& cfg, const tasks::DramLayout&,
                                  const tasks::KnobValues& values) const override {
    tasks::GeneratedKernel k;
    k.knobs = {{"unroll", values.count("unroll") ? values.at("unroll") : 3}};
    if (k.knobs["unroll"] > 3) throw std::invalid_argument("the fake kernel outgrows its instruction memory");
    k.summary = fmt::format("{} FAKE_OPs", k.knobs["unroll"]);
    k.source = "; fake baseline for " + cfg.task + "\n";
    for (int64_t i = 0; i < k.knobs["unroll"]; ++i) k.source += "FAKE_OP\n";
    return k;
  }
  // A compiler baseline for relu only: five FAKE_OPs (what "a compiler" makes of the reference).
  std::string compiler_baseline_name() const override { return "fake cc"; }
  tasks::GeneratedKernel compiler_baseline(const tasks::ResolvedConfig& cfg,
                                           const tasks::DramLayout&) const override {
    tasks::GeneratedKernel k;
    if (cfg.task != "relu") return k;
    k.source = "; fake compiler baseline\n";
    for (int i = 0; i < 5; ++i) k.source += "FAKE_OP\n";
    return k;
  }
};

class FakePlatform : public Platform {
 public:
  FakePlatform() {
    configs_.push_back(load_hw_config(std::filesystem::path(KCRAFT_FAKE_PLATFORM_DIR) / "default.yaml"));
  }

  std::string name() const override { return kFakePlatform; }
  std::string summary() const override { return "a test-only platform"; }
  tasks::DType dtype() const override { return tasks::DType::bf16; }

  const std::vector<HwConfig>& hw_configs() const override { return configs_; }
  std::vector<HwParameter> hw_parameters(const std::string& hw) const override {
    std::vector<HwParameter> rows;
    for (const auto& [k, v] : hw_config(hw).build)
      rows.push_back({k, std::to_string(v), "", "", HwParameter::Kind::kBuild});
    rows.push_back({"DRAM_LATENCY", "10", "cycles", "", HwParameter::Kind::kRuntime});
    return rows;
  }
  uint64_t program_capacity(const std::string& hw) const override {
    return static_cast<uint64_t>(hw_config(hw).build_param("PROGRAM_WORDS"));
  }

  std::string isa_reference() const override {
    return "# fake ISA\n\n## Instructions\n\n#### FAKE_OP\n\nDoes nothing for 100 cycles.\n\n#### "
           "FAKE_HALT\n\nStops.\n";
  }
  std::filesystem::path guide_path() const override {
    return std::filesystem::path(KCRAFT_FAKE_PLATFORM_DIR) / "guide.md";
  }
  std::vector<std::string> instruction_names() const override { return {"FAKE_OP", "FAKE_HALT"}; }
  SchedulingTable scheduling_table(const std::string& hw) const override {
    SchedulingTable t;
    t.platform = "fake";
    t.hw = hw;
    t.time_unit = "cycles";
    return t;
  }

  isa::SymbolTable symbols(const std::string& hw, const tasks::ResolvedConfig* cfg,
                           const tasks::DramLayout*) const override {
    isa::SymbolTable s;
    for (const auto& [k, v] : hw_config(hw).build) s[k] = v;
    if (cfg != nullptr) {
      for (const auto& [k, v] : cfg->dims) s[k] = v;
    }
    return s;
  }
  isa::AssembleResult assemble(const std::string& source, const std::string& filename,
                               const isa::SymbolTable&) const override {
    isa::AssembleResult r;
    r.filename = filename;
    std::istringstream in(source);
    int line_number = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_number;
      if (line.empty() || line[0] == ';') continue;
      if (line.find("BAD") != std::string::npos) {
        r.diagnostics.push_back(
            {isa::Severity::kError, line_number, 1, 3, "unknown instruction", line, "try FAKE_OP"});
        continue;
      }
      if (line.find("HAZARD") != std::string::npos) {
        r.diagnostics.push_back({isa::Severity::kWarning, line_number, 1, 6, "hazard", line, ""});
      }
      r.words.push_back(0xFA);
      r.word_lines.push_back(line_number);
    }
    r.ok = r.error_count() == 0;
    return r;
  }
  std::string disassemble(const std::vector<uint32_t>& words) const override {
    std::string out;
    for (size_t i = 0; i < words.size(); ++i) out += "FAKE_OP\n";
    return out;
  }

  std::string unsupported_reason(const tasks::ResolvedConfig& cfg, const std::string& hw) const override {
    hw_config(hw);  // throws for an unknown name
    return cfg.task == "gemm" ? "the fake platform has no matrix unit" : "";
  }
  tasks::DramLayout layout(const tasks::ResolvedConfig& cfg) const override {
    return tasks::compute_layout(cfg);
  }
  IdealCycles ideal_cycles(const tasks::ResolvedConfig& cfg, const std::string&) const override {
    IdealCycles ideal;
    ideal.vector = static_cast<double>(cfg.flops) / 4;
    ideal.attainable = ideal.vector + 1;
    ideal.attainable_bound = "vector";
    ideal.attainable_why = "vector-bound: one FAKE_OP per row";
    return ideal;
  }
  EvalReport evaluate(const EvalRequest& req, const tasks::TaskRegistry& tasks) const override {
    EvalReport r;
    r.platform = kFakePlatform;
    r.hw_config = req.hw_config;
    r.task = req.task;
    r.config = req.config;
    r.seed = req.seed;
    const auto cfg = tasks.get(req.task).resolve(req.config, dtype());
    r.ideal = ideal_cycles(cfg, req.hw_config);
    const auto built = assemble(req.source, req.filename, symbols(req.hw_config, &cfg, nullptr));
    r.errors = built.error_count();
    r.warnings = built.warning_count();
    r.instruction_count = built.instruction_count();
    if (!built.ok) {
      r.verdict = Verdict::kBuildError;
      r.headline = fmt::format("{} error(s)", r.errors);
      r.diagnostics = isa::format_diagnostics(built, req.source);
      return r;
    }
    r.verdict = Verdict::kPass;
    r.cycles = 100 * built.instruction_count();
    r.counters = {{"fake_ops", built.instruction_count()}};
    r.utilization = r.ideal.total() / static_cast<double>(r.cycles);
    r.headline = fmt::format("{} cycles on the fake platform", r.cycles);
    return r;
  }
  std::string describe_counters(const EvalReport& report) const override {
    return fmt::format("fake counters: {} FAKE_OPs\n",
                       report.counters.empty() ? 0 : report.counters[0].value);
  }

  std::unique_ptr<tasks::BaselineCompiler> baseline_compiler(const std::string& hw) const override {
    hw_config(hw);
    return std::make_unique<FakeCompiler>();
  }

  CommandReport validate(const ValidationOptions& options) const override {
    return {true, fmt::format("{} fake programs agree\n", options.programs), {{"result", "agree"}}};
  }
  CommandReport speed(const SpeedOptions&, const tasks::TaskRegistry&) const override {
    return {true, "fast\n", {{"ratio", 1.0}}};
  }

 private:
  std::vector<HwConfig> configs_;
};

}  // namespace

std::unique_ptr<Platform> make_fake_platform() {
  return std::make_unique<FakePlatform>();
}

}  // namespace kcraft::testing
