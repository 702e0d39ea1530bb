#include "isa/vliw/random_program.h"

#include <optional>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "isa/common/assembler.h"

namespace kcraft::vliw {
namespace {

// r8..r15 hold base addresses and DMA operands and are never written by random scalar ops; r1..r7 are
// scratch. p0..p7 walk a window of DM rows around their bases.
constexpr unsigned kWindowRows = 64;

class Generator {
 public:
  Generator(const Params& p, uint64_t seed, const RandomProgramOptions& options)
      : p_(p), rng_(seed), options_(options) {}

  RandomProgram make() {
    RandomProgram out;
    out.dram = random_dram();
    prologue();
    const bool fault = chance(options_.fault_rate);
    const unsigned fault_at = fault ? pick(options_.bundles) : options_.bundles + 1;
    unsigned depth = 0;
    std::vector<unsigned> loop_left;  // bundles left in each open loop body
    for (unsigned n = 0; n < options_.bundles; ++n) {
      if (n == fault_at) emit_fault();
      if (depth < 2 && chance(0.04)) {
        const unsigned body = 2 + pick(6);
        line(fmt::format("C_LOOPI {}, L{}", 1 + pick(4), labels_));
        loop_labels_.push_back(labels_++);
        loop_left.push_back(body);
        ++depth;
      }
      if (chance(0.05)) {
        dma();
      } else {
        bundle();
      }
      // Close loops whose body is complete, innermost first; an enclosing body gets one more bundle after
      // its inner one ends (an inner body must end strictly before its enclosing body).
      for (size_t k = 0; k < loop_left.size(); ++k) --loop_left[k];
      while (!loop_left.empty() && loop_left.back() == 0) {
        line(fmt::format("L{}:", loop_labels_.back()));
        loop_labels_.pop_back();
        loop_left.pop_back();
        --depth;
        bundle();
        for (unsigned& left : loop_left) left = std::max(left, 1u);
      }
    }
    while (!loop_labels_.empty()) {
      bundle();
      line(fmt::format("L{}:", loop_labels_.back()));
      loop_labels_.pop_back();
      bundle();
    }
    epilogue();
    out.source = text_;
    isa::SymbolTable symbols = p_.symbols();
    const isa::AssembleResult a = isa::assemble(isa::vliw::spec(), text_, "random.s", symbols);
    if (!a.ok) {
      throw std::logic_error("random_program: the generated program does not assemble:\n" +
                             isa::format_diagnostics(a, text_));
    }
    out.words = a.words;
    return out;
  }

 private:
  bool chance(double probability) { return std::uniform_real_distribution<double>(0, 1)(rng_) < probability; }
  unsigned pick(unsigned n) { return static_cast<unsigned>(rng_() % n); }
  void line(const std::string& text) { text_ += text + "\n"; }

  std::vector<uint8_t> random_dram() {
    static const uint16_t kSpecials[] = {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x0001, 0x8040, 0x3F80};
    std::vector<uint8_t> dram(options_.dram_bytes);
    for (size_t i = 0; i + 1 < dram.size(); i += 2) {
      uint16_t value;
      if (chance(0.03)) {
        value = kSpecials[pick(8)];
      } else {
        // Moderate magnitudes (exponent 0x78..0x87) with random sign and significand.
        value = static_cast<uint16_t>((pick(2) << 15) | ((0x78 + pick(16)) << 7) | pick(128));
      }
      dram[i] = static_cast<uint8_t>(value);
      dram[i + 1] = static_cast<uint8_t>(value >> 8);
    }
    return dram;
  }

  // A row in the window of pointer k, far enough from DM's edges for a few hundred row steps.
  unsigned base_of(unsigned k) const { return (k * kWindowRows / 8 + kWindowRows) * p_.row_bytes(); }

  void prologue() {
    const unsigned rows = 2 * kWindowRows;
    line(fmt::format("S_LI r8, {}", base_of(0) - kWindowRows / 2 * p_.row_bytes()));
    line(fmt::format("S_LI r9, {}", pick(64) * 2));
    line("S_LI r10, ROW_BYTES");
    line(fmt::format("S_LI r11, {}", rows));
    line("C_DMALD 0, r8, r9, r10, r11, 15");
    line("C_ACQ 15");
    for (unsigned k = 0; k < 8; ++k) {
      line(fmt::format("S_LI r{}, {}", 12 + k % 4, base_of(k)));
      line(fmt::format("S_PMOV p{}, r{}", k, 12 + k % 4));
    }
    for (unsigned k = 0; k < 4; ++k) line(fmt::format("S_LI r{}, {}", 12 + k, base_of(2 * k)));
    for (unsigned k = 1; k < 8; ++k) line(fmt::format("S_LI r{}, {}", k, rng_() & 0xFFFF));
  }

