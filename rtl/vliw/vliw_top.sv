// Top level of the vliw tile: core (with its vector unit and exposed pipeline), IMEM, banked DM, DMA.
//
// The host (the testbench) talks to it through every kcraft top's host interface (rtl/common/kc_host_if.sv,
// addresses in kc_host_pkg and the generated vliw_pkg, rtl/vliw/vliw_host_regs.yaml):
//   - ctl_*: synchronous writes to load instructions, set the DRAM size, clear the memories and start;
//   - dbg_*: a combinational back-door read of status, counters, registers, locks, DM rows and IMEM words,
//     for hang reports and for comparing the final state with the functional model;
//   - mem_*: the DMA's DRAM requests (one row per request, at most one per cycle) and in-order responses.
// Flops reset to zero and CTL_CLEAR zeroes IMEM and DM, so every run starts from the state the functional
// model assumes. Like systolic's, the RTL stays within what yosys 0.23 reads (package-qualified
// constants, functions that assign their name, flat vectors across module boundaries).
module vliw_top #(
  parameter int unsigned VLEN = 16,
  parameter int unsigned IMEM_WORDS = 4096,
  parameter int unsigned DM_BYTES = 65536,
  parameter int unsigned DM_BANKS = 8,
  parameter int unsigned LOOP_DEPTH = 4,
  parameter int unsigned DMA_CHANNELS = 4,
  parameter int unsigned DMA_QUEUE = 4,
  parameter int unsigned DMA_OUTSTANDING = 64,
  parameter int unsigned ROW_BITS = 16 * VLEN,
  parameter int unsigned DBG_BITS = 32 * VLEN
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
  // times the response), so there is no ready input, which a simulator would evaluate at every evaluation
  output logic                 mem_req_valid_o,
  output logic                 mem_req_write_o,
  output logic [31:0]          mem_req_addr_o,
  output logic [ROW_BITS-1:0]  mem_req_wdata_o,
  output logic [31:0]          mem_req_tag_o,
  input  logic                 mem_rsp_valid_i,
  input  logic [ROW_BITS-1:0]  mem_rsp_rdata_i,
  // status and bundle trace
  output logic                 running_o,
  output logic                 halted_o,     // the run is over (C_HALT or an error, drained)
  output logic                 clearing_o,
  output logic                 retire_o,     // a bundle issues this cycle
  output logic [31:0]          retire_pc_o,  // its first word's index
  output logic [31:0]          retire_insn_o,
  output logic [2:0]           stall_o       // vliw_isa_pkg STALL_* of this cycle
);
  localparam int unsigned IM_AW = $clog2(IMEM_WORDS);
  localparam int unsigned ROWS = DM_BYTES / (2 * VLEN);
  localparam int unsigned RAW = $clog2(ROWS);
  localparam int unsigned RPB = ROWS / DM_BANKS;
  localparam int unsigned RPB_W = (RPB > 1) ? $clog2(RPB) : 1;
  localparam int unsigned MAX_ROWS = (IMEM_WORDS > RPB) ? IMEM_WORDS : RPB;

  // ---------------------------------------------------------------- host interface
  logic               start, unused_clear, clearing, draining, halted, issue;
  logic [32:0]        dram_bytes;
  logic [31:0]        clear_idx;
  logic               imem_we;
  logic [IM_AW-1:0]   imem_waddr;
  logic [31:0]        imem_wdata, st_pc;
  logic [63:0]        status_word;
  logic [DBG_BITS-1:0] dbg_rdata;
  logic               mem_rsp_valid;
  logic [ROW_BITS-1:0] mem_rsp_rdata;
  logic               running, stopped;
  logic [3:0]         err_code;
  logic [31:0]        err_pc, pc, issue_word;
  logic [63:0]        err_lo, err_hi, dbg_counter;
  kc_host_if #(
    .IMEM_WORDS(IMEM_WORDS), .CLEAR_ROWS(MAX_ROWS), .ERR_BITS(4), .ROW_BITS(ROW_BITS), .DBG_BITS(DBG_BITS),
    .RSP_REG(1'b1)  // the driver presents each response a cycle early (kDramResponseLead)
  ) u_host (
    .clk_i,
    .rst_ni,
    .ctl_we_i,
    .ctl_addr_i,
    .ctl_wdata_i,
    .start_o        (start),
    .clear_o        (unused_clear),  // the clear sweep is all the tile needs
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
    .pc_i           (st_pc),
    .status_i       (status_word),
    .counter_i      (dbg_counter),
    .dbg_rdata_i    (dbg_rdata),
    .mem_rsp_valid_i,
    .mem_rsp_rdata_i,
    .rsp_valid_o    (mem_rsp_valid),
    .rsp_rdata_o    (mem_rsp_rdata),
    .running_i      (running),
    .stopped_i      (stopped),
    .retire_i       (issue),
    .retire_pc_i    (pc),
    .retire_insn_i  (issue_word),
    .running_o,
    .halted_o,
    .clearing_o     (clearing),
    .retire_o,
    .retire_pc_o,
    .retire_insn_o
  );
  assign clearing_o = clearing;

  // ---------------------------------------------------------------- IMEM
  logic [5*IM_AW-1:0] imem_raddr;
  logic [5*32-1:0]    imem_rdata;
  logic [31:0]        imem_dbg;
  kc_sram #(.WIDTH(32), .DEPTH(IMEM_WORDS), .NR(5), .NW(1)) u_imem (
    .clk_i,
    .re_i       (5'b11111),
    .raddr_i    (imem_raddr),
    .rdata_o    (imem_rdata),
    .we_i       (imem_we),
    .waddr_i    (imem_waddr),
    .wdata_i    (imem_wdata),
    .dbg_en_i,
    .dbg_addr_i (IM_AW'(dbg_addr_i)),
    .dbg_rdata_o(imem_dbg)
  );

  // ---------------------------------------------------------------- DM
  logic [2*RAW-1:0]      c_row;
  logic [2*ROW_BITS-1:0] c_rdata, c_wdata;
  logic [1:0]            c_we;
  logic [4*VLEN-1:0]     c_be;
  logic [RAW-1:0]        d_rrow, d_wrow;
  logic [ROW_BITS-1:0]   d_rdata, d_wdata, dm_dbg;
  logic                  d_we;
  vliw_dm #(.VLEN(VLEN), .DM_BYTES(DM_BYTES), .DM_BANKS(DM_BANKS)) u_dm (
    .clk_i,
    .c_row_i     (c_row),
    .c_rdata_o   (c_rdata),
    .c_we_i      (c_we),
    .c_wdata_i   (c_wdata),
    .c_be_i      (c_be),
    .d_rrow_i    (d_rrow),
    .d_rdata_o   (d_rdata),
    .d_we_i      (d_we),
    .d_wrow_i    (d_wrow),
    .d_wdata_i   (d_wdata),
    .clear_i     (clearing && clear_idx < RPB),
    .clear_idx_i (RPB_W'(clear_idx)),
    .dbg_en_i,
    .dbg_row_i   (RAW'(dbg_addr_i)),
    .dbg_rdata_o (dm_dbg)
  );

  // ---------------------------------------------------------------- DMA
  logic                    dma_push, dma_store, dma_busy, dma_rel, dma_load_launch, dma_store_done;
  logic [1:0]              dma_ch;
  logic [RAW-1:0]          dma_row;
  logic [31:0]             dma_dram, dma_stride, dma_rows, dma_pc, dma_rel_pc, dma_in_flight;
  logic [4:0]              dma_lock;
  logic [3:0]              dma_rel_lock;
  logic [DMA_CHANNELS-1:0] dma_full, dma_ch_busy;
  vliw_dma #(
    .VLEN(VLEN), .RAW(RAW), .CHANNELS(DMA_CHANNELS), .QUEUE(DMA_QUEUE), .OUTSTANDING(DMA_OUTSTANDING)
  ) u_dma (
    .clk_i,
    .rst_ni,
    .push_i         (dma_push),
    .push_ch_i      (dma_ch),
    .push_store_i   (dma_store),
    .push_row_i     (dma_row),
    .push_dram_i    (dma_dram),
    .push_stride_i  (dma_stride),
    .push_rows_i    (dma_rows),
    .push_lock_i    (dma_lock),
    .push_pc_i      (dma_pc),
    .full_o         (dma_full),
    .busy_o         (dma_busy),
    .ch_busy_o      (dma_ch_busy),
    .in_flight_o    (dma_in_flight),
    .rel_o          (dma_rel),
    .rel_lock_o     (dma_rel_lock),
    .rel_pc_o       (dma_rel_pc),
    .load_launch_o  (dma_load_launch),
    .store_done_o   (dma_store_done),
    .mem_req_valid_o,
    .mem_req_ready_i(1'b1),  // DRAM accepts every request (see the port list)
    .mem_req_write_o,
    .mem_req_addr_o,
    .mem_req_wdata_o,
    .mem_req_tag_o,
    .mem_rsp_valid_i(mem_rsp_valid),
    .mem_rsp_rdata_i(mem_rsp_rdata),
    .dm_rrow_o      (d_rrow),
    .dm_rdata_i     (d_rdata),
    .dm_we_o        (d_we),
    .dm_wrow_o      (d_wrow),
    .dm_wdata_o     (d_wdata)
  );

  // ---------------------------------------------------------------- core
  logic [31:0]       state_pc, loop_sp, dbg_xreg, dbg_preg;
  logic [2:0]        stall;
  logic [7:0]        dbg_lock;
  logic [VLEN*16-1:0] dbg_vreg;
  logic [VLEN*32-1:0] dbg_areg;
  vliw_core #(
    .VLEN(VLEN), .IMEM_WORDS(IMEM_WORDS), .DM_BYTES(DM_BYTES), .DM_BANKS(DM_BANKS), .LOOP_DEPTH(LOOP_DEPTH),
    .DMA_CHANNELS(DMA_CHANNELS)
  ) u_core (
    .clk_i,
    .rst_ni,
    .start_i           (start),
    .dram_bytes_i      (dram_bytes),
    .imem_raddr_o      (imem_raddr),
    .imem_rdata_i      (imem_rdata),
    .dm_row_o          (c_row),
    .dm_rdata_i        (c_rdata),
    .dm_we_o           (c_we),
    .dm_wdata_o        (c_wdata),
    .dm_be_o           (c_be),
    .dma_push_o        (dma_push),
    .dma_ch_o          (dma_ch),
    .dma_store_o       (dma_store),
    .dma_row_o         (dma_row),
    .dma_dram_o        (dma_dram),
    .dma_stride_o      (dma_stride),
    .dma_rows_o        (dma_rows),
    .dma_lock_o        (dma_lock),
    .dma_pc_o          (dma_pc),
    .dma_full_i        (dma_full),
    .dma_busy_i        (dma_busy),
    .dma_rel_i         (dma_rel),
    .dma_rel_lock_i    (dma_rel_lock),
    .dma_rel_pc_i      (dma_rel_pc),
    .dma_load_launch_i (dma_load_launch),
    .dma_store_done_i  (dma_store_done),
    .running_o         (running),
    .stopped_o         (stopped),
    .halted_o          (halted),
    .draining_o        (draining),
    .err_code_o        (err_code),
    .err_pc_o          (err_pc),
    .err_lo_o          (err_lo),
    .err_hi_o          (err_hi),
    .pc_o              (pc),
    .state_pc_o        (state_pc),
    .stall_o           (stall),
    .loop_sp_o         (loop_sp),
    .issue_o           (issue),
    .issue_word_o      (issue_word),
    .dbg_en_i,
    .dbg_addr_i,
    .dbg_xreg_o        (dbg_xreg),
    .dbg_preg_o        (dbg_preg),
    .dbg_lock_o        (dbg_lock),
    .dbg_vreg_o        (dbg_vreg),
    .dbg_areg_o        (dbg_areg),
    .dbg_counter_o     (dbg_counter)
  );

  // ---------------------------------------------------------------- back door: the tile's own words
  assign st_pc = stopped ? state_pc : pc;  // halted: the halting bundle
  always_comb begin
    status_word = '0;
    if (dbg_en_i) case (dbg_addr_i)
      vliw_pkg::ST_STALL: status_word = 64'(stall);
      vliw_pkg::ST_LOOP_DEPTH: status_word = 64'(loop_sp);
      vliw_pkg::ST_DMA_BUSY: status_word = 64'(dma_ch_busy);
      vliw_pkg::ST_DMA_IN_FLIGHT: status_word = 64'(dma_in_flight);
      vliw_pkg::ST_HALT_STATE: begin
        status_word[vliw_pkg::HALT_BY_INSTRUCTION] = halted;
        status_word[vliw_pkg::HALT_DRAINING] = draining;
        status_word[vliw_pkg::HALT_STOPPED] = stopped;
      end
      vliw_pkg::ST_PARAM_VLEN: status_word = 64'(VLEN);
      vliw_pkg::ST_PARAM_IMEM: status_word = 64'(IMEM_WORDS);
      vliw_pkg::ST_PARAM_DM: status_word = 64'(DM_BYTES);
      vliw_pkg::ST_PARAM_BANKS: status_word = 64'(DM_BANKS);
      vliw_pkg::ST_PARAM_LOOP: status_word = 64'(LOOP_DEPTH);
      vliw_pkg::ST_PARAM_CHANNELS: status_word = 64'(DMA_CHANNELS);
      vliw_pkg::ST_PARAM_QUEUE: status_word = 64'(DMA_QUEUE);
      vliw_pkg::ST_PARAM_OUTSTANDING: status_word = 64'(DMA_OUTSTANDING);
      default: status_word = '0;
    endcase
  end

  always_comb begin
    dbg_rdata = '0;
    if (dbg_en_i) case (dbg_sel_i)
      vliw_pkg::DBG_XREG: dbg_rdata = DBG_BITS'(dbg_xreg);
      vliw_pkg::DBG_PREG: dbg_rdata = DBG_BITS'(dbg_preg);
      vliw_pkg::DBG_VREG: dbg_rdata = DBG_BITS'(dbg_vreg);
      vliw_pkg::DBG_AREG: dbg_rdata = DBG_BITS'(dbg_areg);
      vliw_pkg::DBG_DM: dbg_rdata = DBG_BITS'(dm_dbg);
      vliw_pkg::DBG_IMEM: dbg_rdata = DBG_BITS'(imem_dbg);
      vliw_pkg::DBG_LOCK: dbg_rdata = DBG_BITS'(dbg_lock);
      default: dbg_rdata = '0;
    endcase
  end

  assign stall_o = stall;
endmodule
