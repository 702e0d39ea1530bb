// The systolic template compiler's shared helpers, private to tasks/systolic/template_*.cpp: the assembly
// writer (Asm), knob lookup, DRAM sources and the row streams through VSRAM tiles. Each template family is
// a file of its own (templates.h lists them); template_compiler.cpp dispatches to them.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "isa/systolic/systolic_machine.h"
#include "tasks/common/baseline_compiler.h"

namespace kcraft::systolic::template_detail {

using tasks::GeneratedKernel;
using tasks::Knob;
using tasks::KnobValues;

// Assembly text with the structure a human would give it: a header, labelled blocks, comments.
class Asm {
 public:
  void comment(const std::string& text) { lines_.push_back("; " + text); }
  void blank() { lines_.emplace_back(); }
  void label(const std::string& name) { lines_.push_back(name + ":"); }
  template <typename... Args>
  void op(fmt::format_string<Args...> f, Args&&... args) {
    lines_.push_back("    " + fmt::format(f, std::forward<Args>(args)...));
  }
  // reg += value, through `temp` when the value does not fit S_ADDI's 17-bit immediate.
  void add_const(const std::string& reg, int64_t value, const std::string& temp) {
    if (value >= -65536 && value <= 65535) {
      op("S_ADDI {}, {}, {}", reg, reg, value);
    } else {
      op("S_LI {}, {}", temp, value);
      op("S_ADD {}, {}, {}", reg, reg, temp);
    }
  }
  // reg = src + value.
  void add_const_to(const std::string& reg, const std::string& src, int64_t value, const std::string& temp) {
    if (value >= -65536 && value <= 65535) {
      op("S_ADDI {}, {}, {}", reg, src, value);
    } else {
      op("S_LI {}, {}", temp, value);
      op("S_ADD {}, {}, {}", reg, src, temp);
    }
  }
  std::string fresh(const std::string& stem) { return fmt::format("{}_{}", stem, counter_++); }

  // A hardware loop running `body` `count` times (the body is skipped when count is 1 and run inline,
  // and omitted when count is 0).
  //
  // Templates nest (a head loop around a matrix product around its tile loops), so a loop that would nest
  // deeper than the hardware's LOOP_DEPTH is unrolled instead.
  void loop(int64_t count, const std::string& stem, const std::function<void()>& body) {
    if (count <= 0) return;
    if (count == 1 || depth_ >= max_depth_) {
      if (count > 256) throw std::invalid_argument("loop of " + std::to_string(count) + " nests too deep");
      for (int64_t i = 0; i < count; ++i) body();
      return;
    }
    if (count > 4095) throw std::invalid_argument("loop count " + std::to_string(count) + " exceeds C_LOOPI");
    std::string end = fresh(stem);
    op("C_LOOPI {}, {}", count, end);
    ++depth_;
    body();
    --depth_;
    label(end);
  }

  // A loop whose count is in a register (0 skips it); it must not be unrolled.
  void loop_reg(const std::string& count_reg, const std::string& stem, const std::function<void()>& body) {
    if (depth_ >= max_depth_) throw std::invalid_argument("register-counted loop nests too deep");
    std::string end = fresh(stem);
    op("C_LOOP {}, {}", count_reg, end);
    ++depth_;
    body();
    --depth_;
    label(end);
  }
  void set_max_depth(int depth) { max_depth_ = depth; }
  int free_depth() const { return max_depth_ - depth_; }

  // Like loop(), for a loop that ends its enclosing loop's body: the hardware requires an inner body to
  // end strictly before the outer one, so the last iteration is emitted after the loop.
  void loop_last(int64_t count, const std::string& stem, const std::function<void()>& body) {
    if (count <= 0) return;
    loop(count - 1, stem, body);
    body();
  }

  std::string text() const {
    std::string out;
    for (const auto& l : lines_) {
      out += l;
      out += '\n';
    }
    return out;
  }

 private:
  std::vector<std::string> lines_;
  int counter_ = 0;
  int depth_ = 0;
  int max_depth_ = 4;
};

std::string upper(const std::string& s);

// Largest power of two <= want that divides n (at least 1).
int64_t pow2_divisor(int64_t n, int64_t want);

// The value of knob `name`: from `values`, else its baseline in `knobs`.
int64_t knob(const KnobValues& values, const std::vector<Knob>& knobs, const std::string& name);

// The symbol of a tensor's DRAM address: ADDR_<TENSOR>.
std::string addr(const std::string& tensor);

// An element-wise operation as vector-unit instructions per row (elementwise_op(), templates.h).
struct ElementwiseOp {
  std::vector<std::string> setup;   // constants (FP registers) the stages use
  std::vector<std::string> stages;  // per row, in order; {d} = work row reg, {a} = input row reg, {u} offset
};

// Row streaming kernels (element-wise and row-wise) keep two input buffers X0 = [0, tile), X1 =
// [tile, 2 tile) and two work buffers W0 = [2 tile, 3 tile), W1 = [3 tile, 4 tile) in VSRAM, addressed
// by r7/r8 and r9/r10; r1 and r2 walk the input and output in DRAM, r3 is the dense row stride.
struct Src {
  std::string base;  // a symbol (ADDR_X) or a register (r14); "" = continue where the last product left r1/r2
  int64_t offset = 0;
};

// Sets reg to the address (uses r15 when the offset does not fit an immediate).
void set_addr(Asm& a, const std::string& reg, const Src& src);

// r1, r2 at the input and output, r3 the dense row stride; r7..r10 the VSRAM buffers of `tile` rows.
void stream_setup(Asm& a, const Src& input, const Src& output, int64_t row_bytes, int64_t tile);

// Runs `tiles` tiles through load(buffer) and compute_store(buffer). Double buffered, tile t computes in
// buffer t % 2 while tile t+1 loads into the other; pairs of tiles form the loop body and the last one
// or two tiles are peeled so nothing is fetched past the input.
void stream_tiles(Asm& a, int64_t tiles, bool double_buffer, const std::function<void(int)>& load,
                  const std::function<void(int)>& compute_store);

}  // namespace kcraft::systolic::template_detail
