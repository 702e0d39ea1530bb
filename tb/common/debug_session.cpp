#include "tb/common/debug_session.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>

#include "tasks/common/dtype.h"

namespace kcraft::tb {

namespace {

constexpr uint64_t kModelInstructionLimit = 50'000'000;
constexpr size_t kDefaultDifferingRows = 16;  // per memory, when no --rows is given
constexpr size_t kDefaultNonZeroRows = 8;

bool row_differs(const SnapshotMemory& a, const SnapshotMemory& b, size_t row) {
  const size_t n = a.row_elements;
  return !std::equal(a.data.begin() + static_cast<std::ptrdiff_t>(row * n),
                     a.data.begin() + static_cast<std::ptrdiff_t>((row + 1) * n),
                     b.data.begin() + static_cast<std::ptrdiff_t>(row * n));
}

bool row_nonzero(const SnapshotMemory& m, size_t row) {
  const auto begin = m.data.begin() + static_cast<std::ptrdiff_t>(row * m.row_elements);
  return std::any_of(begin, begin + m.row_elements, [](uint64_t v) { return v != 0; });
}

std::string row_text(const SnapshotMemory& m, size_t row) {
  std::string s;
  for (size_t e = 0; e < m.row_elements; ++e) {
    s += (e == 0 ? "" : " ") + format_value(m.data[row * m.row_elements + e], m.format);
  }
  return s;
}

nlohmann::json row_json(const SnapshotMemory& m, size_t row) {
  nlohmann::json a = nlohmann::json::array();
  for (size_t e = 0; e < m.row_elements; ++e)
    a.push_back(format_value(m.data[row * m.row_elements + e], m.format));
  return a;
}

// The golden reference of an output tensor, and which of the RTL's rows are outside its tolerance.
struct Golden {
  SnapshotMemory rows;         // the reference rounded to the DRAM's element type
  std::vector<double> values;  // the reference itself, row-major
  tasks::Tolerance tolerance;
  tasks::DType dtype = tasks::DType::bf16;
  bool within(double out, double ref) const {
    if (std::isnan(ref)) return std::isnan(out);
    if (std::isinf(ref)) return out == ref;
    if (!std::isfinite(out)) return false;
    return std::fabs(out - ref) <= tolerance.atol + tolerance.rtol * std::fabs(ref);
  }
  bool row_outside(const SnapshotMemory& m, size_t row) const {
    if (m.row_elements != rows.row_elements || row >= rows.rows() || row >= m.rows()) return false;
    for (size_t e = 0; e < m.row_elements; ++e) {
      const size_t i = row * m.row_elements + e;
      if (!within(tasks::dtype_bits_to_double(static_cast<uint32_t>(m.data[i]), dtype), values[i]))
        return true;
    }
    return false;
  }
};

std::map<std::string, Golden> golden_outputs(const PreparedRun* run) {
  std::map<std::string, Golden> out;
  if (run == nullptr) return out;
  for (const auto& ref : run->references) {
    if (ref.shape.empty()) continue;
    Golden g;
    g.dtype = run->cfg.dtype;
    g.tolerance = run->cfg.tolerance;
    g.values = ref.data;
    g.rows.name = ref.name;
    g.rows.dram = true;
    g.rows.row_elements = static_cast<unsigned>(ref.shape.back());
    g.rows.format = g.dtype == tasks::DType::bf16 ? ValueFormat::kBf16 : ValueFormat::kFp32;
    for (double v : ref.data) g.rows.data.push_back(tasks::dtype_bits(v, g.dtype));
    out.emplace(ref.name, std::move(g));
  }
  return out;
}

const SnapshotMemory* find_memory(const MachineSnapshot& s, const std::string& name) {
  for (const auto& m : s.memories) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

// The rows to show of a memory: the selected ones; or those that differ and some non-zero ones (on-chip);
// or those that differ and, at the end of the run, those of an output outside the golden's tolerance (DRAM).
std::vector<size_t> rows_to_show(const DebugOptions& o, const SnapshotMemory& rtl,
                                 const SnapshotMemory& model, const Golden* golden, bool at_end) {
  std::vector<size_t> rows;
  const size_t n = std::min(rtl.rows(), model.rows());
  if (!o.rows.empty()) {
    for (const auto& r : o.rows) {
      if (r.memory != rtl.name) continue;
      if (r.first >= n) {
        throw std::invalid_argument(
            fmt::format("{} has {} rows; row {} does not exist", rtl.name, n, r.first));
      }
      for (uint64_t row = r.first; row <= std::min<uint64_t>(r.last, n - 1); ++row) rows.push_back(row);
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
  }
  size_t differing = 0, nonzero = 0, outside = 0;
  for (size_t row = 0; row < n; ++row) {
    if (row_differs(rtl, model, row) && differing < kDefaultDifferingRows) {
      ++differing;
      rows.push_back(row);
    } else if (rtl.dram) {
      if (golden != nullptr && at_end && outside < kDefaultNonZeroRows && golden->row_outside(rtl, row)) {
        ++outside;
        rows.push_back(row);
      }
    } else if ((row_nonzero(rtl, row) || row_nonzero(model, row)) && nonzero < kDefaultNonZeroRows) {
      ++nonzero;
      rows.push_back(row);
    }
  }
  return rows;
}

nlohmann::json side_json(const MachineSnapshot& s) {
  nlohmann::json j;
  j["pc"] = s.pc;
  j["retired"] = s.retired;
  j["cycle"] = s.cycle ? nlohmann::json(*s.cycle) : nlohmann::json(nullptr);
  j["status"] = s.status;
  j["why"] = s.why;
  nlohmann::json regs = nlohmann::json::object();
  for (const auto& r : s.registers) regs[r.name] = format_value(r.bits, r.format);
  j["registers"] = regs;
  return j;
}

std::string cycle_text(const std::optional<uint64_t>& cycle) {
  return cycle ? std::to_string(*cycle) : "-";
}

// Each side's pc, counts, status and, when its run ended early, why (eval's diagnosis).
void dump_header(DebugTarget& target, const MachineSnapshot& rtl, const MachineSnapshot& model,
                 std::string& text, nlohmann::json& json) {
  text += fmt::format("{:<28} {:<24} {}\n", "", "RTL", "model");
  text += fmt::format("{:<28} {:<24} {}\n", "pc (next instruction)", target.pc_text(rtl.pc),
                      target.pc_text(model.pc));
  text += fmt::format("{:<28} {:<24} {}\n", "retired instructions", rtl.retired, model.retired);
  text += fmt::format("{:<28} {:<24} {}\n", "cycle", cycle_text(rtl.cycle), cycle_text(model.cycle));
  text += fmt::format("{:<28} {:<24} {}\n", "status", rtl.status, model.status);
  if (!rtl.why.empty()) text += "RTL stopped: " + rtl.why + (rtl.why.back() == '\n' ? "" : "\n");
  if (!model.why.empty()) text += "model stopped: " + model.why + (model.why.back() == '\n' ? "" : "\n");
  json["rtl"] = side_json(rtl);
  json["model"] = side_json(model);
}

void check_row_selections(const DebugOptions& o, const MachineSnapshot& rtl) {
  for (const auto& sel : o.rows) {
    if (find_memory(rtl, sel.memory) != nullptr) continue;
    std::string onchip, dram;
    for (const auto& m : rtl.memories) (m.dram ? dram : onchip) += (m.dram ? ", " : ", ") + m.name;
    throw std::invalid_argument(fmt::format("no memory '{}' to dump (on-chip: {}; DRAM tensors: {})",
                                            sel.memory, onchip.empty() ? "none" : onchip.substr(2),
                                            dram.empty() ? "none at this stop point" : dram.substr(2)));
  }
}

void dump(const DebugOptions& o, DebugTarget& target, const MachineSnapshot& rtl,
          const MachineSnapshot& model, bool at_end, std::string& text, nlohmann::json& json) {
  dump_header(target, rtl, model, text, json);
  std::string group;
  for (size_t i = 0; i < rtl.registers.size() && i < model.registers.size(); ++i) {
    const auto& a = rtl.registers[i];
    const auto& b = model.registers[i];
    if (a.group != group) {
      group = a.group;
      text += fmt::format("-- {} registers\n", group);
    }
    text += fmt::format("{}{:<27} {:<24} {}\n", a.bits != b.bits ? '*' : ' ', a.name,
                        format_value(a.bits, a.format), format_value(b.bits, b.format));
  }
  check_row_selections(o, rtl);
  const auto goldens = golden_outputs(target.prepared());
  nlohmann::json memories = nlohmann::json::array();
  bool dram_heading = false;
  for (const auto& a : rtl.memories) {
    // A DRAM tensor the model cannot show (its run ended without a DRAM image) is shown for the RTL and the
    // golden alone.
    const SnapshotMemory* found = find_memory(model, a.name);
    if (found == nullptr && !a.dram) continue;
    const bool no_model = found == nullptr;
    const SnapshotMemory& b = no_model ? a : *found;
    const auto g = goldens.find(a.name);
    const Golden* golden = a.dram && g != goldens.end() ? &g->second : nullptr;
    if (a.dram && !dram_heading) {
      dram_heading = true;
      text += fmt::format(
          "-- DRAM tensors (--rows NAME[:FIRST[-LAST]]){}\n",
          goldens.empty() ? "" : "; outputs with the golden reference, ! = outside its tolerance");
    }
    size_t differing = 0, nonzero = 0, outside = 0;
    for (size_t row = 0; row < std::min(a.rows(), b.rows()); ++row) {
      differing += !no_model && row_differs(a, b, row) ? 1 : 0;
      nonzero += (row_nonzero(a, row) || row_nonzero(b, row)) ? 1 : 0;
      outside += golden != nullptr && golden->row_outside(a, row) ? 1 : 0;
    }
    text += fmt::format(
        "-- {}: {} rows of {} elements, {} non-zero, {} differ{}\n", a.name, a.rows(), a.row_elements,
        nonzero, differing,
        golden != nullptr ? fmt::format(", {} of the RTL's outside the golden's tolerance", outside) : "");
    nlohmann::json mj{{"name", a.name},
                      {"dram", a.dram},
                      {"rows", a.rows()},
                      {"row_elements", a.row_elements},
                      {"nonzero_rows", nonzero},
                      {"differing_rows", differing},
                      {"dumped", nlohmann::json::array()}};
    if (golden != nullptr) mj["rows_outside_golden"] = outside;
    for (size_t row : rows_to_show(o, a, b, golden, at_end)) {
      const bool diff = !no_model && row_differs(a, b, row);
      const bool off = golden != nullptr && golden->row_outside(a, row);
      const char mark = diff ? '*' : (off ? '!' : ' ');
      text += fmt::format("{}{}[{}] RTL    {}\n", mark, a.name, row, row_text(a, row));
      text += fmt::format(
          "{}{}[{}] model  {}\n", mark, a.name, row,
          no_model ? std::string("(no DRAM image: the model's run did not end normally)") : row_text(b, row));
      nlohmann::json rj{{"row", row},
                        {"differs", diff},
                        {"rtl", row_json(a, row)},
                        {"model", no_model ? nlohmann::json(nullptr) : row_json(b, row)}};
      if (golden != nullptr && row < golden->rows.rows()) {
        text += fmt::format("{}{}[{}] golden {}\n", mark, a.name, row, row_text(golden->rows, row));
        rj["golden"] = row_json(golden->rows, row);
        rj["outside_golden"] = off;
      }
      mj["dumped"].push_back(std::move(rj));
    }
    memories.push_back(mj);
  }
  json["memories"] = memories;
}

uint64_t parse_number(const std::string& text) {
  size_t used = 0;
  const uint64_t v = std::stoull(text, &used, 0);
  if (used != text.size()) throw std::invalid_argument("not a number");
  return v;
}

// Counts issues; writes the halt into IMEM on the edge where issue number `write_at` happens.
class HaltWriter final : public CycleObserver {
 public:
  HaltWriter(AcceleratorHw& hw, std::optional<uint64_t> write_at, uint32_t pc, uint32_t halt_word)
      : hw_(hw), write_at_(write_at), pc_(pc), halt_word_(halt_word) {}
  void on_cycle(uint64_t /*cycle*/, uint32_t /*trace_word*/, bool issued, uint32_t /*pc*/,
                uint32_t /*insn*/) override {
    if (!issued) return;
    if (write_at_ && issues_ == *write_at_) hw_.ctl_write_next_edge(regs::kCtlImem + pc_, halt_word_);
    ++issues_;
  }
  uint64_t issues() const { return issues_; }

 private:
  AcceleratorHw& hw_;
  std::optional<uint64_t> write_at_;
  uint32_t pc_, halt_word_;
  uint64_t issues_ = 0;
};

}  // namespace

bool run_rtl_until_retired(AcceleratorHw& hw, MemoryPort& port, std::vector<uint32_t> program,
                           uint64_t dram_bytes, uint64_t retired, const std::vector<uint32_t>& pcs,
                           uint32_t halt_word, uint64_t cycle_cap) {
  std::optional<uint64_t> write_at;
  uint32_t stop_pc = 0;
  if (retired < pcs.size()) {
    stop_pc = pcs[retired];
    const bool visited = std::find(pcs.begin(), pcs.begin() + static_cast<std::ptrdiff_t>(retired),
                                   stop_pc) != pcs.begin() + static_cast<std::ptrdiff_t>(retired);
    if (!visited) {
      if (stop_pc >= program.size())
        throw std::invalid_argument(fmt::format("pc {} is outside the program", stop_pc));
      program[stop_pc] = halt_word;
    } else if (retired < 2) {
      throw std::invalid_argument(
          fmt::format("cannot stop at the second visit of pc {} after {} instruction(s)", stop_pc, retired));
    } else {
      write_at = retired - 2;
    }
  }
  HaltWriter writer(hw, write_at, stop_pc, halt_word);
  hw.set_cycle_observer(&writer);
  hw.start(program, dram_bytes);
  while (!hw.stopped() && hw.cycle() < cycle_cap)
    hw.run_cycles(std::min<uint64_t>(cycle_cap - hw.cycle(), 1 << 20), port);
  hw.set_cycle_observer(nullptr);
  return hw.stopped();
}

uint64_t count_rtl_issues(AcceleratorHw& hw, MemoryPort& port, uint64_t cycles) {
  HaltWriter counter(hw, std::nullopt, 0, 0);
  hw.set_cycle_observer(&counter);
  while (!hw.stopped() && hw.cycle() < cycles) hw.run_cycles(cycles - hw.cycle(), port);
  hw.set_cycle_observer(nullptr);
  return counter.issues();
}

std::vector<SnapshotMemory> dram_tensors(const PreparedRun& run, const std::vector<uint8_t>& dram,
                                         unsigned scratch_row_elements) {
  std::vector<SnapshotMemory> out;
  const tasks::DType dtype = run.layout.dtype;
  const size_t bytes = tasks::dtype_bytes(dtype);
  for (const auto& region : run.layout.regions) {
    if (region.kind == tasks::RegionKind::phase) continue;
    SnapshotMemory m;
    m.name = region.name;
    m.dram = true;
    m.format = dtype == tasks::DType::bf16 ? ValueFormat::kBf16 : ValueFormat::kFp32;
    m.row_elements = region.shape.empty() ? scratch_row_elements : static_cast<unsigned>(region.shape.back());
    if (m.row_elements == 0) m.row_elements = 1;
    const uint64_t elements = region.bytes / bytes / m.row_elements * m.row_elements;
    m.data.resize(elements);
    for (uint64_t e = 0; e < elements; ++e) {
      uint64_t v = 0;
      const uint64_t at = region.address + e * bytes;
      for (size_t b = 0; b < bytes && at + b < dram.size(); ++b) v |= uint64_t{dram[at + b]} << (8 * b);
      m.data[e] = v;
    }
    out.push_back(std::move(m));
  }
  return out;
}

std::string format_value(uint64_t bits, ValueFormat format) {
  switch (format) {
    case ValueFormat::kInt:
      return fmt::format("{} (0x{:x})", static_cast<int32_t>(static_cast<uint32_t>(bits)), bits);
    case ValueFormat::kBf16:
    case ValueFormat::kFp32: {
      const uint32_t word =
          format == ValueFormat::kBf16 ? static_cast<uint32_t>(bits) << 16 : static_cast<uint32_t>(bits);
      float f = 0;
      std::memcpy(&f, &word, sizeof f);
      return fmt::format("{:g}", f);
    }
    case ValueFormat::kHex:
      break;
  }
  return fmt::format("0x{:x}", bits);
}

std::optional<SnapshotDifference> first_difference(const MachineSnapshot& rtl, const MachineSnapshot& model,
                                                   const std::function<std::string(uint32_t)>& pc_text) {
  if (rtl.pc != model.pc) {
    const auto text = [&](uint32_t pc) { return pc_text ? pc_text(pc) : std::to_string(pc); };
    return SnapshotDifference{"pc", text(rtl.pc), text(model.pc), "", 0};
  }
  if (rtl.retired != model.retired) {
    return SnapshotDifference{"retired instructions", std::to_string(rtl.retired),
                              std::to_string(model.retired), "", 0};
  }
  for (size_t i = 0; i < rtl.registers.size() && i < model.registers.size(); ++i) {
    const auto& a = rtl.registers[i];
    if (a.bits != model.registers[i].bits) {
      return SnapshotDifference{a.name, format_value(a.bits, a.format),
                                format_value(model.registers[i].bits, a.format), "", 0};
    }
  }
  for (const auto& a : rtl.memories) {
    const SnapshotMemory* found = find_memory(model, a.name);
    if (found == nullptr) continue;
    const auto& b = *found;
    for (size_t k = 0; k < std::min(a.data.size(), b.data.size()); ++k) {
      if (a.data[k] != b.data[k]) {
        const size_t row = k / a.row_elements;
        return SnapshotDifference{fmt::format("{} row {} element {}", a.name, row, k % a.row_elements),
                                  format_value(a.data[k], a.format), format_value(b.data[k], b.format),
                                  a.name, row};
      }
    }
  }
  return std::nullopt;
}

DebugRowRange parse_row_range(const std::string& text) {
  DebugRowRange r;
  const auto colon = text.find(':');
  r.memory = text.substr(0, colon);
  if (r.memory.empty()) throw std::invalid_argument("--rows '" + text + "': no memory name (e.g. vsram:0-7)");
  if (colon == std::string::npos) return r;
  const std::string range = text.substr(colon + 1);
  const auto dash = range.find('-');
  try {
    r.first = parse_number(range.substr(0, dash));
    r.last = dash == std::string::npos ? r.first : parse_number(range.substr(dash + 1));
  } catch (const std::exception&) {
    throw std::invalid_argument("--rows '" + text + "': expected MEMORY, MEMORY:ROW or MEMORY:FIRST-LAST");
  }
  if (r.last < r.first)
    throw std::invalid_argument("--rows '" + text + "': the last row is before the first");
  return r;
}

CommandReport run_debug_session(const DebugOptions& o, DebugTarget& target) {
  if (!o.stop_at_pc.empty() && o.stop_at_cycle) {
    throw std::invalid_argument("give --stop-at-pc or --stop-at-cycle, not both");
  }
  if (o.stop_at_cycle) target.limit_cycles(*o.stop_at_cycle);
  const std::vector<uint32_t> pcs = target.model_pcs(kModelInstructionLimit);
  uint64_t stop = pcs.size();
  std::string stop_text = fmt::format("the end of the run ({} instructions retired)", pcs.size());
  if (!o.stop_at_pc.empty()) {
    std::optional<uint32_t> pc = target.label(o.stop_at_pc);
    if (!pc) {
      try {
        pc = static_cast<uint32_t>(parse_number(o.stop_at_pc));
      } catch (const std::exception&) {
        throw std::invalid_argument(
            fmt::format("--stop-at-pc '{}': neither a number nor a label of the kernel", o.stop_at_pc));
      }
    }
    const auto it = std::find(pcs.begin(), pcs.end(), *pc);
    if (it == pcs.end()) {
      throw std::invalid_argument(
          fmt::format("--stop-at-pc {}: the run never reaches pc {} ({} instructions retired)", o.stop_at_pc,
                      *pc, pcs.size()));
    }
    stop = static_cast<uint64_t>(it - pcs.begin());
    stop_text = fmt::format("pc {} first reached, after {} retired instructions", target.pc_text(*pc), stop);
  } else if (o.stop_at_cycle) {
    stop = std::min<uint64_t>(target.rtl_retired_at_cycle(*o.stop_at_cycle), pcs.size());
    stop_text = fmt::format("cycle {}: after the {} instructions the RTL had retired by then",
                            *o.stop_at_cycle, stop);
  }

  CommandReport report;
  std::string& text = report.text;
  nlohmann::json& json = report.json;
  text += "stop: " + stop_text + "\n";
  if (stop < pcs.size()) {
    text +=
        fmt::format("next instruction: pc {}: {}\n", target.pc_text(pcs[stop]), target.describe(pcs[stop]));
  }
  json["stop"] = {{"retired", stop}, {"description", stop_text}};
  if (stop < pcs.size()) json["stop"]["next_pc"] = pcs[stop];

  MachineSnapshot rtl = target.rtl_after(stop, pcs);
  MachineSnapshot model = target.model_after(stop);
  const auto pc_text = [&target](uint32_t pc) { return target.pc_text(pc); };
  auto diff = first_difference(rtl, model, pc_text);
  // With recorded traces every instruction is compared, so a difference that heals before the stop is
  // found too; it makes the run disagree.
  std::optional<uint64_t> healed;
  if (!diff && o.lockstep && target.snapshots_are_cheap()) {
    for (uint64_t k = 0; k < stop && !diff; ++k) {
      auto r = target.rtl_after(k, pcs);
      auto m = target.model_after(k);
      if ((diff = first_difference(r, m, pc_text))) healed = k;
    }
  }
  json["agree"] = !diff.has_value();
  json["lockstep"] = nullptr;
  if (!diff) {
    text += fmt::format("RTL and model agree {}\n",
                        stop == pcs.size() ? "to the end of the run" : "at the stop point");
  } else if (!o.lockstep) {
    text += fmt::format(
        "RTL and model DIFFER at the stop point: {}: RTL {}, model {} (--lockstep finds the first "
        "instruction)\n",
        diff->where, diff->rtl, diff->model);
  } else {
    // The states agree after `lo` instructions and differ after `hi`: bisect, or scan recorded traces.
    uint64_t lo = 0, hi = healed ? *healed : stop;
    if (healed) {
      text += fmt::format("the states agree at the stop point but differed on the way there\n");
    }
    MachineSnapshot rtl_hi = rtl, model_hi = model;
    SnapshotDifference diff_hi = *diff;
    if (healed) {
      rtl_hi = target.rtl_after(hi, pcs);
      model_hi = target.model_after(hi);
    }
    if (hi > 0) {
      auto rtl0 = target.rtl_after(0, pcs);
      auto model0 = target.model_after(0);
      if (auto d0 = first_difference(rtl0, model0, pc_text)) {
        hi = 0;
        rtl_hi = rtl0;
        model_hi = model0;
        diff_hi = *d0;
      }
    }
    if (hi > 0 && target.snapshots_are_cheap()) {
      for (uint64_t k = 1; k < hi; ++k) {
        auto r = target.rtl_after(k, pcs);
        auto m = target.model_after(k);
        if (auto d = first_difference(r, m, pc_text)) {
          hi = k;
          rtl_hi = std::move(r);
          model_hi = std::move(m);
          diff_hi = *d;
          break;
        }
      }
      lo = hi - 1;
    }
    while (hi > 0 && lo + 1 < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;
      auto r = target.rtl_after(mid, pcs);
      auto m = target.model_after(mid);
      if (auto d = first_difference(r, m, pc_text)) {
        hi = mid;
        rtl_hi = std::move(r);
        model_hi = std::move(m);
        diff_hi = *d;
      } else {
        lo = mid;
      }
    }
    rtl = std::move(rtl_hi);
    model = std::move(model_hi);
    if (hi == 0) {
      text +=
          fmt::format("lockstep: RTL and model differ before the first instruction: {}: RTL {}, model {}\n",
                      diff_hi.where, diff_hi.rtl, diff_hi.model);
    } else {
      text += fmt::format(
          "lockstep: first divergence at retired instruction {} (pc {}: {}): {}: RTL {}, model {}\n", hi,
          target.pc_text(pcs[hi - 1]), target.describe(pcs[hi - 1]), diff_hi.where, diff_hi.rtl,
          diff_hi.model);
      text += fmt::format("(they agree after {} instructions; the state below is after {})\n", lo, hi);
    }
    json["lockstep"] = {{"instruction", hi},
                        {"pc", hi == 0 ? 0 : pcs[hi - 1]},
                        {"disassembly", hi == 0 ? "" : target.describe(pcs[hi - 1])},
                        {"where", diff_hi.where},
                        {"rtl", diff_hi.rtl},
                        {"model", diff_hi.model}};
  }
  if (diff) {
    json["difference"] = {{"where", diff->where}, {"rtl", diff->rtl}, {"model", diff->model}};
  }
  if (o.lockstep && !diff) json["lockstep"] = {{"instruction", nullptr}};
  dump(o, target, rtl, model, stop == pcs.size(), text, json);
  report.ok = !diff.has_value();
  return report;
}

DebugPreparation prepare_debug_run(const Platform& platform, const DebugOptions& o,
                                   const tasks::TaskRegistry& registry, const LinkedConfigs& linked,
                                   uint8_t fill) {
  EvalRequest req;
  req.platform = platform.name();
  req.hw_config = o.hw_config;
  req.task = o.task;
  req.config = o.config;
  req.seed = o.seed;
  req.source = o.source;
  req.filename = o.filename;
  req.cycle_cap = o.cycle_cap;
  EvalReport r;
  DebugPreparation out;
  out.run = prepare_run(platform, req, registry, linked, fill, r);
  if (!out.run) {
    if (r.verdict == Verdict::kInputError) throw std::invalid_argument(r.headline);
    out.failed.ok = false;
    out.failed.text = r.headline + "\n" + r.diagnostics;
    out.failed.json = r.to_json();
  }
  return out;
}

}  // namespace kcraft::tb
