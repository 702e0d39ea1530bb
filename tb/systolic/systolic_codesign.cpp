// systolic's timing-model knowledge for `kcraft codesign` (agent/bench/codesign.h, docs/codesign.md).
#include <fmt/format.h>

#include "tb/systolic/systolic_platform.h"

namespace kcraft::systolic {

CodesignRules SystolicPlatform::codesign_rules(const std::string& hw) const {
  const HwConfig& c = hw_config(hw);
  auto doubled = [&](const std::string& key) { return doubled_build_param(c, key); };
  const auto bandwidth = doubled_runtime_param(c, "dram_bytes_per_cycle");
  const int64_t mlen = c.build_param("MLEN");
  CodesignRules rules;
  rules.issue_track = "issue";
  rules.unit_priority = {"matrix", "vector", "dma", "scalar", "control"};
  // unit_busy waits for the matrix unit or a DMA slot: the waiting instruction's unit says which.
  rules.cause_units = {{"fp_pending", "vector"}, {"drain", "control"}};
  rules.fusion_units = {"vector"};
  // Waiting for the earlier part's row (dependency) or FP register (fp_pending).
  rules.fusion_saved_causes = {"dependency", "fp_pending"};
  rules.fusion_rule =
      "the vector unit takes one instruction per cycle and a dependent one waits for its source row's "
      "3-cycle latency; a fused instruction issues once and chains its parts inside the unit, so the later "
      "parts' issue cycles and their dependency and fp_pending stalls are saved (the result is ready "
      "no later than before)";
  rules.parameters = {
      {"unit_busy", "dma", "DMA_SLOTS", doubled("DMA_SLOTS"),
       "DMA commands wait for a free slot: more slots keep more transfers in flight"},
      {"unit_busy", "dma", "dram_bytes_per_cycle", bandwidth,
       "a slot is held while its rows stream from DRAM: more bandwidth frees it sooner"},
      {"unit_busy",
       "matrix",
       "MLEN,VLEN",
       {std::to_string(mlen), std::to_string(2 * mlen)},
       "instructions wait for the matrix unit: a larger array does a tile's MACs in fewer passes"},
      {"dependency", "dma", "dram_bytes_per_cycle", bandwidth,
       "a DMA store waits for rows still being written or loaded"},
  };
  rules.essential = {"C_HALT"};
  return rules;
}

}  // namespace kcraft::systolic
