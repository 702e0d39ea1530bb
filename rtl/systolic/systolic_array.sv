// MLEN x MLEN weight-stationary systolic array with input skew and output tags.
//
// An activation row enters unskewed; lane k is delayed k cycles so that element k reaches PE(k, 0) one
// cycle after element k-1 reached PE(k-1, 0). Partial sums flow down each column in order k = 0..MLEN-1
// starting from +0, so column n of row r leaves the bottom MLEN + n cycles after the row entered, with
// the row's tag (accumulator row, accumulate flag, ...) travelling beside it along the bottom row.
// Weights are written a row (W[k][*]) or a column (W[*][n], for transposed loads) per cycle, and
// zeroed a row per cycle by the CTL_CLEAR sweep. Everything else only moves while en_i is high, which the
// matrix unit keeps high from the first injected row until the last result has left the array.
//
// The PEs: PE(k, n) (element p = k*MLEN + n of the flat state vectors) registers the activation it was
// handed (pe_a_q) and the FP32 partial sum psum_in + a * W[k][n] (pe_psum_q, the product exact), both only
// when its incoming activation is valid, and that valid bit (pe_valid_q, reset) whenever en_i is high.
// Activations move right (PE(k, n-1) feeds PE(k, n); PE(k, 0) is fed by skew lane k) and partial sums move
// down (PE(k-1, n) feeds PE(k, n); row 0 adds to +0). The PEs are written twice, for the two tools that
// read this file: for simulation, one loop over p, so that Verilator emits the multiply-add once instead
// of once per PE and an idle array (en_i low) costs one test per cycle (one block per PE costs Verilator
// about 20 % of its speed on gemm); for synthesis (the macro SYNTHESIS, which yosys defines), one block
// per PE, because yosys's proc pass is quadratic in a process's size. scripts/compare_systolic_rtl.sh
// --synthesis-form runs the two side by side, cycle by cycle.
//
// Other internal wiring uses unpacked arrays: Verilator handles them element by element, whereas a packed
// multi-dimensional bus would be rebuilt as one wide vector every cycle. Ports are flat vectors with
// element n at [n*W +: W] (yosys 0.23 reads neither array ports nor multi-dimensional packed arrays).
module systolic_array #(
  parameter int unsigned MLEN = 16,
  parameter int unsigned TAG_W = 16,
  parameter int unsigned IDX_W = (MLEN > 1) ? $clog2(MLEN) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  en_i,
  input  logic                  clear_i,
  input  logic [31:0]           clear_idx_i,
  input  logic                  w_row_we_i,
  input  logic                  w_col_we_i,
  input  logic [IDX_W-1:0]      w_idx_i,
  input  logic [MLEN*16-1:0]    w_data_i,     // BF16 element n at [n*16 +: 16]
  input  logic                  in_valid_i,
  input  logic [MLEN*16-1:0]    in_row_i,
  input  logic [TAG_W-1:0]      in_tag_i,
  output logic [MLEN-1:0]       out_valid_o,  // column n
  output logic [MLEN*32-1:0]    out_psum_o,   // column n at [n*32 +: 32]
  output logic [MLEN*TAG_W-1:0] out_tag_o,    // column n at [n*TAG_W +: TAG_W]
  input  logic                  dbg_en_i,
  input  logic [IDX_W-1:0]      dbg_w_row_i,
  output logic [MLEN*16-1:0]    dbg_w_row_o
);
  localparam int unsigned NPE = MLEN * MLEN;

  // Skew buffers: lane k has k stages; the row's tag waits MLEN - 1 stages beside the last lane.
  logic             lane_valid [MLEN];
  logic [15:0]      lane_data [MLEN];
  logic [TAG_W-1:0] lane_tag;  // tag of the row whose last element is entering lane MLEN-1

  assign lane_valid[0] = in_valid_i;
  assign lane_data[0] = in_row_i[15:0];
