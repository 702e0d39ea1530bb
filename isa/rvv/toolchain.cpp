#include "isa/rvv/toolchain.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <stdexcept>

#include "isa/rvv/rvv_memory_map.h"
#include "isa/rvv/subprocess.h"

namespace kcraft::rvv {

// crt0.S and rvv_memory_map.h, embedded at build time (runtime_files.cpp.in) so the library does not need
// the source tree at run time.
extern const char* const kCrt0Source;
extern const char* const kMemoryMapSource;

namespace {

namespace fs = std::filesystem;

struct Tools {
  std::string clang, lld, objdump;
};

// Looked up once per process; a missing tool throws on every call until it is installed.
const Tools& tools() {
  static const Tools t{find_tool("clang-16", "clang-16"), find_tool("ld.lld-16", "lld-16"),
                       find_tool("riscv64-unknown-elf-objdump", "binutils-riscv64-unknown-elf")};
  return t;
}

// Only builds that ask for GNU as need it.
const std::string& gnu_as() {
  static const std::string path = find_tool("riscv64-unknown-elf-as", "binutils-riscv64-unknown-elf");
  return path;
}

// A fresh directory under $TMPDIR, removed with everything in it when this goes out of scope.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "kcraft-rvv-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("rvv toolchain: cannot create a temp directory");
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

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("rvv toolchain: cannot write " + path.string());
}

std::vector<uint8_t> read_file(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// -march names the minimum VLEN (Zvl<VLEN>b): the core's real one, and what lets clang 16 auto-vectorize
// for RVV at all (without it the cost model rejects scalable vectors; -mllvm
// -riscv-v-vector-bits-min=<VLEN> gives the same code, -mrvv-vector-bits is clang 17+).
std::string march(int vlen) {
  return fmt::format("-march=rv32imf_zve32f_zvl{}b", vlen);
}

std::vector<std::string> compiler(const std::string& clang, int vlen) {
  return {clang,
          "--target=riscv32-unknown-elf",
          march(vlen),
          "-mabi=ilp32f",
          "-ffreestanding",
          "-nostdlib",
          "-fno-color-diagnostics",
          "-fno-exceptions",
          "-fno-unwind-tables",
          "-fno-asynchronous-unwind-tables",
          "-I."};
}

isa::Severity parse_severity(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "warning") return isa::Severity::kWarning;
  if (s == "note" || s == "info") return isa::Severity::kNote;
  return isa::Severity::kError;
}

// Runs one tool; a failure to start or a timeout becomes an error diagnostic.
bool run_tool(const std::vector<std::string>& argv, const BuildOptions& options, const fs::path& dir,
              const std::string& temp_name, BuiltKernel& out, std::string* stdout_text = nullptr) {
  ProcessResult r = run_process(argv, options.timeout, dir.string());
  out.log += r.err;
  if (!r.started || r.timed_out) out.reproducible = false;
  if (!r.started) {
    out.diagnostics.push_back({"", 0, 0, isa::Severity::kError, r.error});
    return false;
  }
  if (r.timed_out) {
    out.diagnostics.push_back({"", 0, 0, isa::Severity::kError,
                               fmt::format("{} did not finish within {} ms",
                                           fs::path(argv[0]).filename().string(), options.timeout.count())});
    return false;
  }
  auto diags = parse_diagnostics(r.err, temp_name, fs::path(options.file_name).filename().string());
  const bool ok = r.exit_code == 0 && r.signal == 0;
  if (!ok && std::none_of(diags.begin(), diags.end(),
                          [](const ToolDiagnostic& d) { return d.severity == isa::Severity::kError; })) {
    diags.push_back(
        {"", 0, 0, isa::Severity::kError,
         fmt::format("{} failed ({}){}", fs::path(argv[0]).filename().string(),
                     r.signal ? signal_name(r.signal) : "exit code " + std::to_string(r.exit_code),
                     r.err.empty() ? "" : ": " + r.err)});
  }
  out.diagnostics.insert(out.diagnostics.end(), diags.begin(), diags.end());
  if (stdout_text) *stdout_text = std::move(r.out);
  return ok;
}

bool inside(uint64_t begin, uint64_t end, uint64_t base, uint64_t bytes) {
  return begin >= base && end <= base + bytes;
}

// Splits the linked program into the ITCM image and the data segments; a segment anywhere else is an
// error (the linker script puts everything in ITCM or DTCM, but a kernel can name its own sections).
bool place_segments(BuiltKernel& out) {
  uint32_t code_end = RVV_ITCM_BASE;
  for (const auto& s : out.elf.segments) {
    const uint64_t end = static_cast<uint64_t>(s.address) + s.mem_bytes;
    const bool in_itcm = inside(s.address, end, RVV_ITCM_BASE, RVV_ITCM_BYTES);
    const bool in_dtcm = inside(s.address, end, RVV_DATA_ADDR, RVV_STACK_TOP - RVV_DATA_ADDR);
    if (s.executable && in_itcm) {
      code_end = std::max<uint32_t>(code_end, static_cast<uint32_t>(end));
    } else if (!s.executable && in_dtcm) {
      DataSegment d{s.address, s.data};
      d.bytes.resize(s.mem_bytes, 0);
      out.data.push_back(std::move(d));
    } else {
      out.diagnostics.push_back(
          {"", 0, 0, isa::Severity::kError,
           fmt::format("a {} segment at 0x{:08x}..0x{:08x} is outside {}", s.executable ? "code" : "data",
                       s.address, end, s.executable ? "the ITCM" : "the DTCM data area")});
      return false;
    }
  }
  std::vector<uint8_t> bytes((code_end - RVV_ITCM_BASE + 3) / 4 * 4, 0);
  for (const auto& s : out.elf.segments) {
    if (!s.executable) continue;
    std::copy(s.data.begin(), s.data.end(), bytes.begin() + (s.address - RVV_ITCM_BASE));
  }
  out.itcm.resize(bytes.size() / 4);
  for (size_t i = 0; i < out.itcm.size(); ++i) {
    out.itcm[i] =
        bytes[4 * i] | bytes[4 * i + 1] << 8 | bytes[4 * i + 2] << 16 | uint32_t{bytes[4 * i + 3]} << 24;
  }
  return true;
}

}  // namespace

