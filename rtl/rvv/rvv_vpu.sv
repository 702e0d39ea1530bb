// The vector unit of the rvv core (Zve32f subset): the interface between the scalar pipeline and the unit.
// THIS FILE IS THE CONTRACT between rvv_core (the scalar pipeline, rtl/rvv/rvv_core.sv) and the vector
// unit; the body below is a placeholder that accepts nothing and flags every vector instruction illegal.
//
// Dispatch. The core decodes an instruction as vector (opcode OP-V 1010111 except vsetvl/vsetvli/vsetivli,
// which the core executes itself; LOAD-FP 0000111 / STORE-FP 0100111 with a vector width field) and, in
// program order, offers it with its scalar operands already read (forwarded) and the vl/vtype in force.
// issue_illegal_o is combinational on the offered instruction and vl/vtype: when set, the core does not
// dispatch and stops with ERR_ILLEGAL at that pc. Otherwise the instruction is dispatched on the cycle
// issue_valid_i && issue_ready_o. A vector instruction that writes a scalar register (vmv.x.s, vfmv.f.s,
// vcpop.m, vfirst.m) returns its value on result_*, in program order; the core waits for it.
//
// Ordering with the scalar side. The core holds scalar loads and stores while mem_busy_o (a vector memory
// instruction is queued or in flight) and holds vector memory instructions until its own stores have
// drained, so memory is seen in program order. CSR accesses to fcsr/fflags/frm wait for !busy_o; the unit
// reports the FP exception flags of each vector FP instruction on fflags_* and the core accrues them.
// ecall waits for !busy_o before the run stops.
//
// Memory. One request port into the core's memory system (DTCM and, through the DRAM port, DRAM). A request
// covers bytes of one ROW_BYTES-aligned row (ROW_BYTES = ROW_BITS / 8; vmem_req_be_o says which); the
// unit splits unit-stride accesses into row pieces and strided/indexed ones into per-element requests.
// Many requests may be outstanding; responses come back in request order, writes included; a response with
// vmem_rsp_error_i means the address was outside DTCM and DRAM (nothing was written) and the unit stops
// with error_o (ERR_LOAD/ERR_STORE, the instruction's pc and word, the faulting address).
module rvv_vpu #(
  parameter int unsigned VLEN = 128,
  parameter int unsigned LANES = VLEN / 32,  // 32-bit lanes: VLEN / (32 * LANES) cycles per register
  parameter int unsigned ROW_BITS = VLEN
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // dispatch
  input  logic                  issue_valid_i,
  output logic                  issue_ready_o,
  output logic                  issue_illegal_o,  // combinational: the offered instruction is not supported
  input  logic [31:0]           issue_insn_i,
  input  logic [31:0]           issue_pc_i,
  input  logic [31:0]           issue_rs1_i,      // x[rs1]: base address or scalar operand
  input  logic [31:0]           issue_rs2_i,      // x[rs2]: stride
  input  logic [31:0]           issue_frs1_i,     // f[rs1]: the scalar operand of .vf forms
  input  logic [31:0]           issue_vl_i,
  input  logic [31:0]           issue_vtype_i,    // as the vtype CSR reads (vill in bit 31)
  input  logic [2:0]            issue_frm_i,      // fcsr.frm, for FP operations
  // scalar results, in program order
  output logic                  result_valid_o,
  output logic [31:0]           result_data_o,
  // FP exception flags of a finished vector FP instruction, to accrue into fcsr.fflags
  output logic                  fflags_valid_o,
  output logic [4:0]            fflags_o,
  // state
  output logic                  busy_o,           // anything dispatched and not finished
  output logic                  mem_busy_o,       // a vector memory instruction dispatched and not finished
  // memory requests and in-order responses
  output logic                  vmem_req_valid_o,
  input  logic                  vmem_req_ready_i,
  output logic                  vmem_req_write_o,
  output logic [31:0]           vmem_req_addr_o,  // byte address of the row's first accessed byte
  output logic [ROW_BITS-1:0]   vmem_req_wdata_o, // row-aligned: byte k of the row at [8*k +: 8]
  output logic [ROW_BITS/8-1:0] vmem_req_be_o,    // the accessed bytes of the row (reads too)
  input  logic                  vmem_rsp_valid_i,
  input  logic [ROW_BITS-1:0]   vmem_rsp_rdata_i, // the whole row, row-aligned
  input  logic                  vmem_rsp_error_i,
  // errors (sticky until reset)
  output logic                  error_o,
  output logic [3:0]            error_code_o,     // rvv_pkg::ERR_*
  output logic [31:0]           error_pc_o,
  output logic [31:0]           error_insn_o,
  output logic [31:0]           error_addr_o,
  // back door
  input  logic [4:0]            dbg_vreg_i,
  output logic [VLEN-1:0]       dbg_vreg_o
);
  // Placeholder until the unit exists: every vector instruction is illegal.
  assign issue_ready_o = 1'b0;
  assign issue_illegal_o = 1'b1;
  assign result_valid_o = 1'b0;
  assign result_data_o = '0;
  assign fflags_valid_o = 1'b0;
  assign fflags_o = '0;
  assign busy_o = 1'b0;
  assign mem_busy_o = 1'b0;
  assign vmem_req_valid_o = 1'b0;
  assign vmem_req_write_o = 1'b0;
  assign vmem_req_addr_o = '0;
  assign vmem_req_wdata_o = '0;
  assign vmem_req_be_o = '0;
  assign error_o = 1'b0;
  assign error_code_o = '0;
  assign error_pc_o = '0;
  assign error_insn_o = '0;
  assign error_addr_o = '0;
  assign dbg_vreg_o = '0;

  logic [31:0] lanes;
  assign lanes = 32'(LANES);
  logic unused;
  assign unused = ^{lanes, clk_i, rst_ni, issue_valid_i, issue_insn_i, issue_pc_i, issue_rs1_i, issue_rs2_i,
                    issue_frs1_i, issue_vl_i, issue_vtype_i, issue_frm_i, vmem_req_ready_i,
                    vmem_rsp_valid_i, vmem_rsp_rdata_i, vmem_rsp_error_i, dbg_vreg_i};
endmodule
