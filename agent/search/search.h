// Search over candidate kernels (docs/agents.md, "Search"): the model is the mutation and crossover
// operator, kcraft evaluates every candidate on the development seed in parallel worker processes
// (agent/bench/pool.h), and the best candidate is scored on the hidden seeds like any agent's answer.
//
// Two strategies:
// - island: N islands, each a population of candidates; every generation each island breeds `population`
//   children (one parent: a mutation, two: a crossover), keeps its best `population` (correct first, then
//   fewer cycles), and every `migration_interval` generations the best of island i moves to island i+1.
// - ucb: a tree whose nodes are kernels and whose children are model-proposed edits of them; the next node
//   to expand is found by descending with UCB1 on the reward (the speedup of a correct kernel on the
//   development seed, 0 for an incorrect one). Expansions go to free workers without waiting for a round.
//
// Reproducibility: every decision (which parents, which node, the prompts, the order of model calls)
// depends only on results already applied, and results are applied in candidate order whatever order the
// workers finish in. Against a deterministic model server, the same --search-seed and settings give the
// same candidates, model calls and answer however the workers are scheduled. (For ucb, --search-jobs is
// one of those settings: it bounds how many expansions are in flight, which changes what they see.)
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/common/agent_run.h"

namespace kcraft::agent::search {

enum class Strategy { kIsland, kUcb };
const char* strategy_name(Strategy strategy);
// Throws std::invalid_argument listing the strategies.
Strategy strategy_from_name(const std::string& name);

struct SearchOptions {
  Strategy strategy = Strategy::kIsland;
  // island
  unsigned islands = 2;
  unsigned population = 3;
  unsigned generations = 3;
  unsigned migration_interval = 2;  // generations between migrations
  double crossover_rate = 0.3;      // share of children bred from two parents (when an island has two)
  // ucb
  double exploration = 1.4;   // UCB1's constant c
  unsigned max_children = 3;  // children a node gets before the search descends below it
  // both
  unsigned jobs = 1;             // worker processes evaluating candidates
  unsigned max_model_calls = 0;  // 0: the task level's iteration budget (15 / 20 / 25)
  unsigned max_evaluations = 0;  // 0: max_model_calls + the seeds
  // Passing kernels of the run's library (TaskContext::library, under the benchmark rule) seeded next
  // to the template's kernel.
  unsigned library_seeds = 2;
  uint64_t seed = 1;                       // the search's random choices (parents, crossover)
  double candidate_timeout_seconds = 300;  // a candidate evaluation longer than this is a hang
  std::vector<std::string> worker_argv;    // a `kcraft bench-worker` command (agent/bench/sweep.h)
  std::map<unsigned, std::string> faults;  // tests only: candidate id -> crash | hang | ... (worker.h)

  nlohmann::json to_json() const;
  // Throws std::invalid_argument for settings no search could run with.
  void validate() const;
};

// One candidate kernel and what its evaluation on the development seed said.
struct Candidate {
  unsigned id = 0;
  std::string op;  // seed (the template's kernel) | library | create | mutate | crossover | expand
  std::vector<unsigned> parents;
  int island = -1;  // island: where it was bred (-1: the seed, in every island)
  std::string kernel;
  std::string language;
  // evaluated | no_kernel (the reply had none) | crash | timeout (the worker died or hung) | error
  std::string outcome = "pending";
  std::string verdict;  // run_eval's verdict when evaluated
  uint64_t cycles = 0;
  std::string eval_text, profile_text;  // what the model sees of it as a parent
  std::string error;                    // why the evaluation failed
  unsigned model_call = 0;              // the model call that proposed it (0: the seed)

  bool correct() const { return outcome == "evaluated" && verdict == "pass"; }
  bool is_seed() const { return op == "seed" || op == "library"; }
  nlohmann::json to_json(bool with_kernel) const;
};

// Selection order: a correct candidate before an incorrect one, then fewer cycles, then the older one.
bool better(const Candidate& a, const Candidate& b);

// UCB1 of a child: value_sum / visits + c * sqrt(ln(parent_visits) / visits); an unvisited child is +inf.
double ucb1(double value_sum, unsigned visits, unsigned parent_visits, double exploration);
// The child with the highest UCB1 (the first of equals); children are (value_sum, visits).
size_t select_ucb(const std::vector<std::pair<double, unsigned>>& children, unsigned parent_visits,
                  double exploration);

struct SearchResult {
  AgentResult agent;  // the best candidate scored on the hidden seeds (agent.score), calls, tokens, time
  std::vector<Candidate> candidates;
  nlohmann::json summary;  // the search part of the result JSON: settings, counts, best, lineage
};

// Runs the search with `provider` as the operator. `transcript` gets run_start, every model call, every
// candidate (its evaluation's tool calls, which replay re-executes), migrations, search_end, score and
// run_end.
SearchResult run_search(const SearchOptions& options, Provider& provider, const TaskContext& context,
                        Transcript& transcript);

}  // namespace kcraft::agent::search