std::string find_tool(const std::string& name, const std::string& package) {
  std::string path = find_in_path(name);
  if (path.empty()) {
    throw std::runtime_error(
        fmt::format("rvv: {} is not in PATH; install the Debian package {} (apt-get install {})", name,
                    package, package));
  }
  return path;
}

const std::string& toolchain_versions() {
  static const std::string versions = [] {
    std::string text;
    for (const char* tool :
         {"clang-16", "ld.lld-16", "riscv64-unknown-elf-as", "riscv64-unknown-elf-objdump", "qemu-riscv32"}) {
      const std::string path = find_in_path(tool);
      std::string line = "missing";
      if (!path.empty()) {
        const ProcessResult r = run_process({path, "--version"}, std::chrono::milliseconds(20000));
        line = r.out.substr(0, r.out.find('\n'));
        if (!r.started || r.timed_out) line = "unknown";
      }
      text += fmt::format("{}: {}\n", tool, line);
    }
    return text;
  }();
  return versions;
}

std::string linker_script() {
  return fmt::format(
      "/* kcraft rvv: generated from rvv_memory_map.h. */\n"
      "OUTPUT_ARCH(riscv)\n"
      "ENTRY(_start)\n"
      "MEMORY {{\n"
      "  ITCM (rx) : ORIGIN = 0x{:08x}, LENGTH = 0x{:x}\n"
      "  DTCM (rw) : ORIGIN = 0x{:08x}, LENGTH = 0x{:x}\n"
      "}}\n"
      "SECTIONS {{\n"
      "  .text : {{ KEEP(*(.text.crt0)) *(.text .text.*) }} > ITCM\n"
      "  .rodata : {{ *(.rodata .rodata.* .srodata .srodata.*) }} > DTCM\n"
      "  .data : {{ *(.data .data.* .sdata .sdata.*) }} > DTCM\n"
      "  .bss (NOLOAD) : {{ . = ALIGN(4); __bss_start = .; *(.bss .bss.* .sbss .sbss.* COMMON) . = ALIGN(4); "
      "__bss_end = .; }} > DTCM\n"
      "  __stack_top = 0x{:08x};\n"
      "  /DISCARD/ : {{ *(.comment) *(.note .note.*) *(.eh_frame .eh_frame_hdr) }}\n"
      "}}\n",
      RVV_ITCM_BASE, RVV_ITCM_BYTES, RVV_DATA_ADDR, RVV_STACK_TOP - RVV_DATA_ADDR, RVV_STACK_TOP);
}

