// The vliw template compiler's back end: kernels are written as a sequence of ops (one op per call, in
// the order a human would think of them) and hardware loops; the builder packs the ops into bundles.
//
// Packing is list scheduling in program order: each op goes into the earliest bundle where its slot is
// free and every rule of the exposed pipeline holds, so the result has no read-before-ready hazard:
//   - an op reads a register only once the last write to it has landed (its latency in isa/vliw.yaml);
//   - an op writes a register only after every earlier read of the old value has issued (the same bundle
//     is fine: a bundle reads before it writes) and after the previous write has landed;
//   - two load/store ops share a bundle only when the caller states their DM banks and these differ;
//   - DM buffers named by the caller order loads after stores, stores after loads and stores;
//   - DMA and lock ops stay in program order; a fenced op goes after every earlier op of its block.
// Results may land after their block ends: the next block starts with those registers in flight. A loop
// body is scheduled until the registers in flight at its end and at its entry agree (a fixed point), so the
// hazards across the back edge are respected too, and consecutive iterations overlap where the ops allow:
// this is how the templates software-pipeline (loads for the next block in the body of the current one).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "isa/common/isa_spec.h"

namespace kcraft::vliw {

// What an op does to DM buffers (caller-chosen ids) and which bank it touches (-1: not known).
struct MemUse {
  std::vector<int> reads;
  std::vector<int> writes;
  int bank = -1;
  bool fence = false;  // not before any earlier op of its block
};

class KernelBuilder {
 public:
  explicit KernelBuilder(unsigned dm_banks);
  ~KernelBuilder();
  KernelBuilder(const KernelBuilder&) = delete;
  KernelBuilder& operator=(const KernelBuilder&) = delete;

  // One op in assembly syntax ("A_MMAC a0, v1, v2"); throws std::invalid_argument for an unknown mnemonic
  // or register. Pseudo-instructions are not accepted (use li()).
  void op(const std::string& text, const MemUse& mem = {});
  // rd = value, as one S_ADDI or S_LUI + S_ORI; `symbol` (e.g. "ADDR_X") is written instead of the number.
  void li(int rd, int64_t value, const std::string& symbol = "");
  // A comment line before the next bundle.
  void comment(const std::string& text);
  // A hardware loop running `body` count times (count 0: nothing, 1: inline). Counts above C_LOOPI's range
  // go through r15, which kernels must not use.
  void loop(int64_t count, const std::function<void()>& body);
  // A hardware loop whose count is read from scalar register `count_reg` when it starts (C_LOOP; 0 skips
  // the body): conditional code is a loop of 0 or 1 iterations.
  void loop_reg(int count_reg, const std::function<void()>& body);

  // The packed program text; `words` (if not null) receives its size in op words. Throws std::logic_error
  // when loops nest deeper than `loop_depth`.
  std::string text(unsigned loop_depth, size_t* words = nullptr) const;
  // Bundles in the text (for tests and code-size checks).
  size_t ops() const { return op_count_; }
  // Compact loops: templates emit each software-pipelined loop as one unit's stages in order per step,
  // without prologue and epilogue (less code, less overlap), for kernels that do not fit IMEM otherwise.
  void set_compact_loops(bool on) { compact_loops_ = on; }
  bool compact_loops() const { return compact_loops_; }

  struct Node;  // the program tree (kernel_builder.cpp)

 private:
  void loop_node(int64_t count, int count_reg, const std::function<void()>& body);
  std::unique_ptr<Node> root_;
  std::vector<Node*> stack_;
  unsigned banks_;
  size_t op_count_ = 0;
  int label_counter_ = 0;
  bool compact_loops_ = false;
};

// ---------------------------------------------------------------- shuffle networks
//
// V_SHUF zips and unzips rearrange data between vectors. A network is a list of levels over a group of
// 2^R registers; a level pairs the registers whose group index differs in bit `bit` and replaces each pair
// by its two zips (low, high) or unzips (even, odd), or by the low zip alone (kZipLow, the group halves).
struct ShuffleLevel {
  enum Kind { kZip, kUnzip, kZipLow } kind = kZip;
  unsigned bit = 0;
};

// Lane contents as labels (-1: don't care) for planning and checking networks symbolically.
using Labels = std::vector<int>;

// V_SHUF's semantics on labels (mode 0..3).
Labels shuffle_labels(const Labels& a, const Labels& b, unsigned mode);

// Applies levels to a group (size a power of two) and returns the resulting group (halved by kZipLow).
std::vector<Labels> apply_levels(std::vector<Labels> group, const std::vector<ShuffleLevel>& levels);

// The shortest list of levels (at most max_depth) after which every target appears in the group (lanes
// labelled -1 in a target match anything). Throws std::logic_error when there is none.
std::vector<ShuffleLevel> plan_shuffles(const std::vector<Labels>& group, const std::vector<Labels>& targets,
                                        unsigned max_depth = 6);

// Index of `target` in `group` (-1 labels match anything); -1 when absent.
int find_labels(const std::vector<Labels>& group, const Labels& target);

}  // namespace kcraft::vliw
