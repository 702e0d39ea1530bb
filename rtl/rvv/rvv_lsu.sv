// rvv_lsu: the core's DRAM side and the vector unit's memory port.
//
// The data cache is shared by the scalar pipeline and the vector unit: direct-mapped, write-through, one
// DRAM row per line. A read that misses waits until the write buffer is empty (so the fill sees every older
// store: DRAM serves requests in order) and fetches the row into the line. Scalar loads: a hit answers in
// the cycle it is asked (MEM). Vector loads: a hit answers the next cycle; misses are sent as fills, many
// in flight, and answer when the row comes back. Stores (scalar and vector, in program order: the core
// keeps the two apart) update a line they hit, allocate the line when they write the whole row, and enter
// one posted write buffer (a vector store row is answered when it enters). Vector DTCM requests are
// answered the next cycle. Responses to the vector unit return in request order: a request answered the
// next cycle (DTCM, hit, store, error) waits until the unit's fills have all answered. Bad vector addresses
// (outside DTCM and DRAM, or an enabled byte past the DRAM size) answer with vmem_rsp_error_o.
//
// DRAM port: one request register (so the port's outputs come from flops), filled by priority from the
// write buffer, the scalar fill, the vector fills; mem_req_addr_o is the row's byte offset from the DRAM
// base, mem_req_be_o the enabled bytes (a fill enables only the bytes inside the DRAM size).
module rvv_lsu #(
  parameter int unsigned ROW_BITS = 128,
  parameter int unsigned DTCM_BYTES = 65536,
  parameter int unsigned DCACHE_BYTES = 2048,  // 0: no cache
  parameter int unsigned WRITE_BUFFER = 4,
  parameter int unsigned OUTSTANDING = 32,     // DRAM requests in flight at most (a power of two)
  parameter int unsigned ROW_BYTES = ROW_BITS / 8,
  parameter int unsigned RAW = $clog2(DTCM_BYTES / ROW_BYTES)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 flush_i,        // invalidate the cache (start of a run, clear)
  input  logic [32:0]          dram_bytes_i,
  // scalar DRAM load in MEM: held until ld_done_o
  input  logic                 ld_valid_i,
  input  logic [31:0]          ld_addr_i,      // DRAM byte address (the region's check is the core's)
  input  logic [31:0]          ld_pc_i,
  output logic                 ld_done_o,
  output logic [ROW_BITS-1:0]  ld_row_o,
  // scalar DRAM store in MEM: enters the write buffer on st_valid_i && st_ready_o
  input  logic                 st_valid_i,
  input  logic [31:0]          st_addr_i,
  input  logic [ROW_BITS-1:0]  st_row_i,       // the data at its row position
  input  logic [ROW_BYTES-1:0] st_be_i,
  input  logic [31:0]          st_pc_i,
  output logic                 st_ready_o,
  output logic                 idle_o,         // nothing buffered or in flight
  // the vector unit's port (rvv_vpu)
  input  logic                 block_vpu_i,    // accept no more vector requests (the run stops)
  input  logic [31:0]          vpu_pc_i,       // the last vector memory instruction's pc (DRAM tags)
  input  logic                 vmem_req_valid_i,
  output logic                 vmem_req_ready_o,
  input  logic                 vmem_req_write_i,
  input  logic [31:0]          vmem_req_addr_i,
  input  logic [ROW_BITS-1:0]  vmem_req_wdata_i,
  input  logic [ROW_BYTES-1:0] vmem_req_be_i,
  output logic                 vmem_rsp_valid_o,
  output logic [ROW_BITS-1:0]  vmem_rsp_rdata_o,
  output logic                 vmem_rsp_error_o,
  // DTCM port of the vector unit (a read port of its own; the write port when the core does not write)
  input  logic                 core_dtcm_we_i,
  output logic                 dtcm_re_o,
  output logic [RAW-1:0]       dtcm_raddr_o,
  input  logic [ROW_BITS-1:0]  dtcm_rdata_i,   // one cycle after dtcm_re_o
  output logic                 dtcm_we_o,
  output logic [RAW-1:0]       dtcm_waddr_o,
  output logic [ROW_BITS-1:0]  dtcm_wdata_o,
  output logic [ROW_BYTES-1:0] dtcm_be_o,
  // DRAM
  output logic                 mem_req_valid_o,
  input  logic                 mem_req_ready_i,
  output logic                 mem_req_write_o,
  output logic [31:0]          mem_req_addr_o,
  output logic [ROW_BITS-1:0]  mem_req_wdata_o,
  output logic [ROW_BYTES-1:0] mem_req_be_o,
  output logic [31:0]          mem_req_tag_o,
  input  logic                 mem_rsp_valid_i,
  input  logic [ROW_BITS-1:0]  mem_rsp_rdata_i,
  // counter events
  output logic [31:0]          dram_read_bytes_o,   // enabled bytes of the request accepted this cycle
  output logic [31:0]          dram_write_bytes_o,
  output logic                 miss_o               // a cache fill (scalar or vector) is issued
);
  localparam int unsigned RB = $clog2(ROW_BYTES);
  localparam int unsigned LINES = DCACHE_BYTES > 0 ? DCACHE_BYTES / ROW_BYTES : 1;
  localparam int unsigned IW = LINES > 1 ? $clog2(LINES) : 1;
  localparam int unsigned TW = 32 - RB;  // a whole row number: simple, and no aliasing to think about
  localparam int unsigned WB_W = WRITE_BUFFER > 1 ? $clog2(WRITE_BUFFER) : 1;
  localparam int unsigned OW = $clog2(OUTSTANDING);
  localparam logic [1:0] SrcWbuf = 2'd0;
  localparam logic [1:0] SrcFill = 2'd1;
  localparam logic [1:0] SrcVpu = 2'd2;
  localparam logic [31:0] DramBase = 32'h8000_0000;
  localparam logic [31:0] DtcmBase = 32'h0001_0000;

  // The enabled bytes of the row at DRAM offset `row_off` that lie inside the DRAM.
  // The row's bytes below `size` (byte k is at row_off + k): one range, as a shift (one by ROW_BYTES or
  // more gives 0, so every byte is inside).
  function automatic logic [ROW_BYTES-1:0] inside_mask(input logic [31:0] row_off, input logic [32:0] size);
    if (size <= {1'b0, row_off}) inside_mask = '0;
    else inside_mask = ~({ROW_BYTES{1'b1}} << (size - {1'b0, row_off}));
  endfunction

  // $countones, not a loop over the bits: a simulator evaluates it as one population count.
  function automatic logic [31:0] popcount(input logic [ROW_BYTES-1:0] be);
    popcount = 32'($countones(be));
  endfunction

  // ---------------------------------------------------------------- cache
  logic [LINES-1:0]    valid_q;
  logic [TW-1:0]       tag_q [LINES];
  logic [ROW_BITS-1:0] data_q [LINES];


  wire [31:0]   ld_off = ld_addr_i - DramBase;
  wire [IW-1:0] ld_idx = LINES > 1 ? ld_off[RB +: IW] : '0;
  wire          ld_hit = DCACHE_BYTES > 0 && valid_q[ld_idx] && tag_q[ld_idx] == ld_off[31:RB];
  wire [31:0]   st_off = st_addr_i - DramBase;
  wire [IW-1:0] st_idx = LINES > 1 ? st_off[RB +: IW] : '0;
  wire          st_hit = DCACHE_BYTES > 0 && valid_q[st_idx] && tag_q[st_idx] == st_off[31:RB];

  // ---------------------------------------------------------------- write buffer
  logic [31:0]          wb_addr_q [WRITE_BUFFER];  // row offset
  logic [ROW_BITS-1:0]  wb_data_q [WRITE_BUFFER];
  logic [ROW_BYTES-1:0] wb_be_q [WRITE_BUFFER];
  logic [31:0]          wb_pc_q [WRITE_BUFFER];
  logic [WB_W-1:0]      wb_head_q, wb_tail_q;
  logic [WB_W:0]        wb_count_q;

  function automatic logic [WB_W-1:0] wb_inc(input logic [WB_W-1:0] p);
    wb_inc = 32'(p) == WRITE_BUFFER - 1 ? '0 : p + 1'b1;
  endfunction

  wire wb_room = 32'(wb_count_q) < WRITE_BUFFER;
  assign st_ready_o = wb_room;
  wire wbuf_empty = wb_count_q == '0;

  // ---------------------------------------------------------------- DRAM requests in flight
  logic [1:0]  src_q [OUTSTANDING];
  logic [31:0] fill_off_q [OUTSTANDING];  // the row of a vector fill
  logic [OW-1:0] src_head_q, src_tail_q;
  logic [OW:0]   in_flight_q;   // accepted into the request register, response not yet back
  logic [OW:0]   vpu_dram_q;    // of them, the vector unit's
  logic          req_valid_q, req_write_q;
  logic [31:0]   req_addr_q, req_tag_q;
  logic [ROW_BITS-1:0]  req_wdata_q;
  logic [ROW_BYTES-1:0] req_be_q;
  wire req_free = !req_valid_q || mem_req_ready_i;
  wire room = 32'(in_flight_q) < OUTSTANDING;
  wire [1:0] rsp_src = src_q[src_head_q];

  // ---------------------------------------------------------------- fill state
  logic fill_wait_q;  // the fill is issued; its response is awaited
  wire  fill_rsp = mem_rsp_valid_i && rsp_src == SrcFill;
  wire  want_fill = ld_valid_i && !ld_hit && !fill_wait_q;

  // ---------------------------------------------------------------- vector requests
  wire [31:0]          v_row_addr = {vmem_req_addr_i[31:RB], {RB{1'b0}}};
  wire [31:0]          v_off = v_row_addr - DramBase;
  wire                 v_in_dtcm = v_row_addr >= DtcmBase && v_row_addr - DtcmBase < DTCM_BYTES;
  // Checked only for a request (every use of the vector request's decode is qualified by its valid):
  // the byte-wise range check is the costly part in simulation.
  logic                v_in_dram;
  always_comb begin
    v_in_dram = 1'b0;
    if (vmem_req_valid_i)
      v_in_dram = v_row_addr >= DramBase && (vmem_req_be_i & ~inside_mask(v_off, dram_bytes_i)) == '0;
  end
  wire [IW-1:0]        v_idx = LINES > 1 ? v_off[RB +: IW] : '0;
  wire                 v_hit = DCACHE_BYTES > 0 && v_in_dram && valid_q[v_idx] && tag_q[v_idx] == v_off[31:RB];
  // Answered the next cycle: DTCM, a bad address, a DRAM read hitting the cache, a DRAM write (posted).
  wire                 v_local = !v_in_dram || v_hit || vmem_req_write_i;
  wire                 v_wbuf = v_in_dram && vmem_req_write_i;
  logic                local_valid_q, local_err_q, local_hit_q;
  logic [ROW_BITS-1:0] hit_row_q;

  // The write buffer's input: the core's store, else the vector unit's (the core never offers both).
  wire                 v_st_fire;
  wire                 wb_push = (st_valid_i && wb_room) || v_st_fire;
  wire [31:0]          wi_off = st_valid_i ? st_off : v_off;
  wire [IW-1:0]        wi_idx = st_valid_i ? st_idx : v_idx;
  wire                 wi_hit = st_valid_i ? st_hit : v_hit;
  wire [ROW_BITS-1:0]  wi_row = st_valid_i ? st_row_i : vmem_req_wdata_i;
  wire [ROW_BYTES-1:0] wi_be = st_valid_i ? st_be_i : vmem_req_be_i;
  wire [31:0]          wi_pc = st_valid_i ? st_pc_i : vpu_pc_i;
  wire                 wi_alloc = DCACHE_BYTES > 0 && !wi_hit && wi_be == '1;  // a whole row: no fetch needed

  logic pick_wb, pick_fill, pick_vpu;
  always_comb begin
    pick_wb = 1'b0;
    pick_fill = 1'b0;
    pick_vpu = 1'b0;
    if (req_free && room) begin
      if (!wbuf_empty) pick_wb = 1'b1;
      else if (want_fill) pick_fill = 1'b1;
      else if (vmem_req_valid_i && !block_vpu_i && !v_local) pick_vpu = 1'b1;
    end
  end

  always_comb begin
    vmem_req_ready_o = 1'b0;
    if (vmem_req_valid_i && !block_vpu_i) begin
      if (v_local) begin
        vmem_req_ready_o = vpu_dram_q == '0 && !(vmem_req_write_i && v_in_dtcm && core_dtcm_we_i) &&
                           !(v_wbuf && (!wb_room || st_valid_i));
      end else begin
        vmem_req_ready_o = pick_vpu;
      end
    end
  end
  wire v_local_fire = vmem_req_valid_i && vmem_req_ready_o && v_local;
  assign v_st_fire = v_local_fire && v_wbuf;

  assign dtcm_re_o = v_local_fire && v_in_dtcm && !vmem_req_write_i;
  assign dtcm_raddr_o = RAW'((v_row_addr - DtcmBase) >> RB);
  assign dtcm_we_o = v_local_fire && v_in_dtcm && vmem_req_write_i;
  assign dtcm_waddr_o = dtcm_raddr_o;
  assign dtcm_wdata_o = vmem_req_wdata_i;
  assign dtcm_be_o = vmem_req_be_i;

  assign vmem_rsp_valid_o = local_valid_q || (mem_rsp_valid_i && rsp_src == SrcVpu);
  assign vmem_rsp_rdata_o = !local_valid_q ? mem_rsp_rdata_i : local_hit_q ? hit_row_q : dtcm_rdata_i;
  assign vmem_rsp_error_o = local_valid_q && local_err_q;

  assign ld_done_o = ld_valid_i && (ld_hit || (fill_wait_q && fill_rsp));
  assign ld_row_o = ld_hit ? data_q[ld_idx] : mem_rsp_rdata_i;

  wire issue = pick_wb || pick_fill || pick_vpu;
  wire vfill_rsp = mem_rsp_valid_i && rsp_src == SrcVpu;
  wire [31:0] vfill_off = fill_off_q[src_head_q];
  wire [IW-1:0] vfill_idx = LINES > 1 ? vfill_off[RB +: IW] : '0;
  wire [31:0] fill_off = {ld_off[31:RB], {RB{1'b0}}};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      wb_head_q <= '0;
      wb_tail_q <= '0;
      wb_count_q <= '0;
      src_head_q <= '0;
      src_tail_q <= '0;
      in_flight_q <= '0;
      vpu_dram_q <= '0;
      req_valid_q <= 1'b0;
      req_write_q <= 1'b0;
      req_addr_q <= '0;
      req_tag_q <= '0;
      req_wdata_q <= '0;
      req_be_q <= '0;
      fill_wait_q <= 1'b0;
      local_valid_q <= 1'b0;
      local_err_q <= 1'b0;
      local_hit_q <= 1'b0;
    end else begin
      // Cache valid bits: fills, whole-row store allocations, flush.
      if (fill_wait_q && fill_rsp && DCACHE_BYTES > 0) valid_q[ld_idx] <= 1'b1;
      if (vfill_rsp && DCACHE_BYTES > 0) valid_q[vfill_idx] <= 1'b1;
      if (wb_push && wi_alloc) valid_q[wi_idx] <= 1'b1;
      if (flush_i) valid_q <= '0;

      if (wb_push) wb_tail_q <= wb_inc(wb_tail_q);
      if (pick_wb) wb_head_q <= wb_inc(wb_head_q);
      wb_count_q <= wb_count_q + {{WB_W{1'b0}}, wb_push} - {{WB_W{1'b0}}, pick_wb};

      // The request register and the order of responses.
      if (req_valid_q && mem_req_ready_i) req_valid_q <= 1'b0;
      if (issue) begin
        req_valid_q <= 1'b1;
        src_tail_q <= src_tail_q + 1'b1;
        if (pick_wb) begin
          req_write_q <= 1'b1;
          req_addr_q <= wb_addr_q[wb_head_q];
          req_wdata_q <= wb_data_q[wb_head_q];
          req_be_q <= wb_be_q[wb_head_q];
          req_tag_q <= wb_pc_q[wb_head_q];
        end else if (pick_fill) begin
          req_write_q <= 1'b0;
          req_addr_q <= fill_off;
          req_wdata_q <= '0;
          req_be_q <= inside_mask(fill_off, dram_bytes_i);
          req_tag_q <= ld_pc_i;
        end else begin
          req_write_q <= 1'b0;
          req_addr_q <= {v_off[31:RB], {RB{1'b0}}};
          req_wdata_q <= '0;
          req_be_q <= inside_mask({v_off[31:RB], {RB{1'b0}}}, dram_bytes_i);
          req_tag_q <= vpu_pc_i;
        end
      end
      if (mem_rsp_valid_i) src_head_q <= src_head_q + 1'b1;
      in_flight_q <= in_flight_q + {{OW{1'b0}}, issue} - {{OW{1'b0}}, mem_rsp_valid_i};
      vpu_dram_q <= vpu_dram_q + {{OW{1'b0}}, pick_vpu} - {{OW{1'b0}}, mem_rsp_valid_i && rsp_src == SrcVpu};

      if (pick_fill) fill_wait_q <= 1'b1;
      if (fill_wait_q && fill_rsp) fill_wait_q <= 1'b0;

      local_valid_q <= v_local_fire;
      local_err_q <= v_local_fire && !v_in_dtcm && !v_in_dram;
      local_hit_q <= v_local_fire && v_in_dram && !vmem_req_write_i;
    end
  end

  logic [ROW_BITS-1:0] wi_mask;  // a store hit's byte enables as a bit mask
  always_comb begin
    wi_mask = '0;
    // A whole row's enables give the same mask without the loop over its bytes (the simulation skips it).
    if (wb_push && wi_hit) begin
      if (&wi_be) wi_mask = '1;
      else for (int unsigned k = 0; k < ROW_BYTES; k++) wi_mask[8*k +: 8] = {8{wi_be[k]}};
    end
  end

  // Storage without reset (like an SRAM's): cache tags and data, write buffer entries, response order.
  always_ff @(posedge clk_i) begin
    if (fill_wait_q && fill_rsp && DCACHE_BYTES > 0) begin
      tag_q[ld_idx] <= ld_off[31:RB];
      data_q[ld_idx] <= mem_rsp_rdata_i;
    end
    if (vfill_rsp && DCACHE_BYTES > 0) begin
      tag_q[vfill_idx] <= vfill_off[31:RB];
      data_q[vfill_idx] <= mem_rsp_rdata_i;
    end
    // A store hit writes the whole line, merged under its byte enables: a simulator keeps one pending
    // write for it, where a write per byte is one per byte lane, each set and tested every cycle.
    if (wb_push && wi_hit) data_q[wi_idx] <= (data_q[wi_idx] & ~wi_mask) | (wi_row & wi_mask);
    if (wb_push && wi_alloc) begin
      tag_q[wi_idx] <= wi_off[31:RB];
      data_q[wi_idx] <= wi_row;
    end
    if (wb_push) begin
      wb_addr_q[wb_tail_q] <= {wi_off[31:RB], {RB{1'b0}}};
      wb_data_q[wb_tail_q] <= wi_row;
      wb_be_q[wb_tail_q] <= wi_be;
      wb_pc_q[wb_tail_q] <= wi_pc;
    end
    if (v_local_fire && v_hit) hit_row_q <= data_q[v_idx];
    if (issue) begin
      src_q[src_tail_q] <= pick_wb ? SrcWbuf : pick_fill ? SrcFill : SrcVpu;
      fill_off_q[src_tail_q] <= {v_off[31:RB], {RB{1'b0}}};
    end
  end

  assign idle_o = wbuf_empty && in_flight_q == '0;
  assign mem_req_valid_o = req_valid_q;
  assign mem_req_write_o = req_write_q;
  assign mem_req_addr_o = req_addr_q;
  assign mem_req_wdata_o = req_wdata_q;
  assign mem_req_be_o = req_be_q;
  assign mem_req_tag_o = req_tag_q;
  wire accepted = req_valid_q && mem_req_ready_i;
  always_comb begin
    dram_read_bytes_o = '0;
    dram_write_bytes_o = '0;
    if (accepted) begin
      if (req_write_q) dram_write_bytes_o = popcount(req_be_q);
      else dram_read_bytes_o = popcount(req_be_q);
    end
  end
  assign miss_o = pick_fill || pick_vpu;

  logic unused;
  assign unused = ^{vmem_req_addr_i[RB-1:0], ld_off[RB-1:0], st_off[RB-1:0], wi_off[RB-1:0], vfill_off[RB-1:0]};
endmodule
