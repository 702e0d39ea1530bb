// rvv_fpu_round: rounds an exact (or exact-plus-sticky) nonnegative significand to binary32, in any of
// the five RISC-V rounding modes, producing the OF, UF and NX flags. Shared by the fused multiply-add,
// divide/square root and int-to-float paths so that there is exactly one rounding implementation.
//
// The value is (-1)^sign_i * mant_i / 2^(Width-1) * 2^(exp_i - 127) (+ something below mant_i's LSB when
// sticky_i): mant_i must have its MSB set, or be zero (then the result is a zero of sign_i and sticky_i
// must be 0). exp_i is the biased exponent of that MSB and may be below 1 (the result is then subnormal
// or zero) or above 254 (overflow).
//
// Underflow follows RISC-V (and x86 SSE): tininess is detected after rounding, i.e. the result is tiny
// when rounding the value to 24 bits with an unbounded exponent range gives a magnitude below 2^-126; UF
// is raised when the result is tiny and inexact.
module rvv_fpu_round #(
    parameter int unsigned Width = 32  // significand bits of the input, >= 24
) (
    input  logic                    en_i,     // a result is wanted: otherwise the outputs are 0
    input  logic                    sign_i,
    input  logic signed [11:0]      exp_i,
    input  logic [Width-1:0]        mant_i,
    input  logic                    sticky_i,
    input  logic [2:0]              rm_i,
    output logic [31:0]             result_o,
    output logic                    of_o,
    output logic                    uf_o,
    output logic                    nx_o
);
  // Two zero bits below the input so that the guard and sticky positions always exist.
  localparam int unsigned WideWidth = Width + 2;

  logic [WideWidth-1:0] mant_wide;
  logic [WideWidth-1:0] mant_shifted;
  logic [WideWidth-1:0] lost_mask;
  logic [11:0]          shift;
  logic                 shift_sticky;
  logic signed [11:0]   exp_eff;
  logic [23:0]          kept;
  logic                 guard;
  logic                 sticky;
  logic [24:0]          rounded;
  logic [23:0]          mant_out;
  logic signed [11:0]   exp_out;
  logic                 inexact;
  logic                 overflow;
  logic                 tiny;
  logic                 carry_unbounded;
  logic                 inf_on_overflow;

  always_comb begin
    // Operand isolation: idle, the block holds its outputs at zero (and a simulator skips it).
    mant_wide = '0;
    carry_unbounded = '0;
    tiny = '0;
    shift = '0;
    exp_eff = '0;
    mant_shifted = '0;
    lost_mask = '0;
    shift_sticky = '0;
    kept = '0;
    guard = '0;
    sticky = '0;
    inexact = '0;
    rounded = '0;
    mant_out = '0;
    exp_out = '0;
    overflow = '0;
    inf_on_overflow = '0;
    result_o = '0;
    of_o = '0;
    uf_o = '0;
    nx_o = '0;
    if (en_i) begin
      mant_wide = {mant_i, 2'b00};

      // Rounding with an unbounded exponent (the normal-precision rounding position), only to decide
      // tininess: a value just below 2^-126 (exp_i == 0) that rounds up to it there is not tiny.
      carry_unbounded = (mant_wide[WideWidth-1 -: 24] == 24'hff_ffff)
                        && rvv_fpu_pkg::round_up(rm_i, sign_i, mant_wide[WideWidth-24], mant_wide[WideWidth-25],
                                    (|mant_wide[WideWidth-26:0]) | sticky_i);
      tiny = (exp_i < 12'sd0) || (exp_i == 12'sd0 && !carry_unbounded);

      // Subnormal range: the rounding position is fixed at 2^-149, so shift right by 1 - exp_i and
      // collect what falls off into the sticky bit.
      if (exp_i < 12'sd1) begin
        shift = 12'd1 - exp_i;
        if (shift > 12'(WideWidth)) shift = 12'(WideWidth);
        exp_eff = 12'sd1;
      end else begin
        shift = 12'd0;
        exp_eff = exp_i;
      end
      mant_shifted = mant_wide >> shift;
      lost_mask = ~({WideWidth{1'b1}} << shift);
      shift_sticky = |(mant_wide & lost_mask);

      kept = mant_shifted[WideWidth-1 -: 24];
      guard = mant_shifted[WideWidth-25];
      sticky = (|mant_shifted[WideWidth-26:0]) | shift_sticky | sticky_i;
      inexact = guard | sticky;
      rounded = {1'b0, kept} + {24'd0, rvv_fpu_pkg::round_up(rm_i, sign_i, kept[0], guard, sticky)};
      // A carry out of the significand renormalizes (1.111..1 -> 10.000..0); in the subnormal range it
      // is the step from the largest subnormal to 2^-126, which needs no special case: mant_out[23]
      // becomes the hidden bit and exp_eff is 1.
      if (rounded[24]) begin
        mant_out = rounded[24:1];
        exp_out = exp_eff + 12'sd1;
      end else begin
        mant_out = rounded[23:0];
        exp_out = exp_eff;
      end
      overflow = exp_out > 12'sd254;
      inf_on_overflow = (rm_i == rvv_fpu_pkg::RmRne) || (rm_i == rvv_fpu_pkg::RmRmm) || (rm_i > rvv_fpu_pkg::RmRmm)
                        || (rm_i == rvv_fpu_pkg::RmRdn && sign_i) || (rm_i == rvv_fpu_pkg::RmRup && !sign_i);

      if (mant_i == '0) begin
        result_o = {sign_i, 31'd0};
        of_o = 1'b0;
        uf_o = 1'b0;
        nx_o = 1'b0;
      end else if (overflow) begin
        result_o = inf_on_overflow ? {sign_i, 31'h7f80_0000} : {sign_i, 31'h7f7f_ffff};
        of_o = 1'b1;
        uf_o = 1'b0;
        nx_o = 1'b1;
      end else begin
        // mant_out[23] clear means subnormal (or zero): exponent field 0.
        result_o = {sign_i, mant_out[23] ? exp_out[7:0] : 8'd0, mant_out[22:0]};
        of_o = 1'b0;
        uf_o = tiny & inexact;
        nx_o = inexact;
      end
    end
  end
endmodule