  void epilogue() {
    line("S_LI r11, 4");
    line(fmt::format("S_LI r9, {}", options_.dram_bytes / 2));
    line("C_DMAST 1, r8, r9, r10, r11");
    line("C_HALT");
  }

  std::string vreg() { return fmt::format("v{}", pick(kVectorRegisters)); }
  std::string areg() { return fmt::format("a{}", pick(kAccumulators)); }
  std::string rreg() { return fmt::format("r{}", pick(kScalarRegisters)); }
  std::string rdest() { return fmt::format("r{}", 1 + pick(7)); }
  std::string inc() {
    const int steps[] = {0, 1, -1, 1, 2};
    return std::to_string(steps[pick(5)] * static_cast<int>(p_.row_bytes()));
  }

  std::string ls_op(unsigned pointer) {
    const std::string ptr = fmt::format("p{}", pointer);
    switch (pick(5)) {
      case 0:
        return fmt::format("L_VLD {}, {}, {}", vreg(), ptr, inc());
      case 1:
        return fmt::format("L_VST {}, {}, {}", vreg(), ptr, inc());
      case 2:
        return fmt::format("L_VLDB {}, {}, {}", vreg(), ptr, inc());
      case 3:
        return fmt::format("L_SLD {}, {}, {}", rdest(), ptr, inc());
      default:
        return fmt::format("L_SST {}, {}, {}", rreg(), ptr, inc());
    }
  }

  std::string vec_op() {
    static const char* const kVvv[] = {"V_ADD", "V_SUB", "V_MUL", "V_MAX", "V_MIN"};
    static const char* const kAvv[] = {"A_VMUL", "A_VMAC", "A_MMUL", "A_MMAC"};
    static const char* const kAaa[] = {"A_ADD", "A_SUB", "A_MUL", "A_MAX"};
    static const char* const kAa[] = {"A_EXP", "A_RECI", "A_RSQRT", "A_RSUM", "A_RMAX"};
    switch (pick(10)) {
      case 0:
        return fmt::format("{} {}, {}, {}", kVvv[pick(5)], vreg(), vreg(), vreg());
      case 1:
      case 2:
        return fmt::format("{} {}, {}, {}", kAvv[pick(4)], areg(), vreg(), vreg());
      case 3:
        return fmt::format("{} {}, {}, {}", kAaa[pick(4)], areg(), areg(), areg());
      case 4:
        return fmt::format("{} {}, {}", kAa[pick(5)], areg(), areg());
      case 5:
        return fmt::format("V_SHUF {}, {}, {}, {}", vreg(), vreg(), vreg(), pick(4));
      case 6:
        return pick(2) == 0 ? fmt::format("V_ALIGN {}, {}, {}, {}", vreg(), vreg(), vreg(), pick(64))
                            : fmt::format("V_BCL {}, {}, {}", vreg(), vreg(), pick(64));
      case 7:
        return pick(2) == 0 ? fmt::format("V_RMAX {}, {}", vreg(), vreg())
                            : fmt::format("V_SRS {}, {}", vreg(), areg());
      case 8:
        return fmt::format("A_UPS {}, {}", areg(), vreg());
      default:
        return pick(2) == 0 ? fmt::format("V_BCST {}, {}", vreg(), rreg())
                            : fmt::format("A_BCST {}, {}", areg(), rreg());
    }
  }

