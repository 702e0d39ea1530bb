#include "agent/bench/codesign.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <unordered_map>

namespace kcraft::bench::codesign {

namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

const std::string* lookup(const std::vector<std::pair<std::string, std::string>>& pairs,
                          const std::string& key) {
  for (const auto& [k, v] : pairs) {
    if (k == key) return &v;
  }
  return nullptr;
}

// The op of a bundle its cycles are charged to: the first of rules.unit_priority it has, else its first.
size_t critical_op(const std::vector<DataflowOp>& ops, const CodesignRules& rules) {
  for (const auto& unit : rules.unit_priority) {
    for (size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].unit == unit) return i;
    }
  }
  return 0;
}

struct OpInstance {
  std::string mnemonic, unit;
  uint64_t charged = 0;  // cycles charged to this op (its bundle's, when it is the critical op)
  uint64_t savable = 0;  // of them, what a fused instruction saves: issue cycles, fusion_saved_causes
  const DataflowOp* flow = nullptr;
};

// Ops of one unit a producer and its consumer may be apart: a kernel that interleaves two rows puts the
// other row's op between them.
constexpr size_t kFusionWindow = 4;

// Links each op whose one result is read exactly once, by a later op of its unit at most kFusionWindow ops
// of that unit further, on a fusion unit, to that op; -1 elsewhere. A consumer has one producer at most.
std::vector<int64_t> fusion_links(const std::vector<OpInstance>& ops, const CodesignRules& rules) {
  const size_t n = ops.size();
  std::vector<int64_t> link(n, -1);
  std::vector<size_t> position(n, 0);  // index in its unit's stream
  std::vector<bool> consumed(n, false);
  std::unordered_map<std::string, size_t> count_of_unit;
  for (size_t i = 0; i < n; ++i) position[i] = count_of_unit[ops[i].unit]++;
  struct Def {
    size_t op = 0;
    unsigned uses = 0;
    size_t user = 0;
  };
  std::unordered_map<std::string, Def> live;
  auto finalize = [&](const Def& d) {
    const auto& o = ops[d.op];
    if (d.uses != 1 || ops[d.user].unit != o.unit || consumed[d.user]) return;
    if (position[d.user] - position[d.op] > kFusionWindow) return;
    if (std::find(rules.fusion_units.begin(), rules.fusion_units.end(), o.unit) == rules.fusion_units.end())
      return;
    if (o.flow->writes.size() != 1) return;  // an op with more results is not an intermediate
    link[d.op] = static_cast<int64_t>(d.user);
    consumed[d.user] = true;
  };
  auto end_matching = [&](auto&& match) {
    for (auto it = live.begin(); it != live.end();) {
      if (match(it->first)) {
        finalize(it->second);
        it = live.erase(it);
      } else {
        ++it;
      }
    }
  };
  auto is_wild = [](const std::string& name) {
    return name.size() >= 3 && name.compare(name.size() - 3, 3, "[*]") == 0;
  };
  std::unordered_map<std::string, std::string> base_of;  // live place -> its address register
  for (size_t i = 0; i < n; ++i) {
    const DataflowOp& f = *ops[i].flow;
    auto use = [&](Def& d) {
      if (d.uses++ == 0) d.user = i;
    };
    for (const auto& r : f.reads) {
      if (is_wild(r.name)) {
        const std::string prefix = r.name.substr(0, r.name.size() - 2);
        for (auto& [name, d] : live) {
          if (name.rfind(prefix, 0) == 0) use(d);
        }
      } else if (auto it = live.find(r.name); it != live.end()) {
        use(it->second);
      }
    }
    for (const auto& w : f.writes) {
      if (is_wild(w.name)) {
        const std::string prefix = w.name.substr(0, w.name.size() - 2);
        end_matching([&](const std::string& name) { return name.rfind(prefix, 0) == 0; });
        continue;
      }
      if (auto it = live.find(w.name); it != live.end()) {
        finalize(it->second);
        live.erase(it);
      }
      // Places addressed by this register are other places from now on.
      end_matching([&](const std::string& name) {
        auto b = base_of.find(name);
        return b != base_of.end() && b->second == w.name;
      });
      live[w.name] = Def{i, 0, 0};
      if (!w.base.empty()) base_of[w.name] = w.base;
    }
  }
  for (const auto& [name, d] : live) finalize(d);
  return link;
}

}  // namespace

