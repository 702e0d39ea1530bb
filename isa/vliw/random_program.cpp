#include "isa/vliw/random_program.h"

#include <algorithm>
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

// Locks 8..14 are used by no random op (0..3: C_REL/C_ACQ, 4..7: DMA, 15: the prologue's load), so a
// lock_overflow fault knows where its lock starts.
constexpr unsigned kFreeLockFirst = 8;
constexpr unsigned kFreeLocks = 7;

constexpr uint32_t kEob = 1u << isa::vliw::kEndOfBundle.lsb;

// Loop words the assembler would refuse (nesting, depth, an end inside a bundle): the faults write them
// with .word so that the hardware has to report them. Fields of isa/vliw.yaml: count register s1 at bit 11,
// immediate count cnt12 at bit 7, body length body12 at bit 19.
uint32_t loopi_word(uint32_t count, uint32_t body) {
  return kEob | (body << 19) | (count << 7) | static_cast<uint32_t>(isa::vliw::Op::C_LOOPI);
}
uint32_t loop_word(uint32_t count_register, uint32_t body) {
  return kEob | (body << 19) | (count_register << 11) | static_cast<uint32_t>(isa::vliw::Op::C_LOOP);
}

const isa::InstructionSpec& instruction(const std::string& name) {
  const isa::InstructionSpec* insn = isa::vliw::spec().find_instruction(name);
  if (insn == nullptr || insn->name != name)
    throw std::invalid_argument("random_program: no vliw instruction '" + name + "' to favour");
  return *insn;
}

class Generator {
 public:
  Generator(const Params& p, uint64_t seed, const RandomProgramOptions& options)
      : p_(p),
        rng_(seed),
        options_(options),
        kinds_(options.faults.empty() ? fault_kinds() : options.faults) {
    for (ErrorCode kind : kinds_) {
      if (kind == ErrorCode::kNone || find_error(static_cast<unsigned>(kind)) == nullptr)
        throw std::invalid_argument("random_program: a deliberate fault must be an error kind, not none");
    }
    for (const std::string& name : options_.favoured) {
      const isa::InstructionSpec& insn = instruction(name);
      if (insn.slot == "ls") favoured_ls_.push_back(name);
      if (insn.slot == "vec") favoured_vec_.push_back(name);
      if (insn.slot == "scl") favoured_scl_.push_back(name);
    }
    // Control ops have no operand mix to draw from: favouring one makes its construct more frequent.
    const auto wanted = [&](const char* name) {
      return std::find(options_.favoured.begin(), options_.favoured.end(), name) != options_.favoured.end();
    };
    const bool loop = wanted("C_LOOP"), loopi = wanted("C_LOOPI");
    if (loop || loopi) loop_chance_ = 0.25;
    if (loop != loopi) register_loop_chance_ = loop ? 1.0 : 0.0;
    const bool load = wanted("C_DMALD"), store = wanted("C_DMAST");
    if (load || store) dma_chance_ = 0.25;
    if (load != store) dma_load_chance_ = load ? 1.0 : 0.0;
    if (wanted("C_REL") || wanted("C_ACQ")) release_chance_ = 0.3;
    if (wanted("C_ACQ")) acquire_chance_ = 0.9;
  }

