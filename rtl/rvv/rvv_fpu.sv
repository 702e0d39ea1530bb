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

  logic [31:0] fma_a;
  logic [31:0] fma_b;
  logic [31:0] fma_c;
  logic [31:0] fma_result;
  logic [4:0]  fma_flags;
  logic [31:0] misc_result;
  logic [4:0]  misc_flags;
  logic        is_fma_op;
  logic        is_divsqrt_op;
  logic        accept;
  logic        ds_busy;
  logic        ds_done;
  logic [31:0] ds_result;
  logic [4:0]  ds_flags;
  logic        valid_q, valid_d;
  logic        from_ds_q, from_ds_d;
  logic [31:0] result_q, result_d;
  logic [4:0]  flags_q, flags_d;

  // The fused multiply-add operations are encoded first (OpAdd = 0 ... OpNmadd = 6).
  assign is_fma_op = op_i <= rvv_fpu_pkg::OpNmadd;
  assign is_divsqrt_op = (op_i == rvv_fpu_pkg::OpDiv) || (op_i == rvv_fpu_pkg::OpSqrt);
  assign in_ready_o = !ds_busy;
  assign accept = in_valid_i && in_ready_o;

  // Operand preparation for the one fused multiply-add datapath (sign flips are exact, also on NaNs).
  always_comb begin
    fma_a = a_i;
    fma_b = b_i;
    fma_c = c_i;
    unique case (op_i)
      rvv_fpu_pkg::OpAdd: begin fma_b = One; fma_c = b_i; end
      rvv_fpu_pkg::OpSub: begin fma_b = One; fma_c = {!b_i[31], b_i[30:0]}; end
      // The zero addend takes the product's sign: x*y + (sign(x*y) 0) is x*y, zeros included.
      rvv_fpu_pkg::OpMul: fma_c = {a_i[31] ^ b_i[31], 31'd0};
      rvv_fpu_pkg::OpMsub: fma_c = {!c_i[31], c_i[30:0]};
      rvv_fpu_pkg::OpNmsub: fma_a = {!a_i[31], a_i[30:0]};
      rvv_fpu_pkg::OpNmadd: begin fma_a = {!a_i[31], a_i[30:0]}; fma_c = {!c_i[31], c_i[30:0]}; end
      default: ;
    endcase
  end

  // Only the datapath of an accepted operation computes (operand isolation: in hardware it saves power,
  // in simulation the idle FPUs of the vector lanes cost nothing).
  rvv_fpu_fma u_fma (
      .en_i(accept && is_fma_op), .a_i(fma_a), .b_i(fma_b), .c_i(fma_c), .rm_i(rm_i), .result_o(fma_result), .flags_o(fma_flags));

  rvv_fpu_misc u_misc (
      .en_i(accept && !is_fma_op && !is_divsqrt_op), .op_i(op_i), .a_i(a_i), .b_i(b_i), .rm_i(rm_i), .result_o(misc_result), .flags_o(misc_flags));

  rvv_fpu_divsqrt #(.BitsPerCycle(DivSqrtBitsPerCycle)) u_divsqrt (
      .clk_i(clk_i), .rst_ni(rst_ni), .start_i(accept && is_divsqrt_op), .is_sqrt_i(op_i == rvv_fpu_pkg::OpSqrt),
      .a_i(a_i), .b_i(b_i), .rm_i(rm_i), .busy_o(ds_busy), .done_o(ds_done), .result_o(ds_result),
      .flags_o(ds_flags));

  // from_ds_q selects the divider's result register: from the acceptance of a division or square root
  // until the next operation is accepted, so that result_o holds after out_valid_o falls.
  always_comb begin
    valid_d = accept && !is_divsqrt_op;
    from_ds_d = accept ? is_divsqrt_op : from_ds_q;
    result_d = result_q;
    flags_d = flags_q;
    if (accept && !is_divsqrt_op) begin
      result_d = is_fma_op ? fma_result : misc_result;
      flags_d = is_fma_op ? fma_flags : misc_flags;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
      from_ds_q <= 1'b0;
      result_q <= 32'd0;
      flags_q <= 5'd0;
    end else begin
      valid_q <= valid_d;
      from_ds_q <= from_ds_d;
      result_q <= result_d;
      flags_q <= flags_d;
    end
  end

  assign out_valid_o = valid_q || ds_done;
  assign result_o = from_ds_q ? ds_result : result_q;
  assign flags_o = from_ds_q ? ds_flags : flags_q;
endmodule
