// Drives a Verilated rvv_vpu through a vpu_program.h Program: the testbench plays the scalar core (issue
// port with the scalar operands, vl and vtype, results and flags into the results area, by the pc the unit
// names) and the memory system (an in-order DRAM with random latency and back-pressure on the request
// port).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/rvv_vpu/vpu_program.h"
#include "verilated.h"

namespace kcraft::rvv_vpu_test {

// The kernel's instruction words that the vector unit executes, in program order, from objdump's
// listing of the linked program.
inline std::vector<uint32_t> kernel_vector_words(const std::string& disassembly) {
  std::vector<uint32_t> words;
  std::istringstream in(disassembly);
  std::string line;
  bool inside = false;
  const std::regex insn_line(R"(^\s*[0-9a-f]+:\s+([0-9a-f]{8})\s)");
  while (std::getline(in, line)) {
    if (line.find("<kernel>:") != std::string::npos) {
      inside = true;
      continue;
    }
    if (!inside) continue;
    if (line.find(">:") != std::string::npos) break;
    std::smatch m;
    if (std::regex_search(line, m, insn_line)) {
      const uint32_t w = static_cast<uint32_t>(std::stoul(m[1].str(), nullptr, 16));
      if (is_vector_unit_insn(w)) words.push_back(w);
    }
  }
  return words;
}

struct SimResult {
  std::vector<uint8_t> dram;
  bool illegal = false;  // the unit refused an instruction
  size_t illegal_step = 0;
  bool error = false;  // the unit stopped with error_o
  uint32_t error_code = 0, error_pc = 0, error_addr = 0;
  uint64_t cycles = 0;  // from the first issue until the unit is idle
  uint64_t busy_cycles = 0;
};

struct SimOptions {
  uint64_t seed = 1;
  int max_latency = 4;     // response latency 1..max_latency cycles
  int ready_percent = 80;  // request port ready
  uint64_t max_cycles = 20000000;
};

template <class Model, int kRowBytes>
class VpuSim {
 public:
  VpuSim() : ctx_(std::make_unique<VerilatedContext>()), m_(std::make_unique<Model>(ctx_.get())) {}

  // The vector unit's register file, as the back door reads it.
  std::vector<uint8_t> vreg(int r, int vlenb) {
    m_->dbg_en_i = 1;
    m_->dbg_vreg_i = static_cast<uint8_t>(r);
    m_->eval();
    std::vector<uint8_t> bytes(static_cast<size_t>(vlenb));
    for (int k = 0; k < vlenb; k++) bytes[k] = static_cast<uint8_t>(m_->dbg_vreg_o[k / 4] >> (8 * (k % 4)));
    m_->dbg_en_i = 0;  // the back door is gated off while the unit runs
    return bytes;
  }

