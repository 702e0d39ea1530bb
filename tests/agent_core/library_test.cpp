// The kernel library (agent/library/library.h) and the tools over it, on the test-only platform: what
// find_examples may return under the benchmark rule, and documentation retrieval by sections.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "agent/common/agent_run.h"
#include "agent/common/tools.h"
#include "agent/library/library.h"
#include "tests/agent_core/fake_platform.h"

namespace kcraft::agent {
namespace {

using nlohmann::json;
using testing::kFakePlatform;

// The fake platform is registered by generic_platform_test.cpp's test environment (same binary).

std::filesystem::path fresh_library(const std::string& name) {
  const auto file = std::filesystem::temp_directory_path() /
                    ("kcraft_library_" + name + "_" + std::to_string(::getpid()) + ".db");
  std::filesystem::remove(file);
  return file;
}

library::KernelEntry kernel(const std::string& platform, const std::string& hw, const std::string& task,
                            const std::string& config, uint64_t cycles, const std::string& source) {
  return {platform, hw, task, config, cycles, "llm:test", "", source, "abc", "", ""};
}

// relu C1 is the scored cell: it is in the library on this hardware configuration AND on another one,
// with a word ("scoredsecret") no other kernel has, so a search for that word can only find the answer.
void fill(library::KernelLibrary& lib) {
  lib.insert(kernel(kFakePlatform, "default", "relu", "C1", 100, "FAKE_OP scoredsecret relu\n"));
  lib.insert(kernel(kFakePlatform, "big", "relu", "C1", 90, "FAKE_OP scoredsecret relu big\n"));
  lib.insert(kernel(kFakePlatform, "default", "relu", "C2", 300, "FAKE_OP relu larger\n"));
  lib.insert(kernel(kFakePlatform, "default", "silu", "C1", 250, "FAKE_OP silu exp\n"));
  lib.insert(kernel("otherplatform", "default", "relu", "C2", 10, "OTHER relu scoredsecret\n"));
}

TEST(KernelLibrary, NeverReturnsTheScoredTaskAndConfigurationOnAnyHardwareConfiguration) {
  const auto file = fresh_library("leak");
  library::KernelLibrary lib(file);
  fill(lib);
  // Every query a model could try, including the scored kernel's own words, its task and its hardware.
  for (const std::string query :
       {"", "scoredsecret", "relu", "relu C1", "big", "FAKE_OP", "FAKE_OP scoredsecret relu", "C1 default",
        "\"relu\" AND scoredsecret", "relu* OR NEAR(scoredsecret)", "silu"}) {
    const auto found = lib.search({kFakePlatform, "relu", "C1", query, 5, false});
    for (const auto& k : found) {
      EXPECT_FALSE(k.task == "relu" && k.config == "C1")
          << "leak for query '" << query << "': " << k.hw_config;
      EXPECT_EQ(k.platform, kFakePlatform) << query;
      EXPECT_EQ(k.source.find("scoredsecret"), std::string::npos) << query;
      EXPECT_FALSE(k.scored_cell);
    }
  }
  // Other configurations of the same task are fair examples, and the default query finds them.
  const auto by_task = lib.search({kFakePlatform, "relu", "C1", "", 5, false});
  ASSERT_FALSE(by_task.empty());
  EXPECT_EQ(by_task.front().task, "relu");
  EXPECT_EQ(by_task.front().config, "C2");
  // The scored kernel's private word finds nothing at all.
  EXPECT_TRUE(lib.search({kFakePlatform, "relu", "C1", "scoredsecret", 5, false}).empty());
  // Scored on silu C1, relu C1 is another task: returned (one kernel per cell).
  const auto for_silu = lib.search({kFakePlatform, "silu", "C1", "scoredsecret", 5, false});
  ASSERT_EQ(for_silu.size(), 1u);
  EXPECT_EQ(for_silu[0].task, "relu");
  EXPECT_EQ(for_silu[0].config, "C1");
  std::filesystem::remove(file);
}

TEST(KernelLibrary, TheScoredCellOnlyWhenAllowedAndThenMarked) {
  const auto file = fresh_library("allowed");
  library::KernelLibrary lib(file);
  fill(lib);
  const auto found = lib.search({kFakePlatform, "relu", "C1", "scoredsecret", 5, true});
  ASSERT_EQ(found.size(), 1u);  // both hardware configurations match; one kernel per cell
  EXPECT_TRUE(found[0].scored_cell);
  EXPECT_EQ(found[0].task, "relu");
  EXPECT_EQ(found[0].config, "C1");
  std::filesystem::remove(file);
}

TEST(KernelLibrary, BadInputIsAClearError) {
  const auto file = fresh_library("bad");
  library::KernelLibrary lib(file);
  EXPECT_THROW(lib.insert(kernel(kFakePlatform, "default", "relu", "C1", 1, "")), library::LibraryError);
  EXPECT_THROW(lib.search({kFakePlatform, "", "C1", "x", 3, false}), library::LibraryError);
  EXPECT_EQ(library::fts_query("a-b \"c\" OR( *"), "\"a\" OR \"b\" OR \"c\" OR \"or\"");
  EXPECT_TRUE(lib.search({kFakePlatform, "relu", "C1", "*** ()", 3, false}).empty());
  EXPECT_THROW(library::KernelLibrary("/nonexistent-dir/x/library.db"), library::LibraryError);
  std::filesystem::remove(file);
}

TEST(KernelLibrary, FindExamplesFollowsTheRuleAndTheResultReportsAnException) {
  const auto file = fresh_library("tool");
  {
    library::KernelLibrary lib(file);
    fill(lib);
  }
  TaskContext ctx;
  ctx.platform = kFakePlatform;
  ctx.task = "relu";
  ctx.config = "C1";
  {
    ToolSession none(ctx);  // no library in this run
    const auto r = none.call("find_examples", json::object());
    EXPECT_FALSE(r.is_error);
    EXPECT_EQ(r.data["library"], false);
    EXPECT_TRUE(r.data["examples"].empty());
  }
  ctx.library = file.string();
  ToolSession s(ctx);
  const auto r = s.call("find_examples", {{"query", "scoredsecret relu"}, {"max_results", 5}});
  EXPECT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.text.find("scoredsecret"), std::string::npos) << r.text;
  ASSERT_FALSE(r.data["examples"].empty()) << r.text;
  for (const auto& e : r.data["examples"]) EXPECT_FALSE(e["task"] == "relu" && e["config"] == "C1") << e;
  EXPECT_NE(r.text.find("FAKE_OP relu larger"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("relu C2 (hardware default), 300 cycles"), std::string::npos) << r.text;
  EXPECT_EQ(s.scored_cell_examples(), 0u);
  const auto bad = s.call("find_examples", {{"query", 7}});
  EXPECT_TRUE(bad.is_error) << bad.text;

  ctx.library_allows_scored_cell = true;
  ToolSession allowed(ctx);
  const auto a = allowed.call("find_examples", {{"query", "scoredsecret"}});
  EXPECT_NE(a.text.find("allowed by this run"), std::string::npos) << a.text;
  EXPECT_EQ(allowed.scored_cell_examples(), 1u);
  AgentResult result;
  result.context = ctx;
  result.scored_cell_examples = allowed.scored_cell_examples();
  const json j = result.to_json();
  EXPECT_EQ(j["library"]["allows_scored_cell"], true);
  EXPECT_EQ(j["library"]["scored_cell_examples"], 1);
  EXPECT_NE(result.summary().find("ALLOWED (1 shown)"), std::string::npos) << result.summary();
  std::filesystem::remove(file);
}

TEST(DocumentationSections, SplitAtHeadingsWithTheirPath) {
  const std::string doc =
      "intro line\n# Guide\n\ntop text\n## Memory\nabout memory\n### DMA\nstrided dma transfers\n```\n# not "
      "a "
      "heading\n```\n## Loops\nhardware loops\n";
  const auto sections = library::split_sections("guide", doc);
  ASSERT_EQ(sections.size(), 5u);
  EXPECT_EQ(sections[0].path, "guide");
  EXPECT_EQ(sections[0].text, "intro line\n");
  EXPECT_EQ(sections[1].path, "guide > Guide");
  EXPECT_EQ(sections[2].path, "guide > Guide > Memory");
  EXPECT_EQ(sections[3].path, "guide > Guide > Memory > DMA");
  EXPECT_NE(sections[3].text.find("# not a heading"), std::string::npos);  // code stays in its section
  EXPECT_EQ(sections[4].path, "guide > Guide > Loops");  // a level-2 heading closes the level-3 one

  const auto dma = library::search_sections(sections, "dma transfers", 2);
  ASSERT_FALSE(dma.empty());
  EXPECT_EQ(dma[0].path, "guide > Guide > Memory > DMA");
  const auto loops = library::search_sections(sections, "loops", 1);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].path, "guide > Guide > Loops");
  EXPECT_TRUE(library::search_sections(sections, "xyzzy", 3).empty());
  EXPECT_TRUE(library::search_sections(sections, "", 3).empty());
}

