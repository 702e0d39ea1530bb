// Workflows of roles against scripted servers (one per role, so each role's routing is visible):
// loading and validation, routing of `default` and `coder_only`, the limits, the fault paths, per-role
// budgets, and replay of a multi-role transcript.
#include <gtest/gtest.h>

#include <filesystem>

#include "agent/common/agent_run.h"
#include "agent/common/environment.h"
#include "agent/common/replay.h"
#include "agent/common/workflow.h"
#include "isa/common/hw_config.h"
#include "tb/common/paths.h"
#include "tests/agent/mock_llm_server.h"
#include "tests/agent/test_support.h"

namespace kcraft::agent {
namespace {

using nlohmann::json;
using testing::MockLlmServer;
using testing::MockUsage;
using testing::ReceivedRequest;
using testing::Step;
using testing::WireApi;

std::string relu_kernel(bool correct) {
  const Platform& p = platform(default_platform_name());
  auto cfg = task_registry().get("relu").resolve("C1", p.dtype());
  std::string code = p.baseline_compiler("default")->generate(cfg, p.layout(cfg)).source;
  if (!correct) {
    for (auto at = code.find("V_MAX_VF"); at != std::string::npos; at = code.find("V_MAX_VF"))
      code.replace(at, 8, "V_MIN_VF");
  }
  return code;
}

std::string code_args(const std::string& code) {
  return json{{"code", code}}.dump();
}

TaskContext relu_c1() {
  TaskContext c;
  c.task = "relu";
  return c;
}

std::string decision(const std::string& next, const std::string& suggestion) {
  return json{{"next", next}, {"suggestion", suggestion}}.dump();
}

const char* kPlan =
    "<plan>\nOne pass: load a row, max(x, 0) on the vector unit, store it. Memory bound.\n</plan>";

std::string config_error(const std::string& yaml) {
  try {
    Workflow::parse(yaml, "wf.yaml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

const char* kValid = R"(name: t
start: coder
roles: {coder: {prompt: coder.md}, verifier: {}, conductor: {prompt: conductor.md}}
transitions: {coder: verifier, verifier: conductor, conductor: [coder, finish]}
limits: {max_steps: 10, max_repeats: 2, coder_turns: 3, max_reasks: 1}
)";

TEST(WorkflowLoad, TheShippedWorkflowsLoad) {
  const auto names = Workflow::available();
  for (const char* name : {"single", "default", "coder_only"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
    const auto w = Workflow::load(name);
    EXPECT_EQ(w.name, name);
  }
  const auto d = Workflow::load("default");
  EXPECT_EQ(d.start, "designer");
  EXPECT_EQ(d.transitions.at("conductor"), (std::vector<std::string>{"coder", "designer", "finish"}));
  EXPECT_FALSE(Workflow::load("coder_only").has(RoleKind::kDesigner));
  const auto s = Workflow::load("single");
  EXPECT_EQ(s.roles.size(), 1u);
  EXPECT_EQ(s.roles.at("coder").prompt, "system.md");  // today's prompt, unchanged
}

TEST(WorkflowLoad, BrokenWorkflowsAreRefusedWithTheFieldNamed) {
  EXPECT_EQ(config_error(kValid), "no error");
  auto with = [](const std::string& from, const std::string& to) {
    std::string y = kValid;
    const auto at = y.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return y.replace(at, from.size(), to);
  };
  EXPECT_NE(config_error(with("verifier: {}", "verifier: {}, critic: {prompt: coder.md}"))
                .find("roles.critic: unknown role"),
            std::string::npos);
  EXPECT_NE(config_error(with("[coder, finish]", "[coder, tester]")).find("transition to nowhere: 'tester'"),
            std::string::npos);
  EXPECT_NE(config_error(with("coder: verifier, ", "")).find("transitions.coder: missing"),
            std::string::npos);
  EXPECT_NE(config_error(with("coder: verifier, ", "coder: [verifier, finish], "))
                .find("only the conductor chooses"),
            std::string::npos);
  EXPECT_NE(config_error(with("max_repeats: 2, ", "")).find("limits.max_repeats: missing"),
            std::string::npos);
  EXPECT_NE(config_error(with("limits: {max_steps: 10, max_repeats: 2, coder_turns: 3, max_reasks: 1}", ""))
                .find("limits: missing"),
            std::string::npos);
  EXPECT_NE(config_error(with("max_steps: 10", "max_steps: 0")).find("limits.max_steps: must be at least 1"),
            std::string::npos);
  EXPECT_NE(config_error(with("verifier: {}", "verifier: {prompt: coder.md}")).find("takes no prompt"),
            std::string::npos);
  EXPECT_NE(config_error(with("coder.md}, verifier", "nope.md}, verifier")).find("no prompt file"),
            std::string::npos);
  // Found by the workflow_yaml fuzz harness: a name longer than the file system allows was a
  // filesystem_error, not a ConfigError.
  EXPECT_NE(config_error(with("coder.md}, verifier", std::string(5000, 'x') + "}, verifier"))
                .find("no prompt file"),
            std::string::npos);
  EXPECT_NE(
      config_error(with("coder.md}, verifier", "../../README.md}, verifier")).find("must name a file under"),
      std::string::npos);
  EXPECT_NE(config_error(with("start: coder", "start: verifier")).find("start:"), std::string::npos);
  EXPECT_NE(config_error("roles: [\n").find("YAML syntax error"), std::string::npos);
  try {
    Workflow::load("nonesuch");
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("available: coder_only, default, single"), std::string::npos)
        << e.what();
  }
}

TEST(WorkflowLoad, RoleSettingsInheritTheRunsAndOverrideWhatTheyGive) {
  const std::string yaml = R"(provider: openai
base_url: http://127.0.0.1:9/v1
model: cheap-coder
temperature: 0.2
roles:
  designer: {model: strong-designer, temperature: 0.7}
  conductor: {provider: anthropic, base_url: http://127.0.0.1:10/v1}
)";
  auto s = RunProviderSettings::parse(yaml, "p.yaml");
  s.run.model = "from-the-command-line";  // --model wins for what a role does not set itself
  EXPECT_EQ(s.for_role("coder").model, "from-the-command-line");
  EXPECT_EQ(s.for_role("designer").model, "strong-designer");
  EXPECT_DOUBLE_EQ(s.for_role("designer").temperature, 0.7);
  EXPECT_EQ(s.for_role("designer").base_url, "http://127.0.0.1:9/v1");
  EXPECT_EQ(s.for_role("conductor").provider, "anthropic");
  EXPECT_EQ(s.for_role("conductor").model, "from-the-command-line");
  auto error = [](const std::string& text) {
    try {
      RunProviderSettings::parse(text, "p.yaml");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error(yaml + "  critic: {model: x}\n").find("roles.critic: unknown role"), std::string::npos);
  EXPECT_NE(error(yaml + "  verifier: {model: x}\n").find("calls no model"), std::string::npos);
  EXPECT_NE(error(yaml + "  coder: {temperature: 9}\n").find("roles.coder: temperature"), std::string::npos);
}

// Prices belong to a model: a role keeps the run's while it runs the run's model, replaces them with a
// `prices:` block of its own (the whole block), and has none when it names another model without one.
TEST(WorkflowLoad, RolePricesFollowTheirModel) {
  const std::string yaml = R"(provider: openai
base_url: http://127.0.0.1:9/v1
model: cheap-coder
prices: {prompt: 0.5, cached_prompt: 0.1, completion: 2}
roles:
  designer: {model: strong-designer, prices: {prompt: 5, completion: 20}}
  conductor: {model: other-model}
  coder: {temperature: 0.1}
)";
  const auto s = RunProviderSettings::parse(yaml, "p.yaml");
  EXPECT_EQ(s.for_role("coder").prices, (TokenPrices{0.5, 0.1, 2, 2}));
  EXPECT_EQ(s.for_role("designer").prices, (TokenPrices{5, 5, 20, 20}));  // not merged with the run's
  EXPECT_FALSE(s.for_role("conductor").prices.has_value());
  EXPECT_FALSE(s.for_role("conductor").to_json().contains("prices"));
  try {
    RunProviderSettings::parse(
        "provider: openai\nbase_url: http://h/v1\nmodel: m\nroles:\n  designer: {prices: {prompt: -1, "
        "completion: 1}}\n",
        "p.yaml");
    FAIL() << "a negative price in a role loaded";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("p.yaml: roles.designer: prices.prompt: must be between 0"),
              std::string::npos)
        << e.what();
  }
}

TEST(WorkflowLoad, TheLocalRolesExampleGivesTheDesignerAndConductorTheirOwnModel) {
  const auto s = RunProviderSettings::load((root() / "agent/providers/examples/local-roles.yaml").string());
  EXPECT_EQ(s.for_role("coder").model, "qwen2.5-coder-7b-instruct");
  EXPECT_EQ(s.for_role("designer").model, "qwen2.5-72b-instruct");
  EXPECT_EQ(s.for_role("conductor").max_tokens, 1024u);
  EXPECT_EQ(s.for_role("conductor").base_url, "http://127.0.0.1:8000/v1");
}

class Workflows : public ::testing::TestWithParam<WireApi> {};

size_t count_events(const std::vector<json>& events, const std::string& type, const std::string& role) {
  size_t n = 0;
  for (const auto& e : events) n += e["type"] == type && e.value("role", "") == role;
  return n;
}

TEST_P(Workflows, DefaultRoutesDesignerCoderVerifierConductorAndReplays) {
  MockLlmServer designer(GetParam()), coder(GetParam()), conductor(GetParam());
  designer.then(Step::text(kPlan, MockUsage{300, 40, 0, 0}));
  const MockUsage coder_usage{1000, 100, 0, 0};
  coder.then(Step::tool_call("write_code", code_args(relu_kernel(false)), coder_usage))
      .then(Step::tool_call("submit", "{}", coder_usage))
      .then(Step::dynamic([](const ReceivedRequest& r) {
        // The second coder step starts with the verdict and the conductor's suggestion.
        EXPECT_NE(r.last_message()->content.find("use max, not min"), std::string::npos);
        EXPECT_NE(r.last_message()->content.find("mismatch"), std::string::npos);
        return Step::tool_call("write_code", code_args(relu_kernel(true)), MockUsage{1000, 100, 0, 0});
      }))
      .then(Step::tool_call("submit", "{}", coder_usage));
  conductor
      .then(Step::dynamic([](const ReceivedRequest& r) {
        EXPECT_NE(r.system.find("coder, designer, finish"), std::string::npos);
        EXPECT_NE(r.messages[0].content.find("mismatch"), std::string::npos);
        EXPECT_NE(r.messages[0].content.find("One pass"), std::string::npos);  // the plan
        return Step::text(decision("coder", "the output is min(x, 0): use max, not min"),
                          MockUsage{500, 20, 0, 0});
      }))
      .then(Step::text(decision("finish", ""), MockUsage{500, 20, 0, 0}));
  auto pd = make_provider(designer.settings()), pc = make_provider(coder.settings()),
       pk = make_provider(conductor.settings());
  RoleProviders providers{pc.get(), {{"designer", pd.get()}, {"conductor", pk.get()}}};
  const auto path = std::filesystem::temp_directory_path() /
                    (std::string("kcraft_wf_default_") + testing::wire_api_name(GetParam()) + ".jsonl");
  AgentResult r;
  {
    Transcript transcript(path);
    r = run_workflow(Workflow::load("default"), providers, relu_c1(), AgentBudget{}, transcript);
  }
  EXPECT_EQ(r.status, "submitted") << r.summary();
  EXPECT_EQ(r.workflow, "default");
  EXPECT_EQ(r.score.verdict, Verdict::kPass);
  EXPECT_EQ(r.iterations, 7u);  // every role's model calls count: 1 + 4 + 2
  EXPECT_EQ(r.steps, 7u);       // designer, coder, verifier, conductor, coder, verifier, conductor
  EXPECT_EQ(r.evaluations, 2u);
  EXPECT_EQ(r.first_pass_iteration, 6u);  // the verifier's run_eval after the coder's 6th call
  EXPECT_EQ(designer.request_count(), 1u);
  EXPECT_EQ(coder.request_count(), 4u);
  EXPECT_EQ(conductor.request_count(), 2u);
  // The coder's first request carries the task and the plan, and the tools; the designer's none.
  EXPECT_NE(coder.request(0).messages[0].content.find("# The designer's plan"), std::string::npos);
  EXPECT_EQ(coder.request(0).tool_names.size(), ToolSession::schemas().size());
  EXPECT_TRUE(designer.request(0).tool_names.empty());
  // Per-role budgets in the result JSON.
  const json j = r.to_json();
  EXPECT_EQ(j["roles"]["designer"]["calls"], 1);
  EXPECT_EQ(j["roles"]["coder"]["calls"], 4);
  EXPECT_EQ(j["roles"]["coder"]["steps"], 2);
  EXPECT_EQ(j["roles"]["conductor"]["calls"], 2);
  EXPECT_EQ(j["roles"]["verifier"]["steps"], 2);
  EXPECT_EQ(j["roles"]["verifier"]["calls"], 0);
  EXPECT_EQ(j["roles"]["designer"]["tokens"]["prompt_tokens"], 300);
  EXPECT_EQ(j["roles"]["coder"]["tokens"]["completion_tokens"], 400);
  EXPECT_EQ(j["roles"]["conductor"]["tokens"]["prompt_tokens"], 1000);
  EXPECT_EQ(j["tokens"]["prompt_tokens"], 300 + 4000 + 1000);
  // The transcript says who spoke: every model response and tool call carries its role.
  const auto events = read_transcript(path);
  EXPECT_EQ(count_events(events, "llm_response", "designer"), 1u);
  EXPECT_EQ(count_events(events, "llm_response", "coder"), 4u);
  EXPECT_EQ(count_events(events, "llm_response", "conductor"), 2u);
  EXPECT_EQ(count_events(events, "tool_call", "verifier"), 3u);  // run_eval, run_eval + profile on the pass
  EXPECT_EQ(count_events(events, "plan", "designer"), 1u);
  EXPECT_EQ(count_events(events, "decision", "conductor"), 2u);
  for (const auto& e : events) {
    if (e["type"] == "llm_response" || e["type"] == "tool_call") {
      EXPECT_TRUE(e.contains("role")) << e.dump();
    }
  }
  EXPECT_EQ(events.front()["workflow"]["name"], "default");
  EXPECT_EQ(events.front()["workflow"]["role_settings"].size(), 2u);
  auto replay = replay_transcript(path);
  EXPECT_TRUE(replay.ok()) << replay.summary();
  EXPECT_EQ(replay.tool_calls, 7u);  // the coder's 4 and the verifier's 3
}

TEST_P(Workflows, DefaultGoesBackToTheDesignerWhenTheConductorSaysSo) {
  MockLlmServer server(GetParam());
  server.then(Step::text(kPlan))
      .then(Step::tool_call("write_code", code_args(relu_kernel(false))))
      .then(Step::tool_call("submit", "{}"))
      .then(Step::text(decision("designer", "the plan misses the sign")))
      .then(Step::dynamic([](const ReceivedRequest& r) {
        EXPECT_NE(r.messages[0].content.find("Your previous plan"), std::string::npos);
        EXPECT_NE(r.messages[0].content.find("the plan misses the sign"), std::string::npos);
        return Step::text("<plan>max(x, 0), not min</plan>");
      }))
      .then(Step::dynamic([](const ReceivedRequest& r) {
        EXPECT_NE(r.last_message()->content.find("max(x, 0), not min"), std::string::npos);
        return Step::tool_call("write_code", code_args(relu_kernel(true)));
      }))
      .then(Step::tool_call("submit", "{}"))
      .then(Step::text(decision("finish", "")));
  auto p = make_provider(server.settings());
  Transcript transcript;
  auto r = run_workflow(Workflow::load("default"), RoleProviders{p.get(), {}}, relu_c1(), AgentBudget{},
                        transcript);
  EXPECT_EQ(r.status, "submitted") << r.summary();
  EXPECT_EQ(r.score.verdict, Verdict::kPass);
  EXPECT_EQ(r.roles["designer"].calls, 2u);
  EXPECT_EQ(server.unscripted_requests(), 0u);
}

TEST_P(Workflows, CoderOnlyNeverAsksForAPlan) {
  MockLlmServer server(GetParam());
  server.then(Step::tool_call("write_code", code_args(relu_kernel(true))))
      .then(Step::tool_call("submit", "{}"))
      .then(Step::dynamic([](const ReceivedRequest& r) {
        EXPECT_NE(r.system.find("next steps: coder, finish."), std::string::npos);
        EXPECT_NE(r.messages[0].content.find("pass"), std::string::npos);
        return Step::text("```json\n" + decision("finish", "") + "\n```");
      }));
  auto p = make_provider(server.settings());
  Transcript transcript;
  auto r = run_workflow(Workflow::load("coder_only"), RoleProviders{p.get(), {}}, relu_c1(), AgentBudget{},
                        transcript);
  EXPECT_EQ(r.status, "submitted") << r.summary();
  EXPECT_EQ(r.score.verdict, Verdict::kPass);
  EXPECT_EQ(r.iterations, 3u);
  EXPECT_EQ(r.roles.count("designer"), 0u);
  EXPECT_NE(server.request(0).messages[0].content.find("ADDR_X"), std::string::npos);
  EXPECT_EQ(server.request(0).messages[0].content.find("designer's plan"), std::string::npos);
}

TEST_P(Workflows, AConductorThatLoopsIsStoppedByTheRepeatLimit) {
  MockLlmServer server(GetParam());
  server.then(Step::tool_call("write_code", code_args(relu_kernel(false))));
  // From here on the coder hands in the same kernel and the conductor sends it back, forever.
  server.set_fallback(Step::dynamic([](const ReceivedRequest& r) {
    if (r.system.find("You are the conductor") != std::string::npos)
      return Step::text(decision("coder", "try again"));
    return Step::tool_call("submit", "{}");
  }));
  auto p = make_provider(server.settings());
  Transcript transcript;
  auto r = run_workflow(Workflow::load("coder_only"), RoleProviders{p.get(), {}}, relu_c1(),
                        AgentBudget{100, 0}, transcript);
  EXPECT_EQ(r.status, "repeat_limit") << r.summary();
  EXPECT_NE(r.error.find("chose 'coder' 4 times in a row on the same verdict (mismatch"), std::string::npos)
      << r.error;
  EXPECT_NE(r.error.find("max_repeats is 3"), std::string::npos) << r.error;
  EXPECT_EQ(r.roles["conductor"].calls, 4u);
  EXPECT_EQ(r.score.verdict, Verdict::kMismatch);  // the saved kernel is still scored
}

TEST_P(Workflows, TheStepLimitEndsTheRun) {
  testing::TempDir dir;
  const auto file = dir.write("tight.yaml", R"(name: tight
start: coder
roles: {coder: {prompt: coder.md}, verifier: {}, conductor: {prompt: conductor.md}}
transitions: {coder: verifier, verifier: conductor, conductor: [coder, finish]}
limits: {max_steps: 4, max_repeats: 5, coder_turns: 1, max_reasks: 0}
)");
  MockLlmServer server(GetParam());
  server.then(Step::tool_call("write_code", code_args(relu_kernel(false))))
      .then(Step::text(decision("coder", "fix the sign")))
      .then(Step::tool_call("write_code", code_args(relu_kernel(true))));
  auto p = make_provider(server.settings());
  Transcript transcript;
  auto r = run_workflow(Workflow::load_file(file), RoleProviders{p.get(), {}}, relu_c1(), AgentBudget{},
                        transcript);
  EXPECT_EQ(r.status, "step_limit") << r.summary();
  EXPECT_NE(r.error.find("4 steps"), std::string::npos) << r.error;
  EXPECT_EQ(r.steps, 4u);  // coder, verifier, conductor, coder: the verifier's second turn is not taken
  EXPECT_EQ(r.evaluations, 1u);
  EXPECT_EQ(r.score.verdict, Verdict::kPass);  // the last saved kernel is scored
}

TEST_P(Workflows, EveryRolesModelCallsCountAgainstTheBudget) {
  MockLlmServer server(GetParam());
  server.set_fallback(Step::dynamic([](const ReceivedRequest& r) {
    if (r.system.find("You are the conductor") != std::string::npos)
      return Step::text(decision("coder", "try again " + std::to_string(r.index)));
    return Step::tool_call("write_code", code_args(relu_kernel(false)));
  }));
  auto p = make_provider(server.settings());
  Transcript transcript;
  // coder_turns is 6: the coder never submits, each of its steps ends after 6 turns; 15 calls in all.
  auto r = run_workflow(Workflow::load("coder_only"), RoleProviders{p.get(), {}}, relu_c1(),
                        AgentBudget{15, 0}, transcript);
  EXPECT_EQ(r.status, "budget_exhausted") << r.summary();
  EXPECT_EQ(r.iterations, 15u);
  EXPECT_EQ(server.request_count(), 15u);
  EXPECT_EQ(r.roles["coder"].calls + r.roles["conductor"].calls, 15u);
}

TEST_P(Workflows, ARolesProviderThatIsUnreachableEndsTheRunNamingTheRole) {
  testing::ClosedPort closed;
  MockLlmServer coder(GetParam());
  coder.set_fallback(Step::text("never asked"));
  auto designer_settings = coder.settings();
  designer_settings.base_url = "http://127.0.0.1:" + std::to_string(closed.port()) + "/v1";
  designer_settings.max_retries = 0;
  auto pd = make_provider(designer_settings), pc = make_provider(coder.settings());
  Transcript transcript;
  auto r = run_workflow(Workflow::load("default"), RoleProviders{pc.get(), {{"designer", pd.get()}}},
                        relu_c1(), AgentBudget{}, transcript);
  EXPECT_EQ(r.status, "provider_error");
  EXPECT_NE(r.error.find("the designer's provider"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("unreachable"), std::string::npos) << r.error;
  EXPECT_EQ(coder.request_count(), 0u);
  EXPECT_EQ(transcript.events().back()["type"], "run_end");
}

TEST_P(Workflows, TheConductorsProviderFailingKeepsTheCodersKernel) {
  MockLlmServer coder(GetParam()), conductor(GetParam());
  coder.then(Step::tool_call("write_code", code_args(relu_kernel(true))))
      .then(Step::tool_call("submit", "{}"));
  conductor.set_fallback(Step::http_error(500));
  auto pc = make_provider(coder.settings()), pk = make_provider(conductor.settings());
  Transcript transcript;
  auto r = run_workflow(Workflow::load("coder_only"), RoleProviders{pc.get(), {{"conductor", pk.get()}}},
                        relu_c1(), AgentBudget{}, transcript);
  EXPECT_EQ(r.status, "provider_error");
  EXPECT_NE(r.error.find("the conductor's provider"), std::string::npos) << r.error;
  EXPECT_EQ(r.score.verdict, Verdict::kPass);
}

TEST_P(Workflows, AMalformedPlanIsAskedAgainThenEndsTheRun) {
  MockLlmServer server(GetParam());
  server.then(Step::text("Sure! Here is my plan: just compute it."))
      .then(Step::dynamic([](const ReceivedRequest& r) {
        EXPECT_NE(r.last_message()->content.find("no plan between <plan> and </plan>"), std::string::npos);
        return Step::text("<plan>   </plan>");
      }));
  auto p = make_provider(server.settings());
  Transcript transcript;
  auto r = run_workflow(Workflow::load("default"), RoleProviders{p.get(), {}}, relu_c1(), AgentBudget{},
                        transcript);
  EXPECT_EQ(r.status, "malformed_plan");
  EXPECT_NE(r.error.find("no usable plan in 2 replies: the plan between <plan> and </plan> is empty"),
            std::string::npos)
      << r.error;
  EXPECT_EQ(r.iterations, 2u);
  EXPECT_EQ(server.request_count(), 2u);
}

TEST_P(Workflows, AConductorReplyWithNoValidNextStepIsAskedAgainThenEndsTheRun) {
  MockLlmServer server(GetParam());
  server.then(Step::tool_call("write_code", code_args(relu_kernel(true))))
      .then(Step::tool_call("submit", "{}"))
      .then(Step::text(decision("designer", "a new plan")))  // coder_only has no designer
      .then(Step::dynamic([](const ReceivedRequest& r) {
        EXPECT_NE(r.last_message()->content.find("'designer' is not a valid next step"), std::string::npos);
        return Step::text("I think we are done.");
      }));
  auto p = make_provider(server.settings());
  Transcript transcript;
  auto r = run_workflow(Workflow::load("coder_only"), RoleProviders{p.get(), {}}, relu_c1(), AgentBudget{},
                        transcript);
  EXPECT_EQ(r.status, "conductor_error");
  EXPECT_NE(r.error.find("no valid next step in 2 replies: the reply has no JSON object"), std::string::npos)
      << r.error;
  EXPECT_EQ(r.score.verdict, Verdict::kPass);  // the kernel saved is scored all the same
}

TEST_P(Workflows, ACoderSuggestionMustBeConcrete) {
  MockLlmServer server(GetParam());
  server.then(Step::tool_call("write_code", code_args(relu_kernel(false))))
      .then(Step::tool_call("submit", "{}"))
      .then(Step::text(R"({"next": "coder"})"))
      .then(Step::text(decision("finish", "")));
  auto p = make_provider(server.settings());
  Transcript transcript;
  auto r = run_workflow(Workflow::load("coder_only"), RoleProviders{p.get(), {}}, relu_c1(), AgentBudget{},
                        transcript);
  EXPECT_EQ(r.status, "submitted");
  EXPECT_NE(server.request(3).last_message()->content.find("needs a concrete \"suggestion\""),
            std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Wire, Workflows, ::testing::Values(WireApi::kOpenAi, WireApi::kAnthropic),
                         [](const auto& param_info) {
                           return std::string(testing::wire_api_name(param_info.param));
                         });

}  // namespace
}  // namespace kcraft::agent