namespace {

// A line or column number as the tools print it; absurdly long ones (never printed by a real tool) stop at
// INT_MAX rather than overflowing.
int bounded_number(const std::string& digits) {
  long long value = 0;
  for (char c : digits) {
    value = value * 10 + (c - '0');
    if (value > std::numeric_limits<int>::max()) return std::numeric_limits<int>::max();
  }
  return static_cast<int>(value);
}

}  // namespace

std::vector<ToolDiagnostic> parse_diagnostics(const std::string& text, const std::string& temp_name,
                                              const std::string& user_name) {
  // clang: "file:line:col: severity: message"; GNU as: "file:line: Error: message"; lld: "ld.lld: error: ..."
  static const std::regex located(
      R"(^(.+?):(\d+):(?:(\d+):)? ?(fatal error|error|warning|note|Error|Warning|Fatal error|Info): (.*)$)");
  static const std::regex tool(R"(^(?:\S*ld\.lld\S*|\S*clang\S*): (error|warning|note): (.*)$)");
  const std::string temp_dir = fs::path(temp_name).has_parent_path()
                                   ? fs::path(temp_name).parent_path().string() + "/"
                                   : std::string();
  std::vector<ToolDiagnostic> out;
  std::string line;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
    std::smatch m;
    if (std::regex_match(line, m, located)) {
      ToolDiagnostic d;
      std::string file = m[1].str();
      if (file.rfind("./", 0) == 0) file = file.substr(2);
      // The kernel is the user's file; the other files of the build directory (the symbol header, crt0)
      // go by their own names, never by the temporary path.
      if (file == temp_name) {
        file = user_name;
      } else if (!temp_dir.empty() && file.rfind(temp_dir, 0) == 0) {
        file = fs::path(file).filename().string();
      }
      d.file = file;
      d.line = bounded_number(m[2].str());
      d.column = m[3].matched ? bounded_number(m[3].str()) : 0;
      d.severity = parse_severity(m[4].str());
      d.message = m[5].str();
      out.push_back(std::move(d));
    } else if (std::regex_match(line, m, tool)) {
      out.push_back({"", 0, 0, parse_severity(m[1].str()), m[2].str()});
    } else if (line.rfind(">>> ", 0) == 0 && !out.empty()) {
      out.back().message += "; " + line.substr(4);  // lld's "referenced by" lines
    }
  }
  return out;
}

std::string format_diagnostics(const std::vector<ToolDiagnostic>& diagnostics) {
  std::string out;
  for (const auto& d : diagnostics) {
    std::string where = d.file;
    if (d.line > 0) where += fmt::format(":{}", d.line);
    if (d.column > 0) where += fmt::format(":{}", d.column);
    out += fmt::format("{}{}: {}\n", where.empty() ? "" : where + ": ", isa::severity_name(d.severity),
                       d.message);
  }
  return out;
}