RunTrace trace_from_timeline(const tb::Timeline& timeline, const CodesignRules& rules) {
  const int issue_track = rules.issue_track.empty() ? 0 : timeline.track_index(rules.issue_track);
  if (issue_track < 0 || timeline.tracks.empty())
    throw std::invalid_argument("the run's timeline has no track '" + rules.issue_track + "'");
  RunTrace t;
  t.cycles = timeline.cycles;
  for (const auto& s : timeline.slices) {
    if (s.category == "instruction" && static_cast<int>(s.track) == issue_track) {
      for (uint64_t c = s.begin; c < s.end; ++c) t.issues.push_back({c, s.name});
    } else if (s.category == "stall") {
      t.stalls.push_back({s.begin, s.end, s.cause.empty() ? s.name : s.cause});
    }
  }
  std::stable_sort(t.issues.begin(), t.issues.end(),
                   [](const Issue& a, const Issue& b) { return a.cycle < b.cycle; });
  std::sort(t.stalls.begin(), t.stalls.end(),
            [](const StallSpan& a, const StallSpan& b) { return a.begin < b.begin; });
  return t;
}

uint64_t RunProfile::attributed() const {
  uint64_t sum = 0;
  for (const auto& entry : by_cause) sum += entry.second;
  return sum;
}

RunProfile profile_run(const RunTrace& trace, const DataflowFn& dataflow, const CodesignRules& rules) {
  RunProfile p;
  p.task = trace.task;
  p.config = trace.config;
  p.kernel_from = trace.kernel_from;
  p.weight = trace.weight;
  p.cycles = trace.cycles;
  // Every issue's ops, once per distinct text.
  std::unordered_map<std::string, std::vector<DataflowOp>> flows;
  std::vector<const std::vector<DataflowOp>*> issue_ops;
  std::vector<size_t> issue_critical;
  for (const auto& is : trace.issues) {
    auto it = flows.find(is.text);
    if (it == flows.end()) {
      auto ops = dataflow(is.text);
      if (ops.empty()) ops.push_back(DataflowOp{is.text, "", {}, {}});
      it = flows.emplace(is.text, std::move(ops)).first;
    }
    issue_ops.push_back(&it->second);
    issue_critical.push_back(critical_op(it->second, rules));
  }
  // Cycle by cycle: the issue of the cycle, else the next one, with the cause of the cycle.
  std::vector<uint64_t> charged(trace.issues.size(), 0), savable(trace.issues.size(), 0);
  size_t next = 0, stall = 0;
  for (uint64_t c = 0; c < trace.cycles; ++c) {
    while (next < trace.issues.size() && trace.issues[next].cycle < c) ++next;
    while (stall < trace.stalls.size() && trace.stalls[stall].end <= c) ++stall;
    std::string cause;
    size_t owner = 0;
    bool has_owner = !trace.issues.empty();
    if (next < trace.issues.size() && trace.issues[next].cycle == c) {
      cause = "issue";
      owner = next;
    } else {
      cause =
          stall < trace.stalls.size() && trace.stalls[stall].begin <= c ? trace.stalls[stall].cause : "idle";
      owner = next < trace.issues.size() ? next : trace.issues.size() - 1;
    }
    ++p.by_cause[cause];
    if (!has_owner) {
      ++p.by_instruction["(none)"];
      ++p.by_unit["(none)"];
      continue;
    }
    ++charged[owner];
    if (cause == "issue" || std::find(rules.fusion_saved_causes.begin(), rules.fusion_saved_causes.end(),
                                      cause) != rules.fusion_saved_causes.end())
      ++savable[owner];
    const DataflowOp& op = (*issue_ops[owner])[issue_critical[owner]];
    const std::string unit = op.unit.empty() ? "(unknown)" : op.unit;
    ++p.by_instruction[op.mnemonic];
    if (cause == "issue") {
      ++p.issue_by_instruction[op.mnemonic];
      ++p.by_unit[unit];
    } else {
      const std::string* cause_unit = lookup(rules.cause_units, cause);
      ++p.by_unit[cause_unit != nullptr ? *cause_unit : unit];
      ++p.stall_by_waiting_unit[{cause, unit}];
    }
  }
  // The op stream, for the executed counts and the dataflow.
  std::vector<OpInstance> ops;
  for (size_t i = 0; i < trace.issues.size(); ++i) {
    const auto& bundle = *issue_ops[i];
    for (size_t k = 0; k < bundle.size(); ++k) {
      ++p.executed[bundle[k].mnemonic];
      ops.push_back({bundle[k].mnemonic, bundle[k].unit, k == issue_critical[i] ? charged[i] : 0,
                     k == issue_critical[i] ? savable[i] : 0, &bundle[k]});
    }
  }
  // Occurrences do not overlap: along a chain a -> b -> c -> d -> ..., the pairs are (a, b), (c, d), ...
  // and the triples (a, b, c), (d, e, f), ... (a fused instruction replaces each op once).
  const auto link = fusion_links(ops, rules);
  std::vector<bool> in_pair(ops.size(), false), in_triple(ops.size(), false);
  // An op that reads the place it writes: it accumulates.
  auto accumulates = [&](size_t i) {
    const DataflowOp& f = *ops[i].flow;
    return f.writes.size() == 1 && std::any_of(f.reads.begin(), f.reads.end(), [&](const DataflowPlace& r) {
             return r.name == f.writes[0].name;
           });
  };
  // b accumulates a's result into the same place with the same instruction.
  auto same_accumulation = [&](size_t a, size_t b) {
    return ops[a].mnemonic == ops[b].mnemonic && accumulates(b) &&
           ops[a].flow->writes[0].name == ops[b].flow->writes[0].name;
  };
  for (size_t a = 0; a < ops.size(); ++a) {
    if (link[a] < 0) continue;
    const auto b = static_cast<size_t>(link[a]);
    if (!in_pair[a] && !in_pair[b]) {
      in_pair[a] = in_pair[b] = true;
      auto& pair = p.fusions[ops[a].mnemonic + ">" + ops[b].mnemonic];
      ++pair.occurrences;
      pair.cycles += ops[a].charged + ops[b].charged;
      pair.saved += ops[b].savable;
      pair.accumulation = pair.accumulation || same_accumulation(a, b);
    }
    if (link[b] < 0) continue;
    const auto c = static_cast<size_t>(link[b]);
    if (in_triple[a] || in_triple[b] || in_triple[c]) continue;
    in_triple[a] = in_triple[b] = in_triple[c] = true;
    auto& triple = p.fusions[ops[a].mnemonic + ">" + ops[b].mnemonic + ">" + ops[c].mnemonic];
    ++triple.occurrences;
    triple.cycles += ops[a].charged + ops[b].charged + ops[c].charged;
    triple.saved += ops[b].savable + ops[c].savable;
    triple.accumulation = triple.accumulation || (same_accumulation(a, b) && same_accumulation(b, c));
  }
  return p;
}

