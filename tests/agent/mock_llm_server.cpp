#include "tests/agent/mock_llm_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

namespace kcraft::agent::testing {

namespace {

using nlohmann::json;

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

int port_of(const sockaddr_storage& address) {
  if (address.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
  if (address.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port);
  return -1;
}

// httplib (0.11) always answers a request; to drop a connection without a word, find the server side of
// it among this process's sockets (local port = server, peer port = client) and shut it down. httplib
// then fails to write its answer and closes the socket as usual.
bool shut_down_connection(const httplib::Request& request) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", error)) {
    int fd = -1;
    try {
      fd = std::stoi(entry.path().filename().string());
    } catch (const std::exception&) {
      continue;
    }
    sockaddr_storage local{}, peer{};
    socklen_t local_size = sizeof(local), peer_size = sizeof(peer);
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_size) != 0) continue;
    if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_size) != 0) continue;
    if (port_of(local) == request.local_port && port_of(peer) == request.remote_port) {
      return shutdown(fd, SHUT_RDWR) == 0;
    }
  }
  return false;
}

// Text of a content field: a string, or an array of {type: text, text} parts/blocks.
std::string text_of(const json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string text;
  if (content.is_array()) {
    for (const auto& part : content) {
      if (part.is_object() && part.value("type", "") == "text" && part.contains("text") &&
          part["text"].is_string()) {
        text += part["text"].get<std::string>();
      }
    }
  }
  return text;
}

std::string lookup_tool_name(const std::vector<ChatMessage>& messages, const std::string& call_id) {
  for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
    for (const auto& call : it->tool_calls) {
      if (call.id == call_id) return call.name;
    }
  }
  return {};
}

void decode_openai(const json& body, ReceivedRequest& out) {
  for (const auto& message : body.at("messages")) {
    const std::string role = message.at("role").get<std::string>();
    ChatMessage decoded;
    if (role == "system" || role == "developer") {
      out.system += text_of(message.at("content"));
      continue;
    }
    if (role == "user") {
      decoded.role = ChatMessage::Role::kUser;
      decoded.content = text_of(message.at("content"));
    } else if (role == "assistant") {
      decoded.role = ChatMessage::Role::kAssistant;
      if (message.contains("content") && !message["content"].is_null())
        decoded.content = text_of(message["content"]);
      if (message.contains("tool_calls")) {
        for (const auto& call : message["tool_calls"]) {
          decoded.tool_calls.push_back({call.at("id").get<std::string>(),
                                        call.at("function").at("name").get<std::string>(),
                                        call.at("function").at("arguments").get<std::string>()});
        }
      }
    } else if (role == "tool") {
      decoded.role = ChatMessage::Role::kTool;
      decoded.content = text_of(message.at("content"));
      decoded.tool_call_id = message.at("tool_call_id").get<std::string>();
      decoded.tool_name = lookup_tool_name(out.messages, decoded.tool_call_id);
    } else {
      throw std::runtime_error("unknown role " + role);
    }
    out.messages.push_back(std::move(decoded));
  }
  if (body.contains("tools")) {
    for (const auto& tool : body["tools"])
      out.tool_names.push_back(tool.at("function").at("name").get<std::string>());
  }
}

void decode_anthropic(const json& body, ReceivedRequest& out) {
  if (body.contains("system")) out.system = text_of(body["system"]);
  for (const auto& message : body.at("messages")) {
    const std::string role = message.at("role").get<std::string>();
    const auto& content = message.at("content");
    if (role != "user" && role != "assistant") throw std::runtime_error("unknown role " + role);
    if (content.is_string()) {
      ChatMessage decoded;
      decoded.role = role == "user" ? ChatMessage::Role::kUser : ChatMessage::Role::kAssistant;
      decoded.content = content.get<std::string>();
      out.messages.push_back(std::move(decoded));
      continue;
    }
    if (role == "assistant") {
      ChatMessage decoded;
      decoded.role = ChatMessage::Role::kAssistant;
      for (const auto& block : content) {
        const auto type = block.at("type").get<std::string>();
        if (type == "text") {
          decoded.content += block.at("text").get<std::string>();
        } else if (type == "tool_use") {
          decoded.tool_calls.push_back({block.at("id").get<std::string>(),
                                        block.at("name").get<std::string>(), block.at("input").dump()});
        }
      }
      out.messages.push_back(std::move(decoded));
      continue;
    }
    // A user turn: tool results become tool messages, text blocks one user message, in block order.
    ChatMessage text;
    text.role = ChatMessage::Role::kUser;
    bool has_text = false;
    for (const auto& block : content) {
      const auto type = block.at("type").get<std::string>();
      if (type == "tool_result") {
        ChatMessage result;
        result.role = ChatMessage::Role::kTool;
        result.tool_call_id = block.at("tool_use_id").get<std::string>();
        result.tool_name = lookup_tool_name(out.messages, result.tool_call_id);
        if (block.contains("content")) result.content = text_of(block["content"]);
        result.tool_error = block.value("is_error", false);
        out.messages.push_back(std::move(result));
      } else if (type == "text") {
        text.content += block.at("text").get<std::string>();
        has_text = true;
      }
    }
    if (has_text) out.messages.push_back(std::move(text));
  }
  if (body.contains("tools")) {
    for (const auto& tool : body["tools"]) out.tool_names.push_back(tool.at("name").get<std::string>());
  }
}

}  // namespace

