// The timing model of docs/systolic.md and of the ISA reference (timing_model, occupancy), measured on
// the RTL of every hardware configuration: how the units overlap, how long each instruction holds its
// unit, how DMA commands share slots, latency and bandwidth, and where the in-order issue stage stalls.
// Also: the timelines the testbench records agree with the performance counters and are valid Chrome
// trace-event JSON, and the worked timelines in docs/systolic.md are what the RTL does.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isa/common/expression.h"
#include "systolic_isa.h"
#include "tb/common/paths.h"
#include "tb/systolic/systolic_sim.h"
#include "tb/systolic/systolic_timing.h"
#include "tests/guide_timelines.h"
#include "tests/systolic/test_util.h"

namespace kcraft::systolic {
namespace {

using testing::assemble;
namespace sy = isa::systolic;

std::vector<std::string> hw_configs() {
  std::vector<std::string> names;
  for (const auto& c : testing::platform().hw_configs()) names.push_back(c.name);
  return names;
}

TimingModel timing_model(const std::string& hw) {
  const HwConfig& c = testing::platform().hw_config(hw);
  TimingModel tm;
  tm.p = testing::platform().params(hw);
  tm.dram_latency = static_cast<uint64_t>(c.runtime_param("dram_latency_cycles"));
  tm.dram_bytes_per_cycle = static_cast<uint64_t>(c.runtime_param("dram_bytes_per_cycle"));
  return tm;
}

RunResult run(const std::string& source, const std::string& hw, std::vector<uint8_t> dram) {
  RunJob job;
  job.config = hw;
  const HwConfig& c = testing::platform().hw_config(hw);
  job.timing.latency_cycles = static_cast<uint64_t>(c.runtime_param("dram_latency_cycles"));
  job.timing.bytes_per_cycle = static_cast<uint64_t>(c.runtime_param("dram_bytes_per_cycle"));
  job.clock_mhz = c.runtime_param("clock_mhz", 1000);
  job.program = assemble(source, hw);
  job.dram = std::move(dram);
  job.instruction_trace = true;
  job.timeline = true;
  job.timeline_title = "timing test";
  job.cycle_cap = 1'000'000;
  RunResult r = run_on_rtl(job);
  EXPECT_EQ(r.stop, RunResult::Stop::kHalted) << source;
  EXPECT_TRUE(r.timeline != nullptr);
  return r;
}

RunResult run(const std::string& source, const std::string& hw, size_t dram_bytes = 1 << 20) {
  return run(source, hw, std::vector<uint8_t>(dram_bytes));
}

uint16_t dram_half(const std::vector<uint8_t>& dram, size_t address) {
  return static_cast<uint16_t>(dram[address] | (dram[address + 1] << 8));
}

// Issue cycle of the n-th issue (0-based) of `pc`.
uint64_t issued(const RunResult& r, uint32_t pc, unsigned n = 0) {
  for (const auto& t : r.trace) {
    if (t.pc == pc && n-- == 0) return t.cycle;
  }
  ADD_FAILURE() << "pc " << pc << " did not issue";
  return 0;
}

// The timeline's operation started by `pc` (the n-th one).
tb::TimelineOp op(const RunResult& r, uint32_t pc, unsigned n = 0) {
  for (const auto& o : r.timeline->ops) {
    if (o.pc == pc && n-- == 0) return o;
  }
  ADD_FAILURE() << "no operation from pc " << pc;
  return {};
}

uint64_t stall_cycles(const RunResult& r, const std::string& cause) {
  uint64_t n = 0;
  for (const auto& s : r.timeline->slices) {
    if (s.category == "stall" && s.cause == cause) n += s.end - s.begin;
  }
  return n;
}

// Evaluates an occupancy or latency expression of the ISA YAML with the configuration's symbols.
int64_t yaml_value(const std::string& text, const std::string& hw, int64_t count = 0) {
  auto symbols = testing::platform().symbols(hw);
  symbols["count"] = count;
  auto tokens = isa::tokenize(text);
  isa::ExprError error;
  auto expr = isa::parse_expression(tokens, 0, tokens.size(), &error);
  EXPECT_TRUE(expr.has_value()) << text << ": " << error.message;
  if (!expr) return -1;
  auto value = isa::evaluate_int(
      *expr,
      [&](std::string_view name) -> std::optional<int64_t> {
        auto it = symbols.find(name);
        return it == symbols.end() ? std::nullopt : std::optional<int64_t>(it->second);
      },
      std::nullopt, false);
  EXPECT_EQ(value.status, isa::EvalStatus::kOk) << text;
  return value.value;
}

int64_t occupancy(const std::string& mnemonic, const std::string& hw, int64_t count = 0) {
  const auto* insn = sy::spec().find_instruction(mnemonic);
  EXPECT_NE(insn, nullptr) << mnemonic;
  if (insn == nullptr) return -1;
  EXPECT_FALSE(insn->occupancy.empty()) << mnemonic << " has no occupancy in isa/systolic.yaml";
  return yaml_value(insn->occupancy, hw, count);
}

class SystolicTiming : public ::testing::TestWithParam<std::string> {};

// ---------------------------------------------------------------- matrix unit
TEST_P(SystolicTiming, MatrixInstructionsHoldTheUnitForTheirOccupancy) {
  const std::string hw = GetParam();
  const TimingModel tm = timing_model(hw);
  // pc 0 M_LDW, 1..3 M_MM, 4 M_WO (rows of the first M_MM), 5 M_MMA, 6 C_HALT
  auto r = run(R"(
    M_LDW r0
    M_MM r0, r0, 0
    M_MM r0, r0, BLEN
    M_MM r0, r0, 2*BLEN
    M_WO r0, r0, 4*BLEN
    M_MMA r0, r0, 3*BLEN
    C_HALT)",
               hw);
  const uint64_t t0 = issued(r, 0);
  EXPECT_EQ(issued(r, 1) - t0, static_cast<uint64_t>(occupancy("M_LDW", hw)));
  EXPECT_EQ(occupancy("M_LDW", hw), static_cast<int64_t>(tm.ldw_cycles()));
  // M_MMs stream back to back: the next is accepted when the previous one's BLEN rows are read.
  EXPECT_EQ(issued(r, 2) - issued(r, 1), static_cast<uint64_t>(occupancy("M_MM", hw)));
  EXPECT_EQ(issued(r, 3) - issued(r, 2), static_cast<uint64_t>(occupancy("M_MM", hw)));
  EXPECT_EQ(occupancy("M_MM", hw), static_cast<int64_t>(tm.stream_cycles()));
  // An M_WO of accumulators nobody writes is accepted at once and holds the unit BLEN cycles too.
  EXPECT_EQ(issued(r, 4) - issued(r, 3), static_cast<uint64_t>(occupancy("M_MM", hw)));
  EXPECT_EQ(issued(r, 5) - issued(r, 4), static_cast<uint64_t>(occupancy("M_WO", hw)));
  // A matrix instruction arriving while the unit is busy waits at the issue stage (unit_busy).
  EXPECT_GT(stall_cycles(r, "unit_busy"), 0u);
  // The timeline: M_LDW starts loading 2 cycles after acceptance; M_MMs finish (results in the
  // accumulators) BLEN + 2*MLEN cycles after acceptance.
  const auto ldw = op(r, 0);
  EXPECT_EQ(ldw.accepted, t0);
  EXPECT_EQ(ldw.started, t0 + 2);
  EXPECT_EQ(ldw.finished, t0 + tm.ldw_cycles());
  const auto mm = op(r, 1);
  EXPECT_EQ(mm.accepted, issued(r, 1));
  EXPECT_EQ(mm.finished - mm.accepted, static_cast<uint64_t>(yaml_value("BLEN + 2*MLEN", hw)));
}

TEST_P(SystolicTiming, MldwWaitsForTheArrayToDrain) {
  const std::string hw = GetParam();
  const TimingModel tm = timing_model(hw);
  // pc 0 M_LDW, 1 M_MM, 2 M_LDW, 3 M_MM
  auto r = run("M_LDW r0\nM_MM r0, r0\nM_LDW r0\nM_MM r0, r0\nC_HALT", hw);
  const uint64_t mm = issued(r, 1);
  EXPECT_EQ(issued(r, 2), mm + tm.stream_cycles());  // accepted as soon as the rows are read
  // ... but loads only once the M_MM's rows have left the array.
  EXPECT_EQ(op(r, 2).started - op(r, 2).accepted, 2 + tm.array_drain());
  EXPECT_EQ(issued(r, 3) - issued(r, 2), tm.ldw_cycles() + tm.array_drain());
  EXPECT_EQ(op(r, 2).started, op(r, 1).finished + 1);
}

// Writing accumulators out while the array drains is free; after the M_LDW each M_WO costs BLEN cycles.
TEST_P(SystolicTiming, MwoOverlapsTheDrainBeforeTheNextMldw) {
  const std::string hw = GetParam();
  const TimingModel tm = timing_model(hw);
  const Params& p = tm.p;
  const unsigned free_wo = static_cast<unsigned>(tm.array_drain() / p.blen);
  // Rows of an earlier, finished output block sit in accumulators from ACC row 8*BLEN on.
  std::string wos;
  for (unsigned i = 0; i < free_wo; ++i) wos += fmt::format("M_WO r0, r0, {}\n", 8 * p.blen + i * p.blen);
  const std::string head = "M_LDW r0\nM_MM r0, r0\n";
  auto base = run(head + "M_LDW r0\nM_MM r0, r0\nC_HALT", hw);
  auto before = run(head + wos + "M_LDW r0\nM_MM r0, r0\nC_HALT", hw);
  auto after = run(head + "M_LDW r0\n" + wos + "M_MM r0, r0\nC_HALT", hw);
  const uint64_t next_mm_base = issued(base, 3);
  // M_WOs between the last M_MM and the M_LDW: the next M_MM issues no later than without them.
  EXPECT_EQ(issued(before, 3 + free_wo), next_mm_base) << free_wo << " M_WOs";
  // The same M_WOs after the M_LDW wait for it, then hold the unit BLEN cycles each.
  EXPECT_EQ(issued(after, 3 + free_wo), next_mm_base + free_wo * p.blen);
}

// An M_WO of rows an M_MM still computes waits for that M_MM's last row, and holds everything behind it.
TEST_P(SystolicTiming, QueuedMwoWaitsForItsOwnRowsOnly) {
  const std::string hw = GetParam();
  const Params p = testing::platform().params(hw);
  // pc 0 S_LI, 1 M_LDW, 2 M_MM acc 0, 3 M_WO acc 0 (waits), 4 S_ADDI (waits behind it)
  auto r = run("S_LI r6, 64\nM_LDW r0\nM_MM r0, r0\nM_WO r6, r0\nS_ADDI r1, r0, 1\nC_HALT", hw);
  EXPECT_EQ(issued(r, 3) - issued(r, 2), static_cast<uint64_t>(yaml_value("BLEN + 2*MLEN", hw)));
  EXPECT_EQ(issued(r, 3), op(r, 2).finished);
  EXPECT_EQ(issued(r, 4), issued(r, 3) + 1);
  EXPECT_GT(stall_cycles(r, "dependency"), static_cast<uint64_t>(p.mlen));
}

// ---------------------------------------------------------------- DMA
TEST_P(SystolicTiming, DmaCommandsShareLatencyAndBandwidth) {
  const std::string hw = GetParam();
  const TimingModel tm = timing_model(hw);
  const Params& p = tm.p;
  const uint64_t rows = 16;  // fewer than DMA_OUTSTANDING: bandwidth-bound
  const uint64_t per_row = p.row_bytes() / tm.dram_bytes_per_cycle;
  // pc 0 S_LI, 1 H_LOAD_V, 2 S_LI, 3 H_LOAD_V, 4 C_HALT
  auto r =
      run(fmt::format("S_LI r3, ROW_BYTES\nH_LOAD_V r0, r0, r3, {0}\nS_LI r1, {0}\nH_LOAD_V r1, r0, r3, {0}\n"
                      "C_HALT",
                      rows),
          hw);
  const auto a = op(r, 1), b = op(r, 3);
  // A command holds its slot for its occupancy, the latency a dependent instruction sees.
  EXPECT_EQ(a.finished - a.accepted, static_cast<uint64_t>(occupancy("H_LOAD_V", hw, rows)));
  EXPECT_EQ(a.started, a.accepted + 1);  // its first request goes out the next cycle
  EXPECT_EQ(a.bytes, rows * p.row_bytes());
  // The second command's requests follow the first's back to back: it finishes `rows` row-times later,
  // not a whole latency later.
  EXPECT_EQ(b.started, a.started + rows * per_row);
  EXPECT_EQ(b.finished, a.finished + rows * per_row);
}

TEST_P(SystolicTiming, DmaOutstandingLimitsTheRowRate) {
  const std::string hw = GetParam();
  const TimingModel tm = timing_model(hw);
  const Params& p = tm.p;
  const uint64_t rows = 8 * p.dma_outstanding;
  auto r = run(fmt::format("S_LI r3, ROW_BYTES\nH_LOAD_V r0, r0, r3, {}\nC_HALT", rows), hw);
  const auto a = op(r, 1);
  // Steady state: rows_per_cycle() = min(channel, DMA_OUTSTANDING / (DRAM_LATENCY + 3)).
  const double rate =
      static_cast<double>(rows) / static_cast<double>(a.finished - a.started - tm.row_round_trip());
  EXPECT_NEAR(rate, tm.rows_per_cycle(), 0.03 * tm.rows_per_cycle()) << hw;
}

TEST_P(SystolicTiming, AFullSetOfDmaSlotsStallsEveryUnit) {
  const std::string hw = GetParam();
  const Params p = testing::platform().params(hw);
  // DMA_SLOTS loads, then one more load, then an independent vector instruction.
  std::string source = "S_LI r3, ROW_BYTES\n";
  for (unsigned s = 0; s <= p.dma_slots; ++s)
    source += fmt::format("S_LI r1, {}\nH_LOAD_V r1, r0, r3, 16\n", 32 * s);
  source += "S_LI r5, 4000\nV_ADD_VV r5, r5, r5\nC_HALT";
  auto r = run(source, hw);
  const uint32_t first_load = 2, extra_load = 2 + 2 * p.dma_slots;
  // The extra load issues the cycle the oldest command frees its slot ...
  EXPECT_EQ(issued(r, extra_load), op(r, first_load).finished);
  EXPECT_GT(stall_cycles(r, "unit_busy"), 20u);
  // ... and the vector instruction, though independent, issues only after it.
  EXPECT_EQ(issued(r, extra_load + 2), issued(r, extra_load) + 2);
}

TEST_P(SystolicTiming, InterlocksCoverAWholeCommandRange) {
  const std::string hw = GetParam();
  const TimingModel tm = timing_model(hw);
  // One 128-row load: an add on rows 0..3 waits for all 128 rows.
  auto whole = run("S_LI r3, ROW_BYTES\nH_LOAD_V r0, r0, r3, 128\nV_ADD_VV r0, r0, r0\nC_HALT", hw);
  EXPECT_EQ(issued(whole, 2), op(whole, 1).finished);
  // Two 64-row loads (every configuration has two slots): the add waits only for the first.
  auto split = run(R"(
    S_LI r3, ROW_BYTES
    S_LI r1, 64
    S_LI r2, 64*ROW_BYTES
    H_LOAD_V r0, r0, r3, 64
    H_LOAD_V r1, r2, r3, 64
    V_ADD_VV r0, r0, r0
    C_HALT)",
                   hw);
  EXPECT_EQ(issued(split, 5), op(split, 3).finished);
  EXPECT_LT(issued(split, 5), issued(whole, 2));
  EXPECT_LE(op(split, 4).finished, op(whole, 1).finished + 4);  // and the whole transfer is hardly slower
  (void)tm;
}