// ---- the workload

std::vector<WorkloadItem> parse_workload(const std::string& yaml_text, const std::string& file_name,
                                         const std::vector<std::string>& configs) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw std::invalid_argument(file_name + ": not YAML: " + e.what());
  }
  if (!root.IsMap() || root.size() == 0)
    throw std::invalid_argument(file_name +
                                ": expected a map of task (or task@C2) to weight, e.g. 'rms_norm: 2'");
  std::vector<WorkloadItem> items;
  for (const auto& entry : root) {
    const std::string key = entry.first.as<std::string>();
    double weight = 0;
    try {
      weight = entry.second.as<double>();
    } catch (const YAML::Exception&) {
      throw std::invalid_argument(fmt::format("{}: {}: the weight must be a number", file_name, key));
    }
    if (!(weight > 0))
      throw std::invalid_argument(fmt::format("{}: {}: the weight must be > 0", file_name, key));
    const size_t at = key.find('@');
    if (at != std::string::npos) {
      items.push_back({key.substr(0, at), key.substr(at + 1), weight});
    } else {
      for (const auto& c : configs) items.push_back({key, c, weight});
    }
  }
  return items;
}

std::vector<WorkloadItem> default_workload(const tasks::TaskRegistry& registry,
                                           const std::vector<std::string>& configs) {
  std::vector<WorkloadItem> items;
  for (const auto& name : registry.names()) {
    if (registry.find(name)->level != 3) continue;
    for (const auto& c : configs) items.push_back({name, c, 1.0});
  }
  return items;
}

