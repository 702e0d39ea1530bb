#include "agent/search/search.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <set>
#include <stdexcept>

#include "agent/bench/job_spec.h"
#include "agent/bench/pool.h"
#include "agent/common/environment.h"
#include "agent/common/scoring.h"
#include "agent/library/library.h"

namespace kcraft::agent::search {

using nlohmann::json;

const char* strategy_name(Strategy strategy) {
  return strategy == Strategy::kIsland ? "island" : "ucb";
}

Strategy strategy_from_name(const std::string& name) {
  if (name == "island") return Strategy::kIsland;
  if (name == "ucb") return Strategy::kUcb;
  throw std::invalid_argument("unknown search '" + name + "' (available: island, ucb)");
}

json SearchOptions::to_json() const {
  json j = {{"strategy", strategy_name(strategy)},
            {"jobs", jobs},
            {"max_model_calls", max_model_calls},
            {"max_evaluations", max_evaluations},
            {"library_seeds", library_seeds},
            {"seed", seed},
            {"candidate_timeout_seconds", candidate_timeout_seconds}};
  if (strategy == Strategy::kIsland) {
    j.update({{"islands", islands},
              {"population", population},
              {"generations", generations},
              {"migration_interval", migration_interval},
              {"crossover_rate", crossover_rate}});
  } else {
    j.update({{"exploration", exploration}, {"max_children", max_children}});
  }
  return j;
}

void SearchOptions::validate() const {
  auto positive = [](unsigned v, const char* what) {
    if (v == 0) throw std::invalid_argument(fmt::format("search: {} must be at least 1", what));
  };
  positive(jobs, "--search-jobs");
  if (strategy == Strategy::kIsland) {
    positive(islands, "--islands");
    positive(population, "--population");
    positive(generations, "--generations");
    positive(migration_interval, "--migration-interval");
    if (!(crossover_rate >= 0 && crossover_rate <= 1))
      throw std::invalid_argument("search: the crossover rate must be between 0 and 1");
  } else {
    positive(max_children, "--max-children");
    if (!(exploration >= 0) || !std::isfinite(exploration))
      throw std::invalid_argument("search: --exploration must be a finite number >= 0");
  }
  if (!(candidate_timeout_seconds > 0))
    throw std::invalid_argument("search: --candidate-timeout must be positive");
  if (worker_argv.empty()) throw std::invalid_argument("search: no worker command");
}

json Candidate::to_json(bool with_kernel) const {
  json j = {{"id", id},           {"op", op},         {"parents", parents},      {"outcome", outcome},
            {"verdict", verdict}, {"cycles", cycles}, {"model_call", model_call}};
  if (island >= 0) j["island"] = island;
  if (!error.empty()) j["error"] = error;
  if (with_kernel) {
    j["kernel"] = kernel;
    j["language"] = language;
  }
  return j;
}

bool better(const Candidate& a, const Candidate& b) {
  if (a.correct() != b.correct()) return a.correct();
  if (a.correct() && a.cycles != b.cycles) return a.cycles < b.cycles;
  return a.id < b.id;
}

double ucb1(double value_sum, unsigned visits, unsigned parent_visits, double exploration) {
  if (visits == 0) return std::numeric_limits<double>::infinity();
  const double n = std::max(1u, parent_visits);
  return value_sum / visits + exploration * std::sqrt(std::log(n) / visits);
}

size_t select_ucb(const std::vector<std::pair<double, unsigned>>& children, unsigned parent_visits,
                  double exploration) {
  if (children.empty()) throw std::invalid_argument("select_ucb: no children");
  size_t best = 0;
  double best_value = -std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < children.size(); ++i) {
    const double v = ucb1(children[i].first, children[i].second, parent_visits, exploration);
    if (v > best_value) {
      best = i;
      best_value = v;
    }
  }
  return best;
}

namespace {

// A small deterministic generator (splitmix64): the same numbers with every compiler and library.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }
  double unit() { return static_cast<double>(next() >> 11) / 9007199254740992.0; }

