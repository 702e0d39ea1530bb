// vliw's timing-model knowledge for `kcraft codesign` (agent/bench/codesign.h, docs/codesign.md).
#include "tb/vliw/vliw_platform.h"

namespace kcraft::vliw {

CodesignRules VliwPlatform::codesign_rules(const std::string& hw) const {
  const HwConfig& c = hw_config(hw);
  auto doubled = [&](const std::string& key) { return doubled_build_param(c, key); };
  const auto bandwidth = doubled_runtime_param(c, "dram_bytes_per_cycle");
  CodesignRules rules;
  rules.issue_track = "issue";
  // A bundle's cycle goes to its arithmetic first: the slot a kernel is usually bound by.
  rules.unit_priority = {"accumulator", "vector", "load_store", "dma", "scalar", "control"};
  rules.cause_units = {
      {"bank_conflict", "load_store"}, {"dma_queue", "dma"}, {"lock_wait", "dma"}, {"drain", "control"}};
  rules.fusion_units = {"vector", "accumulator"};
  rules.fusion_rule =
      "one bundle issues per cycle and the pipeline is exposed (no interlocks): a dependent op sits in a "
      "later bundle, so a fused op saves the cycles charged to the later parts (the bundles they are the "
      "critical op of; no stall: the exposed pipeline has no interlock, a kernel waits for a result with "
      "other "
      "bundles) when the other slots of those bundles can move";
  rules.parameters = {
      {"bank_conflict", "", "DM_BANKS", doubled("DM_BANKS"),
       "two load/store ops of a bundle hit one bank: more banks make it rarer"},
      {"dma_queue", "", "DMA_QUEUE", doubled("DMA_QUEUE"), "DMA ops wait for room in their channel's queue"},
      {"lock_wait", "", "dram_bytes_per_cycle", bandwidth,
       "C_ACQ waits for a DMA transfer to finish: more DRAM bandwidth finishes it sooner"},
      {"drain", "", "dram_bytes_per_cycle", bandwidth, "C_HALT waits for the last stores to reach DRAM"},
  };
  rules.essential = {"C_HALT", "C_NOP"};
  return rules;
}

}  // namespace kcraft::vliw
