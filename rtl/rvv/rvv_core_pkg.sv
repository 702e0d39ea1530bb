// rvv_core_pkg: the scalar pipeline's internal encodings (instruction classes, ALU operations, the kind of
// value an instruction in MEM carries). Not host-visible (that is rvv_pkg) and not an ISA fact.
package rvv_core_pkg;
  // Instruction classes (rvv_decode cls_o).
  localparam logic [3:0] ClsNop = 4'd0;     // FENCE, FENCE.I: nothing to order in this core
  localparam logic [3:0] ClsAlu = 4'd1;     // OP, OP-IMM, LUI, AUIPC
  localparam logic [3:0] ClsBranch = 4'd2;
  localparam logic [3:0] ClsJal = 4'd3;
  localparam logic [3:0] ClsJalr = 4'd4;
  localparam logic [3:0] ClsLoad = 4'd5;    // LB..LHU, FLW
  localparam logic [3:0] ClsStore = 4'd6;   // SB, SH, SW, FSW
  localparam logic [3:0] ClsMul = 4'd7;
  localparam logic [3:0] ClsDiv = 4'd8;
  localparam logic [3:0] ClsCsr = 4'd9;
  localparam logic [3:0] ClsVset = 4'd10;   // vsetvli, vsetivli, vsetvl
  localparam logic [3:0] ClsFpu = 4'd11;
  localparam logic [3:0] ClsVec = 4'd12;    // everything the vector unit decides on
  localparam logic [3:0] ClsEcall = 4'd13;
  localparam logic [3:0] ClsEbreak = 4'd14;

  // ALU operations.
  localparam logic [3:0] AluAdd = 4'd0;
  localparam logic [3:0] AluSub = 4'd1;
  localparam logic [3:0] AluSll = 4'd2;
  localparam logic [3:0] AluSlt = 4'd3;
  localparam logic [3:0] AluSltu = 4'd4;
  localparam logic [3:0] AluXor = 4'd5;
  localparam logic [3:0] AluSrl = 4'd6;
  localparam logic [3:0] AluSra = 4'd7;
  localparam logic [3:0] AluOr = 4'd8;
  localparam logic [3:0] AluAnd = 4'd9;
  localparam logic [3:0] AluPassB = 4'd10;  // LUI

  // What the instruction in MEM produces, and when its value can be forwarded.
  localparam logic [2:0] KindNone = 3'd0;     // no register result
  localparam logic [2:0] KindValue = 3'd1;    // computed in EX: forwardable from MEM
  localparam logic [2:0] KindFpu = 3'd2;      // FPU result, one cycle: forwardable from MEM
  localparam logic [2:0] KindLoad = 3'd3;     // known at the end of MEM: from WB (load-use stall)
  localparam logic [2:0] KindFdiv = 3'd4;     // FDIV/FSQRT: MEM waits for the FPU
  localparam logic [2:0] KindVres = 3'd5;     // vmv.x.s and the like: MEM waits for the vector unit
endpackage
