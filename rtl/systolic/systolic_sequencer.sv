// Sequencer: fetch, decode, interlocks, issue, scalar execution, hardware loops, halt and errors.
//
// One instruction issues per cycle, in order. Scalar and control instructions execute in the issue
// cycle, except exp/reciprocal/sqrt/rsqrt, which go down a pipelined special-function unit and write
// their FP register SFU_LATENCY cycles later. Vector, matrix and DMA instructions are handed to their
// unit, which runs concurrently. An instruction is held while it would touch an SRAM range or
// FP register that an earlier, unfinished instruction still has to read or write, so every program
// behaves as if instructions ran one after another (the functional model's semantics).
module systolic_sequencer #(
  parameter int unsigned MLEN = 16,
  parameter int unsigned VLEN = 16,
  parameter int unsigned BLEN = 4,
  parameter int unsigned IMEM_WORDS = 8192,
  parameter int unsigned VSRAM_ROWS = 8192,
  parameter int unsigned MSRAM_ROWS = 2048,
  parameter int unsigned ACC_ROWS = 512,
  parameter int unsigned FPSRAM_WORDS = 256,
  parameter int unsigned LOOP_DEPTH = 4,
  parameter int unsigned DMA_SLOTS = 4,
  parameter int unsigned MAT_PENDING = 10,
  parameter int unsigned HAS_V_MUL_VFV = 0,  // 0: V_MUL_VFV is an illegal instruction
  parameter int unsigned IM_AW = $clog2(IMEM_WORDS),
  parameter int unsigned VS_AW = $clog2(VSRAM_ROWS),
  parameter int unsigned MS_AW = $clog2(MSRAM_ROWS),
  parameter int unsigned ACC_AW = $clog2(ACC_ROWS),
  parameter int unsigned FPS_AW = $clog2(FPSRAM_WORDS),
  parameter int unsigned DMA_ROW_AW = (VS_AW > MS_AW) ? VS_AW : MS_AW
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  start_i,
  input  logic [32:0]           dram_bytes_i,
  input  logic                  clear_i,        // zero FPSRAM word clear_idx_i (the CTL_CLEAR sweep)
  input  logic [31:0]           clear_idx_i,
  // instruction memory read port (synchronous)
  output logic                  imem_re_o,
  output logic [IM_AW-1:0]      imem_raddr_o,
  input  logic [31:0]           imem_rdata_i,
  // vector unit
  output logic                  vec_valid_o,
  output logic [6:0]            vec_op_o,
  output logic [VS_AW-1:0]      vec_d_o,
  output logic [VS_AW-1:0]      vec_a_o,
  output logic [VS_AW-1:0]      vec_b_o,
  output logic [3:0]            vec_fs_o,
  output logic [31:0]           vec_fval_o,
  input  logic [1:0]            vec_inflight_vs_we_i,
  input  logic [2*VS_AW-1:0]    vec_inflight_vs_row_i,  // entry e at [e*VS_AW +: VS_AW]
  input  logic [1:0]            vec_inflight_fp_we_i,
  input  logic [7:0]            vec_inflight_fp_reg_i,  // entry e at [e*4 +: 4]
  input  logic                  vec_fp_we_i,
  input  logic [3:0]            vec_fp_waddr_i,
  input  logic [31:0]           vec_fp_wdata_i,
  input  logic                  vec_busy_i,
  // matrix unit
  output logic                  mat_valid_o,
  input  logic                  mat_ready_i,
  output logic [6:0]            mat_op_o,
  output logic [VS_AW-1:0]      mat_vrow_o,
  output logic [MS_AW-1:0]      mat_mrow_o,
  output logic [ACC_AW-1:0]     mat_acc_o,
  input  logic                  mat_vs_rd_valid_i,
  input  logic [VS_AW-1:0]      mat_vs_rd_lo_i,
  input  logic                  mat_vs_wr_valid_i,
  input  logic [VS_AW-1:0]      mat_vs_wr_lo_i,
  input  logic                  mat_ms_rd_valid_i,
  input  logic [MS_AW-1:0]      mat_ms_rd_lo_i,
  input  logic [MAT_PENDING-1:0]             mat_acc_wr_valid_i,
  input  logic [MAT_PENDING*ACC_AW-1:0]     mat_acc_wr_lo_i,  // entry p at [p*ACC_AW +: ACC_AW]
  input  logic                  mat_busy_i,
  // DMA engine
  output logic                  dma_valid_o,
  input  logic                  dma_ready_i,
  output logic                  dma_store_o,
  output logic                  dma_target_o,   // 0: VSRAM, 1: MSRAM
  output logic [DMA_ROW_AW-1:0] dma_row_o,
  output logic [31:0]           dma_addr_o,
  output logic [31:0]           dma_stride_o,
  output logic [12:0]           dma_count_o,
  output logic [31:0]           dma_tag_o,
  input  logic [DMA_SLOTS-1:0]  dma_slot_valid_i,
  input  logic [DMA_SLOTS-1:0]  dma_slot_store_i,
  input  logic [DMA_SLOTS-1:0]  dma_slot_target_i,
  input  logic [DMA_SLOTS*(DMA_ROW_AW+1)-1:0] dma_slot_lo_i,  // slot s at [s*(DMA_ROW_AW+1) +: ...]
  input  logic [DMA_SLOTS*(DMA_ROW_AW+1)-1:0] dma_slot_hi_i,
  input  logic                  dma_busy_i,
  // status
  output logic                  running_o,
  output logic                  halted_o,
  output logic [3:0]            err_code_o,
  output logic [31:0]           err_pc_o,
  output logic [63:0]           err_lo_o,
  output logic [63:0]           err_hi_o,
  output logic [31:0]           pc_o,
  output logic [31:0]           insn_o,
  output logic [3:0]            stall_cause_o,
  output logic                  sfu_busy_o,
  output logic [31:0]           loop_sp_o,
  output logic                  retire_o,
  output logic [2:0]            retire_class_o,  // 0 control, 1 scalar, 2 vector, 3 matrix, 4 dma
  // back door
  input  logic                  dbg_en_i,
  input  logic [3:0]            dbg_reg_i,
  output logic [31:0]           dbg_xreg_o,
  output logic [31:0]           dbg_freg_o,
  input  logic [FPS_AW-1:0]     dbg_fpsram_addr_i,
  output logic [31:0]           dbg_fpsram_o
);

  localparam int unsigned SFU_LATENCY = 4;
  localparam int unsigned LOOP_W = $clog2(LOOP_DEPTH + 1);
  localparam int unsigned LOOP_IW = (LOOP_DEPTH > 1) ? $clog2(LOOP_DEPTH) : 1;
  localparam int unsigned ROW_BYTES = 2 * VLEN;

  // ---------------------------------------------------------------- architectural state
  logic [31:0] x_q [16];
  logic [31:0] f_q [16];
  logic [31:0] fpsram_q [FPSRAM_WORDS];
  logic [31:0] loop_start_q [LOOP_DEPTH];
  logic [31:0] loop_end_q [LOOP_DEPTH];
  logic [31:0] loop_left_q [LOOP_DEPTH];
  logic [LOOP_W-1:0] loop_sp_q;

  // ---------------------------------------------------------------- control state
  logic        running_q;     // fetching and issuing
  logic        draining_q;    // C_HALT or an error seen: wait for the units, then halt
  logic        halted_q;
  logic        ir_valid_q;    // imem_rdata_i holds the instruction at pc_q
  logic        pc_fault_q;    // pc_q is beyond the instruction memory
  logic [31:0] pc_q;
  // Special-function pipeline: stage s holds an op issued s+1 cycles ago; the last stage writes.
  localparam int unsigned SFU_STAGES = SFU_LATENCY - 1;
  logic        sfu_valid_q [SFU_STAGES];
  logic [3:0]  sfu_rd_q [SFU_STAGES];
  logic [31:0] sfu_result_q [SFU_STAGES];
  logic [3:0]  err_code_q;
  logic [31:0] err_pc_q;
  logic [63:0] err_lo_q, err_hi_q;

  // ---------------------------------------------------------------- decode
  wire [31:0] ir = imem_rdata_i;
  wire [6:0]  op = systolic_isa_pkg::opcode_field(ir);
  wire [3:0]  f_rd = systolic_isa_pkg::rd_field(ir);
  wire [3:0]  f_rs1 = systolic_isa_pkg::rs1_field(ir);
  wire [3:0]  f_rs2 = systolic_isa_pkg::rs2_field(ir);
  wire [3:0]  f_fs = systolic_isa_pkg::fs_field(ir);
  wire [8:0]  f_off = systolic_isa_pkg::off9_field(ir);
  wire [16:0] f_imm17 = systolic_isa_pkg::imm17_field(ir);
  wire [15:0] f_imm16 = systolic_isa_pkg::imm16_field(ir);
  wire [12:0] f_imm13 = systolic_isa_pkg::imm13_field(ir);
  wire [11:0] f_cnt12 = systolic_isa_pkg::cnt12_field(ir);
  wire [31:0] imm17_sext = {{15{f_imm17[16]}}, f_imm17};

  wire [31:0] xd = x_q[f_rd];
  wire [31:0] x1 = x_q[f_rs1];
  wire [31:0] x2 = x_q[f_rs2];
  wire [31:0] fd_val = f_q[f_rd];
  wire [31:0] f1 = f_q[f_rs1];
  wire [31:0] f2 = f_q[f_rs2];
  wire [31:0] ffs = f_q[f_fs];

  // Row addresses with the shared offset, one bit wider than a register so nothing wraps.
  wire [32:0] row_d = {1'b0, xd} + 33'(f_off);
  wire [32:0] row_1 = {1'b0, x1} + 33'(f_off);
  wire [32:0] row_2 = {1'b0, x2} + 33'(f_off);

  typedef enum logic [2:0] {ClsControl, ClsScalar, ClsVector, ClsMatrix, ClsDma} cls_e;

  // What the instruction at the issue stage does, and what it touches.
  cls_e        cls;
  logic        legal;
  logic        is_sfu;               // special-function op (pipelined, SFU_LATENCY cycles)
  logic        vs_rd_a, vs_rd_b;     // vector reads of row_1 / row_2
  logic        vs_wr_d;              // vector write of row_d
  logic        vs_rng_rd, vs_rng_wr; // range read/write of VSRAM [vs_lo, vs_hi)
  logic [33:0] vs_lo, vs_hi;
  logic        ms_rng_rd, ms_rng_wr;
  logic [33:0] ms_lo, ms_hi;
  logic        acc_rng_rd, acc_rng_wr;
  logic [33:0] acc_lo, acc_hi;
  logic [15:0] fp_touch;             // FP registers read or written
  logic        is_dma, dma_store, dma_msram;
  logic        is_loop;
  logic [31:0] loop_count;

  always_comb begin
    cls = ClsControl;
    // The optional instructions are illegal in hardware built without them.
    legal = systolic_isa_pkg::is_legal(ir) && (HAS_V_MUL_VFV != 0 || !systolic_isa_pkg::needs_has_v_mul_vfv(op));
    is_sfu = 1'b0;
    vs_rd_a = 1'b0;
    vs_rd_b = 1'b0;
    vs_wr_d = 1'b0;
    vs_rng_rd = 1'b0;
    vs_rng_wr = 1'b0;
    vs_lo = '0;
    vs_hi = '0;
    ms_rng_rd = 1'b0;
    ms_rng_wr = 1'b0;
    ms_lo = '0;
    ms_hi = '0;
    acc_rng_rd = 1'b0;
    acc_rng_wr = 1'b0;
    acc_lo = '0;
    acc_hi = '0;
    fp_touch = '0;
    is_dma = 1'b0;
    dma_store = 1'b0;
    dma_msram = 1'b0;
    is_loop = 1'b0;
    loop_count = '0;
    case (op)
      systolic_isa_pkg::OP_C_LOOP: begin
        is_loop = 1'b1;
        loop_count = x1;
        legal = legal && f_imm13 != '0;
      end
      systolic_isa_pkg::OP_C_LOOPI: begin
        is_loop = 1'b1;
        loop_count = 32'(f_cnt12);
        legal = legal && f_imm13 != '0;
      end
      systolic_isa_pkg::OP_S_ADD, systolic_isa_pkg::OP_S_SUB, systolic_isa_pkg::OP_S_MUL,
      systolic_isa_pkg::OP_S_AND, systolic_isa_pkg::OP_S_OR, systolic_isa_pkg::OP_S_XOR,
      systolic_isa_pkg::OP_S_SLL, systolic_isa_pkg::OP_S_SRL, systolic_isa_pkg::OP_S_ADDI,
      systolic_isa_pkg::OP_S_ORI, systolic_isa_pkg::OP_S_SLLI, systolic_isa_pkg::OP_S_SRLI,
      systolic_isa_pkg::OP_S_LUI: cls = ClsScalar;
      systolic_isa_pkg::OP_S_ADD_FP, systolic_isa_pkg::OP_S_SUB_FP, systolic_isa_pkg::OP_S_MUL_FP,
      systolic_isa_pkg::OP_S_MAX_FP, systolic_isa_pkg::OP_S_MIN_FP: begin
        cls = ClsScalar;
        fp_touch[f_rd] = 1'b1;
        fp_touch[f_rs1] = 1'b1;
        fp_touch[f_rs2] = 1'b1;
      end
      systolic_isa_pkg::OP_S_EXP_FP, systolic_isa_pkg::OP_S_RECI_FP, systolic_isa_pkg::OP_S_SQRT_FP,
      systolic_isa_pkg::OP_S_RSQRT_FP: begin
        cls = ClsScalar;
        is_sfu = 1'b1;
        fp_touch[f_rd] = 1'b1;
        fp_touch[f_rs1] = 1'b1;
      end
      systolic_isa_pkg::OP_S_LUI_FP, systolic_isa_pkg::OP_S_LLI_FP, systolic_isa_pkg::OP_S_LD_FP,
      systolic_isa_pkg::OP_S_ST_FP, systolic_isa_pkg::OP_S_ITOF: begin
        cls = ClsScalar;
        fp_touch[f_rd] = 1'b1;
      end
      systolic_isa_pkg::OP_V_ADD_VV, systolic_isa_pkg::OP_V_SUB_VV, systolic_isa_pkg::OP_V_MUL_VV,
      systolic_isa_pkg::OP_V_MAX_VV, systolic_isa_pkg::OP_V_MIN_VV: begin
        cls = ClsVector;
        vs_rd_a = 1'b1;
        vs_rd_b = 1'b1;
        vs_wr_d = 1'b1;
      end
      systolic_isa_pkg::OP_V_MUL_VFV: begin
        cls = ClsVector;
        vs_rd_a = 1'b1;
        vs_rd_b = 1'b1;
        vs_wr_d = 1'b1;
        fp_touch[f_fs] = 1'b1;
      end
      systolic_isa_pkg::OP_V_ADD_VF, systolic_isa_pkg::OP_V_SUB_VF, systolic_isa_pkg::OP_V_MUL_VF,
      systolic_isa_pkg::OP_V_MAX_VF, systolic_isa_pkg::OP_V_MIN_VF, systolic_isa_pkg::OP_V_EXP_VF: begin
        cls = ClsVector;
        vs_rd_a = 1'b1;
        vs_wr_d = 1'b1;
        fp_touch[f_fs] = 1'b1;
      end
      systolic_isa_pkg::OP_V_EXP_V, systolic_isa_pkg::OP_V_RECI_V, systolic_isa_pkg::OP_V_RSQRT_V: begin
        cls = ClsVector;
        vs_rd_a = 1'b1;
        vs_wr_d = 1'b1;
      end
      systolic_isa_pkg::OP_V_BCAST_F: begin
        cls = ClsVector;
        vs_wr_d = 1'b1;
        fp_touch[f_fs] = 1'b1;
      end
      systolic_isa_pkg::OP_V_RED_SUM, systolic_isa_pkg::OP_V_RED_MAX: begin
        cls = ClsVector;
        vs_rd_a = 1'b1;
        fp_touch[f_fs] = 1'b1;
      end
      systolic_isa_pkg::OP_V_RED_DOT: begin
        cls = ClsVector;
        vs_rd_a = 1'b1;
        vs_rd_b = 1'b1;
        fp_touch[f_fs] = 1'b1;
      end
      systolic_isa_pkg::OP_M_LDW, systolic_isa_pkg::OP_M_LDWT: begin
        cls = ClsMatrix;
        ms_rng_rd = 1'b1;
        ms_lo = 34'(row_1);
        ms_hi = 34'(row_1) + 34'(MLEN);
      end
      systolic_isa_pkg::OP_M_MM, systolic_isa_pkg::OP_M_MMA: begin
        cls = ClsMatrix;
        vs_rng_rd = 1'b1;
        vs_lo = 34'(row_1);
        vs_hi = 34'(row_1) + 34'(BLEN);
        acc_rng_wr = 1'b1;
        acc_lo = 34'(row_d);
        acc_hi = 34'(row_d) + 34'(BLEN);
      end
      systolic_isa_pkg::OP_M_WO: begin
        cls = ClsMatrix;
        vs_rng_wr = 1'b1;
        vs_lo = 34'(row_d);
        vs_hi = 34'(row_d) + 34'(BLEN);
        acc_rng_rd = 1'b1;
        acc_lo = 34'(row_1);
        acc_hi = 34'(row_1) + 34'(BLEN);
      end
      systolic_isa_pkg::OP_H_LOAD_V, systolic_isa_pkg::OP_H_LOAD_M, systolic_isa_pkg::OP_H_STORE_V: begin
        cls = ClsDma;
        is_dma = 1'b1;
        dma_store = (op == systolic_isa_pkg::OP_H_STORE_V);
        dma_msram = (op == systolic_isa_pkg::OP_H_LOAD_M);
        legal = legal && f_imm13 != '0;
        if (op == systolic_isa_pkg::OP_H_LOAD_M) begin
          ms_rng_wr = 1'b1;
          ms_lo = {2'b0, xd};
          ms_hi = {2'b0, xd} + 34'(f_imm13);
        end else begin
          vs_rng_rd = dma_store;
          vs_rng_wr = !dma_store;
          vs_lo = {2'b0, xd};
          vs_hi = {2'b0, xd} + 34'(f_imm13);
        end
      end
      default: ;
    endcase
    fp_touch[0] = 1'b0;  // f0 is constant: never pending, never a hazard
  end

  // ---------------------------------------------------------------- errors (first failing check wins)
  wire               loop_active = loop_sp_q != '0;
  wire [LOOP_IW-1:0] loop_top = LOOP_IW'(loop_sp_q - 1'b1);
  wire [LOOP_IW-1:0] loop_new = LOOP_IW'(loop_sp_q);
  wire [31:0]        loop_top_end = loop_end_q[loop_top];
  wire [32:0] new_loop_end = {1'b0, pc_q} + 33'(f_imm13);
  wire [63:0] dram_last = 64'(x1) + (64'(f_imm13) - 64'd1) * 64'(x2) + 64'(ROW_BYTES);
  wire [32:0] fpsram_idx = 33'(x1 + imm17_sext);

  logic [3:0]  err_code;
  logic [63:0] err_lo, err_hi;
  always_comb begin
    err_code = systolic_isa_pkg::ERR_NONE;
    err_lo = '0;
    err_hi = '0;
    if (pc_fault_q) begin
      err_code = systolic_isa_pkg::ERR_PC_RANGE;
      err_lo = 64'(pc_q);
      err_hi = 64'(IMEM_WORDS);
    end else if (!legal) begin
      err_code = systolic_isa_pkg::ERR_ILLEGAL_INSN;
      err_lo = 64'(ir);
    end else if (is_loop && loop_active && new_loop_end >= {1'b0, loop_top_end}) begin
      err_code = systolic_isa_pkg::ERR_LOOP_NEST;
      err_lo = 64'(new_loop_end);
      err_hi = 64'(loop_top_end);
    end else if (is_loop && loop_count != 0 && 32'(loop_sp_q) == LOOP_DEPTH) begin
      err_code = systolic_isa_pkg::ERR_LOOP_OVERFLOW;
      err_lo = 64'(LOOP_DEPTH);
    end else if (vs_rd_a && row_1 >= 33'(VSRAM_ROWS)) begin
      err_code = systolic_isa_pkg::ERR_VSRAM_RANGE;
      err_lo = 64'(row_1);
      err_hi = 64'(row_1) + 1;
    end else if (vs_rd_b && row_2 >= 33'(VSRAM_ROWS)) begin
      err_code = systolic_isa_pkg::ERR_VSRAM_RANGE;
      err_lo = 64'(row_2);
      err_hi = 64'(row_2) + 1;
    end else if (vs_wr_d && row_d >= 33'(VSRAM_ROWS)) begin
      err_code = systolic_isa_pkg::ERR_VSRAM_RANGE;
      err_lo = 64'(row_d);
      err_hi = 64'(row_d) + 1;
    end else if ((vs_rng_rd || vs_rng_wr) && vs_hi > 34'(VSRAM_ROWS)) begin
      err_code = systolic_isa_pkg::ERR_VSRAM_RANGE;
      err_lo = 64'(vs_lo);
      err_hi = 64'(vs_hi);
    end else if ((ms_rng_rd || ms_rng_wr) && ms_hi > 34'(MSRAM_ROWS)) begin
      err_code = systolic_isa_pkg::ERR_MSRAM_RANGE;
      err_lo = 64'(ms_lo);
      err_hi = 64'(ms_hi);
    end else if ((acc_rng_rd || acc_rng_wr) && acc_hi > 34'(ACC_ROWS)) begin
      err_code = systolic_isa_pkg::ERR_ACC_RANGE;
      err_lo = 64'(acc_lo);
      err_hi = 64'(acc_hi);
    end else if ((op == systolic_isa_pkg::OP_S_LD_FP || op == systolic_isa_pkg::OP_S_ST_FP) &&
                 fpsram_idx >= 33'(FPSRAM_WORDS)) begin
      err_code = systolic_isa_pkg::ERR_FPSRAM_RANGE;
      err_lo = 64'(fpsram_idx);
      err_hi = 64'(fpsram_idx) + 1;
    end else if (is_dma && (x1[0] || x2[0])) begin
      err_code = systolic_isa_pkg::ERR_DRAM_ALIGN;
      err_lo = 64'(x1);
      err_hi = 64'(x2);
    end else if (is_dma && dram_last > 64'(dram_bytes_i)) begin
      err_code = systolic_isa_pkg::ERR_DRAM_RANGE;
      err_lo = 64'(x1);
      err_hi = dram_last;
    end
  end

  // ---------------------------------------------------------------- interlocks
  function automatic logic overlap(input logic [33:0] a_lo, input logic [33:0] a_hi,
                                   input logic [33:0] b_lo, input logic [33:0] b_hi);
    overlap = (a_lo < b_hi) && (b_lo < a_hi);  // assigned, not returned: yosys 0.23
  endfunction

  // Pending VSRAM writes (vector EX/WB, M_WO, H_LOAD_V) against any VSRAM read or write of this
  // instruction; pending VSRAM reads (M_MM streaming, H_STORE_V) against its writes.
  logic dep_hazard;
  always_comb begin
    logic [33:0] r1_lo, r2_lo, d_lo, w_lo, m_lo, s_lo, s_hi;
    logic        touches;
    r1_lo = 34'(row_1);
    r2_lo = 34'(row_2);
    d_lo = 34'(row_d);
    w_lo = '0;
    m_lo = '0;
    s_lo = '0;
    s_hi = '0;
    touches = 1'b0;
    dep_hazard = 1'b0;
    for (int unsigned e = 0; e < 2; e++) begin
      if (vec_inflight_vs_we_i[e]) begin
        w_lo = 34'(vec_inflight_vs_row_i[e*VS_AW +: VS_AW]);
        if ((vs_rd_a && overlap(r1_lo, r1_lo + 1, w_lo, w_lo + 1)) ||
            (vs_rd_b && overlap(r2_lo, r2_lo + 1, w_lo, w_lo + 1)) ||
            (vs_wr_d && overlap(d_lo, d_lo + 1, w_lo, w_lo + 1)) ||
            ((vs_rng_rd || vs_rng_wr) && overlap(vs_lo, vs_hi, w_lo, w_lo + 1))) begin
          dep_hazard = 1'b1;
        end
      end
    end
    if (mat_vs_wr_valid_i || mat_vs_rd_valid_i) begin
      m_lo = mat_vs_wr_valid_i ? 34'(mat_vs_wr_lo_i) : 34'(mat_vs_rd_lo_i);
      touches = (vs_wr_d && overlap(d_lo, d_lo + 1, m_lo, m_lo + 34'(BLEN))) ||
                (vs_rng_wr && overlap(vs_lo, vs_hi, m_lo, m_lo + 34'(BLEN)));
      if (mat_vs_wr_valid_i) begin
        touches = touches ||
                  (vs_rd_a && overlap(r1_lo, r1_lo + 1, m_lo, m_lo + 34'(BLEN))) ||
                  (vs_rd_b && overlap(r2_lo, r2_lo + 1, m_lo, m_lo + 34'(BLEN))) ||
                  (vs_rng_rd && overlap(vs_lo, vs_hi, m_lo, m_lo + 34'(BLEN)));
      end
      if (touches) dep_hazard = 1'b1;
    end
    if (mat_ms_rd_valid_i && ms_rng_wr &&
        overlap(ms_lo, ms_hi, 34'(mat_ms_rd_lo_i), 34'(mat_ms_rd_lo_i) + 34'(MLEN))) begin
      dep_hazard = 1'b1;
    end
    for (int unsigned p = 0; p < MAT_PENDING; p++) begin
      if (mat_acc_wr_valid_i[p] && acc_rng_rd &&
          overlap(acc_lo, acc_hi, 34'(mat_acc_wr_lo_i[p*ACC_AW +: ACC_AW]),
                  34'(mat_acc_wr_lo_i[p*ACC_AW +: ACC_AW]) + 34'(BLEN))) begin
        dep_hazard = 1'b1;
      end
    end
    for (int unsigned s = 0; s < DMA_SLOTS; s++) begin
      if (dma_slot_valid_i[s]) begin
        s_lo = 34'(dma_slot_lo_i[s*(DMA_ROW_AW+1) +: DMA_ROW_AW+1]);
        s_hi = 34'(dma_slot_hi_i[s*(DMA_ROW_AW+1) +: DMA_ROW_AW+1]);
        if (dma_slot_target_i[s]) begin
          // H_LOAD_M writes MSRAM
          if ((ms_rng_rd || ms_rng_wr) && overlap(ms_lo, ms_hi, s_lo, s_hi)) dep_hazard = 1'b1;
        end else if (dma_slot_store_i[s]) begin
          // H_STORE_V reads VSRAM
          if ((vs_wr_d && overlap(d_lo, d_lo + 1, s_lo, s_hi)) ||
              (vs_rng_wr && overlap(vs_lo, vs_hi, s_lo, s_hi))) dep_hazard = 1'b1;
        end else begin
          // H_LOAD_V writes VSRAM
          if ((vs_rd_a && overlap(r1_lo, r1_lo + 1, s_lo, s_hi)) ||
              (vs_rd_b && overlap(r2_lo, r2_lo + 1, s_lo, s_hi)) ||
              (vs_wr_d && overlap(d_lo, d_lo + 1, s_lo, s_hi)) ||
              ((vs_rng_rd || vs_rng_wr) && overlap(vs_lo, vs_hi, s_lo, s_hi))) dep_hazard = 1'b1;
        end
      end
    end
  end

  logic [15:0] fp_pending;
  logic        sfu_busy;
  always_comb begin
    fp_pending = '0;
    sfu_busy = 1'b0;
    for (int unsigned e = 0; e < 2; e++) begin
      if (vec_inflight_fp_we_i[e]) fp_pending[vec_inflight_fp_reg_i[e*4 +: 4]] = 1'b1;
    end
    for (int unsigned s = 0; s < SFU_STAGES; s++) begin
      if (sfu_valid_q[s]) begin
        fp_pending[sfu_rd_q[s]] = 1'b1;
        sfu_busy = 1'b1;
      end
    end
  end
  wire fp_hazard = |(fp_pending & fp_touch);

  wire unit_busy = (cls == ClsMatrix && !mat_ready_i) || (is_dma && !dma_ready_i);
  wire units_idle = !vec_busy_i && !mat_busy_i && !dma_busy_i && !sfu_busy;
  wire waits_idle = (op == systolic_isa_pkg::OP_C_FENCE || op == systolic_isa_pkg::OP_C_HALT) && !units_idle;

  wire can_decide = running_q && ir_valid_q && !draining_q;
  wire raise_error = can_decide && err_code != systolic_isa_pkg::ERR_NONE;
  logic [3:0] stall_cause;
  always_comb begin
    stall_cause = systolic_isa_pkg::STALL_NONE;
    if (!can_decide || raise_error) stall_cause = systolic_isa_pkg::STALL_NONE;
    else if (waits_idle) stall_cause = systolic_isa_pkg::STALL_DRAIN;
    else if (fp_hazard) stall_cause = systolic_isa_pkg::STALL_FP_PENDING;
    else if (dep_hazard) stall_cause = systolic_isa_pkg::STALL_DEPENDENCY;
    else if (unit_busy) stall_cause = systolic_isa_pkg::STALL_UNIT_BUSY;
  end
  wire issue = can_decide && !raise_error && stall_cause == systolic_isa_pkg::STALL_NONE;

  // ---------------------------------------------------------------- next pc and loops
  logic [31:0] next_pc;
  logic        loop_push, loop_pop, loop_back;
  always_comb begin
    next_pc = pc_q + 1;
    loop_push = 1'b0;
    loop_pop = 1'b0;
    loop_back = 1'b0;
    if (is_loop) begin
      if (loop_count == 0) next_pc = pc_q + 32'(f_imm13) + 1;
      else loop_push = 1'b1;
    end else if (loop_active && pc_q == loop_top_end) begin
      if (loop_left_q[loop_top] > 1) begin
        loop_back = 1'b1;
        next_pc = loop_start_q[loop_top];
      end else begin
        loop_pop = 1'b1;
      end
    end
  end

  wire halting_issue = issue && op == systolic_isa_pkg::OP_C_HALT;
  wire fetch = (start_i && !running_q) || (issue && !halting_issue);
  wire [31:0] fetch_pc = (start_i && !running_q) ? 32'd0 : next_pc;
  wire fetch_ok = fetch_pc < 32'(IMEM_WORDS);
  assign imem_re_o = fetch && fetch_ok;
  assign imem_raddr_o = IM_AW'(fetch_pc);

  // ---------------------------------------------------------------- scalar results
  logic [31:0] x_result;
  logic        x_we;
  logic        f_we;
  always_comb begin
    x_result = '0;
    x_we = 1'b0;
    f_we = 1'b0;
    if (issue) begin
      case (op)
        systolic_isa_pkg::OP_S_ADD: begin x_we = 1'b1; x_result = x1 + x2; end
        systolic_isa_pkg::OP_S_SUB: begin x_we = 1'b1; x_result = x1 - x2; end
        systolic_isa_pkg::OP_S_MUL: begin x_we = 1'b1; x_result = x1 * x2; end
        systolic_isa_pkg::OP_S_AND: begin x_we = 1'b1; x_result = x1 & x2; end
        systolic_isa_pkg::OP_S_OR:  begin x_we = 1'b1; x_result = x1 | x2; end
        systolic_isa_pkg::OP_S_XOR: begin x_we = 1'b1; x_result = x1 ^ x2; end
        systolic_isa_pkg::OP_S_SLL: begin x_we = 1'b1; x_result = x1 << x2[4:0]; end
        systolic_isa_pkg::OP_S_SRL: begin x_we = 1'b1; x_result = x1 >> x2[4:0]; end
        systolic_isa_pkg::OP_S_ADDI: begin x_we = 1'b1; x_result = x1 + imm17_sext; end
        systolic_isa_pkg::OP_S_ORI: begin x_we = 1'b1; x_result = x1 | 32'(f_imm17); end
        systolic_isa_pkg::OP_S_SLLI: begin x_we = 1'b1; x_result = x1 << f_imm17[4:0]; end
        systolic_isa_pkg::OP_S_SRLI: begin x_we = 1'b1; x_result = x1 >> f_imm17[4:0]; end
        systolic_isa_pkg::OP_S_LUI: begin x_we = 1'b1; x_result = {f_imm16, 16'h0}; end
        systolic_isa_pkg::OP_S_ADD_FP, systolic_isa_pkg::OP_S_SUB_FP, systolic_isa_pkg::OP_S_MUL_FP,
        systolic_isa_pkg::OP_S_MAX_FP, systolic_isa_pkg::OP_S_MIN_FP, systolic_isa_pkg::OP_S_LUI_FP,
        systolic_isa_pkg::OP_S_LLI_FP, systolic_isa_pkg::OP_S_LD_FP, systolic_isa_pkg::OP_S_ITOF: f_we = 1'b1;
        // the special functions' results enter the SFU pipeline, written SFU_LATENCY cycles later
        default: ;
      endcase
    end
  end

  // The FP scalar result of an issuing op (0 for the others). It is called from the sequential block, at
  // the clock edge: in a combinational block, Verilator's data-flow optimisation lifts each function out of
  // its case item and computes all of them in every cycle.
  function automatic logic [31:0] scalar_fp_result(input logic [systolic_isa_pkg::OPCODE_WIDTH-1:0] fp_op,
                                                  input logic [15:0] imm16,
                                                  input logic [31:0] a, input logic [31:0] b,
                                                  input logic [15:0] d_high, input logic [31:0] x,
                                                  input logic [31:0] fp_sram_word);
    scalar_fp_result = '0;
    case (fp_op)
      systolic_isa_pkg::OP_S_ADD_FP: scalar_fp_result = kc_fp_pkg::fp32_add(a, b);
      systolic_isa_pkg::OP_S_SUB_FP: scalar_fp_result = kc_fp_pkg::fp32_sub(a, b);
      systolic_isa_pkg::OP_S_MUL_FP: scalar_fp_result = kc_fp_pkg::fp32_mul(a, b);
      systolic_isa_pkg::OP_S_MAX_FP: scalar_fp_result = kc_fp_pkg::fp32_max(a, b);
      systolic_isa_pkg::OP_S_MIN_FP: scalar_fp_result = kc_fp_pkg::fp32_min(a, b);
      systolic_isa_pkg::OP_S_EXP_FP: scalar_fp_result = kc_fp_pkg::fp32_exp(a);
      systolic_isa_pkg::OP_S_RECI_FP: scalar_fp_result = kc_fp_pkg::fp32_reci(a);
      systolic_isa_pkg::OP_S_SQRT_FP: scalar_fp_result = kc_fp_pkg::fp32_sqrt(a);
      systolic_isa_pkg::OP_S_RSQRT_FP: scalar_fp_result = kc_fp_pkg::fp32_rsqrt(a);
      systolic_isa_pkg::OP_S_LUI_FP: scalar_fp_result = {imm16, 16'h0};
      systolic_isa_pkg::OP_S_LLI_FP: scalar_fp_result = {d_high, imm16};
      systolic_isa_pkg::OP_S_LD_FP: scalar_fp_result = fp_sram_word;
      systolic_isa_pkg::OP_S_ITOF: scalar_fp_result = kc_fp_pkg::int32_to_fp32(x);
      default: ;
    endcase
  endfunction

  // ---------------------------------------------------------------- sequential
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q <= 1'b0;
      draining_q <= 1'b0;
      halted_q <= 1'b0;
      ir_valid_q <= 1'b0;
      pc_fault_q <= 1'b0;
      pc_q <= '0;
      for (int unsigned s = 0; s < SFU_STAGES; s++) sfu_valid_q[s] <= 1'b0;
      err_code_q <= systolic_isa_pkg::ERR_NONE;
      err_pc_q <= '0;
      err_lo_q <= '0;
      err_hi_q <= '0;
      loop_sp_q <= '0;
      for (int unsigned i = 0; i < 16; i++) begin
        x_q[i] <= '0;
        f_q[i] <= '0;
      end
    end else begin
      logic [31:0] f_result;
      f_result = issue ? scalar_fp_result(op, f_imm16, f1, f2, fd_val[31:16], x1, fpsram_q[FPS_AW'(fpsram_idx)]) : '0;
      if (start_i && !running_q && !draining_q) begin
        running_q <= 1'b1;
        halted_q <= 1'b0;
      end
      if (fetch) begin
        pc_q <= fetch_pc;
        ir_valid_q <= 1'b1;
        pc_fault_q <= !fetch_ok;
      end
      sfu_valid_q[0] <= issue && is_sfu;
      sfu_rd_q[0] <= f_rd;
      sfu_result_q[0] <= f_result;
      for (int unsigned s = 1; s < SFU_STAGES; s++) begin
        sfu_valid_q[s] <= sfu_valid_q[s-1];
        sfu_rd_q[s] <= sfu_rd_q[s-1];
        sfu_result_q[s] <= sfu_result_q[s-1];
      end
      if (raise_error) begin
        err_code_q <= err_code;
        err_pc_q <= pc_q;
        err_lo_q <= err_lo;
        err_hi_q <= err_hi;
        draining_q <= 1'b1;
      end
      if (halting_issue) draining_q <= 1'b1;
      if (draining_q && units_idle) begin
        draining_q <= 1'b0;
        running_q <= 1'b0;
        halted_q <= 1'b1;
      end
      // architectural writes
      if (x_we && f_rd != 4'd0) x_q[f_rd] <= x_result;
      if (f_we && f_rd != 4'd0) f_q[f_rd] <= f_result;
      if (vec_fp_we_i && vec_fp_waddr_i != 4'd0) f_q[vec_fp_waddr_i] <= vec_fp_wdata_i;
      if (sfu_valid_q[SFU_STAGES-1] && sfu_rd_q[SFU_STAGES-1] != 4'd0) begin
        f_q[sfu_rd_q[SFU_STAGES-1]] <= sfu_result_q[SFU_STAGES-1];
      end
      if (issue && op == systolic_isa_pkg::OP_S_ST_FP) fpsram_q[FPS_AW'(fpsram_idx)] <= fd_val;
      if (clear_i && clear_idx_i < FPSRAM_WORDS) fpsram_q[FPS_AW'(clear_idx_i)] <= '0;
      if (issue && loop_push) begin
        loop_start_q[loop_new] <= pc_q + 1;
        loop_end_q[loop_new] <= 32'(new_loop_end);
        loop_left_q[loop_new] <= loop_count;
        loop_sp_q <= loop_sp_q + 1'b1;
      end else if (issue && loop_back) begin
        loop_left_q[loop_top] <= loop_left_q[loop_top] - 1;
      end else if (issue && loop_pop) begin
        loop_sp_q <= loop_sp_q - 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------- unit commands
  assign vec_valid_o = issue && cls == ClsVector;
  assign vec_op_o = op;
  assign vec_d_o = VS_AW'(row_d);
  assign vec_a_o = VS_AW'(row_1);
  assign vec_b_o = VS_AW'(row_2);
  assign vec_fs_o = f_fs;
  assign vec_fval_o = ffs;

  assign mat_valid_o = issue && cls == ClsMatrix;
  assign mat_op_o = op;
  assign mat_vrow_o = VS_AW'(vs_lo);
  assign mat_mrow_o = MS_AW'(ms_lo);
  assign mat_acc_o = ACC_AW'(acc_lo);

  assign dma_valid_o = issue && is_dma;
  assign dma_store_o = dma_store;
  assign dma_target_o = dma_msram;
  assign dma_row_o = DMA_ROW_AW'(xd);
  assign dma_addr_o = x1;
  assign dma_stride_o = x2;
  assign dma_count_o = f_imm13;
  assign dma_tag_o = pc_q;

  // ---------------------------------------------------------------- status
  assign running_o = running_q;
  assign halted_o = halted_q;
  assign err_code_o = err_code_q;
  assign err_pc_o = err_pc_q;
  assign err_lo_o = err_lo_q;
  assign err_hi_o = err_hi_q;
  assign pc_o = pc_q;
  assign insn_o = ir;
  assign stall_cause_o = stall_cause;
  assign sfu_busy_o = sfu_busy;
  assign loop_sp_o = 32'(loop_sp_q);
  assign retire_o = issue;
  assign retire_class_o = cls;

  assign dbg_xreg_o = dbg_en_i ? x_q[dbg_reg_i] : '0;
  assign dbg_freg_o = dbg_en_i ? f_q[dbg_reg_i] : '0;
  assign dbg_fpsram_o = dbg_en_i ? fpsram_q[dbg_fpsram_addr_i] : '0;
endmodule