const char* wire_api_name(WireApi api) {
  return api == WireApi::kOpenAi ? "openai" : "anthropic";
}

// ---- ReceivedRequest ----

std::string ReceivedRequest::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (same_name(key, name)) return value;
  }
  return {};
}

size_t ReceivedRequest::header_count(std::string_view name) const {
  return static_cast<size_t>(std::count_if(
      headers.begin(), headers.end(), [&](const auto& header) { return same_name(header.first, name); }));
}

const ChatMessage* ReceivedRequest::last_message() const {
  return messages.empty() ? nullptr : &messages.back();
}

const ChatMessage* ReceivedRequest::last_tool_result() const {
  for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
    if (it->role == ChatMessage::Role::kTool) return &*it;
  }
  return nullptr;
}

bool ReceivedRequest::last_tool_result_contains(std::string_view text) const {
  const auto* result = last_tool_result();
  return result != nullptr && result->content.find(text) != std::string::npos;
}

// ---- Step ----

Step Step::reply(MockReply reply) {
  Step step;
  step.kind_ = Kind::kReply;
  step.reply_ = std::move(reply);
  return step;
}

Step Step::text(std::string text, MockUsage usage) {
  MockReply reply;
  reply.text = std::move(text);
  reply.usage = usage;
  return Step::reply(std::move(reply));
}

Step Step::tool_call(std::string name, std::string arguments, MockUsage usage) {
  MockReply reply;
  reply.tool_calls.push_back({std::move(name), std::move(arguments), {}});
  reply.usage = usage;
  return Step::reply(std::move(reply));
}

Step Step::http_error(int status, std::string body) {
  Step step;
  step.kind_ = Kind::kHttpError;
  step.status_ = status;
  step.body_ = std::move(body);
  return step;
}

Step Step::raw(int status, std::string body, std::string content_type) {
  Step step;
  step.kind_ = Kind::kRaw;
  step.status_ = status;
  step.body_ = std::move(body);
  step.content_type_ = std::move(content_type);
  return step;
}

Step Step::malformed_json() {
  return raw(200, R"({"id": "broken", "choices": [{"message": {"content": "unfinished)");
}

Step Step::close_connection() {
  Step step;
  step.kind_ = Kind::kClose;
  return step;
}

Step Step::stall(double seconds) {
  return std::move(text("(answer after the stall)").delay(seconds));
}

Step Step::dynamic(std::function<Step(const ReceivedRequest&)> build) {
  Step step;
  step.kind_ = Kind::kDynamic;
  step.build_ = std::move(build);
  return step;
}

Step Step::branch_on_tool_result(std::string text, Step if_found, Step otherwise) {
  return dynamic([text = std::move(text), if_found = std::move(if_found),
                  otherwise = std::move(otherwise)](const ReceivedRequest& request) {
    return request.last_tool_result_contains(text) ? if_found : otherwise;
  });
}

Step& Step::delay(double seconds) {
  delay_seconds_ = seconds;
  return *this;
}

Step& Step::header(std::string name, std::string value) {
  headers_.emplace_back(std::move(name), std::move(value));
  return *this;
}

Step& Step::retry_after(std::string value) {
  return header("Retry-After", std::move(value));
}

std::string Step::describe() const {
  std::string out;
  switch (kind_) {
    case Kind::kReply:
      out = fmt::format("reply: {} chars of text, {} tool call(s)", reply_.text.size(),
                        reply_.tool_calls.size());
      break;
    case Kind::kRaw:
      out = fmt::format("raw {} ({} bytes)", status_, body_.size());
      break;
    case Kind::kHttpError:
      out = fmt::format("http {}", status_);
      break;
    case Kind::kClose:
      out = "close connection";
      break;
    case Kind::kDynamic:
      out = "dynamic";
      break;
  }
  if (delay_seconds_ > 0) out += fmt::format(" after {} s", delay_seconds_);
  return out;
}

// ---- MockLlmServer ----

