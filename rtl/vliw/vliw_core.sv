// The vliw core: bundle fetch and decode, the checks every bundle passes before it issues, stalls,
// issue of the five slots, scalar and pointer registers, hardware loops, locks, halt, drain, errors and
// the performance counters.
//
// Fetch: IMEM answers one cycle after its address; the address is the next cycle's pc, so the words at
// pc .. pc+4 are there when the bundle at pc decodes. Each cycle the bundle at pc either issues, stalls
// (lock at 0, full DMA queue, or one cycle for a bank conflict between its two load/store ops) or
// faults. When it issues, every op reads its registers, load/store ops read or write DM, scalar and
// pointer results (latency 1) are written at the cycle's edge, and vector/accumulator results enter
// vliw_result_pipe, which writes them their latency in pipeline steps later. After C_HALT or an error,
// the machine drains: results in flight land and the DMA queues empty, then it stops. The order of every
// check, stall and write is that of the functional model (isa/vliw/vliw_iss.cpp), which defines the
// architecture.
module vliw_core #(
  parameter int unsigned VLEN = 16,
  parameter int unsigned IMEM_WORDS = 4096,
  parameter int unsigned DM_BYTES = 65536,
  parameter int unsigned DM_BANKS = 8,
  parameter int unsigned LOOP_DEPTH = 4,
  parameter int unsigned DMA_CHANNELS = 4,
  parameter int unsigned IM_AW = $clog2(IMEM_WORDS),
  parameter int unsigned RAW = $clog2(DM_BYTES / (2 * VLEN)),
  parameter int unsigned ROW_BITS = 16 * VLEN
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   start_i,
  input  logic [32:0]            dram_bytes_i,
  // IMEM: five read ports, synchronous
  output logic [5*IM_AW-1:0]     imem_raddr_o,
  input  logic [5*32-1:0]        imem_rdata_i,
  // DM core ports (vliw_dm)
  output logic [2*RAW-1:0]       dm_row_o,
  input  logic [2*ROW_BITS-1:0]  dm_rdata_i,
  output logic [1:0]             dm_we_o,
  output logic [2*ROW_BITS-1:0]  dm_wdata_o,
  output logic [4*VLEN-1:0]      dm_be_o,
  // DMA (vliw_dma)
  output logic                   dma_push_o,
  output logic [1:0]             dma_ch_o,
  output logic                   dma_store_o,
  output logic [RAW-1:0]         dma_row_o,
  output logic [31:0]            dma_dram_o,
  output logic [31:0]            dma_stride_o,
  output logic [31:0]            dma_rows_o,
  output logic [4:0]             dma_lock_o,
  output logic [31:0]            dma_pc_o,
  input  logic [DMA_CHANNELS-1:0] dma_full_i,
  input  logic                   dma_busy_i,
  input  logic                   dma_rel_i,
  input  logic [3:0]             dma_rel_lock_i,
  input  logic [31:0]            dma_rel_pc_i,
  input  logic                   dma_load_launch_i,
  input  logic                   dma_store_done_i,
  // status
  output logic                   running_o,
  output logic                   stopped_o,    // the run is over (C_HALT or an error, drained)
  output logic                   halted_o,     // C_HALT issued
  output logic                   draining_o,
  output logic [3:0]             err_code_o,
  output logic [31:0]            err_pc_o,
  output logic [63:0]            err_lo_o,
  output logic [63:0]            err_hi_o,
  output logic [31:0]            pc_o,         // the bundle at the issue stage
  output logic [31:0]            state_pc_o,   // the bundle that halted or faulted
  output logic [2:0]             stall_o,      // vliw_isa_pkg STALL_* of this cycle
  output logic [31:0]            loop_sp_o,
  output logic                   issue_o,      // a bundle issues this cycle
  output logic [31:0]            issue_word_o, // its first word
  // back door
  input  logic                   dbg_en_i,
  input  logic [31:0]            dbg_addr_i,
  output logic [31:0]            dbg_xreg_o,
  output logic [31:0]            dbg_preg_o,
  output logic [7:0]             dbg_lock_o,
  output logic [VLEN*16-1:0]     dbg_vreg_o,
  output logic [VLEN*32-1:0]     dbg_areg_o,
  output logic [63:0]            dbg_counter_o
);
  localparam int unsigned ROW_BYTES = 2 * VLEN;
  localparam int unsigned RB_W = $clog2(ROW_BYTES);
  localparam int unsigned BANK_W = (DM_BANKS > 1) ? $clog2(DM_BANKS) : 1;
  localparam int unsigned LS_W = (LOOP_DEPTH > 1) ? $clog2(LOOP_DEPTH + 1) : 1;
  localparam int unsigned NCNT = vliw_isa_pkg::NUM_COUNTERS;
  localparam int unsigned CH_W = (DMA_CHANNELS > 1) ? $clog2(DMA_CHANNELS) : 1;
  localparam int unsigned LD_W = (LOOP_DEPTH > 1) ? $clog2(LOOP_DEPTH) : 1;

  // ---------------------------------------------------------------- architectural state
  logic [31:0] r_q [16];
  logic [31:0] p_q [8];
  logic [7:0]  lock_q [16];
  logic [31:0] loop_start_q [LOOP_DEPTH];
  logic [31:0] loop_end_q [LOOP_DEPTH];
  logic [31:0] loop_left_q [LOOP_DEPTH];
  logic [LS_W-1:0] loop_sp_q;
  logic [31:0] pc_q;
  wire [LD_W-1:0] top_idx = LD_W'(loop_sp_q - 1'b1);  // the innermost active loop
  logic        running_q, stopped_q, halted_q, draining_q, bank_taken_q, landed_q;
  logic [3:0]  err_code_q;
  logic [31:0] err_pc_q, state_pc_q;
  logic [63:0] err_lo_q, err_hi_q;
  logic [63:0] cnt_q [NCNT];

  // ---------------------------------------------------------------- decode
  // Operand values outside an operand's range are illegal words, as isa::decode() rejects them.
  function automatic logic operands_ok(input logic [31:0] w);
    logic ok;
    logic [6:0] op;
    op = vliw_isa_pkg::opcode_field(w);
    ok = 1'b1;
    case (op)
      vliw_isa_pkg::OP_C_LOOP, vliw_isa_pkg::OP_C_LOOPI: ok = vliw_isa_pkg::body12_field(w) != '0;
      vliw_isa_pkg::OP_C_DMALD, vliw_isa_pkg::OP_C_DMAST:
        ok = vliw_isa_pkg::lock5_field(w) <= 5'd16 && 32'(vliw_isa_pkg::ch_field(w)) < DMA_CHANNELS;
      vliw_isa_pkg::OP_S_SLLI, vliw_isa_pkg::OP_S_SRLI: ok = vliw_isa_pkg::imm16_field(w) <= 16'd31;
      vliw_isa_pkg::OP_S_PMOV, vliw_isa_pkg::OP_S_PADD, vliw_isa_pkg::OP_S_PADDI:
        ok = !w[vliw_isa_pkg::D_LSB + 3];
      vliw_isa_pkg::OP_S_PGET, vliw_isa_pkg::OP_L_VLD, vliw_isa_pkg::OP_L_VST, vliw_isa_pkg::OP_L_VLDB,
      vliw_isa_pkg::OP_L_SLD, vliw_isa_pkg::OP_L_SST, vliw_isa_pkg::OP_V_SRS:
        ok = !w[vliw_isa_pkg::S1_LSB + 3];
      vliw_isa_pkg::OP_V_SHUF: ok = vliw_isa_pkg::imm6_field(w) <= 6'd3;
      vliw_isa_pkg::OP_A_UPS, vliw_isa_pkg::OP_A_VMUL, vliw_isa_pkg::OP_A_VMAC, vliw_isa_pkg::OP_A_MMUL,
      vliw_isa_pkg::OP_A_MMAC, vliw_isa_pkg::OP_A_BCST:
        ok = !w[vliw_isa_pkg::D_LSB + 3];
      vliw_isa_pkg::OP_A_ADD, vliw_isa_pkg::OP_A_SUB, vliw_isa_pkg::OP_A_MUL, vliw_isa_pkg::OP_A_MAX:
        ok = !w[vliw_isa_pkg::D_LSB + 3] && !w[vliw_isa_pkg::S1_LSB + 3] && !w[vliw_isa_pkg::S2_LSB + 3];
      vliw_isa_pkg::OP_A_EXP, vliw_isa_pkg::OP_A_RECI, vliw_isa_pkg::OP_A_RSQRT, vliw_isa_pkg::OP_A_RSUM,
      vliw_isa_pkg::OP_A_RMAX:
        ok = !w[vliw_isa_pkg::D_LSB + 3] && !w[vliw_isa_pkg::S1_LSB + 3];
      default: ok = 1'b1;
    endcase
    operands_ok = vliw_isa_pkg::is_legal(w) && ok;
  endfunction

  function automatic logic [vliw_isa_pkg::SLOT_KIND_BITS-1:0] slot_pos_kind(input int unsigned q);
    case (q)
      0: slot_pos_kind = vliw_isa_pkg::SLOT_POS0_KIND;
      1: slot_pos_kind = vliw_isa_pkg::SLOT_POS1_KIND;
      2: slot_pos_kind = vliw_isa_pkg::SLOT_POS2_KIND;
      3: slot_pos_kind = vliw_isa_pkg::SLOT_POS3_KIND;
      default: slot_pos_kind = vliw_isa_pkg::SLOT_POS4_KIND;
    endcase
  endfunction

  logic [31:0] word [5];
  logic        dec_err;
  logic [3:0]  dec_code;
  logic [63:0] dec_lo, dec_hi;
  logic [2:0]  nwords;
  logic        slot_v [5];     // slot position s (ls0, ls1, vec, scl, ctl) holds an op
  logic [31:0] slot_w [5];
  always_comb begin
    logic done;
    logic [2:0] next_pos;  // first free slot position
    logic order_ok;
    logic [vliw_isa_pkg::SLOT_KIND_BITS-1:0] kind;
    logic found;
    logic [2:0] pos;
    kind = '0;
    found = 1'b0;
    pos = 3'd0;
    for (int unsigned k = 0; k < 5; k++) word[k] = imem_rdata_i[32*k +: 32];
    dec_err = 1'b0;
    dec_code = vliw_isa_pkg::ERR_NONE;
    dec_lo = '0;
    dec_hi = '0;
    nwords = 3'd0;
    done = 1'b0;
    for (int unsigned k = 0; k < 5; k++) begin
      if (!done) begin
        if (64'(pc_q) + 64'(k) >= 64'(IMEM_WORDS)) begin
          dec_err = 1'b1;
          dec_code = vliw_isa_pkg::ERR_PC_RANGE;
          dec_lo = 64'(pc_q) + 64'(k);
          done = 1'b1;
        end else if (!operands_ok(word[k])) begin
          dec_err = 1'b1;
          dec_code = vliw_isa_pkg::ERR_ILLEGAL_INSN;
          dec_lo = 64'(word[k]);
          dec_hi = 64'(pc_q) + 64'(k);
          done = 1'b1;
        end else begin
          nwords = 3'(k + 1);
          if (word[k][vliw_isa_pkg::EOB_BIT]) begin
            done = 1'b1;
          end else if (k == 4) begin
            dec_err = 1'b1;
            dec_code = vliw_isa_pkg::ERR_ILLEGAL_BUNDLE;
            dec_lo = 64'(pc_q);
            dec_hi = 64'(pc_q) + 64'd5;
            done = 1'b1;
          end
        end
      end
    end
    // Slots: each op takes the first slot of its kind after the previous op's slot.
    for (int unsigned s = 0; s < 5; s++) begin
      slot_v[s] = 1'b0;
      slot_w[s] = '0;
    end
    next_pos = 3'd0;
    order_ok = 1'b1;
    for (int unsigned k = 0; k < vliw_isa_pkg::MAX_BUNDLE_WORDS; k++) begin
      if (!dec_err && k < 32'(nwords)) begin
        kind = vliw_isa_pkg::slot_kind(vliw_isa_pkg::opcode_field(word[k]));
        found = 1'b0;
        pos = 3'd0;
        for (int unsigned q = 0; q < 5; q++) begin
          if (!found && q >= 32'(next_pos) && slot_pos_kind(q) == kind && 32'(kind) < vliw_isa_pkg::NUM_SLOT_KINDS) begin
            found = 1'b1;
            pos = 3'(q);
          end
        end
        if (!found) begin
          order_ok = 1'b0;
        end else begin
          slot_v[pos] = 1'b1;
          slot_w[pos] = word[k];
          next_pos = pos + 3'd1;
        end
      end
    end
    if (!dec_err && !order_ok) begin
      dec_err = 1'b1;
      dec_code = vliw_isa_pkg::ERR_ILLEGAL_BUNDLE;
      dec_lo = 64'(pc_q);
      dec_hi = 64'(pc_q) + 64'(nwords) - 64'd1;
    end
  end

  // Fields of each slot's op.
  wire [6:0] ls_op0 = vliw_isa_pkg::opcode_field(slot_w[0]);
  wire [6:0] ls_op1 = vliw_isa_pkg::opcode_field(slot_w[1]);
  wire [6:0] vec_op = vliw_isa_pkg::opcode_field(slot_w[2]);
  wire [6:0] scl_op = vliw_isa_pkg::opcode_field(slot_w[3]);
  wire [6:0] ctl_op = vliw_isa_pkg::opcode_field(slot_w[4]);
  wire [3:0] ctl_lock = vliw_isa_pkg::lock4_field(slot_w[4]);
  wire [31:0] next_bundle = pc_q + 32'(nwords);

  // ---------------------------------------------------------------- load/store addresses
  logic [31:0] ls_addr [2];
  logic [31:0] ls_bytes [2];
  logic [BANK_W-1:0] ls_bank [2];
  always_comb begin
    for (int unsigned s = 0; s < 2; s++) begin
      logic [6:0] op;
      op = vliw_isa_pkg::opcode_field(slot_w[s]);
      ls_addr[s] = p_q[slot_w[s][vliw_isa_pkg::S1_LSB +: 3]];
      case (op)
        vliw_isa_pkg::OP_L_VLD, vliw_isa_pkg::OP_L_VST: ls_bytes[s] = ROW_BYTES;
        vliw_isa_pkg::OP_L_VLDB: ls_bytes[s] = 32'd2;
        default: ls_bytes[s] = 32'd4;
      endcase
      ls_bank[s] = BANK_W'((ls_addr[s] >> RB_W) % DM_BANKS);
    end
  end

  // ---------------------------------------------------------------- checks before issue
  logic        chk_err;
  logic [3:0]  chk_code;
  logic [63:0] chk_lo, chk_hi;
  logic [31:0] loop_count, loop_end;
  always_comb begin
    logic [63:0] dm_a, dm_end, dram_a, dram_end, stride, rows;
    chk_err = 1'b0;
    chk_code = vliw_isa_pkg::ERR_NONE;
    chk_lo = '0;
    chk_hi = '0;
    loop_count = (ctl_op == vliw_isa_pkg::OP_C_LOOP) ? r_q[vliw_isa_pkg::s1_field(slot_w[4])]
                                                    : 32'(vliw_isa_pkg::cnt12_field(slot_w[4]));
    loop_end = next_bundle + 32'(vliw_isa_pkg::body12_field(slot_w[4]));
    dm_a = 64'(r_q[vliw_isa_pkg::dm_field(slot_w[4])]);
    dram_a = 64'(r_q[vliw_isa_pkg::dram_field(slot_w[4])]);
    stride = 64'(r_q[vliw_isa_pkg::stride_field(slot_w[4])]);
    rows = 64'(r_q[vliw_isa_pkg::rows_field(slot_w[4])]);
    dm_end = dm_a + rows * 64'(ROW_BYTES);
    dram_end = dram_a + (rows - 64'd1) * stride + 64'(ROW_BYTES);
    // A loop body ending inside this bundle.
    for (int unsigned l = 0; l < LOOP_DEPTH; l++) begin
      if (l < 32'(loop_sp_q) && loop_end_q[l] > pc_q && loop_end_q[l] < next_bundle &&
          (!chk_err || vliw_isa_pkg::ERR_LOOP_END < chk_code)) begin
        chk_err = 1'b1;
        chk_code = vliw_isa_pkg::ERR_LOOP_END;
        chk_lo = 64'(loop_end_q[l]);
        chk_hi = 64'(pc_q);
      end
    end
    // Load/store slots: range, then alignment.
    for (int unsigned s = 0; s < 2; s++) begin
      if (slot_v[s]) begin
        if (64'(ls_addr[s]) + 64'(ls_bytes[s]) > 64'(DM_BYTES) &&
            (!chk_err || vliw_isa_pkg::ERR_DM_RANGE < chk_code)) begin
          chk_err = 1'b1;
          chk_code = vliw_isa_pkg::ERR_DM_RANGE;
          chk_lo = 64'(ls_addr[s]);
          chk_hi = 64'(ls_addr[s]) + 64'(ls_bytes[s]);
        end
        if ((ls_addr[s] & (ls_bytes[s] - 32'd1)) != 0 && (!chk_err || vliw_isa_pkg::ERR_DM_ALIGN < chk_code)) begin
          chk_err = 1'b1;
          chk_code = vliw_isa_pkg::ERR_DM_ALIGN;
          chk_lo = 64'(ls_addr[s]);
          chk_hi = 64'(ls_bytes[s]);
        end
      end
    end
    // Control slot.
    if (slot_v[4]) begin
      case (ctl_op)
        vliw_isa_pkg::OP_C_LOOP, vliw_isa_pkg::OP_C_LOOPI: begin
          if (loop_count != 0) begin
            if (loop_sp_q != 0 && loop_end >= loop_end_q[top_idx] &&
                (!chk_err || vliw_isa_pkg::ERR_LOOP_NEST < chk_code)) begin
              chk_err = 1'b1;
              chk_code = vliw_isa_pkg::ERR_LOOP_NEST;
              chk_lo = 64'(loop_end);
              chk_hi = 64'(loop_end_q[top_idx]);
            end
            if (32'(loop_sp_q) >= LOOP_DEPTH && (!chk_err || vliw_isa_pkg::ERR_LOOP_OVERFLOW < chk_code)) begin
              chk_err = 1'b1;
              chk_code = vliw_isa_pkg::ERR_LOOP_OVERFLOW;
              chk_lo = 64'(loop_sp_q);
              chk_hi = '0;
            end
          end
        end
        vliw_isa_pkg::OP_C_REL: begin
          if (lock_q[ctl_lock] == 8'd255 && (!chk_err || vliw_isa_pkg::ERR_LOCK_OVERFLOW < chk_code)) begin
            chk_err = 1'b1;
            chk_code = vliw_isa_pkg::ERR_LOCK_OVERFLOW;
            chk_lo = 64'(ctl_lock);
            chk_hi = '0;
          end
        end
        vliw_isa_pkg::OP_C_DMALD, vliw_isa_pkg::OP_C_DMAST: begin
          if (rows == 0) begin
            if (!chk_err || vliw_isa_pkg::ERR_DMA_EMPTY < chk_code) begin
              chk_err = 1'b1;
              chk_code = vliw_isa_pkg::ERR_DMA_EMPTY;
              chk_lo = '0;
              chk_hi = '0;
            end
          end else begin
            if (dm_end > 64'(DM_BYTES) && (!chk_err || vliw_isa_pkg::ERR_DM_RANGE < chk_code)) begin
              chk_err = 1'b1;
              chk_code = vliw_isa_pkg::ERR_DM_RANGE;
              chk_lo = dm_a;
              chk_hi = dm_end;
            end
            if (dm_a[RB_W-1:0] != 0 && (!chk_err || vliw_isa_pkg::ERR_DM_ALIGN < chk_code)) begin
              chk_err = 1'b1;
              chk_code = vliw_isa_pkg::ERR_DM_ALIGN;
              chk_lo = dm_a;
              chk_hi = 64'(ROW_BYTES);
            end
            if (dram_end > 64'(dram_bytes_i) && (!chk_err || vliw_isa_pkg::ERR_DRAM_RANGE < chk_code)) begin
              chk_err = 1'b1;
              chk_code = vliw_isa_pkg::ERR_DRAM_RANGE;
              chk_lo = dram_a;
              chk_hi = dram_end;
            end
            if ((dram_a[0] || stride[0]) && (!chk_err || vliw_isa_pkg::ERR_DRAM_ALIGN < chk_code)) begin
              chk_err = 1'b1;
              chk_code = vliw_isa_pkg::ERR_DRAM_ALIGN;
              chk_lo = dram_a;
              chk_hi = stride;
            end
          end
        end
        default: ;
      endcase
    end
  end

  // ---------------------------------------------------------------- stalls and issue
  wire lock_stall = slot_v[4] && ctl_op == vliw_isa_pkg::OP_C_ACQ && lock_q[ctl_lock] == 8'd0;
  wire dma_op = slot_v[4] && (ctl_op == vliw_isa_pkg::OP_C_DMALD || ctl_op == vliw_isa_pkg::OP_C_DMAST);
  wire dma_stall = dma_op && dma_full_i[CH_W'(vliw_isa_pkg::ch_field(slot_w[4]))];
  wire bank_conflict = slot_v[0] && slot_v[1] && ls_bank[0] == ls_bank[1];
  logic pipe_busy, pipe_landing;

  wire drain_cycle = running_q && draining_q && (pipe_busy || landed_q || dma_busy_i);
  wire stop_now = running_q && draining_q && !drain_cycle;
  wire core_cycle = running_q && !draining_q;
  wire fault = core_cycle && (dec_err || chk_err);
  wire stall_lock = core_cycle && !fault && lock_stall;
  wire stall_dma = core_cycle && !fault && !lock_stall && dma_stall;
  wire stall_bank = core_cycle && !fault && !lock_stall && !dma_stall && bank_conflict && !bank_taken_q;
  wire issue = core_cycle && !fault && !lock_stall && !dma_stall && !(bank_conflict && !bank_taken_q);
  wire step = issue || drain_cycle;
  wire halt_op = issue && slot_v[4] && ctl_op == vliw_isa_pkg::OP_C_HALT;

  // ---------------------------------------------------------------- register reads and the vec slot
  logic [VLEN*16-1:0] va, vb, vs0, vs1;
  logic [VLEN*32-1:0] as_v, at_v, ad_v, vec_result;
  logic               vec_to_acc;
  // The unit sees the vec slot's op only in the cycle it issues (no op otherwise): its result is taken
  // then alone, and a simulator need not recompute a stalled or empty slot's lanes every cycle.
  wire vec_issue = issue && slot_v[2];
  vliw_vector_unit #(.VLEN(VLEN)) u_vector (
    .op_i     (vec_issue ? vec_op : 7'd0),
    .imm_i    (vliw_isa_pkg::imm6_field(slot_w[2])),
    .va_i     (va),
    .vb_i     (vb),
    .as_i     (as_v),
    .at_i     (at_v),
    .ad_i     (ad_v),
    .rs_i     (r_q[vliw_isa_pkg::s1_field(slot_w[2])]),
    .result_o (vec_result),
    .to_acc_o (vec_to_acc)
  );

  // Load/store data: DM rows read in the issue cycle.
  logic [1:0]            ls_vload;       // L_VLD / L_VLDB: a vector register result
  logic [2*VLEN*16-1:0]  ls_vdata;
  logic [31:0]           ls_word [2];    // L_SLD
  always_comb begin
    for (int unsigned s = 0; s < 2; s++) begin
      logic [6:0] op;
      logic [ROW_BITS-1:0] row;
      logic [RB_W-1:0] off;
      op = vliw_isa_pkg::opcode_field(slot_w[s]);
      row = dm_rdata_i[s*ROW_BITS +: ROW_BITS];
      off = ls_addr[s][RB_W-1:0];
      ls_vload[s] = issue && slot_v[s] && (op == vliw_isa_pkg::OP_L_VLD || op == vliw_isa_pkg::OP_L_VLDB);
      ls_word[s] = row[8*off +: 32];
      for (int unsigned i = 0; i < VLEN; i++) begin
        ls_vdata[s*VLEN*16 + 16*i +: 16] = (op == vliw_isa_pkg::OP_L_VLDB) ? row[8*off +: 16] : row[16*i +: 16];
      end
      dm_row_o[s*RAW +: RAW] = RAW'(ls_addr[s] >> RB_W);
      dm_we_o[s] = issue && slot_v[s] && (op == vliw_isa_pkg::OP_L_VST || op == vliw_isa_pkg::OP_L_SST);
      dm_be_o[s*2*VLEN +: 2*VLEN] = (op == vliw_isa_pkg::OP_L_VST) ? {(2*VLEN){1'b1}}
                                                                    : (2*VLEN)'(4'hf) << off;
      dm_wdata_o[s*ROW_BITS +: ROW_BITS] =
          (op == vliw_isa_pkg::OP_L_VST) ? (s == 0 ? vs0 : vs1)
                                         : ROW_BITS'(r_q[vliw_isa_pkg::d_field(slot_w[s])]) << (8 * off);
    end
  end

  vliw_result_pipe #(.VLEN(VLEN), .MAX_LAT(vliw_isa_pkg::MAX_LATENCY)) u_pipe (
    .clk_i,
    .rst_ni,
    .step_i      (step),
    .ls_valid_i  (ls_vload),
    .ls_idx_i    ({vliw_isa_pkg::d_field(slot_w[1]), vliw_isa_pkg::d_field(slot_w[0])}),
    .ls_lat_i    ({3'(vliw_isa_pkg::latency_of(ls_op1)), 3'(vliw_isa_pkg::latency_of(ls_op0))}),
    .ls_data_i   (ls_vdata),
    .vec_valid_i (vec_issue),
    .vec_to_acc_i(vec_to_acc),
    .vec_idx_i   (vliw_isa_pkg::d_field(slot_w[2])),
    .vec_lat_i   (3'(vliw_isa_pkg::latency_of(vec_op))),
    .vec_data_i  (vec_result),
    .va_idx_i    (vliw_isa_pkg::s1_field(slot_w[2])),
    .vb_idx_i    (vliw_isa_pkg::s2_field(slot_w[2])),
    .vs0_idx_i   (vliw_isa_pkg::d_field(slot_w[0])),
    .vs1_idx_i   (vliw_isa_pkg::d_field(slot_w[1])),
    .as_idx_i    (slot_w[2][vliw_isa_pkg::S1_LSB +: 3]),
    .at_idx_i    (slot_w[2][vliw_isa_pkg::S2_LSB +: 3]),
    .ad_idx_i    (slot_w[2][vliw_isa_pkg::D_LSB +: 3]),
    .va_o        (va),
    .vb_o        (vb),
    .vs0_o       (vs0),
    .vs1_o       (vs1),
    .as_o        (as_v),
    .at_o        (at_v),
    .ad_o        (ad_v),
    .busy_o      (pipe_busy),
    .landing_o   (pipe_landing),
    .dbg_en_i,
    .dbg_idx_i   (dbg_addr_i[3:0]),
    .dbg_v_o     (dbg_vreg_o),
    .dbg_a_o     (dbg_areg_o)
  );

  // ---------------------------------------------------------------- scalar slot
  logic        scl_r_we, scl_p_we;
  logic [31:0] scl_value;
  always_comb begin
    logic [31:0] a, b;
    logic [15:0] imm;
    a = r_q[vliw_isa_pkg::s1_field(slot_w[3])];
    b = r_q[vliw_isa_pkg::s2_field(slot_w[3])];
    imm = vliw_isa_pkg::imm16_field(slot_w[3]);
    scl_r_we = issue && slot_v[3];
    scl_p_we = 1'b0;
    scl_value = '0;
    case (scl_op)
      vliw_isa_pkg::OP_S_ADD: scl_value = a + b;
      vliw_isa_pkg::OP_S_SUB: scl_value = a - b;
      vliw_isa_pkg::OP_S_MUL: scl_value = a * b;
      vliw_isa_pkg::OP_S_AND: scl_value = a & b;
      vliw_isa_pkg::OP_S_OR: scl_value = a | b;
      vliw_isa_pkg::OP_S_XOR: scl_value = a ^ b;
      vliw_isa_pkg::OP_S_SLL: scl_value = a << b[4:0];
      vliw_isa_pkg::OP_S_SRL: scl_value = a >> b[4:0];
      vliw_isa_pkg::OP_S_ADDI: scl_value = a + {{16{imm[15]}}, imm};
      vliw_isa_pkg::OP_S_ORI: scl_value = a | {16'd0, imm};
      vliw_isa_pkg::OP_S_SLLI: scl_value = a << imm[4:0];
      vliw_isa_pkg::OP_S_SRLI: scl_value = a >> imm[4:0];
      vliw_isa_pkg::OP_S_LUI: scl_value = {imm, 16'd0};
      vliw_isa_pkg::OP_S_PGET: scl_value = p_q[slot_w[3][vliw_isa_pkg::S1_LSB +: 3]];
      vliw_isa_pkg::OP_S_PMOV: begin
        scl_r_we = 1'b0;
        scl_p_we = issue && slot_v[3];
        scl_value = a;
      end
      vliw_isa_pkg::OP_S_PADD: begin
        scl_r_we = 1'b0;
        scl_p_we = issue && slot_v[3];
        scl_value = p_q[slot_w[3][vliw_isa_pkg::D_LSB +: 3]] + a;
      end
      vliw_isa_pkg::OP_S_PADDI: begin
        scl_r_we = 1'b0;
        scl_p_we = issue && slot_v[3];
        scl_value = p_q[slot_w[3][vliw_isa_pkg::D_LSB +: 3]] + {{16{imm[15]}}, imm};
      end
      default: scl_r_we = 1'b0;
    endcase
  end

  // ---------------------------------------------------------------- control slot: loops and next pc
  logic [31:0]     next_pc;
  logic            loop_push, loop_back, loop_pop;
  always_comb begin
    next_pc = next_bundle;
    loop_push = 1'b0;
    loop_back = 1'b0;
    loop_pop = 1'b0;
    if (slot_v[4] && (ctl_op == vliw_isa_pkg::OP_C_LOOP || ctl_op == vliw_isa_pkg::OP_C_LOOPI)) begin
      if (loop_count == 0) next_pc = loop_end;
      else loop_push = 1'b1;
    end
    // Reaching the innermost body's end goes back to its start while iterations remain. (An enclosing
    // body ends strictly after an inner one, so only the innermost can end here.)
    if (!loop_push && loop_sp_q != 0 && next_pc == loop_end_q[top_idx]) begin
      if (loop_left_q[top_idx] > 32'd1) begin
        loop_back = 1'b1;
        next_pc = loop_start_q[top_idx];
      end else begin
        loop_pop = 1'b1;
      end
    end
  end
  wire [31:0] fetch_pc = (running_q && issue && !halt_op) ? next_pc : (running_q ? pc_q : 32'd0);
  for (genvar k = 0; k < 5; k++) begin : g_fetch
    assign imem_raddr_o[k*IM_AW +: IM_AW] = IM_AW'(fetch_pc + k);
  end

  // ---------------------------------------------------------------- DMA and locks
  assign dma_push_o = issue && dma_op;
  assign dma_ch_o = vliw_isa_pkg::ch_field(slot_w[4]);
  assign dma_store_o = ctl_op == vliw_isa_pkg::OP_C_DMAST;
  assign dma_row_o = RAW'(r_q[vliw_isa_pkg::dm_field(slot_w[4])] >> RB_W);
  assign dma_dram_o = r_q[vliw_isa_pkg::dram_field(slot_w[4])];
  assign dma_stride_o = r_q[vliw_isa_pkg::stride_field(slot_w[4])];
  assign dma_rows_o = r_q[vliw_isa_pkg::rows_field(slot_w[4])];
  assign dma_lock_o = vliw_isa_pkg::lock5_field(slot_w[4]);
  assign dma_pc_o = pc_q;

  logic [7:0] lock_core [16];  // after this cycle's C_ACQ / C_REL
  always_comb begin
    for (int unsigned l = 0; l < 16; l++) begin
      lock_core[l] = lock_q[l];
      if (issue && slot_v[4] && 32'(ctl_lock) == l) begin
        if (ctl_op == vliw_isa_pkg::OP_C_ACQ) lock_core[l] = lock_q[l] - 8'd1;
        if (ctl_op == vliw_isa_pkg::OP_C_REL) lock_core[l] = lock_q[l] + 8'd1;
      end
    end
  end
  wire dma_overflow = dma_rel_i && lock_core[dma_rel_lock_i] == 8'd255;

  // ---------------------------------------------------------------- counters
  logic [63:0] cnt_inc [NCNT];
  always_comb begin
    for (int unsigned c = 0; c < NCNT; c++) cnt_inc[c] = '0;
    cnt_inc[vliw_isa_pkg::CNT_CYCLES] = 64'(running_q && !stop_now);
    cnt_inc[vliw_isa_pkg::CNT_BUNDLES] = 64'(issue);
    cnt_inc[vliw_isa_pkg::CNT_OPS] = issue ? 64'(nwords) : 64'd0;
    cnt_inc[vliw_isa_pkg::CNT_OPS_LS0] = 64'(issue && slot_v[0]);
    cnt_inc[vliw_isa_pkg::CNT_OPS_LS1] = 64'(issue && slot_v[1]);
    cnt_inc[vliw_isa_pkg::CNT_OPS_VEC] = 64'(issue && slot_v[2]);
    cnt_inc[vliw_isa_pkg::CNT_OPS_SCL] = 64'(issue && slot_v[3]);
    cnt_inc[vliw_isa_pkg::CNT_OPS_CTL] = 64'(issue && slot_v[4]);
    cnt_inc[vliw_isa_pkg::CNT_STALL_BANK_CONFLICT] = 64'(stall_bank);
    cnt_inc[vliw_isa_pkg::CNT_STALL_LOCK_WAIT] = 64'(stall_lock);
    cnt_inc[vliw_isa_pkg::CNT_STALL_DMA_QUEUE] = 64'(stall_dma);
    cnt_inc[vliw_isa_pkg::CNT_STALL_DRAIN] = 64'(drain_cycle);
    cnt_inc[vliw_isa_pkg::CNT_DMA_BUSY] = 64'(running_q && dma_busy_i);
    cnt_inc[vliw_isa_pkg::CNT_DRAM_BYTES_READ] = dma_load_launch_i ? 64'(ROW_BYTES) : 64'd0;
    cnt_inc[vliw_isa_pkg::CNT_DRAM_BYTES_WRITTEN] = dma_store_done_i ? 64'(ROW_BYTES) : 64'd0;
    if (issue && slot_v[2]) begin
      if (vec_op == vliw_isa_pkg::OP_A_VMUL || vec_op == vliw_isa_pkg::OP_A_VMAC)
        cnt_inc[vliw_isa_pkg::CNT_MACS] = 64'(VLEN);
      if (vec_op == vliw_isa_pkg::OP_A_MMUL || vec_op == vliw_isa_pkg::OP_A_MMAC)
        cnt_inc[vliw_isa_pkg::CNT_MACS] = 64'(mmul_macs(VLEN));
    end
  end
  // M*K*N of the matrix-multiply mode: M = N = the largest power of two whose square is at most VLEN.
  function automatic int unsigned mmul_macs(input int unsigned lanes);
    int unsigned m;
    m = 1;
    for (int unsigned k = 0; k < 8; k++) begin
      if ((2 * m) * (2 * m) <= lanes) m = 2 * m;
    end
    mmul_macs = m * lanes;
  endfunction

  // ---------------------------------------------------------------- state update
  // Results written at this edge (latency 1), for the drain: the model counts a result as in flight until
  // the step at which it becomes visible.
  wire writes_now = pipe_landing || (issue && (slot_v[0] || slot_v[1] || slot_v[3]));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < 16; i++) r_q[i] <= '0;
      for (int unsigned i = 0; i < 8; i++) p_q[i] <= '0;
      for (int unsigned i = 0; i < 16; i++) lock_q[i] <= '0;
      for (int unsigned l = 0; l < LOOP_DEPTH; l++) begin
        loop_start_q[l] <= '0;
        loop_end_q[l] <= '0;
        loop_left_q[l] <= '0;
      end
      for (int unsigned c = 0; c < NCNT; c++) cnt_q[c] <= '0;
      loop_sp_q <= '0;
      pc_q <= '0;
      running_q <= 1'b0;
      stopped_q <= 1'b0;
      halted_q <= 1'b0;
      draining_q <= 1'b0;
      bank_taken_q <= 1'b0;
      landed_q <= 1'b0;
      err_code_q <= vliw_isa_pkg::ERR_NONE;
      err_pc_q <= '0;
      err_lo_q <= '0;
      err_hi_q <= '0;
      state_pc_q <= '0;
    end else if (start_i && !running_q) begin
      running_q <= 1'b1;
      stopped_q <= 1'b0;
      pc_q <= '0;
      for (int unsigned c = 0; c < NCNT; c++) cnt_q[c] <= '0;
    end else if (running_q) begin
      for (int unsigned c = 0; c < NCNT; c++) cnt_q[c] <= cnt_q[c] + cnt_inc[c];
      landed_q <= step && writes_now;
      if (stop_now) begin
        running_q <= 1'b0;
        stopped_q <= 1'b1;
      end
      if (stall_bank) bank_taken_q <= 1'b1;
      if (issue) bank_taken_q <= 1'b0;
      // errors: the core's own first, then a DMA lock release that would overflow
      if (fault) begin
        draining_q <= 1'b1;
        if (err_code_q == vliw_isa_pkg::ERR_NONE) begin
          err_code_q <= dec_err ? dec_code : chk_code;
          err_lo_q <= dec_err ? dec_lo : chk_lo;
          err_hi_q <= dec_err ? dec_hi : chk_hi;
          err_pc_q <= pc_q;
          state_pc_q <= pc_q;
        end
      end else if (dma_overflow) begin
        draining_q <= 1'b1;
        if (err_code_q == vliw_isa_pkg::ERR_NONE) begin
          err_code_q <= vliw_isa_pkg::ERR_LOCK_OVERFLOW;
          err_lo_q <= 64'(dma_rel_lock_i);
          err_hi_q <= '0;
          err_pc_q <= dma_rel_pc_i;
          state_pc_q <= dma_rel_pc_i;
        end
      end
      // locks
      for (int unsigned l = 0; l < 16; l++) begin
        lock_q[l] <= lock_core[l] + 8'(dma_rel_i && !dma_overflow && 32'(dma_rel_lock_i) == l);
      end
      if (issue) begin
        // scalar and pointer results, slot order (ls0, ls1, scl): the last write wins; r0 stays 0
        for (int unsigned s = 0; s < 2; s++) begin
          if (slot_v[s]) begin
            if (vliw_isa_pkg::opcode_field(slot_w[s]) == vliw_isa_pkg::OP_L_SLD)
              r_q[vliw_isa_pkg::d_field(slot_w[s])] <= ls_word[s];
            p_q[slot_w[s][vliw_isa_pkg::S1_LSB +: 3]] <=
                ls_addr[s] + {{20{slot_w[s][vliw_isa_pkg::INC12_LSB + 11]}}, vliw_isa_pkg::inc12_field(slot_w[s])};
          end
        end
        if (scl_r_we) r_q[vliw_isa_pkg::d_field(slot_w[3])] <= scl_value;
        if (scl_p_we) p_q[slot_w[3][vliw_isa_pkg::D_LSB +: 3]] <= scl_value;
        r_q[0] <= '0;
        // control
        if (halt_op) begin
          draining_q <= 1'b1;
          halted_q <= 1'b1;
          state_pc_q <= pc_q;
        end else begin
          pc_q <= next_pc;
        end
        if (loop_push) begin
          loop_start_q[LD_W'(loop_sp_q)] <= next_bundle;
          loop_end_q[LD_W'(loop_sp_q)] <= loop_end;
          loop_left_q[LD_W'(loop_sp_q)] <= loop_count;
          loop_sp_q <= loop_sp_q + 1'b1;
        end else if (loop_back) begin
          loop_left_q[top_idx] <= loop_left_q[top_idx] - 32'd1;
        end else if (loop_pop) begin
          loop_sp_q <= loop_sp_q - 1'b1;
        end
      end
    end
  end

  // ---------------------------------------------------------------- outputs
  assign running_o = running_q;
  assign stopped_o = stopped_q;
  assign halted_o = halted_q;
  assign draining_o = draining_q;
  assign err_code_o = err_code_q;
  assign err_pc_o = err_pc_q;
  assign err_lo_o = err_lo_q;
  assign err_hi_o = err_hi_q;
  assign pc_o = pc_q;
  assign state_pc_o = state_pc_q;
  assign loop_sp_o = 32'(loop_sp_q);
  assign issue_o = issue;
  assign issue_word_o = word[0];
  always_comb begin
    stall_o = vliw_isa_pkg::STALL_NONE;
    if (drain_cycle) stall_o = vliw_isa_pkg::STALL_DRAIN;
    else if (stall_lock) stall_o = vliw_isa_pkg::STALL_LOCK_WAIT;
    else if (stall_dma) stall_o = vliw_isa_pkg::STALL_DMA_QUEUE;
    else if (stall_bank) stall_o = vliw_isa_pkg::STALL_BANK_CONFLICT;
  end
  assign dbg_xreg_o = dbg_en_i ? r_q[dbg_addr_i[3:0]] : '0;
  assign dbg_preg_o = dbg_en_i ? p_q[dbg_addr_i[2:0]] : '0;
  assign dbg_lock_o = dbg_en_i ? lock_q[dbg_addr_i[3:0]] : '0;
  assign dbg_counter_o = (dbg_en_i && dbg_addr_i < NCNT) ? cnt_q[dbg_addr_i[$clog2(NCNT)-1:0]] : '0;
endmodule