 private:
  uint64_t state_;
};

// What the schedule does next: propose a candidate, apply the oldest unapplied result, or end.
enum class Op { kPropose, kApply, kDone };

// A proposal: which operator and parents (the engine asks the model, or takes the baseline for a seed).
struct Proposal {
  std::string op;
  std::vector<unsigned> parents;
  int island = -1;
  int tree_parent = -1;  // ucb: the node expanded
};

struct Counters {
  unsigned proposed = 0;
  unsigned applied = 0;
  bool can_propose = true;   // budgets left and the provider alive
  bool can_evaluate = true;  // the evaluation budget left (seeds need no model call)
};

class Schedule {
 public:
  explicit Schedule(unsigned seeds) : seeds_(seeds) {}
  virtual ~Schedule() = default;
  virtual Op next(const Counters& c) = 0;
  virtual Proposal propose(Random& random) = 0;
  // A candidate's result is in (candidates applied in id order). The seed comes first when there is one.
  virtual void applied(const Candidate& candidate) = 0;
  // Events for the transcript (migrations); taken by the engine after every call.
  std::vector<json> take_events() { return std::exchange(events_, {}); }
  virtual json summary() const = 0;
  // Whether the schedule ended before its own end (the budget or the provider stopped it).
  virtual bool cut_short() const = 0;

 protected:
  // The seeds go first, one after the other, and are all in before the first model call.
  std::optional<Op> seeding(const Counters& c) {
    if (seeded_) return std::nullopt;
    if (c.proposed < seeds_ && c.can_evaluate) return Op::kPropose;
    if (c.applied < c.proposed) return Op::kApply;
    seeded_ = true;
    return std::nullopt;
  }

  unsigned seeds_;
  bool seeded_ = false;
  std::vector<json> events_;
};

class IslandSearch : public Schedule {
 public:
  IslandSearch(const SearchOptions& o, const std::vector<Candidate>& all, unsigned seeds)
      : Schedule(seeds), o_(o), all_(all), islands_(o.islands) {}

  Op next(const Counters& c) override {
    if (auto op = seeding(c)) return *op;
    for (;;) {
      if (generation_ > o_.generations) return Op::kDone;
      if (bred_ < o_.islands * o_.population && c.can_propose) return Op::kPropose;
      if (c.applied < c.proposed) return Op::kApply;
      end_generation(c);
    }
  }

  Proposal propose(Random& random) override {
    if (!seeded_) return {"seed", {}, -1, -1};  // the engine knows which
    const int island = static_cast<int>(bred_ / o_.population);
    ++bred_;
    const auto& members = islands_[island];
    if (members.empty()) return {"create", {}, island, -1};
    if (members.size() >= 2 && random.unit() < o_.crossover_rate) {
      const unsigned a = tournament(members, random);
      unsigned b = tournament(members, random);
      for (int tries = 0; b == a && tries < 8; ++tries) b = tournament(members, random);
      if (b != a) return {"crossover", {a, b}, island, -1};
    }
    return {"mutate", {tournament(members, random)}, island, -1};
  }

  void applied(const Candidate& cand) override {
    if (cand.is_seed()) {  // in every island (each keeps its best when the generation ends)
      for (auto& members : islands_) members.push_back(cand.id);
      return;
    }
    children_.push_back(cand.id);
  }

  json summary() const override {
    json islands = json::array();
    for (const auto& members : islands_) islands.push_back(members);
    return {{"generations_run", generation_ - 1}, {"migrations", migrations_}, {"islands", islands}};
  }

 private:
  // The better of two random members (tournament selection: pressure without sorting the island).
  unsigned tournament(const std::vector<unsigned>& members, Random& random) const {
    const unsigned a = members[random.below(members.size())];
    const unsigned b = members[random.below(members.size())];
    return better(all_[a], all_[b]) ? a : b;
  }

  bool cut_short() const override { return cut_; }

