// Vector unit: VLEN BF16 lanes working on one VSRAM row per instruction, fully pipelined.
//
//   cycle t    (issue) the a/b row addresses go to VSRAM;
//   cycle t+1  (EX)    the rows arrive, every lane computes in FP32 and rounds to BF16 once;
//   cycle t+2  (WB)    the row is written to VSRAM, or the reduction result to the FP register file.
// An instruction issued at t+3 sees the result. Reductions sum lanes as a balanced tree (neighbouring
// pairs first) in FP32, then combine with the FP register value captured at issue. With HAS_V_MUL_VFV
// every lane has a second multiplier for the optional V_MUL_VFV, (a * fs) rounded to BF16 times b.
module systolic_vector_unit #(
  parameter int unsigned VLEN = 16,
  parameter int unsigned VS_AW = 13,
  parameter int unsigned HAS_V_MUL_VFV = 0  // 0: the sequencer never sends V_MUL_VFV
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   cmd_valid_i,
  input  logic [6:0]             cmd_op_i,
  input  logic [VS_AW-1:0]       cmd_d_i,
  input  logic [VS_AW-1:0]       cmd_a_i,
  input  logic [VS_AW-1:0]       cmd_b_i,
  input  logic [3:0]             cmd_fs_i,
  input  logic [31:0]            cmd_fval_i,
  // VSRAM ports: two reads, one write
  output logic                   a_re_o,
  output logic [VS_AW-1:0]       a_raddr_o,
  input  logic [VLEN*16-1:0]     a_rdata_i,          // BF16 lane i at [i*16 +: 16]
  output logic                   b_re_o,
  output logic [VS_AW-1:0]       b_raddr_o,
  input  logic [VLEN*16-1:0]     b_rdata_i,
  output logic                   we_o,
  output logic [VS_AW-1:0]       waddr_o,
  output logic [VLEN*16-1:0]     wdata_o,
  // FP register write-back (reductions)
  output logic                   fp_we_o,
  output logic [3:0]             fp_waddr_o,
  output logic [31:0]            fp_wdata_o,
  // in-flight instructions (EX, WB), for hazard checks
  output logic [1:0]             inflight_vs_we_o,
  output logic [2*VS_AW-1:0]     inflight_vs_row_o,  // {WB, EX}
  output logic [1:0]             inflight_fp_we_o,
  output logic [7:0]             inflight_fp_reg_o,  // {WB, EX}
  output logic                   busy_o
);
  // Results are assigned to the function name: yosys 0.23 does not parse `return`.
  function automatic logic is_reduction(input logic [6:0] op);
    case (op)
      systolic_isa_pkg::OP_V_RED_SUM, systolic_isa_pkg::OP_V_RED_MAX, systolic_isa_pkg::OP_V_RED_DOT:
        is_reduction = 1'b1;
      default: is_reduction = 1'b0;
    endcase
  endfunction

  function automatic logic reads_b(input logic [6:0] op);
    case (op)
      systolic_isa_pkg::OP_V_ADD_VV, systolic_isa_pkg::OP_V_SUB_VV, systolic_isa_pkg::OP_V_MUL_VV,
      systolic_isa_pkg::OP_V_MAX_VV, systolic_isa_pkg::OP_V_MIN_VV, systolic_isa_pkg::OP_V_RED_DOT:
        reads_b = 1'b1;
      systolic_isa_pkg::OP_V_MUL_VFV: reads_b = HAS_V_MUL_VFV != 0;
      default: reads_b = 1'b0;
    endcase
  endfunction

  // EX stage registers
  logic             ex_valid_q;
  logic [6:0]       ex_op_q;
  logic [VS_AW-1:0] ex_d_q;
  logic [3:0]       ex_fs_q;
  logic [31:0]      ex_fval_q;
  // WB stage registers
  logic                  wb_valid_q;
  logic                  wb_red_q;
  logic [VS_AW-1:0]      wb_d_q;
  logic [3:0]            wb_fs_q;
  logic [VLEN*16-1:0]    wb_row_q;
  logic [31:0]           wb_fval_q;

  assign a_re_o = cmd_valid_i && cmd_op_i != systolic_isa_pkg::OP_V_BCAST_F;
  assign a_raddr_o = cmd_a_i;
  assign b_re_o = cmd_valid_i && reads_b(cmd_op_i);
  assign b_raddr_o = cmd_b_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ex_valid_q <= 1'b0;
      wb_valid_q <= 1'b0;
    end else begin
      ex_valid_q <= cmd_valid_i;
      wb_valid_q <= ex_valid_q;
    end
  end

  always_ff @(posedge clk_i) begin
    if (cmd_valid_i) begin
      ex_op_q <= cmd_op_i;
      ex_d_q <= cmd_d_i;
      ex_fs_q <= cmd_fs_i;
      ex_fval_q <= cmd_fval_i;
    end
  end

  // EX: compute. Only the selected operation's arithmetic is evaluated, and only when EX holds work.
  // A lane has one unit per operation, shared by the VV and VF forms (a VF instruction's second operand
  // is the FP register value). Written twice, like the PEs of systolic_array: for simulation one loop over
  // the lanes and the tree (Verilator then emits each unit once), for synthesis (the macro SYNTHESIS,
  // which yosys defines) one block per lane; scripts/compare_systolic_rtl.sh --synthesis-form checks that
  // they agree.
  wire red_max = ex_op_q == systolic_isa_pkg::OP_V_RED_MAX;
  logic with_fval;
  always_comb begin
    case (ex_op_q)
      systolic_isa_pkg::OP_V_ADD_VF, systolic_isa_pkg::OP_V_SUB_VF, systolic_isa_pkg::OP_V_MUL_VF,
      systolic_isa_pkg::OP_V_MAX_VF, systolic_isa_pkg::OP_V_MIN_VF, systolic_isa_pkg::OP_V_EXP_VF:
        with_fval = 1'b1;
      systolic_isa_pkg::OP_V_MUL_VFV: with_fval = HAS_V_MUL_VFV != 0;
      default: with_fval = 1'b0;
    endcase
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (ex_valid_q) begin
      logic [15:0] a16 [VLEN];
      logic [15:0] b16 [VLEN];
      logic [15:0] r16 [VLEN];
      logic [31:0] a32, b32, r32;
      logic [31:0] tree [2 * VLEN];
      logic [VLEN*16-1:0] row;
      wb_red_q <= is_reduction(ex_op_q);
      wb_d_q <= ex_d_q;
      wb_fs_q <= ex_fs_q;
      // The lanes are taken out of the rows, and put back, by loops of their own: Verilator unrolls those
      // into fixed word selects, where a select at the computed position of the loop below is a shift
      // across the whole row for every lane.
      for (int unsigned i = 0; i < VLEN; i++) begin
        a16[i] = a_rdata_i[i*16 +: 16];
        b16[i] = b_rdata_i[i*16 +: 16];
      end
      // One loop over the nodes of the reduction tree, leaves first: node VLEN + i is lane i's result,
      // node m < VLEN combines nodes 2m and 2m+1 (reductions only), so tree[1] is the sum or maximum of all
      // lanes. (One loop rather than one per level or per lane: Verilator then emits each unit once.)
      for (int unsigned m = 2 * VLEN - 1; m >= 1; m--) begin
        if (m >= VLEN) begin
          a32 = kc_fp_pkg::bf16_to_fp32(a16[m - VLEN]);
          b32 = with_fval ? ex_fval_q : kc_fp_pkg::bf16_to_fp32(b16[m - VLEN]);
          case (ex_op_q)
            systolic_isa_pkg::OP_V_ADD_VV, systolic_isa_pkg::OP_V_ADD_VF: r32 = kc_fp_pkg::fp32_add(a32, b32);
            systolic_isa_pkg::OP_V_SUB_VV, systolic_isa_pkg::OP_V_SUB_VF: r32 = kc_fp_pkg::fp32_sub(a32, b32);
            systolic_isa_pkg::OP_V_MUL_VV, systolic_isa_pkg::OP_V_MUL_VF: r32 = kc_fp_pkg::fp32_mul(a32, b32);
            // (a * fs) rounded to BF16, times b: exactly V_MUL_VF then V_MUL_VV (bf16_mul is fp32_mul of
            // the two widened BF16 values).
            systolic_isa_pkg::OP_V_MUL_VFV:
              r32 = HAS_V_MUL_VFV != 0
                  ? kc_fp_pkg::bf16_mul(kc_fp_pkg::fp32_to_bf16(kc_fp_pkg::fp32_mul(a32, b32)), b16[m - VLEN])
                  : a32;
            systolic_isa_pkg::OP_V_MAX_VV, systolic_isa_pkg::OP_V_MAX_VF: r32 = kc_fp_pkg::fp32_max(a32, b32);
            systolic_isa_pkg::OP_V_MIN_VV, systolic_isa_pkg::OP_V_MIN_VF: r32 = kc_fp_pkg::fp32_min(a32, b32);
            systolic_isa_pkg::OP_V_EXP_V, systolic_isa_pkg::OP_V_EXP_VF:
              r32 = kc_fp_pkg::fp32_exp(with_fval ? kc_fp_pkg::fp32_sub(a32, b32) : a32);
            systolic_isa_pkg::OP_V_RECI_V: r32 = kc_fp_pkg::fp32_reci(a32);
            systolic_isa_pkg::OP_V_RSQRT_V: r32 = kc_fp_pkg::fp32_rsqrt(a32);
            systolic_isa_pkg::OP_V_BCAST_F: r32 = ex_fval_q;
            systolic_isa_pkg::OP_V_RED_DOT: r32 = kc_fp_pkg::bf16_mul(a16[m - VLEN], b16[m - VLEN]);
            default: r32 = a32;  // V_RED_SUM, V_RED_MAX reduce the lanes themselves
          endcase
          tree[m] = r32;
          r16[m - VLEN] = kc_fp_pkg::fp32_to_bf16(r32);
        end else if (is_reduction(ex_op_q)) begin
          tree[m] = red_max ? kc_fp_pkg::fp32_max(tree[2 * m], tree[2 * m + 1])
                            : kc_fp_pkg::fp32_add(tree[2 * m], tree[2 * m + 1]);
        end
      end
      for (int unsigned i = 0; i < VLEN; i++) row[i*16 +: 16] = r16[i];
      wb_row_q <= row;
      if (is_reduction(ex_op_q)) begin
        wb_fval_q <= red_max ? kc_fp_pkg::fp32_max(ex_fval_q, tree[1])
                             : kc_fp_pkg::fp32_add(ex_fval_q, tree[1]);
      end
    end
  end