  std::string scl_op(unsigned avoid_pointer_a, unsigned avoid_pointer_b) {
    static const char* const kRrr[] = {"S_ADD", "S_SUB", "S_MUL", "S_AND", "S_OR", "S_XOR", "S_SLL", "S_SRL"};
    switch (pick(6)) {
      case 0:
      case 1:
        return fmt::format("{} {}, {}, {}", kRrr[pick(8)], rdest(), rreg(), rreg());
      case 2:
        return fmt::format("S_ADDI {}, {}, {}", rdest(), rreg(), static_cast<int>(pick(2001)) - 1000);
      case 3:
        return fmt::format("S_PGET {}, p{}", rdest(), pick(8));
      default: {
        // Pointer moves on a pointer no load/store of this bundle uses (two writes would collide).
        unsigned k = pick(8);
        while (k == avoid_pointer_a || k == avoid_pointer_b) k = (k + 1) % 8;
        return pick(2) == 0 ? fmt::format("S_PMOV p{}, r{}", k, 12 + pick(4))
                            : fmt::format("S_PADDI p{}, {}", k,
                                          (static_cast<int>(pick(5)) - 2) * static_cast<int>(p_.row_bytes()));
      }
    }
  }

  // One random bundle; drawn again when the assembler would reject it (two ops writing one register).
  void bundle() {
    for (int attempt = 0; attempt < 20; ++attempt) {
      const std::string text = draw_bundle();
      if (isa::assemble(isa::vliw::spec(), text + "\n", "bundle.s", p_.symbols()).ok) {
        line(text);
        commit_locks();
        return;
      }
      draft_release_.reset();
      draft_acquire_ = false;
    }
    line("C_NOP");
  }

  // Locks: a C_ACQ only takes a release made at the same loop nesting (the same loop bodies), so every
  // acquire has its release on every path and no random program deadlocks.
  void commit_locks() {
    if (draft_release_) pending_release_.push_back({*draft_release_, loop_labels_});
    if (draft_acquire_) pending_release_.pop_back();
    draft_release_.reset();
    draft_acquire_ = false;
  }

  std::string draw_bundle() {
    std::vector<std::string> ops;
    unsigned first = 8, second = 8;
    if (chance(0.6)) {
      first = pick(8);
      ops.push_back(ls_op(first));
      if (chance(0.5)) {
        second = (first + 1 + pick(7)) % 8;
        ops.push_back(ls_op(second));
      }
    }
    if (chance(0.7)) ops.push_back(vec_op());
    if (chance(0.5)) ops.push_back(scl_op(first, second));
    if (chance(0.1)) {
      draft_release_ = pick(4);
      ops.push_back(fmt::format("C_REL {}", *draft_release_));
    } else if (!pending_release_.empty() && pending_release_.back().second == loop_labels_ && chance(0.3)) {
      ops.push_back(fmt::format("C_ACQ {}", pending_release_.back().first));
      draft_acquire_ = true;
    }
    if (ops.empty()) ops.push_back("C_NOP");
    return ops.size() == 1 ? ops[0] : fmt::format("{{ {} }}", fmt::join(ops, " ; "));
  }

  // A DMA transfer of a few rows between DRAM and the window, releasing a lock the program may acquire.
  void dma() {
    const unsigned rows = 1 + pick(4);
    line(fmt::format("S_LI r9, {}", pick(static_cast<unsigned>(options_.dram_bytes / 2 / 64)) * 64));
    line(fmt::format("S_LI r11, {}", rows));
    const unsigned lock = 4 + pick(4);
    line(fmt::format("{} {}, r{}, r9, r10, r11, {}", pick(2) == 0 ? "C_DMALD" : "C_DMAST",
                     pick(p_.dma_channels), 12 + pick(4), lock));
    if (chance(0.5)) line(fmt::format("C_ACQ {}", lock));
  }

  void emit_fault() {
    if (pick(2) == 0) {
      line(".word 0x8000007F");
    } else {
      line(fmt::format("S_LI r7, {}", p_.dm_bytes));
      line("S_PMOV p0, r7");
      line("L_VLD v0, p0");
    }
  }

  const Params& p_;
  std::mt19937_64 rng_;
  RandomProgramOptions options_;
  std::string text_;
  unsigned labels_ = 0;
  std::vector<unsigned> loop_labels_;
  std::vector<std::pair<unsigned, std::vector<unsigned>>>
      pending_release_;  // lock, loops open at the release
  std::optional<unsigned> draft_release_;
  bool draft_acquire_ = false;
};

}  // namespace

RandomProgram random_program(const Params& params, uint64_t seed, const RandomProgramOptions& options) {
  RandomProgram program = Generator(params, seed, options).make();
  program.seed = seed;
  return program;
}

}  // namespace kcraft::vliw
