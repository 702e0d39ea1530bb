// The vector unit of the rvv core (Zve32f subset): the interface between the scalar pipeline and the unit.
// THIS FILE IS THE CONTRACT between rvv_core (the scalar pipeline, rtl/rvv/rvv_core.sv) and the vector
// unit (the header comment and the port list); the subset and its timing are in docs/rvv.md.
//
// Issue. The core decodes an instruction as vector (opcode OP-V 1010111 except vsetvl/vsetvli/vsetivli,
// which the core executes itself; LOAD-FP 0000111 / STORE-FP 0100111 with a vector width field) and, in
// program order, offers it with its scalar operands already read (forwarded) and the vl/vtype in force.
// issue_illegal_o is combinational on the offered instruction and vl/vtype: when set, the core does not
// issue and stops with ERR_ILLEGAL at that pc. Otherwise the instruction is issued on the cycle
// issue_valid_i && issue_ready_o, into the unit's instruction queue (QUEUE entries), and the core goes on.
// A vector instruction that writes a scalar register (vmv.x.s, vfmv.f.s, vcpop.m, vfirst.m) returns its
// value on result_*, in program order; the core waits for it.
//
// Ordering with the scalar side. The core holds scalar stores while mem_busy_o (a vector memory
// instruction is queued or in flight) and scalar loads while store_busy_o (a vector store is); both sides'
// DRAM accesses go through the one data cache and write buffer of rvv_lsu, so memory is seen in program
// order (a scalar load may pass a vector load: both only read). CSR accesses to fcsr/fflags/frm wait for !busy_o; the unit
// reports the FP exception flags of each vector FP instruction on fflags_* and the core accrues them.
// ecall waits for !busy_o before the run stops.
//
// Memory. One request port into the core's memory system (DTCM and, through the DRAM port, DRAM). A request
// covers bytes of one ROW_BYTES-aligned row (ROW_BYTES = ROW_BITS / 8; vmem_req_be_o says which); the
// unit splits unit-stride accesses into row pieces and strided/indexed ones into per-element requests.
// Many requests may be outstanding; responses come back in request order, writes included; a response with
// vmem_rsp_error_i means the address was outside DTCM and DRAM (nothing was written) and the unit stops
// with error_o (ERR_LOAD/ERR_STORE, the instruction's pc and word, the faulting address). The error is
// imprecise, as in Ara: instructions after the faulting one may have started or finished.
//
// Implementation. Two engines take instructions from the head of the queue in program order: the memory
// engine (loads and stores) and the arithmetic engine (everything else), one instruction each at a time. An
// instruction starts when its engine is free and it shares no vector register with the other engine's
// instruction that either of them writes (reads and writes are whole registers, as many as the
// instruction's elements touch), so a load or store overlaps arithmetic on other registers. An instruction
// offered to an empty queue whose engine can take it starts that cycle. The register file is 32 x VLEN bits
// of flops, byte-addressed, with a write port per engine. Element-wise work goes in beats: a beat covers
// 4 * LANES bytes of the widest operand (4 * LANES >> log2(bytes) elements), through 4 * LANES element
// slots (LANES 32-bit ones, LANES 16-bit ones, 2 * LANES 8-bit ones; rvv_vpu_alu) and LANES FPUs (rvv_fpu,
// FP32 only). Tail and inactive elements are left undisturbed (what QEMU 7.2 does).
module rvv_vpu #(
  parameter int unsigned VLEN = 128,
  parameter int unsigned LANES = VLEN / 32,  // 32-bit lanes: VLEN / (32 * LANES) cycles per register
  parameter int unsigned ROW_BITS = VLEN,
  parameter int unsigned QUEUE = 4  // instruction queue entries (a power of two, at least 2)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // issue
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
  output logic                  busy_o,           // anything issued and not finished
  output logic                  mem_busy_o,       // a vector memory instruction queued or in flight
  output logic                  store_busy_o,     // a vector store queued or in flight
  output logic [31:0]           mem_pc_o,         // the pc of the memory engine's last instruction (DRAM tags)
  output logic [31:0]           done_pc_o,        // the pc of the instruction result_* and fflags_* are of
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
  // back door (dbg_vreg_o is 0 while dbg_en_i is low)
  input  logic                  dbg_en_i,
  input  logic [4:0]            dbg_vreg_i,
  output logic [VLEN-1:0]       dbg_vreg_o
);
  localparam int unsigned VLENB = VLEN / 8;
  localparam int unsigned NB = 32 * VLENB;           // register file bytes
  localparam int unsigned AW = $clog2(NB);           // register file byte address
  localparam int unsigned SB = 4 * LANES;            // bytes per beat = element slots
  localparam int unsigned ROWB = ROW_BITS / 8;
  localparam int unsigned RW = $clog2(ROWB);
  localparam int unsigned VB = $clog2(VLENB);        // byte offset in a register
  // Registers a memory piece (ROWB bytes from any byte of the register file) can touch.
  localparam int unsigned NWR = (ROWB + VLENB - 1) / VLENB + 1;
  localparam int unsigned MEMQ = 8;                  // outstanding memory requests
  localparam int unsigned QW = $clog2(MEMQ);

  localparam int unsigned QPW = QUEUE > 1 ? $clog2(QUEUE) : 1;

  // The arithmetic engine
  localparam logic [2:0] SIdle = 3'd0;
  localparam logic [2:0] SElem = 3'd1;     // beats
  localparam logic [2:0] SDrain = 3'd2;    // the last FPU results
  localparam logic [2:0] SSerial = 3'd3;   // one element per cycle (vcompress, FP reductions)
  localparam logic [2:0] SFinish = 3'd4;   // final writes, scalar result, flags
  // The memory engine
  localparam logic [1:0] MIdle = 2'd0;
  localparam logic [1:0] MRun = 2'd1;      // requests out, responses in
  localparam logic [1:0] MFinish = 2'd2;

  // ---------------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------------
  // The register file, one entry per register (byte k of v<r> at vrf_q[r][8*k +: 8]): each write port
  // writes whole registers with the old bytes merged in, so a clock commits a few entries where it would
  // commit one per byte of a byte array.
  logic [VLEN-1:0]   vrf_q [32];
  logic [2:0]        state_q, state_d;   // the arithmetic engine
  logic [1:0]        m_state_q, m_state_d;  // the memory engine
  logic [31:0]       pc_q, rs1v_q, frs1_q, vl_q;  // the arithmetic engine's instruction
  logic [4:0]        imm_q;              // its 5-bit immediate (insn[19:15])
  logic [31:0]       i0_q, i0_d;         // first element of the beat / serial element / memory piece
  logic [VLEN-1:0]   macc_q, macc_d;     // mask destination being built
  logic [32:0]       acc_q, acc_d;       // integer reduction accumulator (extended)
  logic [31:0]       facc_q, facc_d;     // FP reduction accumulator
  logic              fpend_q, fpend_d;   // an FP reduction step in flight
  logic [31:0]       cnt_q, cnt_d;       // viota running count, vcompress output index
  logic [4:0]        flags_q, flags_d;   // accrued FP flags
  // FPU beat in flight
  logic              meta_valid_q, meta_valid_d;
  logic [31:0]       meta_i0_q, meta_i0_d;
  logic [LANES-1:0]  meta_act_q, meta_act_d;
  // the memory engine's instruction
  logic [31:0]       m_insn_q, m_pc_q, m_rs1_q, m_rs2_q, m_evl_q;
  logic [1:0]        m_mode_q, m_eew_q, m_idx_eew_q;
  logic [4:0]        m_vd_q, m_vs2_q;
  logic              m_vm_q, m_store_q;
  logic [31:0]       m_i0_q, m_i0_d;     // the memory piece (unit-stride: row; otherwise: element)
  // errors
  logic              err_q, err_d;
  logic [3:0]        err_code_q, err_code_d;
  logic [31:0]       err_addr_q, err_addr_d;

  // ---------------------------------------------------------------------------------------------------
  // The decoder of the offered instruction (legality, and what the queue holds of it)
  // ---------------------------------------------------------------------------------------------------
  logic        id_illegal;
  logic [3:0]  id_kind;
  logic [4:0]  id_alu_op;
  logic        id_fp;
  logic [4:0]  id_fpu_op;
  logic [2:0]  id_rm;
  logic [1:0]  id_fpa, id_fpb, id_fpc;
  logic [2:0]  id_fp_post;
  logic [1:0]  id_sew, id_eew_d, id_eew_s2, id_eew_s1, id_beat_eew;
  logic        id_s2_signed, id_s1_signed;
  logic [2:0]  id_src, id_gather;
  logic        id_mask_dest, id_merge, id_vm;
  logic [31:0] id_v0_read;  // v0 when the offered instruction is masked
  assign id_v0_read = {31'd0, !id_vm};
  logic [4:0]  id_vd, id_vs1, id_vs2;
  logic [31:0] id_evl, id_vlmax;
  logic        id_skip;
  logic [4:0]  id_sh_mask;
  logic [1:0]  id_scalar_op;
  logic [2:0]  id_mask_fn;
  logic [1:0]  id_mem_mode, id_idx_eew;

  // The decode is held in flops while the same instruction is offered under the same vl, vtype and frm
  // (a vector instruction waits in EX while the unit is busy): the decoder runs only for a new one. A
  // pure function of the key, so holding it changes nothing but the work (in simulation, the decoder is
  // skipped on those cycles).
  localparam int unsigned DcKeyBits = 3 * 32 + 3;
  logic [DcKeyBits-1:0] dc_key, dc_key_q;
  logic                 dc_valid_q, dc_hit;
  rvv_vpu_pkg::dec_t    dc_dec_q;
  logic                 dc_illegal_q;
  logic [31:0]          dc_reads_q, dc_writes_q;
  rvv_vpu_pkg::dec_t    nd_dec;      // the decoder's, this cycle
  logic [31:0]          nd_reads, nd_writes;
  assign dc_key = {issue_insn_i, issue_vl_i, issue_vtype_i, issue_frm_i};
  assign dc_hit = dc_valid_q && dc_key == dc_key_q;

  rvv_vpu_decode #(.VLEN(VLEN)) u_issue_decode (
    .en_i(!dc_hit), .insn_i(issue_insn_i), .vl_i(issue_vl_i), .vtype_i(issue_vtype_i), .frm_i(issue_frm_i),
    .illegal_o(id_illegal), .kind_o(id_kind), .alu_op_o(id_alu_op), .fp_o(id_fp), .fpu_op_o(id_fpu_op),
    .rm_o(id_rm), .fpa_sel_o(id_fpa), .fpb_sel_o(id_fpb), .fpc_sel_o(id_fpc), .fp_post_o(id_fp_post),
    .sew_o(id_sew), .eew_d_o(id_eew_d), .eew_s2_o(id_eew_s2), .eew_s1_o(id_eew_s1),
    .beat_eew_o(id_beat_eew), .s2_signed_o(id_s2_signed), .s1_signed_o(id_s1_signed), .src_o(id_src),
    .gather_o(id_gather), .mask_dest_o(id_mask_dest), .merge_o(id_merge), .vm_o(id_vm), .vd_o(id_vd),
    .vs1_o(id_vs1), .vs2_o(id_vs2), .evl_o(id_evl), .vlmax_o(id_vlmax), .skip_o(id_skip),
    .sh_mask_o(id_sh_mask), .scalar_op_o(id_scalar_op), .mask_fn_o(id_mask_fn), .mem_mode_o(id_mem_mode),
    .idx_eew_o(id_idx_eew));

  // ---------------------------------------------------------------------------------------------------
  // The offered instruction as a queue entry, with the registers it reads and writes
  // ---------------------------------------------------------------------------------------------------
  // The registers from r on that hold nbytes of an operand (at least r itself).
  function automatic logic [31:0] regs_of(input logic [4:0] r, input logic [31:0] nbytes);
    logic [31:0] n;
    n = (nbytes + 32'(VLENB - 1)) >> $clog2(VLENB);  // VLENB is a power of two
    if (n == 32'd0) n = 32'd1;
    if (n > 32'd8) n = 32'd8;
    regs_of = ((32'd1 << n) - 32'd1) << r;
  endfunction

  rvv_vpu_pkg::dec_t id_dec;        // the offered instruction's decode: held or the decoder's
  logic              id_dec_illegal;
  rvv_vpu_pkg::entry_t id_ent;
  logic [31:0] id_vd_group, id_vs2_group, id_vs1_group, id_idx_group;
  // Read only when the decoder runs (!dc_hit: the flops below take it, id_dec shows it); held otherwise.
  always_comb begin
    nd_dec = '0;
    id_vd_group = '0;
    id_vs2_group = '0;
    id_vs1_group = '0;
    id_idx_group = '0;
    nd_reads = '0;
    nd_writes = '0;
    if (!dc_hit) begin
      nd_dec.kind = id_kind;
      nd_dec.alu_op = id_alu_op;
      nd_dec.fp = id_fp;
      nd_dec.fpu_op = id_fpu_op;
      nd_dec.rm = id_rm;
      nd_dec.fpa = id_fpa;
      nd_dec.fpb = id_fpb;
      nd_dec.fpc = id_fpc;
      nd_dec.fp_post = id_fp_post;
      nd_dec.sew = id_sew;
      nd_dec.eew_d = id_eew_d;
      nd_dec.eew_s2 = id_eew_s2;
      nd_dec.eew_s1 = id_eew_s1;
      nd_dec.beat_eew = id_beat_eew;
      nd_dec.s2_signed = id_s2_signed;
      nd_dec.s1_signed = id_s1_signed;
      nd_dec.src = id_src;
      nd_dec.gather = id_gather;
      nd_dec.mask_dest = id_mask_dest;
      nd_dec.merge = id_merge;
      nd_dec.vm = id_vm;
      nd_dec.vd = id_vd;
      nd_dec.vs1 = id_vs1;
      nd_dec.vs2 = id_vs2;
      nd_dec.evl = id_evl;
      nd_dec.vlmax = id_vlmax;
      nd_dec.skip = id_skip;
      nd_dec.sh_mask = id_sh_mask;
      nd_dec.scalar_op = id_scalar_op;
      nd_dec.mask_fn = id_mask_fn;
      nd_dec.mem_mode = id_mem_mode;
      nd_dec.idx_eew = id_idx_eew;
      // The registers each operand's elements occupy; mask operands, reduction scalars and vmv.x.s's source
      // are one register. Over-approximations only cost overlap, never correctness. v0 is read as the mask
      // by a masked instruction (vm = 0: in this subset that is every reader of v0, vmerge/vfmerge too).
      id_vd_group = regs_of(id_vd, id_evl << id_eew_d);
      id_vs2_group = regs_of(id_vs2, ((id_gather != rvv_vpu_pkg::GatherNone) ? id_vlmax : id_evl) << id_eew_s2);
      id_vs1_group = regs_of(id_vs1, id_evl << id_eew_s1);
      id_idx_group = regs_of(id_vs2, id_evl << id_idx_eew);
      nd_reads = id_v0_read;
      nd_writes = '0;
      unique case (id_kind)
        rvv_vpu_pkg::KindLoad: begin
          nd_writes = id_vd_group;
          if (id_mem_mode == rvv_vpu_pkg::MemIndexed) nd_reads = id_v0_read | id_idx_group;
        end
        rvv_vpu_pkg::KindStore: begin
          nd_reads = id_v0_read | id_vd_group | ((id_mem_mode == rvv_vpu_pkg::MemIndexed) ? id_idx_group : '0);
        end
        rvv_vpu_pkg::KindElem: begin
          nd_writes = id_mask_dest ? regs_of(id_vd, 32'd1) : id_vd_group;
          nd_reads = id_v0_read | nd_writes |
                     ((id_alu_op == rvv_vpu_pkg::AluIota) ? regs_of(id_vs2, 32'd1) : id_vs2_group) |
                     ((id_src == rvv_vpu_pkg::SrcVs1 || id_gather == rvv_vpu_pkg::GatherVv) ? id_vs1_group : '0);
        end
        rvv_vpu_pkg::KindRed, rvv_vpu_pkg::KindFred: begin
          nd_writes = regs_of(id_vd, 32'd1);
          nd_reads = id_v0_read | nd_writes | regs_of(id_vs1, 32'd1) | id_vs2_group;
        end
        rvv_vpu_pkg::KindCompress: begin
          nd_writes = regs_of(id_vd, id_evl << id_sew);
          nd_reads = id_v0_read | nd_writes | regs_of(id_vs1, 32'd1) | regs_of(id_vs2, id_evl << id_sew);
        end
        rvv_vpu_pkg::KindScalar: nd_reads = id_v0_read | regs_of(id_vs2, 32'd1);
        default: begin  // mask logic and vmsbf/vmsif/vmsof: whole mask registers
          nd_writes = regs_of(id_vd, 32'd1);
          nd_reads = id_v0_read | nd_writes | regs_of(id_vs1, 32'd1) | regs_of(id_vs2, 32'd1);
        end
      endcase
    end
  end

  always_comb begin
    id_dec = dc_hit ? dc_dec_q : nd_dec;
    id_dec_illegal = dc_hit ? dc_illegal_q : id_illegal;
    id_ent.dec = id_dec;
    id_ent.insn = issue_insn_i;
    id_ent.pc = issue_pc_i;
    id_ent.rs1 = issue_rs1_i;
    id_ent.rs2 = issue_rs2_i;
    id_ent.frs1 = issue_frs1_i;
    id_ent.vl = issue_vl_i;
    id_ent.reads = dc_hit ? dc_reads_q : nd_reads;
    id_ent.writes = dc_hit ? dc_writes_q : nd_writes;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dc_valid_q <= 1'b0;
    end else begin
      dc_valid_q <= 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (!dc_hit) begin
      dc_key_q <= dc_key;
      dc_dec_q <= nd_dec;
      dc_illegal_q <= id_illegal;
      dc_reads_q <= nd_reads;
      dc_writes_q <= nd_writes;
    end
  end

  // ---------------------------------------------------------------------------------------------------
  // The instruction queue and the start of each engine's next instruction, in program order
  // ---------------------------------------------------------------------------------------------------
  rvv_vpu_pkg::entry_t q_q [QUEUE];
  logic [QPW-1:0] q_head_q, q_tail_q;
  logic [QPW:0]   q_count_q;
  logic [QPW:0]   q_mem_q;             // memory instructions in the queue
  logic [QPW:0]   q_store_q;           // of them, stores
  logic [31:0]    a_reads_q, a_writes_q, m_reads_q, m_writes_q;  // of each engine's instruction
  rvv_vpu_pkg::entry_t st;             // the next instruction to start: the queue's head, or the offered one
  logic st_valid, st_mem, st_from_queue;
  logic a_start, m_start, enqueue;
  logic a_conflict, m_conflict;

  assign st_from_queue = q_count_q != '0;
  assign st = st_from_queue ? q_q[q_head_q] : id_ent;
  assign st_valid = !err_q && (st_from_queue || (issue_valid_i && !id_dec_illegal));
  assign st_mem = st.dec.kind == rvv_vpu_pkg::KindLoad || st.dec.kind == rvv_vpu_pkg::KindStore;
  // A register one of the two instructions writes and the other reads or writes.
  assign a_conflict = state_q != SIdle &&
                      ((st.writes & (a_reads_q | a_writes_q)) | (st.reads & a_writes_q)) != '0;
  assign m_conflict = m_state_q != MIdle &&
                      ((st.writes & (m_reads_q | m_writes_q)) | (st.reads & m_writes_q)) != '0;
  assign m_start = st_valid && st_mem && m_state_q == MIdle && !a_conflict;
  // The arithmetic engine takes its next instruction when idle, or in its current one's last cycle
  // (SFinish, whose writes land at that edge) unless the next reads or writes what the current writes.
  assign a_start = st_valid && !st_mem && !m_conflict &&
                   (state_q == SIdle || (state_q == SFinish && ((st.reads | st.writes) & a_writes_q) == '0));
  assign enqueue = issue_valid_i && issue_ready_o && !id_dec_illegal && (st_from_queue || !(a_start || m_start));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q_head_q <= '0;
      q_tail_q <= '0;
      q_count_q <= '0;
      q_mem_q <= '0;
      q_store_q <= '0;
    end else begin
      if (enqueue) q_tail_q <= q_tail_q + QPW'(1);
      if (st_from_queue && (a_start || m_start)) q_head_q <= q_head_q + QPW'(1);
      q_count_q <= q_count_q + (QPW + 1)'(enqueue) - (QPW + 1)'(st_from_queue && (a_start || m_start));
      q_mem_q <= q_mem_q +
                 (QPW + 1)'(enqueue && (id_dec.kind == rvv_vpu_pkg::KindLoad || id_dec.kind == rvv_vpu_pkg::KindStore)) -
                 (QPW + 1)'(st_from_queue && m_start);
      q_store_q <= q_store_q + (QPW + 1)'(enqueue && id_dec.kind == rvv_vpu_pkg::KindStore) -
                   (QPW + 1)'(st_from_queue && m_start && st.dec.kind == rvv_vpu_pkg::KindStore);
    end
  end
  always_ff @(posedge clk_i) begin
    if (enqueue) q_q[q_tail_q] <= id_ent;
  end

  // The arithmetic engine's instruction's decoded fields, registered at its start (the decoder's inputs,
  // the instruction, vl, vtype and frm, are what the unit would otherwise hold and decode again).
  logic [3:0]  x_kind_q;
  logic [4:0]  x_alu_op_q;
  logic        x_fp_q;
  logic [4:0]  x_fpu_op_q;
  logic [2:0]  x_rm_q;
  logic [1:0]  x_fpa_q, x_fpb_q, x_fpc_q;
  logic [2:0]  x_fp_post_q;
  logic [1:0]  x_sew_q, x_eew_d_q, x_eew_s2_q, x_eew_s1_q, x_beat_eew_q;
  logic        x_s2_signed_q, x_s1_signed_q;
  logic [2:0]  x_src_q, x_gather_q;
  logic        x_mask_dest_q, x_merge_q, x_vm_q;
  logic [4:0]  x_vd_q, x_vs1_q, x_vs2_q;
  logic [31:0] x_evl_q, x_vlmax_q;
  logic        x_skip_q;
  logic [4:0]  x_sh_mask_q;
  logic [1:0]  x_scalar_op_q;
  logic [2:0]  x_mask_fn_q;

  // ---------------------------------------------------------------------------------------------------
  // Register file reads
  // ---------------------------------------------------------------------------------------------------
  function automatic logic [AW-1:0] reg_base(input logic [4:0] r);
    reg_base = AW'(32'(r) * VLENB);
  endfunction

  // An element of up to 4 bytes at a byte address, zero-extended. Elements are aligned to their size, so
  // one lies in one 32-bit word of one register.
  function automatic logic [31:0] rd_elem(input logic [AW-1:0] addr, input logic [1:0] eew);
    logic [31:0] v;
    v = vrf_q[addr[AW-1:VB]][32 * addr[VB-1:2] +: 32] >> (8 * addr[1:0]);
    if (eew == 2'd0) v[31:8] = '0;
    else if (eew == 2'd1) v[31:16] = '0;
    rd_elem = v;
  endfunction

  // The SB bytes from a byte address: a beat's window of one operand, which lies in one register (SB
  // divides VLENB; an operand's part of a beat is aligned to its size). A window at a register's first
  // byte is read without a shift: with SB = VLENB (every configuration's), every operand of the beat's
  // widest width; a narrower one (widening and narrowing instructions) may start inside its register.
  function automatic logic [8*SB-1:0] rd_window(input logic [AW-1:0] addr);
    if (addr[VB-1:0] == '0) rd_window = (8 * SB)'(vrf_q[addr[AW-1:VB]]);
    else rd_window = (8 * SB)'(vrf_q[addr[AW-1:VB]] >> (8 * addr[VB-1:0]));
  endfunction

  function automatic logic [32:0] extend(input logic [31:0] v, input logic [1:0] eew, input logic sgn);
    unique case (eew)
      2'd0: extend = {{25{sgn & v[7]}}, v[7:0]};
      2'd1: extend = {{17{sgn & v[15]}}, v[15:0]};
      default: extend = {sgn & v[31], v};
    endcase
  endfunction

  // An element read and extended, or 0 unless en: for the reads of a few instructions. The enable is an
  // argument rather than only a condition around the call: Verilator 5.006's data-flow optimisation lifted
  // such calls out of their conditions, reading the element on every clock.
  function automatic logic [32:0] rd_elem_ext(input logic en, input logic [AW-1:0] addr, input logic [1:0] eew,
                                              input logic sgn);
    rd_elem_ext = '0;
    if (en) rd_elem_ext = extend(rd_elem(addr, eew), eew, sgn);
  endfunction

  logic [VLEN-1:0] v0_bits;      // v0 as a mask
  logic [VLEN-1:0] vs1_bits;     // vs1 of the running instruction as a mask
  logic [VLEN-1:0] vs2_bits;     // vs2 of the running instruction as a mask
  logic [VLEN-1:0] vd_bits;      // vd of the running instruction (old value)
  logic [VLEN-1:0] st_vd_bits;   // vd of the instruction the arithmetic engine starts
  // Every datapath block below computes only in the states whose results use it and is 0 otherwise
  // (operand isolation): the values are the same wherever they are used, and an idle unit, or one idle
  // part of it, costs the simulation next to nothing (Verilator evaluates all combinational logic on
  // every clock). The sequencer's states that read each view are named at its condition.
  // The mask engine runs in SFinish of the instructions that read its results (the mask-register
  // instructions, vcpop.m and vfirst.m).
  logic mask_engine;
  assign mask_engine = state_q == SFinish && (x_kind_q == rvv_vpu_pkg::KindMaskLogic ||
                       x_kind_q == rvv_vpu_pkg::KindMaskSet || x_kind_q == rvv_vpu_pkg::KindScalar);
  always_comb begin
    v0_bits = '0;
    vs1_bits = '0;
    vs2_bits = '0;
    vd_bits = '0;
    st_vd_bits = '0;
    // masked beats and vmerge, the serial engine, the mask engine (SFinish), the masked memory engine
    if ((state_q != SIdle && (!x_vm_q || x_merge_q)) || (m_state_q == MRun && !m_vm_q)) v0_bits = vrf_q[0];
    // vcompress (SSerial), the mask engine
    if ((state_q == SSerial && x_kind_q == rvv_vpu_pkg::KindCompress) || mask_engine) vs1_bits = vrf_q[x_vs1_q];
    // viota (SElem), the mask engine
    if ((state_q == SElem && x_alu_op_q == rvv_vpu_pkg::AluIota) || mask_engine) vs2_bits = vrf_q[x_vs2_q];
    if (mask_engine) vd_bits = vrf_q[x_vd_q];
    // the mask destination's old value, taken at the start (macc_q is read for mask destinations only)
    if (a_start && st.dec.mask_dest) st_vd_bits = vrf_q[st.dec.vd];
  end
  // The back door on its own: it reads the testbench's inputs, and a simulator evaluates what they reach
  // at every evaluation, so it must not share a block with the views above.
  always_comb begin
    dbg_vreg_o = '0;
    if (dbg_en_i) dbg_vreg_o = vrf_q[dbg_vreg_i];
  end

  // ---------------------------------------------------------------------------------------------------
  // Beat engine: 4 * LANES element slots
  // ---------------------------------------------------------------------------------------------------
  logic [AW-1:0]   win_s2_addr, win_s1_addr, win_d_addr;
  logic [8*SB-1:0] win_s2;           // the beat's bytes of vs2, vs1 and vd (byte k at [8*k +: 8])
  logic [8*SB-1:0] win_s1;
  logic [8*SB-1:0] win_d;
  logic [5:0]      beat_k;           // elements per beat
  logic [31:0]     scalar_raw;       // the b operand before element truncation
  logic            last_beat;
  logic            beat_go;          // a beat runs this cycle
  logic            fpu_ready;
  logic            fpu_out_valid;
  logic [31:0]     slot_b_raw [SB];
  logic [31:0]     slot_c_raw [SB];
  logic [32:0]     slot_a [SB];
  logic [32:0]     slot_b [SB];
  logic [32:0]     slot_c [SB];
  // One bit per slot as unpacked arrays: each slot's bit is its own variable, where the bits of one vector
  // would each be a read-modify-write of the whole vector in the simulation.
  logic            slot_act [SB];    // written (active)
  logic            slot_mbit [SB];   // v0 bit
  logic [31:0]     slot_res [SB];
  logic            slot_cmp [SB];
  logic [31:0]     slot_iota [SB];
  logic [7:0]      beat_wdata [SB];
  logic [SB-1:0]   beat_wbe;
  logic [32:0]     red_next;
  logic [31:0]     iota_next;

  assign beat_k = 6'(SB >> x_beat_eew_q);
  assign win_s2_addr = AW'(reg_base(x_vs2_q) + AW'(i0_q << x_eew_s2_q));
  assign win_s1_addr = AW'(reg_base(x_vs1_q) + AW'(i0_q << x_eew_s1_q));
  assign win_d_addr = AW'(reg_base(x_vd_q) + AW'(i0_q << x_eew_d_q));
  assign last_beat = (i0_q + 32'(beat_k)) >= x_evl_q;

  always_comb begin
    win_s2 = '0;
    win_s1 = '0;
    win_d = '0;
    if (state_q == SElem) begin
      win_s2 = rd_window(win_s2_addr);
      win_s1 = rd_window(win_s1_addr);
      win_d = rd_window(win_d_addr);
    end
    unique case (x_src_q)
      rvv_vpu_pkg::SrcX: scalar_raw = rs1v_q;
      rvv_vpu_pkg::SrcSimm: scalar_raw = {{27{imm_q[4]}}, imm_q};
      rvv_vpu_pkg::SrcUimm: scalar_raw = {27'd0, imm_q};
      default: scalar_raw = frs1_q;
    endcase
  end

  // Window bytes of slot s at element width eew (zero beyond the window: such slots are never in use).
  function automatic logic [31:0] win_elem(input logic [8*SB-1:0] w, input int unsigned s,
                                           input logic [1:0] eew);
    logic [31:0] v;
    v = '0;
    unique case (eew)
      2'd0: v[7:0] = w[8*s +: 8];
      2'd1: if (2 * s + 1 < SB) v[15:0] = w[16*s +: 16];
      default: if (4 * s + 3 < SB) v = w[32*s +: 32];
    endcase
    win_elem = v;
  endfunction

  // The operands of every slot in one block, so that a cycle without a beat clears each array with a few
  // wide stores in the simulation (one block per slot cleared them element by element, on every clock).
  logic [31:0] slot_idx [SB];  // element index of slot s
  wire         int_beat = state_q == SElem && !x_fp_q;  // an integer beat runs
  always_comb begin
    logic [31:0] i;         // element index
    logic [32:0] gidx;      // gather source index
    logic        gvalid;    // the gather source exists (index < VLMAX)
    logic        use_scalar_a;
    logic        in_body;
    logic [31:0] ga_raw;
    logic [31:0] a_raw;
    i = '0;
    gidx = '0;
    gvalid = 1'b0;
    use_scalar_a = 1'b0;
    in_body = 1'b0;
    ga_raw = '0;
    a_raw = '0;
    for (int s = 0; s < SB; s++) slot_idx[s] = '0;
    for (int s = 0; s < SB; s++) slot_mbit[s] = 1'b0;
    for (int s = 0; s < SB; s++) slot_b_raw[s] = '0;
    for (int s = 0; s < SB; s++) slot_c_raw[s] = '0;
    for (int s = 0; s < SB; s++) slot_a[s] = '0;
    for (int s = 0; s < SB; s++) slot_b[s] = '0;
    for (int s = 0; s < SB; s++) slot_c[s] = '0;
    for (int s = 0; s < SB; s++) slot_act[s] = 1'b0;
    if (state_q == SElem) begin
      for (int s = 0; s < SB; s++) begin
        // Slots beyond the beat (s >= beat_k: wider elements) are never in the body: isolated.
        if (s < beat_k) begin
          i = i0_q + 32'(s);
          slot_idx[s] = i;
          in_body = i < x_evl_q;
          slot_mbit[s] = v0_bits[i[$clog2(VLEN)-1:0]];
          // Gather / slide source index.
          use_scalar_a = 1'b0;
          unique case (x_gather_q)
            rvv_vpu_pkg::GatherVv: gidx = {1'b0, win_elem(win_s1, s, x_sew_q)};
            rvv_vpu_pkg::GatherScalar: gidx = {1'b0, scalar_raw};
            rvv_vpu_pkg::GatherUp: gidx = {1'b0, i} - {1'b0, scalar_raw};
            rvv_vpu_pkg::GatherDown: gidx = {1'b0, i} + {1'b0, scalar_raw};
            rvv_vpu_pkg::Gather1Up: begin
              gidx = {1'b0, i} - 33'd1;
              use_scalar_a = i == 32'd0;
            end
            rvv_vpu_pkg::Gather1Down: begin
              gidx = {1'b0, i} + 33'd1;
              use_scalar_a = i == x_evl_q - 32'd1;
            end
            default: gidx = {1'b0, i};
          endcase
          gvalid = gidx < {1'b0, x_vlmax_q};
          // The gathered element is read only for gathers and slides (its read port is isolated otherwise).
          ga_raw = '0;
          if (x_gather_q != rvv_vpu_pkg::GatherNone && !use_scalar_a && gvalid)
            ga_raw = rd_elem(AW'(reg_base(x_vs2_q) + AW'(gidx[AW-1:0] << x_eew_s2_q)), x_eew_s2_q);
          if (x_gather_q == rvv_vpu_pkg::GatherNone) a_raw = win_elem(win_s2, s, x_eew_s2_q);
          else if (use_scalar_a) a_raw = scalar_raw;
          else a_raw = ga_raw;
          slot_b_raw[s] = (x_src_q == rvv_vpu_pkg::SrcVs1) ? win_elem(win_s1, s, x_eew_s1_q) : scalar_raw;
          slot_c_raw[s] = win_elem(win_d, s, x_eew_d_q);
          // The inserted scalar of vslide1up/down has the destination's width.
          slot_a[s] = extend(a_raw, use_scalar_a ? x_sew_q : x_eew_s2_q, x_s2_signed_q);
          slot_b[s] = extend(slot_b_raw[s], x_eew_s1_q, x_s1_signed_q);
          slot_c[s] = extend(slot_c_raw[s], x_eew_d_q, 1'b0);
          slot_act[s] = in_body && (x_vm_q || x_merge_q || slot_mbit[s]);
          if (x_gather_q == rvv_vpu_pkg::GatherUp && {1'b0, i} < {1'b0, scalar_raw}) slot_act[s] = 1'b0;
        end
      end
    end
  end

  for (genvar s = 0; s < SB; s++) begin : g_slot
    localparam int unsigned W = (s < LANES) ? 32 : (s < 2 * LANES) ? 16 : 8;
    logic [W-1:0] res;
    logic         cmp;

    // The integer datapath works in integer beats only (FP beats use the FPUs). Slots beyond the beat
    // compute on zero operands, and nothing reads their results: one enable for every slot lets the
    // simulation test it once for all sixteen.
    rvv_vpu_alu #(.W(W), .HasDiv(W == 32)) u_alu (
      .en_i(int_beat), .op_i(x_alu_op_q), .a_i(slot_a[s][W:0]), .b_i(slot_b[s][W:0]), .c_i(slot_c[s][W:0]),
      .mask_i(slot_mbit[s]), .sh_mask_i(x_sh_mask_q), .sew_i(x_sew_q), .result_o(res), .cmp_o(cmp));

    always_comb begin
      unique case (x_alu_op_q)
        rvv_vpu_pkg::AluId: slot_res[s] = slot_idx[s];
        rvv_vpu_pkg::AluIota: slot_res[s] = slot_iota[s];
        default: slot_res[s] = 32'(res);
      endcase
      slot_cmp[s] = cmp;
    end
  end

  // viota: running count of the active set bits of vs2 below each slot.
  always_comb begin
    logic [31:0] c;
    c = cnt_q;
    for (int s = 0; s < SB; s++) slot_iota[s] = '0;
    if (state_q == SElem && x_alu_op_q == rvv_vpu_pkg::AluIota) begin
      for (int s = 0; s < SB; s++) begin
        slot_iota[s] = c;
        if (slot_act[s] && vs2_bits[$clog2(VLEN)'(i0_q + 32'(s))]) c = c + 32'd1;
      end
    end
    iota_next = c;
  end

  // Integer reductions: the beat's active elements folded into the accumulator, in element order.
  function automatic logic [32:0] red_op(input logic [4:0] op, input logic [32:0] x, input logic [32:0] y);
    unique case (op)
      rvv_vpu_pkg::AluAnd: red_op = x & y;
      rvv_vpu_pkg::AluOr: red_op = x | y;
      rvv_vpu_pkg::AluXor: red_op = x ^ y;
      rvv_vpu_pkg::AluMin: red_op = ($signed(y) < $signed(x)) ? y : x;
      rvv_vpu_pkg::AluMax: red_op = ($signed(y) > $signed(x)) ? y : x;
      default: red_op = x + y;
    endcase
  endfunction

  always_comb begin
    logic [32:0] r;
    r = acc_q;
    if (state_q == SElem && x_kind_q == rvv_vpu_pkg::KindRed) begin
      for (int s = 0; s < SB; s++) begin
        if (slot_act[s]) r = red_op(x_alu_op_q, r, slot_a[s]);
      end
    end
    red_next = r;
  end

  // Beat results as destination bytes (integer path, written at the end of the beat's cycle).
  // Slot s's result fills bytes [s << eew, (s + 1) << eew) of the window (eew 3 does not occur: ELEN 32).
  always_comb begin
    for (int k = 0; k < SB; k++) begin
      beat_wdata[k] = '0;
      beat_wbe[k] = 1'b0;
    end
    if (state_q == SElem && !x_fp_q) begin
      unique case (x_eew_d_q)
        2'd0:
          for (int s = 0; s < SB; s++) begin
            beat_wdata[s] = slot_res[s][7:0];
            beat_wbe[s] = slot_act[s];
          end
        2'd1:
          for (int s = 0; s < SB / 2; s++) begin
            for (int b = 0; b < 2; b++) begin
              beat_wdata[2 * s + b] = slot_res[s][8*b +: 8];
              beat_wbe[2 * s + b] = slot_act[s];
            end
          end
        default:
          for (int s = 0; s < SB / 4; s++) begin
            for (int b = 0; b < 4; b++) begin
              beat_wdata[4 * s + b] = slot_res[s][8*b +: 8];
              beat_wbe[4 * s + b] = slot_act[s];
            end
          end
      endcase
    end
  end

  // ---------------------------------------------------------------------------------------------------
  // FPUs: one per lane; lane 0 also runs the serial FP reductions.
  // ---------------------------------------------------------------------------------------------------
  logic [LANES-1:0] fpu_in_ready;
  logic [LANES-1:0] fpu_out_v;
  logic [31:0]      fpu_res [LANES];
  logic [4:0]       fpu_flags [LANES];
  logic             fpu_issue;        // a beat of FP work
  logic             fred_issue;       // a serial FP reduction step
  logic [31:0]      fred_elem;        // vs2[i0] for the serial engine
  logic [31:0]      facc_cur;
  logic [31:0]      fp_out_data [LANES];
  logic [4:0]       fp_out_flags [LANES];

  assign fpu_ready = fpu_in_ready[0];
  assign fpu_out_valid = fpu_out_v[0];
  assign facc_cur = (fpend_q && fpu_out_valid) ? fpu_res[0] : facc_q;

  function automatic logic [31:0] fp_sel(input logic [1:0] sel, input logic [31:0] a, input logic [31:0] b,
                                         input logic [31:0] c);
    unique case (sel)
      rvv_vpu_pkg::FpB: fp_sel = b;
      rvv_vpu_pkg::FpC: fp_sel = c;
      default: fp_sel = a;
    endcase
  endfunction

  for (genvar l = 0; l < LANES; l++) begin : g_fpu
    logic        in_valid;
    logic [31:0] a, b, c;
    always_comb begin
      if (l == 0 && state_q == SSerial) begin
        in_valid = fred_issue;
        a = facc_cur;
        b = fred_elem;
        c = '0;
      end else begin
        in_valid = fpu_issue;
        a = '0;
        b = '0;
        c = '0;
        // Integer sources of conversions arrive extended (vfwcvt from 16 bits). The FPU reads its operands
        // only with in_valid: the multiplexers are isolated otherwise.
        if (fpu_issue) begin
          a = fp_sel(x_fpa_q, slot_a[l][31:0], slot_b_raw[l], slot_c_raw[l]);
          b = fp_sel(x_fpb_q, slot_a[l][31:0], slot_b_raw[l], slot_c_raw[l]);
          c = fp_sel(x_fpc_q, slot_a[l][31:0], slot_b_raw[l], slot_c_raw[l]);
        end
      end
    end
    rvv_fpu u_fpu (
      .clk_i(clk_i), .rst_ni(rst_ni), .in_valid_i(in_valid), .in_ready_o(fpu_in_ready[l]),
      .op_i(x_fpu_op_q), .rm_i(x_rm_q), .a_i(a), .b_i(b), .c_i(c), .out_valid_o(fpu_out_v[l]),
      .result_o(fpu_res[l]), .flags_o(fpu_flags[l]));

    // Narrowing conversions saturate the 32-bit result to 16 bits: out of range is NV alone, as
    // softfloat's float32_to_int16 / float32_to_uint16 do.
    always_comb begin
      fp_out_data[l] = fpu_res[l];
      fp_out_flags[l] = fpu_flags[l];
      unique case (x_fp_post_q)
        rvv_vpu_pkg::FpPostNarrowS: begin
          if ($signed(fpu_res[l]) > 32'sd32767) begin
            fp_out_data[l] = 32'h0000_7fff;
            fp_out_flags[l] = 5'b10000;
          end else if ($signed(fpu_res[l]) < -32'sd32768) begin
            fp_out_data[l] = 32'h0000_8000;
            fp_out_flags[l] = 5'b10000;
          end
        end
        rvv_vpu_pkg::FpPostNarrowU: begin
          if (fpu_res[l] > 32'h0000_ffff) begin
            fp_out_data[l] = 32'h0000_ffff;
            fp_out_flags[l] = 5'b10000;
          end
        end
        rvv_vpu_pkg::FpPostCmpNot: fp_out_data[l] = {31'd0, !fpu_res[l][0]};
        default: ;
      endcase
    end
  end

  // ---------------------------------------------------------------------------------------------------
  // Mask engine (whole registers, one step)
  // ---------------------------------------------------------------------------------------------------
  logic [VLEN-1:0] mask_logic_res;
  logic [VLEN-1:0] mask_set_res;
  logic [31:0]     cpop;
  logic [31:0]     first;
  always_comb begin
    logic seen;
    logic body;
    logic act;
    seen = 1'b0;
    body = 1'b0;
    act = 1'b0;
    cpop = '0;
    first = '1;
    mask_logic_res = '0;
    mask_set_res = '0;
    // Its results are read in SFinish only (the write port, result_data_o), of its own instructions.
    if (mask_engine) for (int k = 0; k < VLEN; k++) begin
      body = 32'(k) < vl_q;
      act = body && (x_vm_q || v0_bits[k]);
      // vmand..vmxnor: funct6[2:0] = andn, and, or, xor, orn, nand, nor, xnor; vd = f(vs2, vs1).
      mask_logic_res[k] = vd_bits[k];
      if (body) begin
        unique case (x_mask_fn_q)
          3'd0: mask_logic_res[k] = vs2_bits[k] & !vs1_bits[k];
          3'd1: mask_logic_res[k] = vs2_bits[k] & vs1_bits[k];
          3'd2: mask_logic_res[k] = vs2_bits[k] | vs1_bits[k];
          3'd3: mask_logic_res[k] = vs2_bits[k] ^ vs1_bits[k];
          3'd4: mask_logic_res[k] = vs2_bits[k] | !vs1_bits[k];
          3'd5: mask_logic_res[k] = !(vs2_bits[k] & vs1_bits[k]);
          3'd6: mask_logic_res[k] = !(vs2_bits[k] | vs1_bits[k]);
          default: mask_logic_res[k] = !(vs2_bits[k] ^ vs1_bits[k]);
        endcase
      end
      // vmsbf (1), vmsof (2), vmsif (3): active elements before / at / up to the first set one.
      mask_set_res[k] = vd_bits[k];
      if (act) begin
        if (seen) mask_set_res[k] = 1'b0;
        else if (vs2_bits[k]) mask_set_res[k] = x_mask_fn_q != 3'd1;
        else mask_set_res[k] = x_mask_fn_q != 3'd2;
        if (vs2_bits[k]) begin
          if (!seen) first = 32'(k);
          seen = 1'b1;
          cpop = cpop + 32'd1;
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------------
  // Serial engine: vcompress and FP reductions, element i0_q per cycle
  // ---------------------------------------------------------------------------------------------------
  logic ser_act;
  logic ser_more;
  always_comb begin
    fred_elem = '0;
    if (state_q == SSerial) fred_elem = rd_elem(AW'(reg_base(x_vs2_q) + AW'(i0_q << x_sew_q)), x_sew_q);
  end
  assign ser_more = i0_q < x_evl_q;
  assign ser_act = ser_more && (x_vm_q || v0_bits[i0_q[$clog2(VLEN)-1:0]]);
  assign fred_issue = state_q == SSerial && x_kind_q == rvv_vpu_pkg::KindFred && ser_act;

  // ---------------------------------------------------------------------------------------------------
  // Memory engine (loads and stores)
  // ---------------------------------------------------------------------------------------------------
  logic [AW-1:0]   mq_vaddr [MEMQ];  // register file byte of the row's byte 0
  logic [ROWB-1:0] mq_be [MEMQ];
  logic [31:0]     mq_addr [MEMQ];   // the request address (for a fault report)
  logic [QW-1:0]   mq_head_q, mq_tail_q;
  logic [QW:0]     mq_count_q;
  logic            mq_full;
  logic            mem_second_q, mem_second_d;  // the second row of an element that crosses rows
  logic [31:0]     mem_addr_q, mem_addr_d;      // strided: the current element's address
  logic            mem_gen_done;
  logic            mem_piece_req;   // the current piece accesses memory
  logic            mem_advance;     // the generator moves to the next piece this cycle
  logic [31:0]     mem_row;         // row address of the piece
  logic [ROWB-1:0] mem_be;
  logic [AW-1:0]   mem_vaddr;
  logic [31:0]     mem_first;       // address of the first accessed byte
  logic            mem_push, mem_pop;
  logic [31:0]     mem_nbytes;
  logic [31:0]     mem_nrows;
  logic [31:0]     mem_eaddr;       // element address (strided / indexed)
  logic            mem_cross;       // the element crosses into the next row
  logic            mem_store;

  assign mem_store = m_store_q;
  assign mq_full = mq_count_q == (QW + 1)'(MEMQ);
  assign mem_nbytes = m_evl_q << m_eew_q;
  assign mem_nrows = ({{(32 - RW){1'b0}}, m_rs1_q[RW-1:0]} + mem_nbytes + 32'(ROWB - 1)) >> RW;

  always_comb begin
    logic [31:0] g;
    logic [$clog2(VLEN)-1:0] e;
    logic [31:0] off;
    logic [31:0] idx;
    logic signed [31:0] lo, hi;  // the unit-stride piece's bytes, relative to its row: [lo, hi)
    logic [RW:0] lo_c, hi_c;
    g = '0;
    e = '0;
    off = '0;
    lo = '0;
    hi = '0;
    lo_c = '0;
    hi_c = '0;
    mem_row = '0;
    mem_be = '0;
    mem_vaddr = '0;
    mem_cross = 1'b0;
    mem_eaddr = '0;
    mem_gen_done = 1'b1;
    idx = '0;
    if (m_state_q != MRun) begin
      // nothing: the generator's outputs are read in MRun only
    end else if (m_mode_q == rvv_vpu_pkg::MemUnit) begin
      mem_gen_done = m_i0_q >= mem_nrows;
      mem_row = {m_rs1_q[31:RW], {RW{1'b0}}} + (m_i0_q << RW);
      mem_vaddr = AW'(reg_base(m_vd_q) + AW'(mem_row - m_rs1_q));
      if (m_vm_q) begin
        // Unmasked: one range of bytes, as two shifts (what the loop below gives with every v0 bit set).
        lo = $signed(m_rs1_q - mem_row);
        hi = lo + $signed(mem_nbytes);
        lo_c = (lo <= 0) ? '0 : (lo >= $signed(32'(ROWB))) ? (RW + 1)'(ROWB) : (RW + 1)'(lo);
        hi_c = (hi <= 0) ? '0 : (hi >= $signed(32'(ROWB))) ? (RW + 1)'(ROWB) : (RW + 1)'(hi);
        mem_be = ({ROWB{1'b1}} << lo_c) & ~({ROWB{1'b1}} << hi_c);
      end else begin
        for (int k = 0; k < ROWB; k++) begin
          g = mem_row + 32'(k) - m_rs1_q;
          e = $clog2(VLEN)'(g >> m_eew_q);
          mem_be[k] = (g < mem_nbytes) && v0_bits[e];
        end
      end
    end else begin
      mem_gen_done = m_i0_q >= m_evl_q;
      if (m_mode_q == rvv_vpu_pkg::MemIndexed) begin
        idx = rd_elem(AW'(reg_base(m_vs2_q) + AW'(m_i0_q << m_idx_eew_q)), m_idx_eew_q);
        mem_eaddr = m_rs1_q + idx;
      end else begin
        mem_eaddr = mem_addr_q;
      end
      off = {{(32 - RW){1'b0}}, mem_eaddr[RW-1:0]};
      mem_cross = off + (32'd1 << m_eew_q) > 32'(ROWB);
      mem_row = {mem_eaddr[31:RW], {RW{1'b0}}} + (mem_second_q ? 32'(ROWB) : 32'd0);
      mem_vaddr = AW'(reg_base(m_vd_q) + AW'(m_i0_q << m_eew_q) - AW'(off) + (mem_second_q ? AW'(ROWB) : AW'(0)));
      // The element's bytes in this row, as a range (a shift by the row's width or more gives 0).
      if (!mem_second_q) mem_be = ({ROWB{1'b1}} << off) & ~({ROWB{1'b1}} << (off + (32'd1 << m_eew_q)));
      else mem_be = ~({ROWB{1'b1}} << (off + (32'd1 << m_eew_q) - 32'(ROWB)));
      if (!(m_vm_q || v0_bits[m_i0_q[$clog2(VLEN)-1:0]])) mem_be = '0;
    end
    // The first enabled byte: the range's start where the enables are one range, else a search.
    mem_first = mem_row;
    if (m_state_q == MRun && mem_be != '0) begin
      if (m_mode_q != rvv_vpu_pkg::MemUnit) begin
        if (!mem_second_q) mem_first = mem_row + off;
      end else if (m_vm_q) begin
        mem_first = mem_row + 32'(lo_c);
      end else begin
        for (int k = ROWB - 1; k >= 0; k--) begin
          if (mem_be[k]) mem_first = mem_row + 32'(k);
        end
      end
    end
    mem_piece_req = !mem_gen_done && (mem_be != '0);
  end

  assign vmem_req_valid_o = m_state_q == MRun && mem_piece_req && !mq_full;
  assign vmem_req_write_o = mem_store;
  assign vmem_req_addr_o = mem_first;
  assign vmem_req_be_o = mem_be;
  // The piece's bytes from register file byte mem_vaddr on (wrapping at its end, as the address does).
  always_comb begin
    logic [NWR*VLEN-1:0] span;
    span = '0;
    vmem_req_wdata_o = '0;
    if (m_state_q == MRun && mem_store) begin  // the data of a read request is not used
      for (int j = 0; j < NWR; j++) span[j*VLEN +: VLEN] = vrf_q[5'(32'(mem_vaddr[AW-1:VB]) + j)];
      vmem_req_wdata_o = ROW_BITS'(span >> (8 * mem_vaddr[VB-1:0]));
    end
  end
  assign mem_push = vmem_req_valid_o && vmem_req_ready_i;
  assign mem_advance = m_state_q == MRun && !mem_gen_done && (mem_push || !mem_piece_req);
  assign mem_pop = m_state_q == MRun && vmem_rsp_valid_i && mq_count_q != '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mq_head_q <= '0;
      mq_tail_q <= '0;
      mq_count_q <= '0;
    end else begin
      if (mem_push) mq_tail_q <= mq_tail_q + QW'(1);
      if (mem_pop) mq_head_q <= mq_head_q + QW'(1);
      mq_count_q <= mq_count_q + (QW + 1)'(mem_push) - (QW + 1)'(mem_pop);
    end
  end

  always_ff @(posedge clk_i) begin
    if (mem_push) begin
      mq_vaddr[mq_tail_q] <= mem_vaddr;
      mq_be[mq_tail_q] <= mem_be;
      mq_addr[mq_tail_q] <= mem_first;
    end
  end

  // ---------------------------------------------------------------------------------------------------
  // The register file's write ports: the arithmetic engine's (which part writes depends on its state) and
  // the memory engine's (load responses). They never write the same register in one cycle: the engines
  // share no register that either writes (the start condition), and each port writes only registers it
  // has enabled bytes in. The arithmetic engine's writes lie in one register (a beat's window, an element,
  // a scalar, a mask); a memory piece may straddle registers.
  // ---------------------------------------------------------------------------------------------------
  logic            wr_en;
  logic [AW-1:0]   wr_addr;
  // The written bytes from wr_addr's byte on, and their enables as a bit mask: packed, so that the merge
  // below shifts them as two words per 64 bits (bytes one at a time cost the simulation a
  // read-modify-write each).
  logic [VLEN-1:0] wr_d;
  logic [VLEN-1:0] wr_m;
  logic            fp_wb;           // FPU results of a beat arrive this cycle

  assign fp_wb = meta_valid_q && fpu_out_valid;

  // The low 1, 2 or 4 bytes of a 32-bit value as a bit mask.
  function automatic logic [31:0] low_bytes(input logic [1:0] eew);
    unique case (eew)
      2'd0: low_bytes = 32'h0000_00ff;
      2'd1: low_bytes = 32'h0000_ffff;
      default: low_bytes = 32'hffff_ffff;
    endcase
  endfunction

  always_comb begin
    wr_en = 1'b0;
    wr_addr = '0;
    wr_d = '0;
    wr_m = '0;
    if (state_q == SElem && beat_go && !x_fp_q && !x_mask_dest_q && x_kind_q == rvv_vpu_pkg::KindElem) begin
      wr_en = 1'b1;
      wr_addr = win_d_addr;
      for (int k = 0; k < SB; k++) begin
        wr_d[8*k +: 8] = beat_wdata[k];
        wr_m[8*k +: 8] = {8{beat_wbe[k]}};
      end
    end else if (fp_wb && !x_mask_dest_q) begin
      // Lane l's result is element l of the beat, at the destination's width.
      wr_en = 1'b1;
      wr_addr = AW'(reg_base(x_vd_q) + AW'(meta_i0_q << x_eew_d_q));
      unique case (x_eew_d_q)
        2'd0:
          for (int l = 0; l < LANES; l++) begin
            wr_d[8*l +: 8] = fp_out_data[l][7:0];
            wr_m[8*l +: 8] = {8{meta_act_q[l]}};
          end
        2'd1:
          for (int l = 0; l < LANES; l++) begin
            wr_d[16*l +: 16] = fp_out_data[l][15:0];
            wr_m[16*l +: 16] = {16{meta_act_q[l]}};
          end
        default:
          for (int l = 0; l < LANES; l++) begin
            wr_d[32*l +: 32] = fp_out_data[l];
            wr_m[32*l +: 32] = {32{meta_act_q[l]}};
          end
      endcase
    end else if (state_q == SSerial && x_kind_q == rvv_vpu_pkg::KindCompress && ser_more &&
                 vs1_bits[i0_q[$clog2(VLEN)-1:0]]) begin
      wr_en = 1'b1;
      wr_addr = AW'(reg_base(x_vd_q) + AW'(cnt_q << x_sew_q));
      wr_d[31:0] = fred_elem;
      wr_m[31:0] = low_bytes(x_sew_q);
    end else if (state_q == SFinish && !x_skip_q) begin
      wr_addr = reg_base(x_vd_q);
      if (x_kind_q == rvv_vpu_pkg::KindRed || x_kind_q == rvv_vpu_pkg::KindFred) begin
        wr_en = 1'b1;
        wr_d[31:0] = (x_kind_q == rvv_vpu_pkg::KindRed) ? acc_q[31:0] : facc_q;
        wr_m[31:0] = low_bytes(x_eew_d_q);
      end else if ((x_kind_q == rvv_vpu_pkg::KindElem && x_mask_dest_q) ||
                   x_kind_q == rvv_vpu_pkg::KindMaskLogic || x_kind_q == rvv_vpu_pkg::KindMaskSet) begin
        wr_en = 1'b1;
        wr_m = '1;
        if (x_kind_q == rvv_vpu_pkg::KindMaskLogic) wr_d = mask_logic_res;
        else if (x_kind_q == rvv_vpu_pkg::KindMaskSet) wr_d = mask_set_res;
        else wr_d = macc_q;
      end
    end
  end

  logic m_wr_en;
  assign m_wr_en = mem_pop && !mem_store && !vmem_rsp_error_i;

  // Each port's registers: the written bytes merged into the old value (computed only while it writes).
  logic [VLEN-1:0] a_wval;
  always_comb begin
    logic [VLEN-1:0] d, m;
    d = '0;
    m = '0;
    a_wval = '0;
    if (wr_en) begin
      d = wr_d << (8 * wr_addr[VB-1:0]);
      m = wr_m << (8 * wr_addr[VB-1:0]);
      a_wval = (vrf_q[wr_addr[AW-1:VB]] & ~m) | (d & m);
    end
  end

  logic [4:0]      m_wreg;          // the piece's first register
  logic [NWR-1:0]  m_wen;           // of it and the next ones, those with bytes written
  logic [VLEN-1:0] m_wval [NWR];
  always_comb begin
    logic [AW-1:0] vaddr;
    logic [NWR*VLEN-1:0] d, m;
    vaddr = mq_vaddr[mq_head_q];
    d = '0;
    m = '0;
    m_wreg = '0;
    m_wen = '0;
    for (int j = 0; j < NWR; j++) m_wval[j] = '0;
    if (m_wr_en) begin
      m_wreg = vaddr[AW-1:VB];
      d = (NWR * VLEN)'(vmem_rsp_rdata_i) << (8 * vaddr[VB-1:0]);
      // A whole row's enables (unit-stride pieces inside the data) give the same mask without the loop
      // over its bytes, which the simulation then skips.
      if (&mq_be[mq_head_q]) m[8*ROWB-1:0] = '1;
      else for (int k = 0; k < ROWB; k++) m[8*k +: 8] = {8{mq_be[mq_head_q][k]}};
      m = m << (8 * vaddr[VB-1:0]);
      for (int j = 0; j < NWR; j++) begin
        m_wen[j] = m[j*VLEN +: VLEN] != '0;
        m_wval[j] = (vrf_q[5'(32'(m_wreg) + j)] & ~m[j*VLEN +: VLEN]) | (d[j*VLEN +: VLEN] & m[j*VLEN +: VLEN]);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (wr_en) vrf_q[wr_addr[AW-1:VB]] <= a_wval;
    for (int j = 0; j < NWR; j++) begin
      if (m_wen[j]) vrf_q[5'(32'(m_wreg) + j)] <= m_wval[j];
    end
  end

  // ---------------------------------------------------------------------------------------------------
  // The arithmetic engine's sequencer
  // ---------------------------------------------------------------------------------------------------
  assign beat_go = state_q == SElem && (!x_fp_q || fpu_ready);
  assign fpu_issue = beat_go && x_fp_q;

  always_comb begin
    state_d = state_q;
    i0_d = i0_q;
    macc_d = macc_q;
    acc_d = acc_q;
    facc_d = facc_cur;
    fpend_d = 1'b0;
    cnt_d = cnt_q;
    flags_d = flags_q;
    meta_valid_d = meta_valid_q;
    meta_i0_d = meta_i0_q;
    meta_act_d = meta_act_q;

    // FPU results of a beat: mask bits and flags (vector destinations are written by the write port).
    if (fp_wb) begin
      meta_valid_d = 1'b0;
      for (int l = 0; l < LANES; l++) begin
        if (meta_act_q[l]) begin
          flags_d = flags_d | fp_out_flags[l];
          if (x_mask_dest_q) macc_d[$clog2(VLEN)'(meta_i0_q + 32'(l))] = fp_out_data[l][0];
        end
      end
    end
    if (state_q == SSerial && fpend_q && fpu_out_valid) flags_d = flags_d | fpu_flags[0];

    unique case (state_q)
      SElem: begin
        if (beat_go) begin
          i0_d = i0_q + 32'(beat_k);
          if (x_kind_q == rvv_vpu_pkg::KindRed) acc_d = red_next;
          if (x_alu_op_q == rvv_vpu_pkg::AluIota) cnt_d = iota_next;
          if (x_mask_dest_q && !x_fp_q) begin
            for (int s = 0; s < SB; s++) begin
              if (slot_act[s]) macc_d[$clog2(VLEN)'(i0_q + 32'(s))] = slot_cmp[s];
            end
          end
          if (x_fp_q) begin
            meta_valid_d = 1'b1;
            meta_i0_d = i0_q;
            for (int l = 0; l < LANES; l++) meta_act_d[l] = slot_act[l];
          end
          if (last_beat) state_d = x_fp_q ? SDrain : SFinish;
        end
      end
      SDrain: begin
        if (fp_wb) state_d = SFinish;
      end
      SSerial: begin
        if (ser_more) begin
          i0_d = i0_q + 32'd1;
          if (x_kind_q == rvv_vpu_pkg::KindCompress && vs1_bits[i0_q[$clog2(VLEN)-1:0]]) cnt_d = cnt_q + 32'd1;
          fpend_d = fred_issue;
        end else if (!fpend_q) begin
          state_d = SFinish;
        end
      end
      SFinish: state_d = SIdle;
      default: ;
    endcase

    // The start of the next instruction (from SIdle or SFinish: the finishing one's outputs are its _q).
    if (a_start) begin
      i0_d = '0;
      cnt_d = '0;
      flags_d = '0;
      meta_valid_d = 1'b0;
      macc_d = st_vd_bits;
      // Reduction start values: vs1[0] (integer: extended as the operation compares); each accumulator
      // is read by its own kind of reduction only. The condition is also rd_elem_ext's enable, which
      // still holds if the call is lifted out of the if.
      if (st.dec.kind == rvv_vpu_pkg::KindRed)
        acc_d = rd_elem_ext(st.dec.kind == rvv_vpu_pkg::KindRed, reg_base(st.dec.vs1), st.dec.eew_s1,
                            st.dec.s1_signed);
      if (st.dec.kind == rvv_vpu_pkg::KindFred)
        facc_d = 32'(rd_elem_ext(st.dec.kind == rvv_vpu_pkg::KindFred, reg_base(st.dec.vs1), 2'd2, 1'b0));
      if (st.dec.skip) state_d = SFinish;
      else begin
        unique case (st.dec.kind)
          rvv_vpu_pkg::KindElem, rvv_vpu_pkg::KindRed: state_d = SElem;
          rvv_vpu_pkg::KindFred, rvv_vpu_pkg::KindCompress: state_d = SSerial;
          default: state_d = SFinish;
        endcase
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SIdle;
      a_reads_q <= '0;
      a_writes_q <= '0;
      imm_q <= '0;
      pc_q <= '0;
      rs1v_q <= '0;
      frs1_q <= '0;
      vl_q <= '0;
      x_kind_q <= '0;
      x_alu_op_q <= '0;
      x_fp_q <= '0;
      x_fpu_op_q <= '0;
      x_rm_q <= '0;
      x_fpa_q <= '0;
      x_fpb_q <= '0;
      x_fpc_q <= '0;
      x_fp_post_q <= '0;
      x_sew_q <= '0;
      x_eew_d_q <= '0;
      x_eew_s2_q <= '0;
      x_eew_s1_q <= '0;
      x_beat_eew_q <= '0;
      x_s2_signed_q <= '0;
      x_s1_signed_q <= '0;
      x_src_q <= '0;
      x_gather_q <= '0;
      x_mask_dest_q <= '0;
      x_merge_q <= '0;
      x_vm_q <= '0;
      x_vd_q <= '0;
      x_vs1_q <= '0;
      x_vs2_q <= '0;
      x_evl_q <= '0;
      x_vlmax_q <= '0;
      x_skip_q <= '0;
      x_sh_mask_q <= '0;
      x_scalar_op_q <= '0;
      x_mask_fn_q <= '0;
      i0_q <= '0;
      macc_q <= '0;
      acc_q <= '0;
      facc_q <= '0;
      fpend_q <= 1'b0;
      cnt_q <= '0;
      flags_q <= '0;
      meta_valid_q <= 1'b0;
      meta_i0_q <= '0;
      meta_act_q <= '0;
    end else begin
      state_q <= state_d;
      if (a_start) begin
        a_reads_q <= st.reads;
        a_writes_q <= st.writes;
        imm_q <= st.insn[19:15];
        pc_q <= st.pc;
        rs1v_q <= st.rs1;
        frs1_q <= st.frs1;
        vl_q <= st.vl;
        x_kind_q <= st.dec.kind;
        x_alu_op_q <= st.dec.alu_op;
        x_fp_q <= st.dec.fp;
        x_fpu_op_q <= st.dec.fpu_op;
        x_rm_q <= st.dec.rm;
        x_fpa_q <= st.dec.fpa;
        x_fpb_q <= st.dec.fpb;
        x_fpc_q <= st.dec.fpc;
        x_fp_post_q <= st.dec.fp_post;
        x_sew_q <= st.dec.sew;
        x_eew_d_q <= st.dec.eew_d;
        x_eew_s2_q <= st.dec.eew_s2;
        x_eew_s1_q <= st.dec.eew_s1;
        x_beat_eew_q <= st.dec.beat_eew;
        x_s2_signed_q <= st.dec.s2_signed;
        x_s1_signed_q <= st.dec.s1_signed;
        x_src_q <= st.dec.src;
        x_gather_q <= st.dec.gather;
        x_mask_dest_q <= st.dec.mask_dest;
        x_merge_q <= st.dec.merge;
        x_vm_q <= st.dec.vm;
        x_vd_q <= st.dec.vd;
        x_vs1_q <= st.dec.vs1;
        x_vs2_q <= st.dec.vs2;
        x_evl_q <= st.dec.evl;
        x_vlmax_q <= st.dec.vlmax;
        x_skip_q <= st.dec.skip;
        x_sh_mask_q <= st.dec.sh_mask;
        x_scalar_op_q <= st.dec.scalar_op;
        x_mask_fn_q <= st.dec.mask_fn;
      end
      i0_q <= i0_d;
      macc_q <= macc_d;
      acc_q <= acc_d;
      facc_q <= facc_d;
      fpend_q <= fpend_d;
      cnt_q <= cnt_d;
      flags_q <= flags_d;
      meta_valid_q <= meta_valid_d;
      meta_i0_q <= meta_i0_d;
      meta_act_q <= meta_act_d;
    end
  end

  // ---------------------------------------------------------------------------------------------------
  // The memory engine's sequencer
  // ---------------------------------------------------------------------------------------------------
  always_comb begin
    m_state_d = m_state_q;
    m_i0_d = m_i0_q;
    mem_second_d = mem_second_q;
    mem_addr_d = mem_addr_q;
    err_d = err_q;
    err_code_d = err_code_q;
    err_addr_d = err_addr_q;
    unique case (m_state_q)
      MIdle: begin
        if (m_start) begin
          m_i0_d = '0;
          mem_second_d = 1'b0;
          mem_addr_d = st.rs1;
          m_state_d = st.dec.skip ? MFinish : MRun;
        end
      end
      MRun: begin
        if (mem_advance) begin
          if (m_mode_q == rvv_vpu_pkg::MemUnit) begin
            m_i0_d = m_i0_q + 32'd1;
          end else if (mem_cross && !mem_second_q && mem_piece_req) begin
            mem_second_d = 1'b1;
          end else begin
            mem_second_d = 1'b0;
            m_i0_d = m_i0_q + 32'd1;
            mem_addr_d = mem_addr_q + m_rs2_q;
          end
        end
        if (mem_pop && vmem_rsp_error_i) begin
          // Stopped until reset: nothing starts any more (st_valid) and the core ends the run.
          err_d = 1'b1;
          err_code_d = mem_store ? rvv_pkg::ERR_STORE : rvv_pkg::ERR_LOAD;
          err_addr_d = mq_addr[mq_head_q];
          m_state_d = MIdle;
        end else if (mem_gen_done && mq_count_q == '0) begin
          m_state_d = MFinish;
        end
      end
      default: m_state_d = MIdle;  // MFinish
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      m_state_q <= MIdle;
      m_reads_q <= '0;
      m_writes_q <= '0;
      m_insn_q <= '0;
      m_pc_q <= '0;
      m_rs1_q <= '0;
      m_rs2_q <= '0;
      m_evl_q <= '0;
      m_mode_q <= '0;
      m_eew_q <= '0;
      m_idx_eew_q <= '0;
      m_vd_q <= '0;
      m_vs2_q <= '0;
      m_vm_q <= 1'b0;
      m_store_q <= 1'b0;
      m_i0_q <= '0;
      mem_second_q <= 1'b0;
      mem_addr_q <= '0;
      err_q <= 1'b0;
      err_code_q <= '0;
      err_addr_q <= '0;
    end else begin
      m_state_q <= m_state_d;
      if (m_start) begin
        m_reads_q <= st.reads;
        m_writes_q <= st.writes;
        m_insn_q <= st.insn;
        m_pc_q <= st.pc;
        m_rs1_q <= st.rs1;
        m_rs2_q <= st.rs2;
        m_evl_q <= st.dec.evl;
        m_mode_q <= st.dec.mem_mode;
        m_eew_q <= st.dec.eew_d;
        m_idx_eew_q <= st.dec.idx_eew;
        m_vd_q <= st.dec.vd;
        m_vs2_q <= st.dec.vs2;
        m_vm_q <= st.dec.vm;
        m_store_q <= st.dec.kind == rvv_vpu_pkg::KindStore;
      end
      m_i0_q <= m_i0_d;
      mem_second_q <= mem_second_d;
      mem_addr_q <= mem_addr_d;
      err_q <= err_d;
      err_code_q <= err_code_d;
      err_addr_q <= err_addr_d;
    end
  end

  // ---------------------------------------------------------------------------------------------------
  // Outputs
  // ---------------------------------------------------------------------------------------------------
  assign issue_ready_o = !err_q && q_count_q != (QPW + 1)'(QUEUE);
  assign issue_illegal_o = id_dec_illegal;
  assign busy_o = !err_q && (q_count_q != '0 || state_q != SIdle || m_state_q != MIdle);
  assign mem_busy_o = !err_q && (q_mem_q != '0 || m_state_q != MIdle);
  assign store_busy_o = !err_q && (q_store_q != '0 || (m_state_q != MIdle && m_store_q));
  assign mem_pc_o = m_pc_q;
  assign done_pc_o = pc_q;
  assign result_valid_o = state_q == SFinish && x_kind_q == rvv_vpu_pkg::KindScalar;
  logic [32:0] mvxs;  // vmv.x.s sign-extends; read only while the result is valid
  assign mvxs = rd_elem_ext(result_valid_o, reg_base(x_vs2_q), x_sew_q, 1'b1);
  always_comb begin
    unique case (x_scalar_op_q)
      rvv_vpu_pkg::ScalarCpop: result_data_o = cpop;
      rvv_vpu_pkg::ScalarFirst: result_data_o = first;
      default: result_data_o = mvxs[31:0];
    endcase
  end
  assign fflags_valid_o = state_q == SFinish && (x_fp_q || x_kind_q == rvv_vpu_pkg::KindFred) && !x_skip_q;
  assign fflags_o = flags_q;
  assign error_o = err_q;
  assign error_code_o = err_code_q;
  assign error_pc_o = m_pc_q;  // errors are the memory engine's
  assign error_insn_o = m_insn_q;
  assign error_addr_o = err_addr_q;

  logic unused;
  assign unused = ^{x_vlmax_q, x_fpa_q, x_fpb_q, x_fpc_q, fpu_in_ready, fpu_out_v, mvxs[32]};
endmodule