`ifndef SYNTHESIS
  // Simulation form: every lane's stages in one triangular array (lane k's stage j at k*(k-1)/2 + j), the
  // valid bits in one vector, each assigned whole. Written per element (the synthesis form below), each
  // stage gets a flag of its own in Verilator's commit of non-blocking writes, tested and cleared every
  // cycle whether the array moves or not: about 250 flags at MLEN = 16.
  localparam int unsigned NSKEW = MLEN * (MLEN - 1) / 2;
  localparam int unsigned SKEW_SLOTS = (NSKEW > 0) ? NSKEW : 1;
  localparam int unsigned TAG_SLOTS = (MLEN > 1) ? MLEN - 1 : 1;
  logic [SKEW_SLOTS-1:0] skew_valid_q;
  logic [15:0]           skew_data_q [SKEW_SLOTS];
  logic [TAG_W-1:0]      skew_tag_q [TAG_SLOTS];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      skew_valid_q <= '0;
    end else if (en_i) begin
      logic [SKEW_SLOTS-1:0] valid_d;
      valid_d = skew_valid_q;
      for (int unsigned k = 1; k < MLEN; k++) begin
        valid_d[k * (k - 1) / 2] = in_valid_i;
        for (int unsigned j = 1; j < k; j++) valid_d[k * (k - 1) / 2 + j] = skew_valid_q[k * (k - 1) / 2 + j - 1];
      end
      skew_valid_q <= valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (en_i) begin
      logic [15:0]      data_d [SKEW_SLOTS];
      logic [TAG_W-1:0] tag_d [TAG_SLOTS];
      data_d = skew_data_q;
      tag_d = skew_tag_q;
      for (int unsigned k = 1; k < MLEN; k++) begin
        data_d[k * (k - 1) / 2] = in_row_i[k*16 +: 16];
        for (int unsigned j = 1; j < k; j++) data_d[k * (k - 1) / 2 + j] = skew_data_q[k * (k - 1) / 2 + j - 1];
      end
      tag_d[0] = in_tag_i;
      for (int unsigned j = 1; j < MLEN - 1; j++) tag_d[j] = skew_tag_q[j - 1];
      skew_data_q <= data_d;
      skew_tag_q <= tag_d;
    end
  end

  for (genvar k = 1; k < MLEN; k++) begin : g_skew_out
    assign lane_valid[k] = skew_valid_q[k * (k - 1) / 2 + k - 1];
    assign lane_data[k] = skew_data_q[k * (k - 1) / 2 + k - 1];
  end
  if (MLEN == 1) begin : g_tag_direct
    assign lane_tag = in_tag_i;
  end else begin : g_tag_delay
    assign lane_tag = skew_tag_q[MLEN-2];
  end
`else
  // Synthesis form: one delay line per lane.
  for (genvar k = 1; k < MLEN; k++) begin : g_skew
    logic        valid_q [k];
    logic [15:0] data_q [k];
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int unsigned j = 0; j < k; j++) valid_q[j] <= 1'b0;
      end else if (en_i) begin
        valid_q[0] <= in_valid_i;
        for (int unsigned j = 1; j < k; j++) valid_q[j] <= valid_q[j-1];
      end
    end
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        data_q[0] <= in_row_i[k*16 +: 16];
        for (int unsigned j = 1; j < k; j++) data_q[j] <= data_q[j-1];
      end
    end
    assign lane_valid[k] = valid_q[k-1];
    assign lane_data[k] = data_q[k-1];
  end

  if (MLEN == 1) begin : g_tag_direct
    assign lane_tag = in_tag_i;
  end else begin : g_tag_delay
    logic [TAG_W-1:0] tag_q [MLEN-1];
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        tag_q[0] <= in_tag_i;
        for (int unsigned j = 1; j < MLEN - 1; j++) tag_q[j] <= tag_q[j-1];
      end
    end
    assign lane_tag = tag_q[MLEN-2];
  end
