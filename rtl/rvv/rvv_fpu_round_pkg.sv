// rvv_fpu_round_pkg::round: rounds an exact (or exact-plus-sticky) nonnegative significand to binary32,
// in any of the five RISC-V rounding modes, producing the OF, UF and NX flags. Shared by the fused
// multiply-add, divide/square root and int-to-float paths so that there is exactly one rounding
// implementation.
//
// The value is (-1)^sign * mant / 2^(Width-1) * 2^(exp - 127) (+ something below mant's LSB when
// sticky_in): mant must have its MSB set, or be zero (then the result is a zero of sign and sticky_in
// must be 0). exp is the biased exponent of that MSB and may be below 1 (the result is then subnormal
// or zero) or above 254 (overflow). A narrower significand is passed left-justified (zeros below it
// change nothing: they are neither kept nor sticky): Width = 62 makes the guard-extended significand one
// 64-bit word.
//
// A function, not a module, so that it computes only where it is called: inside the clocked block of
// the unit that uses it, for an accepted operation alone (a simulator then skips it on every other
// cycle; the hardware is the same combinational rounder in front of the result register).
//
// Underflow follows RISC-V (and x86 SSE): tininess is detected after rounding, i.e. the result is tiny
// when rounding the value to 24 bits with an unbounded exponent range gives a magnitude below 2^-126; UF
// is raised when the result is tiny and inexact.
package rvv_fpu_round_pkg;
  localparam int unsigned Width = 62;  // significand bits of the input
  localparam int unsigned WideWidth = Width + 2;  // two zero bits below: guard and sticky always exist

  // Returns {result, of, uf, nx}.
  function automatic logic [34:0] round(input logic sign, input logic signed [11:0] exp,
                                        input logic [Width-1:0] mant, input logic sticky_in,
                                        input logic [2:0] rm);
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
    logic [31:0]          res;
    logic                 of;
    logic                 uf;
    logic                 nx;
    mant_wide = {mant, 2'b00};

    // Rounding with an unbounded exponent (the normal-precision rounding position), only to decide
    // tininess: a value just below 2^-126 (exp == 0) that rounds up to it there is not tiny.
    // (Only exp == 0 needs it: the simulation skips it for every other exponent.)
    carry_unbounded = 1'b0;
    if (exp == 12'sd0)
      carry_unbounded = (mant_wide[WideWidth-1 -: 24] == 24'hff_ffff)
                        && rvv_fpu_pkg::round_up(rm, sign, mant_wide[WideWidth-24], mant_wide[WideWidth-25],
                                    (|mant_wide[WideWidth-26:0]) | sticky_in);
    tiny = (exp < 12'sd0) || (exp == 12'sd0 && !carry_unbounded);

    // Subnormal range: the rounding position is fixed at 2^-149, so shift right by 1 - exp and
    // collect what falls off into the sticky bit.
    if (exp < 12'sd1) begin
      shift = 12'd1 - exp;
      if (shift > 12'(WideWidth)) shift = 12'(WideWidth);
      exp_eff = 12'sd1;
    end else begin
      shift = 12'd0;
      exp_eff = exp;
    end
    mant_shifted = mant_wide >> shift;
    lost_mask = ~({WideWidth{1'b1}} << shift);
    shift_sticky = |(mant_wide & lost_mask);

    kept = mant_shifted[WideWidth-1 -: 24];
    guard = mant_shifted[WideWidth-25];
    sticky = (|mant_shifted[WideWidth-26:0]) | shift_sticky | sticky_in;
    inexact = guard | sticky;
    rounded = {1'b0, kept} + {24'd0, rvv_fpu_pkg::round_up(rm, sign, kept[0], guard, sticky)};
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
    inf_on_overflow = (rm == rvv_fpu_pkg::RmRne) || (rm == rvv_fpu_pkg::RmRmm) || (rm > rvv_fpu_pkg::RmRmm)
                      || (rm == rvv_fpu_pkg::RmRdn && sign) || (rm == rvv_fpu_pkg::RmRup && !sign);

    if (mant == '0) begin
      res = {sign, 31'd0};
      of = 1'b0;
      uf = 1'b0;
      nx = 1'b0;
    end else if (overflow) begin
      res = inf_on_overflow ? {sign, 31'h7f80_0000} : {sign, 31'h7f7f_ffff};
      of = 1'b1;
      uf = 1'b0;
      nx = 1'b1;
    end else begin
      // mant_out[23] clear means subnormal (or zero): exponent field 0.
      res = {sign, mant_out[23] ? exp_out[7:0] : 8'd0, mant_out[22:0]};
      of = 1'b0;
      uf = tiny & inexact;
      nx = inexact;
    end
    round = {res, of, uf, nx};
  endfunction
endpackage