// docs/systolic.md §6.4 "Which accesses wait": vector after vector, read-after-read and write-after-read
// on a VSRAM row issue back to back; read-after-write waits for the latency; writing a row an earlier
// H_STORE_V reads waits until the store completes, reading it does not.
TEST_P(SystolicTiming, OnlyWritesOfRowsInUseWait) {
  const std::string hw = GetParam();
  auto v = run(R"(
    S_LI r1, 16
    S_LI r2, 32
    V_ADD_VV r1, r0, r0
    V_MUL_VV r2, r0, r0
    V_SUB_VV r0, r0, r0
    V_ADD_VV r1, r2, r2
    C_HALT)",
               hw);
  EXPECT_EQ(issued(v, 3), issued(v, 2) + 1);        // read-after-read
  EXPECT_EQ(issued(v, 4), issued(v, 3) + 1);        // write-after-read (and the row is read too)
  EXPECT_EQ(issued(v, 5), issued(v, 3) + 3);        // read-after-write (row 32): the latency
  EXPECT_EQ(v.counters[sy::kStallDependency], 1u);  // that one cycle only
  // Write-after-write (row 0, vector after vector): the latency.
  auto ww = run("S_LI r1, 16\nS_LI r2, 32\nV_ADD_VV r0, r1, r1\nV_ADD_VV r0, r2, r2\nC_HALT", hw);
  EXPECT_EQ(issued(ww, 3), issued(ww, 2) + 3);
  auto st = run(R"(
    S_LI r3, ROW_BYTES
    S_LI r1, 16
    H_STORE_V r0, r0, r3, 16
    V_ADD_VV r1, r0, r0
    V_ADD_VV r0, r1, r1
    C_HALT)",
                hw);
  EXPECT_EQ(issued(st, 3), issued(st, 2) + 1);       // reads a row the store reads
  EXPECT_EQ(issued(st, 4), op(st, 2).finished);      // writes one: waits for the whole store
  EXPECT_GT(issued(st, 4), issued(st, 3) + 3 + 10);  // far more than the add's own latency
}