MockLlmServer::MockLlmServer(WireApi api) : api_(api), server_(std::make_unique<httplib::Server>()) {
  // A client that gave up leaves a closed socket behind; writing to it must not kill the test.
  std::signal(SIGPIPE, SIG_IGN);
  // One request per connection: the clients under test do not reuse connections, and stop() must not
  // wait for idle keep-alive connections.
  server_->set_keep_alive_max_count(1);
  server_->Post(".*", [this](const httplib::Request& request, httplib::Response& response) {
    handle(request, response);
  });
  port_ = server_->bind_to_any_port("127.0.0.1");
  if (port_ <= 0) throw std::runtime_error("mock LLM server: cannot bind to 127.0.0.1");
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  // stop() is a no-op until listening has started, so do not hand out the server before.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!server_->is_running() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

MockLlmServer::~MockLlmServer() {
  stop();
}

void MockLlmServer::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  stop_signal_.notify_all();
  if (thread_.joinable()) {
    server_->stop();
    thread_.join();
  }
}

std::string MockLlmServer::base_url() const {
  return fmt::format("http://127.0.0.1:{}/v1", port_);
}

std::string MockLlmServer::endpoint_path() const {
  return api_ == WireApi::kOpenAi ? "/v1/chat/completions" : "/v1/messages";
}

ProviderSettings MockLlmServer::settings() const {
  ProviderSettings settings;
  settings.provider = wire_api_name(api_);
  settings.base_url = base_url();
  settings.model = "mock-model";
  settings.api_key_env.clear();
  settings.timeout_seconds = 5;
  settings.connect_timeout_seconds = 2;
  settings.max_retries = 3;
  settings.backoff_initial_ms = 1;
  settings.backoff_max_ms = 8;
  return settings;
}

MockLlmServer& MockLlmServer::then(Step step) {
  std::lock_guard<std::mutex> lock(mutex_);
  script_.push_back(std::move(step));
  return *this;
}

MockLlmServer& MockLlmServer::then(const Step& step, size_t times) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < times; ++i) script_.push_back(step);
  return *this;
}

MockLlmServer& MockLlmServer::script(std::vector<Step> steps) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& step : steps) script_.push_back(std::move(step));
  return *this;
}

void MockLlmServer::set_fallback(Step step) {
  std::lock_guard<std::mutex> lock(mutex_);
  fallback_ = std::move(step);
}

std::vector<ReceivedRequest> MockLlmServer::requests() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return requests_;
}

ReceivedRequest MockLlmServer::request(size_t index) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (index >= requests_.size()) {
    throw std::out_of_range(
        fmt::format("mock LLM server: request {} asked for, {} received", index, requests_.size()));
  }
  return requests_[index];
}

size_t MockLlmServer::request_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return requests_.size();
}

size_t MockLlmServer::steps_left() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return script_.size();
}

size_t MockLlmServer::unscripted_requests() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return unscripted_;
}

void MockLlmServer::decode(ReceivedRequest& request) const {
  request.json = json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (request.json.is_discarded()) {
    request.decode_error = "body is not JSON";
    return;
  }
  try {
    request.model = request.json.at("model").get<std::string>();
    if (api_ == WireApi::kOpenAi) {
      decode_openai(request.json, request);
    } else {
      decode_anthropic(request.json, request);
    }
  } catch (const std::exception& e) {
    request.decode_error = e.what();
  }
}

Step MockLlmServer::resolve(Step step, const ReceivedRequest& request) const {
  for (int depth = 0; step.kind_ == Step::Kind::kDynamic; ++depth) {
    if (depth == 16) return Step::http_error(500, "mock LLM server: dynamic steps nested too deep");
    step = step.build_(request);
  }
  return step;
}