WeightedProfile combine(std::vector<RunProfile> runs, const std::string& platform, const std::string& hw,
                        CodesignRules rules, std::vector<std::string> instruction_names) {
  WeightedProfile w;
  w.platform = platform;
  w.hw_config = hw;
  w.rules = std::move(rules);
  w.instruction_names = std::move(instruction_names);
  std::map<std::string, std::pair<double, double>> fusion_sums;  // cycles, saved
  std::map<std::string, double> fusion_occurrences;
  std::map<std::string, bool> fusion_accumulation;
  for (const auto& r : runs) {
    const double k = r.weight;
    w.total += k * static_cast<double>(r.cycles);
    for (const auto& [m, c] : r.by_instruction) w.by_instruction[m] += k * c;
    for (const auto& [u, c] : r.by_unit) w.by_unit[u] += k * c;
    for (const auto& [x, c] : r.by_cause) w.by_cause[x] += k * c;
    for (const auto& [m, c] : r.executed) w.executed[m] += k * c;
    for (const auto& [x, c] : r.stall_by_waiting_unit) w.stall_by_waiting_unit[x] += k * c;
    for (const auto& [f, s] : r.fusions) {
      fusion_occurrences[f] += k * s.occurrences;
      fusion_accumulation[f] = fusion_accumulation[f] || s.accumulation;
      fusion_sums[f].first += k * s.cycles;
      fusion_sums[f].second += k * s.saved;
    }
  }
  for (const auto& [f, occ] : fusion_occurrences) {
    FusionStats s;
    s.occurrences = static_cast<uint64_t>(occ + 0.5);
    s.cycles = static_cast<uint64_t>(fusion_sums[f].first + 0.5);
    s.saved = static_cast<uint64_t>(fusion_sums[f].second + 0.5);
    s.accumulation = fusion_accumulation[f];
    w.fusions[f] = s;
  }
  w.runs = std::move(runs);
  return w;
}

// ---- candidates

namespace {

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

std::vector<std::string> split_fusion(const std::string& key) {
  std::vector<std::string> parts;
  size_t pos = 0;
  while (true) {
    const size_t gt = key.find('>', pos);
    parts.push_back(key.substr(pos, gt == std::string::npos ? std::string::npos : gt - pos));
    if (gt == std::string::npos) break;
    pos = gt + 1;
  }
  return parts;
}

double speedup_of(double total, double saved) {
  return total > saved && total > 0 ? total / (total - saved) : 1.0;
}

}  // namespace