// docs/systolic.md §2: a store to scratch DRAM followed by a load of the same addresses gets the stored
// data (the DMA engine sends commands' requests in order, and DRAM serves them in order).
TEST_P(SystolicTiming, ALoadAfterAStoreOfTheSameDramGetsTheStoredData) {
  const std::string hw = GetParam();
  const size_t x = 0, scratch = 16 * 1024, y = 32 * 1024;  // each one S_LI word
  std::vector<uint8_t> dram(1 << 20);
  for (size_t i = 0; i < 4096; ++i) dram[x + i] = static_cast<uint8_t>(i * 7 + 1);
  auto r = run(fmt::format(R"(
    S_LI r3, ROW_BYTES
    S_LI r4, {}
    S_LI r5, {}
    S_LI r6, 64
    H_LOAD_V r0, r0, r3, 32       ; rows 0..31 from x
    H_STORE_V r0, r4, r3, 32      ; to scratch (zeros until then)
    H_LOAD_V r6, r4, r3, 32       ; straight back from scratch into rows 64..95
    H_STORE_V r6, r5, r3, 32      ; and out to y
    C_HALT)",
                           scratch, y),
               hw, dram);
  const size_t bytes = 32 * 2 * testing::platform().params(hw).vlen;
  for (size_t i = 0; i < bytes; i += 2) {
    ASSERT_EQ(dram_half(r.dram, y + i), dram_half(dram, x + i)) << "byte " << i;
  }
  // The load did not wait for the store to complete: it only follows its requests.
  EXPECT_LT(op(r, 6).started, op(r, 5).finished);
}

