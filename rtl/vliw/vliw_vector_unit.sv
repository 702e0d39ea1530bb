// The vec slot's datapath: one vector or accumulator op on VLEN lanes.
//
// Combinational: it computes the result from the operands read at issue, and vliw_result_pipe holds it
// until its latency (isa/vliw.yaml) has passed. The documented latencies are the pipeline depth a
// synthesis flow retimes this logic into; what the architecture guarantees is only when the result lands.
// Every lane is computed with the shared arithmetic (kc_fp_pkg, the twin of isa/common/arith), so the
// results are bit for bit those of the functional model.
module vliw_vector_unit #(
  parameter int unsigned VLEN = 16
) (
  input  logic [6:0]          op_i,
  input  logic [5:0]          imm_i,   // V_BCL lane, V_SHUF mode, V_ALIGN shift
  input  logic [VLEN*16-1:0]  va_i,    // BF16 lane i at [16*i +: 16]
  input  logic [VLEN*16-1:0]  vb_i,
  input  logic [VLEN*32-1:0]  as_i,    // FP32 lane i at [32*i +: 32]
  input  logic [VLEN*32-1:0]  at_i,
  input  logic [VLEN*32-1:0]  ad_i,    // the destination accumulator (A_VMAC, A_MMAC, A_MMUL's spare lanes)
  input  logic [31:0]         rs_i,    // scalar operand (V_BCST, A_BCST)
  output logic [VLEN*32-1:0]  result_o,  // vector results in the low 16 bits of each lane
  output logic                to_acc_o   // the result goes to an accumulator
);
  // The matrix-multiply shape: M = N = the largest power of two whose square is at most VLEN.
  function automatic int unsigned mmul_side(input int unsigned lanes);
    int unsigned m;
    m = 1;
    for (int unsigned k = 0; k < 8; k++) begin
      if ((2 * m) * (2 * m) <= lanes) m = 2 * m;
    end
    mmul_side = m;
  endfunction
  localparam int unsigned MM_M = mmul_side(VLEN);
  localparam int unsigned MM_N = MM_M;
  localparam int unsigned MM_K = VLEN / MM_M;
  localparam int unsigned HALF = VLEN / 2;
  localparam int unsigned LW = $clog2(VLEN);

  logic [31:0] tree [2*VLEN];  // A_RSUM: leaves at VLEN.., the sum at 1
  logic [31:0] vmax, amax, sum;
  logic [LW-1:0] lane_sel;
  wire unused_imm = ^imm_i;  // only imm mod VLEN selects a lane

  // The operations with FP arithmetic per lane are computed in blocks of their own, each only when its
  // operation is selected: in one block, yosys's proc took minutes (its mux trees grow with the square
  // of a block's size).
  logic [VLEN*32-1:0] r_vbin;
  always_comb begin
    logic [15:0] a16 [VLEN];  // declared here with defaults: no latches
    logic [15:0] b16 [VLEN];
    logic [15:0] r16 [VLEN];
    logic [31:0] x, y, r;
    x = '0;
    y = '0;
    r = '0;
    r_vbin = '0;
    for (int unsigned i = 0; i < VLEN; i++) begin
      a16[i] = '0;
      b16[i] = '0;
      r16[i] = '0;
    end
    if (op_i == vliw_isa_pkg::OP_V_ADD || op_i == vliw_isa_pkg::OP_V_SUB ||
        op_i == vliw_isa_pkg::OP_V_MUL || op_i == vliw_isa_pkg::OP_V_MAX || op_i == vliw_isa_pkg::OP_V_MIN) begin
      // The lanes are taken out of the rows, and put back, by loops of their own: Verilator unrolls those
      // into fixed word selects, where a select at the computed position of the lane loop is a shift
      // across the whole row for every lane.
      for (int unsigned i = 0; i < VLEN; i++) begin
        a16[i] = va_i[16*i +: 16];
        b16[i] = vb_i[16*i +: 16];
      end
      for (int unsigned i = 0; i < VLEN; i++) begin
        x = kc_fp_pkg::bf16_to_fp32(a16[i]);
        y = kc_fp_pkg::bf16_to_fp32(b16[i]);
        case (op_i)
          vliw_isa_pkg::OP_V_ADD: r = kc_fp_pkg::fp32_add(x, y);
          vliw_isa_pkg::OP_V_SUB: r = kc_fp_pkg::fp32_sub(x, y);
          vliw_isa_pkg::OP_V_MUL: r = kc_fp_pkg::fp32_mul(x, y);
          vliw_isa_pkg::OP_V_MAX: r = kc_fp_pkg::fp32_max(x, y);
          default: r = kc_fp_pkg::fp32_min(x, y);
        endcase
        r16[i] = kc_fp_pkg::fp32_to_bf16(r);
      end
      for (int unsigned i = 0; i < VLEN; i++) r_vbin[32*i +: 32] = {16'd0, r16[i]};
    end
  end

  logic [VLEN*32-1:0] r_vmul;
  always_comb begin
    r_vmul = '0;
    if (op_i == vliw_isa_pkg::OP_A_VMUL) begin
      for (int unsigned i = 0; i < VLEN; i++)
        r_vmul[32*i +: 32] = kc_fp_pkg::bf16_mul(va_i[16*i +: 16], vb_i[16*i +: 16]);
    end
  end

  logic [VLEN*32-1:0] r_vmac;
  always_comb begin
    r_vmac = '0;
    if (op_i == vliw_isa_pkg::OP_A_VMAC) begin
      for (int unsigned i = 0; i < VLEN; i++)
        r_vmac[32*i +: 32] = kc_fp_pkg::bf16_mac(ad_i[32*i +: 32], va_i[16*i +: 16], vb_i[16*i +: 16]);
    end
  end

  logic [VLEN*32-1:0] r_mm;
  always_comb begin
    logic [31:0] acc;
    acc = '0;
    r_mm = '0;
    if (op_i == vliw_isa_pkg::OP_A_MMUL || op_i == vliw_isa_pkg::OP_A_MMAC) begin
      r_mm = ad_i;  // lanes outside the M x N result tile keep their value
      for (int unsigned m = 0; m < MM_M; m++) begin
        for (int unsigned n = 0; n < MM_N; n++) begin
          acc = (op_i == vliw_isa_pkg::OP_A_MMAC) ? ad_i[32*(m*MM_N+n) +: 32] : 32'd0;
          for (int unsigned k = 0; k < MM_K; k++)
            acc = kc_fp_pkg::bf16_mac(acc, va_i[16*(m*MM_K+k) +: 16], vb_i[16*(k*MM_N+n) +: 16]);
          r_mm[32*(m*MM_N+n) +: 32] = acc;
        end
      end
    end
  end

  logic [VLEN*32-1:0] r_abin;
  always_comb begin
    r_abin = '0;
    if (op_i == vliw_isa_pkg::OP_A_ADD || op_i == vliw_isa_pkg::OP_A_SUB ||
        op_i == vliw_isa_pkg::OP_A_MUL || op_i == vliw_isa_pkg::OP_A_MAX) begin
      for (int unsigned i = 0; i < VLEN; i++) begin
        case (op_i)
          vliw_isa_pkg::OP_A_ADD: r_abin[32*i +: 32] = kc_fp_pkg::fp32_add(as_i[32*i +: 32], at_i[32*i +: 32]);
          vliw_isa_pkg::OP_A_SUB: r_abin[32*i +: 32] = kc_fp_pkg::fp32_sub(as_i[32*i +: 32], at_i[32*i +: 32]);
          vliw_isa_pkg::OP_A_MUL: r_abin[32*i +: 32] = kc_fp_pkg::fp32_mul(as_i[32*i +: 32], at_i[32*i +: 32]);
          default: r_abin[32*i +: 32] = kc_fp_pkg::fp32_max(as_i[32*i +: 32], at_i[32*i +: 32]);
        endcase
      end
    end
  end

  logic [VLEN*32-1:0] r_exp;
  always_comb begin
    r_exp = '0;
    if (op_i == vliw_isa_pkg::OP_A_EXP) begin
      for (int unsigned i = 0; i < VLEN; i++) r_exp[32*i +: 32] = kc_fp_pkg::fp32_exp(as_i[32*i +: 32]);
    end
  end

  logic [VLEN*32-1:0] r_reci;
  always_comb begin
    r_reci = '0;
    if (op_i == vliw_isa_pkg::OP_A_RECI) begin
      for (int unsigned i = 0; i < VLEN; i++) r_reci[32*i +: 32] = kc_fp_pkg::fp32_reci(as_i[32*i +: 32]);
    end
  end

  logic [VLEN*32-1:0] r_rsqrt;
  always_comb begin
    r_rsqrt = '0;
    if (op_i == vliw_isa_pkg::OP_A_RSQRT) begin
      for (int unsigned i = 0; i < VLEN; i++) r_rsqrt[32*i +: 32] = kc_fp_pkg::fp32_rsqrt(as_i[32*i +: 32]);
    end
  end

  always_comb begin
    result_o = '0;
    to_acc_o = 1'b0;
    lane_sel = LW'(imm_i);  // imm mod VLEN (VLEN is a power of two)
    for (int unsigned i = 0; i < 2 * VLEN; i++) tree[i] = '0;
    vmax = '0;
    amax = '0;
    sum = '0;
    case (op_i)
      vliw_isa_pkg::OP_V_ADD, vliw_isa_pkg::OP_V_SUB, vliw_isa_pkg::OP_V_MUL, vliw_isa_pkg::OP_V_MAX,
      vliw_isa_pkg::OP_V_MIN: begin
        result_o = r_vbin;
      end
      vliw_isa_pkg::OP_V_BCST: begin
        for (int unsigned i = 0; i < VLEN; i++) result_o[32*i +: 32] = {16'd0, kc_fp_pkg::fp32_to_bf16(rs_i)};
      end
      vliw_isa_pkg::OP_V_BCL: begin
        for (int unsigned i = 0; i < VLEN; i++) result_o[32*i +: 32] = {16'd0, va_i[16*lane_sel +: 16]};
      end
      vliw_isa_pkg::OP_V_SHUF: begin
        for (int unsigned i = 0; i < VLEN; i++) begin
          case (imm_i[1:0])
            2'd0: result_o[32*i +: 32] = {16'd0, (i % 2 == 0) ? va_i[16*(i/2) +: 16] : vb_i[16*(i/2) +: 16]};
            2'd1:
              result_o[32*i +: 32] =
                  {16'd0, (i % 2 == 0) ? va_i[16*(HALF+i/2) +: 16] : vb_i[16*(HALF+i/2) +: 16]};
            2'd2:
              result_o[32*i +: 32] = {16'd0, (i < HALF) ? va_i[16*((2*i) % VLEN) +: 16]
                                                        : vb_i[16*((2*i) % VLEN) +: 16]};
            default:
              result_o[32*i +: 32] = {16'd0, (i < HALF) ? va_i[16*((2*i+1) % VLEN) +: 16]
                                                        : vb_i[16*((2*i+1) % VLEN) +: 16]};
          endcase
        end
      end
      vliw_isa_pkg::OP_V_ALIGN: begin
        for (int unsigned i = 0; i < VLEN; i++) begin
          logic [LW:0] at;
          at = (LW+1)'(i) + {1'b0, lane_sel};
          result_o[32*i +: 32] = {16'd0, at[LW] ? vb_i[16*at[LW-1:0] +: 16] : va_i[16*at[LW-1:0] +: 16]};
        end
      end
      vliw_isa_pkg::OP_V_RMAX: begin
        vmax = kc_fp_pkg::bf16_to_fp32(va_i[15:0]);
        for (int unsigned i = 1; i < VLEN; i++)
          vmax = kc_fp_pkg::fp32_max(vmax, kc_fp_pkg::bf16_to_fp32(va_i[16*i +: 16]));
        for (int unsigned i = 0; i < VLEN; i++) result_o[32*i +: 32] = {16'd0, kc_fp_pkg::fp32_to_bf16(vmax)};
      end
      vliw_isa_pkg::OP_V_SRS: begin
        for (int unsigned i = 0; i < VLEN; i++)
          result_o[32*i +: 32] = {16'd0, kc_fp_pkg::fp32_to_bf16(as_i[32*i +: 32])};
      end
      vliw_isa_pkg::OP_A_UPS: begin
        to_acc_o = 1'b1;
        for (int unsigned i = 0; i < VLEN; i++) result_o[32*i +: 32] = kc_fp_pkg::bf16_to_fp32(va_i[16*i +: 16]);
      end
      vliw_isa_pkg::OP_A_VMUL: begin
        to_acc_o = 1'b1;
        result_o = r_vmul;
      end
      vliw_isa_pkg::OP_A_VMAC: begin
        to_acc_o = 1'b1;
        result_o = r_vmac;
      end
      vliw_isa_pkg::OP_A_MMUL, vliw_isa_pkg::OP_A_MMAC: begin
        to_acc_o = 1'b1;
        result_o = r_mm;
      end
      vliw_isa_pkg::OP_A_ADD, vliw_isa_pkg::OP_A_SUB, vliw_isa_pkg::OP_A_MUL, vliw_isa_pkg::OP_A_MAX: begin
        to_acc_o = 1'b1;
        result_o = r_abin;
      end
      vliw_isa_pkg::OP_A_EXP: begin
        to_acc_o = 1'b1;
        result_o = r_exp;
      end
      vliw_isa_pkg::OP_A_RECI: begin
        to_acc_o = 1'b1;
        result_o = r_reci;
      end
      vliw_isa_pkg::OP_A_RSQRT: begin
        to_acc_o = 1'b1;
        result_o = r_rsqrt;
      end
      vliw_isa_pkg::OP_A_RSUM: begin
        to_acc_o = 1'b1;
        for (int unsigned i = 0; i < VLEN; i++) tree[VLEN+i] = as_i[32*i +: 32];
        for (int unsigned j = VLEN - 1; j >= 1; j--) tree[j] = kc_fp_pkg::fp32_add(tree[2*j], tree[2*j+1]);
        sum = tree[1];
        for (int unsigned i = 0; i < VLEN; i++) result_o[32*i +: 32] = sum;
      end
      vliw_isa_pkg::OP_A_RMAX: begin
        to_acc_o = 1'b1;
        amax = as_i[31:0];
        for (int unsigned i = 1; i < VLEN; i++) amax = kc_fp_pkg::fp32_max(amax, as_i[32*i +: 32]);
        for (int unsigned i = 0; i < VLEN; i++) result_o[32*i +: 32] = amax;
      end
      vliw_isa_pkg::OP_A_BCST: begin
        to_acc_o = 1'b1;
        for (int unsigned i = 0; i < VLEN; i++) result_o[32*i +: 32] = rs_i;
      end
      default: ;
    endcase
  end
endmodule
