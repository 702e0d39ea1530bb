#include "agent/providers/redaction.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace kcraft::agent {

namespace {

// Length of the longest run of `secret` (of at least `min_run` characters) that starts at text[at].
size_t longest_run(std::string_view text, size_t at, const std::string& secret, size_t min_run) {
  size_t longest = 0;
  for (size_t j = 0; j + min_run <= secret.size() && longest < secret.size() - j; ++j) {
    if (secret[j] != text[at]) continue;
    size_t n = 0;
    while (at + n < text.size() && j + n < secret.size() && text[at + n] == secret[j + n]) ++n;
    longest = std::max(longest, n);
  }
  return longest >= min_run ? longest : 0;
}

// The min_run (at most 8) characters at text[at], packed into 64 bits; the caller checks they exist.
uint64_t window(std::string_view text, size_t at, size_t min_run) {
  uint64_t packed = 0;
  for (size_t k = 0; k < min_run; ++k) packed = packed << 8 | static_cast<unsigned char>(text[at + k]);
  return packed;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

static_assert(SecretRedactor::kMinRun <= 8, "windows are packed into 64 bits");

SecretRedactor::SecretRedactor(std::vector<std::string> secrets) {
  for (auto& secret : secrets) {
    if (secret.empty()) continue;
    Secret s;
    s.text = std::move(secret);
    // A secret shorter than kMinRun is only redacted whole.
    s.min_run = std::min(kMinRun, s.text.size());
    for (size_t j = 0; j + s.min_run <= s.text.size(); ++j) s.windows.push_back(window(s.text, j, s.min_run));
    std::sort(s.windows.begin(), s.windows.end());
    secrets_.push_back(std::move(s));
  }
}

std::string SecretRedactor::operator()(std::string_view text) const {
  if (secrets_.empty()) return std::string(text);
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    size_t run = 0;
    for (const auto& secret : secrets_) {
      // A run needs min_run characters here that are a window of the secret.
      if (i + secret.min_run > text.size() ||
          !std::binary_search(secret.windows.begin(), secret.windows.end(),
                              window(text, i, secret.min_run))) {
        continue;
      }
      run = std::max(run, longest_run(text, i, secret.text, secret.min_run));
    }
    if (run > 0) {
      out += kMarker;
      i += run;
    } else {
      out += text[i++];
    }
  }
  return out;
}

bool is_credential_header(std::string_view name) {
  const auto lowered = lower(name);
  for (const char* word : {"auth", "key", "token", "secret", "cookie", "password"}) {
    if (lowered.find(word) != std::string::npos) return true;
  }
  return false;
}

std::string credential_of(std::string_view header_value) {
  const auto space = header_value.find(' ');
  if (space != std::string_view::npos) {
    const auto scheme = lower(header_value.substr(0, space));
    if (scheme == "bearer" || scheme == "basic" || scheme == "token") header_value.remove_prefix(space + 1);
  }
  return std::string(header_value);
}

std::string body_excerpt(std::string_view body, size_t max_chars) {
  if (body.empty()) return "<empty body>";
  std::string out;
  size_t used = 0;
  for (; used < body.size() && out.size() < max_chars; ++used) {
    const auto c = static_cast<unsigned char>(body[used]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  if (used < body.size()) out += "...";
  return out;
}

}  // namespace kcraft::agent
