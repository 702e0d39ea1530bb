// What the harnesses in tests/fuzz share: the input as text, and how a harness reports a broken promise.
//
// A finding is anything that would hurt a user: a sanitizer report, a crash, an exception the parser does
// not document (the CLI would print "internal error"), or a property the code promises that does not
// hold (e.g. disassemble then assemble gives other words). Errors reported the documented way are the
// expected outcome for most inputs and are not findings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <typeinfo>

namespace kcraft::fuzz {

inline std::string text_of(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// Reports a finding: libFuzzer (or the replay runner) sees the abort and keeps the input.
[[noreturn]] inline void fail(std::string_view what) {
  std::fprintf(stderr, "\nkcraft fuzz finding: %.*s\n", static_cast<int>(what.size()), what.data());
  std::fflush(stderr);
  std::abort();
}

inline void check(bool condition, std::string_view what) {
  if (!condition) fail(what);
}

// An exception of a type the parser does not document.
[[noreturn]] inline void fail_unexpected(const std::exception& e, std::string_view where) {
  fail(std::string("undocumented exception from ") + std::string(where) + ": " + typeid(e).name() + ": " +
       e.what());
}

// Runs `body`; exceptions of the types listed (the parser's documented errors) end the input quietly,
// any other exception is a finding. Returns whether `body` completed.
template <typename... Documented, typename Body>
bool expect_errors(std::string_view where, Body&& body) {
  try {
    body();
    return true;
  } catch (const std::exception& e) {
    if ((... || (dynamic_cast<const Documented*>(&e) != nullptr))) return false;
    fail_unexpected(e, where);
  }
}

}  // namespace kcraft::fuzz
