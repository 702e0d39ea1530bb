// Text helpers the hardware-team commands (explore, coverage) share.
#pragma once

#include <filesystem>
#include <string>

namespace kcraft::tb {

// `s` safe inside HTML text and attribute values: &, <, > and " escaped.
std::string html_escape(const std::string& s);

// The whole file as bytes; "" when it cannot be read (callers that must tell the two apart check first).
std::string read_file(const std::filesystem::path& file);

}  // namespace kcraft::tb
