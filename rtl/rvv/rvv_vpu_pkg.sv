// rvv_vpu_pkg: the internal encodings of the rvv vector unit (rvv_vpu): how the decoder tells the
// sequencer what to run. Nothing here is visible outside the unit; RISC-V's encodings are in the decoder.
package rvv_vpu_pkg;
  // Execution kinds: which engine of rvv_vpu runs the instruction.
  localparam logic [3:0] KindElem = 4'd0;      // beats of element-wise work (ALU or FPU), vector or mask dest
  localparam logic [3:0] KindRed = 4'd1;       // integer reduction: beats into an accumulator, vd[0] at the end
  localparam logic [3:0] KindFred = 4'd2;      // FP reduction: one element per cycle, in element order
  localparam logic [3:0] KindCompress = 4'd3;  // vcompress: one source element per cycle
  localparam logic [3:0] KindMaskLogic = 4'd4; // vmand..vmxnor: one step on whole registers
  localparam logic [3:0] KindMaskSet = 4'd5;   // vmsbf/vmsif/vmsof: one step on whole registers
  localparam logic [3:0] KindScalar = 4'd6;    // vmv.x.s, vfmv.f.s, vcpop.m, vfirst.m: a scalar result
  localparam logic [3:0] KindLoad = 4'd7;
  localparam logic [3:0] KindStore = 4'd8;

  // Integer slot operations (rvv_vpu_alu). Operands arrive extended (sign or zero, as the instruction
  // says) from their element width, so one operation serves every SEW and the widening forms.
  localparam logic [4:0] AluAdd = 5'd0;
  localparam logic [4:0] AluSub = 5'd1;    // a - b
  localparam logic [4:0] AluRsub = 5'd2;   // b - a
  localparam logic [4:0] AluMin = 5'd3;    // signed compare of the extended operands (min and minu)
  localparam logic [4:0] AluMax = 5'd4;
  localparam logic [4:0] AluAnd = 5'd5;
  localparam logic [4:0] AluOr = 5'd6;
  localparam logic [4:0] AluXor = 5'd7;
  localparam logic [4:0] AluSll = 5'd8;    // shift amount: b & sh_mask
  localparam logic [4:0] AluSr = 5'd9;     // arithmetic shift of the extended a (logical when zero-extended)
  localparam logic [4:0] AluMul = 5'd10;   // low bits of a * b
  localparam logic [4:0] AluMulh = 5'd11;  // a * b >> sew_bits
  localparam logic [4:0] AluMacc = 5'd12;  // c + a * b
  localparam logic [4:0] AluNmsac = 5'd13; // c - a * b
  localparam logic [4:0] AluMadd = 5'd14;  // b * c + a
  localparam logic [4:0] AluNmsub = 5'd15; // a - b * c
  localparam logic [4:0] AluDiv = 5'd16;   // a / b (RISC-V: x / 0 = all ones)
  localparam logic [4:0] AluRem = 5'd17;   // a % b (RISC-V: x % 0 = x)
  localparam logic [4:0] AluSeq = 5'd18;   // compares give cmp_o
  localparam logic [4:0] AluSne = 5'd19;
  localparam logic [4:0] AluSlt = 5'd20;
  localparam logic [4:0] AluSle = 5'd21;
  localparam logic [4:0] AluSgt = 5'd22;
  localparam logic [4:0] AluMerge = 5'd23; // mask ? b : a
  localparam logic [4:0] AluMovB = 5'd24;  // b
  localparam logic [4:0] AluMovA = 5'd25;  // a
  localparam logic [4:0] AluId = 5'd26;    // the element index (vid.v)
  localparam logic [4:0] AluIota = 5'd27;  // the count of active set mask bits below (viota.m)

  // Where the b operand comes from.
  localparam logic [2:0] SrcVs1 = 3'd0;
  localparam logic [2:0] SrcX = 3'd1;      // x[rs1]
  localparam logic [2:0] SrcSimm = 3'd2;   // simm5, sign-extended
  localparam logic [2:0] SrcUimm = 3'd3;   // uimm5, zero-extended
  localparam logic [2:0] SrcF = 3'd4;      // f[rs1]

  // How the a operand (vs2) is addressed: in element order, or gathered from another element.
  localparam logic [2:0] GatherNone = 3'd0;
  localparam logic [2:0] GatherVv = 3'd1;       // vrgather.vv: index vs1[i]
  localparam logic [2:0] GatherScalar = 3'd2;   // vrgather.vx/vi: index b
  localparam logic [2:0] GatherUp = 3'd3;       // vslideup: i - b, elements below b untouched
  localparam logic [2:0] GatherDown = 3'd4;     // vslidedown: i + b
  localparam logic [2:0] Gather1Up = 3'd5;      // vslide1up: i - 1, element 0 gets b
  localparam logic [2:0] Gather1Down = 3'd6;    // vslide1down: i + 1, element vl-1 gets b

  // FPU operand routing: which of A (vs2), B (vs1 or f[rs1]) and C (vd) feeds the FPU's a, b and c.
  localparam logic [1:0] FpA = 2'd0;
  localparam logic [1:0] FpB = 2'd1;
  localparam logic [1:0] FpC = 2'd2;

  // What happens to an FPU result before it is written.
  localparam logic [2:0] FpPostNone = 3'd0;
  localparam logic [2:0] FpPostCmp = 3'd1;     // bit 0 into the mask destination
  localparam logic [2:0] FpPostCmpNot = 3'd2;  // inverted (vmfne)
  localparam logic [2:0] FpPostNarrowS = 3'd3; // int32 -> int16 saturation (vfncvt.x.f.w)
  localparam logic [2:0] FpPostNarrowU = 3'd4; // uint32 -> uint16 saturation (vfncvt.xu.f.w)

  // Scalar-result operations.
  localparam logic [1:0] ScalarMvXS = 2'd0;   // vmv.x.s and vfmv.f.s
  localparam logic [1:0] ScalarCpop = 2'd1;
  localparam logic [1:0] ScalarFirst = 2'd2;

  // Memory addressing modes.
  localparam logic [1:0] MemUnit = 2'd0;      // unit-stride, whole-register and mask: row pieces
  localparam logic [1:0] MemStrided = 2'd1;
  localparam logic [1:0] MemIndexed = 2'd2;

  // An instruction as the decoder describes it (rvv_vpu_decode's outputs): what the issue queue holds and
  // the engines run.
  typedef struct packed {
    logic [3:0]  kind;
    logic [4:0]  alu_op;
    logic        fp;
    logic [4:0]  fpu_op;
    logic [2:0]  rm;
    logic [1:0]  fpa, fpb, fpc;
    logic [2:0]  fp_post;
    logic [1:0]  sew, eew_d, eew_s2, eew_s1, beat_eew;
    logic        s2_signed, s1_signed;
    logic [2:0]  src, gather;
    logic        mask_dest, merge, vm;
    logic [4:0]  vd, vs1, vs2;
    logic [31:0] evl, vlmax;
    logic        skip;
    logic [4:0]  sh_mask;
    logic [1:0]  scalar_op;
    logic [2:0]  mask_fn;
    logic [1:0]  mem_mode, idx_eew;
  } dec_t;

  // An issued instruction: its decode, what the core read for it, and the vector registers it reads and
  // writes (bit r: register r), for the hazard check between the two engines.
  typedef struct packed {
    dec_t        dec;
    logic [31:0] insn, pc, rs1, rs2, frs1, vl;
    logic [31:0] reads, writes;
  } entry_t;
endpackage