std::string MockLlmServer::reply_body(const MockReply& reply, const ReceivedRequest& request) const {
  const std::string model = !reply.model.empty()     ? reply.model
                            : !request.model.empty() ? request.model
                                                     : "mock-model";
  const auto& usage = reply.usage;
  if (api_ == WireApi::kOpenAi) {
    json message = {{"role", "assistant"},
                    {"content", reply.text.empty() ? json(nullptr) : json(reply.text)}};
    if (!reply.tool_calls.empty()) {
      json calls = json::array();
      for (size_t i = 0; i < reply.tool_calls.size(); ++i) {
        const auto& call = reply.tool_calls[i];
        calls.push_back({{"id", call.id.empty() ? fmt::format("call_{}_{}", request.index, i) : call.id},
                         {"type", "function"},
                         {"function", {{"name", call.name}, {"arguments", call.arguments}}}});
      }
      message["tool_calls"] = std::move(calls);
    }
    const std::string finish = !reply.stop_reason.empty()  ? reply.stop_reason
                               : !reply.tool_calls.empty() ? "tool_calls"
                                                           : "stop";
    return json({{"id", fmt::format("chatcmpl-mock-{}", request.index)},
                 {"object", "chat.completion"},
                 {"created", 1700000000},
                 {"model", model},
                 {"choices", json::array({{{"index", 0}, {"message", message}, {"finish_reason", finish}}})},
                 {"usage",
                  {{"prompt_tokens", usage.prompt_tokens},
                   {"completion_tokens", usage.completion_tokens},
                   {"total_tokens", usage.prompt_tokens + usage.completion_tokens},
                   {"prompt_tokens_details", {{"cached_tokens", usage.cached_tokens}}},
                   {"completion_tokens_details", {{"reasoning_tokens", usage.reasoning_tokens}}}}}})
        .dump();
  }
  json content = json::array();
  if (!reply.text.empty()) content.push_back({{"type", "text"}, {"text", reply.text}});
  for (size_t i = 0; i < reply.tool_calls.size(); ++i) {
    const auto& call = reply.tool_calls[i];
    auto input = json::parse(call.arguments, nullptr, /*allow_exceptions=*/false);
    if (!input.is_object()) input = call.arguments;
    content.push_back({{"type", "tool_use"},
                       {"id", call.id.empty() ? fmt::format("toolu_{}_{}", request.index, i) : call.id},
                       {"name", call.name},
                       {"input", input}});
  }
  const std::string stop = !reply.stop_reason.empty()  ? reply.stop_reason
                           : !reply.tool_calls.empty() ? "tool_use"
                                                       : "end_turn";
  return json({{"id", fmt::format("msg_mock_{}", request.index)},
               {"type", "message"},
               {"role", "assistant"},
               {"model", model},
               {"content", content},
               {"stop_reason", stop},
               {"stop_sequence", nullptr},
               {"usage",
                {{"input_tokens", usage.prompt_tokens},
                 {"output_tokens", usage.completion_tokens},
                 {"cache_creation_input_tokens", 0},
                 {"cache_read_input_tokens", usage.cached_tokens}}}})
      .dump();
}

std::string MockLlmServer::error_body(int status, const std::string& message) const {
  if (api_ == WireApi::kOpenAi) {
    return json({{"error", {{"message", message}, {"type", "mock_error"}, {"code", status}}}}).dump();
  }
  return json({{"type", "error"}, {"error", {{"type", "mock_error"}, {"message", message}}}}).dump();
}

void MockLlmServer::handle(const httplib::Request& http_request, httplib::Response& response) {
  ReceivedRequest request;
  request.method = http_request.method;
  request.path = http_request.path;
  for (const auto& [name, value] : http_request.headers) request.headers.emplace_back(name, value);
  request.body = http_request.body;
  decode(request);

  std::optional<Step> step;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    request.index = requests_.size();
    if (request.path != endpoint_path()) {
      step = Step::http_error(404, error_body(404, "mock LLM server: no endpoint " + request.path));
    } else if (!script_.empty()) {
      step = std::move(script_.front());
      script_.pop_front();
    } else if (fallback_) {
      step = *fallback_;
    } else {
      ++unscripted_;
      step = Step::http_error(
          400,
          error_body(400, fmt::format("mock LLM server: script exhausted (request #{})", request.index)));
    }
    requests_.push_back(request);
  }

  const Step chosen = resolve(std::move(*step), request);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    requests_[request.index].played = chosen.describe();
  }
  if (chosen.delay_seconds_ > 0) {
    std::unique_lock<std::mutex> lock(mutex_);
    stop_signal_.wait_for(lock, std::chrono::duration<double>(chosen.delay_seconds_),
                          [this] { return stopping_; });
  }

  for (const auto& [name, value] : chosen.headers_) response.set_header(name.c_str(), value);
  switch (chosen.kind_) {
    case Step::Kind::kReply:
      response.status = 200;
      response.set_content(reply_body(chosen.reply_, request), "application/json");
      break;
    case Step::Kind::kRaw:
      response.status = chosen.status_;
      response.set_content(chosen.body_, chosen.content_type_.c_str());
      break;
    case Step::Kind::kHttpError:
      response.status = chosen.status_;
      response.set_content(chosen.body_.empty()
                               ? error_body(chosen.status_, fmt::format("mock error {}", chosen.status_))
                               : chosen.body_,
                           "application/json");
      break;
    case Step::Kind::kClose:
      if (!shut_down_connection(http_request)) {
        response.status = 500;
        response.set_content("mock LLM server: could not find the connection to close", "text/plain");
      }
      break;
    case Step::Kind::kDynamic:
      break;  // resolved above
  }
}

}  // namespace kcraft::agent::testing
