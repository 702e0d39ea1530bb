// Platform constants of the vliw tile that are not ISA facts (those are in the generated vliw_isa_pkg):
// the host's control addresses, the back-door selectors and status words. tb/vliw/vliw_regs.h mirrors
// them for the testbench.
package vliw_pkg;
  // Control writes: ctl_addr_i[31:28] is the space, the rest an index or a register.
  localparam logic [3:0]  CTL_SPACE_IMEM = 4'h0;  // + instruction word index
  localparam logic [3:0]  CTL_SPACE_REG = 4'h1;
  localparam logic [27:0] CTL_START = 28'h0;       // start running at pc 0
  localparam logic [27:0] CTL_DRAM_BYTES = 28'h1;  // size of DRAM, for the DMA range checks
  localparam logic [27:0] CTL_CLEAR = 28'h2;       // zero IMEM and DM (clearing_o while it runs)

  // Back-door read selectors (dbg_sel_i); dbg_addr_i is the index within the selected space.
  localparam logic [3:0] DBG_STATUS = 4'd0;   // a status word (ST_*)
  localparam logic [3:0] DBG_COUNTER = 4'd1;  // a 64-bit performance counter
  localparam logic [3:0] DBG_XREG = 4'd2;     // scalar register r<addr>
  localparam logic [3:0] DBG_PREG = 4'd3;     // pointer register p<addr>
  localparam logic [3:0] DBG_VREG = 4'd4;     // vector register v<addr>, lane i at [16*i +: 16]
  localparam logic [3:0] DBG_AREG = 4'd5;     // accumulator a<addr>, lane i at [32*i +: 32]
  localparam logic [3:0] DBG_DM = 4'd6;       // DM row <addr> (ROW_BYTES bytes, byte k at [8*k +: 8])
  localparam logic [3:0] DBG_IMEM = 4'd7;     // IMEM word <addr>
  localparam logic [3:0] DBG_LOCK = 4'd8;     // lock <addr>

  // Status words (DBG_STATUS).
  localparam logic [31:0] ST_FLAGS = 32'd0;       // {clearing, error, halted, running}
  localparam logic [31:0] ST_ERR_CODE = 32'd1;
  localparam logic [31:0] ST_ERR_PC = 32'd2;
  localparam logic [31:0] ST_ERR_LO = 32'd3;      // 64 bits
  localparam logic [31:0] ST_ERR_HI = 32'd4;      // 64 bits
  localparam logic [31:0] ST_PC = 32'd5;          // the bundle at the issue stage (halted: the halting one)
  localparam logic [31:0] ST_STALL = 32'd6;       // why the issue stage waits (vliw_isa_pkg STALL_*)
  localparam logic [31:0] ST_LOOP_DEPTH = 32'd7;  // active hardware loops
  localparam logic [31:0] ST_DMA_BUSY = 32'd8;    // per channel: a transfer is queued or in flight
  localparam logic [31:0] ST_DMA_IN_FLIGHT = 32'd9;  // DRAM rows requested and not yet answered
  localparam logic [31:0] ST_HALT_STATE = 32'd10; // {stopped, draining, halted by C_HALT}
  localparam logic [31:0] ST_PARAM_VLEN = 32'd16;
  localparam logic [31:0] ST_PARAM_IMEM = 32'd17;
  localparam logic [31:0] ST_PARAM_DM = 32'd18;
  localparam logic [31:0] ST_PARAM_BANKS = 32'd19;
  localparam logic [31:0] ST_PARAM_LOOP = 32'd20;
  localparam logic [31:0] ST_PARAM_CHANNELS = 32'd21;
  localparam logic [31:0] ST_PARAM_QUEUE = 32'd22;
  localparam logic [31:0] ST_PARAM_OUTSTANDING = 32'd23;
endpackage