// docs/systolic.md §10: a zero row and a -inf row side by side, read back VLEN times at a stride of one
// element, give row i = VLEN - i zeros then -inf: the causal mask of query VLEN-1-i, not of query i.
TEST_P(SystolicTiming, TheCausalMaskRowsComeOutInReverseQueryOrder) {
  const std::string hw = GetParam();
  const unsigned vlen = testing::platform().params(hw).vlen;
  const size_t tmp = 64 * 1024, out = 128 * 1024;
  auto r = run(fmt::format(R"(
    S_LI_FP f1, -inf
    S_LI r5, VLEN
    V_BCAST_F r5, f0, 0           ; row VLEN: zeros
    V_BCAST_F r5, f1, 1           ; row VLEN+1: -inf
    S_LI r1, {}
    S_LI r3, ROW_BYTES
    H_STORE_V r5, r1, r3, 2       ; [0 x VLEN, -inf x VLEN] at tmp
    S_LI r2, 2
    H_LOAD_V r0, r1, r2, VLEN     ; row i = elements i .. i+VLEN-1
    S_LI r4, {}
    H_STORE_V r0, r4, r3, VLEN
    C_HALT)",
                           tmp, out),
               hw);
  const uint16_t minus_inf = 0xFF80;
  for (unsigned i = 0; i < vlen; ++i) {
    // The documented rule: query q's mask (0 for keys <= q, -inf after) is row VLEN-1-q.
    const unsigned q = vlen - 1 - i;
    for (unsigned j = 0; j < vlen; ++j) {
      EXPECT_EQ(dram_half(r.dram, out + (i * vlen + j) * 2), j <= q ? 0 : minus_inf)
          << "row " << i << " lane " << j;
    }
  }
  // Row 0 is all zeros (query VLEN-1's mask), not query 0's [0, -inf, ...].
  EXPECT_EQ(dram_half(r.dram, out + 2), 0) << "row 0 is query 0's mask";
}