  void end_generation(const Counters& c) {
    const bool unfinished = bred_ < o_.islands * o_.population || generation_ < o_.generations;
    for (unsigned child : children_) islands_[all_[child].island].push_back(child);
    children_.clear();
    for (auto& members : islands_) keep_best(members);
    if (o_.islands > 1 && generation_ % o_.migration_interval == 0) migrate();
    ++generation_;
    bred_ = 0;
    if (!c.can_propose && unfinished) {  // the budget (or the provider) ended the search
      cut_ = true;
      generation_ = o_.generations + 1;
    }
  }

  // The island keeps its best `population` candidates, one per distinct kernel.
  void keep_best(std::vector<unsigned>& members) const {
    std::sort(members.begin(), members.end(),
              [&](unsigned a, unsigned b) { return better(all_[a], all_[b]); });
    std::vector<unsigned> kept;
    std::set<std::string> kernels;
    for (unsigned id : members) {
      if (kept.size() == o_.population) break;
      // A reply without a kernel has nothing to breed from.
      if (!all_[id].kernel.empty() && kernels.insert(all_[id].kernel).second) kept.push_back(id);
    }
    members = kept;
  }

  // Ring migration: the best of island i replaces the worst of island i+1 (both chosen before any
  // island changes, so the order of islands does not matter).
  void migrate() {
    std::vector<unsigned> best(islands_.size());
    for (size_t i = 0; i < islands_.size(); ++i) {
      if (islands_[i].empty()) return;
      best[i] = islands_[i].front();
    }
    for (size_t i = 0; i < islands_.size(); ++i) {
      auto& to = islands_[(i + 1) % islands_.size()];
      const unsigned migrant = best[i];
      if (std::find(to.begin(), to.end(), migrant) != to.end()) continue;
      if (to.size() >= o_.population) to.pop_back();
      to.push_back(migrant);
      keep_best(to);
      ++migrations_;
      events_.push_back({{"type", "migration"},
                         {"generation", generation_},
                         {"from", i},
                         {"to", (i + 1) % islands_.size()},
                         {"candidate", migrant}});
    }
  }

  const SearchOptions& o_;
  const std::vector<Candidate>& all_;
  std::vector<std::vector<unsigned>> islands_;
  std::vector<unsigned> children_;  // this generation's, applied
  unsigned generation_ = 1;
  unsigned bred_ = 0;  // children proposed in this generation
  unsigned migrations_ = 0;
  bool cut_ = false;
};

class UcbSearch : public Schedule {
 public:
  UcbSearch(const SearchOptions& o, const std::vector<Candidate>& all, unsigned seeds)
      : Schedule(seeds), o_(o), all_(all) {
    nodes_.push_back(Node{});  // the root: no kernel; the seeds are its children
  }

  Op next(const Counters& c) override {
    if (auto op = seeding(c)) return *op;
    if (c.can_propose && c.proposed - c.applied < o_.jobs) return Op::kPropose;
    if (c.applied < c.proposed) return Op::kApply;
    return Op::kDone;
  }

  Proposal propose(Random&) override {
    if (!seeded_) return {"seed", {}, -1, -1};
    // Descend from the root: expand a node with room for children, else go to its child of highest
    // UCB1 among those whose result is in (a pending child has nothing to show the model yet).
    size_t v = 0;
    std::vector<size_t> path{0};
    for (;;) {
      const Node& node = nodes_[v];
      std::vector<size_t> ready;
      for (size_t child : node.children) {
        if (nodes_[child].applied && nodes_[child].has_kernel) ready.push_back(child);
      }
      // The root is expanded (a kernel from nothing) only in a search without seeds.
      const bool room = v == 0 ? seeds_ == 0 && node.children.size() < o_.max_children
                               : node.children.size() < o_.max_children;
      if (room || ready.empty()) break;
      std::vector<std::pair<double, unsigned>> stats;
      for (size_t child : ready) stats.emplace_back(value_sum(nodes_[child]), nodes_[child].visits);
      v = ready[select_ucb(stats, node.visits, o_.exploration)];
      path.push_back(v);
    }
    // A virtual visit along the path (reward 0 until the result is in) steers the expansions in flight
    // apart.
    for (size_t n : path) nodes_[n].visits++;
    Node child;
    child.parent = static_cast<int>(v);
    child.visits = 1;
    nodes_.push_back(child);
    nodes_[v].children.push_back(nodes_.size() - 1);
    pending_.push_back(nodes_.size() - 1);
    const int tree_parent = static_cast<int>(v);
    if (nodes_[v].candidate < 0) return {"create", {}, -1, tree_parent};
    return {"expand", {static_cast<unsigned>(nodes_[v].candidate)}, -1, tree_parent};
  }

