// Matrix unit: the systolic array, its accumulator SRAM and the command sequencing around them.
//
//   M_LDW/M_LDWT  wait until no row is in the array, then read MLEN MSRAM rows into the weights.
//   M_MM/M_MMA    stream BLEN VSRAM rows into the array (one per cycle, the first in the accept cycle);
//                 results land in the accumulators MLEN + n cycles later per column n.
//   M_WO          write BLEN accumulator rows to VSRAM as BF16, one per cycle.
// Back-to-back M_MMs stream without bubbles. The unit publishes the SRAM ranges it still has to touch so
// the issue stage can hold a conflicting instruction (the interlocks that make programs sequential).
module systolic_matrix_unit #(
  parameter int unsigned MLEN = 16,
  parameter int unsigned BLEN = 4,
  parameter int unsigned VS_AW = 13,
  parameter int unsigned MS_AW = 11,
  parameter int unsigned ACC_ROWS = 512,
  parameter int unsigned ACC_AW = (ACC_ROWS > 1) ? $clog2(ACC_ROWS) : 1,
  parameter int unsigned PENDING = (2 * MLEN + 4) / BLEN + 2,
  parameter int unsigned IDX_W = (MLEN > 1) ? $clog2(MLEN) : 1
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     clear_i,       // zero accumulator row clear_idx_i (CTL_CLEAR sweep)
  input  logic [31:0]              clear_idx_i,
  // command from the issue stage
  input  logic                     cmd_valid_i,
  output logic                     cmd_ready_o,
  input  logic [6:0]               cmd_op_i,
  input  logic [VS_AW-1:0]         cmd_vrow_i,
  input  logic [MS_AW-1:0]         cmd_mrow_i,
  input  logic [ACC_AW-1:0]        cmd_acc_i,
  // ranges still to be touched (hazards)
  output logic                     vs_rd_valid_o,
  output logic [VS_AW-1:0]         vs_rd_lo_o,
  output logic                     vs_wr_valid_o,
  output logic [VS_AW-1:0]         vs_wr_lo_o,
  output logic                     ms_rd_valid_o,
  output logic [MS_AW-1:0]         ms_rd_lo_o,
  output logic [PENDING-1:0]       acc_wr_valid_o,
  output logic [PENDING*ACC_AW-1:0] acc_wr_lo_o,  // entry p at [p*ACC_AW +: ACC_AW]
  output logic                     busy_o,
  output logic                     array_active_o,
  output logic                     row_injected_o,
  output logic [2:0]               trace_state_o,   // systolic_pkg::TR_MAT_* (timeline only)
  output logic                     trace_wload_o,
  output logic                     trace_retire_o,
  // VSRAM and MSRAM ports
  output logic                     vs_re_o,
  output logic [VS_AW-1:0]         vs_raddr_o,
  input  logic [MLEN*16-1:0]       vs_rdata_i,     // BF16 element n at [n*16 +: 16]
  output logic                     vs_we_o,
  output logic [VS_AW-1:0]         vs_waddr_o,
  output logic [MLEN*16-1:0]       vs_wdata_o,
  output logic                     ms_re_o,
  output logic [MS_AW-1:0]         ms_raddr_o,
  input  logic [MLEN*16-1:0]       ms_rdata_i,
  // back door
  input  logic                     dbg_en_i,
  input  logic [ACC_AW-1:0]        dbg_acc_addr_i,
  output logic [MLEN*32-1:0]       dbg_acc_row_o,  // FP32 element n at [n*32 +: 32]
  input  logic [IDX_W-1:0]         dbg_w_row_i,
  output logic [MLEN*16-1:0]       dbg_w_row_o
);

  typedef enum logic [2:0] {
    StIdle, StLdwDrain, StLdwLoad, StMmStream, StWoWrite
  } state_e;

  localparam int unsigned TAG_W = ACC_AW + 2;  // {last row of its command, accumulate, acc row}
  localparam int unsigned PEND_W = $clog2(PENDING + 1);
  localparam int unsigned PPTR_W = (PENDING > 1) ? $clog2(PENDING) : 1;
  localparam int unsigned FLIGHT_W = $clog2(4 * MLEN + 4 * BLEN + 8);

  state_e state_q;
  logic [IDX_W:0]       idx_q;       // row within the current command
  logic [VS_AW-1:0]     vrow_q;
  logic [MS_AW-1:0]     mrow_q;
  logic [ACC_AW-1:0]    acc_q;
  logic                 accumulate_q;
  logic                 transpose_q;

  // Accumulators: one bank per column, each with its own read-modify-write port.
  logic [31:0] acc_mem_q [ACC_ROWS][MLEN];

  // Rows being injected into the array (VSRAM read data arrives one cycle after the read).
  logic                 inj_valid_q;
  logic [TAG_W-1:0]     inj_tag_q;
  logic [FLIGHT_W-1:0]  rows_in_flight_q;

  // Weight load pipeline (MSRAM read data arrives one cycle after the read).
  logic                 wload_valid_q;
  logic [IDX_W-1:0]     wload_idx_q;

  // Pending accumulator writes of accepted M_MM/M_MMA commands, oldest first.
  logic [PENDING-1:0]   pend_valid_q;
  logic [ACC_AW-1:0]    pend_lo_q [PENDING];
  logic [PPTR_W-1:0]    pend_head_q, pend_tail_q;
  logic [PEND_W-1:0]    pend_count_q;

  wire cmd_is_mm = (cmd_op_i == systolic_isa_pkg::OP_M_MM) || (cmd_op_i == systolic_isa_pkg::OP_M_MMA);
  wire cmd_is_wo = (cmd_op_i == systolic_isa_pkg::OP_M_WO);
  wire cmd_is_ldw = (cmd_op_i == systolic_isa_pkg::OP_M_LDW) || (cmd_op_i == systolic_isa_pkg::OP_M_LDWT);
  assign cmd_ready_o = (state_q == StIdle) && !(cmd_is_mm && (32'(pend_count_q) == PENDING));
  wire accept = cmd_valid_i && cmd_ready_o;

  wire drained = (rows_in_flight_q == '0) && !inj_valid_q;
  wire last_beat = (32'(idx_q) == BLEN - 1);

  // ---------------------------------------------------------------- array
  // Column n of the row leaving the array: out_valid[n], out_psum[n*32 +: 32], out_tag[n*TAG_W +: TAG_W].
  logic [MLEN-1:0]       out_valid;
  logic [MLEN*32-1:0]    out_psum;
  logic [MLEN*TAG_W-1:0] out_tag;

  // The array moves while a row is being injected or any row is inside it (rows_in_flight drops when
  // the last column retires, in the same cycle the array clears its last valid bit).
  wire array_en = inj_valid_q || (rows_in_flight_q != '0);

  systolic_array #(.MLEN(MLEN), .TAG_W(TAG_W)) u_array (
    .clk_i,
    .rst_ni,
    .en_i       (array_en),
    .clear_i,
    .clear_idx_i,
    .w_row_we_i (wload_valid_q && !transpose_q),
    .w_col_we_i (wload_valid_q && transpose_q),
    .w_idx_i    (wload_idx_q),
    .w_data_i   (ms_rdata_i),
    .in_valid_i (inj_valid_q),
    .in_row_i   (vs_rdata_i),
    .in_tag_i   (inj_tag_q),
    .out_valid_o(out_valid),
    .out_psum_o (out_psum),
    .out_tag_o  (out_tag),
    .dbg_en_i,
    .dbg_w_row_i(dbg_w_row_i),
    .dbg_w_row_o(dbg_w_row_o)
  );

  // ---------------------------------------------------------------- SRAM ports
  wire mm_first = accept && cmd_is_mm;
  wire wo_first = accept && cmd_is_wo;
  assign vs_re_o = mm_first || (state_q == StMmStream);
  assign vs_raddr_o = mm_first ? cmd_vrow_i : vrow_q + VS_AW'(idx_q);
  assign ms_re_o = (state_q == StLdwLoad);
  assign ms_raddr_o = mrow_q + MS_AW'(idx_q);

  logic [ACC_AW-1:0] wo_acc_row;
  assign wo_acc_row = wo_first ? cmd_acc_i : acc_q + ACC_AW'(idx_q);
  assign vs_we_o = wo_first || (state_q == StWoWrite);
  assign vs_waddr_o = wo_first ? cmd_vrow_i : vrow_q + VS_AW'(idx_q);
  always_comb begin
    vs_wdata_o = '0;
    if (vs_we_o) begin
      for (int unsigned n = 0; n < MLEN; n++) begin
        vs_wdata_o[n*16 +: 16] = kc_fp_pkg::fp32_to_bf16(acc_mem_q[wo_acc_row][n]);
      end
    end
  end

  // ---------------------------------------------------------------- control
  wire row_retires = array_en && out_valid[MLEN-1];
  wire cmd_retires = row_retires && out_tag[(MLEN-1)*TAG_W + TAG_W-1];  // last row of its command

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      idx_q <= '0;
      inj_valid_q <= 1'b0;
      wload_valid_q <= 1'b0;
      rows_in_flight_q <= '0;
      pend_valid_q <= '0;
      pend_head_q <= '0;
      pend_tail_q <= '0;
      pend_count_q <= '0;
    end else begin
      inj_valid_q <= 1'b0;
      wload_valid_q <= 1'b0;
      case (state_q)
        StIdle: begin
          if (accept) begin
            vrow_q <= cmd_vrow_i;
            mrow_q <= cmd_mrow_i;
            acc_q <= cmd_acc_i;
            accumulate_q <= (cmd_op_i == systolic_isa_pkg::OP_M_MMA);
            transpose_q <= (cmd_op_i == systolic_isa_pkg::OP_M_LDWT);
            idx_q <= 1;
            if (cmd_is_ldw) begin
              state_q <= StLdwDrain;
            end else if (BLEN > 1) begin
              state_q <= cmd_is_mm ? StMmStream : StWoWrite;
            end
            if (cmd_is_mm) begin
              inj_valid_q <= 1'b1;
              inj_tag_q <= {BLEN == 1, cmd_op_i == systolic_isa_pkg::OP_M_MMA, cmd_acc_i};
            end
          end
        end
        StMmStream: begin
          inj_valid_q <= 1'b1;
          inj_tag_q <= {last_beat, accumulate_q, acc_q + ACC_AW'(idx_q)};
          idx_q <= idx_q + 1'b1;
          if (last_beat) state_q <= StIdle;
        end
        StWoWrite: begin
          idx_q <= idx_q + 1'b1;
          if (last_beat) state_q <= StIdle;
        end
        StLdwDrain: begin
          idx_q <= '0;
          if (drained) state_q <= StLdwLoad;
        end
        StLdwLoad: begin
          wload_valid_q <= 1'b1;
          wload_idx_q <= IDX_W'(idx_q);
          idx_q <= idx_q + 1'b1;
          if (32'(idx_q) == MLEN - 1) state_q <= StIdle;
        end
        default: state_q <= StIdle;
      endcase

      rows_in_flight_q <= rows_in_flight_q + FLIGHT_W'(inj_valid_q) - FLIGHT_W'(row_retires);

      if (mm_first) begin
        pend_valid_q[pend_tail_q] <= 1'b1;
        pend_lo_q[pend_tail_q] <= cmd_acc_i;
        pend_tail_q <= PPTR_W'((32'(pend_tail_q) + 1) % PENDING);
      end
      if (cmd_retires) begin
        pend_valid_q[pend_head_q] <= 1'b0;
        pend_head_q <= PPTR_W'((32'(pend_head_q) + 1) % PENDING);
      end
      pend_count_q <= pend_count_q + PEND_W'(mm_first) - PEND_W'(cmd_retires);
    end
  end

  // Accumulator read-modify-write at the bottom of each column. CTL_CLEAR zeroes one row per cycle so
  // every run starts from zeroed accumulators.
  always_ff @(posedge clk_i) begin
    logic [ACC_AW-1:0] row;
    if (array_en) begin
      for (int unsigned n = 0; n < MLEN; n++) begin
        row = out_tag[n*TAG_W +: ACC_AW];
        if (out_valid[n]) begin
          acc_mem_q[row][n] <= out_tag[n*TAG_W + ACC_AW] ?  // accumulate
              kc_fp_pkg::fp32_add(acc_mem_q[row][n], out_psum[n*32 +: 32]) : out_psum[n*32 +: 32];
        end
      end
    end
    if (clear_i && clear_idx_i < ACC_ROWS) begin
      for (int unsigned n = 0; n < MLEN; n++) acc_mem_q[ACC_AW'(clear_idx_i)][n] <= '0;
    end
  end

  // ---------------------------------------------------------------- status
  assign vs_rd_valid_o = (state_q == StMmStream);
  assign vs_rd_lo_o = vrow_q;
  assign vs_wr_valid_o = (state_q == StWoWrite);
  assign vs_wr_lo_o = vrow_q;
  assign ms_rd_valid_o = (state_q == StLdwDrain) || (state_q == StLdwLoad);
  assign ms_rd_lo_o = mrow_q;
  assign acc_wr_valid_o = pend_valid_q;
  for (genvar p = 0; p < PENDING; p++) begin : g_pend
    assign acc_wr_lo_o[p*ACC_AW +: ACC_AW] = pend_lo_q[p];
  end
  assign busy_o = (state_q != StIdle) || !drained || wload_valid_q;
  assign array_active_o = !drained;
  assign row_injected_o = inj_valid_q;
  always_comb begin
    case (state_q)
      StLdwDrain: trace_state_o = systolic_pkg::TR_MAT_LDW_DRAIN;
      StLdwLoad:  trace_state_o = systolic_pkg::TR_MAT_LDW_LOAD;
      StMmStream: trace_state_o = systolic_pkg::TR_MAT_MM;
      StWoWrite:  trace_state_o = systolic_pkg::TR_MAT_WO;
      default:    trace_state_o = systolic_pkg::TR_MAT_IDLE;
    endcase
  end
  assign trace_wload_o = wload_valid_q;
  assign trace_retire_o = cmd_retires;

  for (genvar n = 0; n < MLEN; n++) begin : g_dbg
    assign dbg_acc_row_o[n*32 +: 32] = dbg_en_i ? acc_mem_q[dbg_acc_addr_i][n] : '0;
  end
endmodule
