// fp_bench_top: combinational wrapper exposing every kc_fp_pkg function behind an opcode, so a Verilated
// model can be compared against the C++ reference (tests/arith/test_rtl_vs_cpp.cpp) and the package can be
// linted and synthesized as a whole. 16-bit operands use the low half of a_i/b_i; 16-bit results are
// zero-extended. OpBf16Mac takes the accumulator in a_i and its two BF16 factors in b_i[15:0] and b_i[31:16].
module fp_bench_top (
    input  logic [3:0]  op_i,
    input  logic [31:0] a_i,
    input  logic [31:0] b_i,
    output logic [31:0] result_o
);
  // Opcodes; the C++ test mirrors this list.
  localparam logic [3:0] OpAdd = 4'd0;
  localparam logic [3:0] OpSub = 4'd1;
  localparam logic [3:0] OpMul = 4'd2;
  localparam logic [3:0] OpMax = 4'd3;
  localparam logic [3:0] OpMin = 4'd4;
  localparam logic [3:0] OpExp = 4'd5;
  localparam logic [3:0] OpReci = 4'd6;
  localparam logic [3:0] OpRsqrt = 4'd7;
  localparam logic [3:0] OpSqrt = 4'd8;
  localparam logic [3:0] OpBf16ToFp32 = 4'd9;
  localparam logic [3:0] OpFp32ToBf16 = 4'd10;
  localparam logic [3:0] OpInt32ToFp32 = 4'd11;
  localparam logic [3:0] OpBf16Mul = 4'd12;
  localparam logic [3:0] OpBf16Mac = 4'd13;

  always_comb begin
    unique case (op_i)
      OpAdd: result_o = kc_fp_pkg::fp32_add(a_i, b_i);
      OpSub: result_o = kc_fp_pkg::fp32_sub(a_i, b_i);
      OpMul: result_o = kc_fp_pkg::fp32_mul(a_i, b_i);
      OpMax: result_o = kc_fp_pkg::fp32_max(a_i, b_i);
      OpMin: result_o = kc_fp_pkg::fp32_min(a_i, b_i);
      OpExp: result_o = kc_fp_pkg::fp32_exp(a_i);
      OpReci: result_o = kc_fp_pkg::fp32_reci(a_i);
      OpRsqrt: result_o = kc_fp_pkg::fp32_rsqrt(a_i);
      OpSqrt: result_o = kc_fp_pkg::fp32_sqrt(a_i);
      OpBf16ToFp32: result_o = kc_fp_pkg::bf16_to_fp32(a_i[15:0]);
      OpFp32ToBf16: result_o = {16'd0, kc_fp_pkg::fp32_to_bf16(a_i)};
      OpInt32ToFp32: result_o = kc_fp_pkg::int32_to_fp32(a_i);
      OpBf16Mul: result_o = kc_fp_pkg::bf16_mul(a_i[15:0], b_i[15:0]);
      OpBf16Mac: result_o = kc_fp_pkg::bf16_mac(a_i, b_i[15:0], b_i[31:16]);
      default: result_o = 32'd0;
    endcase
  end
endmodule
