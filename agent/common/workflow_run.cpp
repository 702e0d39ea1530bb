// The LLM agent loop as a workflow of roles (workflow.h). `single` (the coder alone, ending at submit)
// writes the same events in the same order as the loop did before workflows existed, plus a "role" tag.
#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "agent/common/agent_run.h"
#include "agent/common/environment.h"
#include "agent/common/workflow.h"
#include "tb/common/paths.h"

namespace kcraft::agent {

namespace {

using nlohmann::json;

json message_json(const ChatMessage& m) {
  json calls = json::array();
  for (const auto& c : m.tool_calls)
    calls.push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
  return {{"role", "assistant"}, {"content", m.content}, {"tool_calls", calls}};
}

ChatMessage user_message(std::string text) {
  ChatMessage m;
  m.role = ChatMessage::Role::kUser;
  m.content = std::move(text);
  return m;
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

// The designer's plan: the text between <plan> and </plan>, trimmed. Empty when there is none.
constexpr size_t kMaxPlanChars = 8000;

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r\n") - begin + 1);
}

// Returns the plan, or why the reply is not one.
std::pair<std::string, std::string> extract_plan(const std::string& reply) {
  const auto open = reply.find("<plan>");
  const auto close = reply.find("</plan>", open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos)
    return {"", "the reply has no plan between <plan> and </plan>"};
  std::string plan = trim(reply.substr(open + 6, close - open - 6));
  if (plan.empty()) return {"", "the plan between <plan> and </plan> is empty"};
  if (plan.size() > kMaxPlanChars)
    return {"", fmt::format("the plan has {} characters; keep it under {}", plan.size(), kMaxPlanChars)};
  return {plan, ""};
}

struct Decision {
  std::string next;
  std::string suggestion;
};

// The conductor's reply: a JSON object {"next": ..., "suggestion": ...}, possibly inside prose or a code
// fence. Returns the decision, or why the reply is not one.
std::pair<std::optional<Decision>, std::string> parse_decision(const std::string& reply,
                                                               const std::vector<std::string>& allowed) {
  const auto open = reply.find('{');
  const auto close = reply.rfind('}');
  const std::string expected =
      fmt::format("a JSON object {{\"next\": one of {}, \"suggestion\": \"...\"}}", fmt::join(allowed, ", "));
  if (open == std::string::npos || close == std::string::npos || close < open)
    return {std::nullopt, "the reply has no JSON object; expected " + expected};
  const json j = json::parse(reply.substr(open, close - open + 1), nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return {std::nullopt, "the reply's JSON does not parse; expected " + expected};
  if (!j.contains("next") || !j["next"].is_string())
    return {std::nullopt, "the reply names no next step (\"next\"); expected " + expected};
  Decision d{j["next"].get<std::string>(), ""};
  if (std::find(allowed.begin(), allowed.end(), d.next) == allowed.end())
    return {std::nullopt, fmt::format("'{}' is not a valid next step; expected {}", d.next, expected)};
  if (j.contains("suggestion")) {
    if (!j["suggestion"].is_string()) return {std::nullopt, "\"suggestion\" must be text"};
    d.suggestion = trim(j["suggestion"].get<std::string>());
  }
  if (d.next != kFinish && d.suggestion.empty())
    return {std::nullopt,
            fmt::format("sending the run back to the {} needs a concrete \"suggestion\"", d.next)};
  return {d, ""};
}

class WorkflowRun {
 public:
  WorkflowRun(const Workflow& workflow, const RoleProviders& providers, const TaskContext& ctx,
              const AgentBudget& budget, Transcript& transcript)
      : wf_(workflow), providers_(providers), budget_(budget), transcript_(transcript), session_(ctx) {
    const ProviderSettings& run = providers_.run->settings();
    result_.agent = "llm:" + run.provider + "/" + run.model;
    if (wf_.name != "single") result_.agent += "@" + wf_.name;
    result_.workflow = wf_.name;
    result_.context = ctx;
    result_.budget = budget.max_iterations != 0 ? budget.max_iterations
                                                : default_iterations(task_registry().get(ctx.task).level);
  }

  AgentResult run() {
    const auto t0 = std::chrono::steady_clock::now();
    result_.status = "budget_exhausted";
    std::string current = wf_.start;
    unsigned steps = 0;
    while (true) {
      if (current == kFinish) {
        result_.status = "submitted";
        break;
      }
      if (steps >= wf_.limits.max_steps) {
        stop("step_limit", fmt::format("the workflow took {} steps, its limit (limits.max_steps)", steps));
        break;
      }
      ++steps;
      result_.roles[current].steps++;
      const RoleKind kind = wf_.roles.at(current).kind;
      if (kind == RoleKind::kConductor) {
        auto next = conduct(current);
        if (!next) break;
        current = *next;
        continue;
      }
      const bool go_on = kind == RoleKind::kDesigner ? design(current)
                         : kind == RoleKind::kCoder  ? code(current)
                                                     : verify(current);
      if (!go_on) break;
      current = wf_.transitions.at(current).front();
    }
    result_.steps = steps;
    result_.final_code = session_.code();
    result_.final_language = session_.language();
    result_.evaluations = session_.evaluations();
    result_.scored_cell_examples = session_.scored_cell_examples();
    result_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    finish_run(result_, transcript_);
    return result_;
  }

 private:
  void emit(const std::string& role, json event) {
    event["role"] = role;
    transcript_.write(std::move(event));
  }

  void stop(const std::string& status, const std::string& error) {
    result_.status = status;
    result_.error = error;
  }

  std::string fill_prompt(const std::string& role,
                          const std::vector<std::pair<std::string, std::string>>& extra) {
    return render_prompt(wf_.roles.at(role).prompt, result_.context, result_.budget, extra);
  }

  // The first conversation of the run is recorded in run_start (as before workflows); later ones in a
  // prompt event of their role.
  void record_prompt(const std::string& role, const std::string& system, const std::string& user) {
    if (!started_) {
      started_ = true;
      json settings = providers_.run->settings().to_json();
      json role_settings = json::object();
      for (const auto& [name, provider] : providers_.roles) {
        if (provider != nullptr && wf_.roles.count(name))
          role_settings[name] = provider->settings().to_json();
      }
      json start = {{"type", "run_start"},
                    {"agent", result_.agent},
                    {"context", transcript_context(result_.context)},
                    {"settings", settings},
                    {"budget", {{"iterations", result_.budget}, {"tokens", budget_.max_tokens}}},
                    {"system", system},
                    {"user", user}};
      start["workflow"] = {{"name", wf_.name}, {"start", wf_.start}, {"role_settings", role_settings}};
      transcript_.write(std::move(start));
      return;
    }
    emit(role, {{"type", "prompt"}, {"system", system}, {"user", user}});
  }

  // One model turn of `role`; nullopt when the run must stop (budget, token cap, provider failure).
  std::optional<ChatResponse> model_turn(const std::string& role, const ChatRequest& request) {
    if (result_.iterations >= result_.budget) {
      result_.status = "budget_exhausted";
      return std::nullopt;
    }
    const uint64_t used = result_.tokens.prompt_tokens + result_.tokens.completion_tokens;
    if (budget_.max_tokens != 0 && used >= budget_.max_tokens) {
      stop("token_cap", fmt::format("used {} tokens, the cap is {}", used, budget_.max_tokens));
      return std::nullopt;
    }
    const unsigned it = result_.iterations + 1;
    emit(role, {{"type", "llm_request"}, {"iteration", it}, {"messages", request.messages.size()}});
    ChatResponse response;
    try {
      response = providers_.for_role(role).complete(request);
    } catch (const ProviderError& e) {
      emit(role, {{"type", "provider_error"},
                  {"iteration", it},
                  {"kind", provider_error_kind_name(e.kind())},
                  {"http_status", e.http_status()},
                  {"message", e.what()}});
      // With several roles, say whose provider failed: each may have its own.
      const std::string whose = wf_.roles.size() > 1 ? "the " + role + "'s provider: " : "";
      stop("provider_error", fmt::format("{}{} ({})", whose, e.what(), provider_error_kind_name(e.kind())));
      return std::nullopt;
    }
    result_.iterations = it;
    for (Usage* u : {&result_.tokens, &result_.roles[role].tokens}) {
      u->prompt_tokens += response.usage.prompt_tokens;
      u->completion_tokens += response.usage.completion_tokens;
      u->reasoning_tokens += response.usage.reasoning_tokens;
      u->cached_prompt_tokens += response.usage.cached_prompt_tokens;
    }
    result_.roles[role].calls++;
    emit(role, {{"type", "llm_response"},
                {"iteration", it},
                {"message", message_json(response.message)},
                {"usage", usage_json(response.usage)},
                {"stop_reason", response.stop_reason},
                {"attempts", response.attempts},
                {"seconds", response.seconds}});
    return response;
  }

  ToolResult tool(const std::string& role, unsigned iteration, const std::string& id, const std::string& name,
                  const std::string& arguments) {
    emit(role, {{"type", "tool_call"},
                {"iteration", iteration},
                {"id", id},
                {"name", name},
                {"arguments", arguments}});
    ToolResult r = session_.call_text(name, arguments);
    record_progress(result_, iteration, name, r);
    emit(role, {{"type", "tool_result"},
                {"iteration", iteration},
                {"id", id},
                {"name", name},
                {"text", r.text},
                {"is_error", r.is_error},
                {"data", r.data}});
    return r;
  }

  // A plan from the designer; false when the run must stop.
  bool design(const std::string& role) {
    ChatRequest request;
    request.system = fill_prompt(role, {});
    std::string ask = "Plan the kernel for this task.\n" + composition_hint(result_.context) + "\n" +
                      task_text(result_.context);
    // A porting run plans the port: the other platform's kernel is the starting point.
    if (const std::string port = port_prompt(result_.context); !port.empty()) ask += "\n\n" + port;
    if (!plan_.empty()) {
      ask += "\n\n# Your previous plan\n\n" + plan_ + "\n\n# What happened since\n\n" + history_text() +
             "\n\n# The conductor asks for a new plan\n\n" + for_designer_;
    }
    request.messages.push_back(user_message(ask));
    record_prompt(role, request.system, ask);
    for (unsigned attempt = 0;; ++attempt) {
      auto response = model_turn(role, request);
      if (!response) return false;
      auto [plan, problem] = extract_plan(response->message.content);
      if (problem.empty()) {
        const bool revised = !plan_.empty();
        plan_ = plan;
        emit(role, {{"type", "plan"}, {"iteration", result_.iterations}, {"plan", plan_}});
        history_.push_back(fmt::format("designer: {} plan", revised ? "a revised" : "the"));
        for_coder_ =
            revised ? "The designer revised the plan; follow the new one.\n\n# Plan\n\n" + plan_ : "";
        return true;
      }
      if (attempt >= wf_.limits.max_reasks) {
        stop("malformed_plan",
             fmt::format("the designer gave no usable plan in {} replies: {}", attempt + 1, problem));
        return false;
      }
      emit(role, {{"type", "reask"}, {"iteration", result_.iterations}, {"problem", problem}});
      ChatMessage said = response->message;
      said.tool_calls.clear();  // the designer has no tools; a call it invented gets no result
      if (said.content.empty()) said.content = "(no text)";  // Anthropic refuses an empty turn
      request.messages.push_back(said);
      request.messages.push_back(
          user_message(problem + ". Reply with the plan between <plan> and </plan>, nothing else is read."));
    }
  }

  // One coder step: model turns with the tools until submit, the step's turn limit, or the run's end.
  bool code(const std::string& role) {
    if (coder_.system.empty()) {
      coder_.system = fill_prompt(role, {});
      coder_.tools = ToolSession::schemas_for(result_.context.platform, result_.context.docs);
      std::string first = user_prompt(result_.context);
      if (const std::string port = port_prompt(result_.context); !port.empty()) first += "\n\n" + port;
      if (!plan_.empty()) first += "\n\n# The designer's plan\n\n" + plan_;
      coder_.messages.push_back(user_message(first));
      record_prompt(role, coder_.system, first);
    } else if (!for_coder_.empty()) {
      coder_.messages.push_back(user_message(for_coder_));
      emit(role, {{"type", "handover"}, {"content", for_coder_}});
    }
    for_coder_.clear();
    for (unsigned turns = 0; wf_.limits.coder_turns == 0 || turns < wf_.limits.coder_turns; ++turns) {
      auto response = model_turn(role, coder_);
      if (!response) return false;
      const unsigned it = result_.iterations;
      coder_.messages.push_back(response->message);
      if (response->message.tool_calls.empty()) {
        // A turn without tool calls changes nothing; remind the model how to make progress.
        ChatMessage nudge = user_message(
            session_.code().empty()
                ? "Use the tools: write_code saves your kernel, run_eval tests it, submit ends the task."
                : "Use the tools to continue (run_eval, view_output, profile), or call submit to finish.");
        coder_.messages.push_back(nudge);
        emit(role, {{"type", "nudge"}, {"iteration", it}, {"content", nudge.content}});
        continue;
      }
      bool submitted = false;
      for (const auto& call : response->message.tool_calls) {
        ToolResult r = tool(role, it, call.id, call.name, call.arguments);
        submitted = submitted || (call.name == "submit" && !r.is_error);
        ChatMessage reply;
        reply.role = ChatMessage::Role::kTool;
        reply.tool_call_id = call.id;
        reply.tool_name = call.name;
        reply.content = r.text;
        reply.tool_error = r.is_error;
        coder_.messages.push_back(reply);
      }
      if (submitted) return true;
    }
    return true;  // the step's turns are used up: the verifier looks at what is saved
  }

  // kcraft itself: evaluate the saved kernel on the development seed, profile it when it passes.
  bool verify(const std::string& role) {
    const unsigned it = result_.iterations;
    ++verifications_;
    if (session_.code().empty()) {
      verdict_ = {"no_kernel", 0};
      report_ = "No kernel has been saved yet (the coder never called write_code).";
    } else {
      const std::string id = fmt::format("verifier_{}", verifications_);
      ToolResult eval = tool(role, it, id + "_run_eval", "run_eval", "{}");
      verdict_ = {eval.data.value("verdict", "error"), eval.data.value("cycles", uint64_t{0})};
      report_ = eval.text;
      if (verdict_.first == "pass") report_ += "\n\n" + tool(role, it, id + "_profile", "profile", "{}").text;
    }
    emit(role,
         {{"type", "verdict"}, {"iteration", it}, {"verdict", verdict_.first}, {"cycles", verdict_.second}});
    history_.push_back(fmt::format("verifier: {}", first_line(report_)));
    return true;
  }

  // The conductor's decision: the next role or finish; nullopt when the run must stop.
  std::optional<std::string> conduct(const std::string& role) {
    const auto& allowed = wf_.transitions.at(role);
    ChatRequest request;
    request.system = fill_prompt(role, {{"choices", fmt::format("{}", fmt::join(allowed, ", "))}});
    std::string brief = fmt::format("Task: {} {} on {} ({}). Model turns used: {} of {}.\n\n",
                                    result_.context.task, result_.context.config, result_.context.platform,
                                    result_.context.hw_config, result_.iterations, result_.budget);
    if (!plan_.empty()) brief += "# The plan\n\n" + plan_ + "\n\n";
    brief += "# History\n\n" + history_text() + "\n\n# The verifier's latest report\n\n" +
             truncate_for_model(report_.empty() ? "(no verification yet)" : report_, 4000);
    request.messages.push_back(user_message(brief));
    record_prompt(role, request.system, brief);
    for (unsigned attempt = 0;; ++attempt) {
      auto response = model_turn(role, request);
      if (!response) return std::nullopt;
      auto [decision, problem] = parse_decision(response->message.content, allowed);
      if (decision) {
        emit(role, {{"type", "decision"},
                    {"iteration", result_.iterations},
                    {"next", decision->next},
                    {"suggestion", decision->suggestion}});
        history_.push_back(
            fmt::format("conductor: {}{}", decision->next,
                        decision->suggestion.empty() ? "" : " (" + decision->suggestion + ")"));
        // The same decision on an unchanged verdict is a loop: nothing the last round did made a difference.
        repeats_ = (decision->next == last_decision_ && verdict_ == last_verdict_) ? repeats_ + 1 : 1;
        last_decision_ = decision->next;
        last_verdict_ = verdict_;
        if (repeats_ > wf_.limits.max_repeats) {
          stop(
              "repeat_limit",
              fmt::format("the conductor chose '{}' {} times in a row on the same verdict ({}, {} cycles); "
                          "limits.max_repeats is {}",
                          decision->next, repeats_, verdict_.first, verdict_.second, wf_.limits.max_repeats));
          return std::nullopt;
        }
        const std::string said = fmt::format("The verifier: {}\nThe conductor's suggestion: {}",
                                             first_line(report_), decision->suggestion);
        if (decision->next != kFinish && wf_.roles.at(decision->next).kind == RoleKind::kDesigner) {
          for_designer_ = decision->suggestion;
        } else if (decision->next != kFinish) {
          for_coder_ = said;
        }
        return decision->next;
      }
      if (attempt >= wf_.limits.max_reasks) {
        stop("conductor_error",
             fmt::format("the conductor named no valid next step in {} replies: {}", attempt + 1, problem));
        return std::nullopt;
      }
      emit(role, {{"type", "reask"}, {"iteration", result_.iterations}, {"problem", problem}});
      ChatMessage said = response->message;
      said.tool_calls.clear();  // the conductor has no tools
      if (said.content.empty()) said.content = "(no text)";
      request.messages.push_back(said);
      request.messages.push_back(user_message(problem + "."));
    }
  }

  std::string history_text() const {
    if (history_.empty()) return "(nothing yet)";
    std::string out;
    for (size_t i = 0; i < history_.size(); ++i) out += fmt::format("{}. {}\n", i + 1, history_[i]);
    return out;
  }

  const Workflow& wf_;
  const RoleProviders& providers_;
  AgentBudget budget_;
  Transcript& transcript_;
  ToolSession session_;
  AgentResult result_;
  bool started_ = false;
  ChatRequest coder_;  // the coder's conversation, kept across its steps
  std::string plan_;
  std::string for_coder_;     // what the coder hears at the start of its next step
  std::string for_designer_;  // the conductor's request for a new plan
  std::vector<std::string> history_;
  std::string report_;                        // the verifier's latest report
  std::pair<std::string, uint64_t> verdict_;  // the verifier's latest verdict and cycles
  std::pair<std::string, uint64_t> last_verdict_;
  std::string last_decision_;
  unsigned repeats_ = 0;
  unsigned verifications_ = 0;
};

}  // namespace

Provider& RoleProviders::for_role(const std::string& role) const {
  auto it = roles.find(role);
  return it != roles.end() && it->second != nullptr ? *it->second : *run;
}

AgentResult run_workflow(const Workflow& workflow, const RoleProviders& providers, const TaskContext& context,
                         const AgentBudget& budget, Transcript& transcript) {
  if (providers.run == nullptr) throw std::invalid_argument("run_workflow: no provider for the run");
  return WorkflowRun(workflow, providers, context, budget, transcript).run();
}

AgentResult run_llm_agent(Provider& provider, const TaskContext& context, const AgentBudget& budget,
                          Transcript& transcript) {
  static const Workflow single = Workflow::load("single");
  return run_workflow(single, RoleProviders{&provider, {}}, context, budget, transcript);
}

}  // namespace kcraft::agent