namespace {

// crt0.o depends only on the VLEN (its -march) and the tools: assembled once per process and VLEN, then
// copied into each build's directory (it was half of a C kernel's build time: three LLVM processes).
std::mutex& crt0_mutex() {
  static std::mutex m;
  return m;
}

bool place_crt0(const BuildOptions& options, const fs::path& dir, const std::string& name, BuiltKernel& out) {
  static std::map<int, std::vector<uint8_t>> objects;
  {
    std::lock_guard<std::mutex> lock(crt0_mutex());
    if (const auto it = objects.find(options.vlen); it != objects.end()) {
      write_file(dir / "crt0.o", std::string(it->second.begin(), it->second.end()));
      return true;
    }
  }
  std::vector<std::string> crt0 = compiler(tools().clang, options.vlen);
  crt0.insert(crt0.end(), {"-x", "assembler-with-cpp", "-c", "crt0.S", "-o", "crt0.o"});
  if (!run_tool(crt0, options, dir, name, out)) return false;
  std::lock_guard<std::mutex> lock(crt0_mutex());
  objects.emplace(options.vlen, read_file(dir / "crt0.o"));
  return true;
}

// The last builds of this process, by everything that decides them: an evaluation on several seeds, a
// compiler baseline asked for again, a tuner revisiting a point, build once. Only results the source
// decided are kept (a tool that timed out or could not start is tried again).
class BuildMemo {
 public:
  static std::string key(const std::string& source, const BuildOptions& o) {
    std::string k =
        fmt::format("{}\n{}\n{}\n{}\n{}\n{}\n{}\n", o.language, fs::path(o.file_name).filename().string(),
                    o.vlen, o.opt_level, o.auto_vectorize, o.gnu_assembler, o.debug_lines);
    for (const auto& f : o.extra_flags) k += f + '\n';
    k += fmt::format("{}\n{}\n{}\n{}", o.symbols_header.size(), o.symbols_header, source.size(), source);
    return k;
  }
  std::optional<BuiltKernel> find(const std::string& k) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first != k) continue;
      entries_.splice(entries_.begin(), entries_, it);  // most recently used first
      return entries_.front().second;
    }
    return std::nullopt;
  }
  void add(std::string k, const BuiltKernel& built) {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.emplace_front(std::move(k), built);
    if (entries_.size() > kCapacity) entries_.pop_back();
  }

 private:
  static constexpr size_t kCapacity = 16;
  std::mutex mutex_;
  std::list<std::pair<std::string, BuiltKernel>> entries_;
};

BuildMemo& build_memo() {
  static BuildMemo memo;
  return memo;
}

BuiltKernel build_kernel_uncached(const std::string& source, const BuildOptions& options);

}  // namespace

BuiltKernel build_kernel(const std::string& source, const BuildOptions& options) {
  if (options.language != "c" && options.language != "asm") {
    throw std::invalid_argument("rvv toolchain: language must be \"c\" or \"asm\", not \"" +
                                options.language + "\"");
  }
  if (options.vlen < 128 || options.vlen > 1024 || (options.vlen & (options.vlen - 1)) != 0) {
    throw std::invalid_argument(
        fmt::format("rvv toolchain: VLEN {} is not a power of two in [128, 1024]", options.vlen));
  }
  std::string k = BuildMemo::key(source, options);
  if (auto built = build_memo().find(k)) return std::move(*built);
  BuiltKernel built = build_kernel_uncached(source, options);
  if (built.reproducible) build_memo().add(std::move(k), built);
  return built;
}

namespace {

// The line table's rows of `objdump --dwarf=decodedline --wide`: "kernel.c   12   0x1c   3   x" (file, line,
// starting address, view, statement). A row of another file, of line 0 or ending a sequence ("-") maps
// to 0. Of rows at one address the last counts (the one the following instructions run under).
std::map<uint32_t, int> line_rows_of(const std::string& listing, const std::string& kernel_name) {
  static const std::regex row(R"(^(\S+)\s+(\d+|-)\s+(0x[0-9a-f]+|\d+)(\s+\d+)?(\s+x)?\s*$)");
  std::map<uint32_t, int> rows;
  size_t pos = 0;
  while (pos < listing.size()) {
    const size_t nl = listing.find('\n', pos);
    const std::string line = listing.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? listing.size() : nl + 1;
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    const auto address = static_cast<uint32_t>(std::stoul(m[3].str(), nullptr, 0));
    if (m[2].str() == "-") {
      rows.emplace(address, 0);  // a sequence's end never hides the next sequence's first row
      continue;
    }
    rows[address] = fs::path(m[1].str()).filename() == kernel_name ? bounded_number(m[2].str()) : 0;
  }
  return rows;
}

}  // namespace

