// Row-based strided DMA engine between DRAM and on-chip SRAMs.
//
// A command moves `count` rows of ROW_BITS between DRAM (byte address `addr + i*stride`) and SRAM rows
// `row + i`. Target 0 is a read/write SRAM (loads and stores), target 1 is write-only (loads only).
// Commands wait in SLOTS ordered slots; the oldest unfinished one issues requests, one row per cycle,
// with up to MAX_OUTSTANDING requests in flight, so consecutive commands overlap in the DRAM pipeline.
// DRAM answers in request order (reads with data, writes with an acknowledgement); a slot frees when
// its last response is back, which is what makes a slot's SRAM row range a hazard until then.
module kc_dma_engine #(
  parameter int unsigned ROW_BITS = 256,
  parameter int unsigned ROW_AW = 16,
  parameter int unsigned SLOTS = 4,
  parameter int unsigned MAX_OUTSTANDING = 64,
  parameter int unsigned COUNT_W = 13,
  parameter int unsigned SLOT_W = (SLOTS > 1) ? $clog2(SLOTS) : 1,
  parameter int unsigned OUT_W = $clog2(MAX_OUTSTANDING + 1)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // command
  input  logic                   cmd_valid_i,
  output logic                   cmd_ready_o,
  input  logic                   cmd_store_i,
  input  logic                   cmd_target_i,
  input  logic [ROW_AW-1:0]      cmd_row_i,
  input  logic [31:0]            cmd_addr_i,
  input  logic [31:0]            cmd_stride_i,
  input  logic [COUNT_W-1:0]     cmd_count_i,
  input  logic [31:0]            cmd_tag_i,
  // pending commands, for hazard checks
  output logic [SLOTS-1:0]       slot_valid_o,
  output logic [SLOTS-1:0]       slot_store_o,
  output logic [SLOTS-1:0]       slot_target_o,
  output logic [SLOTS*(ROW_AW+1)-1:0] slot_lo_o,  // slot s: [s*(ROW_AW+1) +: ROW_AW+1]
  output logic [SLOTS*(ROW_AW+1)-1:0] slot_hi_o,
  output logic                   busy_o,
  output logic [31:0]            active_tag_o,
  output logic [COUNT_W-1:0]     active_remaining_o,
  // DRAM port
  output logic                   mem_req_valid_o,
  input  logic                   mem_req_ready_i,
  output logic                   mem_req_write_o,
  output logic [31:0]            mem_req_addr_o,
  output logic [ROW_BITS-1:0]    mem_req_wdata_o,
  output logic [31:0]            mem_req_tag_o,     // tag (PC) of the command behind the request
  input  logic                   mem_rsp_valid_i,
  input  logic [ROW_BITS-1:0]    mem_rsp_rdata_i,
  // SRAM ports
  output logic                   sram_re_o,
  output logic [ROW_AW-1:0]      sram_raddr_o,
  input  logic [ROW_BITS-1:0]    sram_rdata_i,
  output logic                   sram0_we_o,
  output logic                   sram1_we_o,
  output logic [ROW_AW-1:0]      sram_waddr_o,
  output logic [ROW_BITS-1:0]    sram_wdata_o,
  // activity, for performance counters
  output logic                   load_row_done_o,
  output logic                   store_row_done_o,
  // command boundaries, for timelines: first row requested, last response received
  output logic                   cmd_started_o,
  output logic                   cmd_done_o
);
  // ---------------------------------------------------------------- command slots (a ring)
  logic [SLOTS-1:0]              s_valid_q;
  logic [SLOTS-1:0]              s_issued_q;  // every row requested; waiting for responses
  logic [SLOTS-1:0]              s_store_q;
  logic [SLOTS-1:0]              s_target_q;
  logic [ROW_AW-1:0]             s_row_q    [SLOTS];
  logic [31:0]                   s_addr_q   [SLOTS];
  logic [31:0]                   s_stride_q [SLOTS];
  logic [COUNT_W-1:0]            s_count_q  [SLOTS];
  logic [31:0]                   s_tag_q    [SLOTS];
  logic [SLOT_W-1:0]             head_q, iss_q, tail_q;

  // Issue state of the slot at iss_q.
  logic                          iss_active_q;   // iss_q slot has started issuing
  logic [COUNT_W-1:0]            iss_done_q;     // rows issued so far
  logic [31:0]                   iss_addr_q;     // DRAM address of the next row
  // Completion state of the slot at head_q.
  logic [COUNT_W-1:0]            head_done_q;

  // Stage 1: row chosen (SRAM read launched for stores); stage 2: request presented to DRAM.
  logic                          st1_valid_q, st1_store_q, st1_target_q;
  logic [31:0]                   st1_addr_q;
  logic [ROW_AW-1:0]             st1_row_q;
  logic [31:0]                   st1_tag_q, req_tag_q;
  logic                          req_valid_q, req_write_q;
  logic [31:0]                   req_addr_q;
  logic [ROW_BITS-1:0]           req_wdata_q;

  // In-flight responses: what to do with each, in order.
  localparam int unsigned RQ_W = (MAX_OUTSTANDING > 1) ? $clog2(MAX_OUTSTANDING) : 1;
  logic                          rq_store_q  [MAX_OUTSTANDING];
  logic                          rq_target_q [MAX_OUTSTANDING];
  logic [ROW_AW-1:0]             rq_row_q    [MAX_OUTSTANDING];
  logic                          st2_store_q, st2_target_q;
  logic [ROW_AW-1:0]             st2_row_q;
  logic [RQ_W-1:0]               rq_head_q, rq_tail_q;
  logic [OUT_W-1:0]              in_flight_q;    // stage 1 + stage 2 + awaiting response

  wire req_fire = req_valid_q && mem_req_ready_i;
  wire st2_free = !req_valid_q || req_fire;
  wire st1_move = st1_valid_q && st2_free;
  wire st1_free = !st1_valid_q || st1_move;

  wire iss_slot_valid = s_valid_q[iss_q] && !s_issued_q[iss_q];
  wire [COUNT_W-1:0] iss_count = s_count_q[iss_q];
  wire launch = iss_slot_valid && st1_free && (32'(in_flight_q) < MAX_OUTSTANDING);
  wire launch_last = launch && (iss_done_q + 1'b1 == iss_count);
  wire [31:0] launch_addr = iss_active_q ? iss_addr_q : s_addr_q[iss_q];
  wire [ROW_AW-1:0] launch_row = s_row_q[iss_q] + ROW_AW'(iss_done_q);

  wire cmd_fire = cmd_valid_i && cmd_ready_o;
  wire rsp_last = mem_rsp_valid_i && (head_done_q + 1'b1 == s_count_q[head_q]);

  assign cmd_ready_o = !s_valid_q[tail_q];

  // SRAM read for stores happens when the row is launched; data arrives while it sits in stage 1.
  assign sram_re_o = launch && s_store_q[iss_q];
  assign sram_raddr_o = launch_row;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_valid_q <= '0;
      s_issued_q <= '0;
      head_q <= '0;
      iss_q <= '0;
      tail_q <= '0;
      iss_active_q <= 1'b0;
      iss_done_q <= '0;
      head_done_q <= '0;
      st1_valid_q <= 1'b0;
      req_valid_q <= 1'b0;
      rq_head_q <= '0;
      rq_tail_q <= '0;
      in_flight_q <= '0;
    end else begin
      // accept a command into the tail slot
      if (cmd_fire) begin
        s_valid_q[tail_q] <= 1'b1;
        s_issued_q[tail_q] <= 1'b0;
        s_store_q[tail_q] <= cmd_store_i;
        s_target_q[tail_q] <= cmd_target_i;
        s_row_q[tail_q] <= cmd_row_i;
        s_addr_q[tail_q] <= cmd_addr_i;
        s_stride_q[tail_q] <= cmd_stride_i;
        s_count_q[tail_q] <= cmd_count_i;
        s_tag_q[tail_q] <= cmd_tag_i;
        tail_q <= SLOT_W'((32'(tail_q) + 1) % SLOTS);
      end
      // launch the next row of the issuing slot
      if (launch) begin
        if (launch_last) begin
          s_issued_q[iss_q] <= 1'b1;
          iss_active_q <= 1'b0;
          iss_done_q <= '0;
          iss_q <= SLOT_W'((32'(iss_q) + 1) % SLOTS);
        end else begin
          iss_active_q <= 1'b1;
          iss_done_q <= iss_done_q + 1'b1;
          iss_addr_q <= launch_addr + s_stride_q[iss_q];
        end
      end
      // stage 1
      if (launch) begin
        st1_valid_q <= 1'b1;
        st1_store_q <= s_store_q[iss_q];
        st1_target_q <= s_target_q[iss_q];
        st1_addr_q <= launch_addr;
        st1_row_q <= launch_row;
        st1_tag_q <= s_tag_q[iss_q];
      end else if (st1_move) begin
        st1_valid_q <= 1'b0;
      end
      // stage 2: the request register
      if (st1_move) begin
        req_valid_q <= 1'b1;
        req_write_q <= st1_store_q;
        req_addr_q <= st1_addr_q;
        req_wdata_q <= st1_store_q ? sram_rdata_i : '0;
        req_tag_q <= st1_tag_q;
        st2_store_q <= st1_store_q;
        st2_target_q <= st1_target_q;
        st2_row_q <= st1_row_q;
      end else if (req_fire) begin
        req_valid_q <= 1'b0;
      end
      // remember what each request's response is for
      if (req_fire) begin
        rq_store_q[rq_tail_q] <= st2_store_q;
        rq_target_q[rq_tail_q] <= st2_target_q;
        rq_row_q[rq_tail_q] <= st2_row_q;
        rq_tail_q <= RQ_W'((32'(rq_tail_q) + 1) % MAX_OUTSTANDING);
      end
      if (mem_rsp_valid_i) begin
        rq_head_q <= RQ_W'((32'(rq_head_q) + 1) % MAX_OUTSTANDING);
        if (rsp_last) begin
          head_done_q <= '0;
          s_valid_q[head_q] <= 1'b0;
          head_q <= SLOT_W'((32'(head_q) + 1) % SLOTS);
        end else begin
          head_done_q <= head_done_q + 1'b1;
        end
      end
      in_flight_q <= in_flight_q + OUT_W'(launch) - OUT_W'(mem_rsp_valid_i);
    end
  end

  // responses: loads write their SRAM row
  wire rsp_is_load = mem_rsp_valid_i && !rq_store_q[rq_head_q];
  assign sram0_we_o = rsp_is_load && !rq_target_q[rq_head_q];
  assign sram1_we_o = rsp_is_load && rq_target_q[rq_head_q];
  assign sram_waddr_o = rq_row_q[rq_head_q];
  assign sram_wdata_o = mem_rsp_rdata_i;
  assign load_row_done_o = rsp_is_load;
  assign store_row_done_o = mem_rsp_valid_i && rq_store_q[rq_head_q];

  assign mem_req_valid_o = req_valid_q;
  assign mem_req_write_o = req_write_q;
  assign mem_req_addr_o = req_addr_q;
  assign mem_req_wdata_o = req_wdata_q;
  assign mem_req_tag_o = req_tag_q;

  for (genvar s = 0; s < SLOTS; s++) begin : g_slot_ranges
    assign slot_lo_o[s*(ROW_AW+1) +: ROW_AW+1] = {1'b0, s_row_q[s]};
    assign slot_hi_o[s*(ROW_AW+1) +: ROW_AW+1] = {1'b0, s_row_q[s]} + (ROW_AW + 1)'(s_count_q[s]);
  end
  assign slot_valid_o = s_valid_q;
  assign slot_store_o = s_store_q;
  assign slot_target_o = s_target_q;
  assign busy_o = |s_valid_q;
  assign cmd_started_o = launch && !iss_active_q;
  assign cmd_done_o = rsp_last;
  assign active_tag_o = s_tag_q[head_q];
  assign active_remaining_o = s_count_q[head_q] - head_done_q;
endmodule