TEST_P(SystolicTiming, VectorInstructionsIssueEveryCycle) {
  const std::string hw = GetParam();
  auto r = run(
      "S_LI r1, 10\nV_ADD_VV r1, r0, r0\nV_EXP_V r1, r0, 1\nV_RED_SUM f1, r0, 2\nV_ADD_VV r1, r1, r1\nC_HALT",
      hw);
  EXPECT_EQ(issued(r, 2) - issued(r, 1), static_cast<uint64_t>(occupancy("V_ADD_VV", hw)));
  EXPECT_EQ(issued(r, 3) - issued(r, 2), static_cast<uint64_t>(occupancy("V_EXP_V", hw)));
  EXPECT_EQ(issued(r, 4) - issued(r, 1), 3u);  // the dependent add: latency 3
}

// ---------------------------------------------------------------- timelines against the counters
const std::vector<std::pair<const char*, const char*>>& timeline_counter_pairs() {
  static const std::vector<std::pair<const char*, const char*>> pairs = {
      {"vector unit", "vector_busy"},     {"special functions", "sfu_busy"}, {"matrix unit", "matrix_busy"},
      {"systolic array", "array_active"}, {"DMA engine", "dma_busy"},
  };
  return pairs;
}

uint64_t counter(const RunResult& r, const std::string& name) {
  for (unsigned i = 0; i < kNumCounters; ++i) {
    if (name == counter_name(i)) return r.counters[i];
  }
  ADD_FAILURE() << "no counter " << name;
  return 0;
}

