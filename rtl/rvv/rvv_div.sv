// rvv_div: the M extension's DIV, DIVU, REM and REMU, iterative: restoring division of the magnitudes,
// BitsPerCycle quotient bits per cycle, signs applied at the end. RISC-V's special cases need no trap:
// x / 0 = all ones and x % 0 = x; (-2^31) / (-1) = -2^31 and its remainder 0 come out of the magnitudes.
// Handshake: start_i on a cycle where busy_o is low begins; done_o is high for one cycle 32 / BitsPerCycle
// cycles after the starting edge, and result_o holds until the next start.
module rvv_div #(
  parameter int unsigned BitsPerCycle = 2  // 1, 2, 4, 8, 16 or 32
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic [1:0]  op_i,      // funct3[1:0]: 00 DIV, 01 DIVU, 10 REM, 11 REMU
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic        busy_o,
  output logic        done_o,
  output logic [31:0] result_o
);
  localparam int unsigned Steps = 32 / BitsPerCycle;
  localparam int unsigned CW = $clog2(Steps + 1);

  logic          busy_q, done_q, neg_q, rem_q, zero_q;
  logic [CW-1:0] count_q;
  logic [31:0]   divisor_q, dividend_q, quo_q, a_q;
  logic [32:0]   part_q;  // the partial remainder
  logic [31:0]   result_q;

  wire is_signed = !op_i[0];
  wire a_neg = is_signed && a_i[31];
  wire b_neg = is_signed && b_i[31];
  wire [31:0] a_mag = a_neg ? -a_i : a_i;
  wire [31:0] b_mag = b_neg ? -b_i : b_i;

  // BitsPerCycle restoring steps.
  logic [32:0] part_n;
  logic [31:0] dividend_n, quo_n;
  always_comb begin
    part_n = part_q;
    dividend_n = dividend_q;
    quo_n = quo_q;
    // Only a running division steps (the results are read only then): idle, the block costs nothing.
    if (busy_q) for (int unsigned i = 0; i < BitsPerCycle; i++) begin
      part_n = {part_n[31:0], dividend_n[31]};
      dividend_n = {dividend_n[30:0], 1'b0};
      if (part_n >= {1'b0, divisor_q}) begin
        part_n = part_n - {1'b0, divisor_q};
        quo_n = {quo_n[30:0], 1'b1};
      end else begin
        quo_n = {quo_n[30:0], 1'b0};
      end
    end
  end

  wire [31:0] quo_signed = neg_q ? -quo_n : quo_n;
  wire [31:0] rem_signed = neg_q ? -part_n[31:0] : part_n[31:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      done_q <= 1'b0;
      neg_q <= 1'b0;
      rem_q <= 1'b0;
      zero_q <= 1'b0;
      count_q <= '0;
      divisor_q <= '0;
      dividend_q <= '0;
      quo_q <= '0;
      a_q <= '0;
      part_q <= '0;
      result_q <= '0;
    end else if (busy_q) begin
      // Each flop is read before it is written, in the text too: a simulator then needs no copy of the
      // old values (Verilator keeps a shadow of every flop read after its assignment in a block).
      if (count_q == CW'(1)) begin
        busy_q <= 1'b0;
        if (zero_q) result_q <= rem_q ? a_q : 32'hFFFF_FFFF;
        else result_q <= rem_q ? rem_signed : quo_signed;
      end
      done_q <= count_q == CW'(1);
      part_q <= part_n;
      dividend_q <= dividend_n;
      quo_q <= quo_n;
      count_q <= count_q - 1'b1;
    end else begin
      done_q <= 1'b0;
      if (start_i) begin
        busy_q <= 1'b1;
        count_q <= CW'(Steps);
        rem_q <= op_i[1];
        zero_q <= b_i == 32'd0;
        // A remainder takes the dividend's sign, a quotient the sign of the product.
        neg_q <= op_i[1] ? a_neg : (a_neg ^ b_neg);
        a_q <= a_i;
        divisor_q <= b_mag;
        dividend_q <= a_mag;
        part_q <= '0;
        quo_q <= '0;
      end
    end
  end

  assign busy_o = busy_q;
  assign done_o = done_q;
  assign result_o = result_q;
endmodule
