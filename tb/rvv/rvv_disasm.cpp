#include "tb/rvv/rvv_disasm.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>

#include "isa/rvv/subprocess.h"
#include "isa/rvv/toolchain.h"

namespace kcraft::rvv {

namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "kcraft-rvv-dis-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
      throw std::runtime_error("rvv disassembler: cannot create a temp directory");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

ProcessResult run_checked(const std::vector<std::string>& argv, const fs::path& dir) {
  ProcessResult r = run_process(argv, std::chrono::milliseconds(30000), dir.string());
  if (!r.started || r.timed_out || r.exit_code != 0) {
    throw std::runtime_error(fmt::format("rvv disassembler: {} failed: {}{}",
                                         fs::path(argv[0]).filename().string(), r.error, r.err));
  }
  return r;
}

}  // namespace

std::string objdump_words(const std::vector<uint32_t>& words, uint32_t base, bool canonical) {
  static const std::string clang = find_tool("clang-16", "clang-16");
  static const std::string objdump = find_tool("riscv64-unknown-elf-objdump", "binutils-riscv64-unknown-elf");
  if (words.empty()) return "";
  // The words as data of an object whose arch attribute names the vector extension: objdump decodes by the
  // attribute (a raw binary would show every vector instruction as .4byte).
  std::string source = "  .attribute arch, \"rv32imf_zve32f\"\n  .text\n";
  if (base != 0) source += fmt::format("  .org 0x{:x}\n", base);
  for (uint32_t w : words) source += fmt::format("  .word 0x{:08x}\n", w);
  TempDir dir;
  {
    std::ofstream f(dir.path() / "words.S");
    f << source;
  }
  run_checked(
      {clang, "--target=riscv32-unknown-elf", "-march=rv32imf_zve32f", "-c", "words.S", "-o", "words.o"},
      dir.path());
  std::vector<std::string> command = {objdump, "-d", "words.o"};
  if (canonical) command.insert(command.end(), {"-M", "no-aliases"});
  const ProcessResult r = run_checked(command, dir.path());
  // Only the instruction lines (the header names the temporary file).
  std::string out;
  size_t pos = 0;
  bool skipped_to_code = base == 0;
  while (pos < r.out.size()) {
    const size_t nl = r.out.find('\n', pos);
    const std::string line = r.out.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? r.out.size() : nl + 1;
    static const std::regex insn(R"(^\s*([0-9a-f]+):\s+[0-9a-f]{8}\s.*$)");
    std::smatch m;
    if (!std::regex_match(line, m, insn)) continue;
    if (!skipped_to_code && std::stoul(m[1].str(), nullptr, 16) < base) continue;
    skipped_to_code = true;
    out += line + "\n";
  }
  return out;
}

std::map<uint32_t, std::string> parse_objdump(const std::string& listing) {
  static const std::regex insn(R"(^\s*([0-9a-f]+):\s+([0-9a-f]{8})\s+(.*)$)");
  std::map<uint32_t, std::string> out;
  size_t pos = 0;
  while (pos < listing.size()) {
    const size_t nl = listing.find('\n', pos);
    const std::string line = listing.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? listing.size() : nl + 1;
    std::smatch m;
    if (!std::regex_match(line, m, insn)) continue;
    std::string text = m[3].str();
    for (char& c : text) {
      if (c == '\t') c = ' ';
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out[static_cast<uint32_t>(std::stoul(m[1].str(), nullptr, 16))] = text;
  }
  return out;
}

std::string instruction_text(const std::map<uint32_t, std::string>& listing, uint32_t pc, uint32_t word) {
  const auto it = listing.find(pc);
  return it != listing.end() ? it->second : fmt::format(".word 0x{:08x}", word);
}

}  // namespace kcraft::rvv
