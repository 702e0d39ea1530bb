#include "isa/common/pipeline_hazards.h"

#include <deque>
#include <optional>
#include <set>
#include <tuple>

#include "isa/common/bundle.h"
#include "isa/common/disassembler.h"

namespace kcraft::isa {

std::optional<int64_t> plain_latency(const std::string& text) {
  if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoll(text);
}

namespace {

// The program as bundles: the exposed registers each bundle reads and writes, and where a loop's last
// bundle continues when the loop repeats.
struct BundleGraph {
  std::vector<std::vector<RegisterUse>> reads, writes;
  std::vector<int> back_edge;  // bundle that follows this one when its loop repeats, or -1
  std::vector<std::optional<DecodedInstruction>> ops;
};

BundleGraph build_graph(const IsaSpec& spec, const std::vector<uint32_t>& words) {
  const std::vector<BundleRange> bundles = split_bundles(spec, words);
  std::vector<size_t> bundle_of(words.size() + 1, bundles.size());
  for (size_t k = 0; k < bundles.size(); ++k) {
    for (size_t w = bundles[k].first; w < bundles[k].first + bundles[k].count; ++w) bundle_of[w] = k;
  }
  BundleGraph g;
  g.reads.resize(bundles.size());
  g.writes.resize(bundles.size());
  g.back_edge.assign(bundles.size(), -1);
  g.ops.resize(words.size());
  for (size_t w = 0; w < words.size(); ++w) {
    g.ops[w] = decode(spec, words[w]);
    if (!g.ops[w]) continue;
    const InstructionSpec& insn = *g.ops[w]->insn;
    for (size_t i = 0; i < insn.operands.size(); ++i) {
      const OperandSpec& op = insn.operands[i];
      if (op.kind == OperandKind::kBody) {
        const int64_t end = static_cast<int64_t>(w) + 1 + g.ops[w]->values[i];
        bool repeats = true;
        for (size_t k = 0; k < insn.operands.size(); ++k) {
          if (insn.operands[k].kind == OperandKind::kUimm && insn.operands[k].name == "count")
            repeats = g.ops[w]->values[k] > 1;
        }
        if (repeats && end > static_cast<int64_t>(w) + 1 && end <= static_cast<int64_t>(words.size())) {
          const size_t end_bundle = bundle_of[static_cast<size_t>(end)];
          if (end_bundle > 0 && end_bundle <= bundles.size())
            g.back_edge[end_bundle - 1] = static_cast<int>(bundle_of[w] + 1);
        }
        continue;
      }
      if (op.kind != OperandKind::kRegister) continue;
      if (!spec.bundle.is_exposed(spec.register_classes[static_cast<size_t>(op.register_class)].name))
        continue;
      const RegisterUse use{w, i, op.register_class, g.ops[w]->values[i]};
      if (op.access != Access::kWrite) g.reads[bundle_of[w]].push_back(use);
      if (op.access != Access::kRead) g.writes[bundle_of[w]].push_back(use);
    }
  }
  return g;
}

int64_t latency_of(const BundleGraph& g, const RegisterUse& write) {
  return plain_latency(g.ops[write.word]->insn->latency).value_or(0);
}

bool same_register(const RegisterUse& a, const RegisterUse& b) {
  return a.register_class == b.register_class && a.number == b.number;
}

}  // namespace

PipelineHazards find_pipeline_hazards(const IsaSpec& spec, const std::vector<uint32_t>& words) {
  PipelineHazards out;
  if (!spec.bundle.present() || words.empty()) return out;
  const BundleGraph g = build_graph(spec, words);
  std::set<std::pair<size_t, size_t>> reported_reads, reported_overwrites;  // (write word, other word)
  for (size_t producer = 0; producer < g.writes.size(); ++producer) {
    for (const RegisterUse& write : g.writes[producer]) {
      const int64_t latency = latency_of(g, write);
      if (latency < 2) continue;
      // Breadth-first over (bundle, distance, crossed a back edge), so the shortest distance is the one
      // reported; latency <= max_latency keeps the search small.
      std::deque<std::tuple<size_t, int64_t, bool>> queue;
      auto push_successors = [&](size_t from, int64_t distance, bool crossed) {
        if (distance + 1 >= latency) return;
        if (from + 1 < g.writes.size()) queue.emplace_back(from + 1, distance + 1, crossed);
        if (g.back_edge[from] >= 0)
          queue.emplace_back(static_cast<size_t>(g.back_edge[from]), distance + 1, true);
      };
      push_successors(producer, 0, false);
      while (!queue.empty()) {
        const auto [at, distance, crossed] = queue.front();
        queue.pop_front();
        // A bundle's ops read at issue, before anything they write: its reads see the old value too.
        for (const RegisterUse& read : g.reads[at]) {
          if (!same_register(read, write) || !reported_reads.emplace(write.word, read.word).second) continue;
          out.reads.push_back({write, read, distance, latency, crossed});
        }
        const RegisterUse* rewrite = nullptr;
        for (const RegisterUse& other : g.writes[at]) {
          if (same_register(other, write)) rewrite = &other;
        }
        if (rewrite == nullptr) {
          push_successors(at, distance, crossed);
          continue;
        }
        // A later write takes over on this path: reads after it are its own business, but it must not
        // land before this one (then this older result replaces it when it lands).
        const int64_t later_latency = latency_of(g, *rewrite);
        if (later_latency > 0 && distance + later_latency < latency &&
            reported_overwrites.emplace(write.word, rewrite->word).second) {
          out.overwrites.push_back({write, *rewrite, distance, latency, later_latency, crossed});
        }
      }
    }
  }
  return out;
}

}  // namespace kcraft::isa
