// rvv_decode_pkg: decodes one instruction word for the scalar pipeline: its class, operands, immediate and
// result registers, and whether the core implements it (RV32I, M, F, Zicsr; vector instructions are only
// recognised here: rvv_vpu decides whether it implements them). A function: rvv_core decodes the word in ID
// and registers the result with the word into EX, so that an instruction held in EX (a stall) is not
// decoded again in every cycle.
package rvv_decode_pkg;
  typedef struct packed {
    logic        illegal;   // outside RV32IMF + Zicsr + the vector opcodes
    logic [3:0]  cls;       // rvv_core_pkg::Cls*
    logic [3:0]  alu_op;    // rvv_core_pkg::Alu*
    logic        alu_imm;   // ALU operand b is the immediate
    logic        alu_pc;    // ALU operand a is the pc (AUIPC)
    logic [31:0] imm;
    logic        uses_xrs1;
    logic        uses_xrs2;
    logic        uses_frs1;
    logic        uses_frs2;
    logic        uses_frs3;
    logic        we_x;      // writes x[rd] (rd = 0 included: the writer ignores it)
    logic        we_f;      // writes f[rd]
    logic [4:0]  fpu_op;    // rvv_fpu_pkg::op_e
    logic        fpu_rm;    // the operation rounds: funct3 is a rounding mode (5, 6 illegal; 7 = frm)
    logic        fpu_a_x;   // FPU operand a is x[rs1] (FCVT.S.W[U], FMV.W.X)
    logic        vec_res;   // a vector instruction with a scalar result (x or f, see we_*)
  } dec_t;

  localparam logic [6:0] OpLoad = 7'b0000011;
  localparam logic [6:0] OpLoadFp = 7'b0000111;
  localparam logic [6:0] OpMiscMem = 7'b0001111;
  localparam logic [6:0] OpOpImm = 7'b0010011;
  localparam logic [6:0] OpAuipc = 7'b0010111;
  localparam logic [6:0] OpStore = 7'b0100011;
  localparam logic [6:0] OpStoreFp = 7'b0100111;
  localparam logic [6:0] OpOp = 7'b0110011;
  localparam logic [6:0] OpLui = 7'b0110111;
  localparam logic [6:0] OpMadd = 7'b1000011;
  localparam logic [6:0] OpMsub = 7'b1000111;
  localparam logic [6:0] OpNmsub = 7'b1001011;
  localparam logic [6:0] OpNmadd = 7'b1001111;
  localparam logic [6:0] OpOpFp = 7'b1010011;
  localparam logic [6:0] OpOpV = 7'b1010111;
  localparam logic [6:0] OpBranch = 7'b1100011;
  localparam logic [6:0] OpJalr = 7'b1100111;
  localparam logic [6:0] OpJal = 7'b1101111;
  localparam logic [6:0] OpSystem = 7'b1110011;

  localparam int unsigned DecBits = 58;  // $bits(dec_t), which yosys 0.23 cannot evaluate (lint checks it)

  // The result is a plain vector (yosys 0.23 cannot size a function of struct type); it is a dec_t.
  function automatic logic [DecBits-1:0] decode(input logic [31:0] insn);
    logic illegal;
    logic [3:0] cls;
    logic [3:0] alu_op;
    logic alu_imm;
    logic alu_pc;
    logic [31:0] imm;
    logic uses_xrs1;
    logic uses_xrs2;
    logic uses_frs1;
    logic uses_frs2;
    logic uses_frs3;
    logic we_x;
    logic we_f;
    logic [4:0] fpu_op;
    logic fpu_rm;
    logic fpu_a_x;
    logic vec_res;
    logic [6:0] opcode;
    logic [2:0] f3;
    logic [6:0] f7;
    logic [4:0] rs2;
    logic [4:0] rs1;
    logic [4:0] rd;
    logic [31:0] imm_i;
    logic [31:0] imm_s;
    logic [31:0] imm_b;
    logic [31:0] imm_u;
    logic [31:0] imm_j;
    opcode = insn[6:0];
    f3 = insn[14:12];
    f7 = insn[31:25];
    rs2 = insn[24:20];
    rs1 = insn[19:15];
    rd = insn[11:7];
    imm_i = {{20{insn[31]}}, insn[31:20]};
    imm_s = {{20{insn[31]}}, insn[31:25], insn[11:7]};
    imm_b = {{19{insn[31]}}, insn[31], insn[7], insn[30:25], insn[11:8], 1'b0};
    imm_u = {insn[31:12], 12'h0};
    imm_j = {{11{insn[31]}}, insn[31], insn[19:12], insn[20], insn[30:21], 1'b0};
    illegal = 1'b0;
    cls = rvv_core_pkg::ClsNop;
    alu_op = rvv_core_pkg::AluAdd;
    alu_imm = 1'b0;
    alu_pc = 1'b0;
    imm = imm_i;
    uses_xrs1 = 1'b0;
    uses_xrs2 = 1'b0;
    uses_frs1 = 1'b0;
    uses_frs2 = 1'b0;
    uses_frs3 = 1'b0;
    we_x = 1'b0;
    we_f = 1'b0;
    fpu_op = rvv_fpu_pkg::OpAdd;
    fpu_rm = 1'b0;
    fpu_a_x = 1'b0;
    vec_res = 1'b0;
    unique case (opcode)
      OpLui: begin
        cls = rvv_core_pkg::ClsAlu;
        alu_op = rvv_core_pkg::AluPassB;
        alu_imm = 1'b1;
        imm = imm_u;
        we_x = 1'b1;
      end
      OpAuipc: begin
        cls = rvv_core_pkg::ClsAlu;
        alu_imm = 1'b1;
        alu_pc = 1'b1;
        imm = imm_u;
        we_x = 1'b1;
      end
      OpJal: begin
        cls = rvv_core_pkg::ClsJal;
        imm = imm_j;
        we_x = 1'b1;
      end
      OpJalr: begin
        cls = rvv_core_pkg::ClsJalr;
        uses_xrs1 = 1'b1;
        we_x = 1'b1;
        illegal = f3 != 3'b000;
      end
      OpBranch: begin
        cls = rvv_core_pkg::ClsBranch;
        imm = imm_b;
        uses_xrs1 = 1'b1;
        uses_xrs2 = 1'b1;
        illegal = f3 == 3'b010 || f3 == 3'b011;
      end
      OpLoad: begin
        cls = rvv_core_pkg::ClsLoad;
        uses_xrs1 = 1'b1;
        we_x = 1'b1;
        illegal = f3 == 3'b011 || f3 == 3'b110 || f3 == 3'b111;
      end
      OpStore: begin
        cls = rvv_core_pkg::ClsStore;
        imm = imm_s;
        uses_xrs1 = 1'b1;
        uses_xrs2 = 1'b1;
        illegal = f3 > 3'b010;
      end
      OpOpImm: begin
        cls = rvv_core_pkg::ClsAlu;
        alu_imm = 1'b1;
        uses_xrs1 = 1'b1;
        we_x = 1'b1;
        unique case (f3)
          3'b000: alu_op = rvv_core_pkg::AluAdd;
          3'b010: alu_op = rvv_core_pkg::AluSlt;
          3'b011: alu_op = rvv_core_pkg::AluSltu;
          3'b100: alu_op = rvv_core_pkg::AluXor;
          3'b110: alu_op = rvv_core_pkg::AluOr;
          3'b111: alu_op = rvv_core_pkg::AluAnd;
          3'b001: begin
            alu_op = rvv_core_pkg::AluSll;
            illegal = f7 != 7'b0000000;
          end
          default: begin  // 3'b101
            alu_op = insn[30] ? rvv_core_pkg::AluSra : rvv_core_pkg::AluSrl;
            illegal = {f7[6], f7[4:0]} != 6'b000000;
          end
        endcase
      end
      OpOp: begin
        uses_xrs1 = 1'b1;
        uses_xrs2 = 1'b1;
        we_x = 1'b1;
        if (f7 == 7'b0000001) begin
          cls = f3[2] ? rvv_core_pkg::ClsDiv : rvv_core_pkg::ClsMul;
        end else begin
          cls = rvv_core_pkg::ClsAlu;
          illegal = !(f7 == 7'b0000000 || (f7 == 7'b0100000 && (f3 == 3'b000 || f3 == 3'b101)));
          unique case (f3)
            3'b000: alu_op = insn[30] ? rvv_core_pkg::AluSub : rvv_core_pkg::AluAdd;
            3'b001: alu_op = rvv_core_pkg::AluSll;
            3'b010: alu_op = rvv_core_pkg::AluSlt;
            3'b011: alu_op = rvv_core_pkg::AluSltu;
            3'b100: alu_op = rvv_core_pkg::AluXor;
            3'b101: alu_op = insn[30] ? rvv_core_pkg::AluSra : rvv_core_pkg::AluSrl;
            3'b110: alu_op = rvv_core_pkg::AluOr;
            default: alu_op = rvv_core_pkg::AluAnd;
          endcase
        end
      end
      OpMiscMem: begin
        cls = rvv_core_pkg::ClsNop;  // FENCE (f3 0), FENCE.I (f3 1)
        illegal = f3 > 3'b001;
      end
      OpSystem: begin
        if (f3 == 3'b000) begin
          // ECALL and EBREAK only; the privileged instructions (MRET, WFI, ...) are not in user mode.
          cls = insn[20] ? rvv_core_pkg::ClsEbreak : rvv_core_pkg::ClsEcall;
          illegal = insn[31:21] != 11'd0 || rs1 != 5'd0 || rd != 5'd0;
        end else begin
          cls = rvv_core_pkg::ClsCsr;
          uses_xrs1 = !f3[2];
          we_x = 1'b1;
          illegal = f3 == 3'b100;
        end
      end
      OpLoadFp, OpStoreFp: begin
        if (f3 == 3'b010) begin  // FLW / FSW
          cls = opcode == OpLoadFp ? rvv_core_pkg::ClsLoad : rvv_core_pkg::ClsStore;
          imm = opcode == OpLoadFp ? imm_i : imm_s;
          uses_xrs1 = 1'b1;
          uses_frs2 = opcode == OpStoreFp;
          we_f = opcode == OpLoadFp;
        end else if (f3 == 3'b000 || f3[2:1] == 2'b11 || f3 == 3'b101) begin
          // Vector loads/stores (element widths 8, 16, 32, 64): mop 10 strided takes x[rs2].
          cls = rvv_core_pkg::ClsVec;
          uses_xrs1 = 1'b1;
          uses_xrs2 = insn[27:26] == 2'b10;
        end else begin
          illegal = 1'b1;  // FLH, FLD, FLQ and their stores: no Zfh, D or Q
        end
      end
      OpMadd, OpMsub, OpNmsub, OpNmadd: begin
        cls = rvv_core_pkg::ClsFpu;
        uses_frs1 = 1'b1;
        uses_frs2 = 1'b1;
        uses_frs3 = 1'b1;
        we_f = 1'b1;
        fpu_rm = 1'b1;
        illegal = insn[26:25] != 2'b00;  // single precision only
        unique case (opcode)
          OpMadd: fpu_op = rvv_fpu_pkg::OpMadd;
          OpMsub: fpu_op = rvv_fpu_pkg::OpMsub;
          OpNmsub: fpu_op = rvv_fpu_pkg::OpNmsub;
          default: fpu_op = rvv_fpu_pkg::OpNmadd;
        endcase
      end
      OpOpFp: begin
        cls = rvv_core_pkg::ClsFpu;
        uses_frs1 = 1'b1;
        uses_frs2 = 1'b1;
        we_f = 1'b1;
        unique case (f7)
          7'b0000000: begin fpu_op = rvv_fpu_pkg::OpAdd; fpu_rm = 1'b1; end
          7'b0000100: begin fpu_op = rvv_fpu_pkg::OpSub; fpu_rm = 1'b1; end
          7'b0001000: begin fpu_op = rvv_fpu_pkg::OpMul; fpu_rm = 1'b1; end
          7'b0001100: begin fpu_op = rvv_fpu_pkg::OpDiv; fpu_rm = 1'b1; end
          7'b0101100: begin
            fpu_op = rvv_fpu_pkg::OpSqrt;
            fpu_rm = 1'b1;
            uses_frs2 = 1'b0;
            illegal = rs2 != 5'd0;
          end
          7'b0010000: begin
            illegal = f3 > 3'b010;
            fpu_op = f3 == 3'b000 ? rvv_fpu_pkg::OpSgnj
                     : f3 == 3'b001 ? rvv_fpu_pkg::OpSgnjn : rvv_fpu_pkg::OpSgnjx;
          end
          7'b0010100: begin
            illegal = f3 > 3'b001;
            fpu_op = f3[0] ? rvv_fpu_pkg::OpMax : rvv_fpu_pkg::OpMin;
          end
          7'b1010000: begin
            illegal = f3 > 3'b010;
            we_f = 1'b0;
            we_x = 1'b1;
            fpu_op = f3 == 3'b010 ? rvv_fpu_pkg::OpEq
                     : f3 == 3'b001 ? rvv_fpu_pkg::OpLt : rvv_fpu_pkg::OpLe;
          end
          7'b1100000: begin
            illegal = rs2 > 5'd1;
            we_f = 1'b0;
            we_x = 1'b1;
            uses_frs2 = 1'b0;
            fpu_rm = 1'b1;
            fpu_op = rs2[0] ? rvv_fpu_pkg::OpCvtWuS : rvv_fpu_pkg::OpCvtWS;
          end
          7'b1101000: begin
            illegal = rs2 > 5'd1;
            uses_frs1 = 1'b0;
            uses_frs2 = 1'b0;
            uses_xrs1 = 1'b1;
            fpu_a_x = 1'b1;
            fpu_rm = 1'b1;
            fpu_op = rs2[0] ? rvv_fpu_pkg::OpCvtSWu : rvv_fpu_pkg::OpCvtSW;
          end
          7'b1110000: begin
            illegal = rs2 != 5'd0 || f3 > 3'b001;
            we_f = 1'b0;
            we_x = 1'b1;
            uses_frs2 = 1'b0;
            fpu_op = f3[0] ? rvv_fpu_pkg::OpClass : rvv_fpu_pkg::OpMvXW;
          end
          7'b1111000: begin
            illegal = rs2 != 5'd0 || f3 != 3'b000;
            uses_frs1 = 1'b0;
            uses_frs2 = 1'b0;
            uses_xrs1 = 1'b1;
            fpu_a_x = 1'b1;
            fpu_op = rvv_fpu_pkg::OpMvWX;
          end
          default: illegal = 1'b1;
        endcase
      end
      OpOpV: begin
        if (f3 == 3'b111) begin
          // vsetvli (bit 31 = 0), vsetivli (31:30 = 11), vsetvl (31:25 = 1000000): the core's own.
          cls = rvv_core_pkg::ClsVset;
          we_x = 1'b1;
          uses_xrs1 = !insn[31] || !insn[30];
          uses_xrs2 = insn[31:30] == 2'b10;
          illegal = insn[31:30] == 2'b10 && insn[29:25] != 5'd0;
          if (insn[31:30] == 2'b11) uses_xrs1 = 1'b0;
        end else begin
          cls = rvv_core_pkg::ClsVec;
          // OPIVX (100), OPMVX (110): x[rs1]; OPFVF (101): f[rs1].
          uses_xrs1 = f3 == 3'b100 || f3 == 3'b110;
          uses_frs1 = f3 == 3'b101;
          // VWXUNARY0 (vmv.x.s, vcpop.m, vfirst.m) writes x[rd]; VWFUNARY0 vfmv.f.s writes f[rd].
          if (insn[31:26] == 6'b010000 && f3 == 3'b010 &&
              (rs1 == 5'b00000 || rs1 == 5'b10000 || rs1 == 5'b10001)) begin
            vec_res = 1'b1;
            we_x = 1'b1;
          end
          if (insn[31:26] == 6'b010000 && f3 == 3'b001 && rs1 == 5'b00000) begin
            vec_res = 1'b1;
            we_f = 1'b1;
          end
        end
      end
      default: illegal = 1'b1;
    endcase
    // In dec_t's field order.
    decode = {illegal, cls, alu_op, alu_imm, alu_pc, imm, uses_xrs1, uses_xrs2, uses_frs1, uses_frs2, uses_frs3,
              we_x, we_f, fpu_op, fpu_rm, fpu_a_x, vec_res};
  endfunction
endpackage
