// Exposed-pipeline hazards of a VLIW program (IsaSpec::bundle with exposed register classes): where the
// value a read sees is not the one the program order suggests. The assembler turns them into warnings;
// kernel writers silence the reads they mean with `.reads_old` (docs/vliw.md §1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "isa/common/isa_spec.h"

namespace kcraft::isa {

// One register operand of one op word.
struct RegisterUse {
  size_t word = 0;
  size_t operand = 0;  // index into the op's InstructionSpec::operands
  int register_class = -1;
  int64_t number = 0;
};

// A read that sees an older value than the last write before it in program order: that write was issued
// `distance` bundles earlier and lands `latency` bundles after its issue.
struct ReadBeforeReady {
  RegisterUse write;
  RegisterUse read;
  int64_t distance = 0;
  int64_t latency = 0;
  bool crossed_back_edge = false;
};

// Two writes of one register whose results land out of program order: `later` is issued `distance`
// bundles after `earlier` but lands first, so once `earlier` lands the register holds the older result.
struct LandingOutOfOrder {
  RegisterUse earlier;
  RegisterUse later;
  int64_t distance = 0;
  int64_t earlier_latency = 0;
  int64_t later_latency = 0;
  bool crossed_back_edge = false;
};

struct PipelineHazards {
  std::vector<ReadBeforeReady> reads;
  std::vector<LandingOutOfOrder> overwrites;
};

// Follows every path the program can take from each write of an exposed register, hardware loops' back
// edges included (a loop with an immediate count of 0 or 1 has none), as far as the write's latency
// reaches, and stops where a later write of the same register takes over. Each (write, read) pair and each
// (earlier, later) pair is reported once, at its shortest distance. Words that do not decode are skipped.
PipelineHazards find_pipeline_hazards(const IsaSpec& spec, const std::vector<uint32_t>& words);

// An operand's latency when it is a plain number of bundles (nullopt for an expression).
std::optional<int64_t> plain_latency(const std::string& text);

}  // namespace kcraft::isa
