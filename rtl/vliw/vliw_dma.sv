// DMA channels of the vliw tile between DRAM and DM.
//
// Each of CHANNELS channels holds up to QUEUE transfers (C_DMALD / C_DMAST) in order; a transfer stays
// in its queue until its last row has completed. Every cycle at most one row is launched, from the
// channels in turn (round robin from the one after the last that launched), while fewer than OUTSTANDING
// rows are in flight: the DRAM address and, for a store, the DM row (read in the launch cycle) go to the
// request register, which DRAM accepts in the next cycle. DRAM answers in request order, one response per
// cycle; a load's response writes its DM row at that cycle's edge, and the response to a transfer's last
// row frees its queue entry and releases its lock. The functional model (isa/vliw/vliw_iss.cpp) has the
// same rules, cycle for cycle, given the DRAM timing of tb/common/dram_model.h.
module vliw_dma #(
  parameter int unsigned VLEN = 16,
  parameter int unsigned RAW = 11,           // DM row address bits
  parameter int unsigned CHANNELS = 4,
  parameter int unsigned QUEUE = 4,
  parameter int unsigned OUTSTANDING = 64,
  parameter int unsigned ROW_BITS = 16 * VLEN
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // a transfer from the core (at the issuing bundle's edge)
  input  logic                     push_i,
  input  logic [1:0]               push_ch_i,
  input  logic                     push_store_i,
  input  logic [RAW-1:0]           push_row_i,
  input  logic [31:0]              push_dram_i,
  input  logic [31:0]              push_stride_i,
  input  logic [31:0]              push_rows_i,
  input  logic [4:0]               push_lock_i,
  input  logic [31:0]              push_pc_i,
  output logic [CHANNELS-1:0]      full_o,     // the channel's queue is full
  output logic                     busy_o,     // a transfer is queued or in flight
  output logic [CHANNELS-1:0]      ch_busy_o,
  output logic [31:0]              in_flight_o,
  // lock release: the last row of a transfer completed at this edge
  output logic                     rel_o,
  output logic [3:0]               rel_lock_o,
  output logic [31:0]              rel_pc_o,
  // activity, for the counters
  output logic                     load_launch_o,
  output logic                     store_done_o,
  // DRAM port
  output logic                     mem_req_valid_o,
  input  logic                     mem_req_ready_i,
  output logic                     mem_req_write_o,
  output logic [31:0]              mem_req_addr_o,
  output logic [ROW_BITS-1:0]      mem_req_wdata_o,
  output logic [31:0]              mem_req_tag_o,
  input  logic                     mem_rsp_valid_i,
  input  logic [ROW_BITS-1:0]      mem_rsp_rdata_i,
  // DM port
  output logic [RAW-1:0]           dm_rrow_o,
  input  logic [ROW_BITS-1:0]      dm_rdata_i,
  output logic                     dm_we_o,
  output logic [RAW-1:0]           dm_wrow_o,
  output logic [ROW_BITS-1:0]      dm_wdata_o
);
  localparam int unsigned QW = (QUEUE > 1) ? $clog2(QUEUE) : 1;
  localparam int unsigned CW = (CHANNELS > 1) ? $clog2(CHANNELS) : 1;
  localparam int unsigned OW = (OUTSTANDING > 1) ? $clog2(OUTSTANDING) : 1;
  localparam int unsigned E = CHANNELS * QUEUE;
  localparam int unsigned EW = (E > 1) ? $clog2(E) : 1;

  // Queue entries, channel c slot s at [c*QUEUE + s]; dram/row advance and `left` counts down as rows launch.
  logic                e_valid_q  [E];
  logic                e_store_q  [E];
  logic [RAW-1:0]      e_row_q    [E];
  logic [31:0]         e_dram_q   [E];
  logic [31:0]         e_stride_q [E];
  logic [31:0]         e_left_q   [E];
  logic [4:0]          e_lock_q   [E];
  logic [31:0]         e_pc_q     [E];
  logic [QW-1:0]       head_q [CHANNELS];
  logic [QW-1:0]       tail_q [CHANNELS];
  logic [QW-1:0]       iss_q  [CHANNELS];
  logic [QW:0]         count_q [CHANNELS];
  logic [CW-1:0]       next_ch_q;

  // Rows in flight, in request order.
  logic [CW-1:0]       f_ch_q    [OUTSTANDING];
  logic                f_last_q  [OUTSTANDING];
  logic                f_store_q [OUTSTANDING];
  logic [RAW-1:0]      f_row_q   [OUTSTANDING];
  logic [OW-1:0]       f_head_q, f_tail_q;
  logic [31:0]         in_flight_q;

  logic                req_valid_q, req_write_q;
  logic [31:0]         req_addr_q, req_tag_q;
  logic [ROW_BITS-1:0] req_wdata_q;

  function automatic logic [EW-1:0] slot(input int unsigned c, input logic [QW-1:0] s);
    slot = EW'(c * QUEUE + 32'(s));
  endfunction
  function automatic logic [QW-1:0] wrap_inc(input logic [QW-1:0] s);
    wrap_inc = (32'(s) == QUEUE - 1) ? '0 : s + 1'b1;
  endfunction

  // The decoder rejects channel numbers from CHANNELS on (an illegal word).
  wire [CW-1:0] pch = CW'(push_ch_i);
  wire unused_push_ch = ^push_ch_i;

  // ---------------------------------------------------------------- launch: one row, channels in turn
  logic          launch;
  logic [CW-1:0] launch_ch;
  logic [EW-1:0] launch_e;
  always_comb begin
    int unsigned c;
    c = 0;
    launch = 1'b0;
    launch_ch = '0;
    launch_e = '0;
    if (in_flight_q < OUTSTANDING && (!req_valid_q || mem_req_ready_i)) begin
      for (int unsigned n = 0; n < CHANNELS; n++) begin
        c = (32'(next_ch_q) + n) % CHANNELS;
        if (!launch && e_valid_q[slot(c, iss_q[c])] && e_left_q[slot(c, iss_q[c])] != 0) begin
          launch = 1'b1;
          launch_ch = CW'(c);
          launch_e = slot(c, iss_q[c]);
        end
      end
    end
  end
  wire launch_last = launch && e_left_q[launch_e] == 32'd1;
  assign dm_rrow_o = e_row_q[launch_e];

  // ---------------------------------------------------------------- completion: the oldest row in flight
  wire           rsp = mem_rsp_valid_i;
  wire [CW-1:0]  rsp_ch = f_ch_q[f_head_q];
  wire           rsp_last = rsp && f_last_q[f_head_q];
  wire [EW-1:0]  rsp_e = slot(32'(rsp_ch), head_q[rsp_ch]);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned e = 0; e < E; e++) begin
        e_valid_q[e] <= 1'b0;
        e_store_q[e] <= 1'b0;
        e_row_q[e] <= '0;
        e_dram_q[e] <= '0;
        e_stride_q[e] <= '0;
        e_left_q[e] <= '0;
        e_lock_q[e] <= '0;
        e_pc_q[e] <= '0;
      end
      for (int unsigned c = 0; c < CHANNELS; c++) begin
        head_q[c] <= '0;
        tail_q[c] <= '0;
        iss_q[c] <= '0;
        count_q[c] <= '0;
      end
      for (int unsigned f = 0; f < OUTSTANDING; f++) begin
        f_ch_q[f] <= '0;
        f_last_q[f] <= 1'b0;
        f_store_q[f] <= 1'b0;
        f_row_q[f] <= '0;
      end
      next_ch_q <= '0;
      f_head_q <= '0;
      f_tail_q <= '0;
      in_flight_q <= '0;
      req_valid_q <= 1'b0;
      req_write_q <= 1'b0;
      req_addr_q <= '0;
      req_tag_q <= '0;
      req_wdata_q <= '0;
    end else begin
      // launch
      if (launch) begin
        e_left_q[launch_e] <= e_left_q[launch_e] - 32'd1;
        e_dram_q[launch_e] <= e_dram_q[launch_e] + e_stride_q[launch_e];
        e_row_q[launch_e] <= e_row_q[launch_e] + 1'b1;
        if (launch_last) iss_q[launch_ch] <= wrap_inc(iss_q[launch_ch]);
        next_ch_q <= CW'((32'(launch_ch) + 1) % CHANNELS);
        f_ch_q[f_tail_q] <= launch_ch;
        f_last_q[f_tail_q] <= launch_last;
        f_store_q[f_tail_q] <= e_store_q[launch_e];
        f_row_q[f_tail_q] <= e_row_q[launch_e];
        f_tail_q <= OW'((32'(f_tail_q) + 1) % OUTSTANDING);
        req_valid_q <= 1'b1;
        req_write_q <= e_store_q[launch_e];
        req_addr_q <= e_dram_q[launch_e];
        req_tag_q <= e_pc_q[launch_e];
        req_wdata_q <= e_store_q[launch_e] ? dm_rdata_i : '0;
      end else if (mem_req_ready_i) begin
        req_valid_q <= 1'b0;
      end
      // completion
      if (rsp) begin
        f_head_q <= OW'((32'(f_head_q) + 1) % OUTSTANDING);
        if (rsp_last) begin
          e_valid_q[rsp_e] <= 1'b0;
          head_q[rsp_ch] <= wrap_inc(head_q[rsp_ch]);
        end
      end
      in_flight_q <= in_flight_q + 32'(launch) - 32'(rsp);
      // a new transfer (after the completion: a slot freed now may be the one filled now only if the
      // queue was full, which stalls the core, so the two never touch the same entry)
      if (push_i) begin
        e_valid_q[slot(32'(pch), tail_q[pch])] <= 1'b1;
        e_store_q[slot(32'(pch), tail_q[pch])] <= push_store_i;
        e_row_q[slot(32'(pch), tail_q[pch])] <= push_row_i;
        e_dram_q[slot(32'(pch), tail_q[pch])] <= push_dram_i;
        e_stride_q[slot(32'(pch), tail_q[pch])] <= push_stride_i;
        e_left_q[slot(32'(pch), tail_q[pch])] <= push_rows_i;
        e_lock_q[slot(32'(pch), tail_q[pch])] <= push_lock_i;
        e_pc_q[slot(32'(pch), tail_q[pch])] <= push_pc_i;
        tail_q[pch] <= wrap_inc(tail_q[pch]);
      end
      for (int unsigned c = 0; c < CHANNELS; c++) begin
        count_q[c] <= count_q[c] + (QW+1)'(push_i && 32'(pch) == c)
                                 - (QW+1)'(rsp_last && 32'(rsp_ch) == c);
      end
    end
  end

  always_comb begin
    busy_o = 1'b0;
    for (int unsigned c = 0; c < CHANNELS; c++) begin
      full_o[c] = 32'(count_q[c]) == QUEUE;
      ch_busy_o[c] = count_q[c] != '0;
      busy_o = busy_o | ch_busy_o[c];
    end
  end
  assign in_flight_o = in_flight_q;

  assign rel_o = rsp_last && e_lock_q[rsp_e] != 5'd16;
  assign rel_lock_o = e_lock_q[rsp_e][3:0];
  assign rel_pc_o = e_pc_q[rsp_e];
  assign load_launch_o = launch && !e_store_q[launch_e];
  assign store_done_o = rsp && f_store_q[f_head_q];

  assign dm_we_o = rsp && !f_store_q[f_head_q];
  assign dm_wrow_o = f_row_q[f_head_q];
  assign dm_wdata_o = mem_rsp_rdata_i;

  assign mem_req_valid_o = req_valid_q;
  assign mem_req_write_o = req_write_q;
  assign mem_req_addr_o = req_addr_q;
  assign mem_req_wdata_o = req_wdata_q;
  assign mem_req_tag_o = req_tag_q;
endmodule
