// What an evaluation on each platform runs, as one hash per platform: every file of rtl/, isa/, tasks/ and
// tb/ that is the platform's own or shared, the compiler and its flags, the Verilator version and options,
// and kcraft's version (cmake/KcraftEvalIdentity.cmake computes it at build time). Two binaries with the
// same identity for a platform simulate its kernels identically; the evaluation cache
// (agent/common/eval_cache.h) keys results by it.
#pragma once

#include <map>
#include <string>

namespace kcraft::tb {

// Generated at build time into the platform registry's library.
const std::map<std::string, std::string>& built_eval_identities();

// The identity of `platform` in this binary (64 hex digits); "" for a platform it was not built with.
std::string eval_identity(const std::string& platform);

}  // namespace kcraft::tb