// Structural check of the Chrome trace-event format (object form): what Perfetto and chrome://tracing
// need. Returns the sum of "X" durations (in cycles) per thread name and per stall cause.
struct TraceSums {
  std::map<std::string, uint64_t> per_thread;
  std::map<std::string, uint64_t> per_cause;
  uint64_t instructions = 0;
};

uint64_t cycles_of(const nlohmann::json& us) {
  // ts/dur are microseconds with one cycle shown as one nanosecond: exact thousandths.
  const double v = us.get<double>() * 1000.0;
  const auto c = static_cast<uint64_t>(v + 0.5);
  EXPECT_NEAR(v, static_cast<double>(c), 1e-6);
  return c;
}

TraceSums validate_chrome_trace(const std::string& text) {
  TraceSums sums;
  const auto j = nlohmann::json::parse(text);  // throws on malformed JSON
  EXPECT_TRUE(j.is_object());
  EXPECT_TRUE(j.contains("traceEvents") && j["traceEvents"].is_array());
  std::map<int, std::string> thread_names;
  std::map<int, uint64_t> last_ts;  // per tid: X events in time order, not overlapping
  std::map<std::pair<std::string, int64_t>, int> open_async;
  bool process_named = false;
  for (const auto& e : j["traceEvents"]) {
    for (const char* key : {"name", "ph", "ts", "pid", "tid"})
      EXPECT_TRUE(e.contains(key)) << "event without " << key << ": " << e.dump();
    const std::string ph = e["ph"];
    EXPECT_TRUE(e["ts"].is_number()) << e.dump();
    if (ph == "M") {
      if (e["name"] == "process_name") process_named = true;
      if (e["name"] == "thread_name") thread_names[e["tid"].get<int>()] = e["args"]["name"];
    } else if (ph == "X") {
      EXPECT_TRUE(e.contains("dur")) << e.dump();
      if (!e.contains("dur")) continue;
      const int tid = e["tid"];
      const uint64_t ts = cycles_of(e["ts"]), dur = cycles_of(e["dur"]);
      EXPECT_GT(dur, 0u) << e.dump();
      EXPECT_GE(ts, last_ts[tid]) << "overlapping or unordered slices on tid " << tid << ": " << e.dump();
      last_ts[tid] = ts + dur;
      EXPECT_TRUE(thread_names.count(tid)) << "slice on an unnamed track: " << e.dump();
      if (e.value("cat", "") == "stall") {
        sums.per_cause[e["args"]["cause"]] += dur;
      } else if (e.value("cat", "") == "instruction") {
        ++sums.instructions;
      } else {
        sums.per_thread[thread_names[tid]] += dur;
      }
    } else if (ph == "b" || ph == "e") {
      EXPECT_TRUE(e.contains("id") && e.contains("cat")) << e.dump();
      const auto key = std::make_pair(e["cat"].get<std::string>(), e["id"].get<int64_t>());
      open_async[key] += ph == "b" ? 1 : -1;
      EXPECT_GE(open_async[key], 0) << "async end before begin: " << e.dump();
    } else if (ph == "C") {
      EXPECT_TRUE(e.contains("args") && e["args"].is_object()) << e.dump();
    } else {
      ADD_FAILURE() << "unexpected phase " << ph;
    }
  }
  EXPECT_TRUE(process_named);
  for (const auto& [key, depth] : open_async)
    EXPECT_EQ(depth, 0) << "unbalanced async " << key.first << key.second;
  return sums;
}