`else
  // Synthesis form: each lane is its own small block (yosys's proc is quadratic in a process's size; the
  // loop above, unrolled, is most of the unit's synthesis time), the reduction tree one loop as above.
  logic [VLEN*32-1:0] lane_r32;  // lane i's FP32 result at [i*32 +: 32]
  logic [VLEN*16-1:0] row;       // rounded to BF16
  wire ex_reduction = is_reduction(ex_op_q);

  for (genvar i = 0; i < VLEN; i++) begin : g_lane
    logic [31:0] r32;
    logic [15:0] r16;
    always_comb begin
      logic [15:0] a16, b16;
      logic [31:0] a32, b32;
      a16 = a_rdata_i[i*16 +: 16];
      b16 = b_rdata_i[i*16 +: 16];
      a32 = kc_fp_pkg::bf16_to_fp32(a16);
      b32 = with_fval ? ex_fval_q : kc_fp_pkg::bf16_to_fp32(b16);
      r32 = '0;
      r16 = '0;
      if (ex_valid_q) begin
        case (ex_op_q)
          systolic_isa_pkg::OP_V_ADD_VV, systolic_isa_pkg::OP_V_ADD_VF: r32 = kc_fp_pkg::fp32_add(a32, b32);
          systolic_isa_pkg::OP_V_SUB_VV, systolic_isa_pkg::OP_V_SUB_VF: r32 = kc_fp_pkg::fp32_sub(a32, b32);
          systolic_isa_pkg::OP_V_MUL_VV, systolic_isa_pkg::OP_V_MUL_VF: r32 = kc_fp_pkg::fp32_mul(a32, b32);
          systolic_isa_pkg::OP_V_MUL_VFV:
            r32 = HAS_V_MUL_VFV != 0
                ? kc_fp_pkg::bf16_mul(kc_fp_pkg::fp32_to_bf16(kc_fp_pkg::fp32_mul(a32, b32)), b16)
                : a32;
          systolic_isa_pkg::OP_V_MAX_VV, systolic_isa_pkg::OP_V_MAX_VF: r32 = kc_fp_pkg::fp32_max(a32, b32);
          systolic_isa_pkg::OP_V_MIN_VV, systolic_isa_pkg::OP_V_MIN_VF: r32 = kc_fp_pkg::fp32_min(a32, b32);
          systolic_isa_pkg::OP_V_EXP_V, systolic_isa_pkg::OP_V_EXP_VF:
            r32 = kc_fp_pkg::fp32_exp(with_fval ? kc_fp_pkg::fp32_sub(a32, b32) : a32);
          systolic_isa_pkg::OP_V_RECI_V: r32 = kc_fp_pkg::fp32_reci(a32);
          systolic_isa_pkg::OP_V_RSQRT_V: r32 = kc_fp_pkg::fp32_rsqrt(a32);
          systolic_isa_pkg::OP_V_BCAST_F: r32 = ex_fval_q;
          systolic_isa_pkg::OP_V_RED_DOT: r32 = kc_fp_pkg::bf16_mul(a16, b16);
          default: r32 = a32;  // V_RED_SUM, V_RED_MAX reduce the lanes themselves
        endcase
        r16 = kc_fp_pkg::fp32_to_bf16(r32);
      end
    end
    assign lane_r32[i*32 +: 32] = r32;
    assign row[i*16 +: 16] = r16;
  end

  always_ff @(posedge clk_i) begin
    if (ex_valid_q) begin
      wb_red_q <= ex_reduction;
      wb_d_q <= ex_d_q;
      wb_fs_q <= ex_fs_q;
      wb_row_q <= row;
      if (ex_reduction) begin
        logic [31:0] tree [2 * VLEN];
        for (int unsigned m = 2 * VLEN - 1; m >= 1; m--) begin
          if (m >= VLEN) tree[m] = lane_r32[(m - VLEN)*32 +: 32];
          else tree[m] = red_max ? kc_fp_pkg::fp32_max(tree[2 * m], tree[2 * m + 1])
                                 : kc_fp_pkg::fp32_add(tree[2 * m], tree[2 * m + 1]);
        end
        wb_fval_q <= red_max ? kc_fp_pkg::fp32_max(ex_fval_q, tree[1])
                             : kc_fp_pkg::fp32_add(ex_fval_q, tree[1]);
      end
    end
  end
`endif

  assign we_o = wb_valid_q && !wb_red_q;
  assign waddr_o = wb_d_q;
  assign wdata_o = wb_row_q;
  assign fp_we_o = wb_valid_q && wb_red_q;
  assign fp_waddr_o = wb_fs_q;
  assign fp_wdata_o = wb_fval_q;

  assign inflight_vs_we_o = {wb_valid_q && !wb_red_q, ex_valid_q && !is_reduction(ex_op_q)};
  assign inflight_vs_row_o = {wb_d_q, ex_d_q};
  assign inflight_fp_we_o = {wb_valid_q && wb_red_q, ex_valid_q && is_reduction(ex_op_q)};
  assign inflight_fp_reg_o = {wb_fs_q, ex_fs_q};
  assign busy_o = ex_valid_q || wb_valid_q;
endmodule
