// rvv_vpu_alu: the integer datapath of one element slot of the vector unit, W bits wide (32, 16 or 8:
// a 32-bit lane holds one 32-bit slot, or that slot plus narrower ones at SEW 16 and 8).
//
// The operands come extended to W+1 bits (sign- or zero-extended from their element width, as the
// instruction says), so one signed datapath gives the signed and unsigned forms and the widening ones:
// the caller keeps the low bits of result_o that its destination element needs. Division exists only in
// 32-bit slots (HasDiv): the sequencer runs divisions at one element per 32-bit lane. While en_i is low
// (no integer beat) the outputs are 0 and nothing is computed; the multipliers and the divider compute
// only for the operations that use them (operand isolation: in simulation the idle datapath is free).
module rvv_vpu_alu #(
  parameter int unsigned W = 32,
  parameter bit HasDiv = 1'b1
) (
  input  logic         en_i,        // an integer beat runs this cycle
  input  logic [4:0]   op_i,        // rvv_vpu_pkg::Alu*
  input  logic [W:0]   a_i,         // vs2 (extended)
  input  logic [W:0]   b_i,         // vs1 / scalar / immediate (extended)
  input  logic [W:0]   c_i,         // the old destination element (multiply-add)
  input  logic         mask_i,      // v0 bit of the element (vmerge)
  input  logic [4:0]   sh_mask_i,   // shift amounts use b & sh_mask (SEW-1, or 2*SEW-1 when narrowing)
  input  logic [1:0]   sew_i,       // log2 bytes of the operation's SEW (the mulh shift)
  output logic [W-1:0] result_o,
  output logic         cmp_o
);
  localparam int unsigned PW = 2 * W + 2;

  logic signed [W:0]    sa;
  logic signed [W:0]    sb;
  logic signed [W:0]    sc;
  logic signed [PW-1:0] prod_ab;
  logic signed [PW-1:0] prod_bc;
  logic [PW-1:0]        prod_hi;
  logic [4:0]           sh;
  logic [W:0]           quo;
  logic [W:0]           rem;

  assign sa = $signed(a_i);
  assign sb = $signed(b_i);
  assign sc = $signed(c_i);
  assign sh = b_i[4:0] & sh_mask_i;
  wire uses_ab = op_i == rvv_vpu_pkg::AluMul || op_i == rvv_vpu_pkg::AluMulh || op_i == rvv_vpu_pkg::AluMacc ||
                 op_i == rvv_vpu_pkg::AluNmsac;
  wire uses_bc = op_i == rvv_vpu_pkg::AluMadd || op_i == rvv_vpu_pkg::AluNmsub;
  wire uses_div = op_i == rvv_vpu_pkg::AluDiv || op_i == rvv_vpu_pkg::AluRem;

  always_comb begin
    prod_ab = '0;
    prod_bc = '0;
    prod_hi = '0;
    if (en_i && uses_ab) begin
      prod_ab = PW'(sa) * PW'(sb);
      prod_hi = prod_ab >>> (6'd8 << sew_i);
    end
    if (en_i && uses_bc) prod_bc = PW'(sb) * PW'(sc);
  end

  if (HasDiv) begin : g_div
    // The extended operands make the signed overflow case (-2^(SEW-1) / -1) come out as RISC-V wants
    // once truncated to SEW; only division by zero needs its own result.
    always_comb begin
      quo = '0;
      rem = '0;
      if (en_i && uses_div) begin
        if (b_i == '0) begin
          quo = '1;
          rem = a_i;
        end else begin
          quo = $unsigned(sa / sb);
          rem = $unsigned(sa % sb);
        end
      end
    end
  end else begin : g_no_div
    assign quo = '0;
    assign rem = '0;
    logic unused_div;
    assign unused_div = uses_div;
  end

  always_comb begin
    result_o = '0;
    cmp_o = 1'b0;
    if (en_i) unique case (op_i)
      rvv_vpu_pkg::AluAdd: result_o = W'(a_i + b_i);
      rvv_vpu_pkg::AluSub: result_o = W'(a_i - b_i);
      rvv_vpu_pkg::AluRsub: result_o = W'(b_i - a_i);
      rvv_vpu_pkg::AluMin: result_o = (sa < sb) ? a_i[W-1:0] : b_i[W-1:0];
      rvv_vpu_pkg::AluMax: result_o = (sa > sb) ? a_i[W-1:0] : b_i[W-1:0];
      rvv_vpu_pkg::AluAnd: result_o = a_i[W-1:0] & b_i[W-1:0];
      rvv_vpu_pkg::AluOr: result_o = a_i[W-1:0] | b_i[W-1:0];
      rvv_vpu_pkg::AluXor: result_o = a_i[W-1:0] ^ b_i[W-1:0];
      rvv_vpu_pkg::AluSll: result_o = a_i[W-1:0] << sh;
      rvv_vpu_pkg::AluSr: result_o = W'(sa >>> sh);
      rvv_vpu_pkg::AluMul: result_o = prod_ab[W-1:0];
      rvv_vpu_pkg::AluMulh: result_o = prod_hi[W-1:0];
      rvv_vpu_pkg::AluMacc: result_o = W'(c_i + prod_ab[W:0]);
      rvv_vpu_pkg::AluNmsac: result_o = W'(c_i - prod_ab[W:0]);
      rvv_vpu_pkg::AluMadd: result_o = W'(a_i + prod_bc[W:0]);
      rvv_vpu_pkg::AluNmsub: result_o = W'(a_i - prod_bc[W:0]);
      rvv_vpu_pkg::AluDiv: result_o = quo[W-1:0];
      rvv_vpu_pkg::AluRem: result_o = rem[W-1:0];
      rvv_vpu_pkg::AluSeq: cmp_o = a_i == b_i;
      rvv_vpu_pkg::AluSne: cmp_o = a_i != b_i;
      rvv_vpu_pkg::AluSlt: cmp_o = sa < sb;
      rvv_vpu_pkg::AluSle: cmp_o = sa <= sb;
      rvv_vpu_pkg::AluSgt: cmp_o = sa > sb;
      rvv_vpu_pkg::AluMerge: result_o = mask_i ? b_i[W-1:0] : a_i[W-1:0];
      rvv_vpu_pkg::AluMovB: result_o = b_i[W-1:0];
      default: result_o = a_i[W-1:0];  // AluMovA; AluId and AluIota are formed by the caller
    endcase
  end
  logic unused;
  assign unused = ^{prod_bc[PW-1:W+1], prod_hi[PW-1:W], quo[W], rem[W]};
endmodule