  SimResult run(const Program& prog, const std::vector<uint32_t>& words, std::vector<uint8_t> dram,
                const SimOptions& opt = {}) {
    const auto& steps = prog.steps();
    if (words.size() != steps.size()) {
      throw std::runtime_error(
          fmt::format("{} vector instructions in the kernel, {} steps", words.size(), steps.size()));
    }
    std::mt19937_64 rng(opt.seed);
    SimResult res;
    reset();
    struct Pending {
      uint64_t due;
      bool error;
      std::vector<uint8_t> row;
    };
    std::deque<Pending> rsp;
    uint64_t last_due = 0;
    size_t next = 0;
    uint64_t cycle = 0;
    auto put32 = [&](uint32_t off, uint32_t v) {
      for (int b = 0; b < 4; b++) dram.at(off + b) = static_cast<uint8_t>(v >> (8 * b));
    };
    auto get32 = [&](uint32_t off) {
      uint32_t v = 0;
      for (int b = 0; b < 4; b++) v |= static_cast<uint32_t>(dram.at(off + b)) << (8 * b);
      return v;
    };
    while (true) {
      if (cycle > opt.max_cycles) throw std::runtime_error("vector unit hang (cycle cap)");
      m_->clk_i = 0;
      // Issue port
      const bool offering = next < steps.size();
      m_->issue_valid_i = offering;
      if (offering) {
        const Step& s = steps[next];
        m_->issue_insn_i = words[next];
        m_->issue_pc_i = static_cast<uint32_t>(next * 4);
        m_->issue_rs1_i = s.rs1;
        m_->issue_rs2_i = s.rs2;
        m_->issue_frs1_i = s.frs1;
        m_->issue_vl_i = s.vl;
        m_->issue_vtype_i = s.vtype;
        m_->issue_frm_i = s.frm;
      }
      // Memory responses, in order
      const bool rsp_now = !rsp.empty() && rsp.front().due <= cycle;
      m_->vmem_rsp_valid_i = rsp_now;
      m_->vmem_rsp_error_i = rsp_now && rsp.front().error;
      for (int k = 0; k < kRowBytes; k++) {
        const uint8_t b = rsp_now ? rsp.front().row[k] : 0;
        set_byte(m_->vmem_rsp_rdata_i, k, b);
      }
      const bool ready = static_cast<int>(rng() % 100) < opt.ready_percent;
      m_->vmem_req_ready_i = ready;
      m_->eval();

      if (m_->busy_o) res.busy_cycles++;
      // Results and flags name their instruction by its pc (step k at pc 4k), and come in program order.
      auto done_step = [&]() -> const Step& {
        const size_t k = m_->done_pc_o / 4;
        if (k >= next) throw std::runtime_error(fmt::format("a result of step {}, not yet issued", k));
        return steps[k];
      };
      if (m_->result_valid_o) {
        const Step& s = done_step();
        if (s.dumped) put32(kResultsOff + 8 * s.index, m_->result_data_o);
      }
      if (m_->fflags_valid_o) {
        const Step& s = done_step();
        if (s.dumped)
          put32(kResultsOff + 8 * s.index + 4, get32(kResultsOff + 8 * s.index + 4) | m_->fflags_o);
      }
      if (m_->error_o) {
        res.error = true;
        res.error_code = m_->error_code_o;
        res.error_pc = m_->error_pc_o;
        res.error_addr = m_->error_addr_o;
        break;
      }
      if (offering && m_->issue_illegal_o) {
        res.illegal = true;
        res.illegal_step = next;
        break;
      }
      const bool issued = offering && m_->issue_ready_o;
      if (m_->vmem_req_valid_o && ready) {
        const uint32_t addr = m_->vmem_req_addr_o;
        const uint32_t row = addr & ~static_cast<uint32_t>(kRowBytes - 1);
        Pending p;
        p.row.assign(kRowBytes, 0);
        // A row with any byte outside DRAM is an error response and changes nothing.
        p.error = false;
        for (int k = 0; k < kRowBytes; k++) {
          const uint32_t a = row + static_cast<uint32_t>(k);
          if (get_bit(m_->vmem_req_be_o, k) && (a < kDramBase || a - kDramBase >= dram.size()))
            p.error = true;
        }
        for (int k = 0; k < kRowBytes && !p.error; k++) {
          if (!get_bit(m_->vmem_req_be_o, k)) continue;
          const uint32_t a = row + static_cast<uint32_t>(k) - kDramBase;
          if (m_->vmem_req_write_o)
            dram[a] = get_byte(m_->vmem_req_wdata_o, k);
          else
            p.row[k] = dram[a];
        }
        const uint64_t lat = 1 + rng() % static_cast<uint64_t>(opt.max_latency);
        p.due = std::max(cycle + lat, last_due + 1);
        last_due = p.due;
        rsp.push_back(std::move(p));
      }
      if (rsp_now) rsp.pop_front();

      m_->clk_i = 1;
      m_->eval();
      cycle++;
      if (issued) next++;
      if (next == steps.size() && !m_->busy_o && rsp.empty()) {
        // The last instruction finished: settle one more cycle for its final outputs.
        m_->clk_i = 0;
        m_->eval();
        // (An error also leaves the unit idle: the loop's head records it.)
        if (m_->result_valid_o || m_->fflags_valid_o || m_->error_o) continue;
        break;
      }
    }
    res.cycles = cycle;
    res.dram = std::move(dram);
    return res;
  }

 private:
  void reset() {
    m_->clk_i = 0;
    m_->rst_ni = 0;
    m_->issue_valid_i = 0;
    m_->vmem_rsp_valid_i = 0;
    m_->vmem_req_ready_i = 0;
    m_->eval();
    m_->clk_i = 1;
    m_->eval();
    m_->clk_i = 0;
    m_->rst_ni = 1;
    m_->eval();
  }

  template <class T>
  static void set_byte(T& w, int k, uint8_t b) {
    auto& word = w[k / 4];
    word = (word & ~(0xffu << (8 * (k % 4)))) | (static_cast<uint32_t>(b) << (8 * (k % 4)));
  }
  template <class T>
  static uint8_t get_byte(const T& w, int k) {
    return static_cast<uint8_t>(w[k / 4] >> (8 * (k % 4)));
  }
  template <class T>
  static bool get_bit(const T& v, int k) {
    if constexpr (std::is_integral_v<T>) {
      return (static_cast<uint64_t>(v) >> k) & 1;
    } else {
      return (v[k / 32] >> (k % 32)) & 1;
    }
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> m_;
};

}  // namespace kcraft::rvv_vpu_test
