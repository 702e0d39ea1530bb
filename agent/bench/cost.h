// What the runs cost (docs/bench.md, "Cost"): each LLM run priced from its token counts and the prices its
// provider settings carried (agent_settings.prices, per role where a workflow role had settings of its
// own), or from a price table by model name given to the report (`kcraft report --prices FILE`), which wins.
//
//   run cost              the sum over the run's roles of usage_cost_usd(role's tokens, role's prices)
//                         (agent/providers/prices.h: no token priced twice); tokens not attributed to a
//                         role are priced at the run's own settings. A part with no tokens costs 0 without
//                         prices; any other part without prices makes the run's cost unknown.
//   applies to            an LLM agent's runs whose usage was recorded: offline agents call no model, and a
//                         failed job (worker crash, timeout) lost its usage with the worker
//   group cost            the sum over the group's runs it applies to; unknown when any of them is
//   cost per run          group cost / those runs
//   cost per solved cfg   group cost / configurations solved: every attempt counts, the failed ones and
//                         those on an already solved configuration too (what it took to solve them)
#pragma once

#include <vector>

#include "agent/bench/run_record.h"
#include "agent/providers/prices.h"

namespace kcraft::bench {

// The run's cost; `overrides` (by model name) wins over the prices stored with the run.
RunCost run_cost(const RunRecord& run, const agent::PriceTable& overrides = {});
// Sets every run's `cost`.
void price_runs(std::vector<RunRecord>& runs, const agent::PriceTable& overrides = {});

// "$0.0123"-style text: two decimals from a dollar up, more below so that small costs do not read as 0.
std::string usd_text(double usd);

}  // namespace kcraft::bench
