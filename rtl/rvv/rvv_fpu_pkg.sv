// rvv_fpu_pkg: operation and rounding-mode encodings of rvv_fpu (the RV32F floating-point unit of the
// future `rvv` platform), and the small bit-level helpers its modules share. Unlike rtl/common/kc_fp_pkg
// (FTZ/DAZ, RNE only) everything here is full IEEE 754 binary32 as the RISC-V F extension requires:
// subnormals in and out, five rounding modes, five exception flags, canonical NaN 0x7fc00000.
package rvv_fpu_pkg;

  // Operations (op_i of rvv_fpu). tests/rvv_fpu/rvv_fpu_ref.h mirrors this list.
  typedef enum logic [4:0] {
    OpAdd     = 5'd0,   // FADD.S      a + b
    OpSub     = 5'd1,   // FSUB.S      a - b
    OpMul     = 5'd2,   // FMUL.S      a * b
    OpMadd    = 5'd3,   // FMADD.S     a * b + c   (one rounding)
    OpMsub    = 5'd4,   // FMSUB.S     a * b - c
    OpNmsub   = 5'd5,   // FNMSUB.S  -(a * b) + c
    OpNmadd   = 5'd6,   // FNMADD.S  -(a * b) - c
    OpDiv     = 5'd7,   // FDIV.S      a / b       (iterative)
    OpSqrt    = 5'd8,   // FSQRT.S     sqrt(a)     (iterative)
    OpMin     = 5'd9,   // FMIN.S
    OpMax     = 5'd10,  // FMAX.S
    OpEq      = 5'd11,  // FEQ.S  (quiet)
    OpLt      = 5'd12,  // FLT.S  (signalling)
    OpLe      = 5'd13,  // FLE.S  (signalling)
    OpClass   = 5'd14,  // FCLASS.S
    OpSgnj    = 5'd15,  // FSGNJ.S
    OpSgnjn   = 5'd16,  // FSGNJN.S
    OpSgnjx   = 5'd17,  // FSGNJX.S
    OpCvtWS   = 5'd18,  // FCVT.W.S    float -> int32, saturating
    OpCvtWuS  = 5'd19,  // FCVT.WU.S   float -> uint32, saturating
    OpCvtSW   = 5'd20,  // FCVT.S.W    int32 (a) -> float
    OpCvtSWu  = 5'd21,  // FCVT.S.WU   uint32 (a) -> float
    OpMvXW    = 5'd22,  // FMV.X.W     bits unchanged
    OpMvWX    = 5'd23   // FMV.W.X     bits unchanged
  } op_e;

  // Rounding modes as in the frm CSR. The core resolves DYN (7) from frm and traps the reserved 5 and 6
  // before issuing; the FPU rounds those like RNE so that its output is still defined.
  localparam logic [2:0] RmRne = 3'd0;
  localparam logic [2:0] RmRtz = 3'd1;
  localparam logic [2:0] RmRdn = 3'd2;
  localparam logic [2:0] RmRup = 3'd3;
  localparam logic [2:0] RmRmm = 3'd4;

  // fflags bit positions: {NV, DZ, OF, UF, NX}.
  localparam int unsigned FlagNv = 4;
  localparam int unsigned FlagDz = 3;
  localparam int unsigned FlagOf = 2;
  localparam int unsigned FlagUf = 1;
  localparam int unsigned FlagNx = 0;

  localparam logic [31:0] CanonicalNan = 32'h7fc0_0000;

  function automatic logic is_nan(input logic [30:0] x);
    is_nan = (x[30:23] == 8'hff) && (x[22:0] != 23'd0);
  endfunction

  // The classification helpers take the magnitude x[30:0] (the sign never matters).
  // Signalling NaN: quiet bit (mantissa MSB) clear.
  function automatic logic is_snan(input logic [30:0] x);
    is_snan = is_nan(x) && !x[22];
  endfunction

  function automatic logic is_inf(input logic [30:0] x);
    is_inf = x == 31'h7f80_0000;
  endfunction

  function automatic logic is_zero(input logic [30:0] x);
    is_zero = x == 31'd0;
  endfunction

  // Round-up decision from the kept LSB, the guard bit and the sticky OR of everything below, for a
  // magnitude of the given sign.
  function automatic logic round_up(input logic [2:0] rm, input logic sign, input logic lsb,
                                    input logic guard, input logic sticky);
    case (rm)
      RmRtz: round_up = 1'b0;
      RmRdn: round_up = sign & (guard | sticky);
      RmRup: round_up = !sign & (guard | sticky);
      RmRmm: round_up = guard;
      default: round_up = guard & (sticky | lsb);  // RNE (and the reserved encodings)
    endcase
  endfunction

  // Unpacks a finite operand into a normalized 24-bit significand (MSB set, or zero for +-0) and the
  // biased exponent of that MSB as a signed number: subnormals become 1.f * 2^(e-127) with e <= 0, so
  // the datapaths see one format (exponents from -22 to 254).
  function automatic logic [35:0] unpack(input logic [30:0] x);
    logic [23:0] mant;
    logic signed [11:0] exp;
    mant = {x[30:23] != 8'd0, x[22:0]};
    exp = (x[30:23] == 8'd0) ? 12'sd1 : $signed({4'd0, x[30:23]});
    // Left-justify a subnormal: a leading-zero count in five halving steps (16, 8, 4, 2, 1), only for
    // a subnormal (a normal's MSB is set; a simulator skips the steps for it and for zero).
    if (x[30:23] == 8'd0 && mant != 24'd0) begin
      if (mant[23:8] == 16'd0) begin mant = mant << 16; exp = exp - 12'sd16; end
      if (mant[23:16] == 8'd0) begin mant = mant << 8; exp = exp - 12'sd8; end
      if (mant[23:20] == 4'd0) begin mant = mant << 4; exp = exp - 12'sd4; end
      if (mant[23:22] == 2'd0) begin mant = mant << 2; exp = exp - 12'sd2; end
      if (!mant[23]) begin mant = mant << 1; exp = exp - 12'sd1; end
    end
    unpack = {exp, mant};
  endfunction

endpackage
