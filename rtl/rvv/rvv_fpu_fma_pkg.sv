// rvv_fpu_fma_pkg::fma: combinational fused multiply-add a * b + c with a single rounding; FADD/FSUB/FMUL and the
// four FMA instructions are all this unit with operands prepared by rvv_fpu (a + b = a * 1 + b;
// a * b = a * b + 0 with the zero taking the product's sign, so that exact-zero signs come out as IEEE
// specifies for the multiplication alone).
//
// Datapath: the 48-bit exact product and the 24-bit addend, each left-justified in 64 bits (MSB at bit
// 61 or 60), are aligned on the one whose bit 0 has the larger exponent: the other is shifted right by the
// difference and the bits shifted out are ORed into its bit 0 (a sticky bit). The sum or difference then
// fits in 64 bits, which a simulator computes as one machine word (a window of 3p + 5 bits would not).
// This is exact for rounding: a shift loses bits only when it exceeds the operand's zero low bits (14 for
// the product, 38 for the addend), and then that operand lies below bit 48 while the other reaches bit
// 60, so the result's MSB is at bit 59 or above and its rounding position far above bit 1; replacing a
// value in (0, 2) by 1 keeps the sum in the same open interval between rounding boundaries (including
// for subtraction). Where the exponents are close and the difference can cancel, no bit is shifted out.
// The normalised 64-bit magnitude goes to the rounder as 31 bits and a sticky bit (the rounder keeps 24
// and a guard bit, also when a subnormal result moves its rounding position up).
//
// A function, not a module, so that it computes only where it is called: in rvv_fpu's clocked block, for
// an accepted operation alone (the hardware is the same combinational datapath in front of the result
// register; a simulator skips it on every other cycle).
package rvv_fpu_fma_pkg;
  localparam int unsigned Width = 64;    // the aligned operands, their sum and its normalisation
  localparam int unsigned RoundWidth = 32;  // what the rounder is given: 31 bits and a sticky bit

  // x >> s with the bits shifted out ORed into bit 0.
  function automatic logic [Width-1:0] shift_right_jam(input logic [Width-1:0] x, input logic [11:0] s);
    if (s >= 12'(Width)) shift_right_jam = {{(Width - 1){1'b0}}, |x};
    else shift_right_jam = (x >> s) | {{(Width - 1){1'b0}}, |(x & ~({Width{1'b1}} << s))};
  endfunction

  // a * b + c rounded once under rm; returns {flags, result}.
  function automatic logic [36:0] fma(input logic [31:0] a_i, input logic [31:0] b_i, input logic [31:0] c_i,
                                      input logic [2:0] rm_i);
    logic [35:0]            a_unpacked;  // each function result lands in one variable first: a simulator
    logic [35:0]            b_unpacked;  // would evaluate a call once per part of a concatenated target
    logic [35:0]            c_unpacked;
    logic [23:0]            mant_a;
    logic [23:0]            mant_b;
    logic [23:0]            mant_c;
    logic signed [11:0]     exp_a;
    logic signed [11:0]     exp_b;
    logic signed [11:0]     exp_c;
    logic                   sign_p;
    logic                   sign_c;
    logic [47:0]            product;
    logic signed [11:0]     lsb_diff;  // exponent of the product's bit 0 less the addend's (both at 64 bits)
    logic                   align_on_c;
    logic [Width-1:0]       prod_al;
    logic [Width-1:0]       addend_al;
    logic signed [11:0]     win_exp;   // unbiased exponent of bit 0 of the aligned operands
    logic [Width-1:0]       mag;
    logic                   sign_r;
    logic [6:0]             lead_zeros;
    logic [Width-1:0]       mag_norm;
    logic [RoundWidth-1:0]  mag_round;
    logic signed [11:0]     exp_r;
    logic [34:0]            rounded;   // {result, of, uf, nx}
    logic [31:0]            result;
    logic [4:0]             flags;
    logic                   special;   // an operand is a NaN or infinite
    logic                   prod_inf;
    logic                   c_inf;

    a_unpacked = rvv_fpu_pkg::unpack(a_i[30:0]);
    b_unpacked = rvv_fpu_pkg::unpack(b_i[30:0]);
    c_unpacked = rvv_fpu_pkg::unpack(c_i[30:0]);
    {exp_a, mant_a} = a_unpacked;
    {exp_b, mant_b} = b_unpacked;
    {exp_c, mant_c} = c_unpacked;
    sign_p = a_i[31] ^ b_i[31];
    sign_c = c_i[31];
    product = mant_a * mant_b;

    // Bit 0 of the product at bit 14: exponent exp_a + exp_b - 300 - 14; of the addend at bit 38:
    // exp_c - 150 - 38. A zero operand never sets the alignment (the other stays exact).
    lsb_diff = exp_a + exp_b - exp_c - 12'sd126;
    align_on_c = (product == 48'd0) || (mant_c != 24'd0 && lsb_diff < 12'sd0);
    if (align_on_c) begin
      addend_al = {2'b00, mant_c, 38'd0};
      prod_al = shift_right_jam({2'b00, product, 14'd0}, 12'(-lsb_diff));
      win_exp = exp_c - 12'sd188;
    end else begin
      prod_al = {2'b00, product, 14'd0};
      addend_al = shift_right_jam({2'b00, mant_c, 38'd0}, 12'(lsb_diff));
      win_exp = exp_a + exp_b - 12'sd314;
    end

    if (sign_p == sign_c) begin
      mag = prod_al + addend_al;
      sign_r = sign_p;
    end else if (prod_al >= addend_al) begin
      mag = prod_al - addend_al;
      // An exact zero difference is +0, except -0 when rounding down.
      sign_r = (mag == '0) ? (rm_i == rvv_fpu_pkg::RmRdn) : sign_p;
    end else begin
      mag = addend_al - prod_al;
      sign_r = sign_c;
    end

    // Normalise: the leading-zero count in halving steps (32, 16, ..., 1), shifting as it goes; a zero
    // magnitude counts Width and stays zero.
    mag_norm = mag;
    lead_zeros = '0;
    if (mag == '0) begin
      lead_zeros = 7'(Width);
    end else begin
      if (mag_norm[Width-1 -: 32] == 32'd0) begin mag_norm = mag_norm << 32; lead_zeros += 7'd32; end
      if (mag_norm[Width-1 -: 16] == 16'd0) begin mag_norm = mag_norm << 16; lead_zeros += 7'd16; end
      if (mag_norm[Width-1 -: 8] == 8'd0) begin mag_norm = mag_norm << 8; lead_zeros += 7'd8; end
      if (mag_norm[Width-1 -: 4] == 4'd0) begin mag_norm = mag_norm << 4; lead_zeros += 7'd4; end
      if (mag_norm[Width-1 -: 2] == 2'd0) begin mag_norm = mag_norm << 2; lead_zeros += 7'd2; end
      if (!mag_norm[Width-1]) begin mag_norm = mag_norm << 1; lead_zeros += 7'd1; end
    end
    mag_round = {mag_norm[Width-1 -: RoundWidth-1], |mag_norm[Width-RoundWidth:0]};
    exp_r = win_exp + 12'(Width - 1) - {5'd0, lead_zeros} + 12'sd127;
    rounded = rvv_fpu_round_pkg::round(sign_r, exp_r,
                                       {mag_round, {(rvv_fpu_round_pkg::Width - RoundWidth){1'b0}}}, 1'b0, rm_i);

    // NaNs and infinities, and inf * 0, all have an operand whose exponent field is all ones: the
    // simulation tests those cases only then.
    special = (&a_i[30:23]) || (&b_i[30:23]) || (&c_i[30:23]);
    result = rounded[34:3];
    flags = 5'd0;
    flags[rvv_fpu_pkg::FlagOf] = rounded[2];
    flags[rvv_fpu_pkg::FlagUf] = rounded[1];
    flags[rvv_fpu_pkg::FlagNx] = rounded[0];
    prod_inf = 1'b0;
    c_inf = 1'b0;
    if (special) begin
      prod_inf = rvv_fpu_pkg::is_inf(a_i[30:0]) || rvv_fpu_pkg::is_inf(b_i[30:0]);
      c_inf = rvv_fpu_pkg::is_inf(c_i[30:0]);
      flags = 5'd0;
      if (rvv_fpu_pkg::is_nan(a_i[30:0]) || rvv_fpu_pkg::is_nan(b_i[30:0]) || rvv_fpu_pkg::is_nan(c_i[30:0])
          // RISC-V: inf * 0 is invalid even when the addend is a quiet NaN.
          || (rvv_fpu_pkg::is_inf(a_i[30:0]) && rvv_fpu_pkg::is_zero(b_i[30:0]))
          || (rvv_fpu_pkg::is_zero(a_i[30:0]) && rvv_fpu_pkg::is_inf(b_i[30:0]))) begin
        result = rvv_fpu_pkg::CanonicalNan;
        flags[rvv_fpu_pkg::FlagNv] = rvv_fpu_pkg::is_snan(a_i[30:0]) || rvv_fpu_pkg::is_snan(b_i[30:0])
                                     || rvv_fpu_pkg::is_snan(c_i[30:0])
                                     || (rvv_fpu_pkg::is_inf(a_i[30:0]) && rvv_fpu_pkg::is_zero(b_i[30:0]))
                                     || (rvv_fpu_pkg::is_zero(a_i[30:0]) && rvv_fpu_pkg::is_inf(b_i[30:0]));
      end else if (prod_inf && c_inf && sign_p != sign_c) begin
        result = rvv_fpu_pkg::CanonicalNan;  // inf - inf
        flags[rvv_fpu_pkg::FlagNv] = 1'b1;
      end else if (prod_inf) begin
        result = {sign_p, 31'h7f80_0000};
      end else begin  // c_inf: an all-ones exponent that is not a NaN is an infinity
        result = {sign_c, 31'h7f80_0000};
      end
    end
    fma = {flags, result};
  endfunction
endpackage
