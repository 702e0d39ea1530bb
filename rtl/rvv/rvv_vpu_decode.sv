// rvv_vpu_decode: decodes a vector instruction for rvv_vpu (combinational): what to run, on which
// registers and element widths, and whether the instruction is legal.
//
// Legality follows QEMU 7.2's translator (target/riscv/insn_trans/trans_rvv.c.inc), the platform's
// functional reference: vill, register-group alignment to (E)MUL, the overlap rules of widening and
// narrowing operations, v0 as the destination of a masked operation, reserved encodings and fields.
// Everything outside the implemented subset (docs/rvv.md, "The vector unit") is illegal too; where QEMU
// would run such an instruction (segment, fault-only-first and EEW=64 accesses, fixed-point, add-with-
// carry, FP16 arithmetic at SEW=16, vfrec7/vfrsqrt7, vrgatherei16) the RTL stops with ERR_ILLEGAL.
module rvv_vpu_decode #(
  parameter int unsigned VLEN = 128
) (
  input  logic        en_i,         // decode: otherwise the outputs are 0 and illegal_o is 1
  input  logic [31:0] insn_i,
  input  logic [31:0] vl_i,
  input  logic [31:0] vtype_i,
  input  logic [2:0]  frm_i,
  output logic        illegal_o,
  output logic [3:0]  kind_o,       // rvv_vpu_pkg::Kind*
  output logic [4:0]  alu_op_o,     // rvv_vpu_pkg::Alu* (KindElem, KindRed)
  output logic        fp_o,         // KindElem on the FPUs
  output logic [4:0]  fpu_op_o,     // rvv_fpu_pkg::op_e
  output logic [2:0]  rm_o,
  output logic [1:0]  fpa_sel_o,    // rvv_vpu_pkg::Fp[ABC]
  output logic [1:0]  fpb_sel_o,
  output logic [1:0]  fpc_sel_o,
  output logic [2:0]  fp_post_o,    // rvv_vpu_pkg::FpPost*
  output logic [1:0]  sew_o,        // log2 bytes
  output logic [1:0]  eew_d_o,      // destination element width (log2 bytes)
  output logic [1:0]  eew_s2_o,     // vs2 element width
  output logic [1:0]  eew_s1_o,     // vs1 / scalar element width
  output logic [1:0]  beat_eew_o,   // elements per beat = 4 * LANES >> beat_eew
  output logic        s2_signed_o,  // extension of vs2 elements
  output logic        s1_signed_o,  // extension of vs1 elements and scalars
  output logic [2:0]  src_o,        // rvv_vpu_pkg::Src*
  output logic [2:0]  gather_o,     // rvv_vpu_pkg::Gather*
  output logic        mask_dest_o,  // one mask bit per element into vd
  output logic        merge_o,      // every body element is written; v0 selects the operand
  output logic        vm_o,         // unmasked
  output logic [4:0]  vd_o,
  output logic [4:0]  vs1_o,
  output logic [4:0]  vs2_o,
  output logic [31:0] evl_o,        // elements to process
  output logic [31:0] vlmax_o,
  output logic        skip_o,       // vl = 0: the instruction changes nothing
  output logic [4:0]  sh_mask_o,
  output logic [1:0]  scalar_op_o,  // rvv_vpu_pkg::Scalar*
  output logic [2:0]  mask_fn_o,    // KindMaskLogic: funct6[2:0]; KindMaskSet: 1 sbf, 2 sof, 3 sif
  output logic [1:0]  mem_mode_o,   // rvv_vpu_pkg::Mem*
  output logic [1:0]  idx_eew_o     // index element width of indexed accesses
);
  localparam int unsigned VLENB = VLEN / 8;

  // Register group helpers with QEMU's semantics; emul is log2 of the (effective) LMUL, -3..3.
  function automatic logic aligned(input logic [4:0] r, input logic signed [4:0] emul);
    logic [4:0] m;
    if (emul <= 0) m = 5'd0;
    else if (emul == 5'sd1) m = 5'd1;
    else if (emul == 5'sd2) m = 5'd3;
    else m = 5'd7;
    aligned = (r & m) == 5'd0;
  endfunction

  function automatic logic [5:0] gsize(input logic signed [4:0] emul);
    if (emul <= 0) gsize = 6'd1;
    else gsize = 6'd1 << emul;
  endfunction

  function automatic logic overlapped(input logic [4:0] a, input logic [5:0] asz, input logic [4:0] b,
                                      input logic [5:0] bsz);
    logic [6:0] aend;
    logic [6:0] bend;
    logic [6:0] hi;
    logic [6:0] lo;
    aend = 7'(a) + 7'(asz);
    bend = 7'(b) + 7'(bsz);
    hi = (aend > bend) ? aend : bend;
    lo = (a < b) ? 7'(a) : 7'(b);
    overlapped = (hi - lo) < (7'(asz) + 7'(bsz));
  endfunction

  // True when dst and src do not overlap, or when the destination is wider and the overlap is in its
  // highest-numbered part with a source EMUL of at least 1 (RVV 5.2).
  function automatic logic noover(input logic [4:0] dst, input logic signed [4:0] dst_emul,
                                  input logic [4:0] src, input logic signed [4:0] src_emul);
    logic [5:0] dsz;
    logic [5:0] ssz;
    dsz = gsize(dst_emul);
    ssz = gsize(src_emul);
    noover = !overlapped(dst, dsz, src, ssz);
    if (dsz > ssz && dst < src && src_emul >= 0 && overlapped(dst, dsz, src, ssz) &&
        !overlapped(dst, dsz, 5'(src + ssz[4:0]), ssz)) begin
      noover = 1'b1;
    end
  endfunction

  logic [6:0]        opcode;
  logic [2:0]        f3;
  logic [5:0]        f6;
  logic [4:0]        vd;
  logic [4:0]        rs1;
  logic [4:0]        vs2;
  logic              vm;
  logic              vill;
  logic [1:0]        sew;
  logic signed [4:0] lmul;
  logic [2:0]        vsew_field;
  logic              frm_ok;
  logic              is_opi;   // OPIVV / OPIVX / OPIVI
  logic              is_opm;   // OPMVV / OPMVX
  logic              is_opf;   // OPFVV / OPFVF
  logic              f3_vv;    // the vector-vector form (OPIVV, OPMVV, OPFVV)
  logic              f3_vx;    // OPIVX, OPMVX, OPFVF
  logic              f3_vi;    // OPIVI
  logic              sew32;
  logic              wide_ok;  // 2*SEW fits ELEN and 2*LMUL fits 8
  logic              chk_ss;
  logic              chk_sss;
  logic              chk_ms;
  logic              chk_mss;
  logic              chk_ds;
  logic              chk_dss;
  logic              chk_dd;
  logic              chk_dds;
  logic              chk_sd;
  logic              chk_sds;
  logic              legal;
  logic [31:0]       vlmax;
  // memory
  logic [2:0]        width;
  logic [2:0]        nf;
  logic              mew;
  logic [1:0]        mop;
  logic [1:0]        mem_eew;
  logic              mem_eew_ok;
  logic signed [4:0] emul;

  // Decoded only when the instruction is one the core hands to the unit (OP-V but vsetvl*, LOAD-FP and
  // STORE-FP with a vector width: what rvv_decode calls ClsVec); otherwise the outputs are 0 and
  // illegal_o is 1, and the core reads none of them. Operand isolation: free in simulation.
  wire [2:0] en_f3 = insn_i[14:12];
  wire en = en_i && ((insn_i[6:0] == 7'b1010111 && en_f3 != 3'b111) ||
                     ((insn_i[6:0] == 7'b0000111 || insn_i[6:0] == 7'b0100111) &&
                      (en_f3 == 3'b000 || en_f3[2:1] == 2'b11 || en_f3 == 3'b101)));

  always_comb begin
    opcode = '0;
    f3 = '0;
    f6 = '0;
    vd = '0;
    rs1 = '0;
    vs2 = '0;
    vm = '0;
    vill = '0;
    sew = '0;
    lmul = '0;
    vsew_field = '0;
    frm_ok = '0;
    is_opi = '0;
    is_opm = '0;
    is_opf = '0;
    f3_vv = '0;
    f3_vx = '0;
    f3_vi = '0;
    sew32 = '0;
    wide_ok = '0;
    chk_ss = '0;
    chk_sss = '0;
    chk_ms = '0;
    chk_mss = '0;
    chk_ds = '0;
    chk_dss = '0;
    chk_dd = '0;
    chk_dds = '0;
    chk_sd = '0;
    chk_sds = '0;
    legal = '0;
    vlmax = '0;
    width = '0;
    nf = '0;
    mew = '0;
    mop = '0;
    mem_eew = '0;
    mem_eew_ok = '0;
    emul = '0;
    kind_o = '0;
    alu_op_o = '0;
    fp_o = '0;
    fpu_op_o = '0;
    rm_o = '0;
    fpa_sel_o = '0;
    fpb_sel_o = '0;
    fpc_sel_o = '0;
    fp_post_o = '0;
    sew_o = '0;
    eew_d_o = '0;
    eew_s2_o = '0;
    eew_s1_o = '0;
    beat_eew_o = '0;
    s2_signed_o = '0;
    s1_signed_o = '0;
    src_o = '0;
    gather_o = '0;
    mask_dest_o = '0;
    merge_o = '0;
    vm_o = '0;
    vd_o = '0;
    vs1_o = '0;
    vs2_o = '0;
    evl_o = '0;
    vlmax_o = '0;
    skip_o = '0;
    sh_mask_o = '0;
    scalar_op_o = '0;
    mask_fn_o = '0;
    mem_mode_o = '0;
    idx_eew_o = '0;
    illegal_o = 1'b1;
    if (en) begin
      opcode = insn_i[6:0];
      f3 = insn_i[14:12];
      f6 = insn_i[31:26];
      vd = insn_i[11:7];
      rs1 = insn_i[19:15];
      vs2 = insn_i[24:20];
      vm = insn_i[25];
      width = insn_i[14:12];
      nf = insn_i[31:29];
      mew = insn_i[28];
      mop = insn_i[27:26];
      vill = vtype_i[31];
      vsew_field = vtype_i[5:3];
      sew = vsew_field[1:0];
      lmul = 5'($signed(vtype_i[2:0]));
      frm_ok = frm_i <= 3'd4;
      is_opi = opcode == 7'b1010111 && (f3 == 3'd0 || f3 == 3'd3 || f3 == 3'd4);
      is_opm = opcode == 7'b1010111 && (f3 == 3'd2 || f3 == 3'd6);
      is_opf = opcode == 7'b1010111 && (f3 == 3'd1 || f3 == 3'd5);
      f3_vv = f3 == 3'd0 || f3 == 3'd1 || f3 == 3'd2;
      f3_vx = f3 == 3'd4 || f3 == 3'd5 || f3 == 3'd6;
      f3_vi = f3 == 3'd3;
      sew32 = sew == 2'd2;
      wide_ok = sew <= 2'd1 && lmul <= 5'sd2;
      if (lmul >= 0) vlmax = (32'(VLENB) << lmul) >> sew;
      else vlmax = (32'(VLENB) >> (-lmul)) >> sew;

      // QEMU's check functions (trans_rvv.c.inc), vd/vs1/vs2 from the instruction.
      chk_ss = (vm || vd != 5'd0) && aligned(vd, lmul) && aligned(vs2, lmul);
      chk_sss = chk_ss && aligned(rs1, lmul);
      chk_ms = aligned(vs2, lmul) && (vd == vs2 || noover(vd, 5'sd0, vs2, lmul));
      chk_mss = chk_ms && aligned(rs1, lmul) && (vd == rs1 || noover(vd, 5'sd0, rs1, lmul));
      chk_ds = wide_ok && aligned(vd, lmul + 5'sd1) && (vm || vd != 5'd0) && aligned(vs2, lmul) &&
               noover(vd, lmul + 5'sd1, vs2, lmul);
      chk_dss = chk_ds && aligned(rs1, lmul) && noover(vd, lmul + 5'sd1, rs1, lmul);
      chk_dd = wide_ok && aligned(vd, lmul + 5'sd1) && (vm || vd != 5'd0) && aligned(vs2, lmul + 5'sd1);
      chk_dds = wide_ok && aligned(vd, lmul + 5'sd1) && (vm || vd != 5'd0) && aligned(rs1, lmul) &&
                noover(vd, lmul + 5'sd1, rs1, lmul) && aligned(vs2, lmul + 5'sd1);
      chk_sd = wide_ok && aligned(vs2, lmul + 5'sd1) && aligned(vd, lmul) && (vm || vd != 5'd0) &&
               (vd == vs2 || noover(vd, lmul, vs2, lmul + 5'sd1));
      chk_sds = chk_sd && aligned(rs1, lmul);

      // Defaults: an element-wise single-width integer operation.
      legal = 1'b0;
      sew_o = sew;
      kind_o = rvv_vpu_pkg::KindElem;
      alu_op_o = rvv_vpu_pkg::AluMovA;
      fp_o = 1'b0;
      fpu_op_o = rvv_fpu_pkg::OpAdd;
      rm_o = frm_i;
      fpa_sel_o = rvv_vpu_pkg::FpA;
      fpb_sel_o = rvv_vpu_pkg::FpB;
      fpc_sel_o = rvv_vpu_pkg::FpC;
      fp_post_o = rvv_vpu_pkg::FpPostNone;
      eew_d_o = sew;
      eew_s2_o = sew;
      eew_s1_o = sew;
      beat_eew_o = sew;
      s2_signed_o = 1'b0;
      s1_signed_o = 1'b0;
      src_o = f3_vv ? rvv_vpu_pkg::SrcVs1 : (f3_vi ? rvv_vpu_pkg::SrcSimm : rvv_vpu_pkg::SrcX);
      gather_o = rvv_vpu_pkg::GatherNone;
      mask_dest_o = 1'b0;
      merge_o = 1'b0;
      vm_o = vm;
      vd_o = vd;
      vs1_o = rs1;
      vs2_o = vs2;
      evl_o = vl_i;
      vlmax_o = vlmax;
      sh_mask_o = 5'((8 << sew) - 1);
      scalar_op_o = rvv_vpu_pkg::ScalarMvXS;
      mask_fn_o = f6[2:0];
      mem_mode_o = rvv_vpu_pkg::MemUnit;
      idx_eew_o = 2'd0;
      mem_eew = 2'd0;
      mem_eew_ok = 1'b0;
      emul = 5'sd0;

      if (is_opi) begin
        // OPIVV / OPIVX / OPIVI
        unique case (f6)
          6'b000000: begin alu_op_o = rvv_vpu_pkg::AluAdd; legal = f3_vv ? chk_sss : chk_ss; end
          6'b000010: begin alu_op_o = rvv_vpu_pkg::AluSub; legal = !f3_vi && (f3_vv ? chk_sss : chk_ss); end
          6'b000011: begin alu_op_o = rvv_vpu_pkg::AluRsub; legal = !f3_vv && chk_ss; end
          6'b000100, 6'b000101, 6'b000110, 6'b000111: begin
            alu_op_o = f6[1] ? rvv_vpu_pkg::AluMax : rvv_vpu_pkg::AluMin;
            s2_signed_o = f6[0];
            s1_signed_o = f6[0];
            legal = !f3_vi && (f3_vv ? chk_sss : chk_ss);
          end
          6'b001001: begin alu_op_o = rvv_vpu_pkg::AluAnd; legal = f3_vv ? chk_sss : chk_ss; end
          6'b001010: begin alu_op_o = rvv_vpu_pkg::AluOr; legal = f3_vv ? chk_sss : chk_ss; end
          6'b001011: begin alu_op_o = rvv_vpu_pkg::AluXor; legal = f3_vv ? chk_sss : chk_ss; end
          6'b001100: begin  // vrgather.vv/vx/vi
            alu_op_o = rvv_vpu_pkg::AluMovA;
            if (f3_vi) src_o = rvv_vpu_pkg::SrcUimm;
            gather_o = f3_vv ? rvv_vpu_pkg::GatherVv : rvv_vpu_pkg::GatherScalar;
            legal = aligned(vd, lmul) && aligned(vs2, lmul) && vd != vs2 && (vm || vd != 5'd0) &&
                    (!f3_vv || (aligned(rs1, lmul) && vd != rs1));
          end
          6'b001110, 6'b001111: begin  // vslideup / vslidedown .vx/.vi (.vv is vrgatherei16: not here)
            alu_op_o = rvv_vpu_pkg::AluMovA;
            if (f3_vi) src_o = rvv_vpu_pkg::SrcUimm;
            gather_o = f6[0] ? rvv_vpu_pkg::GatherDown : rvv_vpu_pkg::GatherUp;
            legal = !f3_vv && aligned(vs2, lmul) && aligned(vd, lmul) && (vm || vd != 5'd0) &&
                    (f6[0] || vd != vs2);
          end
          6'b010111: begin  // vmerge (vm=0) / vmv.v.* (vm=1, vs2=0)
            if (!vm) begin
              alu_op_o = rvv_vpu_pkg::AluMerge;
              merge_o = 1'b1;
              legal = vd != 5'd0 && aligned(vd, lmul) && aligned(vs2, lmul) && (!f3_vv || aligned(rs1, lmul));
            end else begin
              alu_op_o = rvv_vpu_pkg::AluMovB;
              legal = vs2 == 5'd0 && aligned(vd, lmul) && (!f3_vv || aligned(rs1, lmul));
            end
          end
          6'b011000, 6'b011001: begin  // vmseq, vmsne
            alu_op_o = f6[0] ? rvv_vpu_pkg::AluSne : rvv_vpu_pkg::AluSeq;
            mask_dest_o = 1'b1;
            legal = f3_vv ? chk_mss : chk_ms;
          end
          6'b011010, 6'b011011, 6'b011100, 6'b011101: begin  // vmsltu, vmslt, vmsleu, vmsle
            alu_op_o = f6[2] ? rvv_vpu_pkg::AluSle : rvv_vpu_pkg::AluSlt;
            s2_signed_o = f6[0];
            s1_signed_o = f6[0];
            mask_dest_o = 1'b1;
            legal = (f6[2] || !f3_vi) && (f3_vv ? chk_mss : chk_ms);
          end
          6'b011110, 6'b011111: begin  // vmsgtu, vmsgt (.vx/.vi)
            alu_op_o = rvv_vpu_pkg::AluSgt;
            s2_signed_o = f6[0];
            s1_signed_o = f6[0];
            mask_dest_o = 1'b1;
            legal = !f3_vv && chk_ms;
          end
          6'b100101: begin
            alu_op_o = rvv_vpu_pkg::AluSll;
            if (f3_vi) src_o = rvv_vpu_pkg::SrcUimm;
            legal = f3_vv ? chk_sss : chk_ss;
          end
          6'b101000, 6'b101001: begin  // vsrl, vsra
            alu_op_o = rvv_vpu_pkg::AluSr;
            s2_signed_o = f6[0];
            if (f3_vi) src_o = rvv_vpu_pkg::SrcUimm;
            legal = f3_vv ? chk_sss : chk_ss;
          end
          6'b100111: begin  // vmv<nr>r.v (OPIVI, vm=1); vsmul otherwise (not implemented)
            alu_op_o = rvv_vpu_pkg::AluMovA;
            eew_d_o = 2'd2;
            eew_s2_o = 2'd2;
            eew_s1_o = 2'd2;
            beat_eew_o = 2'd2;
            vm_o = 1'b1;
            evl_o = 32'((VLEN / 32) * (32'(rs1) + 1));
            legal = f3_vi && vm && (rs1 == 5'd0 || rs1 == 5'd1 || rs1 == 5'd3 || rs1 == 5'd7) &&
                    ((vd & rs1) == 5'd0) && ((vs2 & rs1) == 5'd0);
          end
          6'b101100, 6'b101101: begin  // vnsrl, vnsra .wv/.wx/.wi
            alu_op_o = rvv_vpu_pkg::AluSr;
            s2_signed_o = f6[0];
            eew_s2_o = sew + 2'd1;
            beat_eew_o = sew + 2'd1;
            sh_mask_o = 5'((16 << sew) - 1);
            if (f3_vi) src_o = rvv_vpu_pkg::SrcUimm;
            legal = f3_vv ? chk_sds : chk_sd;
          end
          6'b110000, 6'b110001: begin  // vwredsumu, vwredsum
            kind_o = rvv_vpu_pkg::KindRed;
            alu_op_o = rvv_vpu_pkg::AluAdd;
            s2_signed_o = f6[0];
            s1_signed_o = f6[0];
            eew_d_o = sew + 2'd1;
            eew_s1_o = sew + 2'd1;
            legal = f3_vv && sew <= 2'd1 && aligned(vs2, lmul);
          end
          default: legal = 1'b0;
        endcase
        if (vill) legal = 1'b0;
        // vmv<nr>r.v ignores vtype (QEMU does not check vill for it).
        if (f6 == 6'b100111 && f3_vi && vm && (rs1 == 5'd0 || rs1 == 5'd1 || rs1 == 5'd3 || rs1 == 5'd7) &&
            ((vd & rs1) == 5'd0) && ((vs2 & rs1) == 5'd0)) begin
          legal = 1'b1;
        end
      end else if (is_opm) begin
        unique case (f6)
          6'b000000, 6'b000001, 6'b000010, 6'b000011, 6'b000100, 6'b000101, 6'b000110, 6'b000111: begin
            // vredsum, vredand, vredor, vredxor, vredminu, vredmin, vredmaxu, vredmax
            kind_o = rvv_vpu_pkg::KindRed;
            unique case (f6[2:0])
              3'd0: alu_op_o = rvv_vpu_pkg::AluAdd;
              3'd1: alu_op_o = rvv_vpu_pkg::AluAnd;
              3'd2: alu_op_o = rvv_vpu_pkg::AluOr;
              3'd3: alu_op_o = rvv_vpu_pkg::AluXor;
              3'd4, 3'd5: alu_op_o = rvv_vpu_pkg::AluMin;
              default: alu_op_o = rvv_vpu_pkg::AluMax;
            endcase
            s2_signed_o = f6[2] && f6[0];
            s1_signed_o = f6[2] && f6[0];
            legal = f3_vv && aligned(vs2, lmul);
          end
          6'b001110, 6'b001111: begin  // vslide1up, vslide1down (.vx)
            alu_op_o = rvv_vpu_pkg::AluMovA;
            gather_o = f6[0] ? rvv_vpu_pkg::Gather1Down : rvv_vpu_pkg::Gather1Up;
            legal = f3_vx && aligned(vs2, lmul) && aligned(vd, lmul) && (vm || vd != 5'd0) &&
                    (f6[0] || vd != vs2);
          end
          6'b010000: begin
            if (f3_vv) begin  // VWXUNARY0: vmv.x.s, vcpop.m, vfirst.m
              kind_o = rvv_vpu_pkg::KindScalar;
              if (rs1 == 5'b00000) begin
                scalar_op_o = rvv_vpu_pkg::ScalarMvXS;
                legal = vm;
              end else if (rs1 == 5'b10000) begin
                scalar_op_o = rvv_vpu_pkg::ScalarCpop;
                legal = 1'b1;
              end else if (rs1 == 5'b10001) begin
                scalar_op_o = rvv_vpu_pkg::ScalarFirst;
                legal = 1'b1;
              end
            end else begin  // RXUNARY0: vmv.s.x
              alu_op_o = rvv_vpu_pkg::AluMovB;
              evl_o = (vl_i != 32'd0) ? 32'd1 : 32'd0;
              legal = vm && vs2 == 5'd0;
            end
          end
          6'b010010: begin  // VXUNARY0: vzext / vsext .vf2/.vf4/.vf8
            alu_op_o = rvv_vpu_pkg::AluMovA;
            s2_signed_o = rs1[0];
            legal = f3_vv && (rs1 == 5'd2 || rs1 == 5'd3 || rs1 == 5'd4 || rs1 == 5'd5 || rs1 == 5'd6 ||
                              rs1 == 5'd7);
            // rs1[2:1]: 1 = vf8, 2 = vf4, 3 = vf2; the source is SEW / factor, at least 8 bits.
            unique case (rs1[2:1])
              2'd1: begin
                legal = legal && 1'b0;  // vf8 needs SEW=64
              end
              2'd2: begin
                legal = legal && sew == 2'd2 && vd != vs2 && aligned(vd, lmul) && aligned(vs2, lmul - 5'sd2) &&
                        (vm || vd != 5'd0) && noover(vd, lmul, vs2, lmul - 5'sd2);
                eew_s2_o = 2'd0;
              end
              default: begin
                legal = legal && sew >= 2'd1 && vd != vs2 && aligned(vd, lmul) &&
                        aligned(vs2, lmul - 5'sd1) && (vm || vd != 5'd0) && noover(vd, lmul, vs2, lmul - 5'sd1);
                eew_s2_o = sew - 2'd1;
              end
            endcase
          end
          6'b010100: begin  // VMUNARY0: vmsbf, vmsof, vmsif, viota, vid
            if (rs1 == 5'b00001 || rs1 == 5'b00010 || rs1 == 5'b00011) begin
              kind_o = rvv_vpu_pkg::KindMaskSet;
              mask_fn_o = rs1[2:0];
              legal = f3_vv && (vm || vd != 5'd0) && vd != vs2;
            end else if (rs1 == 5'b10000) begin
              alu_op_o = rvv_vpu_pkg::AluIota;
              legal = f3_vv && !overlapped(vd, gsize(lmul), vs2, 6'd1) && (vm || vd != 5'd0) &&
                      aligned(vd, lmul);
            end else if (rs1 == 5'b10001) begin
              alu_op_o = rvv_vpu_pkg::AluId;
              legal = f3_vv && vs2 == 5'd0 && aligned(vd, lmul) && (vm || vd != 5'd0);
            end
          end
          6'b010111: begin  // vcompress.vm
            kind_o = rvv_vpu_pkg::KindCompress;
            legal = f3_vv && vm && aligned(vd, lmul) && aligned(vs2, lmul) && vd != vs2 &&
                    !overlapped(vd, gsize(lmul), rs1, 6'd1);
          end
          6'b011000, 6'b011001, 6'b011010, 6'b011011, 6'b011100, 6'b011101, 6'b011110, 6'b011111: begin
            kind_o = rvv_vpu_pkg::KindMaskLogic;
            legal = f3_vv && vm;
          end
          6'b100000, 6'b100001, 6'b100010, 6'b100011: begin  // vdivu, vdiv, vremu, vrem
            alu_op_o = f6[1] ? rvv_vpu_pkg::AluRem : rvv_vpu_pkg::AluDiv;
            s2_signed_o = f6[0];
            s1_signed_o = f6[0];
            beat_eew_o = 2'd2;  // 32-bit slots only
            legal = f3_vv ? chk_sss : chk_ss;
          end
          6'b100100, 6'b100101, 6'b100110, 6'b100111: begin  // vmulhu, vmul, vmulhsu, vmulh
            alu_op_o = (f6[1:0] == 2'b01) ? rvv_vpu_pkg::AluMul : rvv_vpu_pkg::AluMulh;
            s2_signed_o = f6[1:0] != 2'b00;
            s1_signed_o = f6[1:0] == 2'b11;
            legal = f3_vv ? chk_sss : chk_ss;
          end
          6'b101001: begin alu_op_o = rvv_vpu_pkg::AluMadd; legal = f3_vv ? chk_sss : chk_ss; end
          6'b101011: begin alu_op_o = rvv_vpu_pkg::AluNmsub; legal = f3_vv ? chk_sss : chk_ss; end
          6'b101101: begin alu_op_o = rvv_vpu_pkg::AluMacc; legal = f3_vv ? chk_sss : chk_ss; end
          6'b101111: begin alu_op_o = rvv_vpu_pkg::AluNmsac; legal = f3_vv ? chk_sss : chk_ss; end
          6'b110000, 6'b110001, 6'b110010, 6'b110011: begin  // vwaddu, vwadd, vwsubu, vwsub
            alu_op_o = f6[1] ? rvv_vpu_pkg::AluSub : rvv_vpu_pkg::AluAdd;
            s2_signed_o = f6[0];
            s1_signed_o = f6[0];
            eew_d_o = sew + 2'd1;
            beat_eew_o = sew + 2'd1;
            legal = f3_vv ? chk_dss : chk_ds;
          end
          6'b110100, 6'b110101, 6'b110110, 6'b110111: begin  // vwaddu.w, vwadd.w, vwsubu.w, vwsub.w
            alu_op_o = f6[1] ? rvv_vpu_pkg::AluSub : rvv_vpu_pkg::AluAdd;
            s2_signed_o = f6[0];
            s1_signed_o = f6[0];
            eew_d_o = sew + 2'd1;
            eew_s2_o = sew + 2'd1;
            beat_eew_o = sew + 2'd1;
            legal = f3_vv ? chk_dds : chk_dd;
          end
          6'b111000, 6'b111010, 6'b111011: begin  // vwmulu, vwmulsu, vwmul
            alu_op_o = rvv_vpu_pkg::AluMul;
            s2_signed_o = f6[1];
            s1_signed_o = f6[1] && f6[0];
            eew_d_o = sew + 2'd1;
            beat_eew_o = sew + 2'd1;
            legal = f3_vv ? chk_dss : chk_ds;
          end
          6'b111100, 6'b111101, 6'b111110, 6'b111111: begin  // vwmaccu, vwmacc, vwmaccus, vwmaccsu
            alu_op_o = rvv_vpu_pkg::AluMacc;
            // vwmacc: both signed; vwmaccsu: vs1 signed, vs2 unsigned; vwmaccus: rs1 unsigned, vs2 signed.
            s2_signed_o = f6[1:0] == 2'b01 || f6[1:0] == 2'b10;
            s1_signed_o = f6[1:0] == 2'b01 || f6[1:0] == 2'b11;
            eew_d_o = sew + 2'd1;
            beat_eew_o = sew + 2'd1;
            legal = (f6[1:0] != 2'b10 || f3_vx) && (f3_vv ? chk_dss : chk_ds);
          end
          default: legal = 1'b0;
        endcase
        if (vill) legal = 1'b0;
      end else if (is_opf) begin
        fp_o = 1'b1;
        src_o = f3_vv ? rvv_vpu_pkg::SrcVs1 : rvv_vpu_pkg::SrcF;
        unique case (f6)
          6'b000000, 6'b000010, 6'b100100: begin  // vfadd, vfsub, vfmul
            fpu_op_o = (f6 == 6'b000000) ? rvv_fpu_pkg::OpAdd :
                       (f6 == 6'b000010) ? rvv_fpu_pkg::OpSub : rvv_fpu_pkg::OpMul;
            legal = frm_ok && (f3_vv ? chk_sss : chk_ss);
          end
          6'b000100, 6'b000110: begin  // vfmin, vfmax
            fpu_op_o = f6[1] ? rvv_fpu_pkg::OpMax : rvv_fpu_pkg::OpMin;
            legal = frm_ok && (f3_vv ? chk_sss : chk_ss);
          end
          6'b001000, 6'b001001, 6'b001010: begin  // vfsgnj, vfsgnjn, vfsgnjx
            fpu_op_o = (f6[1:0] == 2'd0) ? rvv_fpu_pkg::OpSgnj :
                       (f6[1:0] == 2'd1) ? rvv_fpu_pkg::OpSgnjn : rvv_fpu_pkg::OpSgnjx;
            legal = frm_ok && (f3_vv ? chk_sss : chk_ss);
          end
          6'b000001, 6'b000011, 6'b000101, 6'b000111: begin  // vfredusum, vfredosum, vfredmin, vfredmax
            kind_o = rvv_vpu_pkg::KindFred;
            fpu_op_o = (f6[2:1] == 2'b00 || f6[2:1] == 2'b01) ? rvv_fpu_pkg::OpAdd :
                       (f6[2:1] == 2'b10) ? rvv_fpu_pkg::OpMin : rvv_fpu_pkg::OpMax;
            legal = frm_ok && f3_vv && aligned(vs2, lmul);
          end
          6'b001110, 6'b001111: begin  // vfslide1up, vfslide1down
            fp_o = 1'b0;
            alu_op_o = rvv_vpu_pkg::AluMovA;
            gather_o = f6[0] ? rvv_vpu_pkg::Gather1Down : rvv_vpu_pkg::Gather1Up;
            legal = f3_vx && aligned(vs2, lmul) && aligned(vd, lmul) && (vm || vd != 5'd0) &&
                    (f6[0] || vd != vs2);
          end
          6'b010000: begin
            fp_o = 1'b0;
            if (f3_vv) begin  // vfmv.f.s
              kind_o = rvv_vpu_pkg::KindScalar;
              scalar_op_o = rvv_vpu_pkg::ScalarMvXS;
              legal = vm && rs1 == 5'd0;
            end else begin  // vfmv.s.f
              alu_op_o = rvv_vpu_pkg::AluMovB;
              evl_o = (vl_i != 32'd0) ? 32'd1 : 32'd0;
              legal = vm && vs2 == 5'd0;
            end
          end
          6'b010010: begin  // VFUNARY0: conversions
            legal = f3_vv && frm_ok;
            unique case (rs1)
              5'b00000: fpu_op_o = rvv_fpu_pkg::OpCvtWuS;
              5'b00001: fpu_op_o = rvv_fpu_pkg::OpCvtWS;
              5'b00010: fpu_op_o = rvv_fpu_pkg::OpCvtSWu;
              5'b00011: fpu_op_o = rvv_fpu_pkg::OpCvtSW;
              5'b00110: begin fpu_op_o = rvv_fpu_pkg::OpCvtWuS; rm_o = rvv_fpu_pkg::RmRtz; legal = f3_vv; end
              5'b00111: begin fpu_op_o = rvv_fpu_pkg::OpCvtWS; rm_o = rvv_fpu_pkg::RmRtz; legal = f3_vv; end
              5'b01010, 5'b01011: begin  // vfwcvt.f.xu.v, vfwcvt.f.x.v: int16 -> f32
                fpu_op_o = rs1[0] ? rvv_fpu_pkg::OpCvtSW : rvv_fpu_pkg::OpCvtSWu;
                s2_signed_o = rs1[0];
                eew_d_o = 2'd2;
                eew_s2_o = 2'd1;
                beat_eew_o = 2'd2;
              end
              5'b10000, 5'b10001, 5'b10110, 5'b10111: begin  // vfncvt[.rtz].x[u].f.w: f32 -> int16
                fpu_op_o = rs1[0] ? rvv_fpu_pkg::OpCvtWS : rvv_fpu_pkg::OpCvtWuS;
                fp_post_o = rs1[0] ? rvv_vpu_pkg::FpPostNarrowS : rvv_vpu_pkg::FpPostNarrowU;
                if (rs1[2]) begin
                  rm_o = rvv_fpu_pkg::RmRtz;
                  legal = f3_vv;
                end
                eew_d_o = 2'd1;
                eew_s2_o = 2'd2;
                beat_eew_o = 2'd2;
              end
              default: legal = 1'b0;
            endcase
            if (rs1[4:3] == 2'b01) begin
              legal = legal && sew == 2'd1 && chk_ds;
            end else if (rs1[4:3] == 2'b10) begin
              legal = legal && sew == 2'd1 && chk_sd;
            end else begin
              legal = legal && sew32 && chk_ss;
            end
          end
          6'b010011: begin  // VFUNARY1: vfsqrt, vfclass
            fpu_op_o = (rs1 == 5'b10000) ? rvv_fpu_pkg::OpClass : rvv_fpu_pkg::OpSqrt;
            legal = f3_vv && (rs1 == 5'b00000 || rs1 == 5'b10000) && frm_ok && chk_ss;
          end
          6'b010111: begin  // vfmerge.vfm (vm=0) / vfmv.v.f (vm=1, vs2=0)
            fp_o = 1'b0;
            if (!vm) begin
              alu_op_o = rvv_vpu_pkg::AluMerge;
              merge_o = 1'b1;
              legal = f3_vx && vd != 5'd0 && aligned(vd, lmul) && aligned(vs2, lmul);
            end else begin
              alu_op_o = rvv_vpu_pkg::AluMovB;
              legal = f3_vx && vs2 == 5'd0 && aligned(vd, lmul);
            end
          end
          6'b011000, 6'b011001, 6'b011011, 6'b011100: begin  // vmfeq, vmfle, vmflt, vmfne
            fpu_op_o = (f6[1:0] == 2'b01) ? rvv_fpu_pkg::OpLe :
                       (f6[1:0] == 2'b11) ? rvv_fpu_pkg::OpLt : rvv_fpu_pkg::OpEq;
            fp_post_o = (f6 == 6'b011100) ? rvv_vpu_pkg::FpPostCmpNot : rvv_vpu_pkg::FpPostCmp;
            mask_dest_o = 1'b1;
            legal = frm_ok && (f3_vv ? chk_mss : chk_ms);
          end
          6'b011101, 6'b011111: begin  // vmfgt.vf, vmfge.vf: b < a, b <= a
            fpu_op_o = f6[1] ? rvv_fpu_pkg::OpLe : rvv_fpu_pkg::OpLt;
            fpa_sel_o = rvv_vpu_pkg::FpB;
            fpb_sel_o = rvv_vpu_pkg::FpA;
            fp_post_o = rvv_vpu_pkg::FpPostCmp;
            mask_dest_o = 1'b1;
            legal = frm_ok && f3_vx && chk_ms;
          end
          6'b100000: begin  // vfdiv
            fpu_op_o = rvv_fpu_pkg::OpDiv;
            legal = frm_ok && (f3_vv ? chk_sss : chk_ss);
          end
          6'b100001, 6'b100111: begin  // vfrdiv.vf, vfrsub.vf: b / a, b - a
            fpu_op_o = f6[2] ? rvv_fpu_pkg::OpSub : rvv_fpu_pkg::OpDiv;
            fpa_sel_o = rvv_vpu_pkg::FpB;
            fpb_sel_o = rvv_vpu_pkg::FpA;
            legal = frm_ok && f3_vx && chk_ss;
          end
          6'b101000, 6'b101001, 6'b101010, 6'b101011: begin  // vfmadd, vfnmadd, vfmsub, vfnmsub: b*c (+-) a
            fpu_op_o = (f6[1:0] == 2'd0) ? rvv_fpu_pkg::OpMadd : (f6[1:0] == 2'd1) ? rvv_fpu_pkg::OpNmadd :
                       (f6[1:0] == 2'd2) ? rvv_fpu_pkg::OpMsub : rvv_fpu_pkg::OpNmsub;
            fpa_sel_o = rvv_vpu_pkg::FpB;
            fpb_sel_o = rvv_vpu_pkg::FpC;
            fpc_sel_o = rvv_vpu_pkg::FpA;
            legal = frm_ok && (f3_vv ? chk_sss : chk_ss);
          end
          6'b101100, 6'b101101, 6'b101110, 6'b101111: begin  // vfmacc, vfnmacc, vfmsac, vfnmsac: b*a (+-) c
            fpu_op_o = (f6[1:0] == 2'd0) ? rvv_fpu_pkg::OpMadd : (f6[1:0] == 2'd1) ? rvv_fpu_pkg::OpNmadd :
                       (f6[1:0] == 2'd2) ? rvv_fpu_pkg::OpMsub : rvv_fpu_pkg::OpNmsub;
            fpa_sel_o = rvv_vpu_pkg::FpB;
            fpb_sel_o = rvv_vpu_pkg::FpA;
            fpc_sel_o = rvv_vpu_pkg::FpC;
            legal = frm_ok && (f3_vv ? chk_sss : chk_ss);
          end
          default: legal = 1'b0;
        endcase
        // Zve32f: FP elements are 32-bit (the conversions set their own widths above).
        if (f6 != 6'b010010 && !sew32) legal = 1'b0;
        if (vill) legal = 1'b0;
      end else if (opcode == 7'b0000111 || opcode == 7'b0100111) begin
        // Vector loads (LOAD-FP) and stores (STORE-FP); widths 000/101/110 are EEW 8/16/32.
        kind_o = (opcode == 7'b0000111) ? rvv_vpu_pkg::KindLoad : rvv_vpu_pkg::KindStore;
        mem_eew_ok = width == 3'b000 || width == 3'b101 || width == 3'b110;
        mem_eew = (width == 3'b000) ? 2'd0 : (width == 3'b101) ? 2'd1 : 2'd2;
        emul = lmul + 5'($signed({3'b000, mem_eew})) - 5'($signed({3'b000, sew}));
        eew_d_o = mem_eew;
        eew_s2_o = mem_eew;
        if (mop == 2'b00) begin
          mem_mode_o = rvv_vpu_pkg::MemUnit;
          if (vs2 == 5'b00000) begin  // vle / vse
            legal = !vill && mem_eew_ok && !mew && nf == 3'd0 && emul >= -5'sd3 && emul <= 5'sd3 &&
                    aligned(vd, emul) && (opcode == 7'b0100111 || vm || vd != 5'd0);
          end else if (vs2 == 5'b01000) begin  // whole registers: vl<n>re<eew>, vs<n>r (width 000)
            legal = mem_eew_ok && !mew && vm && (nf == 3'd0 || nf == 3'd1 || nf == 3'd3 || nf == 3'd7) &&
                    ((vd & {2'b00, nf}) == 5'd0) && (opcode == 7'b0000111 || width == 3'b000);
            evl_o = (32'(VLENB) * (32'(nf) + 1)) >> mem_eew;
          end else if (vs2 == 5'b01011) begin  // vlm.v / vsm.v
            legal = !vill && width == 3'b000 && !mew && vm && nf == 3'd0;
            evl_o = (vl_i + 32'd7) >> 3;
          end
        end else begin
          mem_mode_o = (mop == 2'b10) ? rvv_vpu_pkg::MemStrided : rvv_vpu_pkg::MemIndexed;
          legal = !vill && mem_eew_ok && !mew && nf == 3'd0 && (opcode == 7'b0100111 || vm || vd != 5'd0);
          if (mop == 2'b10) begin
            legal = legal && emul >= -5'sd3 && emul <= 5'sd3 && aligned(vd, emul);
          end else begin
            // Indexed: the data has SEW and LMUL, the index (vs2) the instruction's EEW and EMUL.
            idx_eew_o = mem_eew;
            eew_d_o = sew;
            eew_s2_o = mem_eew;
            legal = legal && emul >= -5'sd3 && emul <= 5'sd3 && aligned(vs2, emul) && aligned(vd, lmul);
            if (opcode == 7'b0000111) begin
              if (mem_eew > sew) legal = legal && (vd == vs2 || noover(vd, lmul, vs2, emul));
              else if (mem_eew < sew) legal = legal && noover(vd, lmul, vs2, emul);
            end
          end
        end
      end

      // Instructions that depend on vl do nothing when it is 0 (QEMU skips them entirely); whole-register
      // moves, loads and stores ignore vl, and the scalar results are defined for vl = 0.
      skip_o = evl_o == 32'd0 && kind_o != rvv_vpu_pkg::KindScalar;
      illegal_o = !legal;
    end
  end

  logic unused;
  assign unused = ^{insn_i[31:0], vl_i, vtype_i[30:6], vsew_field[2]};
endmodule