int source_line_at(const std::map<uint32_t, int>& rows, uint32_t pc, bool exact) {
  auto it = rows.upper_bound(pc);
  if (it == rows.begin()) return 0;
  --it;
  return exact && it->first != pc ? 0 : it->second;
}

namespace {

BuiltKernel build_kernel_uncached(const std::string& source, const BuildOptions& options) {
  const Tools& t = tools();
  BuiltKernel out;
  TempDir dir;
  // The source keeps the user's file name (diagnostics name it), unless it would clash with ours.
  std::string name = fs::path(options.file_name).filename().string();
  static const std::vector<std::string> ours = {"crt0.S",  "crt0.o",   "rvv_memory_map.h", "kcraft_symbols.h",
                                                "link.ld", "kernel.o", "kernel.elf",       "kernel.i.s"};
  if (name.empty() || name == "." || name == ".." ||
      std::find(ours.begin(), ours.end(), name) != ours.end()) {
    name = options.language == "c" ? "kernel.c" : "kernel.S";
  }
  write_file(dir.path() / name, source);
  write_file(dir.path() / "crt0.S", kCrt0Source);
  write_file(dir.path() / "rvv_memory_map.h", kMemoryMapSource);
  write_file(dir.path() / "link.ld", linker_script());
  if (!options.symbols_header.empty()) write_file(dir.path() / "kcraft_symbols.h", options.symbols_header);

  if (!place_crt0(options, dir.path(), name, out)) return out;

  std::vector<std::string> cc = compiler(t.clang, options.vlen);
  if (!options.symbols_header.empty()) cc.insert(cc.end(), {"-include", "kcraft_symbols.h"});
  const bool gnu = options.language == "asm" && options.gnu_assembler;
  if (options.language == "c") {
    cc.insert(cc.end(), {"-x", "c", "-std=gnu11", "-Wall", options.opt_level});
    if (!options.auto_vectorize) cc.insert(cc.end(), {"-fno-vectorize", "-fno-slp-vectorize"});
  } else {
    cc.insert(cc.end(), {"-x", "assembler-with-cpp"});
  }
  cc.insert(cc.end(), options.extra_flags.begin(), options.extra_flags.end());
  if (options.debug_lines && !gnu) cc.push_back("-g");
  if (gnu) {
    // The preprocessor's line markers carry the source's file names and lines through to GNU as's messages.
    cc.insert(cc.end(), {"-E", name, "-o", "kernel.i.s"});
    if (!run_tool(cc, options, dir.path(), name, out)) return out;
    std::vector<std::string> as = {gnu_as(), march(options.vlen), "-mabi=ilp32f", "kernel.i.s",
                                   "-o",     "kernel.o"};
    if (options.debug_lines) as.push_back("-g");
    if (!run_tool(as, options, dir.path(), name, out)) {
      return out;
    }
  } else {
    cc.insert(cc.end(), {"-c", name, "-o", "kernel.o"});
    if (!run_tool(cc, options, dir.path(), name, out)) return out;
  }

  if (!run_tool({t.lld, "-m", "elf32lriscv", "-T", "link.ld", "crt0.o", "kernel.o", "-o", "kernel.elf"},
                options, dir.path(), name, out)) {
    return out;
  }
  try {
    out.elf = read_elf32(read_file(dir.path() / "kernel.elf"));
  } catch (const std::exception& e) {
    out.diagnostics.push_back({"", 0, 0, isa::Severity::kError, std::string("linked program: ") + e.what()});
    return out;
  }
  out.entry = out.elf.entry;
  if (!place_segments(out)) return out;
  out.ok = run_tool({t.objdump, "-d", "kernel.elf"}, options, dir.path(), name, out, &out.disassembly);
  if (out.ok && options.debug_lines) {
    std::string listing;
    out.ok = run_tool({t.objdump, "--dwarf=decodedline", "--wide", "kernel.elf"}, options, dir.path(), name,
                      out, &listing);
    out.line_rows = line_rows_of(listing, name);
  }
  return out;
}

}  // namespace

}  // namespace kcraft::rvv
