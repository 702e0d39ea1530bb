// The myaccel core: one instruction at a time, in program order (isa/myaccel.yaml; the functional model
// isa/myaccel/myaccel_iss.cpp is its cycle-exact twin).
//
// States: IDLE until START; RUN executes the instruction at pc_q in one cycle, or, for VLD/VST/VBC, sends
// its DRAM request (registered: DRAM sees it the next cycle) and moves to WAIT; WAIT ends in the cycle the
// response arrives (a load writes its vector register then); DONE after HALT or an error. IMEM is a
// synchronous SRAM read at the next pc, so its word for pc_q is there in every RUN cycle.
//
// The package's names are written out (myaccel_isa_pkg::OP_VLD): yosys 0.23 (scripts/synth.sh) reads no
// `import` inside a module.
//
// TEAM: new instructions go in the decode below (and in isa/myaccel.yaml and the model, which must agree).
module myaccel_core #(
  parameter int unsigned LANES = 8,
  parameter int unsigned IMEM_WORDS = 1024,
  parameter int unsigned IM_AW = $clog2(IMEM_WORDS),
  parameter int unsigned ROW_BITS = 32 * LANES
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                start_i,
  input  logic [32:0]         dram_bytes_i,
  // IMEM read port (one cycle of latency)
  output logic [IM_AW-1:0]    imem_raddr_o,
  input  logic [31:0]         imem_rdata_i,
  // DRAM port: at most one request in flight
  output logic                mem_req_valid_o,
  output logic                mem_req_write_o,
  output logic [31:0]         mem_req_addr_o,
  output logic [ROW_BITS-1:0] mem_req_wdata_o,
  output logic [31:0]         mem_req_tag_o,
  input  logic                mem_rsp_valid_i,
  input  logic [ROW_BITS-1:0] mem_rsp_rdata_i,
  // status
  output logic                running_o,
  output logic                stopped_o,
  output logic                halted_o,   // stopped by HALT
  output logic [1:0]          err_code_o,
  output logic [31:0]         err_pc_o,
  output logic [63:0]         err_lo_o,
  output logic [63:0]         err_hi_o,
  output logic [31:0]         pc_o,
  output logic                stall_o,    // myaccel_isa_pkg STALL_* of this cycle
  output logic                retire_o,   // an instruction issues this cycle
  output logic [31:0]         retire_insn_o,
  // back door (read only while dbg_en_i is high)
  input  logic                dbg_en_i,
  input  logic [31:0]         dbg_addr_i,
  output logic [31:0]         dbg_xreg_o,
  output logic [ROW_BITS-1:0] dbg_vreg_o,
  output logic [63:0]         dbg_counter_o
);
  localparam int unsigned ROW_BYTES = 4 * LANES;
  localparam int unsigned LANE_W = $clog2(LANES);
  localparam int unsigned NCNT = myaccel_isa_pkg::NUM_COUNTERS;

  typedef enum logic [1:0] {IDLE, RUN, WAIT, DONE} state_e;
  state_e state_q, state_d;

  logic [31:0]         pc_q, pc_d;
  logic [31:0]         x_q [16];
  logic [ROW_BITS-1:0] v_q [16];
  logic [63:0]         cnt_q [NCNT];
  logic                halted_q;
  logic [1:0]          err_code_q;
  logic [63:0]         err_lo_q, err_hi_q;
  logic                req_valid_q, req_write_q;
  logic [31:0]         req_addr_q;
  logic [ROW_BITS-1:0] req_wdata_q;

  // ---------------------------------------------------------------- decode
  wire [31:0] insn = pc_q < IMEM_WORDS ? imem_rdata_i : 32'h0;  // past IMEM: an illegal zero word
  wire [5:0]  op = myaccel_isa_pkg::opcode_field(insn);
  wire [3:0]  rd = myaccel_isa_pkg::rd_field(insn);
  wire [3:0]  rs1 = myaccel_isa_pkg::rs1_field(insn);
  wire [3:0]  rs2 = myaccel_isa_pkg::rs2_field(insn);
  wire [31:0] imm16 = 32'(signed'(myaccel_isa_pkg::imm16_field(insn)));
  wire [31:0] imm20 = 32'(signed'(myaccel_isa_pkg::imm20_field(insn)));
  wire [31:0] xs1 = x_q[rs1];
  wire [31:0] xs2 = x_q[rs2];
  wire        legal = myaccel_isa_pkg::is_legal(insn);
  wire        is_mem = op == myaccel_isa_pkg::OP_VLD || op == myaccel_isa_pkg::OP_VST ||
                       op == myaccel_isa_pkg::OP_VBC;
  // VBC reads the whole row that holds its word.
  wire [31:0] row_addr = op == myaccel_isa_pkg::OP_VBC ? xs1 & ~32'(ROW_BYTES - 1) : xs1;
  wire [33:0] row_end = 34'(row_addr) + 34'(ROW_BYTES);
  wire        misaligned = xs1[1:0] != 2'b00;
  wire        out_of_range = row_end > 34'(dram_bytes_i);

  logic       fault;
  logic [1:0] fault_code;
  logic [63:0] fault_lo, fault_hi;
  always_comb begin
    fault = 1'b0;
    fault_code = myaccel_isa_pkg::ERR_NONE;
    fault_lo = '0;
    fault_hi = '0;
    if (!legal) begin
      fault = 1'b1;
      fault_code = myaccel_isa_pkg::ERR_ILLEGAL_INSN;
      fault_lo = 64'(insn);
    end else if (is_mem && misaligned) begin
      fault = 1'b1;
      fault_code = myaccel_isa_pkg::ERR_DRAM_ALIGN;
      fault_lo = 64'(xs1);
    end else if (is_mem && out_of_range) begin
      fault = 1'b1;
      fault_code = myaccel_isa_pkg::ERR_DRAM_RANGE;
      fault_lo = 64'(row_addr);
      fault_hi = 64'(row_end);
    end
  end

  // ---------------------------------------------------------------- vector lanes (kc_fp_pkg: bit-exact with
  // kcraft::arith, which the model uses)
  logic [ROW_BITS-1:0] lanes_result;
  for (genvar i = 0; i < LANES; i++) begin : g_lane
    wire [31:0] a = v_q[rs1][32*i +: 32];
    wire [31:0] b = v_q[rs2][32*i +: 32];
    always_comb begin
      case (op)
        myaccel_isa_pkg::OP_VADD: lanes_result[32*i +: 32] = kc_fp_pkg::fp32_add(a, b);
        myaccel_isa_pkg::OP_VMUL: lanes_result[32*i +: 32] = kc_fp_pkg::fp32_mul(a, b);
        default: lanes_result[32*i +: 32] = kc_fp_pkg::fp32_max(a, b);
      endcase
    end
  end
  wire is_lane_op = op == myaccel_isa_pkg::OP_VADD || op == myaccel_isa_pkg::OP_VMUL ||
                    op == myaccel_isa_pkg::OP_VMAX;
  // The word VBC broadcasts, from the response row.
  wire [31:0] bcast_word = mem_rsp_rdata_i[32*xs1[2 +: LANE_W] +: 32];

  // ---------------------------------------------------------------- next state
  wire issue = state_q == RUN && !fault;
  always_comb begin
    state_d = state_q;
    pc_d = pc_q;
    if (start_i) begin
      state_d = RUN;
      pc_d = '0;
    end else if (state_q == RUN) begin
      if (fault || op == myaccel_isa_pkg::OP_HALT) state_d = DONE;
      else if (is_mem) state_d = WAIT;
      else if (op == myaccel_isa_pkg::OP_BNZ && xs1 != '0) pc_d = 32'(myaccel_isa_pkg::imm16_field(insn));
      else pc_d = pc_q + 1;
    end else if (state_q == WAIT && mem_rsp_valid_i) begin
      state_d = RUN;
      pc_d = pc_q + 1;
    end
  end
  assign imem_raddr_o = pc_d[IM_AW-1:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= IDLE;
      pc_q <= '0;
      halted_q <= 1'b0;
      err_code_q <= myaccel_isa_pkg::ERR_NONE;
      err_lo_q <= '0;
      err_hi_q <= '0;
      req_valid_q <= 1'b0;
      req_write_q <= 1'b0;
      req_addr_q <= '0;
      for (int r = 0; r < 16; r++) x_q[r] <= '0;
      for (int r = 0; r < 16; r++) v_q[r] <= '0;
      for (int c = 0; c < NCNT; c++) cnt_q[c] <= '0;
    end else begin
      state_q <= state_d;
      pc_q <= pc_d;
      req_valid_q <= 1'b0;
      if (start_i) begin
        halted_q <= 1'b0;
        err_code_q <= myaccel_isa_pkg::ERR_NONE;
        for (int c = 0; c < NCNT; c++) cnt_q[c] <= '0;
      end else begin
        if (state_q == RUN || state_q == WAIT)
          cnt_q[myaccel_isa_pkg::CNT_CYCLES] <= cnt_q[myaccel_isa_pkg::CNT_CYCLES] + 1;
        if (state_q == WAIT)
          cnt_q[myaccel_isa_pkg::CNT_STALL_DRAM] <= cnt_q[myaccel_isa_pkg::CNT_STALL_DRAM] + 1;
        if (state_q == RUN && fault) begin
          err_code_q <= fault_code;
          err_lo_q <= fault_lo;
          err_hi_q <= fault_hi;
        end
        if (issue) begin
          cnt_q[myaccel_isa_pkg::CNT_INSTRUCTIONS] <= cnt_q[myaccel_isa_pkg::CNT_INSTRUCTIONS] + 1;
          if (is_lane_op)
            cnt_q[myaccel_isa_pkg::CNT_LANE_OPS] <= cnt_q[myaccel_isa_pkg::CNT_LANE_OPS] + 64'(LANES);
          if (op == myaccel_isa_pkg::OP_VST)
            cnt_q[myaccel_isa_pkg::CNT_DRAM_BYTES_WRITTEN] <=
                cnt_q[myaccel_isa_pkg::CNT_DRAM_BYTES_WRITTEN] + 64'(ROW_BYTES);
          if (op == myaccel_isa_pkg::OP_VLD || op == myaccel_isa_pkg::OP_VBC)
            cnt_q[myaccel_isa_pkg::CNT_DRAM_BYTES_READ] <=
                cnt_q[myaccel_isa_pkg::CNT_DRAM_BYTES_READ] + 64'(ROW_BYTES);
          case (op)
            myaccel_isa_pkg::OP_HALT: halted_q <= 1'b1;
            myaccel_isa_pkg::OP_LI: if (rd != 0) x_q[rd] <= imm20;
            myaccel_isa_pkg::OP_ADDI: if (rd != 0) x_q[rd] <= xs1 + imm16;
            myaccel_isa_pkg::OP_ADD: if (rd != 0) x_q[rd] <= xs1 + xs2;
            myaccel_isa_pkg::OP_VSPLAT: v_q[rd] <= {LANES{xs1}};
            myaccel_isa_pkg::OP_VADD, myaccel_isa_pkg::OP_VMUL, myaccel_isa_pkg::OP_VMAX:
              v_q[rd] <= lanes_result;
            default: ;
          endcase
          if (is_mem) begin
            req_valid_q <= 1'b1;
            req_write_q <= op == myaccel_isa_pkg::OP_VST;
            req_addr_q <= row_addr;
          end
        end
        if (state_q == WAIT && mem_rsp_valid_i) begin
          if (op == myaccel_isa_pkg::OP_VLD) v_q[rd] <= mem_rsp_rdata_i;
          if (op == myaccel_isa_pkg::OP_VBC) v_q[rd] <= {LANES{bcast_word}};
        end
      end
    end
  end

  // The row a VST writes: captured at issue (the register may not change meanwhile, but a request is data).
  always_ff @(posedge clk_i) begin
    if (issue && op == myaccel_isa_pkg::OP_VST) req_wdata_q <= v_q[rd];
  end

  // ---------------------------------------------------------------- outputs
  assign mem_req_valid_o = req_valid_q;
  assign mem_req_write_o = req_write_q;
  assign mem_req_addr_o = req_addr_q;
  assign mem_req_wdata_o = req_wdata_q;
  assign mem_req_tag_o = pc_q;  // the instruction waiting for the request
  assign running_o = state_q == RUN || state_q == WAIT;
  assign stopped_o = state_q == DONE;
  assign halted_o = halted_q;
  assign err_code_o = err_code_q;
  assign err_pc_o = pc_q;
  assign err_lo_o = err_lo_q;
  assign err_hi_o = err_hi_q;
  assign pc_o = pc_q;
  assign stall_o = state_q == WAIT ? myaccel_isa_pkg::STALL_DRAM : myaccel_isa_pkg::STALL_NONE;
  assign retire_o = issue;
  assign retire_insn_o = insn;
  assign dbg_xreg_o = dbg_en_i ? x_q[dbg_addr_i[3:0]] : '0;
  assign dbg_vreg_o = dbg_en_i ? v_q[dbg_addr_i[3:0]] : '0;
  assign dbg_counter_o = dbg_en_i && dbg_addr_i < NCNT ? cnt_q[dbg_addr_i[$clog2(NCNT)-1:0]] : '0;
endmodule
