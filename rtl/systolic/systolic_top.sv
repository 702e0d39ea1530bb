// Top level of the systolic NPU: sequencer, vector unit, matrix unit, DMA engine, SRAMs, counters.
//
// The host (the SystemC testbench) talks to it through every kcraft top's host interface
// (rtl/common/kc_host_if.sv, addresses in kc_host_pkg and the generated systolic_pkg,
// rtl/systolic/systolic_host_regs.yaml):
//   - ctl_*: synchronous writes to load instructions, set the DRAM size, clear the SRAMs and start;
//   - dbg_*: a combinational back-door read of status, counters, registers and every SRAM row, used for
//     hang reports and for comparing the final state with the functional model;
//   - mem_*: the DMA engine's DRAM requests (one row per request) and in-order responses.
// Memories reset to zero between runs (CTL_CLEAR for the SRAMs, reset for flops), so every run starts
// from the same state the functional model assumes.
//
// The RTL stays within what yosys 0.23 reads (tests/systolic synthesizes it): package constants are
// package-qualified (no `import`), functions assign their result (no `return`), and rows of elements
// cross module boundaries as flat vectors with element n at [n*W +: W] (no multi-dimensional packed
// arrays, no array ports).
module systolic_top #(
  parameter int unsigned MLEN = 16,
  parameter int unsigned VLEN = 16,
  parameter int unsigned BLEN = 4,
  parameter int unsigned IMEM_WORDS = 8192,
  parameter int unsigned VSRAM_ROWS = 8192,
  parameter int unsigned MSRAM_ROWS = 2048,
  parameter int unsigned ACC_ROWS = 512,
  parameter int unsigned FPSRAM_WORDS = 256,
  parameter int unsigned LOOP_DEPTH = 4,
  parameter int unsigned DMA_SLOTS = 4,
  parameter int unsigned DMA_OUTSTANDING = 64,
  parameter int unsigned HAS_V_MUL_VFV = 0,  // 1: the optional fused multiply V_MUL_VFV (illegal otherwise)
  parameter int unsigned ROW_BITS = 16 * VLEN,
  parameter int unsigned DBG_BITS = 32 * MLEN
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // host control writes
  input  logic                 ctl_we_i,
  input  logic [31:0]          ctl_addr_i,
  input  logic [31:0]          ctl_wdata_i,
  // back-door reads
  input  logic                 dbg_en_i,   // the back door is evaluated only while this is high
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
  // status and instruction trace
  output logic                 running_o,
  output logic                 halted_o,
  output logic                 clearing_o,
  output logic                 retire_o,
  output logic [31:0]          retire_pc_o,
  output logic [31:0]          retire_insn_o,
  // what every unit does this cycle (systolic_pkg::TR_*), sampled by the testbench for timelines
  output logic [31:0]          trace_o
);
  localparam int unsigned IM_AW = $clog2(IMEM_WORDS);
  localparam int unsigned VS_AW = $clog2(VSRAM_ROWS);
  localparam int unsigned MS_AW = $clog2(MSRAM_ROWS);
  localparam int unsigned ACC_AW = $clog2(ACC_ROWS);
  localparam int unsigned FPS_AW = $clog2(FPSRAM_WORDS);
  localparam int unsigned DMA_ROW_AW = (VS_AW > MS_AW) ? VS_AW : MS_AW;
  localparam int unsigned MAT_PENDING = (2 * MLEN + 4) / BLEN + 2;
  function automatic int unsigned max2(input int unsigned a, input int unsigned b);
    max2 = a > b ? a : b;  // assigned, not returned: yosys 0.23
  endfunction
  // CTL_CLEAR sweeps one row of every memory per cycle until the largest is done.
  localparam int unsigned MAX_ROWS =
      max2(max2(IMEM_WORDS, VSRAM_ROWS), max2(max2(MSRAM_ROWS, ACC_ROWS), FPSRAM_WORDS));

  // ---------------------------------------------------------------- host interface
  logic                 start, unused_clear, clearing;
  logic [32:0]          dram_bytes;
  logic [31:0]          clear_idx;
  logic                 imem_we;
  logic [IM_AW-1:0]     imem_waddr;
  logic [31:0]          imem_wdata;
  logic [63:0]          status_word, counter;
  logic [DBG_BITS-1:0]  dbg_rdata;
  logic                 mem_rsp_valid;
  logic [ROW_BITS-1:0]  mem_rsp_rdata;
  logic                 seq_running, seq_halted;
  logic [3:0]           err_code;
  logic [31:0]          err_pc, pc, insn;
  logic [63:0]          err_lo, err_hi;
  logic                 retire;
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
    .clear_o        (unused_clear),  // the clear sweep is all the NPU needs
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
    .counter_i      (counter),
    .dbg_rdata_i    (dbg_rdata),
    .mem_rsp_valid_i,
    .mem_rsp_rdata_i,
    .rsp_valid_o    (mem_rsp_valid),
    .rsp_rdata_o    (mem_rsp_rdata),
    .running_i      (seq_running),
    .stopped_i      (seq_halted),
    .retire_i       (retire),
    .retire_pc_i    (pc),
    .retire_insn_i  (insn),
    .running_o,
    .halted_o,
    .clearing_o     (clearing),
    .retire_o,
    .retire_pc_o,
    .retire_insn_o
  );
  assign clearing_o = clearing;
  wire clear_vsram = clearing && clear_idx < VSRAM_ROWS;
  wire clear_msram = clearing && clear_idx < MSRAM_ROWS;

  // ---------------------------------------------------------------- wires between blocks
  logic              imem_re;
  logic [IM_AW-1:0]  imem_raddr;
  logic [31:0]       imem_rdata, imem_dbg;

  logic              vec_valid;
  logic [6:0]        vec_op;
  logic [VS_AW-1:0]  vec_d, vec_a, vec_b;
  logic [3:0]        vec_fs;
  logic [31:0]       vec_fval;
  logic [1:0]        vec_inflight_vs_we, vec_inflight_fp_we;
  logic [2*VS_AW-1:0] vec_inflight_vs_row;
  logic [7:0]        vec_inflight_fp_reg;
  logic              vec_fp_we;
  logic [3:0]        vec_fp_waddr;
  logic [31:0]       vec_fp_wdata;
  logic              vec_busy;

  logic              mat_valid, mat_ready;
  logic [6:0]        mat_op;
  logic [VS_AW-1:0]  mat_vrow;
  logic [MS_AW-1:0]  mat_mrow;
  logic [ACC_AW-1:0] mat_acc;
  logic              mat_vs_rd_valid, mat_vs_wr_valid, mat_ms_rd_valid;
  logic [VS_AW-1:0]  mat_vs_rd_lo, mat_vs_wr_lo;
  logic [MS_AW-1:0]  mat_ms_rd_lo;
  logic [MAT_PENDING-1:0] mat_acc_wr_valid;
  logic [MAT_PENDING*ACC_AW-1:0] mat_acc_wr_lo;
  logic              mat_busy, mat_array_active, mat_row_injected;
  logic [2:0]        mat_trace_state;
  logic              mat_trace_wload, mat_trace_retire;

  logic              dma_valid, dma_ready, dma_store, dma_target;
  logic [DMA_ROW_AW-1:0] dma_row;
  logic [31:0]       dma_addr, dma_stride, dma_tag;
  logic [12:0]       dma_count;
  logic [DMA_SLOTS-1:0] dma_slot_valid, dma_slot_store, dma_slot_target;
  logic [DMA_SLOTS*(DMA_ROW_AW+1)-1:0] dma_slot_lo, dma_slot_hi;
  logic              dma_busy, dma_load_row_done, dma_store_row_done;
  logic              dma_cmd_started, dma_cmd_done;
  logic [31:0]       dma_active_tag;
  logic [12:0]       dma_active_remaining;

  logic [3:0]           stall_cause;
  logic                 sfu_busy;
  logic [31:0]          loop_sp;
  logic [2:0]           retire_class;
  logic [31:0]          dbg_xreg, dbg_freg, dbg_fpsram;

  // ---------------------------------------------------------------- memories
  // Write ports are driven by named signals rather than expressions in the port list: yosys 0.23
  // sizes a conditional expression there without its casts.
  kc_sram #(.WIDTH(32), .DEPTH(IMEM_WORDS), .NR(1), .NW(1)) u_imem (
    .clk_i,
    .re_i       (imem_re),
    .raddr_i    (imem_raddr),
    .rdata_o    (imem_rdata),
    .we_i       (imem_we),
    .waddr_i    (imem_waddr),
    .wdata_i    (imem_wdata),
    .dbg_en_i,
    .dbg_addr_i (IM_AW'(dbg_addr_i)),
    .dbg_rdata_o(imem_dbg)
  );

  // VSRAM read ports: 0 vector a, 1 vector b, 2 matrix, 3 DMA. Write ports: 0 vector, 1 matrix, 2 DMA.
  logic [4*ROW_BITS-1:0]      vs_rdata;  // read port p at [p*ROW_BITS +: ROW_BITS]
  logic [ROW_BITS-1:0]        vs_dbg;
  logic                       dma_re, dma_sram0_we, dma_sram1_we;
  logic [DMA_ROW_AW-1:0]      dma_raddr, dma_waddr;
  logic [ROW_BITS-1:0]        dma_wdata;

  logic                       mat_vs_re, mat_vs_we, mat_ms_re;
  logic [VS_AW-1:0]           mat_vs_raddr, mat_vs_waddr;
  logic [ROW_BITS-1:0]        mat_vs_wdata;
  logic [MS_AW-1:0]           mat_ms_raddr;
  logic                       vec_a_re, vec_b_re, vec_we;
  logic [VS_AW-1:0]           vec_a_raddr, vec_b_raddr, vec_waddr;
  logic [ROW_BITS-1:0]        vec_wdata;

  wire                  vs_dma_we = dma_sram0_we || clear_vsram;
  wire [VS_AW-1:0]      vs_dma_waddr = clearing ? VS_AW'(clear_idx) : VS_AW'(dma_waddr);
  wire [ROW_BITS-1:0]   vs_dma_wdata = clearing ? {ROW_BITS{1'b0}} : dma_wdata;
  wire [3:0]            vs_re = {dma_re, mat_vs_re, vec_b_re, vec_a_re};
  wire [4*VS_AW-1:0]    vs_raddr = {VS_AW'(dma_raddr), mat_vs_raddr, vec_b_raddr, vec_a_raddr};
  wire [2:0]            vs_we = {vs_dma_we, mat_vs_we, vec_we};
  wire [3*VS_AW-1:0]    vs_waddr = {vs_dma_waddr, mat_vs_waddr, vec_waddr};
  wire [3*ROW_BITS-1:0] vs_wdata = {vs_dma_wdata, mat_vs_wdata, vec_wdata};
  kc_sram #(.WIDTH(ROW_BITS), .DEPTH(VSRAM_ROWS), .NR(4), .NW(3)) u_vsram (
    .clk_i,
    .re_i       (vs_re),
    .raddr_i    (vs_raddr),
    .rdata_o    (vs_rdata),
    .we_i       (vs_we),
    .waddr_i    (vs_waddr),
    .wdata_i    (vs_wdata),
    .dbg_en_i,
    .dbg_addr_i (VS_AW'(dbg_addr_i)),
    .dbg_rdata_o(vs_dbg)
  );

  logic [ROW_BITS-1:0] ms_rdata, ms_dbg;
  wire                 ms_we = dma_sram1_we || clear_msram;
  wire [MS_AW-1:0]     ms_waddr = clearing ? MS_AW'(clear_idx) : MS_AW'(dma_waddr);
  wire [ROW_BITS-1:0]  ms_wdata = clearing ? {ROW_BITS{1'b0}} : dma_wdata;
  kc_sram #(.WIDTH(ROW_BITS), .DEPTH(MSRAM_ROWS), .NR(1), .NW(1)) u_msram (
    .clk_i,
    .re_i       (mat_ms_re),
    .raddr_i    (mat_ms_raddr),
    .rdata_o    (ms_rdata),
    .we_i       (ms_we),
    .waddr_i    (ms_waddr),
    .wdata_i    (ms_wdata),
    .dbg_en_i,
    .dbg_addr_i (MS_AW'(dbg_addr_i)),
    .dbg_rdata_o(ms_dbg)
  );

  // ---------------------------------------------------------------- blocks
  systolic_sequencer #(
    .MLEN(MLEN), .VLEN(VLEN), .BLEN(BLEN), .IMEM_WORDS(IMEM_WORDS), .VSRAM_ROWS(VSRAM_ROWS),
    .MSRAM_ROWS(MSRAM_ROWS), .ACC_ROWS(ACC_ROWS), .FPSRAM_WORDS(FPSRAM_WORDS),
    .LOOP_DEPTH(LOOP_DEPTH), .DMA_SLOTS(DMA_SLOTS), .MAT_PENDING(MAT_PENDING),
    .HAS_V_MUL_VFV(HAS_V_MUL_VFV)
  ) u_sequencer (
    .clk_i,
    .rst_ni,
    .start_i              (start),
    .dram_bytes_i         (dram_bytes),
    .clear_i              (clearing),
    .clear_idx_i          (clear_idx),
    .imem_re_o            (imem_re),
    .imem_raddr_o         (imem_raddr),
    .imem_rdata_i         (imem_rdata),
    .vec_valid_o          (vec_valid),
    .vec_op_o             (vec_op),
    .vec_d_o              (vec_d),
    .vec_a_o              (vec_a),
    .vec_b_o              (vec_b),
    .vec_fs_o             (vec_fs),
    .vec_fval_o           (vec_fval),
    .vec_inflight_vs_we_i (vec_inflight_vs_we),
    .vec_inflight_vs_row_i(vec_inflight_vs_row),
    .vec_inflight_fp_we_i (vec_inflight_fp_we),
    .vec_inflight_fp_reg_i(vec_inflight_fp_reg),
    .vec_fp_we_i          (vec_fp_we),
    .vec_fp_waddr_i       (vec_fp_waddr),
    .vec_fp_wdata_i       (vec_fp_wdata),
    .vec_busy_i           (vec_busy),
    .mat_valid_o          (mat_valid),
    .mat_ready_i          (mat_ready),
    .mat_op_o             (mat_op),
    .mat_vrow_o           (mat_vrow),
    .mat_mrow_o           (mat_mrow),
    .mat_acc_o            (mat_acc),
    .mat_vs_rd_valid_i    (mat_vs_rd_valid),
    .mat_vs_rd_lo_i       (mat_vs_rd_lo),
    .mat_vs_wr_valid_i    (mat_vs_wr_valid),
    .mat_vs_wr_lo_i       (mat_vs_wr_lo),
    .mat_ms_rd_valid_i    (mat_ms_rd_valid),
    .mat_ms_rd_lo_i       (mat_ms_rd_lo),
    .mat_acc_wr_valid_i   (mat_acc_wr_valid),
    .mat_acc_wr_lo_i      (mat_acc_wr_lo),
    .mat_busy_i           (mat_busy),
    .dma_valid_o          (dma_valid),
    .dma_ready_i          (dma_ready),
    .dma_store_o          (dma_store),
    .dma_target_o         (dma_target),
    .dma_row_o            (dma_row),
    .dma_addr_o           (dma_addr),
    .dma_stride_o         (dma_stride),
    .dma_count_o          (dma_count),
    .dma_tag_o            (dma_tag),
    .dma_slot_valid_i     (dma_slot_valid),
    .dma_slot_store_i     (dma_slot_store),
    .dma_slot_target_i    (dma_slot_target),
    .dma_slot_lo_i        (dma_slot_lo),
    .dma_slot_hi_i        (dma_slot_hi),
    .dma_busy_i           (dma_busy),
    .running_o            (seq_running),
    .halted_o             (seq_halted),
    .err_code_o           (err_code),
    .err_pc_o             (err_pc),
    .err_lo_o             (err_lo),
    .err_hi_o             (err_hi),
    .pc_o                 (pc),
    .insn_o               (insn),
    .stall_cause_o        (stall_cause),
    .sfu_busy_o           (sfu_busy),
    .loop_sp_o            (loop_sp),
    .retire_o             (retire),
    .retire_class_o       (retire_class),
    .dbg_en_i,
    .dbg_reg_i            (dbg_addr_i[3:0]),
    .dbg_xreg_o           (dbg_xreg),
    .dbg_freg_o           (dbg_freg),
    .dbg_fpsram_addr_i    (FPS_AW'(dbg_addr_i)),
    .dbg_fpsram_o         (dbg_fpsram)
  );

  systolic_vector_unit #(.VLEN(VLEN), .VS_AW(VS_AW), .HAS_V_MUL_VFV(HAS_V_MUL_VFV)) u_vector (
    .clk_i,
    .rst_ni,
    .cmd_valid_i        (vec_valid),
    .cmd_op_i           (vec_op),
    .cmd_d_i            (vec_d),
    .cmd_a_i            (vec_a),
    .cmd_b_i            (vec_b),
    .cmd_fs_i           (vec_fs),
    .cmd_fval_i         (vec_fval),
    .a_re_o             (vec_a_re),
    .a_raddr_o          (vec_a_raddr),
    .a_rdata_i          (vs_rdata[0*ROW_BITS +: ROW_BITS]),
    .b_re_o             (vec_b_re),
    .b_raddr_o          (vec_b_raddr),
    .b_rdata_i          (vs_rdata[1*ROW_BITS +: ROW_BITS]),
    .we_o               (vec_we),
    .waddr_o            (vec_waddr),
    .wdata_o            (vec_wdata),
    .fp_we_o            (vec_fp_we),
    .fp_waddr_o         (vec_fp_waddr),
    .fp_wdata_o         (vec_fp_wdata),
    .inflight_vs_we_o   (vec_inflight_vs_we),
    .inflight_vs_row_o  (vec_inflight_vs_row),
    .inflight_fp_we_o   (vec_inflight_fp_we),
    .inflight_fp_reg_o  (vec_inflight_fp_reg),
    .busy_o             (vec_busy)
  );

  logic [MLEN*32-1:0] dbg_acc_row;
  logic [MLEN*16-1:0] dbg_w_row;
  systolic_matrix_unit #(
    .MLEN(MLEN), .BLEN(BLEN), .VS_AW(VS_AW), .MS_AW(MS_AW), .ACC_ROWS(ACC_ROWS),
    .PENDING(MAT_PENDING)
  ) u_matrix (
    .clk_i,
    .rst_ni,
    .clear_i        (clearing),
    .clear_idx_i    (clear_idx),
    .cmd_valid_i    (mat_valid),
    .cmd_ready_o    (mat_ready),
    .cmd_op_i       (mat_op),
    .cmd_vrow_i     (mat_vrow),
    .cmd_mrow_i     (mat_mrow),
    .cmd_acc_i      (mat_acc),
    .vs_rd_valid_o  (mat_vs_rd_valid),
    .vs_rd_lo_o     (mat_vs_rd_lo),
    .vs_wr_valid_o  (mat_vs_wr_valid),
    .vs_wr_lo_o     (mat_vs_wr_lo),
    .ms_rd_valid_o  (mat_ms_rd_valid),
    .ms_rd_lo_o     (mat_ms_rd_lo),
    .acc_wr_valid_o (mat_acc_wr_valid),
    .acc_wr_lo_o    (mat_acc_wr_lo),
    .busy_o         (mat_busy),
    .array_active_o (mat_array_active),
    .row_injected_o (mat_row_injected),
    .trace_state_o  (mat_trace_state),
    .trace_wload_o  (mat_trace_wload),
    .trace_retire_o (mat_trace_retire),
    .vs_re_o        (mat_vs_re),
    .vs_raddr_o     (mat_vs_raddr),
    .vs_rdata_i     (vs_rdata[2*ROW_BITS +: ROW_BITS]),
    .vs_we_o        (mat_vs_we),
    .vs_waddr_o     (mat_vs_waddr),
    .vs_wdata_o     (mat_vs_wdata),
    .ms_re_o        (mat_ms_re),
    .ms_raddr_o     (mat_ms_raddr),
    .ms_rdata_i     (ms_rdata),
    .dbg_en_i,
    .dbg_acc_addr_i (ACC_AW'(dbg_addr_i)),
    .dbg_acc_row_o  (dbg_acc_row),
    .dbg_w_row_i    (dbg_addr_i[$clog2(MLEN)-1:0]),
    .dbg_w_row_o    (dbg_w_row)
  );

  kc_dma_engine #(
    .ROW_BITS(ROW_BITS), .ROW_AW(DMA_ROW_AW), .SLOTS(DMA_SLOTS), .MAX_OUTSTANDING(DMA_OUTSTANDING)
  ) u_dma (
    .clk_i,
    .rst_ni,
    .cmd_valid_i        (dma_valid),
    .cmd_ready_o        (dma_ready),
    .cmd_store_i        (dma_store),
    .cmd_target_i       (dma_target),
    .cmd_row_i          (dma_row),
    .cmd_addr_i         (dma_addr),
    .cmd_stride_i       (dma_stride),
    .cmd_count_i        (dma_count),
    .cmd_tag_i          (dma_tag),
    .slot_valid_o       (dma_slot_valid),
    .slot_store_o       (dma_slot_store),
    .slot_target_o      (dma_slot_target),
    .slot_lo_o          (dma_slot_lo),
    .slot_hi_o          (dma_slot_hi),
    .busy_o             (dma_busy),
    .active_tag_o       (dma_active_tag),
    .active_remaining_o (dma_active_remaining),
    .mem_req_valid_o,
    .mem_req_ready_i(1'b1),  // DRAM accepts every request (see the port list)
    .mem_req_write_o,
    .mem_req_addr_o,
    .mem_req_wdata_o,
    .mem_req_tag_o,
    .mem_rsp_valid_i    (mem_rsp_valid),
    .mem_rsp_rdata_i    (mem_rsp_rdata),
    .sram_re_o          (dma_re),
    .sram_raddr_o       (dma_raddr),
    .sram_rdata_i       (vs_rdata[3*ROW_BITS +: ROW_BITS]),
    .sram0_we_o         (dma_sram0_we),
    .sram1_we_o         (dma_sram1_we),
    .sram_waddr_o       (dma_waddr),
    .sram_wdata_o       (dma_wdata),
    .load_row_done_o    (dma_load_row_done),
    .store_row_done_o   (dma_store_row_done),
    .cmd_started_o      (dma_cmd_started),
    .cmd_done_o         (dma_cmd_done)
  );

  // ---------------------------------------------------------------- performance counters
  localparam int unsigned CNT_AW = $clog2(systolic_isa_pkg::NUM_COUNTERS);
  logic [63:0] cnt_inc [systolic_isa_pkg::NUM_COUNTERS];
  always_comb begin
    for (int unsigned c = 0; c < systolic_isa_pkg::NUM_COUNTERS; c++) cnt_inc[c] = '0;
    if (seq_running) begin
      cnt_inc[systolic_isa_pkg::CNT_CYCLES] = 64'd1;
      cnt_inc[systolic_isa_pkg::CNT_INSTRUCTIONS] = 64'(retire);
      cnt_inc[systolic_isa_pkg::CNT_STALL_DEPENDENCY] =
          64'(stall_cause == systolic_isa_pkg::STALL_DEPENDENCY);
      cnt_inc[systolic_isa_pkg::CNT_STALL_FP_PENDING] =
          64'(stall_cause == systolic_isa_pkg::STALL_FP_PENDING);
      cnt_inc[systolic_isa_pkg::CNT_STALL_UNIT_BUSY] = 64'(stall_cause == systolic_isa_pkg::STALL_UNIT_BUSY);
      cnt_inc[systolic_isa_pkg::CNT_SFU_BUSY] = 64'(sfu_busy);
      cnt_inc[systolic_isa_pkg::CNT_STALL_DRAIN] = 64'(stall_cause == systolic_isa_pkg::STALL_DRAIN);
      cnt_inc[systolic_isa_pkg::CNT_VECTOR_BUSY] = 64'(vec_valid);
      cnt_inc[systolic_isa_pkg::CNT_MATRIX_BUSY] = 64'(mat_busy);
      cnt_inc[systolic_isa_pkg::CNT_DMA_BUSY] = 64'(dma_busy);
      cnt_inc[systolic_isa_pkg::CNT_DRAM_BYTES_READ] = dma_load_row_done ? 64'(ROW_BITS) / 64'd8 : 64'd0;
      cnt_inc[systolic_isa_pkg::CNT_DRAM_BYTES_WRITTEN] = dma_store_row_done ? 64'(ROW_BITS) / 64'd8 : 64'd0;
      cnt_inc[systolic_isa_pkg::CNT_MACS] = mat_row_injected ? 64'(MLEN * MLEN) : 64'd0;
      cnt_inc[systolic_isa_pkg::CNT_VECTOR_ELEMENTS] = vec_valid ? 64'(VLEN) : 64'd0;
      cnt_inc[systolic_isa_pkg::CNT_INSTR_CONTROL] = 64'(retire && retire_class == 3'd0);
      cnt_inc[systolic_isa_pkg::CNT_INSTR_SCALAR] = 64'(retire && retire_class == 3'd1);
      cnt_inc[systolic_isa_pkg::CNT_INSTR_VECTOR] = 64'(retire && retire_class == 3'd2);
      cnt_inc[systolic_isa_pkg::CNT_INSTR_MATRIX] = 64'(retire && retire_class == 3'd3);
      cnt_inc[systolic_isa_pkg::CNT_INSTR_DMA] = 64'(retire && retire_class == 3'd4);
      cnt_inc[systolic_isa_pkg::CNT_ARRAY_ACTIVE] = 64'(mat_array_active);
    end
  end
  // The counters are one flat vector (counter c at [c*64 +: 64]), assigned whole: as an array written
  // element by element, each counter gets a flag of its own in Verilator's commit of non-blocking writes,
  // tested and cleared every cycle (and yosys reads no whole-array assignment).
  logic [systolic_isa_pkg::NUM_COUNTERS*64-1:0] cnt_q;
  logic [systolic_isa_pkg::NUM_COUNTERS*64-1:0] cnt_d;
  always_comb begin
    for (int unsigned c = 0; c < systolic_isa_pkg::NUM_COUNTERS; c++) begin
      cnt_d[c*64 +: 64] = start ? 64'd0 : cnt_q[c*64 +: 64] + cnt_inc[c];  // the counters restart every run
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cnt_q <= '0;
    else if (start || seq_running) cnt_q <= cnt_d;
  end

  // ---------------------------------------------------------------- back door: the NPU's own words
  // Only while the back door is read: it depends on the testbench's inputs, which a simulator evaluates
  // at every evaluation (docs/simulation-speed.md).
  always_comb begin
    counter = '0;
    if (dbg_en_i && dbg_addr_i < systolic_isa_pkg::NUM_COUNTERS) counter = cnt_q[dbg_addr_i[CNT_AW-1:0]*64 +: 64];
  end

  always_comb begin
    status_word = '0;
    if (dbg_en_i) case (dbg_addr_i)
      systolic_pkg::ST_INSN: status_word = 64'(insn);
      systolic_pkg::ST_UNITS: status_word = {56'h0, stall_cause, sfu_busy, dma_busy, mat_busy, vec_busy};
      systolic_pkg::ST_DMA_PC: status_word = 64'(dma_active_tag);
      systolic_pkg::ST_DMA_LEFT: status_word = 64'(dma_active_remaining);
      systolic_pkg::ST_LOOP_DEPTH: status_word = 64'(loop_sp);
      systolic_pkg::ST_PARAM_MLEN: status_word = 64'(MLEN);
      systolic_pkg::ST_PARAM_VLEN: status_word = 64'(VLEN);
      systolic_pkg::ST_PARAM_BLEN: status_word = 64'(BLEN);
      systolic_pkg::ST_PARAM_IMEM: status_word = 64'(IMEM_WORDS);
      systolic_pkg::ST_PARAM_VSRAM: status_word = 64'(VSRAM_ROWS);
      systolic_pkg::ST_PARAM_MSRAM: status_word = 64'(MSRAM_ROWS);
      systolic_pkg::ST_PARAM_ACC: status_word = 64'(ACC_ROWS);
      systolic_pkg::ST_PARAM_FPSRAM: status_word = 64'(FPSRAM_WORDS);
      systolic_pkg::ST_PARAM_LOOP: status_word = 64'(LOOP_DEPTH);
      systolic_pkg::ST_PARAM_DMA_SLOTS: status_word = 64'(DMA_SLOTS);
      systolic_pkg::ST_PARAM_DMA_OUTSTANDING: status_word = 64'(DMA_OUTSTANDING);
      systolic_pkg::ST_PARAM_HAS_V_MUL_VFV: status_word = 64'(HAS_V_MUL_VFV);
      default: status_word = '0;
    endcase
  end

  always_comb begin
    dbg_rdata = '0;
    if (dbg_en_i) case (dbg_sel_i)
      systolic_pkg::DBG_XREG: dbg_rdata = DBG_BITS'(dbg_xreg);
      systolic_pkg::DBG_FREG: dbg_rdata = DBG_BITS'(dbg_freg);
      systolic_pkg::DBG_VSRAM: dbg_rdata = DBG_BITS'(vs_dbg);
      systolic_pkg::DBG_MSRAM: dbg_rdata = DBG_BITS'(ms_dbg);
      systolic_pkg::DBG_ACC: dbg_rdata = DBG_BITS'(dbg_acc_row);
      systolic_pkg::DBG_FPSRAM: dbg_rdata = DBG_BITS'(dbg_fpsram);
      systolic_pkg::DBG_IMEM: dbg_rdata = DBG_BITS'(imem_dbg);
      systolic_pkg::DBG_WEIGHTS: dbg_rdata = DBG_BITS'(dbg_w_row);
      default: dbg_rdata = '0;
    endcase
  end

  always_comb begin
    trace_o = '0;
    trace_o[systolic_pkg::TR_STALL_LSB +: 4] = stall_cause;
    trace_o[systolic_pkg::TR_RUNNING] = seq_running;
    trace_o[systolic_pkg::TR_VEC_ISSUE] = vec_valid;
    trace_o[systolic_pkg::TR_SFU_BUSY] = sfu_busy;
    trace_o[systolic_pkg::TR_MAT_BUSY] = mat_busy;
    trace_o[systolic_pkg::TR_ARRAY] = mat_array_active;
    trace_o[systolic_pkg::TR_MAT_STATE +: 3] = mat_trace_state;
    trace_o[systolic_pkg::TR_MAT_WLOAD] = mat_trace_wload;
    trace_o[systolic_pkg::TR_MAT_RETIRE] = mat_trace_retire;
    trace_o[systolic_pkg::TR_DMA_BUSY] = dma_busy;
    trace_o[systolic_pkg::TR_DMA_START] = dma_cmd_started;
    trace_o[systolic_pkg::TR_DMA_DONE] = dma_cmd_done;
    trace_o[systolic_pkg::TR_DMA_LOAD] = dma_load_row_done;
    trace_o[systolic_pkg::TR_DMA_STORE] = dma_store_row_done;
  end
endmodule