  void applied(const Candidate& cand) override {
    if (cand.is_seed()) {
      Node seed;
      seed.candidate = static_cast<int>(cand.id);
      seed.parent = 0;
      seed.visits = 1;
      seed.applied = true;
      seed.has_kernel = true;
      seed.backed.push_back(cand.id);
      nodes_.push_back(seed);
      nodes_[0].children.push_back(nodes_.size() - 1);
      nodes_[0].visits++;
      nodes_[0].backed.push_back(cand.id);
      return;
    }
    // Proposals and results pair up in order: this is the oldest pending node.
    const size_t n = pending_.front();
    pending_.erase(pending_.begin());
    nodes_[n].candidate = static_cast<int>(cand.id);
    nodes_[n].applied = true;
    nodes_[n].has_kernel = !cand.kernel.empty();
    for (int at = static_cast<int>(n); at >= 0; at = nodes_[at].parent) nodes_[at].backed.push_back(cand.id);
  }

  bool cut_short() const override { return true; }  // only a budget or the provider ends it

  json summary() const override {
    json tree = json::array();
    for (const auto& n : nodes_) {
      tree.push_back({{"candidate", n.candidate},
                      {"parent", n.parent},
                      {"visits", n.visits},
                      {"value", value_sum(n)},
                      {"children", n.children}});
    }
    return {{"nodes", tree}};
  }

 private:
  struct Node {
    int candidate = -1;  // -1: the empty root of a search without a seed
    int parent = -1;
    std::vector<size_t> children;
    unsigned visits = 0;           // expansions through it (dispatched), its own included
    std::vector<unsigned> backed;  // candidates of its subtree whose result is in
    bool applied = false;
    bool has_kernel = false;  // a reply without a kernel is a leaf: nothing to edit
  };

  // The reward of a candidate: its speedup on the development seed over the reference (the seed when
  // it is correct, else the first correct candidate), 0 when incorrect.
  double reward(unsigned id) const {
    const Candidate& c = all_[id];
    if (!c.correct() || c.cycles == 0) return 0;
    uint64_t reference = 0;
    for (const auto& other : all_) {
      if (other.correct() && other.cycles > 0) {
        reference = other.cycles;
        break;
      }
    }
    return static_cast<double>(reference) / static_cast<double>(c.cycles);
  }

  double value_sum(const Node& n) const {
    double sum = 0;
    for (unsigned id : n.backed) sum += reward(id);
    return sum;
  }

  const SearchOptions& o_;
  const std::vector<Candidate>& all_;
  std::vector<Node> nodes_;
  std::vector<size_t> pending_;  // nodes proposed, result not yet applied, oldest first
};

// The kernel in a reply: the last fenced code block (```lang ... ```). Returns the code and the fence's
// language tag.
std::optional<std::pair<std::string, std::string>> extract_kernel(const std::string& reply) {
  std::optional<std::pair<std::string, std::string>> found;
  size_t at = 0;
  for (;;) {
    const size_t open = reply.find("```", at);
    if (open == std::string::npos) break;
    const size_t line_end = reply.find('\n', open);
    if (line_end == std::string::npos) break;
    const size_t close = reply.find("```", line_end);
    if (close == std::string::npos) break;
    std::string tag = reply.substr(open + 3, line_end - open - 3);
    tag.erase(std::remove_if(tag.begin(), tag.end(), [](char ch) { return ch == ' ' || ch == '\r'; }),
              tag.end());
    std::string code = reply.substr(line_end + 1, close - line_end - 1);
    if (code.find_first_not_of(" \t\r\n") != std::string::npos) found = std::make_pair(code, tag);
    at = close + 3;
  }
  return found;
}

