// kcraft_isagen: validates isa/<platform>.yaml and generates the C++ tables, the SystemVerilog package and
// the Markdown reference; also turns hardware configurations into Verilator parameter files.
//
//   kcraft_isagen generate <isa.yaml> <out-dir> [--source-name isa/systolic.yaml] [--stamp FILE]
//   kcraft_isagen check <isa.yaml>
//   kcraft_isagen verilator-args <hwconfig.yaml> <out.vc>
//   kcraft_isagen host-regs <host_regs.yaml> --sv <pkg.sv> --cpp <regs.h> [--source-name ...] [--stamp FILE]
// Exit status: 0 success, 2 invalid input (every problem is printed as file:line:col: error: ...), 1 I/O.
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "isa/tools/emitters.h"
#include "isa/tools/host_regs.h"
#include "isa/tools/hwconfig.h"
#include "isa/tools/spec_loader.h"

namespace {

using kcraft::isa::gen::load_isa_spec;
using kcraft::isa::gen::write_if_changed;

int report_errors(const std::vector<std::string>& errors) {
  for (const std::string& e : errors) std::cerr << e << "\n";
  std::cerr << fmt::format("{} error{}\n", errors.size(), errors.size() == 1 ? "" : "s");
  return 2;  // input error, as for the kcraft CLI
}

int generate(const std::string& yaml, const std::string& out_dir, std::string source_name,
             const std::string& stamp) {
  const auto loaded = load_isa_spec(yaml);
  if (!loaded.spec) return report_errors(loaded.errors);
  const kcraft::isa::IsaSpec& spec = *loaded.spec;
  if (source_name.empty()) source_name = std::filesystem::path(yaml).filename().string();
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) {
    std::cerr << fmt::format("kcraft_isagen: cannot create {}: {}\n", out_dir, ec.message());
    return 1;
  }
  const std::string markdown = kcraft::isa::gen::emit_markdown(spec, source_name);
  const std::vector<std::pair<std::string, std::string>> files = {
      {spec.name + "_isa.h", kcraft::isa::gen::emit_cpp_header(spec, source_name)},
      {spec.name + "_isa_tables.cpp", kcraft::isa::gen::emit_cpp_tables(spec, source_name, markdown)},
      {spec.name + "_isa_pkg.sv", kcraft::isa::gen::emit_sv_package(spec, source_name)},
      {spec.name + ".md", markdown},
  };
  for (const auto& [name, content] : files) {
    std::string error;
    if (!write_if_changed((std::filesystem::path(out_dir) / name).string(), content, &error)) {
      std::cerr << "kcraft_isagen: " << error << "\n";
      return 1;
    }
  }
  if (!stamp.empty()) {
    std::ofstream touch(stamp, std::ios::trunc);
    touch << "generated from " << yaml << "\n";
  }
  return 0;
}

// A host register map (isa/tools/host_regs.h): its SystemVerilog package and C++ header.
int host_regs(const std::string& yaml, const std::string& sv_out, const std::string& cpp_out,
              std::string source_name, const std::string& stamp) {
  if (source_name.empty()) source_name = std::filesystem::path(yaml).filename().string();
  const auto loaded =
      kcraft::isa::gen::load_host_regs(yaml, source_name, std::filesystem::path(sv_out).stem().string());
  if (!loaded.errors.empty()) return report_errors(loaded.errors);
  const std::vector<std::pair<std::string, std::string>> files = {
      {sv_out, kcraft::isa::gen::emit_host_regs_sv(loaded.regs)},
      {cpp_out, kcraft::isa::gen::emit_host_regs_cpp(loaded.regs)},
  };
  for (const auto& [path, content] : files) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    std::string error;
    if (!write_if_changed(path, content, &error)) {
      std::cerr << "kcraft_isagen: " << error << "\n";
      return 1;
    }
  }
  if (!stamp.empty()) {
    std::ofstream touch(stamp, std::ios::trunc);
    touch << "generated from " << yaml << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "kcraft_isagen: generate the ISA tables, SystemVerilog package and reference from isa/<platform>.yaml"};
  app.require_subcommand(1);

  std::string yaml, out_dir, source_name, stamp;
  CLI::App* gen = app.add_subcommand("generate",
                                     "validate the ISA YAML and write <isa>_isa.h, <isa>_isa_tables.cpp, "
                                     "<isa>_isa_pkg.sv and <isa>.md");
  gen->add_option("yaml", yaml, "ISA specification (isa/<platform>.yaml)")->required();
  gen->add_option("out_dir", out_dir, "output directory")->required();
  gen->add_option("--source-name", source_name, "path shown in the 'generated from' comments");
  gen->add_option("--stamp", stamp, "file to write after a successful run (build systems)");

  std::string check_yaml;
  CLI::App* check = app.add_subcommand("check", "validate the ISA YAML only");
  check->add_option("yaml", check_yaml, "ISA specification")->required();

  std::string hwconfig, vc_out;
  CLI::App* vargs = app.add_subcommand("verilator-args", "write one -G<KEY>=<value> line per build: entry");
  vargs->add_option("hwconfig", hwconfig, "hardware configuration YAML")->required();
  vargs->add_option("out", vc_out, "output .vc file")->required();

  std::string regs_yaml, regs_sv, regs_cpp, regs_source, regs_stamp;
  CLI::App* hregs =
      app.add_subcommand("host-regs", "write a host register map's SystemVerilog package and C++ header");
  hregs
      ->add_option("yaml", regs_yaml,
                   "host register map (rtl/common/host_regs.yaml, rtl/<p>/<p>_host_regs.yaml)")
      ->required();
  hregs->add_option("--sv", regs_sv, "the SystemVerilog package to write (its stem names the package)")
      ->required();
  hregs->add_option("--cpp", regs_cpp, "the C++ header to write")->required();
  hregs->add_option("--source-name", regs_source, "path shown in the 'generated from' comments");
  hregs->add_option("--stamp", regs_stamp, "file to write after a successful run (build systems)");

  CLI11_PARSE(app, argc, argv);

  if (gen->parsed()) return generate(yaml, out_dir, source_name, stamp);
  if (hregs->parsed()) return host_regs(regs_yaml, regs_sv, regs_cpp, regs_source, regs_stamp);
  if (check->parsed()) {
    const auto loaded = load_isa_spec(check_yaml);
    if (!loaded.spec) return report_errors(loaded.errors);
    std::cout << fmt::format("{}: ok ({} instructions)\n", check_yaml, loaded.spec->instructions.size());
    return 0;
  }
  const auto args = kcraft::isa::gen::verilator_args_from_hwconfig(hwconfig);
  if (!args.errors.empty()) return report_errors(args.errors);
  std::string error;
  if (!write_if_changed(vc_out, args.text, &error)) {
    std::cerr << "kcraft_isagen: " << error << "\n";
    return 1;
  }
  return 0;
}
