// Machine-level constants of the systolic NPU shared by its RTL modules: error codes, performance
// counter indices, debug read selectors. The C++ side mirrors them in tb/systolic/systolic_regs.h; a
// test reads them back through the debug port so the two cannot drift silently.
package systolic_pkg;
  // Error codes (status ERR_CODE). The checks run in this order; the first failing one is reported.
  localparam logic [3:0] ERR_NONE          = 4'd0;
  localparam logic [3:0] ERR_ILLEGAL_INSN  = 4'd1;   // unknown opcode, reserved bit set, zero count/body
  localparam logic [3:0] ERR_PC_RANGE      = 4'd2;   // fetch beyond IMEM_WORDS
  localparam logic [3:0] ERR_LOOP_NEST     = 4'd3;   // inner loop body does not end before the outer one
  localparam logic [3:0] ERR_LOOP_OVERFLOW = 4'd4;   // more than LOOP_DEPTH active loops
  localparam logic [3:0] ERR_VSRAM_RANGE   = 4'd5;
  localparam logic [3:0] ERR_MSRAM_RANGE   = 4'd6;
  localparam logic [3:0] ERR_ACC_RANGE     = 4'd7;
  localparam logic [3:0] ERR_FPSRAM_RANGE  = 4'd8;
  localparam logic [3:0] ERR_DRAM_ALIGN    = 4'd9;   // odd DRAM address or stride
  localparam logic [3:0] ERR_DRAM_RANGE    = 4'd10;

  // Performance counters (64 bits each).
  localparam int unsigned CNT_CYCLES             = 0;
  localparam int unsigned CNT_INSTRUCTIONS       = 1;
  localparam int unsigned CNT_STALL_DEPENDENCY   = 2;   // SRAM range interlock
  localparam int unsigned CNT_STALL_FP_PENDING   = 3;   // FP register written by an unfinished reduction
  localparam int unsigned CNT_STALL_UNIT_BUSY    = 4;   // matrix unit or DMA queue not ready
  localparam int unsigned CNT_SFU_BUSY           = 5;   // special-function pipeline holds an op
  localparam int unsigned CNT_STALL_DRAIN        = 6;   // C_HALT / C_FENCE waiting for the units
  localparam int unsigned CNT_VECTOR_BUSY        = 7;
  localparam int unsigned CNT_MATRIX_BUSY        = 8;
  localparam int unsigned CNT_DMA_BUSY           = 9;
  localparam int unsigned CNT_DRAM_BYTES_READ    = 10;
  localparam int unsigned CNT_DRAM_BYTES_WRITTEN = 11;
  localparam int unsigned CNT_MACS               = 12;
  localparam int unsigned CNT_VECTOR_ELEMENTS    = 13;
  localparam int unsigned CNT_INSTR_CONTROL      = 14;
  localparam int unsigned CNT_INSTR_SCALAR       = 15;
  localparam int unsigned CNT_INSTR_VECTOR       = 16;
  localparam int unsigned CNT_INSTR_MATRIX       = 17;
  localparam int unsigned CNT_INSTR_DMA          = 18;
  localparam int unsigned CNT_ARRAY_ACTIVE       = 19;  // cycles with at least one row in the array
  localparam int unsigned NUM_COUNTERS           = 20;

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

  // Stall causes reported in ST_UNITS[7:4].
  localparam logic [3:0] STALL_NONE       = 4'd0;
  localparam logic [3:0] STALL_DEPENDENCY = 4'd1;
  localparam logic [3:0] STALL_FP_PENDING = 4'd2;
  localparam logic [3:0] STALL_UNIT_BUSY  = 4'd3;
  localparam logic [3:0] STALL_DRAIN      = 4'd4;

  // Host control writes (ctl_addr_i[31:28] selects the space).
  localparam logic [3:0] CTL_SPACE_IMEM = 4'h0;   // ctl_addr_i[27:0] = instruction index
  localparam logic [3:0] CTL_SPACE_REG  = 4'h1;
  localparam logic [27:0] CTL_START      = 28'd0;  // write: start at pc 0 (counters cleared)
  localparam logic [27:0] CTL_DRAM_BYTES = 28'd1;  // write: DRAM size for range checks
  localparam logic [27:0] CTL_CLEAR      = 28'd2;  // write: zero VSRAM, MSRAM, FPSRAM and IMEM
endpackage
