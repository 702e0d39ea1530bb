// rvv_fpu_misc_pkg::misc: the combinational RV32F operations that are not additions: FMIN/FMAX, FEQ/FLT/FLE,
// FCLASS, sign injection, FMV, and the integer conversions (both directions).
//
// FMIN/FMAX are RISC-V (2.2 and later) minimumNumber/maximumNumber: one NaN operand gives the other
// operand, two give the canonical NaN, -0 < +0, and any signalling NaN raises NV.
// FEQ is a quiet comparison (NV only for a signalling NaN); FLT/FLE are signalling (NV for any NaN).
// FCVT.W[U].S saturate as the spec's table says: NaN and +inf/too large give the largest integer,
// -inf/too small the smallest (0 for WU), with NV and no NX; in-range inexact results raise NX.
//
// A function, not a module, so that it computes only where it is called: in rvv_fpu's clocked block, for
// an accepted operation alone; each conversion computes only for its own operations.
package rvv_fpu_misc_pkg;
  // float -> int: a_i = m * 2^(e - 23), shifted so that the integer part lands in fixed[63:32].
  // Returns {flags, result}.
  function automatic logic [36:0] f2i(input logic signed_i, input logic [31:0] a_i, input logic [2:0] rm_i);
    logic [23:0]        mant;
    logic signed [11:0] exp;  // unbiased
    logic [11:0]        shift;
    logic [63:0]        fixed;
    logic               guard;
    logic               sticky;
    logic [32:0]        mag;
    logic               invalid;
    logic [31:0]        result;
    mant = {a_i[30:23] != 8'd0, a_i[22:0]};
    exp = ((a_i[30:23] == 8'd0) ? 12'sd1 : $signed({4'd0, a_i[30:23]})) - 12'sd127;
    guard = 1'b0;
    sticky = 1'b0;
    invalid = 1'b0;
    result = 32'd0;
    if (rvv_fpu_pkg::is_nan(a_i[30:0])) begin
      invalid = 1'b1;
      result = signed_i ? 32'h7fff_ffff : 32'hffff_ffff;
    end else if (exp > 12'sd31) begin
      // Includes inf: too large for any 32-bit integer.
      invalid = 1'b1;
      result = signed_i ? (a_i[31] ? 32'h8000_0000 : 32'h7fff_ffff) : (a_i[31] ? 32'd0 : 32'hffff_ffff);
    end else begin
      // (m << 8) has its MSB at bit 31, weight 2^e; shifting right by 31 - e puts the binary point
      // between bits 32 and 31. A shift beyond 40 leaves only sticky bits, as 40 does.
      shift = 12'(12'sd31 - exp);
      if (shift > 12'd40) shift = 12'd40;
      fixed = {mant, 40'd0} >> shift;
      guard = fixed[31];
      sticky = |fixed[30:0];
      mag = {1'b0, fixed[63:32]} + {32'd0, rvv_fpu_pkg::round_up(rm_i, a_i[31], fixed[32], guard, sticky)};
      if (signed_i) begin
        if (!a_i[31] && mag > 33'h0_7fff_ffff) begin
          invalid = 1'b1;
          result = 32'h7fff_ffff;
        end else if (a_i[31] && mag > 33'h0_8000_0000) begin
          invalid = 1'b1;
          result = 32'h8000_0000;
        end else begin
          result = a_i[31] ? 32'd0 - mag[31:0] : mag[31:0];
        end
      end else begin
        if (!a_i[31] && mag[32]) begin
          invalid = 1'b1;
          result = 32'hffff_ffff;
        end else if (a_i[31] && mag != 33'd0) begin
          invalid = 1'b1;         // negative and not rounding to zero
          result = 32'd0;
        end else begin
          result = mag[31:0];
        end
      end
    end
    f2i = {invalid, 3'b000, !invalid && (guard || sticky), result};
  endfunction

  // int -> float: exact magnitude, left-justified, rounded like every other result. Returns {flags, result}.
  function automatic logic [36:0] i2f(input logic signed_i, input logic [31:0] a_i, input logic [2:0] rm_i);
    logic        sign;
    logic [31:0] mag;
    logic [5:0]  lead_zeros;
    logic [31:0] norm;
    logic [34:0] rounded;  // {result, of, uf, nx}
    sign = signed_i && a_i[31];
    mag = sign ? 32'd0 - a_i : a_i;
    // Leading zeros in five halving steps, shifting as they count (a hardware normaliser's shape).
    norm = mag;
    lead_zeros = '0;
    if (norm[31:16] == '0) begin lead_zeros = lead_zeros + 6'd16; norm = norm << 16; end
    if (norm[31:24] == '0) begin lead_zeros = lead_zeros + 6'd8; norm = norm << 8; end
    if (norm[31:28] == '0) begin lead_zeros = lead_zeros + 6'd4; norm = norm << 4; end
    if (norm[31:30] == '0) begin lead_zeros = lead_zeros + 6'd2; norm = norm << 2; end
    if (!norm[31]) begin lead_zeros = lead_zeros + 6'd1; norm = norm << 1; end
    if (mag == '0) lead_zeros = 6'd32;  // norm is 0, as the shift by 32 gives
    rounded = rvv_fpu_round_pkg::round(sign, 12'sd158 - $signed({6'd0, lead_zeros}),
                                       {norm, {(rvv_fpu_round_pkg::Width - 32){1'b0}}}, 1'b0, rm_i);
    i2f = {2'b00, rounded[2:0], rounded[34:3]};
  endfunction

  // Returns {flags, result} of operation op_i (rvv_fpu_pkg::op_e; not an FMA, FDIV or FSQRT).
  function automatic logic [36:0] misc(input logic [4:0] op_i, input logic [31:0] a_i, input logic [31:0] b_i,
                                       input logic [2:0] rm_i);
    logic        a_nan;
    logic        b_nan;
    logic        any_snan;
    logic        a_lt_b;   // ordered, -0 < +0 (for min/max)
    logic        a_eq_b;   // IEEE equality, +0 == -0, operands not NaN
    logic        a_lt_b_ieee;
    logic [31:0] result;
    logic [4:0]  flags;
    a_nan = rvv_fpu_pkg::is_nan(a_i[30:0]);
    b_nan = rvv_fpu_pkg::is_nan(b_i[30:0]);
    any_snan = rvv_fpu_pkg::is_snan(a_i[30:0]) || rvv_fpu_pkg::is_snan(b_i[30:0]);
    if (a_i[31] != b_i[31]) a_lt_b = a_i[31];
    else if (a_i[31]) a_lt_b = a_i[30:0] > b_i[30:0];
    else a_lt_b = a_i[30:0] < b_i[30:0];
    a_eq_b = (a_i == b_i) || (rvv_fpu_pkg::is_zero(a_i[30:0]) && rvv_fpu_pkg::is_zero(b_i[30:0]));
    a_lt_b_ieee = a_lt_b && !(rvv_fpu_pkg::is_zero(a_i[30:0]) && rvv_fpu_pkg::is_zero(b_i[30:0]));
    result = 32'd0;
    flags = 5'd0;
    unique case (op_i)
      rvv_fpu_pkg::OpMin, rvv_fpu_pkg::OpMax: begin
        flags[rvv_fpu_pkg::FlagNv] = any_snan;
        if (a_nan && b_nan) result = rvv_fpu_pkg::CanonicalNan;
        else if (a_nan) result = b_i;
        else if (b_nan) result = a_i;
        else result = ((op_i == rvv_fpu_pkg::OpMin) == a_lt_b) ? a_i : b_i;
      end
      rvv_fpu_pkg::OpEq: begin
        flags[rvv_fpu_pkg::FlagNv] = any_snan;
        result = {31'd0, !a_nan && !b_nan && a_eq_b};
      end
      rvv_fpu_pkg::OpLt: begin
        flags[rvv_fpu_pkg::FlagNv] = a_nan || b_nan;
        result = {31'd0, !a_nan && !b_nan && a_lt_b_ieee};
      end
      rvv_fpu_pkg::OpLe: begin
        flags[rvv_fpu_pkg::FlagNv] = a_nan || b_nan;
        result = {31'd0, !a_nan && !b_nan && (a_lt_b_ieee || a_eq_b)};
      end
      rvv_fpu_pkg::OpClass: begin
        result[0] = a_i[31] && rvv_fpu_pkg::is_inf(a_i[30:0]);
        result[1] = a_i[31] && a_i[30:23] != 8'd0 && a_i[30:23] != 8'hff;
        result[2] = a_i[31] && a_i[30:23] == 8'd0 && a_i[22:0] != 23'd0;
        result[3] = a_i[31] && rvv_fpu_pkg::is_zero(a_i[30:0]);
        result[4] = !a_i[31] && rvv_fpu_pkg::is_zero(a_i[30:0]);
        result[5] = !a_i[31] && a_i[30:23] == 8'd0 && a_i[22:0] != 23'd0;
        result[6] = !a_i[31] && a_i[30:23] != 8'd0 && a_i[30:23] != 8'hff;
        result[7] = !a_i[31] && rvv_fpu_pkg::is_inf(a_i[30:0]);
        result[8] = rvv_fpu_pkg::is_snan(a_i[30:0]);
        result[9] = a_nan && a_i[22];
      end
      rvv_fpu_pkg::OpSgnj: result = {b_i[31], a_i[30:0]};
      rvv_fpu_pkg::OpSgnjn: result = {!b_i[31], a_i[30:0]};
      rvv_fpu_pkg::OpSgnjx: result = {a_i[31] ^ b_i[31], a_i[30:0]};
      default: result = a_i;  // FMV.X.W, FMV.W.X; the arithmetic ops are not routed here
    endcase
    misc = {flags, result};
    // The conversions return their own {flags, result} (assigned whole: a simulator evaluates a call once
    // per part of a concatenated target).
    if (op_i == rvv_fpu_pkg::OpCvtWS || op_i == rvv_fpu_pkg::OpCvtWuS) begin
      misc = f2i(op_i == rvv_fpu_pkg::OpCvtWS, a_i, rm_i);
    end else if (op_i == rvv_fpu_pkg::OpCvtSW || op_i == rvv_fpu_pkg::OpCvtSWu) begin
      misc = i2f(op_i == rvv_fpu_pkg::OpCvtSW, a_i, rm_i);
    end
  endfunction
endpackage