class SearchRun {
 public:
  SearchRun(const SearchOptions& options, Provider& provider, const TaskContext& ctx, Transcript& transcript)
      : o_(options), provider_(provider), transcript_(transcript), random_(options.seed) {
    const int level = task_registry().get(ctx.task).level;
    if (o_.max_model_calls == 0) o_.max_model_calls = default_iterations(level);
    level_ = level;
    result_.context = ctx;
    const ProviderSettings& s = provider_.settings();
    result_.agent = fmt::format("llm:{}/{}@search:{}", s.provider, s.model, strategy_name(o_.strategy));
    result_.budget = o_.max_model_calls;
    system_ = render_prompt("search.md", ctx, o_.max_model_calls);
    find_seeds();
    const auto seeds = static_cast<unsigned>(seeds_.size());
    if (options.max_evaluations == 0) o_.max_evaluations = o_.max_model_calls + seeds;
    if (o_.strategy == Strategy::kIsland) {
      strategy_ = std::make_unique<IslandSearch>(o_, candidates_, seeds);
    } else {
      strategy_ = std::make_unique<UcbSearch>(o_, candidates_, seeds);
    }
  }

  SearchResult run() {
    const auto t0 = std::chrono::steady_clock::now();
    write_start();
    bench::PoolOptions pool;
    pool.workers = o_.jobs;
    pool.job_timeout_seconds = o_.candidate_timeout_seconds;
    pool.worker_argv = o_.worker_argv;
    bench::PoolEvents events;
    events.finished = [&](size_t job, bench::RunRecord record) {
      results_[job_candidate_.at(job)] = std::move(record);
    };
    events.more = [&] { return more(); };
    bench::run_jobs({}, pool, events);
    more();  // applies what is left (a run without any evaluation never calls back)

    SearchResult out;
    const Candidate* best = nullptr;
    for (const auto& c : candidates_) {
      if (c.kernel.empty()) continue;
      if (best == nullptr || better(c, *best)) best = &c;
    }
    if (stop_status_.empty()) {
      result_.status = strategy_->cut_short() ? "budget_exhausted" : "search_complete";
    } else {
      result_.status = stop_status_;
    }
    result_.iterations = model_calls_;
    result_.evaluations = dispatched_;
    if (best != nullptr) {
      result_.final_code = best->kernel;
      result_.final_language = best->language;
    }
    out.summary = summary(best);
    result_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.summary["wall_seconds"] = result_.wall_seconds;
    transcript_.write({{"type", "search_end"}, {"search", out.summary}});
    finish_run(result_, transcript_);
    out.agent = result_;
    out.candidates = candidates_;
    return out;
  }

 private:
  // The template compiler's kernel, then up to library_seeds passing kernels of the library under the
  // benchmark rule (other configurations of this task first: the query is the task).
  void find_seeds() {
    const TaskContext& ctx = result_.context;
    if (const auto baseline = baseline_kernel(ctx); !baseline.source.empty())
      seeds_.push_back({"seed", baseline.source, baseline.language});
    if (ctx.library.empty() || !serves_examples(ctx.docs) || o_.library_seeds == 0) return;
    library::SearchRequest request;
    request.platform = ctx.platform;
    request.task = ctx.task;
    request.config = ctx.config;
    request.limit = o_.library_seeds;
    request.allow_scored_cell = ctx.library_allows_scored_cell;
    for (const auto& e : library::KernelLibrary(ctx.library).search(request)) {
      seeds_.push_back({"library", e.source, platform(ctx.platform).language(e.language).name});
      seed_origins_.push_back({{"task", e.task},
                               {"config", e.config},
                               {"hw_config", e.hw_config},
                               {"agent", e.agent},
                               {"cycles", e.cycles},
                               {"scored_cell", e.scored_cell}});
      if (e.scored_cell) result_.scored_cell_examples++;
    }
  }

