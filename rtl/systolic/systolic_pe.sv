// One processing element of the weight-stationary systolic array.
//
// Activations travel left to right, partial sums top to bottom, both registered every cycle. The PE
// multiplies the incoming BF16 activation by its stationary BF16 weight (exact FP32 product) and adds it
// to the FP32 partial sum from above. en_i is low only while the whole array is empty; gating on it and
// on the incoming valid keeps the Verilated model from spending time on an idle array.
module systolic_pe (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [15:0] w_i,
  input  logic        a_valid_i,
  input  logic [15:0] a_i,
  input  logic [31:0] psum_i,
  output logic        a_valid_o,
  output logic [15:0] a_o,
  output logic [31:0] psum_o
);
  logic [15:0] a_q;
  logic [31:0] psum_q;
  logic        a_valid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_valid_q <= 1'b0;
    end else if (en_i) begin
      a_valid_q <= a_valid_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (en_i && a_valid_i) begin
      a_q <= a_i;
      psum_q <= kc_fp_pkg::fp32_add(psum_i, kc_fp_pkg::bf16_mul(a_i, w_i));
    end
  end

  assign a_valid_o = a_valid_q;
  assign a_o = a_q;
  assign psum_o = psum_q;
endmodule
