// `kcraft debug`: bring-up aids shared by every platform. A platform describes its architectural state as a
// MachineSnapshot (named registers and memories of rows) and implements a DebugTarget (run its functional
// model or its RTL until a given number of instructions has retired, then stop with every unit drained);
// run_debug_session() does the rest the same way everywhere: resolves the stop point, dumps both sides
// next to each other and, with --lockstep, finds the first retired instruction after which they differ.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/common/accelerator_hw.h"
#include "tb/common/evaluation_steps.h"
#include "tb/common/platform.h"

namespace kcraft::tb {

// How a value is printed; comparisons are always on the bits.
enum class ValueFormat { kHex, kInt, kBf16, kFp32 };

struct SnapshotRegister {
  std::string group;  // "scalar", "fp", "vector", "address", ...
  std::string name;   // as the assembler spells it ("x3", "f0")
  uint64_t bits = 0;
  ValueFormat format = ValueFormat::kHex;
};

// An on-chip memory (SRAM, scratchpad, accumulators) or a DRAM tensor as rows of equal-width elements.
struct SnapshotMemory {
  std::string name;  // what --rows selects it by ("vsram", "acc"; a DRAM tensor by its task name: "y")
  unsigned row_elements = 1;
  ValueFormat format = ValueFormat::kHex;
  std::vector<uint64_t> data;  // rows * row_elements elements, row-major
  bool dram = false;           // a region of the task's DRAM layout (an input, an output, scratch)
  size_t rows() const { return row_elements == 0 ? 0 : data.size() / row_elements; }
};

// One side's architectural state at a stop point.
struct MachineSnapshot {
  uint32_t pc = 0;       // the next instruction (the one the stop did not execute)
  uint64_t retired = 0;  // instructions this side retired before it stopped
  // This side's cycle at the stop (nullopt: the side has no cycles, e.g. an untimed model). At the end of
  // a run the RTL's is AcceleratorHw::run_length(), the count `kcraft eval` prints.
  std::optional<uint64_t> cycle;
  std::string status;  // "stopped", "halted", "error", "cycle cap", ...
  // Why this side's run ended before the stop point, in `kcraft eval`'s words (the runtime error with its pc
  // and disassembly, the hang diagnosis); "" when it reached the stop point or halted normally.
  std::string why;
  std::vector<SnapshotRegister> registers;
  std::vector<SnapshotMemory> memories;  // on-chip ones first, then the DRAM tensors
};

// The task's DRAM regions (inputs, outputs, scratch; not the phase markers) of a DRAM image, by name, as
// memories of rows: a tensor's rows are its last dimension, scratch's `scratch_row_elements` elements.
std::vector<SnapshotMemory> dram_tensors(const PreparedRun& run, const std::vector<uint8_t>& dram,
                                         unsigned scratch_row_elements = 16);

// The first difference between two snapshots, or nullopt. Registers first (in order), then memories.
struct SnapshotDifference {
  std::string where;  // "x3", "vsram row 12 element 5"
  std::string rtl, model;
  std::string memory;  // the memory's name when it is a row ("" for a register)
  size_t row = 0;
};
// `pc_text` writes a pc the way the platform's listings do (DebugTarget::pc_text); decimal without it.
std::optional<SnapshotDifference> first_difference(const MachineSnapshot& rtl, const MachineSnapshot& model,
                                                   const std::function<std::string(uint32_t)>& pc_text = {});

// A platform's way to run to a stop point. `retired` counts retired instructions (bundles on VLIW); the
// machine stops before executing the next one and lets every unit finish what is in flight.
class DebugTarget {
 public:
  virtual ~DebugTarget() = default;
  // The model's run to its end (or `limit` instructions): the pc of every retired instruction, in order.
  virtual std::vector<uint32_t> model_pcs(uint64_t limit) = 0;
  virtual MachineSnapshot model_after(uint64_t retired) = 0;
  // `pcs` is model_pcs()'s answer (the RTL is stopped by replacing the next instruction with a halt).
  virtual MachineSnapshot rtl_after(uint64_t retired, const std::vector<uint32_t>& pcs) = 0;
  // How many instructions the RTL had retired when its cycle `cycle` began.
  virtual uint64_t rtl_retired_at_cycle(uint64_t cycle) = 0;
  // The instruction at `pc` as assembly text, with its source line when known ("kernel.s:12: ...").
  virtual std::string describe(uint32_t pc) = 0;
  // True when model_after/rtl_after read recorded traces: lockstep then checks every instruction instead of
  // bisecting (which assumes a difference, once there, stays).
  virtual bool snapshots_are_cheap() const { return false; }
  // A pc as the platform's listings write it: an instruction index by default.
  virtual std::string pc_text(uint32_t pc) const { return std::to_string(pc); }
  // The pc of a label of the kernel, nullopt when there is none by that name.
  virtual std::optional<uint32_t> label(const std::string& name) = 0;
  // The run being debugged: its golden reference is shown beside the output tensors (nullptr: none).
  virtual const PreparedRun* prepared() const { return nullptr; }
  // --stop-at-cycle N: no run of this session needs to go past cycle N (a kernel that never halts stops
  // there instead of at the cycle cap). Called before model_pcs().
  virtual void limit_cycles(uint64_t /*cycle*/) {}
};

// Runs a Verilated top from reset until `retired` instructions have issued and the machine has stopped
// before the next one (pcs[retired]), by making that instruction a halt (`halt_word` at its pc): in the
// program when it is that pc's first visit, otherwise written into IMEM during the run (a control write on
// the clock edge where instruction retired - 2 issues: IMEM reads the word for instruction retired - 1 on the
// same edge and gets the old word, since the SRAM reads before it writes, and instruction `retired` is
// fetched one issue later). That needs an in-order top that fetches the next instruction on the edge it
// issues one. With retired == pcs.size() the program runs unchanged to its end. Returns false when the cap
// is reached first.
bool run_rtl_until_retired(AcceleratorHw& hw, MemoryPort& port, std::vector<uint32_t> program,
                           uint64_t dram_bytes, uint64_t retired, const std::vector<uint32_t>& pcs,
                           uint32_t halt_word, uint64_t cycle_cap);

// The instructions the top issues in its first `cycles` cycles of a run started by the caller.
uint64_t count_rtl_issues(AcceleratorHw& hw, MemoryPort& port, uint64_t cycles);

// Parses "vsram:0-7", "acc:3", "vsram" (every row) into DebugRowRange; throws std::invalid_argument.
DebugRowRange parse_row_range(const std::string& text);

// The run `kcraft debug` examines, prepared exactly as `kcraft eval` prepares it (prepare_run; `linked`
// and `fill` as there). When the kernel cannot run (it does not build, ...), `run` is empty and `failed`
// says why. Bad input (an unknown task, configuration or hardware configuration) throws
// std::invalid_argument, as every command's bad options do.
struct DebugPreparation {
  std::optional<PreparedRun> run;
  CommandReport failed;
};
DebugPreparation prepare_debug_run(const Platform& platform, const DebugOptions& options,
                                   const tasks::TaskRegistry& registry, const LinkedConfigs& linked,
                                   uint8_t fill);

// Applies the options to the target; the text and JSON of the report. Throws std::invalid_argument for a
// stop point that does not exist (an unknown label, a pc the run never reaches).
CommandReport run_debug_session(const DebugOptions& options, DebugTarget& target);

// Text of one value in `format`.
std::string format_value(uint64_t bits, ValueFormat format);

}  // namespace kcraft::tb