  void write_start() {
    const TaskContext& ctx = result_.context;
    json start = {{"type", "run_start"},
                  {"agent", result_.agent},
                  {"context", transcript_context(ctx)},
                  {"settings", provider_.settings().to_json()},
                  {"budget", {{"iterations", o_.max_model_calls}, {"evaluations", o_.max_evaluations}}},
                  {"search", o_.to_json()},
                  {"system", system_}};
    transcript_.write(std::move(start));
  }

  Counters counters() const {
    Counters c;
    c.proposed = static_cast<unsigned>(candidates_.size());
    c.applied = applied_;
    c.can_evaluate = dispatched_ < o_.max_evaluations;
    c.can_propose =
        stop_status_.empty() && model_calls_ < o_.max_model_calls && dispatched_ < o_.max_evaluations;
    return c;
  }

  // Runs the schedule until it waits for a result, hands a new evaluation to the pool, or ends.
  std::vector<bench::JobSpec> more() {
    for (;;) {
      const Op op = strategy_->next(counters());
      flush_strategy_events();
      if (op == Op::kDone) return {};
      if (op == Op::kApply) {
        if (!apply(applied_)) return {};
        continue;
      }
      if (auto job = propose()) return {*job};
    }
  }

  void flush_strategy_events() {
    for (auto& e : strategy_->take_events()) transcript_.write(std::move(e));
  }

  // A new candidate: the seed, or the model's answer to the proposal. Returns its evaluation job, if any.
  std::optional<bench::JobSpec> propose() {
    const Proposal p = strategy_->propose(random_);
    Candidate c;
    c.id = static_cast<unsigned>(candidates_.size());
    c.op = p.op;
    c.parents = p.parents;
    c.island = p.island;
    if (p.op == "seed") {
      const Seed& seed = seeds_.at(c.id);  // the seeds are the first candidates
      c.op = seed.op;
      c.kernel = seed.kernel;
      c.language = seed.language;
    } else {
      auto reply = ask_model(c);
      if (!reply) {
        // The provider is gone: no candidate; the schedule applies what is in flight and ends.
        return std::nullopt;
      }
      c.model_call = model_calls_;
      if (auto kernel = extract_kernel(*reply)) {
        c.kernel = kernel->first;
        c.language = language_for(kernel->second, c);
      } else {
        c.outcome = "no_kernel";
        c.error = "the reply has no kernel in a fenced code block";
      }
    }
    candidates_.push_back(c);
    if (c.kernel.empty()) return std::nullopt;
    bench::JobSpec job;
    job.key = {result_.context.platform,
               result_.context.hw_config,
               result_.context.task,
               result_.context.config,
               "search",
               c.id + 1};
    job.level = level_;
    job.agent_kind = "candidate";
    job.dev_seed = result_.context.dev_seed;
    job.kernel = c.kernel;
    job.language = c.language;
    job.library = result_.context.library;
    if (auto f = o_.faults.find(c.id); f != o_.faults.end()) job.fault = f->second;
    job_candidate_.push_back(c.id);
    ++dispatched_;
    return job;
  }

  // The fence's tag when it names one of the platform's languages, else the first parent's language.
  std::string language_for(const std::string& tag, const Candidate& c) const {
    if (!tag.empty()) {
      try {
        return platform(result_.context.platform).language(tag).name;
      } catch (const std::invalid_argument&) {
        // A tag like "text" or "assembly" names no language: keep the parent's.
      }
    }
    if (!c.parents.empty()) return candidates_[c.parents.front()].language;
    return platform(result_.context.platform).language("").name;
  }

  std::string parent_text(const Candidate& p, const std::string& title) const {
    std::string s =
        fmt::format("# {} (candidate {}: {}", title, p.id, p.outcome == "evaluated" ? p.verdict : p.outcome);
    if (p.correct()) s += fmt::format(", {} cycles", p.cycles);
    s += fmt::format(")\n\n```{}\n{}\n```\n\n", p.language, p.kernel);
    if (!p.eval_text.empty()) s += "## Its evaluation\n\n" + truncate_for_model(p.eval_text, 1500) + "\n\n";
    if (!p.error.empty()) s += "## Its evaluation failed\n\n" + p.error + "\n\n";
    if (!p.profile_text.empty())
      s += "## Its profile\n\n" + truncate_for_model(p.profile_text, 2500) + "\n\n";
    return s;
  }

