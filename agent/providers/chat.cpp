#include "agent/providers/chat.h"

namespace kcraft::agent {

const char* provider_error_kind_name(ProviderError::Kind kind) {
  switch (kind) {
    case ProviderError::Kind::kUnreachable:
      return "unreachable";
    case ProviderError::Kind::kTimeout:
      return "timeout";
    case ProviderError::Kind::kRateLimited:
      return "rate_limited";
    case ProviderError::Kind::kServerError:
      return "server_error";
    case ProviderError::Kind::kClientError:
      return "client_error";
    case ProviderError::Kind::kBadResponse:
      return "bad_response";
  }
  return "unknown";
}

}  // namespace kcraft::agent