std::vector<Candidate> propose(const WeightedProfile& w, const ProposeOptions& options) {
  std::vector<Candidate> fusions, parameters, unused;
  // Fusions, by the cycles they would save.
  for (const auto& [key, s] : w.fusions) {
    if (s.saved == 0) continue;
    Candidate c;
    c.kind = "fusion";
    const auto parts = split_fusion(key);
    c.title = "fuse " + join(parts, " -> ");
    c.workload_cycles = static_cast<double>(s.cycles);
    c.saved_cycles = static_cast<double>(s.saved);
    c.speedup = speedup_of(w.total, c.saved_cycles);
    c.occurrences = s.occurrences;
    c.estimate_rule =
        "saved = per occurrence, the later instruction(s)' issue cycles and the stalls spent waiting for the "
        "earlier part: " +
        w.rules.fusion_rule;
    nlohmann::json tasks = nlohmann::json::array();
    for (const auto& r : w.runs) {
      auto it = r.fusions.find(key);
      if (it == r.fusions.end()) continue;
      tasks.push_back({{"task", r.task},
                       {"config", r.config},
                       {"occurrences", it->second.occurrences},
                       {"cycles", it->second.cycles},
                       {"saved", it->second.saved}});
    }
    // The same instruction feeding itself (a partial sum into its own register): a longer reduction.
    const bool accumulation = s.accumulation;
    if (accumulation) {
      c.kind = "accumulation";
      c.title += " (accumulation chain: one instruction over more data)";
    }
    c.evidence = {{"sequence", parts}, {"accumulation", accumulation}, {"by_task", tasks}};
    fusions.push_back(std::move(c));
  }
  std::sort(fusions.begin(), fusions.end(), [](const Candidate& a, const Candidate& b) {
    return a.saved_cycles != b.saved_cycles ? a.saved_cycles > b.saved_cycles : a.title < b.title;
  });
  if (fusions.size() > options.max_fusions) fusions.resize(options.max_fusions);
  // Parameters whose stall cause costs the workload cycles.
  std::vector<std::string> task_names, configs;
  for (const auto& r : w.runs) {
    if (std::find(task_names.begin(), task_names.end(), r.task) == task_names.end())
      task_names.push_back(r.task);
    if (std::find(configs.begin(), configs.end(), r.config) == configs.end()) configs.push_back(r.config);
  }
  // One candidate per parameter change, over every rule that names it (the causes it relieves).
  std::vector<std::pair<std::string, std::vector<const BindingParameter*>>> changes;
  for (const auto& rule : w.rules.parameters) {
    const std::string key = rule.parameter + "=" + join(rule.values, ",");
    auto it = std::find_if(changes.begin(), changes.end(), [&](const auto& c) { return c.first == key; });
    if (it == changes.end()) {
      changes.push_back({key, {&rule}});
    } else {
      it->second.push_back(&rule);
    }
  }
  for (const auto& [key, rules] : changes) {
    const BindingParameter& first = *rules.front();
    double cycles = 0;
    std::vector<std::string> why;
    nlohmann::json causes = nlohmann::json::array();
    for (const auto* rule : rules) {
      double c = 0;
      for (const auto& [k, n] : w.stall_by_waiting_unit) {
        if (k.first == rule->cause && (rule->waiting_unit.empty() || k.second == rule->waiting_unit)) c += n;
      }
      cycles += c;
      why.push_back(fmt::format(
          "{:.0f} {} stall cycles{} ({})", c, rule->cause,
          rule->waiting_unit.empty() ? "" : " of " + rule->waiting_unit + " instructions", rule->why));
      causes.push_back({{"cause", rule->cause}, {"waiting_unit", rule->waiting_unit}, {"stall_cycles", c}});
    }
    if (w.total <= 0 || cycles < options.min_share * w.total || first.values.size() < 2) continue;
    Candidate c;
    c.kind = "parameter";
    c.title = fmt::format("{} {} -> {}", first.parameter, first.values.front(),
                          join({first.values.begin() + 1, first.values.end()}, ", "));
    c.workload_cycles = cycles;
    c.saved_cycles = cycles;
    c.speedup = speedup_of(w.total, cycles);
    c.estimate_rule = "upper bound: every stall cycle the parameter binds vanishes: " + join(why, "; ");
    c.explore_command =
        fmt::format("{} explore {} --base {} --set {}={} --tasks {} --configs {} --agents baseline",
                    options.command, w.platform, w.hw_config, first.parameter, join(first.values, ","),
                    join(task_names, ","), join(configs, ","));
    c.evidence = {{"parameter", first.parameter},
                  {"values", first.values},
                  {"causes", causes},
                  {"stall_cycles", cycles}};
    parameters.push_back(std::move(c));
  }
  std::sort(parameters.begin(), parameters.end(), [](const Candidate& a, const Candidate& b) {
    return a.saved_cycles != b.saved_cycles ? a.saved_cycles > b.saved_cycles : a.title < b.title;
  });
  // Instructions the workload never or rarely executes.
  double ops = 0;
  std::map<std::string, double> by_upper;
  for (const auto& [m, n] : w.executed) {
    ops += n;
    by_upper[upper(m)] += n;
  }
  for (const auto& name : w.instruction_names) {
    const bool essential = std::any_of(w.rules.essential.begin(), w.rules.essential.end(),
                                       [&](const std::string& e) { return upper(e) == upper(name); });
    if (essential) continue;
    auto it = by_upper.find(upper(name));
    const double n = it == by_upper.end() ? 0 : it->second;
    if (n > 0 && (ops <= 0 || n >= options.rare_share * ops)) continue;
    Candidate c;
    c.kind = "unused";
    c.title = (n == 0 ? "unused: " : "rarely used: ") + name;
    c.occurrences = static_cast<uint64_t>(n + 0.5);
    c.estimate_rule = "area that buys the workload nothing: executed " + std::to_string(c.occurrences) +
                      " times (weighted) of " + std::to_string(static_cast<uint64_t>(ops + 0.5)) + " ops";
    c.evidence = {{"instruction", name}, {"executed", c.occurrences}};
    unused.push_back(std::move(c));
  }
  std::stable_sort(unused.begin(), unused.end(),
                   [](const Candidate& a, const Candidate& b) { return a.occurrences < b.occurrences; });
  // One ranking: what saves the most first; unused instructions (saving area, not cycles) last.
  std::vector<Candidate> all = std::move(fusions);
  all.insert(all.end(), parameters.begin(), parameters.end());
  std::stable_sort(all.begin(), all.end(),
                   [](const Candidate& a, const Candidate& b) { return a.saved_cycles > b.saved_cycles; });
  all.insert(all.end(), unused.begin(), unused.end());
  return all;
}

}  // namespace kcraft::bench::codesign
