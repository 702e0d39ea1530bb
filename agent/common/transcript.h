// Agent transcripts: one JSON object per line (JSONL), written and flushed as events happen, so a run
// that is killed or whose provider goes down keeps everything up to that point.
//
// Events (field "type"): run_start (agent, context, settings without keys, budget), llm_request
// (iteration, message count), llm_response (iteration, assistant message, usage, attempts, seconds),
// tool_call (iteration, id, name, arguments), tool_result (id, name, text, is_error, data),
// provider_error (kind, status, message), score (hidden-seed verdicts, cycles, speedup), run_end
// (status and statistics). Every event carries "seq" and "t" (seconds since the run started).
//
// LLM runs are workflows of roles (workflow.h): every event a role caused carries "role" (designer,
// coder, verifier, conductor); run_start also has "workflow" and the first role's prompts, later
// conversations write "prompt" (role, system, user); workflows add "plan" (the designer's), "verdict"
// (the verifier's run_eval verdict and cycles), "decision" (the conductor's next step and suggestion),
// "handover" (what the coder hears when it resumes) and "reask" (a malformed plan or decision).
#pragma once

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kcraft::agent {

class Transcript {
 public:
  // An empty path keeps the events in memory only.
  explicit Transcript(const std::filesystem::path& path = {});
  void write(nlohmann::json event);
  const std::vector<nlohmann::json>& events() const { return events_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::ofstream out_;
  std::vector<nlohmann::json> events_;
  std::chrono::steady_clock::time_point start_;
};

// Reads a transcript; throws std::runtime_error naming the file and line of a malformed entry.
std::vector<nlohmann::json> read_transcript(const std::filesystem::path& path);
// The same from the file's text (`source` names it in messages).
std::vector<nlohmann::json> parse_transcript(const std::string& text, const std::string& source);

}  // namespace kcraft::agent
