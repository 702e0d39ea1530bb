// Platform constants of the rvv core that the host sees: control addresses, back-door selectors, status
// words, error codes, stall causes and counter indices. tb/rvv/rvv_regs.h mirrors them for the testbench
// (tests check the RTL's answers against it). The ISA itself is RISC-V's: nothing here is an ISA fact.
package rvv_pkg;
  // Control writes: ctl_addr_i[31:28] is the space, the rest an index or a register (tb::regs).
  localparam logic [3:0]  CTL_SPACE_ITCM = 4'h0;  // + word index: the program (tb::regs::kCtlImem)
  localparam logic [3:0]  CTL_SPACE_REG = 4'h1;
  localparam logic [3:0]  CTL_SPACE_DTCM = 4'h2;  // + word index: initial data (.rodata/.data, host words)
  localparam logic [27:0] CTL_START = 28'h0;       // start running at pc 0
  localparam logic [27:0] CTL_DRAM_BYTES = 28'h1;  // DRAM size: accesses past it are bad accesses
  localparam logic [27:0] CTL_CLEAR = 28'h2;       // zero ITCM, DTCM and every register (clearing_o)

  // Back-door read selectors (dbg_sel_i); dbg_addr_i is the index within the selected space.
  localparam logic [3:0] DBG_STATUS = 4'd0;   // a status word (ST_*), 64 bits
  localparam logic [3:0] DBG_COUNTER = 4'd1;  // a 64-bit performance counter (CNT_*)
  localparam logic [3:0] DBG_XREG = 4'd2;     // x<addr>
  localparam logic [3:0] DBG_FREG = 4'd3;     // f<addr> (raw bits)
  localparam logic [3:0] DBG_VREG = 4'd4;     // v<addr>, VLEN bits, byte k at [8*k +: 8]
  localparam logic [3:0] DBG_CSR = 4'd5;      // the CSR numbered <addr> (fcsr 0x003, vl 0xC20, ...)
  localparam logic [3:0] DBG_DTCM = 4'd6;     // DTCM word <addr>
  localparam logic [3:0] DBG_ITCM = 4'd7;     // ITCM word <addr>

  // Status words (DBG_STATUS).
  localparam logic [31:0] ST_FLAGS = 32'd0;     // {clearing, error, stopped, running}
  localparam logic [31:0] ST_ERR_CODE = 32'd1;  // ERR_*
  localparam logic [31:0] ST_ERR_PC = 32'd2;    // byte address of the offending instruction
  localparam logic [31:0] ST_ERR_LO = 32'd3;    // the offending instruction word
  localparam logic [31:0] ST_ERR_HI = 32'd4;    // the faulting data address (bad accesses)
  localparam logic [31:0] ST_PC = 32'd5;        // the instruction in decode (stopped: the ecall's / faulting)
  localparam logic [31:0] ST_STALL = 32'd6;     // why decode waits this cycle (STALL_*)
  localparam logic [31:0] ST_PARAM_VLEN = 32'd16;
  localparam logic [31:0] ST_PARAM_ITCM = 32'd17;  // bytes
  localparam logic [31:0] ST_PARAM_DTCM = 32'd18;  // bytes
  localparam logic [31:0] ST_PARAM_LANES = 32'd19; // 32-bit vector lanes
  localparam logic [31:0] ST_PARAM_DCACHE = 32'd20;  // data cache bytes (0: none)

  // Error codes (ST_ERR_CODE). ecall is the normal end, not an error.
  localparam logic [3:0] ERR_NONE = 4'd0;
  localparam logic [3:0] ERR_ILLEGAL = 4'd1;     // an instruction outside the implemented subset
  localparam logic [3:0] ERR_FETCH = 4'd2;       // pc outside ITCM or not 4-byte aligned
  localparam logic [3:0] ERR_LOAD = 4'd3;        // a load outside DTCM and DRAM (or past the DRAM size)
  localparam logic [3:0] ERR_STORE = 4'd4;       // a store outside DTCM and DRAM, or into ITCM
  localparam logic [3:0] ERR_MISALIGNED = 4'd5;  // a scalar access not aligned to its size
  localparam logic [3:0] ERR_EBREAK = 4'd6;

  // Stall causes (stall_o, ST_STALL): why the instruction in decode did not move on this cycle.
  localparam logic [2:0] STALL_NONE = 3'd0;
  localparam logic [2:0] STALL_DATA = 3'd1;       // an operand from a multi-cycle op (div, FP) not ready
  localparam logic [2:0] STALL_LOAD_USE = 3'd2;   // an operand from the load just ahead
  localparam logic [2:0] STALL_FP_DIVSQRT = 3'd3; // the FP divide/sqrt unit is busy
  localparam logic [2:0] STALL_VECTOR = 3'd4;     // the vector unit cannot take it (busy, queue full, result)
  localparam logic [2:0] STALL_MEMORY = 3'd5;     // a DRAM access (cache miss, write buffer full) waits
  localparam logic [2:0] STALL_BRANCH = 3'd6;     // a bubble after a taken branch or jump

  // Performance counters (DBG_COUNTER).
  localparam logic [31:0] CNT_CYCLES = 32'd0;
  localparam logic [31:0] CNT_INSTRET = 32'd1;         // instructions retired (vector ones included)
  localparam logic [31:0] CNT_VECTOR_INSNS = 32'd2;    // vector instructions dispatched
  localparam logic [31:0] CNT_VECTOR_BUSY = 32'd3;     // cycles the vector unit works on something
  localparam logic [31:0] CNT_STALL_DATA = 32'd4;
  localparam logic [31:0] CNT_STALL_LOAD_USE = 32'd5;
  localparam logic [31:0] CNT_STALL_FP_DIVSQRT = 32'd6;
  localparam logic [31:0] CNT_STALL_VECTOR = 32'd7;
  localparam logic [31:0] CNT_STALL_MEMORY = 32'd8;
  localparam logic [31:0] CNT_STALL_BRANCH = 32'd9;
  localparam logic [31:0] CNT_DRAM_READ_BYTES = 32'd10;
  localparam logic [31:0] CNT_DRAM_WRITE_BYTES = 32'd11;
  localparam logic [31:0] CNT_DCACHE_MISSES = 32'd12;
  localparam int unsigned NUM_COUNTERS = 13;
endpackage
