// kc_fp_pkg: bit-exact FP32/BF16 arithmetic shared by all kcraft RTL.
//
// Every function is the twin of kcraft::arith::ref::* in isa/common/arith/fp_arith.cpp (same algorithm,
// same widths, same constants); tests/arith compares them on millions of vectors. Semantics (see
// docs/arithmetic.md): x86 SSE with FTZ = DAZ = 1 and round-to-nearest-even (tininess after rounding),
// canonical NaN 0x7fc00000 / 0x7fc0, max/min with -0 < +0 and NaN if either operand is NaN. exp, reci and
// rsqrt are fixed-point approximations (relative error < 2^-23.9 measured).
//
// The functions are combinational and synthesizable: constant-bound loops, no real, no system functions,
// every intermediate at most 64 bits wide (native integers in Verilator). Results are assigned to the
// function name rather than returned because yosys 0.23 does not parse `return`.
package kc_fp_pkg;

  localparam logic [31:0] Fp32CanonicalNan = 32'h7fc0_0000;
  localparam logic [15:0] Bf16CanonicalNan = 16'h7fc0;
  localparam logic [30:0] Fp32InfMagnitude = 31'h7f80_0000;
  localparam logic [31:0] Fp32One = 32'h3f80_0000;

  // exp: round(log2(e) * 2^39) and 2^f ~= sum ExpPolyN * f^N on [0, 1) in Q2.30 (relative minimax, see
  // isa/common/arith/fit_coefficients.py).
  localparam logic [39:0] ExpLog2eQ39 = 40'hb8_aa3b_295c;
  localparam logic [31:0] ExpPoly0 = 32'd1073741824;
  localparam logic [31:0] ExpPoly1 = 32'd744260972;
  localparam logic [31:0] ExpPoly2 = 32'd257944253;
  localparam logic [31:0] ExpPoly3 = 32'd59576866;
  localparam logic [31:0] ExpPoly4 = 32'd10388937;
  localparam logic [31:0] ExpPoly5 = 32'd1338724;
  localparam logic [31:0] ExpPoly6 = 32'd232067;

  // reci seed 1/M ~= 24/17 - 8/17 M (Q1.31); rsqrt seeds 1/sqrt(M) ~= A - B M on [1, 2) and [2, 4).
  localparam logic [31:0] ReciSeedA = 32'd3031741621;
  localparam logic [31:0] ReciSeedB = 32'd1010580540;
  localparam logic [31:0] RsqrtSeedA1 = 32'd2714663486;
  localparam logic [31:0] RsqrtSeedB1 = 32'd614982852;
  localparam logic [31:0] RsqrtSeedA2 = 32'd1919556960;
  localparam logic [31:0] RsqrtSeedB2 = 32'd217429272;
  localparam int unsigned NewtonSteps = 3;

  // ---- helpers ----

  // Both take the magnitude bits x[30:0].
  function automatic logic fp32_is_nan(input logic [30:0] magnitude);
    fp32_is_nan = (magnitude[30:23] == 8'hff) && (magnitude[22:0] != 23'd0);
  endfunction

  function automatic logic fp32_is_inf(input logic [30:0] magnitude);
    fp32_is_inf = magnitude == Fp32InfMagnitude;
  endfunction

  // DAZ: a zero exponent field reads as a zero of the same sign.
  function automatic logic [31:0] fp32_daz(input logic [31:0] x);
    fp32_daz = (x[30:23] == 8'd0) ? {x[31], 31'd0} : x;
  endfunction

  // Leading zeros of v (32 when v == 0). A binary search (four halvings of the window, then its top bit)
  // rather than a loop over the bits: a short, branch-light chain in simulation and in logic.
  function automatic logic [5:0] count_leading_zeros32(input logic [31:0] v);
    logic [31:0] x;
    logic [5:0] count;
    x = v;
    count = 6'd0;
    if (x[31:16] == 16'd0) begin
      count = count + 6'd16;
      x = x << 16;
    end
    if (x[31:24] == 8'd0) begin
      count = count + 6'd8;
      x = x << 8;
    end
    if (x[31:28] == 4'd0) begin
      count = count + 6'd4;
      x = x << 4;
    end
    if (x[31:30] == 2'd0) begin
      count = count + 6'd2;
      x = x << 2;
    end
    // Now x[31:30] != 0 unless v == 0.
    if (v == 32'd0) count_leading_zeros32 = 6'd32;
    else count_leading_zeros32 = count + {5'd0, !x[31]};
  endfunction

  // Unsigned key whose integer order is the numeric order of FP32 values, with -0 just below +0.
  function automatic logic [31:0] fp32_order_key(input logic [31:0] x);
    fp32_order_key = x[31] ? ~x : {1'b1, x[30:0]};
  endfunction

  // ---- conversions ----

  function automatic logic [31:0] bf16_to_fp32(input logic [15:0] x);
    logic [31:0] wide;
    wide = {x, 16'd0};
    bf16_to_fp32 = fp32_is_nan(wide[30:0]) ? Fp32CanonicalNan : fp32_daz(wide);
  endfunction

  function automatic logic [15:0] fp32_to_bf16(input logic [31:0] x);
    logic [31:0] flushed;
    logic round_up;
    flushed = fp32_daz(x);
    // Round to nearest even at bit 16; a carry into the exponent is the correct result (up to infinity).
    round_up = flushed[15] & ((flushed[14:0] != 15'd0) | flushed[16]);
    if (fp32_is_nan(x[30:0])) fp32_to_bf16 = Bf16CanonicalNan;
    else fp32_to_bf16 = flushed[31:16] + {15'd0, round_up};
  endfunction

  function automatic logic [31:0] int32_to_fp32(input logic [31:0] x);
    logic [31:0] magnitude;
    logic [31:0] normalized;
    logic [5:0] leading_zeros;
    logic [24:0] mant;
    logic [7:0] biased_exp;
    magnitude = x[31] ? (32'd0 - x) : x;
    leading_zeros = count_leading_zeros32(magnitude);
    normalized = magnitude << leading_zeros;
    mant = {1'b0, normalized[31:8]}
         + {24'd0, normalized[7] & ((normalized[6:0] != 7'd0) | normalized[8])};
    biased_exp = 8'd158 - {2'd0, leading_zeros} + {7'd0, mant[24]};
    if (magnitude == 32'd0) int32_to_fp32 = 32'd0;
    else int32_to_fp32 = {x[31], biased_exp, mant[24] ? mant[23:1] : mant[22:0]};
  endfunction

  // ---- add / sub / mul ----

  function automatic logic [31:0] fp32_add(input logic [31:0] a, input logic [31:0] b);
    logic swap;
    logic [31:0] big_op;
    logic [30:0] small_mag;
    logic [7:0] e_big;
    logic [7:0] shift;
    logic [26:0] m_big;         // 24-bit significand + guard, round, sticky
    logic [26:0] m_small_full;
    logic [26:0] lost_mask;
    logic [26:0] m_small;
    logic [27:0] sum;
    logic [5:0] leading_zeros;
    logic [26:0] normalized;
    logic [8:0] biased_exp;
    logic [24:0] mant;
    logic [31:0] result;
    swap = a[30:0] < b[30:0];
    big_op = swap ? b : a;
    small_mag = swap ? a[30:0] : b[30:0];
    e_big = big_op[30:23];
    m_big = {1'b1, big_op[22:0], 3'b000};
    m_small_full = {1'b1, small_mag[22:0], 3'b000};
    shift = e_big - small_mag[30:23];
    lost_mask = (shift >= 8'd27) ? 27'h7ff_ffff : ((27'd1 << shift) - 27'd1);
    m_small = ((shift >= 8'd27) ? 27'd0 : (m_small_full >> shift))
            | {26'd0, (m_small_full & lost_mask) != 27'd0};
    sum = (a[31] == b[31]) ? ({1'b0, m_big} + {1'b0, m_small}) : ({1'b0, m_big} - {1'b0, m_small});
    // The padding 1 below bit 0 caps the count at 27 when sum[26:0] is zero.
    leading_zeros = count_leading_zeros32({sum[26:0], 5'b10000});
    if (sum[27]) begin
      normalized = {sum[27:2], sum[1] | sum[0]};
      biased_exp = {1'b0, e_big} + 9'd1;
    end else begin
      normalized = sum[26:0] << leading_zeros;
      biased_exp = {1'b0, e_big} - {3'd0, leading_zeros};
    end
    mant = {1'b0, normalized[26:3]}
         + {24'd0, normalized[2] & ((normalized[1:0] != 2'd0) | normalized[3])};
    biased_exp = biased_exp + {8'd0, mant[24]};

    if (fp32_is_nan(a[30:0]) || fp32_is_nan(b[30:0])) result = Fp32CanonicalNan;
    else if (fp32_is_inf(a[30:0]) && fp32_is_inf(b[30:0])) result = (a[31] == b[31]) ? a : Fp32CanonicalNan;
    else if (fp32_is_inf(a[30:0])) result = a;
    else if (fp32_is_inf(b[30:0])) result = b;
    else if (a[30:23] == 8'd0 && b[30:23] == 8'd0) result = {a[31] & b[31], 31'd0};
    else if (a[30:23] == 8'd0) result = b;
    else if (b[30:23] == 8'd0) result = a;
    else if (sum == 28'd0) result = 32'd0;  // exact cancellation: +0
    // Results below 2^-126 only come from near-equal operands and are exact: flush (FTZ).
    else if (!sum[27] && {2'd0, leading_zeros} >= e_big) result = {big_op[31], 31'd0};
    else if (biased_exp >= 9'd255) result = {big_op[31], Fp32InfMagnitude};
    else result = {big_op[31], biased_exp[7:0], mant[24] ? mant[23:1] : mant[22:0]};
    fp32_add = result;
  endfunction

  function automatic logic [31:0] fp32_sub(input logic [31:0] a, input logic [31:0] b);
    fp32_sub = fp32_add(a, {~b[31], b[30:0]});
  endfunction

  function automatic logic [31:0] fp32_mul(input logic [31:0] a, input logic [31:0] b);
    logic sign;
    logic [47:0] product;
    logic [23:0] mant_truncated;
    logic guard;
    logic sticky;
    logic [24:0] mant;
    logic [9:0] exp_sum;  // biased result exponent + 127
    logic [31:0] result;
    sign = a[31] ^ b[31];
    product = {24'd0, 1'b1, a[22:0]} * {24'd0, 1'b1, b[22:0]};  // [2^46, 2^48)
    if (product[47]) begin
      mant_truncated = product[47:24];
      guard = product[23];
      sticky = product[22:0] != 23'd0;
    end else begin
      mant_truncated = product[46:23];
      guard = product[22];
      sticky = product[21:0] != 22'd0;
    end
    mant = {1'b0, mant_truncated} + {24'd0, guard & (sticky | mant_truncated[0])};
    exp_sum = {2'd0, a[30:23]} + {2'd0, b[30:23]} + {9'd0, product[47]} + {9'd0, mant[24]};

    if (fp32_is_nan(a[30:0]) || fp32_is_nan(b[30:0])) result = Fp32CanonicalNan;
    else if (a[30:23] == 8'hff || b[30:23] == 8'hff)
      result = (a[30:23] == 8'd0 || b[30:23] == 8'd0) ? Fp32CanonicalNan : {sign, Fp32InfMagnitude};
    else if (a[30:23] == 8'd0 || b[30:23] == 8'd0) result = {sign, 31'd0};
    // Tininess after rounding (as x86): the exponent is checked on the rounded significand.
    else if (exp_sum <= 10'd127) result = {sign, 31'd0};
    else if (exp_sum >= 10'd382) result = {sign, Fp32InfMagnitude};
    else result = {sign, 8'(exp_sum - 10'd127), mant[24] ? mant[23:1] : mant[22:0]};
    fp32_mul = result;
  endfunction

  // Exact BF16 x BF16 -> FP32 (8x8-bit significand product, no rounding); equals
  // fp32_mul(bf16_to_fp32(a), bf16_to_fp32(b)) for every input pair.
  function automatic logic [31:0] bf16_mul(input logic [15:0] a, input logic [15:0] b);
    logic sign;
    logic [15:0] product;
    logic [22:0] frac;
    logic [9:0] exp_sum;
    logic a_nan;
    logic b_nan;
    logic [31:0] result;
    sign = a[15] ^ b[15];
    product = {8'd0, 1'b1, a[6:0]} * {8'd0, 1'b1, b[6:0]};  // [2^14, 2^16)
    frac = product[15] ? {product[14:0], 8'd0} : {product[13:0], 9'd0};
    exp_sum = {2'd0, a[14:7]} + {2'd0, b[14:7]} + {9'd0, product[15]};
    a_nan = (a[14:7] == 8'hff) && (a[6:0] != 7'd0);
    b_nan = (b[14:7] == 8'hff) && (b[6:0] != 7'd0);

    if (a_nan || b_nan) result = Fp32CanonicalNan;
    else if (a[14:7] == 8'hff || b[14:7] == 8'hff)
      result = (a[14:7] == 8'd0 || b[14:7] == 8'd0) ? Fp32CanonicalNan : {sign, Fp32InfMagnitude};
    else if (a[14:7] == 8'd0 || b[14:7] == 8'd0) result = {sign, 31'd0};
    else if (exp_sum <= 10'd127) result = {sign, 31'd0};
    else if (exp_sum >= 10'd382) result = {sign, Fp32InfMagnitude};
    else result = {sign, 8'(exp_sum - 10'd127), frac};
    bf16_mul = result;
  endfunction

  // Multiply-accumulate c + a * b, the systolic array's PEs and the vliw vector MACs: equal to
  // fp32_add(c, bf16_mul(a, b)) for every input (tests/arith compares them). For simulation, the common
  // case (a and b normal with a normal product, c normal or zero-exponent) runs fp32_add's steps without
  // its special cases and counts leading zeros only after a cancellation; every other input takes the two
  // general functions. That is about half of a Verilated model's work per MAC. For synthesis (the macro
  // SYNTHESIS, which yosys defines) it is the two functions: in hardware a bypass saves nothing, and yosys
  // 0.23 leaves fp32_add's shifters undriven when it is called from the function's other branch.
  function automatic logic [31:0] bf16_mac(input logic [31:0] c, input logic [15:0] a, input logic [15:0] b);
`ifdef SYNTHESIS
    bf16_mac = fp32_add(c, bf16_mul(a, b));
`else
    logic [15:0] product;   // significand product, [2^14, 2^16)
    logic [9:0] exp_sum;    // biased product exponent + 127
    logic [31:0] p;         // the product (exact)
    logic [31:0] swap_mask;
    logic [31:0] big_op;
    logic [30:0] small_mag;
    logic [7:0] e_big;
    logic [7:0] shift;
    logic [26:0] m_small_full;
    logic [26:0] m_small;
    logic [27:0] sub_mask;
    logic [27:0] sum;
    logic [4:0] lz_step;
    logic [5:0] leading_zeros;
    logic [26:0] normalized;
    logic [8:0] biased_exp;
    logic [24:0] mant;
    logic [31:0] result;
    product = {8'd0, 1'b1, a[6:0]} * {8'd0, 1'b1, b[6:0]};
    exp_sum = {2'd0, a[14:7]} + {2'd0, b[14:7]} + {9'd0, product[15]};
    // a, b normal (exponent 1..254), the product normal (exp_sum 128..381), c not NaN or infinity.
    if (8'(a[14:7] - 8'd1) < 8'd254 && 8'(b[14:7] - 8'd1) < 8'd254 && 10'(exp_sum - 10'd128) < 10'd254 &&
        c[30:23] != 8'hff) begin
      p = {a[15] ^ b[15], 8'(exp_sum - 10'd127),
           product[15] ? {product[14:0], 8'd0} : {product[13:0], 9'd0}};
      if (c[30:23] == 8'd0) begin
        result = p;  // DAZ: c reads as zero
      end else begin
        // big_op = swap ? p : c, small_mag the other's magnitude, selected by a mask (a data-dependent
        // branch in the Verilated model otherwise).
        swap_mask = 32'd0 - {31'd0, c[30:0] < p[30:0]};
        big_op = c ^ ((c ^ p) & swap_mask);
        small_mag = p[30:0] ^ ((c[30:0] ^ p[30:0]) & swap_mask[30:0]);
        e_big = big_op[30:23];
        shift = e_big - small_mag[30:23];
        m_small_full = {1'b1, small_mag[22:0], 3'b000};
        // The bits shifted out are never all zero past 26 (the hidden one), so they leave a sticky 1.
        if (shift >= 8'd27) m_small = 27'd1;
        else m_small = (m_small_full >> shift) | {26'd0, (m_small_full & ((27'd1 << shift) - 27'd1)) != 27'd0};
        // m_big + m_small, or m_big - m_small as m_big + ~m_small + 1 for opposite signs.
        sub_mask = 28'd0 - {27'd0, c[31] ^ p[31]};
        sum = {2'b01, big_op[22:0], 3'b000} + ({1'b0, m_small} ^ sub_mask) + {27'd0, c[31] ^ p[31]};
        leading_zeros = 6'd0;
        if (sum[27:26] == 2'b00) begin  // cancellation
          // count_leading_zeros32({sum[26:0], 5'b10000}) as shifts by 16, 8, 4, 2 and 1 or 0.
          normalized = sum[26:0];
          lz_step = {normalized[26:11] == 16'd0, 4'd0};
          normalized = normalized << lz_step;
          leading_zeros = {1'b0, lz_step};
          lz_step = {1'b0, normalized[26:19] == 8'd0, 3'd0};
          normalized = normalized << lz_step;
          leading_zeros = leading_zeros + {1'b0, lz_step};
          lz_step = {2'b0, normalized[26:23] == 4'd0, 2'd0};
          normalized = normalized << lz_step;
          leading_zeros = leading_zeros + {1'b0, lz_step};
          lz_step = {3'b0, normalized[26:25] == 2'd0, 1'd0};
          normalized = normalized << lz_step;
          leading_zeros = leading_zeros + {1'b0, lz_step};
          lz_step = {4'b0, !normalized[26]};
          normalized = normalized << lz_step;
          leading_zeros = leading_zeros + {1'b0, lz_step};
          biased_exp = {1'b0, e_big} - {3'd0, leading_zeros};
        end else begin
          // sum[27] ? {sum[27:2], sum[1] | sum[0]} : sum[26:0], without a branch.
          normalized = 27'(sum >> sum[27]) | {26'd0, sum[27] & sum[0]};
          biased_exp = {1'b0, e_big} + {8'd0, sum[27]};
        end
        mant = {1'b0, normalized[26:3]}
             + {24'd0, normalized[2] & ((normalized[1:0] != 2'd0) | normalized[3])};
        biased_exp = biased_exp + {8'd0, mant[24]};
        if (sum == 28'd0) result = 32'd0;
        else if (!sum[27] && {2'd0, leading_zeros} >= e_big) result = {big_op[31], 31'd0};
        else if (biased_exp >= 9'd255) result = {big_op[31], Fp32InfMagnitude};
        else result = {big_op[31], biased_exp[7:0], mant[24] ? mant[23:1] : mant[22:0]};
      end
    end else begin
      result = fp32_add(c, bf16_mul(a, b));
    end
    bf16_mac = result;
`endif
  endfunction

  // ---- max / min ----

  function automatic logic [31:0] fp32_max(input logic [31:0] a, input logic [31:0] b);
    logic [31:0] x;
    logic [31:0] y;
    x = fp32_daz(a);
    y = fp32_daz(b);
    if (fp32_is_nan(a[30:0]) || fp32_is_nan(b[30:0])) fp32_max = Fp32CanonicalNan;
    else fp32_max = (fp32_order_key(x) >= fp32_order_key(y)) ? x : y;
  endfunction

  function automatic logic [31:0] fp32_min(input logic [31:0] a, input logic [31:0] b);
    logic [31:0] x;
    logic [31:0] y;
    x = fp32_daz(a);
    y = fp32_daz(b);
    if (fp32_is_nan(a[30:0]) || fp32_is_nan(b[30:0])) fp32_min = Fp32CanonicalNan;
    else fp32_min = (fp32_order_key(x) <= fp32_order_key(y)) ? x : y;
  endfunction

  // ---- special functions (fixed-point approximations) ----

  // exp(x) = 2^(n + f): t = x log2(e) in Q.32 (24 x 40-bit product), n = floor(t), 2^f by a degree-6
  // Horner polynomial in Q2.30, rounded half-up to 24 bits.
  function automatic logic [31:0] fp32_exp(input logic [31:0] x);
    logic [63:0] product;
    logic [7:0] shift;
    logic [39:0] t_mag;
    logic [31:0] f;
    logic [9:0] n;  // two's complement, in [-185, 184]
    logic [31:0] q;
    logic [25:0] q_top;  // final Horner value >> 6
    logic [24:0] mant;
    logic [9:0] biased_exp;
    logic [31:0] result;
    product = 64'({1'b1, x[22:0]}) * 64'(ExpLog2eQ39);
    shift = 8'd157 - x[30:23];  // 150 + 39 - 32 - e; only used for e <= 133
    t_mag = 40'(product >> shift);
    // n = floor(t), f = t - n for t = -|t| when x < 0.
    f = x[31] ? (32'd0 - t_mag[31:0]) : t_mag[31:0];
    n = x[31] ? (10'd0 - {2'd0, t_mag[39:32]} - {9'd0, t_mag[31:0] != 32'd0}) : {2'd0, t_mag[39:32]};
    q = ExpPoly6;
    q = ExpPoly5 + 32'((64'(q) * 64'(f)) >> 32);
    q = ExpPoly4 + 32'((64'(q) * 64'(f)) >> 32);
    q = ExpPoly3 + 32'((64'(q) * 64'(f)) >> 32);
    q = ExpPoly2 + 32'((64'(q) * 64'(f)) >> 32);
    q = ExpPoly1 + 32'((64'(q) * 64'(f)) >> 32);
    q_top = 26'((ExpPoly0 + 32'((64'(q) * 64'(f)) >> 32)) >> 6);  // 2^f in [2^30, 2^31] >> 6
    // Round to 24 bits; 2^f rounded up to 2.0 (q_top[25]) moves to the next binade.
    if (q_top[25]) mant = {1'b0, q_top[25:2]} + {24'd0, q_top[1]};
    else mant = {1'b0, q_top[24:1]} + {24'd0, q_top[0]};
    biased_exp = n + 10'd127 + {9'd0, q_top[25]} + {9'd0, mant[24]};

    if (fp32_is_nan(x[30:0])) result = Fp32CanonicalNan;
    else if (x[30:23] == 8'd0) result = Fp32One;  // +-0, (DAZ) subnormals
    // |x| >= 128, including infinities, is far beyond the overflow (88.7) and underflow (-87.3) limits.
    else if (x[30:23] >= 8'd134) result = x[31] ? 32'd0 : {1'b0, Fp32InfMagnitude};
    else if (biased_exp[9] || biased_exp == 10'd0) result = 32'd0;  // FTZ
    else if (biased_exp >= 10'd255) result = {1'b0, Fp32InfMagnitude};
    else result = {1'b0, biased_exp[7:0], mant[24] ? mant[23:1] : mant[22:0]};
    fp32_exp = result;
  endfunction

  // 1/x = (1/M) 2^-(e-127), M in [1, 2): linear seed and Newton-Raphson r' = r (2 - M r) in Q1.31.
  // Every iterate is <= 1/M <= 1, so r fits in 32 bits and each product in 64.
  function automatic logic [31:0] fp32_reci(input logic [31:0] x);
    logic [63:0] m32;  // Q1.31
    logic [31:0] r;
    logic [31:0] two_minus_mr;  // Q1.31
    logic [24:0] mant;
    logic [9:0] biased_exp;
    logic [31:0] result;
    m32 = {32'd0, 1'b1, x[22:0], 8'd0};
    r = ReciSeedA - 32'((64'({1'b1, x[22:0]}) * 64'(ReciSeedB)) >> 23);
    for (int step = 0; step < NewtonSteps; step++) begin
      two_minus_mr = 32'((64'h8000_0000_0000_0000 - m32 * 64'(r)) >> 31);
      r = 32'((64'(r) * 64'(two_minus_mr)) >> 31);
    end
    // r in (2^30, 2^31]: round to 24 bits.
    if (r[31]) mant = {1'b0, r[31:8]} + {24'd0, r[7]};
    else mant = {1'b0, r[30:7]} + {24'd0, r[6]};
    // 253 - e for 1/M in [0.5, 1); wraps past 255 for e = 254 (flushed below).
    biased_exp = 10'd253 - {2'd0, x[30:23]} + {9'd0, r[31]} + {9'd0, mant[24]};

    if (fp32_is_nan(x[30:0])) result = Fp32CanonicalNan;
    else if (x[30:23] == 8'hff) result = {x[31], 31'd0};
    else if (x[30:23] == 8'd0) result = {x[31], Fp32InfMagnitude};
    else if (biased_exp == 10'd0 || biased_exp > 10'd255) result = {x[31], 31'd0};  // FTZ
    else result = {x[31], biased_exp[7:0], mant[24] ? mant[23:1] : mant[22:0]};
    fp32_reci = result;
  endfunction

  // 1/sqrt(x) = (1/sqrt(M')) 2^(-E'/2), E' even, M' in [1, 4): per-octave linear seed and Newton-Raphson
  // y' = y (3 - M' y^2) / 2 in Q1.31. Every iterate is <= 1/sqrt(M') <= 1.
  function automatic logic [31:0] fp32_rsqrt(input logic [31:0] x);
    logic odd_exp;
    logic [31:0] m30;  // Q2.30
    logic [31:0] y;
    logic [31:0] y_squared;  // Q1.31
    logic [31:0] three_minus;  // Q2.30
    logic [24:0] mant;
    logic [7:0] biased_exp;
    logic [31:0] result;
    odd_exp = !x[23];  // biased exponent even <=> unbiased exponent odd
    m30 = odd_exp ? {1'b1, x[22:0], 8'd0} : {2'b01, x[22:0], 7'd0};
    if (odd_exp) y = RsqrtSeedA2 - 32'((64'(m30) * 64'(RsqrtSeedB2)) >> 30);
    else y = RsqrtSeedA1 - 32'((64'(m30) * 64'(RsqrtSeedB1)) >> 30);
    for (int step = 0; step < NewtonSteps; step++) begin
      y_squared = 32'((64'(y) * 64'(y)) >> 31);
      three_minus = 32'((64'h6000_0000_0000_0000 - 64'(m30) * 64'(y_squared)) >> 31);
      y = 32'((64'(y) * 64'(three_minus)) >> 31);
    end
    if (y[31]) mant = {1'b0, y[31:8]} + {24'd0, y[7]};
    else mant = {1'b0, y[30:7]} + {24'd0, y[6]};
    biased_exp = 8'((9'd380 - {1'd0, x[30:23]}) >> 1) + {7'd0, y[31]} + {7'd0, mant[24]};

    if (fp32_is_nan(x[30:0])) result = Fp32CanonicalNan;
    else if (x[30:23] == 8'd0) result = {x[31], Fp32InfMagnitude};  // +-0, (DAZ) subnormals
    else if (x[31]) result = Fp32CanonicalNan;
    else if (x[30:23] == 8'hff) result = 32'd0;
    else result = {1'b0, biased_exp[7:0], mant[24] ? mant[23:1] : mant[22:0]};
    fp32_rsqrt = result;
  endfunction

  function automatic logic [31:0] fp32_sqrt(input logic [31:0] x);
    if (fp32_is_nan(x[30:0])) fp32_sqrt = Fp32CanonicalNan;
    else if (x[30:23] == 8'd0) fp32_sqrt = {x[31], 31'd0};
    else if (x[31]) fp32_sqrt = Fp32CanonicalNan;
    else if (x[30:23] == 8'hff) fp32_sqrt = {1'b0, Fp32InfMagnitude};
    else fp32_sqrt = fp32_mul(x, fp32_rsqrt(x));
  endfunction

endpackage