`endif

  logic [15:0] weight_q [MLEN][MLEN];

  always_ff @(posedge clk_i) begin
    if (w_row_we_i) begin
      for (int unsigned n = 0; n < MLEN; n++) weight_q[w_idx_i][n] <= w_data_i[n*16 +: 16];
    end else if (w_col_we_i) begin
      for (int unsigned k = 0; k < MLEN; k++) weight_q[k][w_idx_i] <= w_data_i[k*16 +: 16];
    end else if (clear_i && clear_idx_i < MLEN) begin
      for (int unsigned n = 0; n < MLEN; n++) weight_q[IDX_W'(clear_idx_i)][n] <= '0;
    end
  end

  // PE(k, n)'s valid bit is bit p = k*MLEN + n.
  logic [NPE-1:0]    pe_valid_q;
  logic [NPE-1:0]    pe_valid_in;  // the activation valid bit each PE receives
  logic [MLEN*32-1:0] bottom_psum;  // the bottom row's partial sums, column n at [n*32 +: 32]

  // PE(k, n) receives PE(k, n-1)'s valid bit (bit p-1), PE(k, 0) skew lane k's.
  always_comb begin
    pe_valid_in = pe_valid_q << 1;
    for (int unsigned k = 0; k < MLEN; k++) pe_valid_in[k*MLEN] = lane_valid[k];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pe_valid_q <= '0;
    end else if (en_i) begin
      pe_valid_q <= pe_valid_in;
    end
  end

`ifndef SYNTHESIS
  // Simulation form. PE(k, n)'s state is element p of unpacked arrays, assigned whole (Verilator cannot
  // assign array elements non-blockingly in a loop it does not unroll); yosys never reads this form.
  logic [15:0] pe_a_q [NPE];
  logic [31:0] pe_psum_q [NPE];

  always_ff @(posedge clk_i) begin
    if (en_i) begin
      logic [15:0] pe_a_d [NPE];
      logic [31:0] pe_psum_d [NPE];
      logic [15:0] a;
      logic [31:0] psum_in;
      pe_a_d = pe_a_q;
      pe_psum_d = pe_psum_q;
      for (int unsigned p = 0; p < NPE; p++) begin
        if (pe_valid_in[p]) begin
          // The neighbours' indices wrap modulo NPE so they stay in range where they are not used.
          if (p % MLEN == 0) a = lane_data[IDX_W'(p / MLEN)];
          else a = pe_a_q[(p + NPE - 1) % NPE];
          if (p < MLEN) psum_in = 32'h0000_0000;
          else psum_in = pe_psum_q[(p + NPE - MLEN) % NPE];
          pe_a_d[p] = a;
          pe_psum_d[p] = kc_fp_pkg::bf16_mac(psum_in, a, weight_q[IDX_W'(p / MLEN)][IDX_W'(p % MLEN)]);
        end
      end
      pe_a_q <= pe_a_d;
      pe_psum_q <= pe_psum_d;
    end
  end

  for (genvar n = 0; n < MLEN; n++) begin : g_bottom
    assign bottom_psum[n*32 +: 32] = pe_psum_q[(MLEN-1)*MLEN + n];
  end
`else
  // Synthesis form: the loop above, unrolled, kept yosys busy for more than 40 minutes at MLEN = 16.
  for (genvar k = 0; k < MLEN; k++) begin : g_row
    for (genvar n = 0; n < MLEN; n++) begin : g_pe
      localparam int unsigned P = k * MLEN + n;
      logic [15:0] a;
      logic [31:0] psum_in;
      logic [31:0] psum_q;
      if (n == 0) begin : g_from_lane
        assign a = lane_data[k];
      end else begin : g_from_left
        assign a = g_row[k].g_pe[n-1].g_pass.a_q;
      end
      if (k == 0) begin : g_top
        assign psum_in = 32'h0000_0000;
      end else begin : g_from_above
        assign psum_in = g_row[k-1].g_pe[n].psum_q;
      end
      always_ff @(posedge clk_i) begin
        if (en_i && pe_valid_in[P]) begin
          psum_q <= kc_fp_pkg::bf16_mac(psum_in, a, weight_q[k][n]);
        end
      end
      if (n + 1 < MLEN) begin : g_pass  // the last column passes no activation on
        logic [15:0] a_q;
        always_ff @(posedge clk_i) begin
          if (en_i && pe_valid_in[P]) a_q <= a;
        end
      end
    end
  end
  for (genvar n = 0; n < MLEN; n++) begin : g_bottom
    assign bottom_psum[n*32 +: 32] = g_row[MLEN-1].g_pe[n].psum_q;
  end
`endif

  // Tags travel along the bottom row, aligned with the bottom PEs' partial sums.
  logic [TAG_W-1:0] tag_bot_q [MLEN];
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      tag_bot_q[0] <= lane_tag;
      for (int unsigned n = 1; n < MLEN; n++) tag_bot_q[n] <= tag_bot_q[n-1];
    end
  end

  for (genvar n = 0; n < MLEN; n++) begin : g_out
    assign out_valid_o[n] = pe_valid_q[(MLEN-1)*MLEN + n];
    assign out_psum_o[n*32 +: 32] = bottom_psum[n*32 +: 32];
    assign out_tag_o[n*TAG_W +: TAG_W] = tag_bot_q[n];
    assign dbg_w_row_o[n*16 +: 16] = dbg_en_i ? weight_q[dbg_w_row_i][n] : '0;
  end
endmodule
