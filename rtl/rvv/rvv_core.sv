// rvv_core: the scalar pipeline of the rvv platform (RV32I + M + F + Zicsr, vsetvl* executed here), the
// FPU, the vector unit (rvv_vpu, through its contract) and the memory system (rvv_lsu).
//
// Five stages, in order, one instruction per cycle at best:
//   IF   the fetch address goes to the ITCM (synchronous: the word arrives in ID);
//   ID   the word waits in the ITCM's output register and is decoded (the decode is registered into EX);
//   EX   operands (register file, forwarded from MEM and WB), ALU, branches and jumps (a taken one
//        squashes ID: one bubble), multiply (one cycle), divide (iterative, EX waits), CSRs, vsetvl*,
//        load/store address and checks, DTCM loads and stores, the FPU's issue, the vector unit's dispatch;
//   MEM  DTCM load data, DRAM loads through the cache, DRAM stores into the write buffer, FPU results
//        (FDIV/FSQRT: MEM waits), scalar results of vector instructions (MEM waits);
//   WB   register writes, fflags accrual, retirement; errors and ecall take effect here (precise: the
//        instruction that detects one squashes everything younger in EX).
// Forwarding: MEM forwards values computed in EX and one-cycle FPU results, WB forwards everything; an
// operand from a load (or an FDIV/FSQRT, or a vector scalar result) in MEM stalls EX one cycle.
// CSR instructions wait until MEM and WB are empty (and the FPU's divider and, for fcsr/frm/fflags, the
// vector unit are idle), so they see every older instruction's effects.
// The end: ecall (or an error) reaches WB, fetch has stopped behind it, then the run waits for the
// vector unit (ecall) and the memory system to drain, and stops.
module rvv_core #(
  parameter int unsigned VLEN = 128,
  parameter int unsigned LANES = VLEN / 32,
  parameter int unsigned ITCM_BYTES = 65536,
  parameter int unsigned DTCM_BYTES = 65536,
  parameter int unsigned DCACHE_BYTES = 2048,
  parameter int unsigned WRITE_BUFFER = 4,
  parameter int unsigned DRAM_OUTSTANDING = 32,
  parameter int unsigned DIV_BITS_PER_CYCLE = 2,
  parameter int unsigned FDIV_BITS_PER_CYCLE = 2,
  parameter int unsigned VECTOR_QUEUE = 4,
  parameter int unsigned ROW_BITS = VLEN,
  parameter int unsigned ROW_BYTES = ROW_BITS / 8,
  parameter int unsigned IAW = $clog2(ITCM_BYTES / 4),
  parameter int unsigned RAW = $clog2(DTCM_BYTES / ROW_BYTES)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 start_i,
  input  logic                 clear_i,        // zero the registers (CTL_CLEAR)
  input  logic [32:0]          dram_bytes_i,
  // ITCM
  output logic                 itcm_re_o,
  output logic [IAW-1:0]       itcm_raddr_o,
  input  logic [31:0]          itcm_rdata_i,
  // DTCM: read port 0 (scalar loads), read port 1 (vector unit), the write port
  output logic                 dtcm_re0_o,
  output logic [RAW-1:0]       dtcm_raddr0_o,
  input  logic [ROW_BITS-1:0]  dtcm_rdata0_i,
  output logic                 dtcm_re1_o,
  output logic [RAW-1:0]       dtcm_raddr1_o,
  input  logic [ROW_BITS-1:0]  dtcm_rdata1_i,
  output logic                 dtcm_we_o,
  output logic [RAW-1:0]       dtcm_waddr_o,
  output logic [ROW_BITS-1:0]  dtcm_wdata_o,
  output logic [ROW_BYTES-1:0] dtcm_be_o,
  // DRAM
  output logic                 mem_req_valid_o,
  input  logic                 mem_req_ready_i,
  output logic                 mem_req_write_o,
  output logic [31:0]          mem_req_addr_o,
  output logic [ROW_BITS-1:0]  mem_req_wdata_o,
  output logic [ROW_BYTES-1:0] mem_req_be_o,
  output logic [31:0]          mem_req_tag_o,
  input  logic                 mem_rsp_valid_i,
  input  logic [ROW_BITS-1:0]  mem_rsp_rdata_i,
  // status
  output logic                 running_o,
  output logic                 stopped_o,
  output logic [3:0]           err_code_o,
  output logic [31:0]          err_pc_o,
  output logic [31:0]          err_insn_o,
  output logic [31:0]          err_addr_o,
  output logic [31:0]          pc_o,
  output logic [2:0]           stall_o,
  output logic                 retire_o,
  output logic [31:0]          retire_pc_o,
  output logic [31:0]          retire_insn_o,
  // FP exception flags (trace, for coverage): those the retiring scalar FP instruction raises, and those of
  // a vector FP instruction the vector unit finishes this cycle (it finishes after its retirement)
  output logic [4:0]           retire_fflags_o,
  output logic [4:0]           vector_fflags_o,
  // back door (the outputs are 0 while dbg_en_i is low)
  input  logic                 dbg_en_i,
  input  logic [31:0]          dbg_addr_i,
  output logic [31:0]          dbg_xreg_o,
  output logic [31:0]          dbg_freg_o,
  output logic [VLEN-1:0]      dbg_vreg_o,
  output logic [31:0]          dbg_csr_o,
  output logic [63:0]          dbg_counter_o
);
  localparam logic [31:0] DtcmBase = 32'h0001_0000;
  localparam logic [31:0] DramBase = 32'h8000_0000;
  localparam int unsigned RB = $clog2(ROW_BYTES);
  localparam int unsigned WPR = ROW_BITS / 32;
  localparam int unsigned WW = WPR > 1 ? $clog2(WPR) : 1;
  localparam int unsigned ELEN = 32;

  // ================================================================ state
  logic        running_q, stop_q, stopped_q, stop_ecall_q, fetch_stop_q;
  logic [3:0]  err_code_q;
  logic [31:0] err_pc_q, err_insn_q, err_addr_q, stop_pc_q;
  // The register files and the counters are flat vectors, register r at [32*r +: 32] (counter c at
  // [64*c +: 64]): reset and clear are one assignment each, where Verilator would commit an unpacked
  // array's cleared elements one flag at a time, in every cycle (the same flops; flat rather than packed
  // two-dimensional arrays, which yosys 0.23 does not read).
  logic [32*32-1:0] xrf_q;
  logic [32*32-1:0] frf_q;
  logic [4:0]  fflags_q;
  logic [2:0]  frm_q;
  logic [31:0] vl_q;
  logic [7:0]  vtype_q;
  logic        vill_q;
  logic [64*rvv_pkg::NUM_COUNTERS-1:0] cnt_q;

  // IF/ID
  logic [31:0] fetch_pc_q, id_pc_q;
  logic        id_valid_q, id_ferr_q;
  // ID/EX
  logic        ex_valid_q, ex_ferr_q;
  logic [31:0] ex_pc_q, ex_insn_q;
  // EX/MEM
  logic        mem_valid_q, mem_err_q, mem_ecall_q, mem_wex_q, mem_wef_q, mem_dtcm_q, mem_dram_ld_q;
  logic        mem_dram_st_q;
  logic [2:0]  mem_kind_q, mem_f3_q;
  logic [3:0]  mem_err_code_q;
  logic [4:0]  mem_rd_q;
  logic [31:0] mem_pc_q, mem_insn_q, mem_result_q, mem_addr_q;
  logic [ROW_BITS-1:0]  mem_st_row_q;
  logic [ROW_BYTES-1:0] mem_st_be_q;
  // MEM/WB
  logic        wb_valid_q, wb_err_q, wb_ecall_q, wb_wex_q, wb_wef_q, wb_flags_valid_q;
  logic [3:0]  wb_err_code_q;
  logic [4:0]  wb_rd_q, wb_flags_q;
  logic [31:0] wb_pc_q, wb_insn_q, wb_value_q, wb_addr_q;

  // ================================================================ EX: decode
  // The word is decoded in ID and the result registered beside it (ex_dec_q = decode(ex_insn_q) always).
  rvv_decode_pkg::dec_t ex_dec_q;
  wire        d_illegal = ex_dec_q.illegal;
  wire [3:0]  d_cls = ex_dec_q.cls;
  wire [3:0]  d_alu_op = ex_dec_q.alu_op;
  wire        d_alu_imm = ex_dec_q.alu_imm;
  wire        d_alu_pc = ex_dec_q.alu_pc;
  wire [31:0] d_imm = ex_dec_q.imm;
  wire        d_uses_xrs1 = ex_dec_q.uses_xrs1;
  wire        d_uses_xrs2 = ex_dec_q.uses_xrs2;
  wire        d_uses_frs1 = ex_dec_q.uses_frs1;
  wire        d_uses_frs2 = ex_dec_q.uses_frs2;
  wire        d_uses_frs3 = ex_dec_q.uses_frs3;
  wire        d_we_x = ex_dec_q.we_x;
  wire        d_we_f = ex_dec_q.we_f;
  wire [4:0]  d_fpu_op = ex_dec_q.fpu_op;
  wire        d_fpu_rm = ex_dec_q.fpu_rm;
  wire        d_fpu_a_x = ex_dec_q.fpu_a_x;
  wire        d_vec_res = ex_dec_q.vec_res;
  wire [4:0] rs1 = ex_insn_q[19:15];
  wire [4:0] rs2 = ex_insn_q[24:20];
  wire [4:0] rs3 = ex_insn_q[31:27];
  wire [4:0] rd = ex_insn_q[11:7];
  wire [2:0] f3 = ex_insn_q[14:12];
  wire ex_live = ex_valid_q && !stop_q;

  // ================================================================ EX: operands and forwarding
  // MEM's value, when it is known this cycle.
  logic        fpu_out_valid;
  logic [31:0] fpu_result;
  logic [4:0]  fpu_flags;
  wire mem_fwd_ok = mem_kind_q == rvv_core_pkg::KindValue || mem_kind_q == rvv_core_pkg::KindFpu;
  wire [31:0] mem_fwd_value = mem_kind_q == rvv_core_pkg::KindFpu ? fpu_result : mem_result_q;

  // One source operand: is_f selects the register file; {hazard, value}, hazard when MEM will have it
  // only later.
  function automatic logic [32:0] operand(input logic is_f, input logic [4:0] r, input logic [31:0] rf_value);
    logic mem_hit, wb_hit;
    mem_hit = mem_valid_q && !mem_err_q && mem_rd_q == r && (is_f ? mem_wef_q : (mem_wex_q && r != 5'd0));
    wb_hit = wb_valid_q && !wb_err_q && wb_rd_q == r && (is_f ? wb_wef_q : (wb_wex_q && r != 5'd0));
    if (mem_hit) operand = {!mem_fwd_ok, mem_fwd_value};
    else if (wb_hit) operand = {1'b0, wb_value_q};
    else operand = {1'b0, is_f ? rf_value : (r == 5'd0 ? 32'd0 : rf_value)};
  endfunction

  // Each operand is formed only for an instruction that reads it, and is 0 otherwise (operand isolation:
  // the simulation evaluates every combinational block on every clock, also while EX waits on the vector
  // unit). Every reader of an operand is an instruction whose decode sets its uses_* bit, which the hazard
  // check below relies on as well.
  logic [32:0] op_x1, op_x2, op_f1, op_f2, op_f3;
  always_comb begin
    op_x1 = '0;
    op_x2 = '0;
    op_f1 = '0;
    op_f2 = '0;
    op_f3 = '0;
    if (d_uses_xrs1) op_x1 = operand(1'b0, rs1, xrf_q[32*rs1 +: 32]);
    if (d_uses_xrs2) op_x2 = operand(1'b0, rs2, xrf_q[32*rs2 +: 32]);
    if (d_uses_frs1) op_f1 = operand(1'b1, rs1, frf_q[32*rs1 +: 32]);
    if (d_uses_frs2) op_f2 = operand(1'b1, rs2, frf_q[32*rs2 +: 32]);
    if (d_uses_frs3) op_f3 = operand(1'b1, rs3, frf_q[32*rs3 +: 32]);
  end
  wire [31:0] xa = op_x1[31:0];
  wire [31:0] xb = op_x2[31:0];
  wire [31:0] fa = op_f1[31:0];
  wire [31:0] fb = op_f2[31:0];
  wire [31:0] fc = op_f3[31:0];
  wire operand_hazard = (d_uses_xrs1 && op_x1[32]) || (d_uses_xrs2 && op_x2[32]) ||
                        (d_uses_frs1 && op_f1[32]) || (d_uses_frs2 && op_f2[32]) ||
                        (d_uses_frs3 && op_f3[32]);
  logic [2:0] hazard_cause;
  always_comb begin
    unique case (mem_kind_q)
      rvv_core_pkg::KindLoad: hazard_cause = rvv_pkg::STALL_LOAD_USE;
      rvv_core_pkg::KindVres: hazard_cause = rvv_pkg::STALL_VECTOR;
      default: hazard_cause = rvv_pkg::STALL_DATA;
    endcase
  end

  // ================================================================ EX: ALU, branches, multiply
  wire [31:0] alu_a = d_alu_pc ? ex_pc_q : xa;
  wire [31:0] alu_b = d_alu_imm ? d_imm : xb;
  logic [31:0] alu_result;
  always_comb begin
    unique case (d_alu_op)
      rvv_core_pkg::AluSub: alu_result = alu_a - alu_b;
      rvv_core_pkg::AluSll: alu_result = alu_a << alu_b[4:0];
      rvv_core_pkg::AluSlt: alu_result = {31'd0, $signed(alu_a) < $signed(alu_b)};
      rvv_core_pkg::AluSltu: alu_result = {31'd0, alu_a < alu_b};
      rvv_core_pkg::AluXor: alu_result = alu_a ^ alu_b;
      rvv_core_pkg::AluSrl: alu_result = alu_a >> alu_b[4:0];
      rvv_core_pkg::AluSra: alu_result = $unsigned($signed(alu_a) >>> alu_b[4:0]);
      rvv_core_pkg::AluOr: alu_result = alu_a | alu_b;
      rvv_core_pkg::AluAnd: alu_result = alu_a & alu_b;
      rvv_core_pkg::AluPassB: alu_result = alu_b;
      default: alu_result = alu_a + alu_b;
    endcase
  end

  // The branch condition and the jump target, computed for their own classes only (the target is read
  // only on a redirect).
  logic taken;
  logic [31:0] target;
  always_comb begin
    taken = 1'b0;
    target = '0;
    if (d_cls == rvv_core_pkg::ClsBranch) begin
      unique case (f3)
        3'b000: taken = xa == xb;
        3'b001: taken = xa != xb;
        3'b100: taken = $signed(xa) < $signed(xb);
        3'b101: taken = $signed(xa) >= $signed(xb);
        3'b110: taken = xa < xb;
        default: taken = xa >= xb;
      endcase
    end
    if (d_cls == rvv_core_pkg::ClsJalr) target = (xa + d_imm) & 32'hFFFF_FFFE;
    else if (d_cls == rvv_core_pkg::ClsJal || d_cls == rvv_core_pkg::ClsBranch) target = ex_pc_q + d_imm;
  end
  wire jump = d_cls == rvv_core_pkg::ClsJal || d_cls == rvv_core_pkg::ClsJalr || (d_cls == rvv_core_pkg::ClsBranch && taken);

  // MUL (f3 0), MULH (1, signed x signed), MULHSU (2), MULHU (3).
  wire signed [32:0] mul_a = {f3[1:0] != 2'b11 && xa[31], xa};
  wire signed [32:0] mul_b = {f3[1:0] == 2'b01 && xb[31], xb};
  // Computed only for a multiply in EX: the 66-bit product is wide arithmetic in simulation.
  logic signed [65:0] mul_p;
  always_comb begin
    mul_p = '0;
    if (d_cls == rvv_core_pkg::ClsMul) mul_p = mul_a * mul_b;
  end
  wire [31:0] mul_result = f3[1:0] == 2'b00 ? mul_p[31:0] : mul_p[63:32];

  // DIV, DIVU, REM, REMU: iterative; EX waits for it.
  logic div_busy, div_done, div_have_q;
  logic [31:0] div_result;
  wire div_ready = div_done || div_have_q;

  // ================================================================ EX: CSRs and vsetvl*
  wire [11:0] csr = ex_insn_q[31:20];
  wire [31:0] csr_src = f3[2] ? {27'd0, rs1} : xa;
  wire        csr_writes = f3[1:0] == 2'b01 || rs1 != 5'd0;
  wire [31:0] vtype_view = {vill_q, 23'd0, vtype_q};
  logic [31:0] csr_old;
  logic        csr_known, csr_fp;
  // {known, fp-state, value}; 0 unless en. The enable is an argument rather than only a condition around
  // the call: Verilator 5.006's data-flow optimisation lifted the call out of its condition, reading the
  // CSR on every clock.
  function automatic logic [33:0] csr_read(input logic en, input logic [11:0] a);
    csr_read = '0;
    if (en) unique case (a)
      12'h001: csr_read = {2'b11, 27'd0, fflags_q};
      12'h002: csr_read = {2'b11, 29'd0, frm_q};
      12'h003: csr_read = {2'b11, 24'd0, frm_q, fflags_q};
      12'h008: csr_read = {2'b10, 32'd0};  // vstart: always 0 here
      12'hC00, 12'hC01: csr_read = {2'b10, cnt_q[64*rvv_pkg::CNT_CYCLES +: 32]};
      12'hC80, 12'hC81: csr_read = {2'b10, cnt_q[64*rvv_pkg::CNT_CYCLES + 32 +: 32]};
      12'hC02: csr_read = {2'b10, cnt_q[64*rvv_pkg::CNT_INSTRET +: 32]};
      12'hC82: csr_read = {2'b10, cnt_q[64*rvv_pkg::CNT_INSTRET + 32 +: 32]};
      12'hC20: csr_read = {2'b10, vl_q};
      12'hC21: csr_read = {2'b10, vtype_view};
      12'hC22: csr_read = {2'b10, 32'(VLEN / 8)};
      default: csr_read = {2'b00, 32'd0};
    endcase
  endfunction
  // Read and new value for a CSR instruction only: every use is under d_cls == ClsCsr (operand isolation:
  // the simulation evaluates all combinational logic on every clock).
  logic [33:0] csr_rd;
  logic [31:0] csr_new;
  always_comb begin
    csr_rd = csr_read(d_cls == rvv_core_pkg::ClsCsr, csr);
    csr_new = '0;
    if (d_cls == rvv_core_pkg::ClsCsr) begin
      unique case (f3[1:0])
        2'b01: csr_new = csr_src;
        2'b10: csr_new = csr_rd[31:0] | csr_src;
        default: csr_new = csr_rd[31:0] & ~csr_src;
      endcase
    end
  end
  assign csr_known = csr_rd[33];
  assign csr_fp = csr_rd[32];
  assign csr_old = csr_rd[31:0];
  // Unknown CSRs, writes to read-only ones (0xC..), and writes of a nonzero vstart (this core never
  // interrupts a vector instruction, so vstart stays 0) are illegal instructions.
  wire csr_illegal = !csr_known || (csr_writes && csr[11:10] == 2'b11) ||
                     (csr_writes && csr == 12'h008 && csr_new != 32'd0);

  // vsetvli / vsetivli / vsetvl, as QEMU 7.2 (helper_vsetvl) computes them for ELEN = 32.
  // Computed for a vset* instruction only (every use is under d_cls == ClsVset).
  wire is_vsetivli = ex_insn_q[31:30] == 2'b11;
  wire is_vsetvl = ex_insn_q[31:30] == 2'b10;
  logic [31:0] vt_new, avl, vt_sew, vlmax, vl_new;
  logic [2:0]  vt_lmul, vt_vsew;
  logic [3:0]  vt_shift;
  logic        vt_frac_bad, vt_bad;
  always_comb begin
    vt_new = '0;
    avl = '0;
    vt_lmul = '0;
    vt_vsew = '0;
    vt_sew = '0;
    vt_frac_bad = 1'b0;
    vt_bad = 1'b0;
    vt_shift = '0;
    vlmax = '0;
    vl_new = '0;
    if (d_cls == rvv_core_pkg::ClsVset) begin
      vt_new = is_vsetvl ? xb : is_vsetivli ? {22'd0, ex_insn_q[29:20]} : {21'd0, ex_insn_q[30:20]};
      avl = is_vsetivli ? {27'd0, rs1} : rs1 != 5'd0 ? xa : rd != 5'd0 ? 32'hFFFF_FFFF : vl_q;
      vt_lmul = vt_new[2:0];
      vt_vsew = vt_new[5:3];
      vt_sew = 32'd8 << vt_vsew;
      vt_frac_bad = vt_lmul[2] && (vt_lmul == 3'b100 || (32'(ELEN) >> (4'd8 - {1'b0, vt_lmul})) < vt_sew);
      vt_bad = vt_sew > 32'(ELEN) || vt_new[31] || vt_new[30:8] != 23'd0 || vt_frac_bad;
      // VLEN >> (vsew + 3 - lmul), lmul signed.
      vt_shift = 4'({1'b0, vt_vsew} + 4'd3 - {vt_lmul[2], vt_lmul});
      vlmax = 32'(VLEN) >> vt_shift;
      vl_new = vt_bad ? 32'd0 : (avl <= vlmax ? avl : vlmax);
    end
  end

  // ================================================================ EX: loads and stores
  // Computed for a load or store only: every use is under is_load or is_store, or goes to a flop or port
  // that is read only for them (mem_dtcm_q, mem_st_row_q, mem_st_be_q, the DTCM's addresses).
  wire        is_load = d_cls == rvv_core_pkg::ClsLoad;
  wire        is_store = d_cls == rvv_core_pkg::ClsStore;
  logic [31:0]          ls_addr;
  logic [1:0]           ls_size;
  logic                 ls_in_dtcm, ls_in_dram, ls_misaligned;
  logic [32:0]          ls_dram_end;
  logic [31:0]          st_data, st_word;
  logic [3:0]           st_word_be;
  logic [WW-1:0]        ls_word;
  logic [ROW_BYTES-1:0] st_be;
  logic [ROW_BITS-1:0]  st_row;
  always_comb begin
    ls_addr = '0;
    ls_size = '0;
    ls_in_dtcm = 1'b0;
    ls_dram_end = '0;
    ls_in_dram = 1'b0;
    ls_misaligned = 1'b0;
    st_data = '0;
    st_word = '0;
    st_word_be = '0;
    ls_word = '0;
    st_be = '0;
    st_row = '0;
    if (is_load || is_store) begin
      ls_addr = xa + d_imm;
      ls_size = is_load && ex_insn_q[6:0] == 7'b0000111 ? 2'd2 :
                is_store && ex_insn_q[6:0] == 7'b0100111 ? 2'd2 : f3[1:0];
      ls_in_dtcm = ls_addr >= DtcmBase && ls_addr - DtcmBase < DTCM_BYTES;
      ls_dram_end = {1'b0, ls_addr - DramBase} + (33'd1 << ls_size);
      ls_in_dram = ls_addr >= DramBase && ls_dram_end <= dram_bytes_i;
      ls_misaligned = (ls_size == 2'd1 && ls_addr[0]) || (ls_size == 2'd2 && ls_addr[1:0] != 2'b00);
      if (is_store) begin
        st_data = ex_insn_q[6:0] == 7'b0100111 ? fb : xb;
        st_word = ls_size == 2'd0 ? {4{st_data[7:0]}} : ls_size == 2'd1 ? {2{st_data[15:0]}} : st_data;
        st_word_be = ls_size == 2'd0 ? 4'b0001 << ls_addr[1:0] :
                     ls_size == 2'd1 ? 4'b0011 << ls_addr[1:0] : 4'b1111;
        ls_word = WPR > 1 ? WW'(ls_addr[RB-1:2]) : '0;
        st_be[4*ls_word +: 4] = st_word_be;
        st_row = {WPR{st_word}};
      end
    end
  end

  // ================================================================ EX: FPU issue
  wire [2:0] fpu_rm = f3 == 3'b111 ? frm_q : f3;
  wire       fpu_rm_bad = d_fpu_rm && (fpu_rm == 3'd5 || fpu_rm == 3'd6 || fpu_rm == 3'd7);
  wire       is_fdiv = d_fpu_op == rvv_fpu_pkg::OpDiv || d_fpu_op == rvv_fpu_pkg::OpSqrt;
  logic      fpu_in_ready;

  // ================================================================ EX: vector unit
  logic        vpu_issue_ready, vpu_illegal, vpu_result_valid, vpu_fflags_valid, vpu_busy, vpu_mem_busy;
  logic        vpu_store_busy;
  logic [31:0] vpu_result;
  logic [4:0]  vpu_fflags;
  logic        vpu_error;
  logic [3:0]  vpu_err_code;
  logic [31:0] vpu_err_pc, vpu_err_insn, vpu_err_addr;
  logic        lsu_idle;

  // ================================================================ EX: errors, holds, fire
  logic       ex_err;
  logic [3:0] ex_err_code;
  always_comb begin
    ex_err = 1'b1;
    ex_err_code = rvv_pkg::ERR_ILLEGAL;
    if (ex_ferr_q) ex_err_code = rvv_pkg::ERR_FETCH;
    else if (d_illegal) ex_err_code = rvv_pkg::ERR_ILLEGAL;
    else if (d_cls == rvv_core_pkg::ClsEbreak) ex_err_code = rvv_pkg::ERR_EBREAK;
    else if (d_cls == rvv_core_pkg::ClsCsr && csr_illegal) ex_err_code = rvv_pkg::ERR_ILLEGAL;
    else if (d_cls == rvv_core_pkg::ClsFpu && fpu_rm_bad) ex_err_code = rvv_pkg::ERR_ILLEGAL;
    else if (d_cls == rvv_core_pkg::ClsVec && vpu_illegal) ex_err_code = rvv_pkg::ERR_ILLEGAL;
    else if (is_load && !ls_in_dtcm && !ls_in_dram) ex_err_code = rvv_pkg::ERR_LOAD;
    else if (is_store && !ls_in_dtcm && !ls_in_dram) ex_err_code = rvv_pkg::ERR_STORE;
    else if ((is_load || is_store) && ls_misaligned) ex_err_code = rvv_pkg::ERR_MISALIGNED;
    else ex_err = 1'b0;
  end
  wire ex_stop = ex_err || (d_cls == rvv_core_pkg::ClsEcall);
  wire ex_fault_addr = is_load || is_store;

  // Whether MEM cannot move on this cycle (and why).
  logic       mem_stall;
  logic [2:0] mem_cause;
  logic       ld_done, st_ready;
  logic [ROW_BITS-1:0] ld_row;
  logic       vres_hold_q;
  logic [31:0] vres_hold_value_q;
  wire        vres_avail = vpu_result_valid || vres_hold_q;
  wire        mem_live = mem_valid_q && !stop_q && !mem_err_q;
  always_comb begin
    mem_stall = 1'b0;
    mem_cause = rvv_pkg::STALL_NONE;
    if (mem_live) begin
      if (mem_dram_ld_q && !ld_done) begin
        mem_stall = 1'b1;
        mem_cause = rvv_pkg::STALL_MEMORY;
      end else if (mem_dram_st_q && !st_ready) begin
        mem_stall = 1'b1;
        mem_cause = rvv_pkg::STALL_MEMORY;
      end else if (mem_kind_q == rvv_core_pkg::KindFdiv && !fpu_out_valid) begin
        mem_stall = 1'b1;
        mem_cause = rvv_pkg::STALL_FP_DIVSQRT;
      end else if (mem_kind_q == rvv_core_pkg::KindVres && !vres_avail) begin
        mem_stall = 1'b1;
        mem_cause = rvv_pkg::STALL_VECTOR;
      end
    end
  end

  // Why EX cannot move on this cycle (besides MEM).
  logic       ex_hold;
  logic [2:0] ex_cause;
  always_comb begin
    ex_hold = 1'b1;
    ex_cause = rvv_pkg::STALL_DATA;
    if (operand_hazard) ex_cause = hazard_cause;
    else if (ex_err) ex_hold = 1'b0;
    else if (d_cls == rvv_core_pkg::ClsDiv && !div_ready) ex_cause = rvv_pkg::STALL_DATA;
    else if (d_cls == rvv_core_pkg::ClsCsr && (mem_valid_q || wb_valid_q || !fpu_in_ready)) ex_cause = rvv_pkg::STALL_DATA;
    else if (d_cls == rvv_core_pkg::ClsCsr && csr_fp && vpu_busy) ex_cause = rvv_pkg::STALL_VECTOR;
    // Scalar stores wait for every vector access before them, scalar loads for the vector stores.
    else if ((is_store && vpu_mem_busy) || (is_load && vpu_store_busy)) ex_cause = rvv_pkg::STALL_VECTOR;
    else if (d_cls == rvv_core_pkg::ClsFpu && !fpu_in_ready) ex_cause = rvv_pkg::STALL_FP_DIVSQRT;
    else if (d_cls == rvv_core_pkg::ClsVec && !vpu_issue_ready) ex_cause = rvv_pkg::STALL_VECTOR;
    else ex_hold = 1'b0;
  end
  wire ex_fire = ex_live && !ex_hold && !mem_stall;
  wire redirect = ex_fire && !ex_err && jump;
  wire ex_stop_fire = ex_fire && ex_stop;
  // Vector memory instructions need not wait for the core's stores: both go through the one cache and
  // write buffer, in program order (a store in MEM enters the buffer before the unit's first request).
  wire vpu_issue = ex_live && d_cls == rvv_core_pkg::ClsVec && !ex_err && !mem_stall && !operand_hazard;

  // ================================================================ IF / ID
  wire [31:0] id_word = id_ferr_q ? 32'd0 : itcm_rdata_i;  // a fetch fault enters EX as word 0
  wire ex_accept = !ex_valid_q || ex_fire;
  wire kill_id = redirect || ex_stop_fire || stop_q;
  wire id_to_ex = id_valid_q && ex_accept && !kill_id;
  wire fetch_ok = running_q && !stop_q && !fetch_stop_q && !ex_stop_fire;
  wire id_free = !id_valid_q || id_to_ex || kill_id;
  wire do_fetch = fetch_ok && (redirect || id_free);
  wire [31:0] fetch_addr = redirect ? target : fetch_pc_q;
  assign itcm_re_o = do_fetch;
  assign itcm_raddr_o = IAW'(fetch_addr >> 2);
  wire fetch_bad = fetch_addr >= ITCM_BYTES || fetch_addr[1:0] != 2'b00;

  // ================================================================ EX result
  logic [31:0] ex_value;
  logic [2:0]  ex_kind;
  always_comb begin
    ex_value = alu_result;
    ex_kind = d_we_x || d_we_f ? rvv_core_pkg::KindValue : rvv_core_pkg::KindNone;
    unique case (d_cls)
      rvv_core_pkg::ClsJal, rvv_core_pkg::ClsJalr: ex_value = ex_pc_q + 32'd4;
      rvv_core_pkg::ClsMul: ex_value = mul_result;
      rvv_core_pkg::ClsDiv: ex_value = div_result;
      rvv_core_pkg::ClsCsr: ex_value = csr_old;
      rvv_core_pkg::ClsVset: ex_value = vl_new;
      rvv_core_pkg::ClsLoad: ex_kind = rvv_core_pkg::KindLoad;
      rvv_core_pkg::ClsFpu: ex_kind = is_fdiv ? rvv_core_pkg::KindFdiv : rvv_core_pkg::KindFpu;
      rvv_core_pkg::ClsVec: ex_kind = d_vec_res ? rvv_core_pkg::KindVres : rvv_core_pkg::KindNone;
      default: ;
    endcase
  end

  // ================================================================ FPU
  rvv_fpu #(.DivSqrtBitsPerCycle(FDIV_BITS_PER_CYCLE)) u_fpu (
    .clk_i,
    .rst_ni,
    .in_valid_i (ex_fire && !ex_err && d_cls == rvv_core_pkg::ClsFpu),
    .in_ready_o (fpu_in_ready),
    .op_i       (d_fpu_op),
    .rm_i       (fpu_rm),
    .a_i        (d_fpu_a_x ? xa : fa),
    .b_i        (fb),
    .c_i        (fc),
    .out_valid_o(fpu_out_valid),
    .result_o   (fpu_result),
    .flags_o    (fpu_flags)
  );

  rvv_div #(.BitsPerCycle(DIV_BITS_PER_CYCLE)) u_div (
    .clk_i,
    .rst_ni,
    .start_i (ex_live && d_cls == rvv_core_pkg::ClsDiv && !d_illegal && !operand_hazard && !div_busy && !div_ready),
    .op_i    (f3[1:0]),
    .a_i     (xa),
    .b_i     (xb),
    .busy_o  (div_busy),
    .done_o  (div_done),
    .result_o(div_result)
  );

  // ================================================================ vector unit
  logic        vmem_req_valid, vmem_req_ready, vmem_req_write, vmem_rsp_valid, vmem_rsp_error;
  logic [31:0] vmem_req_addr;
  logic [ROW_BITS-1:0]  vmem_req_wdata, vmem_rsp_rdata;
  logic [ROW_BYTES-1:0] vmem_req_be;
  logic [31:0] vpu_mem_pc, vpu_done_pc;
  rvv_vpu #(.VLEN(VLEN), .LANES(LANES), .ROW_BITS(ROW_BITS), .QUEUE(VECTOR_QUEUE)) u_vpu (
    .clk_i,
    .rst_ni,
    .issue_valid_i   (vpu_issue),
    .issue_ready_o   (vpu_issue_ready),
    .issue_illegal_o (vpu_illegal),
    .issue_insn_i    (ex_insn_q),
    .issue_pc_i      (ex_pc_q),
    .issue_rs1_i     (xa),
    .issue_rs2_i     (xb),
    .issue_frs1_i    (fa),
    .issue_vl_i      (vl_q),
    .issue_vtype_i   (vtype_view),
    .issue_frm_i     (frm_q),
    .result_valid_o  (vpu_result_valid),
    .result_data_o   (vpu_result),
    .fflags_valid_o  (vpu_fflags_valid),
    .fflags_o        (vpu_fflags),
    .busy_o          (vpu_busy),
    .mem_busy_o      (vpu_mem_busy),
    .store_busy_o    (vpu_store_busy),
    .mem_pc_o        (vpu_mem_pc),
    .done_pc_o       (vpu_done_pc),
    .vmem_req_valid_o(vmem_req_valid),
    .vmem_req_ready_i(vmem_req_ready),
    .vmem_req_write_o(vmem_req_write),
    .vmem_req_addr_o (vmem_req_addr),
    .vmem_req_wdata_o(vmem_req_wdata),
    .vmem_req_be_o   (vmem_req_be),
    .vmem_rsp_valid_i(vmem_rsp_valid),
    .vmem_rsp_rdata_i(vmem_rsp_rdata),
    .vmem_rsp_error_i(vmem_rsp_error),
    .error_o         (vpu_error),
    .error_code_o    (vpu_err_code),
    .error_pc_o      (vpu_err_pc),
    .error_insn_o    (vpu_err_insn),
    .error_addr_o    (vpu_err_addr),
    .dbg_en_i,
    .dbg_vreg_i      (dbg_addr_i[4:0]),
    .dbg_vreg_o      (dbg_vreg_o)
  );

  // ================================================================ memory system
  wire core_dtcm_we = ex_fire && !ex_err && is_store && ls_in_dtcm;
  logic                 v_dtcm_we;
  logic [RAW-1:0]       v_dtcm_waddr;
  logic [ROW_BITS-1:0]  v_dtcm_wdata;
  logic [ROW_BYTES-1:0] v_dtcm_be;
  logic [31:0]          dram_rd_bytes, dram_wr_bytes;
  logic                 dcache_miss;
  rvv_lsu #(
    .ROW_BITS(ROW_BITS), .DTCM_BYTES(DTCM_BYTES), .DCACHE_BYTES(DCACHE_BYTES), .WRITE_BUFFER(WRITE_BUFFER),
    .OUTSTANDING(DRAM_OUTSTANDING)
  ) u_lsu (
    .clk_i,
    .rst_ni,
    .flush_i           (start_i || clear_i),
    .dram_bytes_i,
    .ld_valid_i        (mem_live && mem_dram_ld_q),
    .ld_addr_i         (mem_addr_q),
    .ld_pc_i           (mem_pc_q),
    .ld_done_o         (ld_done),
    .ld_row_o          (ld_row),
    .st_valid_i        (mem_live && mem_dram_st_q),
    .st_addr_i         (mem_addr_q),
    .st_row_i          (mem_st_row_q),
    .st_be_i           (mem_st_be_q),
    .st_pc_i           (mem_pc_q),
    .st_ready_o        (st_ready),
    .idle_o            (lsu_idle),
    .block_vpu_i       (stop_q && !stop_ecall_q),
    .vpu_pc_i          (vpu_mem_pc),
    .vmem_req_valid_i  (vmem_req_valid),
    .vmem_req_ready_o  (vmem_req_ready),
    .vmem_req_write_i  (vmem_req_write),
    .vmem_req_addr_i   (vmem_req_addr),
    .vmem_req_wdata_i  (vmem_req_wdata),
    .vmem_req_be_i     (vmem_req_be),
    .vmem_rsp_valid_o  (vmem_rsp_valid),
    .vmem_rsp_rdata_o  (vmem_rsp_rdata),
    .vmem_rsp_error_o  (vmem_rsp_error),
    .core_dtcm_we_i    (core_dtcm_we),
    .dtcm_re_o         (dtcm_re1_o),
    .dtcm_raddr_o      (dtcm_raddr1_o),
    .dtcm_rdata_i      (dtcm_rdata1_i),
    .dtcm_we_o         (v_dtcm_we),
    .dtcm_waddr_o      (v_dtcm_waddr),
    .dtcm_wdata_o      (v_dtcm_wdata),
    .dtcm_be_o         (v_dtcm_be),
    .mem_req_valid_o,
    .mem_req_ready_i,
    .mem_req_write_o,
    .mem_req_addr_o,
    .mem_req_wdata_o,
    .mem_req_be_o,
    .mem_req_tag_o,
    .mem_rsp_valid_i,
    .mem_rsp_rdata_i,
    .dram_read_bytes_o (dram_rd_bytes),
    .dram_write_bytes_o(dram_wr_bytes),
    .miss_o            (dcache_miss)
  );

  wire [RAW-1:0] ls_row = RAW'((ls_addr - DtcmBase) >> RB);
  assign dtcm_re0_o = ex_fire && !ex_err && is_load && ls_in_dtcm;
  assign dtcm_raddr0_o = ls_row;
  assign dtcm_we_o = core_dtcm_we || v_dtcm_we;
  assign dtcm_waddr_o = core_dtcm_we ? ls_row : v_dtcm_waddr;
  assign dtcm_wdata_o = core_dtcm_we ? st_row : v_dtcm_wdata;
  assign dtcm_be_o = core_dtcm_we ? st_be : v_dtcm_be;

  // ================================================================ MEM: load data, results
  wire [ROW_BITS-1:0] ld_src_row = mem_dtcm_q ? dtcm_rdata0_i : ld_row;
  wire [WW-1:0] mem_word = WPR > 1 ? WW'(mem_addr_q[RB-1:2]) : '0;
  wire [31:0] ld_word = ld_src_row[32*mem_word +: 32];
  wire [31:0] ld_shifted = ld_word >> {mem_addr_q[1:0], 3'b000};
  logic [31:0] ld_value;
  always_comb begin
    unique case (mem_f3_q)
      3'b000: ld_value = {{24{ld_shifted[7]}}, ld_shifted[7:0]};
      3'b001: ld_value = {{16{ld_shifted[15]}}, ld_shifted[15:0]};
      3'b100: ld_value = {24'd0, ld_shifted[7:0]};
      3'b101: ld_value = {16'd0, ld_shifted[15:0]};
      default: ld_value = ld_word;  // LW, FLW
    endcase
  end
  logic [31:0] mem_value;
  always_comb begin
    unique case (mem_kind_q)
      rvv_core_pkg::KindLoad: mem_value = ld_value;
      rvv_core_pkg::KindFpu, rvv_core_pkg::KindFdiv: mem_value = fpu_result;
      rvv_core_pkg::KindVres: mem_value = vpu_result_valid && !vres_hold_q ? vpu_result : vres_hold_value_q;
      default: mem_value = mem_result_q;
    endcase
  end
  wire mem_to_wb = mem_valid_q && !stop_q && !mem_stall;
  wire mem_takes_vres = mem_to_wb && !mem_err_q && mem_kind_q == rvv_core_pkg::KindVres;

  // ================================================================ WB
  wire wb_live = wb_valid_q && !stop_q;
  wire wb_retire = wb_live && !wb_err_q;
  wire wb_stop = wb_live && (wb_err_q || wb_ecall_q);
  wire drained = stop_ecall_q ? (!vpu_busy && lsu_idle) : lsu_idle;

  // ================================================================ stall cause of this cycle
  logic [2:0] stall;
  always_comb begin
    stall = rvv_pkg::STALL_NONE;
    if (running_q) begin
      if (stop_q) begin
        if (stop_ecall_q && vpu_busy) stall = rvv_pkg::STALL_VECTOR;
        else if (!lsu_idle) stall = rvv_pkg::STALL_MEMORY;
      end else if (redirect) stall = rvv_pkg::STALL_BRANCH;
      else if (mem_stall) stall = mem_cause;
      else if (ex_live && ex_hold) stall = ex_cause;
    end
  end

  // ================================================================ sequential
  logic [4:0] fflags_acc;
  always_comb begin
    fflags_acc = fflags_q;
    if (wb_retire && wb_flags_valid_q) fflags_acc = fflags_acc | wb_flags_q;
    if (vpu_fflags_valid) fflags_acc = fflags_acc | vpu_fflags;
  end
  wire csr_write_now = ex_fire && !ex_err && d_cls == rvv_core_pkg::ClsCsr && csr_writes;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q <= 1'b0;
      stop_q <= 1'b0;
      stopped_q <= 1'b0;
      stop_ecall_q <= 1'b0;
      fetch_stop_q <= 1'b0;
      err_code_q <= rvv_pkg::ERR_NONE;
      err_pc_q <= '0;
      err_insn_q <= '0;
      err_addr_q <= '0;
      stop_pc_q <= '0;
      xrf_q <= '0;
      frf_q <= '0;
      fflags_q <= '0;
      frm_q <= '0;
      vl_q <= '0;
      vtype_q <= '0;
      vill_q <= 1'b1;
      cnt_q <= '0;
      fetch_pc_q <= '0;
      id_pc_q <= '0;
      id_valid_q <= 1'b0;
      id_ferr_q <= 1'b0;
      ex_valid_q <= 1'b0;
      ex_ferr_q <= 1'b0;
      ex_pc_q <= '0;
      ex_insn_q <= '0;
      ex_dec_q <= rvv_decode_pkg::decode(32'd0);
      mem_valid_q <= 1'b0;
      mem_err_q <= 1'b0;
      mem_ecall_q <= 1'b0;
      mem_wex_q <= 1'b0;
      mem_wef_q <= 1'b0;
      mem_dtcm_q <= 1'b0;
      mem_dram_ld_q <= 1'b0;
      mem_dram_st_q <= 1'b0;
      mem_kind_q <= rvv_core_pkg::KindNone;
      mem_f3_q <= '0;
      mem_err_code_q <= '0;
      mem_rd_q <= '0;
      mem_pc_q <= '0;
      mem_insn_q <= '0;
      mem_result_q <= '0;
      mem_addr_q <= '0;
      mem_st_row_q <= '0;
      mem_st_be_q <= '0;
      wb_valid_q <= 1'b0;
      wb_err_q <= 1'b0;
      wb_ecall_q <= 1'b0;
      wb_wex_q <= 1'b0;
      wb_wef_q <= 1'b0;
      wb_flags_valid_q <= 1'b0;
      wb_err_code_q <= '0;
      wb_rd_q <= '0;
      wb_flags_q <= '0;
      wb_pc_q <= '0;
      wb_insn_q <= '0;
      wb_value_q <= '0;
      wb_addr_q <= '0;
      div_have_q <= 1'b0;
      vres_hold_q <= 1'b0;
      vres_hold_value_q <= '0;
    end else if (clear_i) begin
      xrf_q <= '0;
      frf_q <= '0;
      fflags_q <= '0;
      frm_q <= '0;
      vl_q <= '0;
      vtype_q <= '0;
      vill_q <= 1'b1;
      running_q <= 1'b0;
      stop_q <= 1'b0;
      stopped_q <= 1'b0;
      err_code_q <= rvv_pkg::ERR_NONE;
      cnt_q <= '0;
    end else if (start_i) begin
      running_q <= 1'b1;
      stop_q <= 1'b0;
      stopped_q <= 1'b0;
      stop_ecall_q <= 1'b0;
      fetch_stop_q <= 1'b0;
      err_code_q <= rvv_pkg::ERR_NONE;
      err_pc_q <= '0;
      err_insn_q <= '0;
      err_addr_q <= '0;
      stop_pc_q <= '0;
      fetch_pc_q <= '0;
      id_valid_q <= 1'b0;
      ex_valid_q <= 1'b0;
      mem_valid_q <= 1'b0;
      wb_valid_q <= 1'b0;
      div_have_q <= 1'b0;
      vres_hold_q <= 1'b0;
      cnt_q <= '0;
    end else if (running_q) begin
      // The sections run from the counters and the end of the pipeline back to fetch, so that each reads
      // the flops of later sections before they are assigned, in the text too: Verilator keeps a copy of
      // the old value of every flop that a block reads after assigning it, copied in and out every cycle.
      // Where two sections assign one flop (the valid bits), the later one in the text still wins, as before.
      // ---- counters
      cnt_q[64*rvv_pkg::CNT_CYCLES +: 64] <= cnt_q[64*rvv_pkg::CNT_CYCLES +: 64] + 64'd1;
      if (wb_retire) cnt_q[64*rvv_pkg::CNT_INSTRET +: 64] <= cnt_q[64*rvv_pkg::CNT_INSTRET +: 64] + 64'd1;
      if (vpu_issue && vpu_issue_ready) cnt_q[64*rvv_pkg::CNT_VECTOR_INSNS +: 64] <=
          cnt_q[64*rvv_pkg::CNT_VECTOR_INSNS +: 64] + 64'd1;
      if (vpu_busy) cnt_q[64*rvv_pkg::CNT_VECTOR_BUSY +: 64] <= cnt_q[64*rvv_pkg::CNT_VECTOR_BUSY +: 64] + 64'd1;
      unique case (stall)
        rvv_pkg::STALL_DATA: cnt_q[64*rvv_pkg::CNT_STALL_DATA +: 64] <=
            cnt_q[64*rvv_pkg::CNT_STALL_DATA +: 64] + 64'd1;
        rvv_pkg::STALL_LOAD_USE:
          cnt_q[64*rvv_pkg::CNT_STALL_LOAD_USE +: 64] <= cnt_q[64*rvv_pkg::CNT_STALL_LOAD_USE +: 64] + 64'd1;
        rvv_pkg::STALL_FP_DIVSQRT:
          cnt_q[64*rvv_pkg::CNT_STALL_FP_DIVSQRT +: 64] <= cnt_q[64*rvv_pkg::CNT_STALL_FP_DIVSQRT +: 64] + 64'd1;
        rvv_pkg::STALL_VECTOR: cnt_q[64*rvv_pkg::CNT_STALL_VECTOR +: 64] <=
            cnt_q[64*rvv_pkg::CNT_STALL_VECTOR +: 64] + 64'd1;
        rvv_pkg::STALL_MEMORY: cnt_q[64*rvv_pkg::CNT_STALL_MEMORY +: 64] <=
            cnt_q[64*rvv_pkg::CNT_STALL_MEMORY +: 64] + 64'd1;
        rvv_pkg::STALL_BRANCH: cnt_q[64*rvv_pkg::CNT_STALL_BRANCH +: 64] <=
            cnt_q[64*rvv_pkg::CNT_STALL_BRANCH +: 64] + 64'd1;
        default: ;
      endcase
      cnt_q[64*rvv_pkg::CNT_DRAM_READ_BYTES +: 64] <=
          cnt_q[64*rvv_pkg::CNT_DRAM_READ_BYTES +: 64] + 64'(dram_rd_bytes);
      cnt_q[64*rvv_pkg::CNT_DRAM_WRITE_BYTES +: 64] <=
          cnt_q[64*rvv_pkg::CNT_DRAM_WRITE_BYTES +: 64] + 64'(dram_wr_bytes);
      if (dcache_miss) cnt_q[64*rvv_pkg::CNT_DCACHE_MISSES +: 64] <=
          cnt_q[64*rvv_pkg::CNT_DCACHE_MISSES +: 64] + 64'd1;

      // ---- WB: registers, CSRs
      if (wb_retire && wb_wex_q && wb_rd_q != 5'd0) xrf_q[32*wb_rd_q +: 32] <= wb_value_q;
      if (wb_retire && wb_wef_q) frf_q[32*wb_rd_q +: 32] <= wb_value_q;
      fflags_q <= fflags_acc;
      if (csr_write_now) begin
        unique case (csr)
          12'h001: fflags_q <= csr_new[4:0];
          12'h002: frm_q <= csr_new[2:0];
          12'h003: begin
            fflags_q <= csr_new[4:0];
            frm_q <= csr_new[7:5];
          end
          default: ;
        endcase
      end
      if (ex_fire && !ex_err && d_cls == rvv_core_pkg::ClsVset) begin
        vl_q <= vl_new;
        vtype_q <= vt_bad ? 8'd0 : vt_new[7:0];
        vill_q <= vt_bad;
      end

      // ---- the end (the stopping branch first: it reads stop_ecall_q, which the other writes)
      if (stop_q) begin
        if (stop_ecall_q && vpu_error) begin
          stop_ecall_q <= 1'b0;
          err_code_q <= vpu_err_code;
          err_pc_q <= vpu_err_pc;
          err_insn_q <= vpu_err_insn;
          err_addr_q <= vpu_err_addr;
        end else if (drained) begin
          running_q <= 1'b0;
          stopped_q <= 1'b1;
        end
      end else if (wb_stop) begin
        stop_q <= 1'b1;
        stop_ecall_q <= !wb_err_q;
        stop_pc_q <= wb_pc_q;
        if (wb_err_q) begin
          err_code_q <= wb_err_code_q;
          err_pc_q <= wb_pc_q;
          err_insn_q <= wb_insn_q;
          err_addr_q <= wb_addr_q;
        end
      end else if (vpu_error) begin
        stop_q <= 1'b1;
        stop_ecall_q <= 1'b0;
        stop_pc_q <= vpu_err_pc;
        err_code_q <= vpu_err_code;
        err_pc_q <= vpu_err_pc;
        err_insn_q <= vpu_err_insn;
        err_addr_q <= vpu_err_addr;
      end

      // ---- MEM -> WB
      wb_valid_q <= mem_to_wb;
      if (mem_to_wb) begin
        wb_pc_q <= mem_pc_q;
        wb_insn_q <= mem_insn_q;
        wb_err_q <= mem_err_q;
        wb_err_code_q <= mem_err_code_q;
        wb_ecall_q <= mem_ecall_q;
        wb_rd_q <= mem_rd_q;
        wb_wex_q <= mem_wex_q;
        wb_wef_q <= mem_wef_q;
        wb_value_q <= mem_value;
        wb_addr_q <= mem_addr_q;
        wb_flags_valid_q <= !mem_err_q && (mem_kind_q == rvv_core_pkg::KindFpu || mem_kind_q == rvv_core_pkg::KindFdiv);
        wb_flags_q <= fpu_flags;
      end

      // ---- vector scalar results that arrive before MEM waits for them
      if (vpu_result_valid && !(mem_takes_vres && !vres_hold_q)) begin
        vres_hold_q <= 1'b1;
        vres_hold_value_q <= vpu_result;
      end else if (mem_takes_vres) begin
        vres_hold_q <= 1'b0;
      end

      // ---- EX -> MEM
      if (mem_to_wb || !mem_valid_q || stop_q) mem_valid_q <= 1'b0;
      if (ex_fire) begin
        mem_valid_q <= 1'b1;
        mem_pc_q <= ex_pc_q;
        mem_insn_q <= ex_insn_q;
        mem_err_q <= ex_err;
        mem_err_code_q <= ex_err_code;
        mem_ecall_q <= !ex_err && d_cls == rvv_core_pkg::ClsEcall;
        mem_rd_q <= rd;
        mem_wex_q <= !ex_err && d_we_x;
        mem_wef_q <= !ex_err && d_we_f;
        mem_kind_q <= ex_err ? rvv_core_pkg::KindNone : ex_kind;
        mem_result_q <= ex_value;
        // A faulting fetch reports the pc as the address; loads and stores their address.
        mem_addr_q <= ex_ferr_q ? ex_pc_q : ex_fault_addr ? ls_addr : 32'd0;
        mem_f3_q <= f3;
        mem_dtcm_q <= ls_in_dtcm;
        mem_dram_ld_q <= !ex_err && is_load && !ls_in_dtcm;
        mem_dram_st_q <= !ex_err && is_store && !ls_in_dtcm;
        mem_st_row_q <= st_row;
        mem_st_be_q <= st_be;
      end
      if (d_cls == rvv_core_pkg::ClsDiv && div_done && !ex_fire) div_have_q <= 1'b1;
      if (ex_fire) div_have_q <= 1'b0;

      // ---- ID -> EX
      if (ex_accept) begin
        ex_valid_q <= id_to_ex;
        ex_pc_q <= id_pc_q;
        ex_ferr_q <= id_ferr_q;
        ex_insn_q <= id_word;
        ex_dec_q <= rvv_decode_pkg::decode(id_word);
      end

      // ---- fetch and ID
      if (do_fetch) begin
        id_valid_q <= 1'b1;
        id_pc_q <= fetch_addr;
        id_ferr_q <= fetch_bad;
        fetch_pc_q <= fetch_addr + 32'd4;
      end else if (id_free) begin
        id_valid_q <= 1'b0;
      end
      if (ex_stop_fire) fetch_stop_q <= 1'b1;

      // ---- a stopping core empties its pipeline (last: these override the stages' own updates)
      if (stop_q) begin
        id_valid_q <= 1'b0;
        ex_valid_q <= 1'b0;
        mem_valid_q <= 1'b0;
        wb_valid_q <= 1'b0;
      end
    end
  end

  // ================================================================ outputs
  assign running_o = running_q;
  assign stopped_o = stopped_q;
  assign err_code_o = err_code_q;
  assign err_pc_o = err_pc_q;
  assign err_insn_o = err_insn_q;
  assign err_addr_o = err_addr_q;
  assign pc_o = stop_q || stopped_q ? stop_pc_q : id_pc_q;
  assign stall_o = stall;
  assign retire_o = wb_retire;
  assign retire_pc_o = wb_pc_q;
  assign retire_insn_o = wb_insn_q;
  assign retire_fflags_o = wb_retire && wb_flags_valid_q ? wb_flags_q : 5'd0;
  assign vector_fflags_o = vpu_fflags_valid ? vpu_fflags : 5'd0;
  // The back door depends on the testbench's inputs alone: gated, it costs nothing on a clock.
  logic [33:0] dbg_csr;
  always_comb begin
    dbg_xreg_o = '0;
    dbg_freg_o = '0;
    dbg_csr = '0;
    dbg_counter_o = '0;
    if (dbg_en_i) begin
      dbg_xreg_o = xrf_q[32*dbg_addr_i[4:0] +: 32];
      dbg_freg_o = frf_q[32*dbg_addr_i[4:0] +: 32];
      dbg_csr = csr_read(1'b1, dbg_addr_i[11:0]);
      if (dbg_addr_i < rvv_pkg::NUM_COUNTERS) dbg_counter_o = cnt_q[64*dbg_addr_i[3:0] +: 64];
    end
  end
  assign dbg_csr_o = dbg_csr[31:0];

  logic unused;
  assign unused = ^{mul_p[65:64], ld_shifted[31:16], dbg_csr[33:32], vpu_done_pc};  // done_pc: testbenches
endmodule
