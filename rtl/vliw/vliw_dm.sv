// Data memory of the vliw tile: DM_BYTES bytes in DM_BANKS banks, interleaved every row of ROW_BYTES
// bytes (bank = row mod DM_BANKS), each bank its own array.
//
// Ports: two core ports (the ls0 and ls1 slots; reads are combinational within the issue cycle, writes
// land at its clock edge with byte enables), one DMA port (reads a row for a DRAM store, writes a row
// that arrived from DRAM), the clear sweep (one row of every bank per cycle) and the back door. Write
// order at one edge: ls0, ls1, then DMA (the model applies core stores before DMA completions); the
// clear sweep only runs while the core is stopped. Reads return the contents before the edge's writes.
// The issue logic charges a bank conflict (two core accesses to one bank) one cycle, as the ISA defines.
module vliw_dm #(
  parameter int unsigned VLEN = 16,
  parameter int unsigned DM_BYTES = 65536,
  parameter int unsigned DM_BANKS = 8,
  parameter int unsigned ROW_BITS = 16 * VLEN,
  parameter int unsigned ROWS = DM_BYTES / (2 * VLEN),
  parameter int unsigned RAW = $clog2(ROWS),
  parameter int unsigned RPB = ROWS / DM_BANKS,  // rows per bank
  parameter int unsigned RPB_W = (RPB > 1) ? $clog2(RPB) : 1
) (
  input  logic                  clk_i,
  // core ports
  input  logic [2*RAW-1:0]      c_row_i,     // port p at [p*RAW +: RAW]
  output logic [2*ROW_BITS-1:0] c_rdata_o,
  input  logic [1:0]            c_we_i,
  input  logic [2*ROW_BITS-1:0] c_wdata_i,
  input  logic [4*VLEN-1:0]     c_be_i,      // byte enables, port p at [p*2*VLEN +: 2*VLEN]
  // DMA port
  input  logic [RAW-1:0]        d_rrow_i,
  output logic [ROW_BITS-1:0]   d_rdata_o,
  input  logic                  d_we_i,
  input  logic [RAW-1:0]        d_wrow_i,
  input  logic [ROW_BITS-1:0]   d_wdata_i,
  // clear sweep: row clear_idx_i of every bank
  input  logic                  clear_i,
  input  logic [RPB_W-1:0]      clear_idx_i,
  // back door
  input  logic                  dbg_en_i,
  input  logic [RAW-1:0]        dbg_row_i,
  output logic [ROW_BITS-1:0]   dbg_rdata_o
);
  localparam int unsigned BW = (DM_BANKS > 1) ? $clog2(DM_BANKS) : 1;

  function automatic logic [BW-1:0] bank_of(input logic [RAW-1:0] row);
    bank_of = BW'(row % RAW'(DM_BANKS));
  endfunction
  function automatic logic [RPB_W-1:0] index_of(input logic [RAW-1:0] row);
    index_of = RPB_W'(row / RAW'(DM_BANKS));
  endfunction

  logic [ROW_BITS-1:0] bank_c0 [DM_BANKS];
  logic [ROW_BITS-1:0] bank_c1 [DM_BANKS];
  logic [ROW_BITS-1:0] bank_d [DM_BANKS];
  logic [ROW_BITS-1:0] bank_dbg [DM_BANKS];

  wire [RAW-1:0] c0_row = c_row_i[0 +: RAW];
  wire [RAW-1:0] c1_row = c_row_i[RAW +: RAW];

  // A core write as a whole row: the bytes its enables select from the write data, the others from the
  // row as it stands (a simulator then writes one row per port, not a byte at a time). When ls1 writes
  // the row ls0 writes at the same edge, it builds on ls0's row, so each byte keeps the last write.
  logic [ROW_BITS-1:0] c_row_d [2];
  always_comb begin
    logic [ROW_BITS-1:0] mask, base;
    mask = '0;
    base = '0;
    for (int unsigned p = 0; p < 2; p++) begin
      c_row_d[p] = '0;
      if (c_we_i[p]) begin
        for (int unsigned k = 0; k < 2 * VLEN; k++) mask[8*k +: 8] = {8{c_be_i[p*2*VLEN + k]}};
        base = (p == 1 && c_we_i[0] && c0_row == c1_row) ? c_row_d[0] : c_rdata_o[p*ROW_BITS +: ROW_BITS];
        c_row_d[p] = (base & ~mask) | (c_wdata_i[p*ROW_BITS +: ROW_BITS] & mask);
      end
    end
  end

  for (genvar b = 0; b < DM_BANKS; b++) begin : g_bank
    logic [ROW_BITS-1:0] mem_q [RPB];
    wire c0_hit = c_we_i[0] && 32'(bank_of(c0_row)) == b;
    wire c1_hit = c_we_i[1] && 32'(bank_of(c1_row)) == b;
    always_ff @(posedge clk_i) begin
      if (clear_i) begin
        mem_q[clear_idx_i] <= '0;
      end else begin
        if (c0_hit) mem_q[index_of(c0_row)] <= c_row_d[0];
        if (c1_hit) mem_q[index_of(c1_row)] <= c_row_d[1];
        if (d_we_i && 32'(bank_of(d_wrow_i)) == b) mem_q[index_of(d_wrow_i)] <= d_wdata_i;
      end
    end
    assign bank_c0[b] = mem_q[index_of(c0_row)];
    assign bank_c1[b] = mem_q[index_of(c1_row)];
    assign bank_d[b] = mem_q[index_of(d_rrow_i)];
    assign bank_dbg[b] = dbg_en_i ? mem_q[index_of(dbg_row_i)] : '0;
  end

  assign c_rdata_o = {bank_c1[bank_of(c1_row)], bank_c0[bank_of(c0_row)]};
  assign d_rdata_o = bank_d[bank_of(d_rrow_i)];
  assign dbg_rdata_o = bank_dbg[bank_of(dbg_row_i)];
endmodule