  std::string user_text(const Candidate& c) const {
    const TaskContext& ctx = result_.context;
    std::string s =
        fmt::format("Task: {} {} on {} ({}).\n\n", ctx.task, ctx.config, ctx.platform, ctx.hw_config);
    if (c.op == "create") {
      s += "There is no kernel yet. Write a correct kernel for the task.\n";
    } else if (c.op == "crossover") {
      s += parent_text(candidates_[c.parents[0]], "Parent A") +
           parent_text(candidates_[c.parents[1]], "Parent B");
      s += "Write one kernel that combines the strengths of both parents: correct first, then faster.\n";
    } else {
      s += parent_text(candidates_[c.parents[0]], "Parent");
      s += candidates_[c.parents[0]].correct()
               ? "Write a faster variant of this kernel that stays correct.\n"
               : "Fix this kernel so that it passes; keep what is right about it.\n";
    }
    s += "\nReply with the whole kernel in one fenced code block; only the last code block is read.";
    return s;
  }

  // One model call for candidate `c`; nullopt when the provider failed for good.
  std::optional<std::string> ask_model(const Candidate& c) {
    ChatRequest request;
    request.system = system_;
    ChatMessage user;
    user.role = ChatMessage::Role::kUser;
    user.content = user_text(c);
    request.messages.push_back(user);
    const unsigned call = model_calls_ + 1;
    transcript_.write({{"type", "llm_request"},
                       {"role", "search"},
                       {"iteration", call},
                       {"candidate", c.id},
                       {"op", c.op},
                       {"parents", c.parents},
                       {"user", user.content}});
    ChatResponse response;
    try {
      response = provider_.complete(request);
    } catch (const ProviderError& e) {
      transcript_.write({{"type", "provider_error"},
                         {"role", "search"},
                         {"iteration", call},
                         {"kind", provider_error_kind_name(e.kind())},
                         {"http_status", e.http_status()},
                         {"message", e.what()}});
      stop_status_ = "provider_error";
      result_.error = fmt::format("{} ({})", e.what(), provider_error_kind_name(e.kind()));
      return std::nullopt;
    }
    model_calls_ = call;
    result_.tokens.prompt_tokens += response.usage.prompt_tokens;
    result_.tokens.completion_tokens += response.usage.completion_tokens;
    result_.tokens.reasoning_tokens += response.usage.reasoning_tokens;
    result_.tokens.cached_prompt_tokens += response.usage.cached_prompt_tokens;
    transcript_.write({{"type", "llm_response"},
                       {"role", "search"},
                       {"iteration", call},
                       {"candidate", c.id},
                       {"message", {{"role", "assistant"}, {"content", response.message.content}}},
                       {"usage", usage_json(response.usage)},
                       {"stop_reason", response.stop_reason},
                       {"attempts", response.attempts},
                       {"seconds", response.seconds}});
    return response.message.content;
  }

