// Multi-ported synchronous SRAM model.
//
// NR read ports with one cycle of latency (registered read data) and NW write ports. A banked memory
// with one port per client is modelled as one array: the accelerators' interlocks guarantee that two
// ports never write the same row in the same cycle, and a read in the same cycle as a write to the same
// row returns the old data (read-before-write), as a synchronous SRAM does. The debug port reads
// combinationally for the testbench's back-door state comparison and does not disturb the ports.
module kc_sram #(
  parameter int unsigned WIDTH = 256,
  parameter int unsigned DEPTH = 1024,
  parameter int unsigned NR = 1,
  parameter int unsigned NW = 1,
  parameter int unsigned AW = (DEPTH > 1) ? $clog2(DEPTH) : 1
) (
  input  logic                      clk_i,
  input  logic [NR-1:0]             re_i,
  input  logic [NR-1:0][AW-1:0]     raddr_i,
  output logic [NR-1:0][WIDTH-1:0]  rdata_o,
  input  logic [NW-1:0]             we_i,
  input  logic [NW-1:0][AW-1:0]     waddr_i,
  input  logic [NW-1:0][WIDTH-1:0]  wdata_i,
  input  logic [AW-1:0]             dbg_addr_i,
  output logic [WIDTH-1:0]          dbg_rdata_o
);
  logic [WIDTH-1:0] mem_q [DEPTH];
  logic [NR-1:0][WIDTH-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    for (int unsigned r = 0; r < NR; r++) begin
      if (re_i[r]) rdata_q[r] <= mem_q[raddr_i[r]];
    end
    for (int unsigned w = 0; w < NW; w++) begin
      if (we_i[w]) mem_q[waddr_i[w]] <= wdata_i[w];
    end
  end

  assign rdata_o = rdata_q;
  assign dbg_rdata_o = mem_q[dbg_addr_i];
endmodule
