// netlist_tb: the systolic RTL and yosys's netlist of it (module systolic_top_netlist, written by
// scripts/check_systolic_netlist.sh) run the same random programs side by side, each with its own DRAM.
// Every output of both is compared in every cycle, including random back-door reads while a program
// runs and a read-back of every status word, counter, register and SRAM row after it stops; the final
// DRAM images are compared too. Prints "<N> mismatches" at the end. Simulation only (verilator --binary).
module netlist_tb #(
  parameter int unsigned MLEN = 2,
  parameter int unsigned VLEN = 2,
  parameter int unsigned BLEN = 1,
  parameter int unsigned IMEM_WORDS = 256,
  parameter int unsigned VSRAM_ROWS = 64,
  parameter int unsigned MSRAM_ROWS = 64,
  parameter int unsigned ACC_ROWS = 64,
  parameter int unsigned FPSRAM_WORDS = 16,
  parameter int unsigned LOOP_DEPTH = 2,
  parameter int unsigned DMA_SLOTS = 2,
  parameter int unsigned DMA_OUTSTANDING = 4,
  parameter int unsigned HAS_V_MUL_VFV = 0,
  parameter int unsigned PROGRAMS = 40,     // in words.hex / dram.hex
  parameter int unsigned DRAM_BYTES = 4352  // per program
);
  localparam int unsigned ROW_BITS = 16 * VLEN;
  localparam int unsigned DBG_BITS = 32 * MLEN;
  localparam int unsigned DRAM_LATENCY = 4;
  localparam int unsigned CYCLE_CAP = 50000;

  typedef struct packed {
    logic [DBG_BITS-1:0] dbg_rdata;
    logic                req_valid;
    logic                req_write;
    logic [31:0]         req_addr;
    logic [ROW_BITS-1:0] req_wdata;
    logic [31:0]         req_tag;
    logic                running;
    logic                halted;
    logic                clearing;
    logic                retire;
    logic [31:0]         retire_pc;
    logic [31:0]         retire_insn;
    logic [31:0]         trace;
  } outputs_t;

  logic        clk = 1'b0;
  logic        rst_n = 1'b0;
  logic        ctl_we;
  logic [31:0] ctl_addr, ctl_wdata;
  logic        dbg_en;
  logic [3:0]  dbg_sel;
  logic [31:0] dbg_addr;
  outputs_t    out [2];  // 0: RTL, 1: netlist

  // DRAM per design: always ready, in-order responses DRAM_LATENCY cycles after the request.
  logic [7:0]          dram [2][DRAM_BYTES];
  logic                rsp_valid [2];
  logic [ROW_BITS-1:0] rsp_rdata [2];
  for (genvar k = 0; k < 2; k++) begin : g_dram
    logic                p_valid [DRAM_LATENCY];
    logic                p_write [DRAM_LATENCY];
    logic [31:0]         p_addr [DRAM_LATENCY];
    logic [ROW_BITS-1:0] p_wdata [DRAM_LATENCY];
    always_ff @(posedge clk) begin
      p_valid[0] <= out[k].req_valid;
      p_write[0] <= out[k].req_write;
      p_addr[0] <= out[k].req_addr;
      p_wdata[0] <= out[k].req_wdata;
      for (int s = 1; s < DRAM_LATENCY; s++) begin
        p_valid[s] <= p_valid[s-1];
        p_write[s] <= p_write[s-1];
        p_addr[s] <= p_addr[s-1];
        p_wdata[s] <= p_wdata[s-1];
      end
      if (p_valid[DRAM_LATENCY-1] && p_write[DRAM_LATENCY-1]) begin
        for (int b = 0; b < ROW_BITS / 8; b++) begin
          dram[k][(p_addr[DRAM_LATENCY-1] + b) % DRAM_BYTES] <= p_wdata[DRAM_LATENCY-1][8*b +: 8];
        end
      end
    end
    always_comb begin
      rsp_valid[k] = p_valid[DRAM_LATENCY-1];
      for (int b = 0; b < ROW_BITS / 8; b++) begin
        rsp_rdata[k][8*b +: 8] = dram[k][(p_addr[DRAM_LATENCY-1] + b) % DRAM_BYTES];
      end
    end
  end

