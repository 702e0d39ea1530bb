// MLEN x MLEN weight-stationary systolic array with input skew and output tags.
//
// An activation row enters unskewed; lane k is delayed k cycles so that element k reaches PE(k, 0) one
// cycle after element k-1 reached PE(k-1, 0). Partial sums flow down each column in order k = 0..MLEN-1
// starting from +0, so column n of row r leaves the bottom MLEN + n cycles after the row entered, with
// the row's tag (accumulator row, accumulate flag, ...) travelling beside it along the bottom row.
// Weights are written a row (W[k][*]) or a column (W[*][n], for transposed loads) per cycle.
module systolic_array #(
  parameter int unsigned MLEN = 16,
  parameter int unsigned TAG_W = 16,
  parameter int unsigned IDX_W = (MLEN > 1) ? $clog2(MLEN) : 1
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       w_row_we_i,
  input  logic                       w_col_we_i,
  input  logic [IDX_W-1:0]           w_idx_i,
  input  logic [MLEN-1:0][15:0]      w_data_i,
  input  logic                       in_valid_i,
  input  logic [MLEN-1:0][15:0]      in_row_i,
  input  logic [TAG_W-1:0]           in_tag_i,
  output logic [MLEN-1:0]            out_valid_o,
  output logic [MLEN-1:0][31:0]      out_psum_o,
  output logic [MLEN-1:0][TAG_W-1:0] out_tag_o,
  output logic [MLEN-1:0][MLEN-1:0][15:0] w_o
);
  // Skew buffers: lane k has k stages.
  logic [MLEN-1:0]       lane_valid;
  logic [MLEN-1:0][15:0] lane_data;
  logic [TAG_W-1:0]      lane_tag;  // tag of the row whose last element is entering lane MLEN-1

  for (genvar k = 0; k < MLEN; k++) begin : g_skew
    if (k == 0) begin : g_direct
      assign lane_valid[k] = in_valid_i;
      assign lane_data[k] = in_row_i[k];
    end else begin : g_delay
      logic [k-1:0]       valid_q;
      logic [k-1:0][15:0] data_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          valid_q <= '0;
        end else begin
          valid_q[0] <= in_valid_i;
          for (int unsigned j = 1; j < k; j++) valid_q[j] <= valid_q[j-1];
        end
      end
      always_ff @(posedge clk_i) begin
        data_q[0] <= in_row_i[k];
        for (int unsigned j = 1; j < k; j++) data_q[j] <= data_q[j-1];
      end
      assign lane_valid[k] = valid_q[k-1];
      assign lane_data[k] = data_q[k-1];
    end
  end

  if (MLEN == 1) begin : g_tag_direct
    assign lane_tag = in_tag_i;
  end else begin : g_tag_delay
    logic [MLEN-2:0][TAG_W-1:0] tag_q;
    always_ff @(posedge clk_i) begin
      tag_q[0] <= in_tag_i;
      for (int unsigned j = 1; j < MLEN - 1; j++) tag_q[j] <= tag_q[j-1];
    end
    assign lane_tag = tag_q[MLEN-2];
  end

  // PE grid: a_* flows right, psum_* flows down.
  logic [MLEN-1:0][MLEN:0]         a_valid;
  logic [MLEN-1:0][MLEN:0][15:0]   a_data;
  logic [MLEN:0][MLEN-1:0][31:0]   psum;

  for (genvar k = 0; k < MLEN; k++) begin : g_row
    assign a_valid[k][0] = lane_valid[k];
    assign a_data[k][0] = lane_data[k];
    for (genvar n = 0; n < MLEN; n++) begin : g_col
      if (k == 0) begin : g_top
        assign psum[0][n] = 32'h0000_0000;
      end
      systolic_pe u_pe (
        .clk_i,
        .rst_ni,
        .w_we_i   ((w_row_we_i && w_idx_i == IDX_W'(k)) || (w_col_we_i && w_idx_i == IDX_W'(n))),
        .w_i      (w_row_we_i ? w_data_i[n] : w_data_i[k]),
        .a_valid_i(a_valid[k][n]),
        .a_i      (a_data[k][n]),
        .psum_i   (psum[k][n]),
        .a_valid_o(a_valid[k][n+1]),
        .a_o      (a_data[k][n+1]),
        .psum_o   (psum[k+1][n]),
        .w_o      (w_o[k][n])
      );
    end
  end

  // Tags travel along the bottom row, aligned with the bottom PEs' partial sums.
  logic [MLEN-1:0][TAG_W-1:0] tag_bot_q;
  always_ff @(posedge clk_i) begin
    tag_bot_q[0] <= lane_tag;
    for (int unsigned n = 1; n < MLEN; n++) tag_bot_q[n] <= tag_bot_q[n-1];
  end

  for (genvar n = 0; n < MLEN; n++) begin : g_out
    assign out_valid_o[n] = a_valid[MLEN-1][n+1];
    assign out_psum_o[n] = psum[MLEN][n];
    assign out_tag_o[n] = tag_bot_q[n];
  end
endmodule
