#include "isa/myaccel/random_program.h"

#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "isa/common/assembler.h"

namespace kcraft::myaccel {

namespace {

constexpr unsigned kDramRows = 64;     // the DRAM image: 64 rows
constexpr unsigned kLoopCounter = 15;  // x15 counts loops; nothing else writes it

}  // namespace

RandomProgram random_program(const Params& p, uint64_t seed, unsigned length) {
  std::mt19937_64 rng(seed);
  auto pick = [&](uint64_t n) { return static_cast<unsigned>(rng() % n); };
  const unsigned dram_bytes = kDramRows * p.row_bytes();
  RandomProgram prog;
  prog.dram.resize(dram_bytes);
  for (auto& b : prog.dram) b = static_cast<uint8_t>(rng());

  std::string& s = prog.source;
  auto xreg = [&] { return 1 + pick(14); };  // x1..x14 (x15 is the loop counter)
  auto vreg = [&] { return pick(16); };
  // An address register: a 4-byte aligned address of a whole row inside DRAM.
  auto address = [&](unsigned r) {
    s += fmt::format("LI x{}, {}\n", r, 4 * pick((dram_bytes - p.row_bytes()) / 4 + 1));
  };
  unsigned label = 0;
  const bool faulty = pick(8) == 0;
  const unsigned fault_at = faulty ? pick(length) : length;
  unsigned loop_end = 0;  // instructions left in the open loop's body (0: none open)
  for (unsigned n = 0; n < length; ++n) {
    if (n == fault_at) {
      switch (pick(3)) {
        case 0:
          s += fmt::format("LI x1, {}\nVLD v1, x1\n", 4 * pick(dram_bytes / 4) + 1 + pick(3));
          break;
        case 1:
          s += fmt::format("LI x1, {}\nVST v1, x1\n", dram_bytes - p.row_bytes() + 4 + 4 * pick(p.lanes));
          break;
        default:
          s += fmt::format(".word 0x{:08x}\n", 0x3Fu + (pick(1u << 20) << 12));  // opcode 0x3F is unknown
          break;
      }
      break;
    }
    if (loop_end == 0 && pick(16) == 0) {
      s += fmt::format("LI x{}, {}\nloop{}:\n", kLoopCounter, 1 + pick(3), label);
      loop_end = 2 + pick(6);
    }
    switch (pick(12)) {
      case 0:
        s += fmt::format("LI x{}, {}\n", xreg(), static_cast<int>(pick(1u << 20)) - (1 << 19));
        break;
      case 1:
        s += fmt::format("ADDI x{}, x{}, {}\n", xreg(), pick(15),
                         static_cast<int>(pick(1u << 16)) - (1 << 15));
        break;
      case 2:
        s += fmt::format("ADD x{}, x{}, x{}\n", xreg(), pick(15), pick(15));
        break;
      case 3: {
        const unsigned r = xreg();
        address(r);
        s += fmt::format("VLD v{}, x{}\n", vreg(), r);
        break;
      }
      case 4: {
        const unsigned r = xreg();
        address(r);
        s += fmt::format("VST v{}, x{}\n", vreg(), r);
        break;
      }
      case 5: {
        const unsigned r = xreg();
        s += fmt::format("LI x{}, {}\nVBC v{}, x{}\n", r, 4 * pick(dram_bytes / 4), vreg(), r);
        break;
      }
      case 6:
        s += fmt::format("VSPLAT v{}, x{}\n", vreg(), pick(15));
        break;
      case 7:
        s += fmt::format("VADD v{}, v{}, v{}\n", vreg(), vreg(), vreg());
        break;
      case 8:
        s += fmt::format("VMUL v{}, v{}, v{}\n", vreg(), vreg(), vreg());
        break;
      case 9:
        s += fmt::format("VMAX v{}, v{}, v{}\n", vreg(), vreg(), vreg());
        break;
      default:  // a forward branch over one instruction
        s += fmt::format("BNZ x{}, skip{}\nVSPLAT v{}, x{}\nskip{}:\n", pick(15), n, vreg(), pick(15), n);
        break;
    }
    if (loop_end > 0 && --loop_end == 0) {
      s += fmt::format("ADDI x{0}, x{0}, -1\nBNZ x{0}, loop{1}\n", kLoopCounter, label);
      ++label;
    }
  }
  if (loop_end > 0) s += fmt::format("ADDI x{0}, x{0}, -1\nBNZ x{0}, loop{1}\n", kLoopCounter, label);
  s += "HALT\n";
  isa::SymbolTable symbols = p.symbols();
  const isa::AssembleResult a = isa::assemble(isa::myaccel::spec(), s, "random.s", symbols);
  if (!a.ok) throw std::logic_error("a random program does not assemble:\n" + isa::format_diagnostics(a, s));
  prog.words = a.words;
  return prog;
}

}  // namespace kcraft::myaccel
