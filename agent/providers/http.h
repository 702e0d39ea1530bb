// One HTTP POST through libcurl, with the failure already classified for the retry loop. No retries
// here, no redaction: curl's messages may contain the URL, so callers redact what they pass on.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "agent/providers/chat.h"

namespace kcraft::agent {

struct HttpRequest {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  double timeout_seconds = 120;
  double connect_timeout_seconds = 10;
};

struct HttpResult {
  bool completed = false;  // an HTTP response (any status) arrived in full
  // When not completed: how it failed, whether trying again may help, and curl's description.
  ProviderError::Kind failure_kind = ProviderError::Kind::kUnreachable;
  bool transient = false;
  std::string failure;

  long status = 0;
  std::map<std::string, std::string> headers;  // names in lower case; the last value of a repeated one
  std::string body;
};

inline constexpr size_t kMaxResponseBytes = size_t{64} << 20;

HttpResult http_post(const HttpRequest& request);

}  // namespace kcraft::agent
