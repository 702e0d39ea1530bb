// rvv_fpu_fma: combinational fused multiply-add a * b + c with a single rounding; FADD/FSUB/FMUL and the
// four FMA instructions are all this unit with operands prepared by rvv_fpu (a + b = a * 1 + b;
// a * b = a * b + 0 with the zero taking the product's sign, so that exact-zero signs come out as IEEE
// specifies for the multiplication alone).
//
// Datapath: the 48-bit exact product and the 24-bit addend are placed in one Window-bit fixed-point
// window and added exactly. Bit 0 of the window is a sticky bit: bits of an operand that would fall
// below bit 1 are ORed into it. This is exact for rounding because the other operand then dominates so
// much that the rounding position lies far above bit 1, and replacing a value in (0, 2) by 1 keeps the
// sum in the same open interval between rounding boundaries (including for subtraction).
//   - Product at bits [49:2]; addend LSB at bit A = 2 + (addend LSB exponent - product LSB exponent).
//   - A >= 52: the addend is so large that the whole product lies below its guard position; the addend
//     is pinned at bit 52 and the product replaced by the sticky bit.
//   - A <= 0: the addend's low bits go into the sticky bit.
module rvv_fpu_fma (
    input  logic        en_i,  // an operation is accepted: otherwise the outputs are 0
    input  logic [31:0] a_i,
    input  logic [31:0] b_i,
    input  logic [31:0] c_i,
    input  logic [2:0]  rm_i,
    output logic [31:0] result_o,
    output logic [4:0]  flags_o
);
  localparam int unsigned Window = 77;  // addend pinned at 52 (MSB 75) + one carry bit
  localparam int unsigned AddendPin = 52;

  logic [35:0]            a_unpacked;
  logic [35:0]            b_unpacked;
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
  logic signed [11:0]     addend_pos;
  logic [11:0]            addend_rshift;
  logic [23:0]            addend_rshifted;
  logic [Window-1:0]      prod_win;
  logic [Window-1:0]      addend_win;
  logic signed [11:0]     win_exp;   // unbiased exponent of window bit 0
  logic [Window-1:0]      mag;
  logic                   sign_r;
  logic [6:0]             lead_zeros;
  logic [Window-1:0]      mag_norm;
  logic signed [11:0]     exp_r;
  logic [31:0]            rounded;
  logic                   of;
  logic                   uf;
  logic                   nx;
  logic                   any_nan;
  logic                   any_snan;
  logic                   inf_times_zero;
  logic                   prod_inf;
  logic                   c_inf;

  // The unpacking (a normalising loop per operand) is isolated too.
  always_comb begin
    a_unpacked = '0;
    b_unpacked = '0;
    c_unpacked = '0;
    if (en_i) begin
      a_unpacked = rvv_fpu_pkg::unpack(a_i[30:0]);
      b_unpacked = rvv_fpu_pkg::unpack(b_i[30:0]);
      c_unpacked = rvv_fpu_pkg::unpack(c_i[30:0]);
    end
  end
  assign {exp_a, mant_a} = a_unpacked;
  assign {exp_b, mant_b} = b_unpacked;
  assign {exp_c, mant_c} = c_unpacked;
  assign sign_p = a_i[31] ^ b_i[31];
  assign sign_c = c_i[31];
  assign product = mant_a * mant_b;  // of zeros while idle

  always_comb begin
    // Operand isolation: idle, the block holds its outputs at zero (and a simulator skips it).
    addend_pos = '0;
    addend_rshift = '0;
    addend_rshifted = '0;
    addend_win = '0;
    prod_win = '0;
    win_exp = '0;
    mag = '0;
    sign_r = '0;
    lead_zeros = '0;
    mag_norm = '0;
    exp_r = '0;
    if (en_i) begin
      // Addend LSB exponent exp_c - 150, product LSB exponent exp_a + exp_b - 254 - 46.
      addend_pos = exp_c - exp_a - exp_b + 12'sd152;
      addend_rshift = 12'd0;
      addend_rshifted = 24'd0;
      if (product == 48'd0 || (mant_c != 24'd0 && addend_pos >= 12'sd52)) begin
        addend_win = {1'b0, mant_c, 52'd0};
        prod_win = {76'd0, product != 48'd0};
        win_exp = exp_c - 12'sd150 - 12'(AddendPin);
      end else begin
        prod_win = {27'd0, product, 2'b00};
        win_exp = exp_a + exp_b - 12'sd302;
        if (mant_c == 24'd0) begin
          addend_win = '0;
        end else if (addend_pos >= 12'sd1) begin
          addend_win = {53'd0, mant_c} << addend_pos;
        end else begin
          addend_rshift = 12'd1 - addend_pos;
          if (addend_rshift > 12'd25) addend_rshift = 12'd25;
          addend_rshifted = mant_c >> addend_rshift;
          addend_win = {52'd0, addend_rshifted, (mant_c & ~(24'hff_ffff << addend_rshift)) != 24'd0};
        end
      end

      if (sign_p == sign_c) begin
        mag = prod_win + addend_win;
        sign_r = sign_p;
      end else if (prod_win >= addend_win) begin
        mag = prod_win - addend_win;
        // An exact zero difference is +0, except -0 when rounding down.
        sign_r = (mag == '0) ? (rm_i == rvv_fpu_pkg::RmRdn) : sign_p;
      end else begin
        mag = addend_win - prod_win;
        sign_r = sign_c;
      end

      // Normalise: the leading-zero count in halving steps (64, 32, ..., 1: binary digits of a count
      // below 128 > Window), shifting as it goes; a zero magnitude counts Window and stays zero.
      mag_norm = mag;
      lead_zeros = '0;
      if (mag == '0) begin
        lead_zeros = 7'(Window);
      end else begin
        if (mag_norm[Window-1 -: 64] == 64'd0) begin mag_norm = mag_norm << 64; lead_zeros += 7'd64; end
        if (mag_norm[Window-1 -: 32] == 32'd0) begin mag_norm = mag_norm << 32; lead_zeros += 7'd32; end
        if (mag_norm[Window-1 -: 16] == 16'd0) begin mag_norm = mag_norm << 16; lead_zeros += 7'd16; end
        if (mag_norm[Window-1 -: 8] == 8'd0) begin mag_norm = mag_norm << 8; lead_zeros += 7'd8; end
        if (mag_norm[Window-1 -: 4] == 4'd0) begin mag_norm = mag_norm << 4; lead_zeros += 7'd4; end
        if (mag_norm[Window-1 -: 2] == 2'd0) begin mag_norm = mag_norm << 2; lead_zeros += 7'd2; end
        if (!mag_norm[Window-1]) begin mag_norm = mag_norm << 1; lead_zeros += 7'd1; end
      end
      exp_r = win_exp + 12'(Window - 1) - {5'd0, lead_zeros} + 12'sd127;
    end
  end

  rvv_fpu_round #(.Width(Window)) u_round (
      .en_i(en_i), .sign_i(sign_r), .exp_i(exp_r), .mant_i(mag_norm), .sticky_i(1'b0), .rm_i(rm_i),
      .result_o(rounded), .of_o(of), .uf_o(uf), .nx_o(nx));

  always_comb begin
    // Operand isolation: idle, the block holds its outputs at zero (and a simulator skips it).
    any_nan = '0;
    any_snan = '0;
    inf_times_zero = '0;
    prod_inf = '0;
    c_inf = '0;
    flags_o = '0;
    result_o = '0;
    if (en_i) begin
      any_nan = rvv_fpu_pkg::is_nan(a_i[30:0]) || rvv_fpu_pkg::is_nan(b_i[30:0]) || rvv_fpu_pkg::is_nan(c_i[30:0]);
      any_snan = rvv_fpu_pkg::is_snan(a_i[30:0]) || rvv_fpu_pkg::is_snan(b_i[30:0]) || rvv_fpu_pkg::is_snan(c_i[30:0]);
      // RISC-V: inf * 0 is invalid even when the addend is a quiet NaN.
      inf_times_zero = (rvv_fpu_pkg::is_inf(a_i[30:0]) && rvv_fpu_pkg::is_zero(b_i[30:0])) || (rvv_fpu_pkg::is_zero(a_i[30:0]) && rvv_fpu_pkg::is_inf(b_i[30:0]));
      prod_inf = rvv_fpu_pkg::is_inf(a_i[30:0]) || rvv_fpu_pkg::is_inf(b_i[30:0]);
      c_inf = rvv_fpu_pkg::is_inf(c_i[30:0]);
      flags_o = 5'd0;
      if (any_nan || inf_times_zero) begin
        result_o = rvv_fpu_pkg::CanonicalNan;
        flags_o[rvv_fpu_pkg::FlagNv] = any_snan || inf_times_zero;
      end else if (prod_inf && c_inf && sign_p != sign_c) begin
        result_o = rvv_fpu_pkg::CanonicalNan;  // inf - inf
        flags_o[rvv_fpu_pkg::FlagNv] = 1'b1;
      end else if (prod_inf) begin
        result_o = {sign_p, 31'h7f80_0000};
      end else if (c_inf) begin
        result_o = {sign_c, 31'h7f80_0000};
      end else begin
        result_o = rounded;
        flags_o[rvv_fpu_pkg::FlagOf] = of;
        flags_o[rvv_fpu_pkg::FlagUf] = uf;
        flags_o[rvv_fpu_pkg::FlagNx] = nx;
      end
    end
  end
endmodule
