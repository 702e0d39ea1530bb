#include "agent/providers/http.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string_view>

#include <fmt/format.h>

namespace kcraft::agent {

namespace {

void init_curl_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct CurlDeleter {
  void operator()(CURL* curl) const { curl_easy_cleanup(curl); }
};
struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* result = static_cast<HttpResult*>(user);
  const size_t bytes = size * count;
  if (result->body.size() + bytes > kMaxResponseBytes) return 0;  // aborts with CURLE_WRITE_ERROR
  result->body.append(data, bytes);
  return bytes;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* result = static_cast<HttpResult*>(user);
  const size_t bytes = size * count;
  std::string line(data, bytes);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  // A new status line (after "100 Continue") starts a new set of headers.
  if (line.rfind("HTTP/", 0) == 0) {
    result->headers.clear();
    return bytes;
  }
  const auto colon = line.find(':');
  if (colon == std::string::npos) return bytes;
  std::string name = line.substr(0, colon);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string value = line.substr(colon + 1);
  const auto first = value.find_first_not_of(" \t");
  value = first == std::string::npos ? std::string() : value.substr(first);
  result->headers[name] = value;
  return bytes;
}

void classify_failure(CURLcode code, CURL* curl, const HttpRequest& request, const char* detail,
                      HttpResult& result) {
  using Kind = ProviderError::Kind;
  const std::string what = detail[0] != '\0' ? detail : curl_easy_strerror(code);
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT: {
      curl_off_t connect_us = 0;
      curl_easy_getinfo(curl, CURLINFO_CONNECT_TIME_T, &connect_us);
      result.failure_kind = Kind::kTimeout;
      result.transient = true;
      result.failure =
          connect_us == 0
              ? fmt::format("no connection within {} s ({})", request.connect_timeout_seconds, what)
              : fmt::format("no complete answer within {} s ({})", request.timeout_seconds, what);
      return;
    }
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SSL_CONNECT_ERROR:
      result.failure_kind = Kind::kUnreachable;
      result.transient = true;
      result.failure = fmt::format("cannot connect ({})", what);
      return;
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
      result.failure_kind = Kind::kUnreachable;
      result.transient = true;
      result.failure = fmt::format("connection closed before a complete answer ({})", what);
      return;
    case CURLE_WRITE_ERROR:
      result.failure_kind = Kind::kBadResponse;
      result.failure = fmt::format("response larger than {} MiB", kMaxResponseBytes >> 20);
      return;
    default:
      // Bad URL, unsupported scheme, certificate verification, ...: trying again will not help.
      result.failure_kind = Kind::kUnreachable;
      result.failure = fmt::format("request failed ({})", what);
      return;
  }
}

// The environment's no_proxy list plus loopback: a local model server is never reached through a proxy.
// (CURLOPT_NOPROXY replaces the environment variable, so both go in.)
const std::string& no_proxy_list() {
  static const std::string list = [] {
    std::string out = "localhost,127.0.0.1,::1";
    for (const char* name : {"no_proxy", "NO_PROXY"}) {
      if (const char* value = std::getenv(name); value != nullptr && value[0] != '\0') {
        if (std::string_view(value) == "*") return std::string("*");  // curl honours "*" only on its own
        out += ",";
        out += value;
        break;
      }
    }
    return out;
  }();
  return list;
}

}  // namespace

HttpResult http_post(const HttpRequest& request) {
  init_curl_once();
  HttpResult result;
  std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
  if (!curl) {
    result.failure = "curl_easy_init failed";
    return result;
  }
  std::unique_ptr<curl_slist, SlistDeleter> headers;
  auto add_header = [&](const std::string& line) {
    curl_slist* grown = curl_slist_append(headers.get(), line.c_str());
    if (grown) {
      (void)headers.release();
      headers.reset(grown);
    }
  };
  for (const auto& [name, value] : request.headers) add_header(name + ": " + value);
  // curl would otherwise wait up to a second for "100 Continue" before sending a large body.
  add_header("Expect:");

  char error_buffer[CURL_ERROR_SIZE] = {0};
  CURL* h = curl.get();
  curl_easy_setopt(h, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // timeouts must not raise SIGALRM in a threaded program
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, std::max(1L, std::lround(request.timeout_seconds * 1000)));
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                   std::max(1L, std::lround(request.connect_timeout_seconds * 1000)));
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");  // whatever this libcurl can decode
  curl_easy_setopt(h, CURLOPT_USERAGENT, "kcraft-agent/0.1");
  curl_easy_setopt(h, CURLOPT_NOPROXY, no_proxy_list().c_str());
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &result);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &result);

  const CURLcode code = curl_easy_perform(h);
  if (code != CURLE_OK) {
    classify_failure(code, h, request, error_buffer, result);
    return result;
  }
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &result.status);
  result.completed = true;
  return result;
}

}  // namespace kcraft::agent
