// rvv_dtcm: the data TCM, one row (ROW_BITS, the vector unit's row) per address. Two synchronous read
// ports (the core's loads, the vector unit's reads; data the cycle after the address, read-before-write)
// and one write port with byte enables (host words, the clear, the core's stores, the vector unit's
// writes, multiplexed by rvv_top/rvv_core). The debug port reads one 32-bit word combinationally.
module rvv_dtcm #(
  parameter int unsigned ROW_BITS = 128,
  parameter int unsigned ROWS = 4096,
  parameter int unsigned RAW = $clog2(ROWS),
  parameter int unsigned WPR = ROW_BITS / 32  // words per row
) (
  input  logic                  clk_i,
  input  logic                  re0_i,
  input  logic [RAW-1:0]        raddr0_i,
  output logic [ROW_BITS-1:0]   rdata0_o,
  input  logic                  re1_i,
  input  logic [RAW-1:0]        raddr1_i,
  output logic [ROW_BITS-1:0]   rdata1_o,
  input  logic                  we_i,
  input  logic [RAW-1:0]        waddr_i,
  input  logic [ROW_BITS-1:0]   wdata_i,
  input  logic [ROW_BITS/8-1:0] be_i,
  input  logic                  dbg_en_i,
  input  logic [31:0]           dbg_word_i,
  output logic [31:0]           dbg_rdata_o
);
  localparam int unsigned WW = WPR > 1 ? $clog2(WPR) : 1;
  logic [ROW_BITS-1:0] mem_q [ROWS];
  logic [ROW_BITS-1:0] rdata0_q, rdata1_q;

  logic [ROW_BITS-1:0] wmask;  // the byte enables as a bit mask
  always_comb begin
    wmask = '0;
    // A whole row's enables give the same mask without the loop over its bytes (the simulation skips it).
    if (we_i) begin
      if (&be_i) wmask = '1;
      else for (int unsigned k = 0; k < ROW_BITS / 8; k++) wmask[8*k +: 8] = {8{be_i[k]}};
    end
  end

  always_ff @(posedge clk_i) begin
    if (re0_i) rdata0_q <= mem_q[raddr0_i];
    if (re1_i) rdata1_q <= mem_q[raddr1_i];
    // One write of the whole row, merged under the byte enables: a simulator keeps one pending write
    // for it, where a write per byte is one per byte lane, each set and tested every cycle.
    if (we_i) mem_q[waddr_i] <= (mem_q[waddr_i] & ~wmask) | (wdata_i & wmask);
  end

  assign rdata0_o = rdata0_q;
  assign rdata1_o = rdata1_q;
  wire [RAW-1:0] dbg_row = RAW'(dbg_word_i / WPR);
  wire [WW-1:0]  dbg_sub = WW'(dbg_word_i % WPR);
  assign dbg_rdata_o = dbg_en_i ? mem_q[dbg_row][32*dbg_sub +: 32] : 32'd0;
endmodule
