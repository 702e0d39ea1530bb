// The facts a kernel scheduler needs, per instruction, as one machine-readable table: `kcraft isa
// PLATFORM --json` (its "scheduling" object; docs/platforms.md "Scheduling table"). Each platform fills it
// from the same source its guide and reference are generated from, so the three cannot disagree.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "isa/common/assembler.h"

namespace kcraft {

// A memory range an instruction reads or writes (isa::MemoryAccess, as the ISA YAML's `memory:` states
// it): `rows` rows of `size` address units in `space`, the first at `first`, each next one `stride` units
// further; `busy` is how long it holds a later conflicting instruction ("none", "occupancy", "latency").
struct MemoryRange {
  std::string space;
  std::string first;
  std::string rows;
  std::string stride;
  std::string size;
  std::string busy;
  // Their values on the table's hardware configuration when they use only its parameters.
  std::optional<int64_t> rows_value;
  std::optional<int64_t> size_value;
};

struct InstructionTiming {
  std::string name;    // mnemonic, as the ISA reference spells it
  std::string syntax;  // as the reference writes it
  std::string unit;    // the unit (or engine) that executes it
  std::string slot;    // VLIW ISAs: the bundle slot kind it takes; "" otherwise
  // Formulas in the table's time unit, over the hardware parameters, the operands and, where the guide
  // says so, run-time values (vl, the number of beats B); with their value on the table's hardware
  // configuration when that is fixed.
  std::string latency;    // from issue until a dependent instruction can use the result
  std::string occupancy;  // from issue until its unit takes the next instruction of its kind
  std::optional<int64_t> latency_value;
  std::optional<int64_t> occupancy_value;
  std::vector<std::string> reads;   // operands (registers, memory) it reads
  std::vector<std::string> writes;  // and writes
  // The memory it reads and writes, when the platform states it (otherwise nullopt, and the JSON leaves
  // the keys out rather than claim an instruction touches no memory).
  std::optional<std::vector<MemoryRange>> reads_memory;
  std::optional<std::vector<MemoryRange>> writes_memory;
  std::string hazards;  // what holds a dependent or conflicting instruction, or that nothing does
};

struct SchedulingTable {
  std::string platform;
  std::string hw;
  std::string time_unit;  // "cycles", or "bundles" where latencies count issue slots
  std::string issue;      // the issue model, one paragraph
  std::vector<std::pair<std::string, std::string>> units;  // name, what it does
  std::vector<std::pair<std::string, std::string>> rules;  // title, text: queues, interlocks, DMA, ...
  std::vector<InstructionTiming> instructions;
};

nlohmann::json to_json(const SchedulingTable& table);

// A latency or occupancy formula's value when it uses only `symbols` (a hardware configuration's
// parameters); nullopt when it needs an operand or run-time value, or is not an expression.
std::optional<int64_t> formula_value(const std::string& formula, const isa::SymbolTable& symbols);

}  // namespace kcraft