TEST(DocumentationSections, SearchDocsReturnsRankedSectionsOfThePlatformsDocuments) {
  TaskContext ctx;
  ctx.platform = kFakePlatform;
  ctx.task = "relu";
  ToolSession s(ctx);
  const auto r = s.call("search_docs", {{"query", "nothing overlaps"}});
  EXPECT_FALSE(r.is_error) << r.text;
  // Both words in one section rank it above a section with one of them ("Does nothing ..." of FAKE_OP).
  ASSERT_EQ(r.data["sections"].size(), 2u) << r.text;
  EXPECT_EQ(r.data["sections"][0], "platform guide > fake: the test-only platform > 1. Execution model");
  EXPECT_EQ(r.data["sections"][1], "ISA reference > fake ISA > Instructions > FAKE_OP");
  EXPECT_NE(r.text.find("One FAKE_OP per cycle"), std::string::npos) << r.text;
  EXPECT_EQ(r.text.find("Stops."), std::string::npos) << r.text;  // sections, not whole documents
  const auto isa = s.call("search_docs", {{"query", "stops"}});
  ASSERT_EQ(isa.data["sections"].size(), 1u) << isa.text;
  EXPECT_EQ(isa.data["sections"][0], "ISA reference > fake ISA > Instructions > FAKE_HALT");
  EXPECT_TRUE(s.call("search_docs", {{"query", "xyzzy"}}).data["sections"].empty());
  EXPECT_TRUE(s.call("search_docs", json::object()).is_error);
}

}  // namespace
}  // namespace kcraft::agent
