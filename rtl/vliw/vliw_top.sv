// Top level of the vliw tile: core (with its vector unit and exposed pipeline), IMEM, banked DM, DMA.
//
// The host (the testbench) talks to it through three ports, shaped like systolic_top's so the testbench
// code can be shared:
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
  localparam int unsigned CLR_W = $clog2(MAX_ROWS + 1);

  // ---------------------------------------------------------------- host control
  wire ctl_imem = ctl_we_i && ctl_addr_i[31:28] == vliw_pkg::CTL_SPACE_IMEM;
  wire ctl_reg = ctl_we_i && ctl_addr_i[31:28] == vliw_pkg::CTL_SPACE_REG;
  wire start = ctl_reg && ctl_addr_i[27:0] == vliw_pkg::CTL_START;
  wire clear_req = ctl_reg && ctl_addr_i[27:0] == vliw_pkg::CTL_CLEAR;

  logic [32:0]      dram_bytes_q;
  logic             clearing_q;
  logic [CLR_W-1:0] clear_idx_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dram_bytes_q <= '0;
      clearing_q <= 1'b0;
      clear_idx_q <= '0;
    end else begin
      if (ctl_reg && ctl_addr_i[27:0] == vliw_pkg::CTL_DRAM_BYTES) dram_bytes_q <= {1'b0, ctl_wdata_i};
      if (clear_req) begin
        clearing_q <= 1'b1;
        clear_idx_q <= '0;
      end else if (clearing_q) begin
        clear_idx_q <= clear_idx_q + 1'b1;
        if (32'(clear_idx_q) == MAX_ROWS - 1) clearing_q <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- IMEM
  logic [5*IM_AW-1:0] imem_raddr;
  logic [5*32-1:0]    imem_rdata;
  logic [31:0]        imem_dbg;
  wire                imem_we = ctl_imem || (clearing_q && 32'(clear_idx_q) < IMEM_WORDS);
  wire [IM_AW-1:0]    imem_waddr = clearing_q ? IM_AW'(clear_idx_q) : IM_AW'(ctl_addr_i);
  wire [31:0]         imem_wdata = clearing_q ? 32'h0 : ctl_wdata_i;
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
    .clear_i     (clearing_q && 32'(clear_idx_q) < RPB),
    .clear_idx_i (RPB_W'(clear_idx_q)),
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
  // ---------------------------------------------------------------- DRAM response register
  // No logic reads the response port combinationally: what the DMA does with a response starts from these
  // flops, and the driver presents each response a cycle before it is due (VliwHw::kDramResponseLead), so
  // the DMA sees it in the same cycle as before. (A simulator evaluates whatever a top-level input reaches
  // at every evaluation; here that was the DMA's response path and the DM's write port behind it.)
  logic                rsp_valid_q;
  logic [ROW_BITS-1:0] rsp_rdata_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rsp_valid_q <= 1'b0;
    else rsp_valid_q <= mem_rsp_valid_i;
  end
  always_ff @(posedge clk_i) begin
    if (mem_rsp_valid_i) rsp_rdata_q <= mem_rsp_rdata_i;
  end

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
    .mem_rsp_valid_i(rsp_valid_q),
    .mem_rsp_rdata_i(rsp_rdata_q),
    .dm_rrow_o      (d_rrow),
    .dm_rdata_i     (d_rdata),
    .dm_we_o        (d_we),
    .dm_wrow_o      (d_wrow),
    .dm_wdata_o     (d_wdata)
  );

  // ---------------------------------------------------------------- core
  logic              running, stopped, halted, draining, issue;
  logic [3:0]        err_code;
  logic [31:0]       err_pc, pc, state_pc, loop_sp, issue_word, dbg_xreg, dbg_preg;
  logic [63:0]       err_lo, err_hi, dbg_counter;
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
    .start_i           (start && !clearing_q),
    .dram_bytes_i      (dram_bytes_q),
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

  // ---------------------------------------------------------------- back-door reads
  logic [63:0] status_word;
  always_comb begin
    case (dbg_addr_i)
      vliw_pkg::ST_FLAGS:
        status_word = {60'h0, clearing_q, err_code != vliw_isa_pkg::ERR_NONE, stopped, running};
      vliw_pkg::ST_ERR_CODE: status_word = 64'(err_code);
      vliw_pkg::ST_ERR_PC: status_word = 64'(err_pc);
      vliw_pkg::ST_ERR_LO: status_word = err_lo;
      vliw_pkg::ST_ERR_HI: status_word = err_hi;
      vliw_pkg::ST_PC: status_word = stopped ? 64'(state_pc) : 64'(pc);
      vliw_pkg::ST_STALL: status_word = 64'(stall);
      vliw_pkg::ST_LOOP_DEPTH: status_word = 64'(loop_sp);
      vliw_pkg::ST_DMA_BUSY: status_word = 64'(dma_ch_busy);
      vliw_pkg::ST_DMA_IN_FLIGHT: status_word = 64'(dma_in_flight);
      vliw_pkg::ST_HALT_STATE: status_word = {61'h0, stopped, draining, halted};
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
    dbg_rdata_o = '0;
    if (dbg_en_i) begin
      case (dbg_sel_i)
        vliw_pkg::DBG_STATUS: dbg_rdata_o = DBG_BITS'(status_word);
        vliw_pkg::DBG_COUNTER: dbg_rdata_o = DBG_BITS'(dbg_counter);
        vliw_pkg::DBG_XREG: dbg_rdata_o = DBG_BITS'(dbg_xreg);
        vliw_pkg::DBG_PREG: dbg_rdata_o = DBG_BITS'(dbg_preg);
        vliw_pkg::DBG_VREG: dbg_rdata_o = DBG_BITS'(dbg_vreg);
        vliw_pkg::DBG_AREG: dbg_rdata_o = DBG_BITS'(dbg_areg);
        vliw_pkg::DBG_DM: dbg_rdata_o = DBG_BITS'(dm_dbg);
        vliw_pkg::DBG_IMEM: dbg_rdata_o = DBG_BITS'(imem_dbg);
        vliw_pkg::DBG_LOCK: dbg_rdata_o = DBG_BITS'(dbg_lock);
        default: dbg_rdata_o = '0;
      endcase
    end
  end

  assign running_o = running;
  assign halted_o = stopped;
  assign clearing_o = clearing_q;
  assign retire_o = issue;
  assign retire_pc_o = pc;
  assign retire_insn_o = issue_word;
  assign stall_o = stall;
endmodule
