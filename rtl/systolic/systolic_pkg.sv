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

  // Bits of the trace_o word: what every unit does this cycle, for the testbench's timeline. The
  // busy/stall bits are the very terms the performance counters add up, so the timeline's totals
  // equal the counters.
  localparam int unsigned TR_STALL_LSB   = 0;   // 4 bits: stall cause of the issue stage (STALL_*)
  localparam int unsigned TR_RUNNING     = 4;   // counters count this cycle
  localparam int unsigned TR_VEC_ISSUE   = 5;   // a vector instruction entered the vector unit
  localparam int unsigned TR_SFU_BUSY    = 6;
  localparam int unsigned TR_MAT_BUSY    = 7;
  localparam int unsigned TR_ARRAY       = 8;   // rows in the systolic array
  localparam int unsigned TR_MAT_STATE   = 9;   // 3 bits: matrix unit command state (see below)
  localparam int unsigned TR_MAT_WLOAD   = 12;  // a weight row is being written into the array
  localparam int unsigned TR_MAT_RETIRE  = 13;  // the last row of an M_MM/M_MMA reached the accumulators
  localparam int unsigned TR_DMA_BUSY    = 14;
  localparam int unsigned TR_DMA_START   = 15;  // a DMA command requested its first row
  localparam int unsigned TR_DMA_DONE    = 16;  // a DMA command received its last response (slot freed)
  localparam int unsigned TR_DMA_LOAD    = 17;  // a loaded row arrived from DRAM
  localparam int unsigned TR_DMA_STORE   = 18;  // a stored row was acknowledged by DRAM
  // Matrix unit command states in TR_MAT_STATE.
  localparam logic [2:0] TR_MAT_IDLE      = 3'd0;
  localparam logic [2:0] TR_MAT_LDW_DRAIN = 3'd1;  // M_LDW waiting for the array to empty
  localparam logic [2:0] TR_MAT_LDW_LOAD  = 3'd2;  // M_LDW reading MSRAM rows into the array
  localparam logic [2:0] TR_MAT_MM        = 3'd3;  // M_MM/M_MMA streaming its rows
  localparam logic [2:0] TR_MAT_WO        = 3'd4;  // M_WO writing its rows
endpackage
