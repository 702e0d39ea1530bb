// The platform interface (tb/common/platform.h) on every platform this build registers: each answers every
// member coherently, and its relu C1 baseline passes on the RTL. It names no platform and links none by
// name (kcraft_agent brings the registry, kcraft_platforms), so it runs on whatever tree it is built in: the
// whole one, or a scratch copy that registers only a new platform (scripts/new_platform_example.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "agent/common/environment.h"
#include "tb/common/platform.h"

namespace kcraft {
namespace {

// What every platform must answer, checked on each registered one (a new platform gets it for free).
TEST(PlatformRegistry, EveryPlatformImplementsTheInterface) {
  const auto& registry = agent::task_registry();
  for (const Platform* p : platforms()) {
    SCOPED_TRACE(p->name());
    EXPECT_FALSE(p->summary().empty());
    ASSERT_FALSE(p->hw_configs().empty());
    EXPECT_EQ(p->hw_config("default").name, "default");  // the configuration commands use by default
    for (const auto& hw : p->hw_configs()) {
      EXPECT_EQ(hw.platform, p->name());
      EXPECT_GT(p->program_capacity(hw.name), 0u);
      const auto rows = p->hw_parameters(hw.name);
      for (const auto& parameter : hw.build) {
        const std::string& key = parameter.first;
        const auto row =
            std::find_if(rows.begin(), rows.end(), [&](const HwParameter& r) { return r.name == key; });
        ASSERT_NE(row, rows.end()) << key;
        EXPECT_EQ(row->value, std::to_string(parameter.second));
        EXPECT_FALSE(row->description.empty()) << key;
      }
    }
    try {
      p->hw_config("nope");
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("known: default"), std::string::npos) << e.what();
    }

    const std::string reference = p->isa_reference();
    ASSERT_FALSE(p->instruction_names().empty());
    for (const auto& mnemonic : p->instruction_names()) {
      EXPECT_NE(reference.find("\n#### " + mnemonic + "\n"), std::string::npos) << mnemonic;
    }
    EXPECT_TRUE(std::filesystem::is_regular_file(p->guide_path())) << p->guide_path();

    // The baseline kernel of relu C1 assembles, disassembles and passes.
    const auto compiler = p->baseline_compiler("default");
    ASSERT_NE(compiler, nullptr);
    ASSERT_TRUE(p->has_baseline("relu"));
    const auto cfg = registry.get("relu").resolve("C1", p->dtype());
    ASSERT_EQ(p->unsupported_reason(cfg, "default"), "");
    const auto layout = p->layout(cfg);
    const auto kernel = compiler->generate(cfg, layout);
    for (const auto& knob : compiler->knobs(cfg)) EXPECT_EQ(kernel.knobs.count(knob.name), 1u) << knob.name;
    const auto symbols = p->symbols("default", &cfg, &layout);
    const auto built = p->assemble(kernel.source, p->kernel_file_name(kernel.language), symbols);
    ASSERT_TRUE(built.ok);
    EXPECT_FALSE(p->disassemble(built.words).empty());
    EXPECT_GT(p->ideal_cycles(cfg, "default").total(), 0);

    EvalRequest req;
    req.platform = p->name();
    req.task = "relu";
    req.source = kernel.source;
    req.filename = p->kernel_file_name(kernel.language);
    const EvalReport report = p->evaluate(req, registry);
    EXPECT_EQ(report.verdict, Verdict::kPass) << report.headline;
    EXPECT_EQ(report.platform, p->name());
    EXPECT_FALSE(p->describe_counters(report).empty());
  }
}

}  // namespace
}  // namespace kcraft
