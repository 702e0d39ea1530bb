#include "tb/common/timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace kcraft::tb {

namespace {

// JSON string literal (names are disassembly and fixed words, but stay safe for anything).
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      out += fmt::format("\\u{:04x}", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// Cycle -> trace timestamp in microseconds, one cycle per nanosecond, printed exactly.
std::string ts(uint64_t cycle) {
  return fmt::format("{}.{:03}", cycle / 1000, cycle % 1000);
}

struct Interval {
  uint64_t begin, end;
};
using Intervals = std::vector<Interval>;

uint64_t length(const Intervals& v) {
  uint64_t n = 0;
  for (const auto& i : v) n += i.end - i.begin;
  return n;
}

// Sorted, disjoint, touching intervals joined.
Intervals normalise(Intervals v) {
  std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  Intervals out;
  for (const auto& i : v) {
    if (i.end <= i.begin) continue;
    if (!out.empty() && i.begin <= out.back().end) {
      out.back().end = std::max(out.back().end, i.end);
    } else {
      out.push_back(i);
    }
  }
  return out;
}

Intervals intersect(const Intervals& a, const Intervals& b) {
  Intervals out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const uint64_t lo = std::max(a[i].begin, b[j].begin);
    const uint64_t hi = std::min(a[i].end, b[j].end);
    if (lo < hi) out.push_back({lo, hi});
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

Intervals unite(const Intervals& a, const Intervals& b) {
  Intervals all = a;
  all.insert(all.end(), b.begin(), b.end());
  return normalise(std::move(all));
}

// Joins intervals separated by less than `gap` cycles: the coarse windows a reader can take in.
Intervals coarsen(const Intervals& v, uint64_t gap) {
  Intervals out;
  for (const auto& i : v) {
    if (!out.empty() && i.begin - out.back().end < gap) {
      out.back().end = i.end;
    } else {
      out.push_back(i);
    }
  }
  return out;
}

std::string percent(uint64_t part, uint64_t whole) {
  return whole == 0 ? "0.0%"
                    : fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

}  // namespace

uint64_t Timeline::total(const std::string& name) const {
  for (const auto& [n, v] : totals) {
    if (n == name) return v;
  }
  return 0;
}

int Timeline::track_index(const std::string& name) const {
  for (size_t i = 0; i < tracks.size(); ++i) {
    if (tracks[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

void Timeline::write_chrome_json(std::ostream& out) const {
  // Every event with its timestamp; a stable sort by time keeps the order in which nested async
  // begin/end pairs were generated for equal timestamps.
  struct Event {
    uint64_t cycle;
    std::string json;
  };
  std::vector<Event> events;
  events.reserve(slices.size() + 4 * ops.size() + samples.size());
  for (const auto& s : slices) {
    std::string args = fmt::format("\"cycle\":{},\"cycles\":{}", s.begin, s.end - s.begin);
    if (s.pc >= 0) args += fmt::format(",\"pc\":{}", s.pc);
    if (!s.cause.empty()) args += ",\"cause\":" + quoted(s.cause);
    if (!s.detail.empty()) args += ",\"instruction\":" + quoted(s.detail);
    if (s.finished != 0) args += fmt::format(",\"finished\":{}", s.finished);
    events.push_back(
        {s.begin, fmt::format("{{\"name\":{},\"cat\":{},\"ph\":\"X\",\"ts\":{},\"dur\":{},\"pid\":1,"
                              "\"tid\":{},\"args\":{{{}}}}}",
                              quoted(s.name), quoted(s.category), ts(s.begin), ts(s.end - s.begin),
                              s.track + 1, args)});
  }
  for (size_t i = 0; i < ops.size(); ++i) {
    const auto& o = ops[i];
    const std::string args =
        fmt::format("\"pc\":{},\"accepted\":{},\"started\":{},\"finished\":{}{}", o.pc, o.accepted, o.started,
                    o.finished, o.unit == "dma" ? fmt::format(",\"bytes\":{}", o.bytes) : "");
    const std::string head =
        fmt::format("\"cat\":{},\"id\":{},\"pid\":1,\"tid\":0", quoted(o.unit + " ops"), i + 1);
    events.push_back({o.accepted, fmt::format("{{\"name\":{},\"ph\":\"b\",\"ts\":{},{},\"args\":{{{}}}}}",
                                              quoted(o.name), ts(o.accepted), head, args)});
    if (o.started > o.accepted) {
      // The wait before the work starts, nested inside the operation.
      events.push_back({o.accepted, fmt::format("{{\"name\":\"waiting\",\"ph\":\"b\",\"ts\":{},{}}}",
                                                ts(o.accepted), head)});
      events.push_back({o.started, fmt::format("{{\"name\":\"waiting\",\"ph\":\"e\",\"ts\":{},{}}}",
                                               ts(o.started), head)});
    }
    events.push_back({o.finished, fmt::format("{{\"name\":{},\"ph\":\"e\",\"ts\":{},{}}}", quoted(o.name),
                                              ts(o.finished), head)});
  }
  for (const auto& s : samples) {
    events.push_back({s.cycle, fmt::format("{{\"name\":{},\"ph\":\"C\",\"ts\":{},\"pid\":1,\"tid\":0,"
                                           "\"args\":{{\"value\":{}}}}}",
                                           quoted(s.name), ts(s.cycle), s.value)});
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const Event& a, const Event& b) { return a.cycle < b.cycle; });

  out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"title\":" << quoted(title) << ",\"cycles\":" << cycles
      << fmt::format(",\"clock_period_ns\":{}", cycle_ns)
      << ",\"time_axis\":\"1 ns on the axis = 1 cycle\",\"totals\":{";
  for (size_t i = 0; i < totals.size(); ++i)
    out << (i ? "," : "") << quoted(totals[i].first) << ":" << totals[i].second;
  out << "}},\n\"traceEvents\":[\n";
  out << "{\"name\":\"process_name\",\"ph\":\"M\",\"ts\":0,\"pid\":1,\"tid\":0,\"args\":{\"name\":"
      << quoted(title) << "}}";
  for (size_t t = 0; t < tracks.size(); ++t) {
    out << ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"ts\":0,\"pid\":1,\"tid\":" << t + 1
        << ",\"args\":{\"name\":" << quoted(tracks[t].name) << "}}";
    out << ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"ts\":0,\"pid\":1,\"tid\":" << t + 1
        << ",\"args\":{\"sort_index\":" << t + 1 << "}}";
  }
  for (const auto& e : events) out << ",\n" << e.json;
  out << "\n]}\n";
}

std::string Timeline::summary(size_t max_lines) const {
  std::vector<std::string> lines;
  lines.push_back(fmt::format("timeline of {} cycles ({})", cycles, title));

  // Busy intervals per track (slices that are not stalls or single instructions).
  std::map<unsigned, Intervals> busy;
  for (const auto& s : slices) {
    if (s.category == "stall" || s.category == "instruction") continue;
    busy[s.track].push_back({s.begin, s.end});
  }
  for (auto& [t, v] : busy) v = normalise(std::move(v));

  size_t width = 16;
  for (const auto& t : tracks) width = std::max(width, t.name.size() + 1);
  lines.push_back(fmt::format("{:<{}}  busy cycles  share  longest idle gap", "unit", width));
  const uint64_t gap_floor = std::max<uint64_t>(8, cycles / 200);
  // Tracks of single instructions and stalls (an issue or retire track, a stall track) have no busy
  // intervals of their own: the stall lines below cover them.
  std::set<unsigned> per_instruction;
  for (const auto& s : slices)
    if (s.category == "stall" || s.category == "instruction") per_instruction.insert(s.track);
  for (size_t t = 0; t < tracks.size(); ++t) {
    const Intervals& v = busy[static_cast<unsigned>(t)];
    if (tracks[t].name == "issue" || (v.empty() && per_instruction.count(static_cast<unsigned>(t)) > 0))
      continue;
    if (v.empty()) {
      lines.push_back(fmt::format("  {:<{}}{:>11}  {:>5}  (unused)", tracks[t].name, width, 0, "0.0%"));
      continue;
    }
    uint64_t gap = 0, gap_at = 0, prev_end = 0;
    for (const auto& i : v) {
      if (i.begin - prev_end > gap) {
        gap = i.begin - prev_end;
        gap_at = prev_end;
      }
      prev_end = i.end;
    }
    if (cycles - prev_end > gap) {
      gap = cycles - prev_end;
      gap_at = prev_end;
    }
    lines.push_back(fmt::format("  {:<{}}{:>11}  {:>5}  {}", tracks[t].name, width, length(v),
                                percent(length(v), cycles),
                                gap == 0 ? "-" : fmt::format("{} cycles from {}", gap, gap_at)));
  }

  // Overlaps between the units that do the work and those that move data.
  std::vector<std::string> compute_names, memory_names;
  Intervals compute, memory, compute_pairs;
  std::vector<unsigned> coarse_tracks;
  for (size_t t = 0; t < tracks.size(); ++t) {
    const Intervals& v = busy[static_cast<unsigned>(t)];
    if (v.empty() && per_instruction.count(static_cast<unsigned>(t)) > 0) continue;
    if (tracks[t].role == TimelineTrack::Role::kCompute) {
      compute_pairs = unite(compute_pairs, intersect(compute, v));
      compute = unite(compute, v);
      compute_names.push_back(tracks[t].name);
    } else if (tracks[t].role == TimelineTrack::Role::kMemory) {
      memory = unite(memory, v);
      memory_names.push_back(tracks[t].name);
    } else {
      continue;
    }
    coarse_tracks.push_back(static_cast<unsigned>(t));
  }
  if (!compute_names.empty() && !memory_names.empty()) {
    const std::string memory_text = fmt::format("{}", fmt::join(memory_names, " or "));
    const uint64_t overlap = length(intersect(memory, compute));
    const std::string pairs =
        compute_names.size() > 1
            ? fmt::format("; {} together {}", fmt::join(compute_names, " and "), length(compute_pairs))
            : "";
    lines.push_back(
        fmt::format("overlap: {} busy while {} busy {} cycles ({} of {} busy){}; no unit busy {} cycles",
                    memory_text, fmt::join(compute_names, " or "), overlap, percent(overlap, length(memory)),
                    memory_text, pairs, cycles - std::min(cycles, length(unite(compute, memory)))));
  }

  // Coarse busy windows per unit.
  lines.push_back(fmt::format("busy windows (gaps under {} cycles joined):", gap_floor));
  for (unsigned t : coarse_tracks) {
    const Intervals w = coarsen(busy[t], gap_floor);
    if (w.empty()) continue;
    std::string text;
    const size_t shown = std::min<size_t>(w.size(), 6);
    for (size_t i = 0; i < shown; ++i) text += fmt::format("{}{}..{}", i ? ", " : "", w[i].begin, w[i].end);
    if (w.size() > shown) text += fmt::format(", ... ({} windows)", w.size());
    lines.push_back(fmt::format("  {}: {}", tracks[t].name, text));
  }

  // Stalls: by cause, the longest spans, and the instructions that waited most.
  std::map<std::string, uint64_t> by_cause;
  struct PcStall {
    std::string name;
    uint64_t cycles = 0, spans = 0;
    std::map<std::string, uint64_t> causes;
  };
  std::map<int64_t, PcStall> by_pc;
  std::vector<const TimelineSlice*> stalls;
  for (const auto& s : slices) {
    if (s.category != "stall") continue;
    stalls.push_back(&s);
    by_cause[s.cause] += s.end - s.begin;
    auto& p = by_pc[s.pc];
    p.name = s.detail;
    p.cycles += s.end - s.begin;
    p.spans += 1;
    p.causes[s.cause] += s.end - s.begin;
  }
  if (stalls.empty()) {
    lines.push_back("issue stalls: none");
  } else {
    std::string text;
    for (const auto& [cause, n] : by_cause) text += fmt::format("  {} {} ({})", cause, n, percent(n, cycles));
    lines.push_back("issue stalls:" + text);
    std::stable_sort(stalls.begin(), stalls.end(), [](const TimelineSlice* a, const TimelineSlice* b) {
      return a->end - a->begin > b->end - b->begin;
    });
    lines.push_back("longest stalls:");
    for (size_t i = 0; i < std::min<size_t>(stalls.size(), 5); ++i) {
      const auto* s = stalls[i];
      lines.push_back(fmt::format("  {:>7} cycles at {}..{}  {:<10}  {}", s->end - s->begin, s->begin, s->end,
                                  s->cause,
                                  s->pc == kPcNotRecorded ? "(the waiting instruction is not recorded)"
                                  : s->pc < 0             ? "(no instruction waiting)"
                                              : fmt::format("pc {}: {}", s->pc, by_pc[s->pc].name)));
    }
    std::vector<std::pair<int64_t, const PcStall*>> pcs;
    for (const auto& [pc, p] : by_pc)
      if (pc >= 0) pcs.emplace_back(pc, &p);
    std::stable_sort(pcs.begin(), pcs.end(),
                     [](const auto& a, const auto& b) { return a.second->cycles > b.second->cycles; });
    if (!pcs.empty()) lines.push_back("instructions that waited most:");
    for (size_t i = 0; i < std::min<size_t>(pcs.size(), 5); ++i) {
      const auto& [pc, p] = pcs[i];
      std::string causes;
      for (const auto& [c, n] : p->causes) causes += fmt::format("{}{} {}", causes.empty() ? "" : ", ", c, n);
      lines.push_back(fmt::format("  pc {:<5} {:<28} {:>7} cycles in {} stall(s) ({})", pc, p->name,
                                  p->cycles, p->spans, causes));
    }
  }

  // DMA commands: how long they wait for DRAM and hold their slot.
  uint64_t commands = 0, queued = 0, held = 0, bytes = 0;
  for (const auto& o : ops) {
    if (o.unit != "dma") continue;
    ++commands;
    queued += o.started - o.accepted;
    held += o.finished - o.accepted;
    bytes += o.bytes;
  }
  if (commands > 0) {
    lines.push_back(fmt::format(
        "DMA: {} commands, {} bytes; a command waits {:.0f} cycles on average before its first request and "
        "holds its slot {:.0f}; all {} slots taken for {} cycles",
        commands, bytes, static_cast<double>(queued) / static_cast<double>(commands),
        static_cast<double>(held) / static_cast<double>(commands), total("dma_slots"),
        total("dma_all_slots_taken")));
  }
  if (lines.size() > max_lines) {
    const size_t cut = lines.size() - max_lines;
    lines.resize(max_lines);
    lines.push_back(fmt::format("[... {} more lines]", cut));
  }
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

void SliceBuilder::mark(unsigned track, uint64_t cycle, const std::string& key, const TimelineSlice& fields) {
  Open& o = open_[track];
  if (o.open && o.slice.end == cycle && o.key == key && o.slice.pc == fields.pc &&
      o.slice.cause == fields.cause) {
    o.slice.end = cycle + 1;
    return;
  }
  close(track);
  o.open = true;
  o.key = key;
  o.slice = fields;
  o.slice.track = track;
  o.slice.begin = cycle;
  o.slice.end = cycle + 1;
}

void SliceBuilder::close(unsigned track) {
  Open& o = open_[track];
  if (!o.open) return;
  timeline_.slices.push_back(std::move(o.slice));
  o.open = false;
}

void SliceBuilder::close_all() {
  for (unsigned t = 0; t < open_.size(); ++t) close(t);
}

}  // namespace kcraft::tb
