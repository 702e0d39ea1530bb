// Where, when and by what a result was made: the host, the time, and this kcraft's version and git commit.
#pragma once

#include <string>

namespace kcraft::bench {

// The host name, and the current UTC time as 2025-01-31T12:34:56Z.
std::string host_name();
std::string utc_now();

// The version of kcraft and the git commit it was built from ("unknown" outside a git checkout); written at
// build time into the generated version.cpp (version.cmake).
const char* kcraft_version();
const char* kcraft_git_commit();

}  // namespace kcraft::bench
