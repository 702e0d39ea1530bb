// Keeps a secret (the API key) out of every string the provider layer hands out: error messages, log
// lines, parsed responses. Servers echo keys in error bodies ("Incorrect API key provided: sk-...") and
// sometimes in part, so any run of the secret at least `kMinRun` characters long is replaced, not only
// the whole key.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kcraft::agent {

class SecretRedactor {
 public:
  static constexpr size_t kMinRun = 8;
  static constexpr std::string_view kMarker = "[REDACTED]";

  SecretRedactor() = default;
  // Empty secrets are ignored.
  explicit SecretRedactor(std::vector<std::string> secrets);

  std::string operator()(std::string_view text) const;
  bool empty() const { return secrets_.empty(); }

 private:
  struct Secret {
    std::string text;
    size_t min_run = 0;  // kMinRun, or the whole secret when it is shorter
    // Every window of min_run characters that can start a run (text[j, j + min_run)), packed into 64 bits
    // and sorted: a text position whose next min_run characters are not one of them starts no run, which
    // rules out almost every position with one lookup.
    std::vector<uint64_t> windows;
  };
  std::vector<Secret> secrets_;
};

// Header names whose values are credentials (Authorization, x-api-key, api-key, cookies, anything with
// key/token/secret/auth in its name): never shown, and redacted like the API key.
bool is_credential_header(std::string_view name);
// The credential in a header value: "Bearer abc" -> "abc".
std::string credential_of(std::string_view header_value);

// The start of a body for an error message: at most `max_chars` characters, control characters escaped,
// "..." when cut. Redact before cutting: a cut could leave a run of the key too short to be recognised.
std::string body_excerpt(std::string_view body, size_t max_chars = 300);

}  // namespace kcraft::agent
