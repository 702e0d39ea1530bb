// rvv_fpu: the RV32F floating-point unit of the `rvv` core: every F-extension operation in IEEE 754
// binary32 with RISC-V's choices (canonical NaN, tininess after rounding, saturating conversions,
// minimumNumber/maximumNumber), all five rounding modes, subnormals, and the fflags {NV,DZ,OF,UF,NX}.
//
// Handshake: an operation is accepted on a rising edge where in_valid_i && in_ready_o. The result and
// its flags appear with out_valid_o high for exactly one cycle; there is no output back-pressure (the
// core writes the result back when it comes) and result_o/flags_o hold until the next result.
// Latency, counted in rising edges from the accepting edge to the edge after which out_valid_o is high:
//   - every operation except FDIV.S/FSQRT.S: 1 (result registered; in_ready_o stays high, so one such
//     operation per cycle);
//   - FDIV.S, FSQRT.S: ceil(28 / DivSqrtBitsPerCycle) + 1 (15 for the default 2, 11 for 3, 29 for 1)
//     for all operands; in_ready_o is low from the accepting edge until out_valid_o rises (together),
//     so the core stalls on it and the next operation is accepted on the edge that follows.
// rm_i is a resolved rounding mode (0 RNE, 1 RTZ, 2 RDN, 3 RUP, 4 RMM); the reserved 5..7 round as RNE.
// op_i values above OpMvWX (23) are not operations; they return a_i with no flags.
module rvv_fpu #(
    parameter int unsigned DivSqrtBitsPerCycle = 2
) (
    input  logic             clk_i,
    input  logic             rst_ni,
    input  logic             in_valid_i,
    output logic             in_ready_o,
    input  logic [4:0]       op_i,     // rvv_fpu_pkg::op_e
    input  logic [2:0]       rm_i,
    input  logic [31:0]      a_i,
    input  logic [31:0]      b_i,
    input  logic [31:0]      c_i,
    output logic             out_valid_o,
    output logic [31:0]      result_o,
    output logic [4:0]       flags_o
);
  localparam logic [31:0] One = 32'h3f80_0000;

  logic        is_divsqrt_op;
  logic        accept;
  logic        ds_busy;
  logic        ds_done;
  logic [31:0] ds_result;
  logic [4:0]  ds_flags;
  logic        valid_q;
  logic        from_ds_q;
  logic [36:0] out_q;  // {flags, result}: one register, so that the datapath is written by one assignment

  assign is_divsqrt_op = (op_i == rvv_fpu_pkg::OpDiv) || (op_i == rvv_fpu_pkg::OpSqrt);
  assign in_ready_o = !ds_busy;
  assign accept = in_valid_i && in_ready_o;

  // Every one-cycle operation: the fused multiply-add datapath (OpAdd = 0 ... OpNmadd = 6, one datapath
  // with operands prepared here: sign flips are exact, also on NaNs) or the others. Returns {flags, result}.
  function automatic logic [36:0] one_cycle(input logic [4:0] op, input logic [2:0] rm, input logic [31:0] a,
                                            input logic [31:0] b, input logic [31:0] c);
    logic [31:0] fma_a;
    logic [31:0] fma_b;
    logic [31:0] fma_c;
    fma_a = a;
    fma_b = b;
    fma_c = c;
    unique case (op)
      rvv_fpu_pkg::OpAdd: begin fma_b = One; fma_c = b; end
      rvv_fpu_pkg::OpSub: begin fma_b = One; fma_c = {!b[31], b[30:0]}; end
      // The zero addend takes the product's sign: x*y + (sign(x*y) 0) is x*y, zeros included.
      rvv_fpu_pkg::OpMul: fma_c = {a[31] ^ b[31], 31'd0};
      rvv_fpu_pkg::OpMsub: fma_c = {!c[31], c[30:0]};
      rvv_fpu_pkg::OpNmsub: fma_a = {!a[31], a[30:0]};
      rvv_fpu_pkg::OpNmadd: begin fma_a = {!a[31], a[30:0]}; fma_c = {!c[31], c[30:0]}; end
      default: ;
    endcase
    if (op <= rvv_fpu_pkg::OpNmadd) one_cycle = rvv_fpu_fma_pkg::fma(fma_a, fma_b, fma_c, rm);
    else one_cycle = rvv_fpu_misc_pkg::misc(op, a, b, rm);
  endfunction

  rvv_fpu_divsqrt #(.BitsPerCycle(DivSqrtBitsPerCycle)) u_divsqrt (
      .clk_i(clk_i), .rst_ni(rst_ni), .start_i(accept && is_divsqrt_op), .is_sqrt_i(op_i == rvv_fpu_pkg::OpSqrt),
      .a_i(a_i), .b_i(b_i), .rm_i(rm_i), .busy_o(ds_busy), .done_o(ds_done), .result_o(ds_result),
      .flags_o(ds_flags));

  // The one-cycle datapath computes inside the clocked block, for an accepted operation only (operand
  // isolation: in hardware the same logic in front of the result register, idle without toggling; in
  // simulation the idle FPUs of the vector lanes cost nothing). from_ds_q selects the divider's result
  // register: from the acceptance of a division or square root until the next operation is accepted, so
  // that result_o holds after out_valid_o falls.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
      from_ds_q <= 1'b0;
      out_q <= '0;
    end else begin
      valid_q <= accept && !is_divsqrt_op;
      if (accept) from_ds_q <= is_divsqrt_op;
      if (accept && !is_divsqrt_op) out_q <= one_cycle(op_i, rm_i, a_i, b_i, c_i);
    end
  end

  assign out_valid_o = valid_q || ds_done;
  assign result_o = from_ds_q ? ds_result : out_q[31:0];
  assign flags_o = from_ds_q ? ds_flags : out_q[36:32];
endmodule
