// `kcraft isa systolic --json`'s scheduling table, its memory ranges (isa/systolic.yaml `memory:`): the
// rows the guide names for each kind of instruction; every range is the one the functional model checks
// (so a range with a wrong first row, row count or stride fails), and every instruction that the model
// finds touching memory states it (so an instruction without `memory:` fails); and the interlocks the RTL
// applies are the ones a scheduler predicts from the table alone (`busy`, latency and occupancy).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "isa/common/expression.h"
#include "isa/systolic/systolic_iss.h"
#include "systolic_isa.h"
#include "tb/common/scheduling_table.h"
#include "tb/systolic/systolic_sim.h"
#include "tests/systolic/test_util.h"

namespace kcraft::systolic {
namespace {

namespace sy = isa::systolic;

const InstructionTiming& row_of(const SchedulingTable& t, const std::string& name) {
  for (const InstructionTiming& row : t.instructions) {
    if (row.name == name) return row;
  }
  throw std::runtime_error("no row " + name);
}

// One range, written out whole: "VSRAM first rs1 + off, rows 1 (1), stride 1, size 1 (1), busy none".
std::string describe(const MemoryRange& r) {
  auto value = [](const std::optional<int64_t>& v) { return v ? std::to_string(*v) : std::string("?"); };
  return fmt::format("{} first {}, rows {} ({}), stride {}, size {} ({}), busy {}", r.space, r.first, r.rows,
                     value(r.rows_value), r.stride, r.size, value(r.size_value), r.busy);
}

std::vector<std::string> describe(const std::optional<std::vector<MemoryRange>>& ranges) {
  std::vector<std::string> out;
  if (!ranges) return {"(not stated)"};
  for (const MemoryRange& r : *ranges) out.push_back(describe(r));
  return out;
}

// The guide's §2 table and §4, on `default` (MLEN = VLEN = 16, BLEN = 4): what each kind of instruction
// reads and writes, registers and memory.
TEST(SystolicScheduling, TheTableStatesTheMemoryRowsOfEachInstruction) {
  const SchedulingTable t = testing::platform().scheduling_table("default");
  auto reads = [&](const char* name) { return describe(row_of(t, name).reads_memory); };
  auto writes = [&](const char* name) { return describe(row_of(t, name).writes_memory); };
  using Rows = std::vector<std::string>;

  EXPECT_EQ(reads("V_ADD_VV"), (Rows{"VSRAM first rs1 + off, rows 1 (1), stride 1, size 1 (1), busy none",
                                     "VSRAM first rs2 + off, rows 1 (1), stride 1, size 1 (1), busy none"}));
  EXPECT_EQ(writes("V_ADD_VV"),
            (Rows{"VSRAM first rd + off, rows 1 (1), stride 1, size 1 (1), busy latency"}));
  // The row registers are read, as numbers; no register is written.
  EXPECT_EQ(row_of(t, "V_ADD_VV").reads, (Rows{"rd", "rs1", "rs2"}));
  EXPECT_TRUE(row_of(t, "V_ADD_VV").writes.empty());

  // A reduction reads two rows and writes an FP register, no memory.
  EXPECT_EQ(reads("V_RED_DOT"), (Rows{"VSRAM first rs1 + off, rows 1 (1), stride 1, size 1 (1), busy none",
                                      "VSRAM first rs2 + off, rows 1 (1), stride 1, size 1 (1), busy none"}));
  EXPECT_EQ(writes("V_RED_DOT"), Rows{});
  EXPECT_EQ(row_of(t, "V_RED_DOT").writes, Rows{"fs"});

  // M_MM streams BLEN VSRAM rows (held while it does) through the weights into BLEN accumulator rows.
  EXPECT_EQ(reads("M_MM"),
            (Rows{"VSRAM first vrow + off, rows BLEN (4), stride 1, size 1 (1), busy occupancy",
                  "WEIGHTS first 0, rows MLEN (16), stride 1, size 1 (1), busy none"}));
  EXPECT_EQ(writes("M_MM"), (Rows{"ACC first acc + off, rows BLEN (4), stride 1, size 1 (1), busy latency"}));
  // M_MMA reads the accumulator rows it adds to.
  EXPECT_EQ(reads("M_MMA").back(), "ACC first acc + off, rows BLEN (4), stride 1, size 1 (1), busy none");
  EXPECT_EQ(writes("M_MMA"), writes("M_MM"));

  EXPECT_EQ(reads("M_WO"), (Rows{"ACC first acc + off, rows BLEN (4), stride 1, size 1 (1), busy none"}));
  EXPECT_EQ(writes("M_WO"),
            (Rows{"VSRAM first vrow + off, rows BLEN (4), stride 1, size 1 (1), busy latency"}));

  EXPECT_EQ(reads("M_LDW"),
            (Rows{"MSRAM first mrow + off, rows MLEN (16), stride 1, size 1 (1), busy occupancy"}));
  EXPECT_EQ(writes("M_LDW"), (Rows{"WEIGHTS first 0, rows MLEN (16), stride 1, size 1 (1), busy none"}));
  EXPECT_EQ(reads("M_LDWT"), reads("M_LDW"));

  // DMA: `count` rows, the DRAM ones `stride` bytes apart, 2*VLEN bytes each; DRAM is served in order.
  EXPECT_EQ(reads("H_LOAD_V"),
            (Rows{"DRAM first addr, rows count (?), stride stride, size 2*VLEN (32), busy none"}));
  EXPECT_EQ(writes("H_LOAD_V"),
            (Rows{"VSRAM first row, rows count (?), stride 1, size 1 (1), busy latency"}));
  EXPECT_EQ(writes("H_LOAD_M"),
            (Rows{"MSRAM first row, rows count (?), stride 1, size 1 (1), busy latency"}));
  EXPECT_EQ(reads("H_STORE_V"),
            (Rows{"VSRAM first row, rows count (?), stride 1, size 1 (1), busy occupancy"}));
  EXPECT_EQ(writes("H_STORE_V"),
            (Rows{"DRAM first addr, rows count (?), stride stride, size 2*VLEN (32), busy none"}));

  EXPECT_EQ(reads("S_LD_FP"), (Rows{"FPSRAM first rs1 + imm, rows 1 (1), stride 1, size 1 (1), busy none"}));
  EXPECT_EQ(writes("S_ST_FP"),
            (Rows{"FPSRAM first rs1 + imm, rows 1 (1), stride 1, size 1 (1), busy latency"}));
  // Instructions on registers alone state that they touch no memory.
  for (const char* name : {"S_ADD", "S_EXP_FP", "C_LOOP", "C_HALT"}) {
    EXPECT_EQ(reads(name), Rows{}) << name;
    EXPECT_EQ(writes(name), Rows{}) << name;
  }
  // Another configuration's parameters give other row counts.
  const SchedulingTable small = testing::platform().scheduling_table("small");
  EXPECT_EQ(row_of(small, "M_MM").writes_memory->front().rows_value,
            std::optional<int64_t>(testing::platform().params("small").blen));
  // And the table says how to read the ranges.
  EXPECT_TRUE(
      std::any_of(t.rules.begin(), t.rules.end(), [](const auto& r) { return r.first == "Memory ranges"; }));
}

// ---------------------------------------------------------------- instances of instructions
// An instruction with its operands' values: a register operand's value is what the register holds (freg
// operands: the register number), an immediate's its value. Unnamed operands are 0 (defaults: theirs).
struct Instance {
  std::string mnemonic;
  std::map<std::string, int64_t> values;