  // Applies candidate `id`'s result if it is in: the candidate's evaluation goes to the transcript as the
  // tool calls a coder would have made (replay re-executes them), then to the strategy.
  bool apply(unsigned id) {
    Candidate& c = candidates_[id];
    if (!c.kernel.empty()) {
      auto it = results_.find(id);
      if (it == results_.end()) return false;
      const bench::RunRecord& r = it->second;
      if (r.failed_job()) {
        // The pool's words for a worker killed at the deadline; anything else that ended the job is a
        // crash of the evaluation (a signal, an exit, an exception).
        c.outcome = r.error.find("wall-clock timeout") != std::string::npos ? "timeout"
                    : r.error.rfind("the job failed:", 0) == 0              ? "error"
                                                                            : "crash";
        c.error = r.error;
      } else {
        c.outcome = "evaluated";
        c.verdict = r.verdict;
        c.cycles = r.cycles;
        for (const auto& t : r.evaluation) {
          const std::string name = t.value("name", "");
          const std::string call_id = fmt::format("candidate_{}_{}", id, name);
          transcript_.write({{"type", "tool_call"},
                             {"role", "search"},
                             {"candidate", id},
                             {"iteration", c.model_call},
                             {"id", call_id},
                             {"name", name},
                             {"arguments", t.value("arguments", "{}")}});
          transcript_.write({{"type", "tool_result"},
                             {"role", "search"},
                             {"candidate", id},
                             {"iteration", c.model_call},
                             {"id", call_id},
                             {"name", name},
                             {"text", t.value("text", "")},
                             {"is_error", t.value("is_error", false)},
                             {"data", t.contains("data") ? t["data"] : json(nullptr)}});
          if (name == "run_eval") c.eval_text = t.value("text", "");
          if (name == "profile") c.profile_text = t.value("text", "");
        }
        // The seed is not the model's: first valid / first pass count model calls.
        if (!c.is_seed() && c.verdict != "build_error" && !result_.first_valid_iteration)
          result_.first_valid_iteration = c.model_call;
        if (!c.is_seed() && c.correct() && !result_.first_pass_iteration)
          result_.first_pass_iteration = c.model_call;
      }
      results_.erase(it);
    }
    json event = c.to_json(true);
    event["type"] = "candidate";
    event["role"] = "search";
    // Replay re-executes the tool calls above; a crashed or hung evaluation has none to re-execute.
    event["replayable"] = c.outcome == "evaluated";
    transcript_.write(std::move(event));
    ++applied_;
    strategy_->applied(c);
    flush_strategy_events();
    return true;
  }

  json summary(const Candidate* best) const {
    std::map<std::string, unsigned> outcomes;
    unsigned correct = 0;
    for (const auto& c : candidates_) {
      outcomes[c.outcome == "evaluated" ? c.verdict : c.outcome]++;
      correct += c.correct() ? 1 : 0;
    }
    json j = o_.to_json();
    j["strategy_state"] = strategy_->summary();
    j["model_calls"] = model_calls_;
    j["tokens"] = usage_json(result_.tokens);
    j["evaluations"] = dispatched_;
    j["candidates"] = candidates_.size();
    j["correct_candidates"] = correct;
    j["outcomes"] = outcomes;
    j["library_seed_origins"] = seed_origins_;
    if (best != nullptr) {
      j["best"] = best->to_json(false);
      // The lineage: the best candidate, its first parent, that one's, ... back to the seed.
      json lineage = json::array();
      for (const Candidate* at = best;;) {
        lineage.push_back(at->to_json(false));
        if (at->parents.empty()) break;
        at = &candidates_[at->parents.front()];
      }
      j["lineage"] = lineage;
    }
    return j;
  }

  SearchOptions o_;
  Provider& provider_;
  Transcript& transcript_;
  Random random_;
  int level_ = 1;
  AgentResult result_;
  std::string system_;
  struct Seed {
    std::string op;  // seed (the template compiler's) | library
    std::string kernel, language;
  };
  std::vector<Seed> seeds_;
  json seed_origins_ = json::array();  // where the library seeds come from
  std::vector<Candidate> candidates_;
  std::unique_ptr<Schedule> strategy_;
  std::map<unsigned, bench::RunRecord> results_;  // by candidate: in, not yet applied
  std::vector<unsigned> job_candidate_;           // pool job index -> candidate
  unsigned applied_ = 0;
  unsigned model_calls_ = 0;
  unsigned dispatched_ = 0;
  std::string stop_status_;
};

}  // namespace

SearchResult run_search(const SearchOptions& options, Provider& provider, const TaskContext& context,
                        Transcript& transcript) {
  options.validate();
  return SearchRun(options, provider, context, transcript).run();
}

}  // namespace kcraft::agent::search