TEST_P(SystolicTiming, TimelineTotalsEqualTheCountersAndTheJsonIsATrace) {
  const std::string hw = GetParam();
  // Every unit busy, every stall cause, loops, stores.
  auto r = run(R"(
    S_LI r3, ROW_BYTES
    S_LI r4, 0x8000
    S_LI r6, 64
    S_LI r7, 100
    H_LOAD_V r0, r0, r3, 64
    H_LOAD_M r0, r0, r3, MLEN
    V_ADD_VV r7, r0, r0
    V_RED_SUM f1, r0, 1
    S_ADD_FP f2, f1, f1
    S_EXP_FP f3, f2
    S_RECI_FP f5, f2
    S_ADD_FP f4, f3, f3
    C_LOOPI 8, body
    V_MUL_VV r7, r0, r0, 1
    M_LDW r0
    M_MM r0, r0
    M_MMA r0, r0
    M_WO r6, r0
  body:
    H_STORE_V r6, r4, r3, 8
    C_FENCE
    H_STORE_V r7, r4, r3, 2
    C_HALT
  )",
               hw);
  const tb::Timeline& t = *r.timeline;
  EXPECT_EQ(t.cycles, r.cycles);
  // The recorder's totals ...
  for (const auto& [name, value] : t.totals) {
    if (name == "dma_slots" || name == "dma_all_slots_taken") continue;
    EXPECT_EQ(value, counter(r, name)) << name;
  }
  // ... and the JSON's: slice durations per track, stall durations per cause, DMA bytes.
  std::ostringstream json;
  t.write_chrome_json(json);
  TraceSums sums = validate_chrome_trace(json.str());
  for (const auto& [track, name] : timeline_counter_pairs()) {
    EXPECT_EQ(sums.per_thread[track], counter(r, name)) << track;
    EXPECT_GT(sums.per_thread[track], 0u) << track;
  }
  for (const auto& cause : sy::machine::kStallCauses) {
    if (cause.counter < 0) continue;
    const std::string counter_n = sy::machine::kCounters[static_cast<size_t>(cause.counter)].name;
    EXPECT_EQ(sums.per_cause[cause.name], counter(r, counter_n)) << cause.name;
  }
  EXPECT_EQ(sums.instructions, counter(r, "instructions"));
  uint64_t read = 0, written = 0;
  for (const auto& o : t.ops) {
    if (o.unit != "dma") continue;
    (o.name.rfind("H_STORE_V", 0) == 0 ? written : read) += o.bytes;
  }
  EXPECT_EQ(read, counter(r, "dram_bytes_read"));
  EXPECT_EQ(written, counter(r, "dram_bytes_written"));
  EXPECT_NE(t.summary().find("longest stalls"), std::string::npos) << t.summary();
}