  RandomProgram make() {
    RandomProgram out;
    out.dram = random_dram();
    prologue();
    bool fault_pending = chance(options_.fault_rate);
    const auto first = static_cast<unsigned>(std::clamp(options_.fault_from, 0.0, 1.0) * options_.bundles);
    const unsigned fault_at =
        fault_pending ? first + pick(std::max(options_.bundles - first, 1u)) : options_.bundles;
    const ErrorCode fault_kind =
        fault_pending ? kinds_[pick(static_cast<unsigned>(kinds_.size()))] : ErrorCode::kNone;
    std::vector<unsigned> loop_left;  // bundles left in each open loop body
    for (unsigned n = 0; n < options_.bundles; ++n) {
      // Not inside a loop that runs 0 times: its body never executes.
      if (fault_pending && n >= fault_at && !inside_skipped_loop()) {
        emit_fault(fault_kind);
        fault_pending = false;
      }
      if (loop_labels_.size() < 2 && chance(loop_chance_)) {
        loop_left.push_back(2 + pick(6));
        open_loop();
      }
      if (chance(dma_chance_)) {
        dma();
      } else {
        bundle();
      }
      // Close loops whose body is complete, innermost first; an enclosing body gets one more bundle after
      // its inner one ends (an inner body must end strictly before its enclosing body).
      for (size_t k = 0; k < loop_left.size(); ++k) --loop_left[k];
      while (!loop_left.empty() && loop_left.back() == 0) {
        close_loop();
        loop_left.pop_back();
        bundle();
        for (unsigned& left : loop_left) left = std::max(left, 1u);
      }
    }
    while (!loop_labels_.empty()) {
      bundle();
      close_loop();
      bundle();
    }
    if (fault_pending) emit_fault(fault_kind);
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
  std::string label() { return fmt::format("L{}", labels_++); }
  void word(uint32_t w) { line(fmt::format(".word 0x{:08X}", w)); }

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

  // A hardware loop around the next bundles: half of them C_LOOPI with 1..4 iterations, half C_LOOP with a
  // register count of 0..5 (0 skips the body, with r7 = 0 or r0), the same 2.5 iterations on average.
  void open_loop() {
    const std::string end = label();
    bool skipped = false;
    if (chance(register_loop_chance_)) {
      const unsigned count = pick(6);
      skipped = count == 0;
      if (count == 0 && chance(0.5)) {
        line(fmt::format("C_LOOP r0, {}", end));
      } else {
        line(fmt::format("S_LI r7, {}", count));  // scalar results land in the next bundle
        line(fmt::format("C_LOOP r7, {}", end));
      }
    } else {
      line(fmt::format("C_LOOPI {}, {}", 1 + pick(4), end));
    }
    loop_labels_.push_back(labels_ - 1);
    loop_skipped_.push_back(skipped);
  }

  void close_loop() {
    line(fmt::format("L{}:", loop_labels_.back()));
    loop_labels_.pop_back();
    loop_skipped_.pop_back();
  }

  bool inside_skipped_loop() const {
    return std::find(loop_skipped_.begin(), loop_skipped_.end(), true) != loop_skipped_.end();
  }

  std::string vreg() { return fmt::format("v{}", pick(kVectorRegisters)); }
  std::string areg() { return fmt::format("a{}", pick(kAccumulators)); }
  std::string rreg() { return fmt::format("r{}", pick(kScalarRegisters)); }
  std::string rdest() { return fmt::format("r{}", 1 + pick(7)); }
  std::string inc() {
    const int steps[] = {0, 1, -1, 1, 2};
    return std::to_string(steps[pick(5)] * static_cast<int>(p_.row_bytes()));
  }
  // A shift amount: the edges 0 and 31 as often as any other value together.
  unsigned shamt() {
    switch (pick(4)) {
      case 0:
        return 0;
      case 1:
        return 31;
      default:
        return pick(32);
    }
  }

  // With probability 1/2, one of `favoured` (when there is one) instead of the default mix.
  std::optional<std::string> favoured(const std::vector<std::string>& names) {
    if (names.empty() || !chance(0.5)) return std::nullopt;
    return names[pick(static_cast<unsigned>(names.size()))];
  }

  std::string ls_op(unsigned pointer) {
    static const char* const kLs[] = {"L_VLD", "L_VST", "L_VLDB", "L_SLD", "L_SST"};
    const std::string name = favoured(favoured_ls_).value_or(kLs[pick(5)]);
    const std::string ptr = fmt::format("p{}", pointer);
    if (name == "L_SLD") return fmt::format("L_SLD {}, {}, {}", rdest(), ptr, inc());
    if (name == "L_SST") return fmt::format("L_SST {}, {}, {}", rreg(), ptr, inc());
    return fmt::format("{} {}, {}, {}", name, vreg(), ptr, inc());
  }

  std::string default_vec_name() {
    static const char* const kVvv[] = {"V_ADD", "V_SUB", "V_MUL", "V_MAX", "V_MIN"};
    static const char* const kAvv[] = {"A_VMUL", "A_VMAC", "A_MMUL", "A_MMAC"};
    static const char* const kAaa[] = {"A_ADD", "A_SUB", "A_MUL", "A_MAX"};
    static const char* const kAa[] = {"A_EXP", "A_RECI", "A_RSQRT", "A_RSUM", "A_RMAX"};
    switch (pick(10)) {
      case 0:
        return kVvv[pick(5)];
      case 1:
      case 2:
        return kAvv[pick(4)];
      case 3:
        return kAaa[pick(4)];
      case 4:
        return kAa[pick(5)];
      case 5:
        return "V_SHUF";
      case 6:
        return pick(2) == 0 ? "V_ALIGN" : "V_BCL";
      case 7:
        return pick(2) == 0 ? "V_RMAX" : "V_SRS";
      case 8:
        return "A_UPS";
      default:
        return pick(2) == 0 ? "V_BCST" : "A_BCST";
    }
  }

  // Operands by the instruction's operand kinds (isa/vliw.yaml): registers of the class, immediates in
  // their range.
  std::string vec_op() {
    const std::string name = favoured(favoured_vec_).value_or(default_vec_name());
    if (name == "V_SHUF") return fmt::format("V_SHUF {}, {}, {}, {}", vreg(), vreg(), vreg(), pick(4));
    if (name == "V_ALIGN") return fmt::format("V_ALIGN {}, {}, {}, {}", vreg(), vreg(), vreg(), pick(64));
    if (name == "V_BCL") return fmt::format("V_BCL {}, {}, {}", vreg(), vreg(), pick(64));
    if (name == "V_RMAX") return fmt::format("V_RMAX {}, {}", vreg(), vreg());
    if (name == "V_SRS") return fmt::format("V_SRS {}, {}", vreg(), areg());
    if (name == "A_UPS") return fmt::format("A_UPS {}, {}", areg(), vreg());
    if (name == "V_BCST") return fmt::format("V_BCST {}, {}", vreg(), rreg());
    if (name == "A_BCST") return fmt::format("A_BCST {}, {}", areg(), rreg());
    if (name[0] == 'V') return fmt::format("{} {}, {}, {}", name, vreg(), vreg(), vreg());
    const std::string& format = instruction(name).format;
    if (format == "R1") return fmt::format("{} {}, {}", name, areg(), areg());
    const bool from_vectors = name == "A_VMUL" || name == "A_VMAC" || name == "A_MMUL" || name == "A_MMAC";
    return from_vectors ? fmt::format("{} {}, {}, {}", name, areg(), vreg(), vreg())
                        : fmt::format("{} {}, {}, {}", name, areg(), areg(), areg());
  }

  std::string default_scl_name() {
    static const char* const kRrr[] = {"S_ADD", "S_SUB", "S_MUL", "S_AND", "S_OR", "S_XOR", "S_SLL", "S_SRL"};
    switch (pick(12)) {
      case 0:
      case 1:
      case 2:
      case 3:
        return kRrr[pick(8)];
      case 4:
      case 5:
        return "S_ADDI";
      case 6:
        return pick(2) == 0 ? "S_SLLI" : "S_SRLI";
      case 7:
        return "S_PGET";
      case 8:
      case 9:
        return "S_PMOV";
      case 10:
        return "S_PADDI";
      default:
        return "S_PADD";
    }
  }

  std::string scl_op(unsigned avoid_pointer_a, unsigned avoid_pointer_b) {
    const std::string name = favoured(favoured_scl_).value_or(default_scl_name());
    if (name == "S_ADDI")
      return fmt::format("S_ADDI {}, {}, {}", rdest(), rreg(), static_cast<int>(pick(2001)) - 1000);
    if (name == "S_ORI") return fmt::format("S_ORI {}, {}, {}", rdest(), rreg(), pick(65536));
    if (name == "S_LUI") return fmt::format("S_LUI {}, {}", rdest(), pick(65536));
    if (name == "S_SLLI" || name == "S_SRLI")
      return fmt::format("{} {}, {}, {}", name, rdest(), rreg(), shamt());
    if (name == "S_PGET") return fmt::format("S_PGET {}, p{}", rdest(), pick(8));
    if (name.rfind("S_P", 0) != 0) return fmt::format("{} {}, {}, {}", name, rdest(), rreg(), rreg());
    // Pointer moves on a pointer no load/store of this bundle uses (two writes would collide).
    unsigned k = pick(8);
    while (k == avoid_pointer_a || k == avoid_pointer_b) k = (k + 1) % 8;
    if (name == "S_PMOV") return fmt::format("S_PMOV p{}, r{}", k, 12 + pick(4));
    // S_PADD by r10 (one row) or r0 (nothing): the only registers holding a step that keeps the window.
    if (name == "S_PADD") return fmt::format("S_PADD p{}, r{}", k, pick(2) == 0 ? 10 : 0);
    return fmt::format("S_PADDI p{}, {}", k,
                       (static_cast<int>(pick(5)) - 2) * static_cast<int>(p_.row_bytes()));
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
    if (chance(release_chance_)) {
      draft_release_ = pick(4);
      ops.push_back(fmt::format("C_REL {}", *draft_release_));
    } else if (!pending_release_.empty() && pending_release_.back().second == loop_labels_ &&
               chance(acquire_chance_)) {
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
    line(fmt::format("{} {}, r{}, r9, r10, r11, {}", chance(dma_load_chance_) ? "C_DMALD" : "C_DMAST",
                     pick(p_.dma_channels), 12 + pick(4), lock));
    if (chance(0.5)) line(fmt::format("C_ACQ {}", lock));
  }

  std::string dma_mnemonic() { return pick(2) == 0 ? "C_DMALD" : "C_DMAST"; }
  unsigned channel() { return pick(p_.dma_channels); }
  // The word of one op (end-of-bundle flag cleared), for the faults' hand-made bundles.
  uint32_t op_word(const std::string& op) const {
    const isa::AssembleResult a = isa::assemble(isa::vliw::spec(), op + "\n", "op.s", p_.symbols());
    if (!a.ok || a.words.size() != 1) throw std::logic_error("random_program: bad op '" + op + "'");
    return a.words[0] & ~kEob;
  }

  // The bundles of one deliberate fault of `kind` (isa/vliw.yaml `errors:`), in one of its forms. The
  // program is at any point of its body, possibly inside loops (never one that runs 0 times).
  void emit_fault(ErrorCode kind) {
    const unsigned row = p_.row_bytes();
    switch (kind) {
      case ErrorCode::kIllegalInsn:
        // An unknown opcode, a reserved bit set in a valid op, a DMA channel the configuration lacks.
        switch (pick(p_.dma_channels < 4 ? 3 : 2)) {
          case 0:
            word(0x8000007F);
            break;
          case 1:
            word(op_word("V_ADD v1, v2, v3") | (1u << (19 + pick(12))) | kEob);
            break;
          default:
            line(fmt::format("C_DMALD {}, r12, r9, r10, r11", p_.dma_channels + pick(4 - p_.dma_channels)));
            break;
        }
        break;
      case ErrorCode::kIllegalBundle: {
        // Ops out of slot order, more ops of a kind than its slots, six words without an end.
        const uint32_t ls = op_word("L_VLD v1, p0"), vec = op_word("V_ADD v1, v2, v3"),
                       scl = op_word("S_ADD r1, r2, r3"), ctl = op_word("C_NOP");
        std::vector<uint32_t> words;
        switch (pick(4)) {
          case 0:
            words = {ctl, scl};
            break;
          case 1:
            words = {ls, ls, ls};
            break;
          case 2:
            words = {vec, scl, vec};
            break;
          default:
            words = {ls, ls, vec, scl, ctl, ctl};
            break;
        }
        words.back() |= kEob;
        for (uint32_t w : words) word(w);
        break;
      }
      case ErrorCode::kPcRange: {
        // A loop that runs 0 times continues at its end, here at or beyond IMEM_WORDS.
        const uint32_t skip = pick(2) == 0 ? loopi_word(0, 0) : loop_word(0, 0);
        if (pick(2) == 0) {
          word(skip | (4095u << 19));
        } else {
          const std::string here = label();
          line(here + ":");
          line(fmt::format(".word 0x{:08X} | ((IMEM_WORDS - {} - 1) << 19)", skip, here));
        }
        break;
      }
      case ErrorCode::kLoopNest: {
        // The inner body ends where the outer one ends, or after it.
        const std::string outer = label();
        line(fmt::format("C_LOOPI {}, {}", 1 + pick(3), outer));
        word(loopi_word(1 + pick(3), 1 + pick(2)));
        line("C_NOP");
        line(outer + ":");
        line("C_NOP");
        break;
      }
      case ErrorCode::kLoopOverflow: {
        // Loops nested one deeper than LOOP_DEPTH, counting the random loops open here; before the
        // deepest one, sometimes a loop of count 0, which is no error at full depth.
        std::vector<std::string> ends;
        for (size_t depth = loop_labels_.size(); depth < p_.loop_depth; ++depth) {
          ends.push_back(label());
          line(fmt::format("C_LOOPI {}, {}", 1 + pick(2), ends.back()));
        }
        if (pick(2) == 0) {
          word(loop_word(0, 1));
          line("C_NOP");
        }
        word(pick(2) == 0 ? loopi_word(1 + pick(3), 1) : loop_word(10, 1));  // r10 = ROW_BYTES
        line("C_NOP");
        line("C_NOP");
        for (auto it = ends.rbegin(); it != ends.rend(); ++it) {
          line(*it + ":");
          line("C_NOP");
        }
        break;
      }
      case ErrorCode::kLoopEnd: {
        // The body ends inside a later bundle of two or three words.
        const unsigned whole = pick(3);
        const bool wide = pick(2) == 0;
        word(loopi_word(1 + pick(3), whole + 1 + (wide ? pick(2) : 0)));
        for (unsigned k = 0; k < whole; ++k) line("C_NOP");
        line(wide ? "{ V_ADD v1, v2, v3 ; S_ADDI r1, r1, 1 ; C_NOP }" : "{ S_ADDI r1, r1, 1 ; C_NOP }");
        break;
      }
      case ErrorCode::kDmRange:
        switch (pick(3)) {
          case 0: {
            // A load or store at DM's end, or at 2^32 - ROW_BYTES (pointers do not wrap).
            static const char* const kOps[] = {"L_VLD v1", "L_VST v1", "L_VLDB v1", "L_SLD r1", "L_SST r1"};
            const unsigned k = pick(8);
            line(fmt::format("S_LI r7, {}",
                             pick(3) == 0 ? -static_cast<int>(row) : static_cast<int>(p_.dm_bytes)));
            line(fmt::format("S_PMOV p{}, r7", k));
            line(fmt::format("{}, p{}", kOps[pick(5)], k));
            break;
          }
          default: {
            // A transfer whose last rows run past DM's end.
            const unsigned inside = pick(3);
            line(fmt::format("S_LI r7, {}", p_.dm_bytes - inside * row));
            line(fmt::format("S_LI r6, {}", inside + 1 + pick(3)));
            line(fmt::format("{} {}, r7, r9, r10, r6", dma_mnemonic(), channel()));
            break;
          }
        }
        break;
      case ErrorCode::kDmAlign:
        if (pick(2) == 0) {
          // A vector access off a row, a scalar one off 4 bytes, a BF16 one at an odd address.
          static const char* const kOps[] = {"L_VLD v1", "L_VST v1", "L_VLDB v1", "L_SLD r1", "L_SST r1"};
          const unsigned op = pick(5);
          const unsigned offset = op < 2 ? 2 * (1 + pick(row / 2 - 1)) : op == 2 ? 1 : 1 + pick(3);
          const unsigned k = pick(8);
          line(fmt::format("S_LI r7, {}", base_of(k) + offset));
          line(fmt::format("S_PMOV p{}, r7", k));
          line(fmt::format("{}, p{}", kOps[op], k));
        } else {
          line(fmt::format("S_LI r7, {}", base_of(pick(8)) + 2 * (1 + pick(row / 2 - 1))));
          line(fmt::format("S_LI r6, {}", 1 + pick(4)));
          line(fmt::format("{} {}, r7, r9, r10, r6", dma_mnemonic(), channel()));
        }
        break;
      case ErrorCode::kDramRange:
        switch (pick(3)) {
          case 0:  // one row past DRAM's end
            line(fmt::format("S_LI r7, {}", options_.dram_bytes - row + 2 * (1 + pick(row / 2))));
            line("S_LI r6, 1");
            line(fmt::format("{} {}, r12, r7, r10, r6", dma_mnemonic(), channel()));
            break;
          case 1:  // a stride that takes the last row out
            line(fmt::format("S_LI r5, {}", options_.dram_bytes / 2));
            line(fmt::format("S_LI r6, {}", 3 + pick(2)));
            line(fmt::format("{} {}, r12, r0, r5, r6", dma_mnemonic(), channel()));
            break;
          default:  // near 2^32 (addresses do not wrap)
            line(fmt::format("S_LI r7, {}", pick(2) == 0 ? 0x7FFFFFFE : -2));
            line("S_LI r6, 1");
            line(fmt::format("{} {}, r12, r7, r10, r6", dma_mnemonic(), channel()));
            break;
        }
        break;
      case ErrorCode::kDramAlign:
        if (pick(2) == 0) {
          line(fmt::format("S_LI r7, {}", 2 * pick(1000) + 1));
          line(fmt::format("{} {}, r12, r7, r10, r11", dma_mnemonic(), channel()));
        } else {
          line(fmt::format("S_LI r5, {}", row + 1));
          line(fmt::format("S_LI r6, {}", 1 + pick(4)));
          line(fmt::format("{} {}, r12, r9, r5, r6", dma_mnemonic(), channel()));
        }
        break;
      case ErrorCode::kDmaEmpty:
        if (pick(2) == 0) {
          line(fmt::format("{} {}, r12, r9, r10, r0", dma_mnemonic(), channel()));
        } else {
          line("S_LI r6, 0");
          line(fmt::format("{} {}, r13, r9, r10, r6, {}", dma_mnemonic(), channel(), 4 + pick(4)));
        }
        break;
      case ErrorCode::kLockOverflow: {
        // A lock no random op uses, released 255 times; the 256th release, a C_REL or the end of a DMA
        // transfer, overflows it.
        const unsigned lock = kFreeLockFirst + pick(kFreeLocks);
        const std::string full = label();
        if (pick(2) == 0) {
          line(fmt::format("C_LOOPI 255, {}", full));
        } else {
          line("S_LI r7, 255");
          line(fmt::format("C_LOOP r7, {}", full));
        }
        line(fmt::format("C_REL {}", lock));
        line(full + ":");
        if (pick(2) == 0) {
          line(fmt::format("C_REL {}", lock));
        } else {
          line(fmt::format("S_LI r6, {}", 1 + pick(3)));
          line(fmt::format("{} {}, r12, r9, r10, r6, {}", dma_mnemonic(), channel(), lock));
        }
        break;
      }
      case ErrorCode::kNone:
        break;
    }
  }

  const Params& p_;
  std::mt19937_64 rng_;
  RandomProgramOptions options_;
  std::vector<ErrorCode> kinds_;
  std::vector<std::string> favoured_ls_, favoured_vec_, favoured_scl_;
  double loop_chance_ = 0.04;
  double register_loop_chance_ = 0.5;  // C_LOOP rather than C_LOOPI
  double dma_chance_ = 0.05;
  double dma_load_chance_ = 0.5;
  double release_chance_ = 0.1;
  double acquire_chance_ = 0.3;
  std::string text_;
  unsigned labels_ = 0;
  std::vector<unsigned> loop_labels_;
  std::vector<bool> loop_skipped_;  // per open loop: it runs 0 times
  std::vector<std::pair<unsigned, std::vector<unsigned>>>
      pending_release_;  // lock, loops open at the release
  std::optional<unsigned> draft_release_;
  bool draft_acquire_ = false;
};

}  // namespace

std::vector<ErrorCode> fault_kinds() {
  std::vector<ErrorCode> kinds;
  for (const ErrorInfo& e : kErrors) {
    if (e.code != ErrorCode::kNone) kinds.push_back(e.code);
  }
  return kinds;
}

RandomProgram random_program(const Params& params, uint64_t seed, const RandomProgramOptions& options) {
  RandomProgram program = Generator(params, seed, options).make();
  program.seed = seed;
  return program;
}

}  // namespace kcraft::vliw
