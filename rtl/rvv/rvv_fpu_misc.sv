// rvv_fpu_misc: the combinational RV32F operations that are not additions: FMIN/FMAX, FEQ/FLT/FLE,
// FCLASS, sign injection, FMV, and the integer conversions (both directions).
//
// FMIN/FMAX are RISC-V (2.2 and later) minimumNumber/maximumNumber: one NaN operand gives the other
// operand, two give the canonical NaN, -0 < +0, and any signalling NaN raises NV.
// FEQ is a quiet comparison (NV only for a signalling NaN); FLT/FLE are signalling (NV for any NaN).
// FCVT.W[U].S saturate as the spec's table says: NaN and +inf/too large give the largest integer,
// -inf/too small the smallest (0 for WU), with NV and no NX; in-range inexact results raise NX.
module rvv_fpu_misc (
    input  logic             en_i,     // an operation is accepted: otherwise the outputs are 0
    input  logic [4:0]       op_i,     // rvv_fpu_pkg::op_e
    input  logic [31:0]      a_i,
    input  logic [31:0]      b_i,
    input  logic [2:0]       rm_i,
    output logic [31:0]      result_o,
    output logic [4:0]       flags_o
);
  logic               a_nan;
  logic               b_nan;
  logic               any_snan;
  logic               a_lt_b;   // ordered, -0 < +0 (for min/max)
  logic               a_eq_b;   // IEEE equality, +0 == -0, operands not NaN
  logic               a_lt_b_ieee;
  // float -> int
  logic [23:0]        f2i_mant;
  logic signed [11:0] f2i_exp;  // unbiased
  logic [11:0]        f2i_shift;
  logic [63:0]        f2i_fixed;
  logic               f2i_guard;
  logic               f2i_sticky;
  logic [32:0]        f2i_mag;
  logic               f2i_signed;
  logic               f2i_invalid;
  logic [31:0]        f2i_result;
  // int -> float
  logic               i2f_sign;
  logic [31:0]        i2f_mag;
  logic [5:0]         i2f_lead_zeros;
  logic [31:0]        i2f_norm;
  logic [31:0]        i2f_result;
  logic               i2f_of;
  logic               i2f_uf;
  logic               i2f_nx;

  always_comb begin
    // Operand isolation: idle, the block holds its outputs at zero (and a simulator skips it).
    a_nan = '0;
    b_nan = '0;
    any_snan = '0;
    a_lt_b = '0;
    a_eq_b = '0;
    a_lt_b_ieee = '0;
    if (en_i) begin
      a_nan = rvv_fpu_pkg::is_nan(a_i[30:0]);
      b_nan = rvv_fpu_pkg::is_nan(b_i[30:0]);
      any_snan = rvv_fpu_pkg::is_snan(a_i[30:0]) || rvv_fpu_pkg::is_snan(b_i[30:0]);
      if (a_i[31] != b_i[31]) a_lt_b = a_i[31];
      else if (a_i[31]) a_lt_b = a_i[30:0] > b_i[30:0];
      else a_lt_b = a_i[30:0] < b_i[30:0];
      a_eq_b = (a_i == b_i) || (rvv_fpu_pkg::is_zero(a_i[30:0]) && rvv_fpu_pkg::is_zero(b_i[30:0]));
      a_lt_b_ieee = a_lt_b && !(rvv_fpu_pkg::is_zero(a_i[30:0]) && rvv_fpu_pkg::is_zero(b_i[30:0]));
    end
  end

  // float -> int: a_i = m * 2^(e - 23), shifted so that the integer part lands in f2i_fixed[63:32].
  // Each conversion computes only for its own operations (operand isolation, as for the whole block).
  logic f2i_en, i2f_en;
  assign f2i_en = en_i && (op_i == rvv_fpu_pkg::OpCvtWS || op_i == rvv_fpu_pkg::OpCvtWuS);
  assign i2f_en = en_i && (op_i == rvv_fpu_pkg::OpCvtSW || op_i == rvv_fpu_pkg::OpCvtSWu);

  always_comb begin
    // Operand isolation: idle, the block holds its outputs at zero (and a simulator skips it).
    f2i_mant = '0;
    f2i_exp = '0;
    f2i_signed = '0;
    f2i_shift = '0;
    f2i_fixed = '0;
    f2i_guard = '0;
    f2i_sticky = '0;
    f2i_mag = '0;
    f2i_invalid = '0;
    f2i_result = '0;
    if (f2i_en) begin
      f2i_mant = {a_i[30:23] != 8'd0, a_i[22:0]};
      f2i_exp = ((a_i[30:23] == 8'd0) ? 12'sd1 : $signed({4'd0, a_i[30:23]})) - 12'sd127;
      f2i_signed = op_i == rvv_fpu_pkg::OpCvtWS;
      f2i_shift = 12'd0;
      f2i_fixed = 64'd0;
      f2i_guard = 1'b0;
      f2i_sticky = 1'b0;
      f2i_mag = 33'd0;
      f2i_invalid = 1'b0;
      f2i_result = 32'd0;
      if (a_nan) begin
        f2i_invalid = 1'b1;
        f2i_result = f2i_signed ? 32'h7fff_ffff : 32'hffff_ffff;
      end else if (f2i_exp > 12'sd31) begin
        // Includes inf: too large for any 32-bit integer.
        f2i_invalid = 1'b1;
        f2i_result = f2i_signed ? (a_i[31] ? 32'h8000_0000 : 32'h7fff_ffff)
                                : (a_i[31] ? 32'd0 : 32'hffff_ffff);
      end else begin
        // (m << 8) has its MSB at bit 31, weight 2^e; shifting right by 31 - e puts the binary point
        // between bits 32 and 31. A shift beyond 40 leaves only sticky bits, as 40 does.
        f2i_shift = 12'(12'sd31 - f2i_exp);
        if (f2i_shift > 12'd40) f2i_shift = 12'd40;
        f2i_fixed = {f2i_mant, 40'd0} >> f2i_shift;
        f2i_guard = f2i_fixed[31];
        f2i_sticky = |f2i_fixed[30:0];
        f2i_mag = {1'b0, f2i_fixed[63:32]}
                  + {32'd0, rvv_fpu_pkg::round_up(rm_i, a_i[31], f2i_fixed[32], f2i_guard, f2i_sticky)};
        if (f2i_signed) begin
          if (!a_i[31] && f2i_mag > 33'h0_7fff_ffff) begin
            f2i_invalid = 1'b1;
            f2i_result = 32'h7fff_ffff;
          end else if (a_i[31] && f2i_mag > 33'h0_8000_0000) begin
            f2i_invalid = 1'b1;
            f2i_result = 32'h8000_0000;
          end else begin
            f2i_result = a_i[31] ? 32'd0 - f2i_mag[31:0] : f2i_mag[31:0];
          end
        end else begin
          if (!a_i[31] && f2i_mag[32]) begin
            f2i_invalid = 1'b1;
            f2i_result = 32'hffff_ffff;
          end else if (a_i[31] && f2i_mag != 33'd0) begin
            f2i_invalid = 1'b1;         // negative and not rounding to zero
            f2i_result = 32'd0;
          end else begin
            f2i_result = f2i_mag[31:0];
          end
        end
      end
    end
  end

  // int -> float: exact magnitude, left-justified, rounded like every other result.
  always_comb begin
    // Operand isolation: idle, the block holds its outputs at zero (and a simulator skips it).
    i2f_sign = '0;
    i2f_mag = '0;
    i2f_lead_zeros = '0;
    i2f_norm = '0;
    if (i2f_en) begin
      i2f_sign = (op_i == rvv_fpu_pkg::OpCvtSW) && a_i[31];
      i2f_mag = i2f_sign ? 32'd0 - a_i : a_i;
      // Leading zeros in five halving steps, shifting as they count (a hardware normaliser's shape).
      i2f_norm = i2f_mag;
      if (i2f_norm[31:16] == '0) begin i2f_lead_zeros = i2f_lead_zeros + 6'd16; i2f_norm = i2f_norm << 16; end
      if (i2f_norm[31:24] == '0) begin i2f_lead_zeros = i2f_lead_zeros + 6'd8; i2f_norm = i2f_norm << 8; end
      if (i2f_norm[31:28] == '0) begin i2f_lead_zeros = i2f_lead_zeros + 6'd4; i2f_norm = i2f_norm << 4; end
      if (i2f_norm[31:30] == '0) begin i2f_lead_zeros = i2f_lead_zeros + 6'd2; i2f_norm = i2f_norm << 2; end
      if (!i2f_norm[31]) begin i2f_lead_zeros = i2f_lead_zeros + 6'd1; i2f_norm = i2f_norm << 1; end
      if (i2f_mag == '0) i2f_lead_zeros = 6'd32;  // i2f_norm is 0, as the shift by 32 gives
    end
  end

  rvv_fpu_round #(.Width(32)) u_round (
      .en_i(i2f_en), .sign_i(i2f_sign), .exp_i(12'sd158 - $signed({6'd0, i2f_lead_zeros})), .mant_i(i2f_norm),
      .sticky_i(1'b0), .rm_i(rm_i), .result_o(i2f_result), .of_o(i2f_of), .uf_o(i2f_uf), .nx_o(i2f_nx));

  always_comb begin
    result_o = 32'd0;
    flags_o = 5'd0;
    unique case (op_i)
      rvv_fpu_pkg::OpMin, rvv_fpu_pkg::OpMax: begin
        flags_o[rvv_fpu_pkg::FlagNv] = any_snan;
        if (a_nan && b_nan) result_o = rvv_fpu_pkg::CanonicalNan;
        else if (a_nan) result_o = b_i;
        else if (b_nan) result_o = a_i;
        else result_o = ((op_i == rvv_fpu_pkg::OpMin) == a_lt_b) ? a_i : b_i;
      end
      rvv_fpu_pkg::OpEq: begin
        flags_o[rvv_fpu_pkg::FlagNv] = any_snan;
        result_o = {31'd0, !a_nan && !b_nan && a_eq_b};
      end
      rvv_fpu_pkg::OpLt: begin
        flags_o[rvv_fpu_pkg::FlagNv] = a_nan || b_nan;
        result_o = {31'd0, !a_nan && !b_nan && a_lt_b_ieee};
      end
      rvv_fpu_pkg::OpLe: begin
        flags_o[rvv_fpu_pkg::FlagNv] = a_nan || b_nan;
        result_o = {31'd0, !a_nan && !b_nan && (a_lt_b_ieee || a_eq_b)};
      end
      rvv_fpu_pkg::OpClass: begin
        result_o[0] = a_i[31] && rvv_fpu_pkg::is_inf(a_i[30:0]);
        result_o[1] = a_i[31] && a_i[30:23] != 8'd0 && a_i[30:23] != 8'hff;
        result_o[2] = a_i[31] && a_i[30:23] == 8'd0 && a_i[22:0] != 23'd0;
        result_o[3] = a_i[31] && rvv_fpu_pkg::is_zero(a_i[30:0]);
        result_o[4] = !a_i[31] && rvv_fpu_pkg::is_zero(a_i[30:0]);
        result_o[5] = !a_i[31] && a_i[30:23] == 8'd0 && a_i[22:0] != 23'd0;
        result_o[6] = !a_i[31] && a_i[30:23] != 8'd0 && a_i[30:23] != 8'hff;
        result_o[7] = !a_i[31] && rvv_fpu_pkg::is_inf(a_i[30:0]);
        result_o[8] = rvv_fpu_pkg::is_snan(a_i[30:0]);
        result_o[9] = a_nan && a_i[22];
      end
      rvv_fpu_pkg::OpSgnj: result_o = {b_i[31], a_i[30:0]};
      rvv_fpu_pkg::OpSgnjn: result_o = {!b_i[31], a_i[30:0]};
      rvv_fpu_pkg::OpSgnjx: result_o = {a_i[31] ^ b_i[31], a_i[30:0]};
      rvv_fpu_pkg::OpCvtWS, rvv_fpu_pkg::OpCvtWuS: begin
        result_o = f2i_result;
        flags_o[rvv_fpu_pkg::FlagNv] = f2i_invalid;
        flags_o[rvv_fpu_pkg::FlagNx] = !f2i_invalid && (f2i_guard || f2i_sticky);
      end
      rvv_fpu_pkg::OpCvtSW, rvv_fpu_pkg::OpCvtSWu: begin
        result_o = i2f_result;
        flags_o = {2'b00, i2f_of, i2f_uf, i2f_nx};
      end
      default: result_o = a_i;  // FMV.X.W, FMV.W.X; the arithmetic ops are not routed here
    endcase
  end
endmodule
