// Top level of myaccel: the core, its IMEM, and every kcraft top's host interface (rtl/common/kc_host_if.sv,
// docs/platforms.md §6; addresses in kc_host_pkg and the generated myaccel_pkg, rtl/myaccel/myaccel_host_regs.yaml):
//   - ctl_*: synchronous writes to load instructions, set the DRAM size, clear the memories and start;
//   - dbg_*: a combinational back-door read of status, counters, registers and IMEM words, for hang reports
//     and for comparing the final state with the functional model;
//   - mem_*: the core's DRAM requests (one row of LANES FP32 words each, one in flight) and responses.
// Flops reset to zero and CTL_CLEAR zeroes IMEM, so every run starts from the state the functional model
// assumes.
module myaccel_top #(
  parameter int unsigned LANES = 8,
  parameter int unsigned IMEM_WORDS = 1024,
  parameter int unsigned ROW_BITS = 32 * LANES,
  parameter int unsigned DBG_BITS = ROW_BITS > 64 ? ROW_BITS : 64
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // host control writes
  input  logic                 ctl_we_i,
  input  logic [31:0]          ctl_addr_i,
  input  logic [31:0]          ctl_wdata_i,
  // back-door reads
  input  logic                 dbg_en_i,
  input  logic [3:0]           dbg_sel_i,
  input  logic [31:0]          dbg_addr_i,
  output logic [DBG_BITS-1:0]  dbg_rdata_o,
  // DRAM port: a request is accepted in the cycle it is offered (the testbench's DRAM model queues it and
  // times the response), so there is no ready input
  output logic                 mem_req_valid_o,
  output logic                 mem_req_write_o,
  output logic [31:0]          mem_req_addr_o,
  output logic [ROW_BITS-1:0]  mem_req_wdata_o,
  output logic [31:0]          mem_req_tag_o,
  input  logic                 mem_rsp_valid_i,
  input  logic [ROW_BITS-1:0]  mem_rsp_rdata_i,
  // status and issue trace
  output logic                 running_o,
  output logic                 halted_o,     // the run is over (HALT or an error)
  output logic                 clearing_o,
  output logic                 retire_o,     // an instruction issues this cycle
  output logic [31:0]          retire_pc_o,
  output logic [31:0]          retire_insn_o,
  output logic                 stall_o       // myaccel_isa_pkg STALL_* of this cycle
);
  localparam int unsigned IM_AW = $clog2(IMEM_WORDS);

  // ---------------------------------------------------------------- host interface
  logic                start, unused_clear, running, stopped, halted, retire, mem_rsp_valid;
  logic [32:0]         dram_bytes;
  logic [31:0]         clear_idx, pc, retire_insn, err_pc;
  logic                imem_we;
  logic [IM_AW-1:0]    imem_waddr, imem_raddr;
  logic [31:0]         imem_wdata, imem_rdata, imem_dbg;
  logic [1:0]          err_code;
  logic [63:0]         err_lo, err_hi, status_word, dbg_counter;
  logic [DBG_BITS-1:0] dbg_rdata;
  logic [ROW_BITS-1:0] mem_rsp_rdata;
  kc_host_if #(
    .IMEM_WORDS(IMEM_WORDS), .CLEAR_ROWS(IMEM_WORDS), .ERR_BITS(2), .ROW_BITS(ROW_BITS), .DBG_BITS(DBG_BITS)
  ) u_host (
    .clk_i,
    .rst_ni,
    .ctl_we_i,
    .ctl_addr_i,
    .ctl_wdata_i,
    .start_o        (start),
    .clear_o        (unused_clear),  // IMEM, the only memory, follows the clear sweep
    .dram_bytes_o   (dram_bytes),
    .clear_idx_o    (clear_idx),
    .imem_we_o      (imem_we),
    .imem_waddr_o   (imem_waddr),
    .imem_wdata_o   (imem_wdata),
    .dbg_en_i,
    .dbg_sel_i,
    .dbg_addr_i,
    .dbg_rdata_o,
    .err_code_i     (err_code),
    .err_pc_i       (err_pc),
    .err_lo_i       (err_lo),
    .err_hi_i       (err_hi),
    .pc_i           (pc),
    .status_i       (status_word),
    .counter_i      (dbg_counter),
    .dbg_rdata_i    (dbg_rdata),
    .mem_rsp_valid_i,
    .mem_rsp_rdata_i,
    .rsp_valid_o    (mem_rsp_valid),
    .rsp_rdata_o    (mem_rsp_rdata),
    .running_i      (running),
    .stopped_i      (stopped),
    .retire_i       (retire),
    .retire_pc_i    (pc),
    .retire_insn_i  (retire_insn),
    .running_o,
    .halted_o,
    .clearing_o,
    .retire_o,
    .retire_pc_o,
    .retire_insn_o
  );
  wire unused_clear_idx = ^clear_idx;  // the sweep reaches IMEM through the host interface's write port

  // ---------------------------------------------------------------- IMEM
  kc_sram #(.WIDTH(32), .DEPTH(IMEM_WORDS), .NR(1), .NW(1)) u_imem (
    .clk_i,
    .re_i       (1'b1),
    .raddr_i    (imem_raddr),
    .rdata_o    (imem_rdata),
    .we_i       (imem_we),
    .waddr_i    (imem_waddr),
    .wdata_i    (imem_wdata),
    .dbg_en_i,
    .dbg_addr_i (IM_AW'(dbg_addr_i)),
    .dbg_rdata_o(imem_dbg)
  );

  // ---------------------------------------------------------------- core
  logic                stall;
  logic [31:0]         dbg_xreg;
  logic [ROW_BITS-1:0] dbg_vreg;
  myaccel_core #(.LANES(LANES), .IMEM_WORDS(IMEM_WORDS)) u_core (
    .clk_i,
    .rst_ni,
    .start_i        (start),
    .dram_bytes_i   (dram_bytes),
    .imem_raddr_o   (imem_raddr),
    .imem_rdata_i   (imem_rdata),
    .mem_req_valid_o,
    .mem_req_write_o,
    .mem_req_addr_o,
    .mem_req_wdata_o,
    .mem_req_tag_o,
    .mem_rsp_valid_i(mem_rsp_valid),
    .mem_rsp_rdata_i(mem_rsp_rdata),
    .running_o      (running),
    .stopped_o      (stopped),
    .halted_o       (halted),
    .err_code_o     (err_code),
    .err_pc_o       (err_pc),
    .err_lo_o       (err_lo),
    .err_hi_o       (err_hi),
    .pc_o           (pc),
    .stall_o        (stall),
    .retire_o       (retire),
    .retire_insn_o  (retire_insn),
    .dbg_en_i,
    .dbg_addr_i,
    .dbg_xreg_o     (dbg_xreg),
    .dbg_vreg_o     (dbg_vreg),
    .dbg_counter_o  (dbg_counter)
  );

  // ---------------------------------------------------------------- back door: the top's own words
  always_comb begin
    status_word = '0;
    if (dbg_en_i) case (dbg_addr_i)
      myaccel_pkg::ST_HALTED: status_word = 64'(halted);
      myaccel_pkg::ST_STALL: status_word = 64'(stall);
      myaccel_pkg::ST_PARAM_LANES: status_word = 64'(LANES);
      myaccel_pkg::ST_PARAM_IMEM: status_word = 64'(IMEM_WORDS);
      default: status_word = '0;
    endcase
  end

  always_comb begin
    dbg_rdata = '0;
    if (dbg_en_i) case (dbg_sel_i)
      myaccel_pkg::DBG_XREG: dbg_rdata = DBG_BITS'(dbg_xreg);
      myaccel_pkg::DBG_VREG: dbg_rdata = DBG_BITS'(dbg_vreg);
      myaccel_pkg::DBG_IMEM: dbg_rdata = DBG_BITS'(imem_dbg);
      default: dbg_rdata = '0;
    endcase
  end

  assign stall_o = stall;
endmodule
