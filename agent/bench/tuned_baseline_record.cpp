#include "agent/bench/tuned_baseline_record.h"

namespace kcraft::bench {

using nlohmann::json;

double TunedBaseline::speedup_over_baseline() const {
  return cycles > 0 && baseline_cycles > 0
             ? static_cast<double>(baseline_cycles) / static_cast<double>(cycles)
             : 0;
}

json TunedBaseline::to_json() const {
  return {{"platform", key.platform},
          {"hw_config", key.hw_config},
          {"task", key.task},
          {"config", key.config},
          {"hardware_id", key.hardware_id},
          {"git_commit", key.git_commit},
          {"search_space", key.search_space},
          {"cycles", cycles},
          {"baseline_cycles", baseline_cycles},
          {"speedup_over_baseline", speedup_over_baseline()},
          {"budget", budget},
          {"iterations", iterations},
          {"kernel", kernel},
          {"source", source},
          {"transcript", transcript},
          {"computed_at", computed_at},
          {"seconds", seconds}};
}

}  // namespace kcraft::bench
