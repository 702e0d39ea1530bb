// Writes random programs and their DRAM images as $readmemh files for tests/systolic/netlist_tb.sv, which
// runs them on the RTL and on yosys's netlist of it side by side (scripts/check_systolic_netlist.sh).
//
//   systolic_netlist_programs <out-dir> <count> KEY=value...   (the hardware parameters, as for the RTL)
//
// Writes <out-dir>/words.hex (IMEM_WORDS words per program, zero-padded) and <out-dir>/dram.hex (the
// DRAM image of each program, bytes), and prints the DRAM size in bytes.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

#include <fmt/format.h>

#include "isa/systolic/random_program.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <out-dir> <count> KEY=value...\n", argv[0]);
    return 2;
  }
  const std::string out_dir = argv[1];
  const int count = std::atoi(argv[2]);
  std::map<std::string, unsigned> values;
  for (int i = 3; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "expected KEY=value, got '%s'\n", arg.c_str());
      return 2;
    }
    values[arg.substr(0, eq)] = static_cast<unsigned>(std::stoul(arg.substr(eq + 1)));
  }
  kcraft::systolic::Params p;
  unsigned has_v_mul_vfv = 0;
  const std::map<std::string, unsigned*> fields = {{"MLEN", &p.mlen},
                                                   {"VLEN", &p.vlen},
                                                   {"BLEN", &p.blen},
                                                   {"IMEM_WORDS", &p.imem_words},
                                                   {"VSRAM_ROWS", &p.vsram_rows},
                                                   {"MSRAM_ROWS", &p.msram_rows},
                                                   {"ACC_ROWS", &p.acc_rows},
                                                   {"FPSRAM_WORDS", &p.fpsram_words},
                                                   {"LOOP_DEPTH", &p.loop_depth},
                                                   {"DMA_SLOTS", &p.dma_slots},
                                                   {"DMA_OUTSTANDING", &p.dma_outstanding},
                                                   {"HAS_V_MUL_VFV", &has_v_mul_vfv}};
  for (const auto& [key, value] : values) {
    const auto it = fields.find(key);
    if (it == fields.end()) {
      std::fprintf(stderr, "unknown parameter %s\n", key.c_str());
      return 2;
    }
    *it->second = value;
  }
  p.has_v_mul_vfv = has_v_mul_vfv != 0;
  // Short programs on a few rows: they fit a small IMEM and hit the interlocks often.
  kcraft::systolic::RandomProgramOptions options;
  options.length = 70;
  options.row_window = 16;
  options.fault_rate = 0.1;
  std::ofstream words(out_dir + "/words.hex");
  std::ofstream dram(out_dir + "/dram.hex");
  size_t dram_bytes = 0;
  for (int s = 0; s < count; ++s) {
    const auto program = kcraft::systolic::random_program(p, 1000 + static_cast<uint64_t>(s), options);
    if (program.words.size() > p.imem_words || (dram_bytes != 0 && program.dram.size() != dram_bytes)) {
      std::fprintf(stderr, "seed %d: %zu words, %zu DRAM bytes do not fit\n", 1000 + s, program.words.size(),
                   program.dram.size());
      return 1;
    }
    dram_bytes = program.dram.size();
    for (size_t i = 0; i < p.imem_words; ++i) {
      words << fmt::format("{:08x}\n", i < program.words.size() ? program.words[i] : 0u);
    }
    for (uint8_t b : program.dram) dram << fmt::format("{:02x}\n", b);
  }
  std::printf("%zu\n", dram_bytes);
  return words && dram ? 0 : 1;
}