  const isa::InstructionSpec& spec() const { return *sy::spec().find_instruction(mnemonic); }
  int64_t value(const isa::OperandSpec& op) const {
    const auto it = values.find(op.name);
    if (it != values.end()) return it->second;
    if (op.default_value) return *op.default_value;
    return std::max<int64_t>(op.min, 0);
  }
};

bool is_xreg(const isa::OperandSpec& op) {
  return op.kind == isa::OperandKind::kRegister &&
         sy::spec().register_classes[static_cast<size_t>(op.register_class)].name == "xreg";
}

// A program that loads the xreg values (one register per distinct value, r0 for 0), then runs
// `instances` back to back and halts; `first_pc` is the first instance's pc.
struct Program {
  std::string source;
  uint32_t first_pc = 0;
};

Program program_of(const std::vector<Instance>& instances, const std::string& hw) {
  std::map<int64_t, unsigned> reg{{0, 0}};
  std::string setup, body;
  for (const Instance& in : instances) {
    std::vector<std::string> operands;
    bool loop = false;
    for (const isa::OperandSpec& op : in.spec().operands) {
      const int64_t v = in.value(op);
      if (is_xreg(op)) {
        if (!reg.count(v)) {
          reg.emplace(v, static_cast<unsigned>(reg.size()));
          setup += fmt::format("S_LI r{}, {}\n", reg[v], v);
        }
        operands.push_back(fmt::format("r{}", reg[v]));
      } else if (op.kind == isa::OperandKind::kRegister) {
        operands.push_back(fmt::format("f{}", v));
      } else if (op.kind == isa::OperandKind::kBody) {
        operands.push_back("end");
        loop = true;
      } else {
        operands.push_back(std::to_string(v));
      }
    }
    body += fmt::format("{} {}\n", in.mnemonic, fmt::join(operands, ", "));
    if (loop) body += "C_NOP\nend:\n";
  }
  EXPECT_LT(reg.size(), 16u) << "more distinct register values than registers";
  Program p;
  p.source = setup + body + "C_HALT\n";
  p.first_pc = static_cast<uint32_t>(testing::assemble(setup + "C_HALT\n", hw).size()) - 1;
  return p;
}

// A formula of the table evaluated with an instance's operands and a configuration's parameters.
int64_t evaluate(const std::string& formula, const Instance& in, const std::string& hw) {
  isa::SymbolTable symbols = testing::platform().symbols(hw);
  for (const isa::OperandSpec& op : in.spec().operands) symbols[op.name] = in.value(op);
  const std::optional<int64_t> v = formula_value(formula, symbols);
  EXPECT_TRUE(v.has_value()) << formula << " in " << in.mnemonic;
  return v.value_or(-1);
}

// The addresses [lo, hi) a range spans (every address of a dense one; a strided one's rows lie inside).
struct Span {
  int64_t lo = 0, hi = 0;
};
Span span_of(const MemoryRange& r, const Instance& in, const std::string& hw) {
  const int64_t first = evaluate(r.first, in, hw);
  const int64_t rows = evaluate(r.rows, in, hw), stride = evaluate(r.stride, in, hw);
  return {first, first + (rows - 1) * stride + evaluate(r.size, in, hw)};
}

bool references(const std::string& formula, const std::string& name) {
  const std::vector<isa::Token> tokens = isa::tokenize(formula);
  isa::ExprError error;
  const auto expr = isa::parse_expression(tokens, 0, tokens.size(), &error);
  if (!expr) return false;
  const std::vector<std::string> symbols = isa::referenced_symbols(*expr);
  return std::find(symbols.begin(), symbols.end(), name) != symbols.end();
}

// ---------------------------------------------------------------- against the functional model
// The memories whose accesses the machine checks, the error it stops with when a range leaves one, and
// the memory's size in address units.
struct CheckedMemory {
  ErrorCode error;
  uint64_t size;
};
const size_t kDramBytes = 1 << 20;
std::map<std::string, CheckedMemory> checked_memories(const Params& p) {
  return {{"VSRAM", {ErrorCode::kVsramRange, p.vsram_rows}},
          {"MSRAM", {ErrorCode::kMsramRange, p.msram_rows}},
          {"ACC", {ErrorCode::kAccRange, p.acc_rows}},
          {"FPSRAM", {ErrorCode::kFpsramRange, p.fpsram_words}},
          {"DRAM", {ErrorCode::kDramRange, kDramBytes}}};
}

MachineError run_on_model(const std::vector<Instance>& instances, const std::string& hw) {
  Iss iss(testing::platform().params(hw));
  iss.reset(testing::assemble(program_of(instances, hw).source, hw));
  std::vector<uint8_t> dram(kDramBytes);
  iss.run(dram, 10'000);
  return iss.state().error;
}

std::vector<std::pair<const MemoryRange*, bool>> ranges_of(const InstructionTiming& row) {
  std::vector<std::pair<const MemoryRange*, bool>> out;
  for (const MemoryRange& r : *row.reads_memory) out.emplace_back(&r, false);
  for (const MemoryRange& r : *row.writes_memory) out.emplace_back(&r, true);
  return out;
}

// Each range, placed so that it ends one row (for DRAM: two bytes) past its memory, makes the model stop
// with that memory's range error and report exactly the range's rows: the first row, the row count and the
// stride are the machine's. Other row registers are 0, DMA strides dense, counts 2.
TEST(SystolicScheduling, EveryMemoryRangeIsTheOneTheModelChecks) {
  for (const std::string hw : {"default", "small"}) {
    const Params p = testing::platform().params(hw);
    const auto memories = checked_memories(p);
    const SchedulingTable t = testing::platform().scheduling_table(hw);
    int checked = 0;
    for (const InstructionTiming& row : t.instructions) {
      for (const auto& [range, write] : ranges_of(row)) {
        const auto memory = memories.find(range->space);
        if (memory == memories.end()) continue;  // WEIGHTS: not addressed, nothing to check
        SCOPED_TRACE(fmt::format("{} {}: {} ({})", hw, row.name, describe(*range), write ? "write" : "read"));
        Instance in{row.name, {}};
        for (const isa::OperandSpec& op : in.spec().operands) {
          if (op.name == "count") in.values[op.name] = 2;
          if (is_xreg(op) && references(range->stride, op.name)) in.values[op.name] = p.row_bytes();
        }
        const Span dense = span_of(*range, in, hw);  // with its first row at 0
        const int64_t past = range->space == "DRAM" ? 2 : 1;
        for (const isa::OperandSpec& op : in.spec().operands) {
          if (is_xreg(op) && references(range->first, op.name))
            in.values[op.name] = static_cast<int64_t>(memory->second.size) - (dense.hi - dense.lo) + past;
        }
        const Span expected = span_of(*range, in, hw);
        const MachineError e = run_on_model({in}, hw);
        EXPECT_STREQ(error_name(e.code), error_name(memory->second.error));
        EXPECT_EQ(e.lo, static_cast<uint64_t>(expected.lo));
        EXPECT_EQ(e.hi, static_cast<uint64_t>(expected.hi));
        ++checked;
      }
    }
    EXPECT_GE(checked, 35);
  }
}

// The other direction: an instruction that the model finds touching a memory (a row register far out of
// range makes it stop with that memory's range error) states a range of that memory starting at that
// register. This fails for an instruction in isa/systolic.yaml that touches VSRAM, MSRAM, the accumulators,
// FPSRAM or DRAM without `memory:`. And every vector, matrix and DMA instruction touches memory.
TEST(SystolicScheduling, EveryInstructionThatTouchesMemoryStatesIt) {
  // On `small`: it has every instruction, the optional V_MUL_VFV too.
  const std::string hw = "small";
  ASSERT_TRUE(testing::platform().params(hw).has_v_mul_vfv);
  const SchedulingTable t = testing::platform().scheduling_table(hw);
  const auto memories = checked_memories(testing::platform().params(hw));
  std::set<std::string> touching;
  for (const InstructionTiming& row : t.instructions) {
    ASSERT_TRUE(row.reads_memory && row.writes_memory) << row.name;
    const Instance base{row.name, {}};
    for (const isa::OperandSpec& op : base.spec().operands) {
      if (!is_xreg(op) || op.access == isa::Access::kWrite) continue;
      Instance in = base;
      in.values[op.name] = 0x40000000;  // beyond every memory; even, as DRAM addresses must be
      const MachineError e = run_on_model({in}, hw);
      for (const auto& [space, memory] : memories) {
        if (e.code != memory.error) continue;
        touching.insert(row.name);
        bool stated = false;
        for (const auto& [range, write] : ranges_of(row))
          stated = stated || (range->space == space && references(range->first, op.name));
        EXPECT_TRUE(stated) << row.name << " touches " << space << " at " << op.name
                            << " (the model stops with " << error_name(e.code)
                            << "), but its `memory:` in isa/systolic.yaml states no such range";
      }
    }
    if (row.unit == "vector" || row.unit == "matrix" || row.unit == "dma") {
      EXPECT_FALSE(row.reads_memory->empty() && row.writes_memory->empty())
          << row.name << " (" << row.unit << " unit) states no memory";
    }
  }
  // The model's checks found them all: 19 vector, 5 matrix (M_LDW, M_LDWT, M_MM, M_MMA, M_WO), 3 DMA,
  // S_LD_FP and S_ST_FP.
  EXPECT_EQ(touching.size(), 29u) << fmt::format("{}", fmt::join(touching, " "));
}

// ---------------------------------------------------------------- against the RTL's interlocks
// When `later` can issue after `earlier`, by the table alone: at least a cycle (in-order issue), the
// earlier instruction's occupancy when both use one unit (not the DMA engine: it has DMA_SLOTS slots, the
// rule "DMA slots"), and for each earlier range that conflicts with a later one (one of them writes, the
// spans overlap) its `busy`.
int64_t predicted_distance(const Instance& earlier, const Instance& later, const std::string& hw) {
  const SchedulingTable t = testing::platform().scheduling_table(hw);
  const InstructionTiming& a = row_of(t, earlier.mnemonic);
  const InstructionTiming& b = row_of(t, later.mnemonic);
  int64_t distance = 1;
  if (a.unit == b.unit && a.unit != "dma") distance = std::max(distance, evaluate(a.occupancy, earlier, hw));
  for (const auto& [ra, a_writes] : ranges_of(a)) {
    for (const auto& [rb, b_writes] : ranges_of(b)) {
      if (ra->space != rb->space || !(a_writes || b_writes)) continue;
      const Span sa = span_of(*ra, earlier, hw), sb = span_of(*rb, later, hw);
      if (sa.hi <= sb.lo || sb.hi <= sa.lo) continue;
      if (ra->busy == "latency") distance = std::max(distance, evaluate(a.latency, earlier, hw));
      if (ra->busy == "occupancy") distance = std::max(distance, evaluate(a.occupancy, earlier, hw));
    }
  }
  return distance;
}

// Cycles from the issue of `earlier` to the issue of `later` on the RTL.
int64_t measured_distance(const Instance& earlier, const Instance& later, const std::string& hw) {
  const Program program = program_of({earlier, later}, hw);
  RunJob job;
  job.config = hw;
  const HwConfig& c = testing::platform().hw_config(hw);
  job.timing.latency_cycles = static_cast<uint64_t>(c.runtime_param("dram_latency_cycles"));
  job.timing.bytes_per_cycle = static_cast<uint64_t>(c.runtime_param("dram_bytes_per_cycle"));
  job.program = testing::assemble(program.source, hw);
  job.dram = std::vector<uint8_t>(kDramBytes);
  job.instruction_trace = true;
  job.cycle_cap = 100'000;
  const RunResult r = run_on_rtl(job);
  EXPECT_EQ(r.stop, RunResult::Stop::kHalted) << program.source;
  std::map<uint32_t, int64_t> issue;
  for (const auto& e : r.trace) issue.emplace(e.pc, static_cast<int64_t>(e.cycle));
  EXPECT_TRUE(issue.count(program.first_pc) && issue.count(program.first_pc + 1)) << program.source;
  return issue[program.first_pc + 1] - issue[program.first_pc];
}

class SystolicSchedulingRtl : public ::testing::TestWithParam<std::string> {};

// docs/systolic.md §6.4 "Which accesses wait", pair by pair: a script that knows only the table predicts
// the cycle the second instruction issues. Row numbers: 32 onwards is what the first instruction reads
// or writes, 100 onwards is untouched.
TEST_P(SystolicSchedulingRtl, TheInterlocksAreWhatTheTablePredicts) {
  const std::string hw = GetParam();
  const Params p = testing::platform().params(hw);
  const int64_t blen = p.blen, mlen = p.mlen, row_bytes = p.row_bytes();
  const int64_t last_mm_row = 32 + blen - 1;
  const std::vector<std::pair<Instance, Instance>> pairs = {
      // vector after vector: read-after-write waits the latency; read-after-read and write-after-read don't
      {{"V_ADD_VV", {{"rd", 32}}}, {"V_ADD_VV", {{"rd", 100}, {"rs1", 32}, {"rs2", 32}}}},
      {{"V_ADD_VV", {{"rd", 100}, {"rs1", 32}}}, {"V_ADD_VV", {{"rd", 101}, {"rs1", 32}}}},
      {{"V_ADD_VV", {{"rd", 100}, {"rs1", 32}}}, {"V_ADD_VV", {{"rd", 32}, {"rs1", 101}, {"rs2", 101}}}},
      // an M_MM holds the VSRAM rows it streams against writes, not against reads
      {{"M_MM", {{"vrow", 32}}}, {"V_ADD_VV", {{"rd", last_mm_row}, {"rs1", 100}, {"rs2", 100}}}},
      {{"M_MM", {{"vrow", 32}}}, {"V_ADD_VV", {{"rd", 100}, {"rs1", last_mm_row}, {"rs2", last_mm_row}}}},
      // M_WO's VSRAM rows are written after BLEN cycles; its accumulator rows wait for the M_MM writing them
      {{"M_WO", {{"vrow", 32}}}, {"V_ADD_VV", {{"rd", 100}, {"rs1", 32}, {"rs2", 32}}}},
      {{"M_MM", {{"vrow", 32}}}, {"M_WO", {{"vrow", 100}}}},
      {{"M_MM", {{"vrow", 32}, {"acc", 8}}}, {"M_WO", {{"vrow", 100}}}},
      // an M_LDW holds its MSRAM rows against H_LOAD_M; H_LOAD_M's rows hold M_LDW until they arrive
      {{"M_LDW", {}}, {"H_LOAD_M", {{"row", mlen - 1}, {"stride", row_bytes}, {"count", 1}}}},
      {{"M_LDW", {}}, {"H_LOAD_M", {{"row", mlen}, {"stride", row_bytes}, {"count", 1}}}},
      {{"H_LOAD_M", {{"stride", row_bytes}, {"count", 2}}}, {"M_LDW", {}}},
      // H_STORE_V holds the rows it reads against writes until it completes; H_LOAD_V its rows against all
      {{"H_STORE_V", {{"row", 32}, {"stride", row_bytes}, {"count", 2}}},
       {"V_ADD_VV", {{"rd", 33}, {"rs1", 100}, {"rs2", 100}}}},
      {{"H_STORE_V", {{"row", 32}, {"stride", row_bytes}, {"count", 2}}},
       {"V_ADD_VV", {{"rd", 100}, {"rs1", 33}, {"rs2", 33}}}},
      {{"H_LOAD_V", {{"row", 32}, {"stride", row_bytes}, {"count", 2}}},
       {"V_ADD_VV", {{"rd", 100}, {"rs1", 33}, {"rs2", 33}}}},
      // DRAM is served in program order: a load of the bytes a store writes does not wait for it
      {{"H_STORE_V", {{"row", 32}, {"addr", 4096}, {"stride", row_bytes}, {"count", 2}}},
       {"H_LOAD_V", {{"row", 100}, {"addr", 4096}, {"stride", row_bytes}, {"count", 2}}}},
      // FPSRAM is read and written at issue
      {{"S_ST_FP", {{"fs", 1}, {"imm", 3}}}, {"S_LD_FP", {{"rd", 2}, {"imm", 3}}}},
  };
  for (const auto& [earlier, later] : pairs) {
    const Program program = program_of({earlier, later}, hw);
    EXPECT_EQ(measured_distance(earlier, later, hw), predicted_distance(earlier, later, hw))
        << hw << ":\n"
        << program.source;
  }
}

// The one exception the table's rule "Interlocks work per instruction range" states: M_MM and M_MMA on
// accumulator rows an earlier M_MM or M_MMA still writes do not wait for it (the array applies them in
// order); only the matrix unit's occupancy spaces them.
TEST_P(SystolicSchedulingRtl, AccumulatingIntoRowsInFlightWaitsOnlyForTheUnit) {
  const std::string hw = GetParam();
  const Instance mm{"M_MM", {{"vrow", 32}}};
  for (const char* next : {"M_MM", "M_MMA"}) {
    const Instance later{next, {{"vrow", 100}}};
    EXPECT_EQ(measured_distance(mm, later, hw), evaluate(mm.spec().occupancy, mm, hw)) << next;
    EXPECT_GT(predicted_distance(mm, later, hw), evaluate(mm.spec().occupancy, mm, hw)) << next;
  }
  const SchedulingTable t = testing::platform().scheduling_table(hw);
  bool stated = false;
  for (const auto& [title, text] : t.rules)
    stated = stated || text.find("M_MM/M_MMA on accumulator rows") != std::string::npos;
  EXPECT_TRUE(stated) << "the rules do not state the exception";
}

INSTANTIATE_TEST_SUITE_P(Configs, SystolicSchedulingRtl, ::testing::Values("default", "small"),
                         [](const auto& param_info) { return param_info.param; });

}  // namespace
}  // namespace kcraft::systolic
