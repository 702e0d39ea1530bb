// Fuzzes the MCP server (agent/mcp/mcp_server.cpp, mcp_tools.cpp and the agent tools behind them): the
// newline-delimited JSON-RPC that external agents send to `kcraft mcp`. The input is one session, one
// message per line, sent to a fresh server.
//
// handle_line promises never to throw and to answer in one line of valid JSON. Beyond that, nothing a
// client sends may cause an internal error (-32603, or a tool result "internal error in ..."): the tools
// answer wrong arguments, unknown tasks and failing kernels with results the agent can act on. A reply to
// a request carries the request's id.
//
// What runs: every method and every tool with the real task registry, hardware configurations, ISA
// reference and assembler, so select_task, show_task, check_syntax, grep_docs and read_docs go all the way.
// The fuzz build links no Verilated model, so run_eval and submit stop after assembling the kernel, with
// the input error "no Verilated model in this binary" (before any simulation); exploring simulations here
// would cost a second per input and find RTL behaviour, which `kcraft validate` tests instead.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "agent/mcp/mcp_server.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;
using nlohmann::json;

namespace {

void check_reply(const json& request, bool request_parsed, const std::string& line) {
  fuzz::check(line.find('\n') == std::string::npos, "a reply of several lines");
  const json reply = json::parse(line, nullptr, /*allow_exceptions=*/false);
  fuzz::check(!reply.is_discarded(), "a reply that is not JSON: " + line);
  fuzz::check(reply.is_object() || reply.is_array(), "a reply that is neither an object nor a batch");
  const auto check_one = [](const json& r) {
    fuzz::check(r.is_object() && r.value("jsonrpc", "") == "2.0", "a reply without jsonrpc 2.0");
    if (r.contains("error")) {
      fuzz::check(r.at("error").is_object() && r.at("error").value("code", 0) != -32603,
                  "an internal error: " + r.dump());
    } else if (r.contains("result") && r.at("result").is_object() && r.at("result").value("isError", false)) {
      const json content = r.at("result").value("content", json::array());
      const std::string text = content.is_array() && !content.empty() && content[0].is_object()
                                   ? content[0].value("text", "")
                                   : "";
      fuzz::check(text.rfind("internal error in ", 0) != 0, "a tool failed inside kcraft: " + text);
    }
  };
  if (reply.is_array()) {
    for (const auto& r : reply) check_one(r);
  } else {
    check_one(reply);
  }
  // The reply to one request names it by its id.
  if (request_parsed && request.is_object() && request.contains("method") && request.contains("id") &&
      (request.at("id").is_string() || request.at("id").is_number()) && reply.is_object() &&
      !reply.contains("error")) {
    fuzz::check(reply.value("id", json()) == request.at("id"), "a reply with another id: " + line);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  agent::mcp::McpOptions options;
  options.score_on_submit = true;
  agent::mcp::McpServer server(options);
  const std::string session = fuzz::text_of(data, size);
  size_t start = 0;
  while (start <= session.size()) {
    size_t end = session.find('\n', start);
    if (end == std::string::npos) end = session.size();
    const std::string line = session.substr(start, end - start);
    start = end + 1;
    std::optional<std::string> reply;
    try {
      reply = server.handle_line(line);
    } catch (const std::exception& e) {
      fuzz::fail_unexpected(e, "McpServer::handle_line (it promises never to throw)");
    }
    if (!reply) continue;
    const json request = json::parse(line, nullptr, /*allow_exceptions=*/false);
    check_reply(request, !request.is_discarded(), *reply);
  }
  return 0;
}
