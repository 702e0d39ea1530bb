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
// remainder becomes the sticky bit, which is all rvv_fpu_round needs for every rounding mode.
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

  logic [35:0]            a_unpacked;
  logic [35:0]            b_unpacked;
  logic [23:0]            mant_a;
  logic [23:0]            mant_b;
  logic signed [11:0]     exp_a;
  logic signed [11:0]     exp_b;
  logic                   special;
  logic [31:0]            special_result;
  logic [4:0]             special_flags;
  logic signed [11:0]     lsb_exp;     // unbiased exponent of the quotient/root LSB
  logic                   sqrt_odd;
  logic signed [11:0]     sqrt_exp;    // even exponent of the radicand's LSB

  logic                   busy_q, busy_d;
  logic                   done_q, done_d;
  logic [CountWidth-1:0]  count_q, count_d;
  logic                   is_sqrt_q, is_sqrt_d;
  logic                   sign_q, sign_d;
  logic [2:0]             rm_q, rm_d;
  logic                   special_q, special_d;
  logic [31:0]            result_q, result_d;
  logic [4:0]             flags_q, flags_d;
  logic signed [11:0]     lsb_exp_q, lsb_exp_d;
  logic [23:0]            divisor_q, divisor_d;
  logic [RemWidth-1:0]    rem_q, rem_d;
  logic [Steps-1:0]       quo_q, quo_d;        // quotient or root bits so far
  logic [2*Steps-1:0]     radicand_q, radicand_d;

  logic [RemWidth-1:0]    rem_next;
  logic [Steps-1:0]       quo_next;
  logic [2*Steps-1:0]     radicand_next;
  logic [RemWidth-1:0]    trial;
  logic [Steps-1:0]       mant_norm;
  logic signed [11:0]     exp_norm;
  logic [31:0]            rounded;
  logic                   of;
  logic                   uf;
  logic                   nx;

  // Unpacked (a normalising loop per operand) only when an operation starts, the one time they are used.
  always_comb begin
    a_unpacked = '0;
    b_unpacked = '0;
    if (start_i) begin
      a_unpacked = rvv_fpu_pkg::unpack(a_i[30:0]);
      b_unpacked = rvv_fpu_pkg::unpack(b_i[30:0]);
    end
  end
  assign {exp_a, mant_a} = a_unpacked;
  assign {exp_b, mant_b} = b_unpacked;

  // Special operands, decided at start.
  always_comb begin
    // Operand isolation: idle, the block holds its outputs at zero (and a simulator skips it).
    special = '0;
    special_result = '0;
    special_flags = '0;
    sqrt_odd = '0;
    sqrt_exp = '0;
    lsb_exp = '0;
    if (start_i) begin
      special = 1'b1;
      special_result = rvv_fpu_pkg::CanonicalNan;
      special_flags = 5'd0;
      if (is_sqrt_i) begin
        if (rvv_fpu_pkg::is_nan(a_i[30:0])) begin
          special_flags[rvv_fpu_pkg::FlagNv] = rvv_fpu_pkg::is_snan(a_i[30:0]);
        end else if (rvv_fpu_pkg::is_zero(a_i[30:0])) begin
          special_result = a_i;                    // sqrt(-0) = -0
        end else if (a_i[31]) begin
          special_flags[rvv_fpu_pkg::FlagNv] = 1'b1;            // negative, including -inf
        end else if (rvv_fpu_pkg::is_inf(a_i[30:0])) begin
          special_result = a_i;
        end else begin
          special = 1'b0;
        end
      end else begin
        if (rvv_fpu_pkg::is_nan(a_i[30:0]) || rvv_fpu_pkg::is_nan(b_i[30:0])) begin
          special_flags[rvv_fpu_pkg::FlagNv] = rvv_fpu_pkg::is_snan(a_i[30:0]) || rvv_fpu_pkg::is_snan(b_i[30:0]);
        end else if ((rvv_fpu_pkg::is_inf(a_i[30:0]) && rvv_fpu_pkg::is_inf(b_i[30:0])) || (rvv_fpu_pkg::is_zero(a_i[30:0]) && rvv_fpu_pkg::is_zero(b_i[30:0]))) begin
          special_flags[rvv_fpu_pkg::FlagNv] = 1'b1;
        end else if (rvv_fpu_pkg::is_inf(a_i[30:0])) begin
          special_result = {a_i[31] ^ b_i[31], 31'h7f80_0000};
        end else if (rvv_fpu_pkg::is_zero(b_i[30:0])) begin
          special_result = {a_i[31] ^ b_i[31], 31'h7f80_0000};
          special_flags[rvv_fpu_pkg::FlagDz] = 1'b1;
        end else if (rvv_fpu_pkg::is_zero(a_i[30:0]) || rvv_fpu_pkg::is_inf(b_i[30:0])) begin
          special_result = {a_i[31] ^ b_i[31], 31'd0};
        end else begin
          special = 1'b0;
        end
      end
      // sqrt: value = mant_a * 2^(exp_a - 150); make the exponent even by doubling the significand
      // (sqrt_odd), then the radicand mant << sqrt_odd << (2*Steps - 26) has a root of Steps bits whose
      // LSB exponent is half the remaining even exponent.
      sqrt_odd = exp_a[0];  // exp_a - 150 has the parity of exp_a
      sqrt_exp = '0;
      if (is_sqrt_i) begin
        // Through a signed variable: the unsigned terms would make >>> a logical shift.
        sqrt_exp = exp_a - 12'sd150 - {11'd0, sqrt_odd} - 12'(2 * Steps) + 12'sd26;
        lsb_exp = sqrt_exp >>> 1;
      end else begin
        // quotient = floor(mant_a / mant_b * 2^(Steps-1)), value * 2^(exp_a - exp_b)
        lsb_exp = exp_a - exp_b - 12'(Steps - 1);
      end
    end
  end

  // BitsPerCycle recurrence steps.
  always_comb begin
    // Operand isolation: idle, the block holds its outputs at zero (and a simulator skips it).
    rem_next = '0;
    quo_next = '0;
    radicand_next = '0;
    trial = '0;
    if (busy_q) begin
      rem_next = rem_q;
      quo_next = quo_q;
      radicand_next = radicand_q;
      trial = '0;
      for (int i = 0; i < BitsPerCycle; i++) begin
        // One restoring step; only the trial subtrahend and the shifts differ between the two.
        if (is_sqrt_q) begin
          rem_next = {rem_next[RemWidth-3:0], radicand_next[2*Steps-1 -: 2]};
          radicand_next = radicand_next << 2;
          trial = {quo_next, 2'b01};
        end else begin
          trial = {{(RemWidth - 24){1'b0}}, divisor_q};
        end
        if (rem_next >= trial) begin
          rem_next = rem_next - trial;
          quo_next = {quo_next[Steps-2:0], 1'b1};
        end else begin
          quo_next = {quo_next[Steps-2:0], 1'b0};
        end
        if (!is_sqrt_q) rem_next = rem_next << 1;
      end
    end
  end

  // Normalize the final quotient/root (its MSB is at Steps-1 or Steps-2) and round.
  always_comb begin
    // Operand isolation: idle, the block holds its outputs at zero (and a simulator skips it).
    mant_norm = '0;
    exp_norm = '0;
    if (busy_q) begin
      if (quo_next[Steps-1]) begin
        mant_norm = quo_next;
        exp_norm = lsb_exp_q + 12'(Steps - 1) + 12'sd127;
      end else begin
        mant_norm = {quo_next[Steps-2:0], 1'b0};
        exp_norm = lsb_exp_q + 12'(Steps - 2) + 12'sd127;
      end
    end
  end

  rvv_fpu_round #(.Width(Steps)) u_round (
      .en_i(busy_q), .sign_i(sign_q), .exp_i(exp_norm), .mant_i(mant_norm), .sticky_i(rem_next != '0), .rm_i(rm_q),
      .result_o(rounded), .of_o(of), .uf_o(uf), .nx_o(nx));

  always_comb begin
    busy_d = busy_q;
    done_d = 1'b0;
    count_d = count_q;
    is_sqrt_d = is_sqrt_q;
    sign_d = sign_q;
    rm_d = rm_q;
    special_d = special_q;
    result_d = result_q;
    flags_d = flags_q;
    lsb_exp_d = lsb_exp_q;
    divisor_d = divisor_q;
    rem_d = rem_q;
    quo_d = quo_q;
    radicand_d = radicand_q;
    if (!busy_q && start_i) begin
      busy_d = 1'b1;
      count_d = CountWidth'(Iterations);
      is_sqrt_d = is_sqrt_i;
      sign_d = is_sqrt_i ? 1'b0 : a_i[31] ^ b_i[31];
      rm_d = rm_i;
      special_d = special;
      result_d = special_result;
      flags_d = special_flags;
      lsb_exp_d = lsb_exp;
      divisor_d = mant_b;
      quo_d = '0;
      if (is_sqrt_i) begin
        rem_d = '0;
        radicand_d = {1'b0, sqrt_odd ? {mant_a, 1'b0} : {1'b0, mant_a}, {(2 * Steps - 26){1'b0}}};
      end else begin
        rem_d = {{(RemWidth - 24){1'b0}}, mant_a};
        radicand_d = '0;
      end
    end else if (busy_q) begin
      rem_d = rem_next;
      quo_d = quo_next;
      radicand_d = radicand_next;
      count_d = count_q - 1'b1;
      if (count_q == CountWidth'(1)) begin
        busy_d = 1'b0;
        done_d = 1'b1;
        if (!special_q) begin
          result_d = rounded;
          flags_d = {2'b00, of, uf, nx};
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      done_q <= 1'b0;
      count_q <= '0;
      is_sqrt_q <= 1'b0;
      sign_q <= 1'b0;
      rm_q <= 3'd0;
      special_q <= 1'b0;
      result_q <= 32'd0;
      flags_q <= 5'd0;
      lsb_exp_q <= '0;
      divisor_q <= '0;
      rem_q <= '0;
      quo_q <= '0;
      radicand_q <= '0;
    end else begin
      busy_q <= busy_d;
      done_q <= done_d;
      count_q <= count_d;
      is_sqrt_q <= is_sqrt_d;
      sign_q <= sign_d;
      rm_q <= rm_d;
      special_q <= special_d;
      result_q <= result_d;
      flags_q <= flags_d;
      lsb_exp_q <= lsb_exp_d;
      divisor_q <= divisor_d;
      rem_q <= rem_d;
      quo_q <= quo_d;
      radicand_q <= radicand_d;
    end
  end

  assign busy_o = busy_q;
  assign done_o = done_q;
  assign result_o = result_q;
  assign flags_o = flags_q;
endmodule
