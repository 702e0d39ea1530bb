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

  // One operation: {cmp, result}. A function, called only while en_i is high, so that an idle slot costs
  // the simulation one test (Verilator evaluates every combinational block on every clock; the
  // temporaries of separate blocks would be cleared on every clock too).
  function automatic logic [W:0] compute(input logic [4:0] op, input logic [W:0] a, input logic [W:0] b,
                                         input logic [W:0] c, input logic mask, input logic [4:0] sh_mask,
                                         input logic [1:0] sew);
    logic signed [W:0]    sa;
    logic signed [W:0]    sb;
    logic signed [W:0]    sc;
    logic signed [PW-1:0] prod;
    logic [W-1:0]         prod_hi;
    logic [4:0]           sh;
    logic [W-1:0]         res;
    logic                 cmp;
    sa = $signed(a);
    sb = $signed(b);
    sc = $signed(c);
    sh = b[4:0] & sh_mask;
    res = '0;
    cmp = 1'b0;
    unique case (op)
      rvv_vpu_pkg::AluAdd: res = W'(a + b);
      rvv_vpu_pkg::AluSub: res = W'(a - b);
      rvv_vpu_pkg::AluRsub: res = W'(b - a);
      rvv_vpu_pkg::AluMin: res = (sa < sb) ? a[W-1:0] : b[W-1:0];
      rvv_vpu_pkg::AluMax: res = (sa > sb) ? a[W-1:0] : b[W-1:0];
      rvv_vpu_pkg::AluAnd: res = a[W-1:0] & b[W-1:0];
      rvv_vpu_pkg::AluOr: res = a[W-1:0] | b[W-1:0];
      rvv_vpu_pkg::AluXor: res = a[W-1:0] ^ b[W-1:0];
      rvv_vpu_pkg::AluSll: res = a[W-1:0] << sh;
      rvv_vpu_pkg::AluSr: res = W'(sa >>> sh);
      rvv_vpu_pkg::AluMul, rvv_vpu_pkg::AluMulh, rvv_vpu_pkg::AluMacc, rvv_vpu_pkg::AluNmsac: begin
        prod = PW'(sa) * PW'(sb);
        prod_hi = W'(prod >>> (6'd8 << sew));
        unique case (op)
          rvv_vpu_pkg::AluMul: res = prod[W-1:0];
          rvv_vpu_pkg::AluMulh: res = prod_hi;
          rvv_vpu_pkg::AluMacc: res = W'(c + prod[W:0]);
          default: res = W'(c - prod[W:0]);  // AluNmsac
        endcase
      end
      rvv_vpu_pkg::AluMadd, rvv_vpu_pkg::AluNmsub: begin
        prod = PW'(sb) * PW'(sc);
        res = op == rvv_vpu_pkg::AluMadd ? W'(a + prod[W:0]) : W'(a - prod[W:0]);
      end
      // The extended operands make the signed overflow case (-2^(SEW-1) / -1) come out as RISC-V wants
      // once truncated to SEW; only division by zero needs its own result. Only 32-bit slots divide.
      rvv_vpu_pkg::AluDiv: if (HasDiv) res = b == '0 ? '1 : W'($unsigned(sa / sb));
      rvv_vpu_pkg::AluRem: if (HasDiv) res = b == '0 ? a[W-1:0] : W'($unsigned(sa % sb));
      rvv_vpu_pkg::AluSeq: cmp = a == b;
      rvv_vpu_pkg::AluSne: cmp = a != b;
      rvv_vpu_pkg::AluSlt: cmp = sa < sb;
      rvv_vpu_pkg::AluSle: cmp = sa <= sb;
      rvv_vpu_pkg::AluSgt: cmp = sa > sb;
      rvv_vpu_pkg::AluMerge: res = mask ? b[W-1:0] : a[W-1:0];
      rvv_vpu_pkg::AluMovB: res = b[W-1:0];
      default: res = a[W-1:0];  // AluMovA; AluId and AluIota are formed by the caller
    endcase
    compute = {cmp, res};
  endfunction

  // {cmp, result}: one variable, so the call is evaluated once (Verilator 5.006 evaluates a call once per
  // part of a concatenated target).
  logic [W:0] out;
  always_comb begin
    out = '0;
    if (en_i) out = compute(op_i, a_i, b_i, c_i, mask_i, sh_mask_i, sew_i);
  end
  assign result_o = out[W-1:0];
  assign cmp_o = out[W];
endmodule
