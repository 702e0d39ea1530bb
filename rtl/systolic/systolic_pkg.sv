// Host interface constants of systolic_top: debug read selectors, status words and control addresses.
// The C++ side mirrors them in tb/systolic/systolic_regs.h; a test reads them back through the debug
// port so the two cannot drift silently. Error codes (ERR_*), performance counter indices (CNT_*,
// NUM_COUNTERS) and stall causes (STALL_*) are generated from isa/systolic.yaml into systolic_isa_pkg.
package systolic_pkg;
  // Debug read selectors (dbg_sel_i); dbg_addr_i picks the word/row within.
  localparam logic [3:0] DBG_STATUS   = 4'd0;
  localparam logic [3:0] DBG_COUNTER  = 4'd1;
  localparam logic [3:0] DBG_XREG     = 4'd2;
  localparam logic [3:0] DBG_FREG     = 4'd3;
  localparam logic [3:0] DBG_VSRAM    = 4'd4;
  localparam logic [3:0] DBG_MSRAM    = 4'd5;
  localparam logic [3:0] DBG_ACC      = 4'd6;
  localparam logic [3:0] DBG_FPSRAM   = 4'd7;
  localparam logic [3:0] DBG_IMEM     = 4'd8;
  localparam logic [3:0] DBG_WEIGHTS  = 4'd9;

  // DBG_STATUS words.
  localparam int unsigned ST_FLAGS      = 0;   // {.., clearing, error, halted, running}
  localparam int unsigned ST_ERR_CODE   = 1;
  localparam int unsigned ST_ERR_PC     = 2;
  localparam int unsigned ST_ERR_LO     = 3;   // 64 bits
  localparam int unsigned ST_ERR_HI     = 4;   // 64 bits
  localparam int unsigned ST_PC         = 5;
  localparam int unsigned ST_INSN       = 6;   // instruction word waiting to issue
  localparam int unsigned ST_UNITS      = 7;   // {stall cause[7:4], sfu, dma, matrix, vector busy}
  localparam int unsigned ST_DMA_PC     = 8;   // PC of the oldest unfinished DMA command
  localparam int unsigned ST_DMA_LEFT   = 9;   // rows it still has to finish
  localparam int unsigned ST_LOOP_DEPTH = 10;  // active loops
  localparam int unsigned ST_PARAM_MLEN = 16;
  localparam int unsigned ST_PARAM_VLEN = 17;
  localparam int unsigned ST_PARAM_BLEN = 18;
  localparam int unsigned ST_PARAM_IMEM = 19;
  localparam int unsigned ST_PARAM_VSRAM = 20;
  localparam int unsigned ST_PARAM_MSRAM = 21;
  localparam int unsigned ST_PARAM_ACC  = 22;
  localparam int unsigned ST_PARAM_FPSRAM = 23;
  localparam int unsigned ST_PARAM_LOOP = 24;
  localparam int unsigned ST_PARAM_DMA_SLOTS = 25;
  localparam int unsigned ST_PARAM_DMA_OUT = 26;

  // Host control writes (ctl_addr_i[31:28] selects the space).
  localparam logic [3:0] CTL_SPACE_IMEM = 4'h0;   // ctl_addr_i[27:0] = instruction index
  localparam logic [3:0] CTL_SPACE_REG  = 4'h1;
  localparam logic [27:0] CTL_START      = 28'd0;  // write: start at pc 0 (counters cleared)
  localparam logic [27:0] CTL_DRAM_BYTES = 28'd1;  // write: DRAM size for range checks
  localparam logic [27:0] CTL_CLEAR      = 28'd2;  // write: zero VSRAM, MSRAM, FPSRAM and IMEM
endpackage
