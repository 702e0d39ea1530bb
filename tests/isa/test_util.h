// Helpers shared by the ISA tests.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "isa/common/assembler.h"
#include "systolic_isa.h"

namespace kcraft::isa::test {

inline const IsaSpec& sys() {
  return systolic::spec();
}

inline AssembleResult asm_ok(const std::string& source, const SymbolTable& predefined = {}) {
  AssembleResult r = assemble(sys(), source, "test.s", predefined);
  EXPECT_TRUE(r.ok) << format_diagnostics(r, source);
  return r;
}

// The diagnostics of one severity.
inline std::vector<Diagnostic> of(const AssembleResult& r, Severity severity) {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : r.diagnostics) {
    if (d.severity == severity) out.push_back(d);
  }
  return out;
}

inline std::string read_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return "";
  std::string out;
  char buffer[65536];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) out.append(buffer, n);
  std::fclose(f);
  return out;
}

// A command's exit status and combined stdout/stderr.
struct CommandResult {
  int status = -1;
  std::string output;
};
inline CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return r;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.output.append(buffer, n);
  const int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

// A temporary directory, removed with its contents at the end of the test.
struct ScratchDir {
  std::filesystem::path dir;
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "kcraft_isa_test_XXXXXX").string();
    dir = mkdtemp(pattern.data());
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = (dir / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
};

}  // namespace kcraft::isa::test