INSTANTIATE_TEST_SUITE_P(Configs, SystolicTiming, ::testing::ValuesIn(hw_configs()),
                         [](const auto& param_info) { return param_info.param; });

// ---------------------------------------------------------------- the documentation
// Every hardware symbol the assembler predefines has a row in the ISA reference's parameter table.
TEST(SystolicTimingDocs, EveryPredefinedHardwareSymbolIsInTheParameterTable) {
  std::set<std::string> documented;
  for (const auto& prm : sy::spec().parameters) documented.insert(prm.name);
  for (const auto& c : testing::platform().hw_configs()) {
    for (const auto& [name, value] : testing::platform().symbols(c.name)) {
      EXPECT_TRUE(documented.count(name)) << name << " is predefined but not in isa/systolic.yaml parameters";
    }
  }
}

// The worked timelines of docs/systolic.md: blocks fenced ```timeline list `cycle  instruction  note`;
// the instructions, run on the default configuration, issue at exactly those cycles.
TEST(SystolicTimingDocs, WorkedTimelinesInTheGuideAreWhatTheRtlDoes) {
  const std::vector<kcraft::test::GuideTimeline> blocks =
      kcraft::test::guide_timelines(root() / "docs" / "systolic.md");
  ASSERT_GE(blocks.size(), 4u) << "docs/systolic.md lost its worked timelines";
  for (const auto& block : blocks) {
    std::string source;
    for (const auto& [cycle, insn] : block) source += insn + "\n";
    SCOPED_TRACE(source);
    auto r = run(source + "C_HALT", "default");
    // Each listed line is an instruction word at consecutive pcs (the blocks use no pseudo-instruction
    // that expands to two words, and no loops).
    for (size_t i = 0; i < block.size(); ++i) {
      EXPECT_EQ(issued(r, static_cast<uint32_t>(i)), block[i].first) << block[i].second;
    }
  }
}

}  // namespace
}  // namespace kcraft::systolic
