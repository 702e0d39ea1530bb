// Host register maps: rtl/common/host_regs.yaml (the contract every top shares) and
// rtl/<platform>/<platform>_host_regs.yaml (the platform's own selectors, status words and codes) ->
// a SystemVerilog package for the RTL and a C++ header for the testbench, so the two cannot drift.
//
// A file holds an optional `control:` section (control-port spaces and the registers of the register
// space) and `groups:` of named values, each emitted as SystemVerilog localparams and a C++ enum.
// docs/platforms.md §6 describes the format; `kcraft_isagen host-regs` writes the files.
#pragma once

#include <string>
#include <vector>

namespace kcraft::isa::gen {

struct HostRegValue {
  std::string name;      // UPPER_SNAKE: the SystemVerilog name after the group's prefix
  std::string cpp_name;  // the C++ enumerator (default: the group's prefix + CamelCase of name)
  unsigned long long value = 0;
  std::string doc;
};

struct HostRegGroup {
  std::string name;        // the C++ enum's name ("DbgSel")
  std::string doc;         // a comment above both
  std::string sv_prefix;   // "DBG_"
  std::string sv_type;     // "logic [3:0]" (a width-sized literal) or "int unsigned"
  std::string cpp_prefix;  // "kDbg"
  std::string cpp_type = "unsigned";
  std::string cpp_namespace;  // empty: the file's
  bool enum_class = false;
  bool hex = false;                 // values written in hexadecimal
  bool bits = false;                // values are bit positions: C++ masks (1u << n), SV bit indices
  bool sv = true, cpp = true;       // which outputs carry the group
  std::string count_sv, count_cpp;  // optional: the number of values, as SV localparam / C++ enumerator
  std::vector<HostRegValue> values;
};

struct HostRegSpace {
  std::string name;  // "IMEM"
  unsigned value = 0;
  bool indexed = true;  // an indexed space gets a C++ address constant (kCtlImem); the register space not
  std::string doc;
};

struct HostRegs {
  std::string source_name;
  std::string doc;
  std::string sv_package;     // the output file's stem (vliw_pkg.sv -> vliw_pkg), not in the YAML
  std::string cpp_namespace;  // "kcraft::vliw::regs"
  std::vector<std::string> cpp_includes;
  std::vector<std::string> cpp_using;  // namespaces pulled in (`using namespace X;`)
  unsigned space_bits = 4;             // ctl_addr_i[31 -: space_bits] selects the space
  std::string register_space;          // the space holding `registers`
  std::vector<HostRegSpace> spaces;
  std::vector<HostRegValue> registers;
  std::vector<HostRegGroup> groups;
};

struct LoadedHostRegs {
  HostRegs regs;
  std::vector<std::string> errors;  // "file:line:col: error: ..."
};

// `sv_package`: the package's name (the file name the build gives it, rtl/<platform>/ YAML ->
// <platform>_pkg).
LoadedHostRegs load_host_regs(const std::string& path, const std::string& source_name,
                              const std::string& sv_package);
std::string emit_host_regs_sv(const HostRegs& regs);
std::string emit_host_regs_cpp(const HostRegs& regs);

}  // namespace kcraft::isa::gen
