; softmax_c1: written (generated and list-scheduled from kcraft isa --json) by a new user from kcraft isa, task
; show and docs/vliw.md alone; kept as kernels the attainable bound must stay under and near (VliwBounds).
; softmax M=16 N=16 generated, path A max A
S_LI r1, ROW_BYTES
S_LI r4, 1
S_LI r3, ADDR_X
C_DMALD 0, r0, r3, r1, r4, 0
S_LI r2, 32
S_LI r3, ADDR_X + 32
S_LI r4, 3
C_DMALD 0, r2, r3, r1, r4, 0
S_LI r2, 128
S_LI r3, ADDR_X + 128
S_LI r4, 12
C_DMALD 0, r2, r3, r1, r4, 0
S_LI r14, ROW_BYTES
S_LI r15, ADDR_Y
S_PMOV p0, r0
S_PMOV p1, r0
{ S_ADDI r5, r0, 0 }
{ S_ADDI r6, r15, 0 }
{ S_ADDI r7, r0, 4 }
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
C_NOP
{ L_VLD v0, p0, 32 ; C_ACQ 0 }
C_NOP
C_NOP
{ L_VLD v0, p0, 32 ; A_UPS a0, v0 ; C_ACQ 0 }
{ L_VLD v1, p0, 32 ; A_RMAX a1, a0 }
{ L_VLD v2, p0, 32 }
{ A_UPS a2, v0 }
{ A_RMAX a3, a2 }
{ A_SUB a4, a0, a1 }
{ A_UPS a0, v1 }
{ A_EXP a1, a4 }
{ A_SUB a4, a2, a3 }
{ A_RMAX a2, a0 }
{ A_EXP a3, a4 }
{ A_UPS a4, v2 }
{ L_VLD v0, p0, 32 ; A_RSUM a5, a1 ; C_ACQ 0 }
{ L_VLD v1, p0, 32 ; A_SUB a6, a0, a2 }
{ L_VLD v2, p0, 32 ; A_RMAX a0, a4 }
{ L_VLD v3, p0, 32 ; A_RSUM a2, a3 }
{ L_VLD v4, p0, 32 ; A_RECI a7, a5 }
{ L_VLD v5, p0, 32 }
{ L_VLD v6, p0, 32 }
C_NOP
C_NOP
{ A_MUL a5, a1, a7 }
{ A_EXP a1, a6 }
{ L_VLD v0, p0, 32 ; A_UPS a6, v0 }
{ V_SRS v7, a5 }
{ A_RECI a5, a2 }
{ L_VST v7, p1, 32 ; A_SUB a2, a4, a0 }
{ A_RSUM a0, a1 }
{ A_EXP a4, a2 }
{ A_RMAX a2, a6 }
{ A_MUL a7, a3, a5 }
{ L_VLD v1, p0, 32 ; A_UPS a3, v1 }
{ V_SRS v7, a7 ; S_ADDI r8, r0, 128 }
{ A_RECI a5, a0 ; S_ADDI r9, r15, 128 }
{ L_VST v7, p1, 32 ; A_SUB a0, a6, a2 ; S_ADDI r10, r0, 4 }
{ A_RSUM a2, a4 }
{ A_EXP a6, a0 }
{ A_RMAX a0, a3 }
{ A_MUL a7, a1, a5 }
{ A_UPS a1, v2 }
{ L_VLD v7, p0, 32 ; V_SRS v2, a7 }
{ A_RECI a5, a2 }
{ L_VST v2, p1, 32 ; A_SUB a2, a3, a0 }
{ A_RSUM a0, a6 }
{ A_EXP a3, a2 }
{ A_RMAX a2, a1 }
{ A_MUL a7, a4, a5 }
{ A_UPS a4, v3 }
{ L_VLD v3, p0, 32 ; V_SRS v2, a7 }
{ A_RECI a5, a0 }
{ L_VST v2, p1, 32 ; A_SUB a0, a1, a2 }
{ A_RSUM a1, a3 ; C_DMAST 1, r5, r6, r14, r7 }
{ A_EXP a2, a0 }
{ A_RMAX a0, a4 }
{ A_MUL a7, a6, a5 }
{ L_VLD v2, p0, 32 ; A_UPS a5, v4 }
{ V_SRS v4, a7 }
{ A_RECI a6, a1 }
{ L_VST v4, p1, 32 ; A_SUB a1, a4, a0 }
{ A_RSUM a0, a2 }
{ A_EXP a4, a1 }
{ A_RMAX a1, a5 }
{ A_MUL a7, a3, a6 }
{ A_UPS a3, v5 }
{ V_SRS v4, a7 ; S_ADDI r5, r0, 256 }
{ A_RECI a6, a0 ; S_ADDI r6, r15, 256 }
{ L_VST v4, p1, 32 ; A_SUB a0, a5, a1 ; S_ADDI r7, r0, 4 }
{ A_RSUM a1, a4 }
{ A_EXP a5, a0 }
{ A_RMAX a0, a3 }
{ A_MUL a7, a2, a6 }
{ A_UPS a2, v6 }
{ V_SRS v4, a7 }
{ A_RECI a6, a1 }
{ L_VST v4, p1, 32 ; A_SUB a1, a3, a0 }
{ A_RSUM a0, a5 }
{ A_EXP a3, a1 }
{ A_RMAX a1, a2 }
{ A_MUL a7, a4, a6 }
{ A_UPS a4, v0 }
{ V_SRS v0, a7 }
{ A_RECI a6, a0 }
{ L_VST v0, p1, 32 ; A_SUB a0, a2, a1 }
{ A_RSUM a1, a3 ; C_DMAST 2, r8, r9, r14, r10 }
{ A_EXP a2, a0 ; S_ADDI r8, r0, 384 }
{ A_RMAX a0, a4 ; S_ADDI r9, r15, 384 }
{ A_MUL a7, a5, a6 ; S_ADDI r10, r0, 4 }
{ A_UPS a5, v1 }
{ V_SRS v0, a7 }
{ A_RECI a6, a1 }
{ L_VST v0, p1, 32 ; A_SUB a1, a4, a0 }
{ A_RSUM a0, a2 }
{ A_EXP a4, a1 }
{ A_RMAX a1, a5 }
{ A_MUL a7, a3, a6 }
{ A_UPS a3, v7 }
{ V_SRS v0, a7 }
{ A_RECI a6, a0 }
{ L_VST v0, p1, 32 ; A_SUB a0, a5, a1 }
{ A_RSUM a1, a4 }
{ A_EXP a5, a0 }
{ A_RMAX a0, a3 }
{ A_MUL a7, a2, a6 }
{ A_UPS a2, v3 }
{ V_SRS v0, a7 }
{ A_RECI a6, a1 }
{ L_VST v0, p1, 32 ; A_SUB a1, a3, a0 }
{ A_RSUM a0, a5 }
{ A_EXP a3, a1 }
{ A_RMAX a1, a2 }
{ A_MUL a7, a4, a6 }
{ A_UPS a4, v2 }
{ V_SRS v0, a7 }
{ A_RECI a6, a0 }
{ L_VST v0, p1, 32 ; A_SUB a0, a2, a1 }
{ A_RSUM a1, a3 ; C_DMAST 3, r5, r6, r14, r7 }
{ A_EXP a2, a0 }
{ A_RMAX a0, a4 }
{ A_MUL a7, a5, a6 }
{ A_RECI a5, a1 }
{ V_SRS v0, a7 }
{ A_SUB a1, a4, a0 }
{ L_VST v0, p1, 32 ; A_RSUM a0, a2 }
{ A_EXP a4, a1 }
{ A_MUL a1, a3, a5 }
C_NOP
{ V_SRS v0, a1 }
{ A_RECI a1, a0 }
{ L_VST v0, p1, 32 ; A_RSUM a0, a4 }
C_NOP
C_NOP
C_NOP
{ A_MUL a3, a2, a1 }
{ A_RECI a1, a0 }
{ V_SRS v0, a3 }
C_NOP
{ L_VST v0, p1, 32 }
C_NOP
{ A_MUL a0, a4, a1 }
C_NOP
{ V_SRS v0, a0 }
C_NOP
{ L_VST v0, p1, 32 }
{ C_DMAST 1, r8, r9, r14, r10 }
C_HALT