`define NETLIST_TB_PORTS(k) \
    .clk_i(clk), .rst_ni(rst_n), .ctl_we_i(ctl_we), .ctl_addr_i(ctl_addr), .ctl_wdata_i(ctl_wdata), \
    .dbg_en_i(dbg_en), .dbg_sel_i(dbg_sel), .dbg_addr_i(dbg_addr), .dbg_rdata_o(out[k].dbg_rdata), \
    .mem_req_valid_o(out[k].req_valid), .mem_req_write_o(out[k].req_write), \
    .mem_req_addr_o(out[k].req_addr), .mem_req_wdata_o(out[k].req_wdata), .mem_req_tag_o(out[k].req_tag), \
    .mem_rsp_valid_i(rsp_valid[k]), .mem_rsp_rdata_i(rsp_rdata[k]), .running_o(out[k].running), \
    .halted_o(out[k].halted), .clearing_o(out[k].clearing), .retire_o(out[k].retire), \
    .retire_pc_o(out[k].retire_pc), .retire_insn_o(out[k].retire_insn), \
    .trace_o(out[k].trace)

  systolic_top #(
    .MLEN(MLEN), .VLEN(VLEN), .BLEN(BLEN), .IMEM_WORDS(IMEM_WORDS), .VSRAM_ROWS(VSRAM_ROWS),
    .MSRAM_ROWS(MSRAM_ROWS), .ACC_ROWS(ACC_ROWS), .FPSRAM_WORDS(FPSRAM_WORDS), .LOOP_DEPTH(LOOP_DEPTH),
    .DMA_SLOTS(DMA_SLOTS), .DMA_OUTSTANDING(DMA_OUTSTANDING), .HAS_V_MUL_VFV(HAS_V_MUL_VFV)
  ) u_rtl (`NETLIST_TB_PORTS(0));
  systolic_top_netlist u_netlist (`NETLIST_TB_PORTS(1));

  int unsigned mismatches = 0, cycles = 0, retired = 0, halted = 0;
  always #5 clk = ~clk;
  always @(negedge clk) begin
    if (rst_n) begin
      cycles++;
      retired += 32'(out[0].retire);
      if (out[0] !== out[1]) begin
        if (mismatches < 10) $display("cycle %0d: RTL %h\n  netlist %h", cycles, out[0], out[1]);
        mismatches++;
      end
    end
  end

  task automatic ctl_write(input logic [31:0] addr, input logic [31:0] data);
    @(posedge clk);
    #1;
    ctl_we = 1'b1;
    ctl_addr = addr;
    ctl_wdata = data;
    @(posedge clk);
    #1;
    ctl_we = 1'b0;
  endtask

  logic [31:0] words [PROGRAMS * IMEM_WORDS];
  logic [7:0]  images [PROGRAMS * DRAM_BYTES];
  initial begin
    $readmemh("words.hex", words);
    $readmemh("dram.hex", images);
    ctl_we = 1'b0;
    ctl_addr = '0;
    ctl_wdata = '0;
    dbg_en = 1'b0;
    dbg_sel = '0;
    dbg_addr = '0;
    repeat (3) @(posedge clk);
    #1 rst_n = 1'b1;
    for (int p = 0; p < PROGRAMS; p++) begin
      ctl_write(32'h1000_0002, 0);  // CTL_CLEAR
      while (out[0].clearing) @(posedge clk);
      ctl_write(32'h1000_0001, DRAM_BYTES);  // CTL_DRAM_BYTES
      for (int i = 0; i < DRAM_BYTES; i++) begin
        dram[0][i] = images[p * DRAM_BYTES + i];
        dram[1][i] = images[p * DRAM_BYTES + i];
      end
      for (int i = 0; i < IMEM_WORDS; i++) ctl_write(i, words[p * IMEM_WORDS + i]);
      ctl_write(32'h1000_0000, 0);  // CTL_START
      for (int c = 0; c < CYCLE_CAP && !out[0].halted; c++) begin
        @(posedge clk);
        #1;
        dbg_en = 1'($urandom % 2);
        dbg_sel = 4'($urandom % 10);
        dbg_addr = $urandom % (VSRAM_ROWS + 8);
      end
      halted += 32'(out[0].halted);
      dbg_en = 1'b1;
      for (int sel = 0; sel < 10; sel++) begin
        for (int a = 0; a < VSRAM_ROWS + IMEM_WORDS; a++) begin
          @(posedge clk);
          #1;
          dbg_sel = 4'(sel);
          dbg_addr = a;
        end
      end
      dbg_en = 1'b0;
      for (int i = 0; i < DRAM_BYTES; i++) begin
        if (dram[0][i] !== dram[1][i]) begin
          $display("program %0d: DRAM byte %0d differs", p, i);
          mismatches++;
          break;
        end
      end
    end
    $display("%0d programs (%0d halted), %0d instructions, %0d cycles compared: %0d mismatches", PROGRAMS,
             halted, retired, cycles, mismatches);
    $finish;
  end
endmodule
