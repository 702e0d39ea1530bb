// Multi-ported synchronous SRAM model.
//
// NR read ports with one cycle of latency (registered read data) and NW write ports. A banked memory
// with one port per client is modelled as one array: the accelerators' interlocks guarantee that two
// ports never write the same row in the same cycle, and a read in the same cycle as a write to the same
// row returns the old data (read-before-write), as a synchronous SRAM does. The debug port reads
// combinationally (while dbg_en_i is high) for the testbench's back-door state comparison.
module kc_sram #(
  parameter int unsigned WIDTH = 256,
  parameter int unsigned DEPTH = 1024,
  parameter int unsigned NR = 1,
  parameter int unsigned NW = 1,
  parameter int unsigned AW = (DEPTH > 1) ? $clog2(DEPTH) : 1
) (
  input  logic                 clk_i,
  // Port p of each kind is slice p of these vectors: re_i[r], raddr_i[r*AW +: AW],
  // rdata_o[r*WIDTH +: WIDTH], ... (flat vectors: yosys 0.23 reads no array ports).
  input  logic [NR-1:0]        re_i,
  input  logic [NR*AW-1:0]     raddr_i,
  output logic [NR*WIDTH-1:0]  rdata_o,
  input  logic [NW-1:0]        we_i,
  input  logic [NW*AW-1:0]     waddr_i,
  input  logic [NW*WIDTH-1:0]  wdata_i,
  input  logic                 dbg_en_i,
  input  logic [AW-1:0]        dbg_addr_i,
  output logic [WIDTH-1:0]     dbg_rdata_o
);
  logic [WIDTH-1:0] mem_q [DEPTH];
  logic [WIDTH-1:0] rdata_q [NR];

  always_ff @(posedge clk_i) begin
    for (int unsigned r = 0; r < NR; r++) begin
      if (re_i[r]) rdata_q[r] <= mem_q[raddr_i[r*AW +: AW]];
    end
    for (int unsigned w = 0; w < NW; w++) begin
      if (we_i[w]) mem_q[waddr_i[w*AW +: AW]] <= wdata_i[w*WIDTH +: WIDTH];
    end
  end

  for (genvar r = 0; r < NR; r++) begin : g_rdata
    assign rdata_o[r*WIDTH +: WIDTH] = rdata_q[r];
  end
  // Gated so the back door costs nothing in cycles where nobody reads it.
  assign dbg_rdata_o = dbg_en_i ? mem_q[dbg_addr_i] : '0;
endmodule
