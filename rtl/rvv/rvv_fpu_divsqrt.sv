// rvv_fpu_divsqrt: iterative FDIV.S / FSQRT.S, BitsPerCycle result bits per clock (radix-2 restoring
// division and restoring square root, BitsPerCycle steps unrolled per cycle), so that a core stalls on
// it ("FP divide/sqrt" stall cause) instead of paying for an array divider.
//
// Timing (a fact tests/rvv_fpu checks): start_i is sampled on a rising edge with busy_o low; done_o is
// high for exactly one cycle after the Iterations-th rising edge that follows (Iterations =
// Steps / BitsPerCycle, so Iterations + 1 edges counting the sampling one),
// with result_o/flags_o valid while done_o is high and held until the next start. Special operands
// (NaN, inf, zero, negative square root) take the same time: the latency depends only on the parameter.
//
// Both recurrences produce Steps >= 28 bits, at least 25 significant ones (24 + guard), and a nonzero
// remainder becomes the sticky bit, which is all rvv_fpu_round_pkg::round needs for every rounding mode.
//
// The unit computes only what a cycle uses: the start decode when an operation starts and the recurrence
// steps while busy (blocks gated by those conditions), the rounding in the clocked block on the last step
// (in hardware the same logic in front of the registers; in simulation an idle divider costs nothing).
module rvv_fpu_divsqrt #(
    parameter int unsigned BitsPerCycle = 2
) (
    input  logic        clk_i,
    input  logic        rst_ni,
    input  logic        start_i,
    input  logic        is_sqrt_i,
    input  logic [31:0] a_i,
    input  logic [31:0] b_i,
    input  logic [2:0]  rm_i,
    output logic        busy_o,
    output logic        done_o,
    output logic [31:0] result_o,
    output logic [4:0]  flags_o
);
  localparam int unsigned Iterations = (28 + BitsPerCycle - 1) / BitsPerCycle;
  localparam int unsigned Steps = Iterations * BitsPerCycle;
  localparam int unsigned RemWidth = Steps + 2;  // sqrt: remainder <= 2 * root
  localparam int unsigned CountWidth = $clog2(Iterations + 1);

  localparam int unsigned StartBits = 1 + 32 + 5 + 12 + 24 + RemWidth + 2 * Steps;
  localparam int unsigned StepBits = RemWidth + Steps;
  if (Steps > rvv_fpu_round_pkg::Width) begin : g_too_many_steps
    $error("rvv_fpu_divsqrt: BitsPerCycle gives %0d recurrence steps, more than the rounder's %0d bits",
           Steps, rvv_fpu_round_pkg::Width);
  end

  logic                   busy_q;
  logic                   done_q;
  logic [CountWidth-1:0]  count_q;
  logic                   is_sqrt_q;
  logic                   sign_q;
  logic [2:0]             rm_q;
  logic                   special_q;
  logic [36:0]            out_q;       // {flags, result}: one register, written whole
  logic signed [11:0]     lsb_exp_q;   // unbiased exponent of the quotient/root LSB
  logic [23:0]            divisor_q;
  logic [RemWidth-1:0]    rem_q;
  logic [Steps-1:0]       quo_q;       // quotient or root bits so far
  logic [2*Steps-1:0]     radicand_q;

  // What an operation starts with: {special, special flags, special result, lsb_exp, divisor, remainder,
  // radicand}. Special operands are decided here and take the same time as the others.
  function automatic logic [StartBits-1:0] start(input logic is_sqrt, input logic [31:0] a, input logic [31:0] b);
    logic [35:0]        a_unpacked;  // a function's result in one variable: a simulator would evaluate
    logic [35:0]        b_unpacked;  // the call once per part of a concatenated target
    logic [23:0]        mant_a;
    logic [23:0]        mant_b;
    logic signed [11:0] exp_a;
    logic signed [11:0] exp_b;
    logic               special;
    logic [31:0]        special_result;
    logic [4:0]         special_flags;
    logic signed [11:0] lsb_exp;
    logic               sqrt_odd;
    logic signed [11:0] sqrt_exp;    // even exponent of the radicand's LSB
    logic [RemWidth-1:0]  rem;
    logic [2*Steps-1:0]   radicand;
    a_unpacked = rvv_fpu_pkg::unpack(a[30:0]);
    b_unpacked = rvv_fpu_pkg::unpack(b[30:0]);
    {exp_a, mant_a} = a_unpacked;
    {exp_b, mant_b} = b_unpacked;
    special = 1'b1;
    special_result = rvv_fpu_pkg::CanonicalNan;
    special_flags = 5'd0;
    if (is_sqrt) begin
      if (rvv_fpu_pkg::is_nan(a[30:0])) begin
        special_flags[rvv_fpu_pkg::FlagNv] = rvv_fpu_pkg::is_snan(a[30:0]);
      end else if (rvv_fpu_pkg::is_zero(a[30:0])) begin
        special_result = a;                    // sqrt(-0) = -0
      end else if (a[31]) begin
        special_flags[rvv_fpu_pkg::FlagNv] = 1'b1;            // negative, including -inf
      end else if (rvv_fpu_pkg::is_inf(a[30:0])) begin
        special_result = a;
      end else begin
        special = 1'b0;
      end
    end else begin
      if (rvv_fpu_pkg::is_nan(a[30:0]) || rvv_fpu_pkg::is_nan(b[30:0])) begin
        special_flags[rvv_fpu_pkg::FlagNv] = rvv_fpu_pkg::is_snan(a[30:0]) || rvv_fpu_pkg::is_snan(b[30:0]);
      end else if ((rvv_fpu_pkg::is_inf(a[30:0]) && rvv_fpu_pkg::is_inf(b[30:0])) || (rvv_fpu_pkg::is_zero(a[30:0]) && rvv_fpu_pkg::is_zero(b[30:0]))) begin
        special_flags[rvv_fpu_pkg::FlagNv] = 1'b1;
      end else if (rvv_fpu_pkg::is_inf(a[30:0])) begin
        special_result = {a[31] ^ b[31], 31'h7f80_0000};
      end else if (rvv_fpu_pkg::is_zero(b[30:0])) begin
        special_result = {a[31] ^ b[31], 31'h7f80_0000};
        special_flags[rvv_fpu_pkg::FlagDz] = 1'b1;
      end else if (rvv_fpu_pkg::is_zero(a[30:0]) || rvv_fpu_pkg::is_inf(b[30:0])) begin
        special_result = {a[31] ^ b[31], 31'd0};
      end else begin
        special = 1'b0;
      end
    end
    // sqrt: value = mant_a * 2^(exp_a - 150); make the exponent even by doubling the significand
    // (sqrt_odd), then the radicand mant << sqrt_odd << (2*Steps - 26) has a root of Steps bits whose
    // LSB exponent is half the remaining even exponent.
    sqrt_odd = exp_a[0];  // exp_a - 150 has the parity of exp_a
    if (is_sqrt) begin
      // Through a signed variable: the unsigned terms would make >>> a logical shift.
      sqrt_exp = exp_a - 12'sd150 - {11'd0, sqrt_odd} - 12'(2 * Steps) + 12'sd26;
      lsb_exp = sqrt_exp >>> 1;
      rem = '0;
      radicand = {1'b0, sqrt_odd ? {mant_a, 1'b0} : {1'b0, mant_a}, {(2 * Steps - 26){1'b0}}};
    end else begin
      // quotient = floor(mant_a / mant_b * 2^(Steps-1)), value * 2^(exp_a - exp_b)
      lsb_exp = exp_a - exp_b - 12'(Steps - 1);
      rem = {{(RemWidth - 24){1'b0}}, mant_a};
      radicand = '0;
    end
    start = {special, special_flags, special_result, lsb_exp, mant_b, rem, radicand};
  endfunction

  // BitsPerCycle recurrence steps: {remainder, quotient/root} after them (the radicand only shifts, by two
  // bits a step, in the clocked block).
  function automatic logic [StepBits-1:0] step(input logic is_sqrt, input logic [23:0] divisor,
                                               input logic [RemWidth-1:0] rem_i, input logic [Steps-1:0] quo_i,
                                               input logic [2*Steps-1:0] radicand_i);
    logic [RemWidth-1:0]  rem;
    logic [Steps-1:0]     quo;
    logic [2*Steps-1:0]   radicand;
    logic [RemWidth-1:0]  trial;
    rem = rem_i;
    quo = quo_i;
    radicand = radicand_i;
    for (int i = 0; i < BitsPerCycle; i++) begin
      // One restoring step; only the trial subtrahend and the shifts differ between the two.
      if (is_sqrt) begin
        rem = {rem[RemWidth-3:0], radicand[2*Steps-1 -: 2]};
        radicand = radicand << 2;
        trial = {quo, 2'b01};
      end else begin
        trial = {{(RemWidth - 24){1'b0}}, divisor};
      end
      if (rem >= trial) begin
        rem = rem - trial;
        quo = {quo[Steps-2:0], 1'b1};
      end else begin
        quo = {quo[Steps-2:0], 1'b0};
      end
      if (!is_sqrt) rem = rem << 1;
    end
    step = {rem, quo};
  endfunction

  // The final quotient/root (its MSB is at Steps-1 or Steps-2) normalised and rounded, with the last
  // remainder as the sticky bit: {flags, result}.
  function automatic logic [36:0] finish(input logic [RemWidth-1:0] rem, input logic [Steps-1:0] quo,
                                         input logic signed [11:0] lsb_exp, input logic sign, input logic [2:0] rm);
    logic [Steps-1:0]    mant_norm;
    logic signed [11:0]  exp_norm;
    logic [34:0]         rounded;  // {result, of, uf, nx}
    if (quo[Steps-1]) begin
      mant_norm = quo;
      exp_norm = lsb_exp + 12'(Steps - 1) + 12'sd127;
    end else begin
      mant_norm = {quo[Steps-2:0], 1'b0};
      exp_norm = lsb_exp + 12'(Steps - 2) + 12'sd127;
    end
    rounded = rvv_fpu_round_pkg::round(sign, exp_norm, {mant_norm, {(rvv_fpu_round_pkg::Width - Steps){1'b0}}},
                                       rem != '0, rm);
    finish = {2'b00, rounded[2:0], rounded[34:3]};
  endfunction

  // What an accepted operation starts with, and this cycle's steps while busy (otherwise zero: a
  // simulator skips them).
  // The start and step functions are called in the branches that use them, so that an idle unit computes
  // nothing (as combinational blocks, their results were cleared in every cycle). Their results land in
  // one variable each before they are split: Verilator 5.006 evaluates a call once per part of a
  // concatenated target.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    logic [StartBits-1:0] start_v;
    logic [StepBits-1:0]  step_v;
    if (!rst_ni) begin
      busy_q <= 1'b0;
      done_q <= 1'b0;
      count_q <= '0;
      is_sqrt_q <= 1'b0;
      sign_q <= 1'b0;
      rm_q <= 3'd0;
      special_q <= 1'b0;
      out_q <= '0;
      lsb_exp_q <= '0;
      divisor_q <= '0;
      rem_q <= '0;
      quo_q <= '0;
      radicand_q <= '0;
    end else if (busy_q) begin
      step_v = step(is_sqrt_q, divisor_q, rem_q, quo_q, radicand_q);
      // Each flop is read before it is written, in the text too: a simulator then needs no copy of the
      // old values (Verilator keeps a shadow of every flop read after its assignment in a block).
      if (count_q == CountWidth'(1)) begin
        busy_q <= 1'b0;
        if (!special_q) begin
          out_q <= finish(step_v[StepBits-1 -: RemWidth], step_v[Steps-1:0], lsb_exp_q, sign_q, rm_q);
        end
      end
      done_q <= count_q == CountWidth'(1);
      rem_q <= step_v[StepBits-1 -: RemWidth];
      quo_q <= step_v[Steps-1:0];
      if (is_sqrt_q) radicand_q <= radicand_q << (2 * BitsPerCycle);
      count_q <= count_q - 1'b1;
    end else begin
      done_q <= 1'b0;
      if (start_i) begin
        start_v = start(is_sqrt_i, a_i, b_i);
        busy_q <= 1'b1;
        count_q <= CountWidth'(Iterations);
        is_sqrt_q <= is_sqrt_i;
        sign_q <= is_sqrt_i ? 1'b0 : a_i[31] ^ b_i[31];
        rm_q <= rm_i;
        quo_q <= '0;
        {special_q, out_q, lsb_exp_q, divisor_q, rem_q, radicand_q} <= start_v;
      end
    end
  end

  assign busy_o = busy_q;
  assign done_o = done_q;
  assign result_o = out_q[31:0];
  assign flags_o = out_q[36:32];
endmodule
