; softmax_c2: written (generated and list-scheduled from kcraft isa --json) by a new user from kcraft isa, task
; show and docs/vliw.md alone; kept as kernels the attainable bound must stay under and near (VliwBounds).
; softmax M=32 N=64 generated, path B max V
S_LI r1, ROW_BYTES
S_LI r4, 4
S_LI r3, ADDR_X
C_DMALD 0, r0, r3, r1, r4, 0
S_LI r2, 128
S_LI r3, ADDR_X + 128
S_LI r4, 12
C_DMALD 0, r2, r3, r1, r4, 0
S_LI r2, 512
S_LI r3, ADDR_X + 512
S_LI r4, 48
C_DMALD 0, r2, r3, r1, r4, 0
S_LI r2, 2048
S_LI r3, ADDR_X + 2048
S_LI r4, 64
C_DMALD 0, r2, r3, r1, r4, 0
S_LI r14, ROW_BYTES
S_LI r15, ADDR_Y
S_PMOV p0, r0
S_PMOV p1, r0
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
C_NOP
C_NOP
{ L_VLD v0, p0, 32 ; C_ACQ 0 }
{ L_VLD v1, p0, 32 }
{ L_VLD v2, p0, 32 }
{ L_VLD v3, p0, 32 ; A_UPS a0, v0 }
{ A_UPS a1, v1 }
{ A_UPS a2, v2 }
{ A_UPS a3, v3 }
{ V_MAX v4, v0, v1 }
{ V_MAX v0, v2, v3 }
C_NOP
{ V_MAX v1, v4, v0 }
C_NOP
{ L_VLD v1, p0, 32 ; V_RMAX v0, v1 ; C_ACQ 0 }
{ L_VLD v2, p0, 32 }
{ L_VLD v3, p0, 32 }
{ L_VLD v0, p0, 32 ; A_UPS a4, v0 }
{ L_VLD v4, p0, 32 ; A_SUB a5, a0, a4 }
{ L_VLD v5, p0, 32 ; A_SUB a0, a1, a4 }
{ L_VLD v6, p0, 32 ; A_SUB a1, a2, a4 }
{ L_VLD v7, p0, 32 ; A_SUB a2, a3, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a0 }
{ L_VLD v8, p0, 32 ; A_EXP a0, a1 }
{ L_VLD v9, p0, 32 ; A_EXP a1, a2 }
{ L_VLD v10, p0, 32 ; A_UPS a2, v1 }
{ L_VLD v11, p0, 32 ; A_UPS a5, v2 }
{ A_UPS a6, v3 }
{ V_MAX v12, v1, v2 }
{ V_MAX v1, v3, v0 }
{ V_SRS v2, a3 }
{ V_MAX v3, v12, v1 }
{ V_SRS v1, a4 }
{ V_SRS v12, a0 }
{ V_SRS v13, a1 }
{ A_ADD a7, a3, a4 }
{ A_UPS a3, v0 }
{ A_ADD a4, a0, a1 }
{ V_RMAX v0, v3 }
{ A_ADD a0, a7, a4 }
{ A_UPS a1, v4 }
{ A_RSUM a4, a0 }
{ A_UPS a0, v0 }
{ V_MAX v0, v4, v5 }
{ V_MAX v3, v6, v7 }
{ A_RECI a7, a4 }
{ V_MAX v4, v0, v3 }
{ V_MAX v0, v8, v9 }
{ V_RMAX v3, v4 }
{ V_MAX v4, v10, v11 }
{ V_SRS v14, a7 }
{ A_SUB a4, a2, a0 }
{ A_SUB a2, a5, a0 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a3, a0 }
{ A_EXP a0, a4 }
{ A_EXP a3, a2 }
{ A_EXP a2, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v5 }
{ A_UPS a6, v6 }
{ L_VLD v2, p0, 32 ; V_MUL v5, v2, v14 ; C_ACQ 0 }
{ V_MUL v6, v1, v14 }
{ L_VST v5, p1, 32 ; L_VLD v5, p0, 32 ; V_MUL v1, v12, v14 }
{ L_VST v6, p1, 32 ; L_VLD v6, p0, 32 ; V_MUL v12, v13, v14 }
{ L_VST v1, p1, 32 ; L_VLD v1, p0, 32 ; V_SRS v13, a0 }
{ L_VST v12, p1, 32 ; V_MAX v12, v0, v4 }
{ V_SRS v0, a3 }
{ V_SRS v4, a2 }
{ V_SRS v14, a4 }
{ A_ADD a7, a0, a3 }
{ A_UPS a0, v7 }
{ A_ADD a3, a2, a4 }
{ A_UPS a2, v3 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a1, a2 }
{ A_RSUM a1, a4 }
{ A_SUB a4, a5, a2 }
{ A_SUB a5, a6, a2 }
{ A_SUB a6, a0, a2 }
{ A_RECI a0, a1 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v3, a0 }
{ A_UPS a0, v8 }
{ A_UPS a5, v9 }
{ A_UPS a6, v10 }
{ L_VLD v8, p0, 32 ; V_MUL v7, v13, v3 }
{ L_VLD v0, p0, 32 ; V_MUL v9, v0, v3 }
{ L_VST v7, p1, 32 ; L_VLD v4, p0, 32 ; V_MUL v10, v4, v3 }
{ L_VST v9, p1, 32 ; L_VLD v3, p0, 32 ; V_MUL v7, v14, v3 }
{ L_VST v10, p1, 32 ; V_SRS v9, a1 }
{ L_VST v7, p1, 32 ; V_SRS v10, a2 }
{ V_SRS v7, a3 }
{ V_SRS v13, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v11 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v11, v12 }
{ A_ADD a3, a7, a2 }
{ A_UPS a2, v2 }
{ A_RSUM a4, a3 }
{ A_UPS a3, v11 }
{ V_MAX v11, v2, v5 }
{ V_MAX v2, v6, v1 }
{ A_RECI a7, a4 }
{ V_MAX v12, v11, v2 }
{ V_MAX v2, v8, v0 }
{ V_RMAX v11, v12 }
{ V_MAX v12, v4, v3 }
{ V_SRS v14, a7 }
{ A_SUB a4, a0, a3 ; S_ADDI r5, r0, 0 }
{ A_SUB a0, a5, a3 ; S_ADDI r6, r15, 0 }
{ A_SUB a5, a6, a3 ; S_ADDI r7, r0, 16 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ A_EXP a0, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v5 }
{ L_VLD v5, p0, 32 ; A_UPS a6, v6 }
{ V_MUL v6, v9, v14 }
{ V_MUL v9, v10, v14 }
{ L_VST v6, p1, 32 ; L_VLD v6, p0, 32 ; V_MUL v10, v7, v14 }
{ L_VST v9, p1, 32 ; L_VLD v9, p0, 32 ; V_MUL v7, v13, v14 }
{ L_VST v10, p1, 32 ; L_VLD v10, p0, 32 ; V_SRS v13, a1 }
{ L_VST v7, p1, 32 ; V_MAX v7, v2, v12 }
{ V_SRS v2, a3 }
{ V_SRS v12, a0 }
{ V_SRS v14, a4 }
{ A_ADD a7, a1, a3 }
{ A_UPS a1, v1 }
{ A_ADD a3, a0, a4 }
{ A_UPS a0, v11 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a2, a0 }
{ A_RSUM a2, a4 }
{ A_SUB a4, a5, a0 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a1, a0 }
{ A_RECI a0, a2 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v1, a0 }
{ A_UPS a0, v8 }
{ A_UPS a5, v0 }
{ A_UPS a6, v4 }
{ V_MUL v0, v13, v1 }
{ L_VLD v2, p0, 32 ; V_MUL v4, v2, v1 }
{ L_VST v0, p1, 32 ; L_VLD v0, p0, 32 ; V_MUL v8, v12, v1 }
{ L_VST v4, p1, 32 ; L_VLD v1, p0, 32 ; V_MUL v11, v14, v1 }
{ L_VST v8, p1, 32 ; L_VLD v8, p0, 32 ; V_SRS v4, a1 }
{ L_VST v11, p1, 32 ; V_SRS v12, a2 }
{ V_SRS v11, a3 ; C_DMAST 1, r5, r6, r14, r7 }
{ V_SRS v13, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v3 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v3, v7 }
{ A_ADD a3, a7, a2 }
{ A_UPS a2, v5 }
{ A_RSUM a4, a3 }
{ A_UPS a3, v3 }
{ V_MAX v3, v5, v6 }
{ V_MAX v5, v9, v10 }
{ A_RECI a7, a4 }
{ V_MAX v7, v3, v5 }
{ V_MAX v3, v2, v0 }
{ V_RMAX v5, v7 }
{ V_MAX v7, v1, v8 }
{ V_SRS v14, a7 }
{ A_SUB a4, a0, a3 }
{ A_SUB a0, a5, a3 }
{ A_SUB a5, a6, a3 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ A_EXP a0, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v6 }
{ L_VLD v6, p0, 32 ; A_UPS a6, v9 }
{ V_MUL v9, v4, v14 }
{ V_MUL v4, v12, v14 }
{ L_VST v9, p1, 32 ; L_VLD v9, p0, 32 ; V_MUL v12, v11, v14 }
{ L_VST v4, p1, 32 ; L_VLD v4, p0, 32 ; V_MUL v11, v13, v14 }
{ L_VST v12, p1, 32 ; L_VLD v12, p0, 32 ; V_SRS v13, a1 }
{ L_VST v11, p1, 32 ; V_MAX v11, v3, v7 }
{ V_SRS v3, a3 }
{ V_SRS v7, a0 }
{ V_SRS v14, a4 }
{ A_ADD a7, a1, a3 }
{ A_UPS a1, v10 }
{ A_ADD a3, a0, a4 }
{ A_UPS a0, v5 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a2, a0 }
{ A_RSUM a2, a4 }
{ A_SUB a4, a5, a0 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a1, a0 }
{ A_RECI a0, a2 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v5, a0 }
{ A_UPS a0, v2 }
{ A_UPS a5, v0 }
{ A_UPS a6, v1 }
{ L_VLD v1, p0, 32 ; V_MUL v0, v13, v5 }
{ L_VLD v3, p0, 32 ; V_MUL v2, v3, v5 }
{ L_VST v0, p1, 32 ; L_VLD v0, p0, 32 ; V_MUL v10, v7, v5 }
{ L_VST v2, p1, 32 ; L_VLD v2, p0, 32 ; V_MUL v7, v14, v5 }
{ L_VST v10, p1, 32 ; V_SRS v5, a1 }
{ L_VST v7, p1, 32 ; V_SRS v10, a2 }
{ V_SRS v7, a3 }
{ V_SRS v13, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v8 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v8, v11 }
{ A_ADD a3, a7, a2 }
{ A_UPS a2, v6 }
{ A_RSUM a4, a3 }
{ A_UPS a3, v8 }
{ V_MAX v8, v6, v9 }
{ V_MAX v6, v4, v12 }
{ A_RECI a7, a4 }
{ V_MAX v11, v8, v6 }
{ V_MAX v6, v1, v3 }
{ V_RMAX v8, v11 }
{ V_MAX v11, v0, v2 }
{ V_SRS v14, a7 }
{ A_SUB a4, a0, a3 ; S_ADDI r5, r0, 512 }
{ A_SUB a0, a5, a3 ; S_ADDI r6, r15, 512 }
{ A_SUB a5, a6, a3 ; S_ADDI r7, r0, 16 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ A_EXP a0, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v9 }
{ L_VLD v4, p0, 32 ; A_UPS a6, v4 }
{ V_MUL v9, v5, v14 }
{ V_MUL v5, v10, v14 }
{ L_VST v9, p1, 32 ; L_VLD v7, p0, 32 ; V_MUL v10, v7, v14 }
{ L_VST v5, p1, 32 ; L_VLD v5, p0, 32 ; V_MUL v9, v13, v14 }
{ L_VST v10, p1, 32 ; L_VLD v10, p0, 32 ; V_SRS v13, a1 }
{ L_VST v9, p1, 32 ; V_MAX v9, v6, v11 }
{ V_SRS v6, a3 }
{ V_SRS v11, a0 }
{ V_SRS v14, a4 }
{ A_ADD a7, a1, a3 }
{ A_UPS a1, v12 }
{ A_ADD a3, a0, a4 }
{ A_UPS a0, v8 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a2, a0 }
{ A_RSUM a2, a4 }
{ A_SUB a4, a5, a0 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a1, a0 }
{ A_RECI a0, a2 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v8, a0 }
{ A_UPS a0, v1 }
{ A_UPS a5, v3 }
{ A_UPS a6, v0 }
{ V_MUL v0, v13, v8 }
{ L_VLD v3, p0, 32 ; V_MUL v1, v6, v8 }
{ L_VST v0, p1, 32 ; L_VLD v0, p0, 32 ; V_MUL v6, v11, v8 }
{ L_VST v1, p1, 32 ; L_VLD v1, p0, 32 ; V_MUL v11, v14, v8 }
{ L_VST v6, p1, 32 ; L_VLD v6, p0, 32 ; V_SRS v8, a1 }
{ L_VST v11, p1, 32 ; V_SRS v12, a2 }
{ V_SRS v11, a3 ; C_DMAST 2, r5, r6, r14, r7 }
{ V_SRS v13, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v2 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v2, v9 }
{ A_ADD a3, a7, a2 }
{ A_UPS a2, v4 }
{ A_RSUM a4, a3 }
{ A_UPS a3, v2 }
{ V_MAX v2, v4, v7 }
{ V_MAX v4, v5, v10 }
{ A_RECI a7, a4 }
{ V_MAX v9, v2, v4 }
{ V_MAX v2, v3, v0 }
{ V_RMAX v4, v9 }
{ V_MAX v9, v1, v6 }
{ V_SRS v14, a7 }
{ A_SUB a4, a0, a3 }
{ A_SUB a0, a5, a3 }
{ A_SUB a5, a6, a3 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ A_EXP a0, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v7 }
{ L_VLD v5, p0, 32 ; A_UPS a6, v5 }
{ V_MUL v7, v8, v14 }
{ V_MUL v8, v12, v14 }
{ L_VST v7, p1, 32 ; L_VLD v7, p0, 32 ; V_MUL v12, v11, v14 }
{ L_VST v8, p1, 32 ; L_VLD v8, p0, 32 ; V_MUL v11, v13, v14 }
{ L_VST v12, p1, 32 ; L_VLD v12, p0, 32 ; V_SRS v13, a1 }
{ L_VST v11, p1, 32 ; V_MAX v11, v2, v9 }
{ V_SRS v2, a3 }
{ V_SRS v9, a0 }
{ V_SRS v14, a4 }
{ A_ADD a7, a1, a3 }
{ A_UPS a1, v10 }
{ A_ADD a3, a0, a4 }
{ A_UPS a0, v4 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a2, a0 }
{ A_RSUM a2, a4 }
{ A_SUB a4, a5, a0 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a1, a0 }
{ A_RECI a0, a2 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v4, a0 }
{ A_UPS a0, v3 }
{ A_UPS a5, v0 }
{ A_UPS a6, v1 }
{ L_VLD v1, p0, 32 ; V_MUL v0, v13, v4 }
{ L_VLD v2, p0, 32 ; V_MUL v3, v2, v4 }
{ L_VST v0, p1, 32 ; L_VLD v0, p0, 32 ; V_MUL v10, v9, v4 }
{ L_VST v3, p1, 32 ; L_VLD v3, p0, 32 ; V_MUL v9, v14, v4 }
{ L_VST v10, p1, 32 ; V_SRS v4, a1 }
{ L_VST v9, p1, 32 ; V_SRS v10, a2 }
{ V_SRS v9, a3 }
{ V_SRS v13, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v6 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v6, v11 }
{ A_ADD a3, a7, a2 }
{ A_UPS a2, v5 }
{ A_RSUM a4, a3 }
{ A_UPS a3, v6 }
{ V_MAX v6, v5, v7 }
{ V_MAX v5, v8, v12 }
{ A_RECI a7, a4 }
{ V_MAX v11, v6, v5 }
{ V_MAX v5, v1, v2 }
{ V_RMAX v6, v11 }
{ V_MAX v11, v0, v3 }
{ V_SRS v14, a7 }
{ A_SUB a4, a0, a3 ; S_ADDI r5, r0, 1024 }
{ A_SUB a0, a5, a3 ; S_ADDI r6, r15, 1024 }
{ A_SUB a5, a6, a3 ; S_ADDI r7, r0, 16 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ A_EXP a0, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v7 }
{ L_VLD v7, p0, 32 ; A_UPS a6, v8 }
{ V_MUL v8, v4, v14 }
{ V_MUL v4, v10, v14 }
{ L_VST v8, p1, 32 ; L_VLD v8, p0, 32 ; V_MUL v10, v9, v14 }
{ L_VST v4, p1, 32 ; L_VLD v4, p0, 32 ; V_MUL v9, v13, v14 }
{ L_VST v10, p1, 32 ; L_VLD v10, p0, 32 ; V_SRS v13, a1 }
{ L_VST v9, p1, 32 ; V_MAX v9, v5, v11 }
{ V_SRS v5, a3 }
{ V_SRS v11, a0 }
{ V_SRS v14, a4 }
{ A_ADD a7, a1, a3 }
{ A_UPS a1, v12 }
{ A_ADD a3, a0, a4 }
{ A_UPS a0, v6 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a2, a0 }
{ A_RSUM a2, a4 }
{ A_SUB a4, a5, a0 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a1, a0 }
{ A_RECI a0, a2 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v6, a0 }
{ A_UPS a0, v1 }
{ A_UPS a5, v2 }
{ A_UPS a6, v0 }
{ V_MUL v0, v13, v6 }
{ L_VLD v2, p0, 32 ; V_MUL v1, v5, v6 }
{ L_VST v0, p1, 32 ; L_VLD v0, p0, 32 ; V_MUL v5, v11, v6 }
{ L_VST v1, p1, 32 ; L_VLD v1, p0, 32 ; V_MUL v11, v14, v6 }
{ L_VST v5, p1, 32 ; L_VLD v5, p0, 32 ; V_SRS v6, a1 }
{ L_VST v11, p1, 32 ; V_SRS v12, a2 }
{ V_SRS v11, a3 ; C_DMAST 3, r5, r6, r14, r7 }
{ V_SRS v13, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v3 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v3, v9 }
{ A_ADD a3, a7, a2 }
{ A_UPS a2, v7 }
{ A_RSUM a4, a3 }
{ A_UPS a3, v3 }
{ V_MAX v3, v7, v8 }
{ V_MAX v7, v4, v10 }
{ A_RECI a7, a4 }
{ V_MAX v9, v3, v7 }
{ V_MAX v3, v2, v0 }
{ V_RMAX v7, v9 }
{ V_MAX v9, v1, v5 }
{ V_SRS v14, a7 }
{ A_SUB a4, a0, a3 }
{ A_SUB a0, a5, a3 }
{ A_SUB a5, a6, a3 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ A_EXP a0, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v8 }
{ L_VLD v4, p0, 32 ; A_UPS a6, v4 ; C_ACQ 0 }
{ V_MUL v8, v6, v14 }
{ V_MUL v6, v12, v14 }
{ L_VST v8, p1, 32 ; L_VLD v8, p0, 32 ; V_MUL v12, v11, v14 }
{ L_VST v6, p1, 32 ; L_VLD v6, p0, 32 ; V_MUL v11, v13, v14 }
{ L_VST v12, p1, 32 ; L_VLD v12, p0, 32 ; V_SRS v13, a1 }
{ L_VST v11, p1, 32 ; V_MAX v11, v3, v9 }
{ V_SRS v3, a3 }
{ V_SRS v9, a0 }
{ V_SRS v14, a4 }
{ A_ADD a7, a1, a3 }
{ A_UPS a1, v10 }
{ A_ADD a3, a0, a4 }
{ A_UPS a0, v7 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a2, a0 }
{ A_RSUM a2, a4 }
{ A_SUB a4, a5, a0 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a1, a0 }
{ A_RECI a0, a2 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v7, a0 }
{ A_UPS a0, v2 }
{ A_UPS a5, v0 }
{ A_UPS a6, v1 }
{ L_VLD v1, p0, 32 ; V_MUL v0, v13, v7 }
{ L_VLD v3, p0, 32 ; V_MUL v2, v3, v7 }
{ L_VST v0, p1, 32 ; L_VLD v0, p0, 32 ; V_MUL v10, v9, v7 }
{ L_VST v2, p1, 32 ; L_VLD v2, p0, 32 ; V_MUL v9, v14, v7 }
{ L_VST v10, p1, 32 ; V_SRS v7, a1 }
{ L_VST v9, p1, 32 ; V_SRS v10, a2 }
{ V_SRS v9, a3 }
{ V_SRS v13, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v5 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v5, v11 }
{ A_ADD a3, a7, a2 }
{ A_UPS a2, v4 }
{ A_RSUM a4, a3 }
{ A_UPS a3, v5 }
{ V_MAX v5, v4, v8 }
{ V_MAX v4, v6, v12 }
{ A_RECI a7, a4 }
{ V_MAX v11, v5, v4 }
{ V_MAX v4, v1, v3 }
{ V_RMAX v5, v11 }
{ V_MAX v11, v0, v2 }
{ V_SRS v14, a7 }
{ A_SUB a4, a0, a3 ; S_ADDI r5, r0, 1536 }
{ A_SUB a0, a5, a3 ; S_ADDI r6, r15, 1536 }
{ A_SUB a5, a6, a3 ; S_ADDI r7, r0, 16 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ A_EXP a0, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v8 }
{ L_VLD v6, p0, 32 ; A_UPS a6, v6 }
{ V_MUL v8, v7, v14 }
{ V_MUL v7, v10, v14 }
{ L_VST v8, p1, 32 ; L_VLD v8, p0, 32 ; V_MUL v10, v9, v14 }
{ L_VST v7, p1, 32 ; L_VLD v7, p0, 32 ; V_MUL v9, v13, v14 }
{ L_VST v10, p1, 32 ; L_VLD v10, p0, 32 ; V_SRS v13, a1 }
{ L_VST v9, p1, 32 ; V_MAX v9, v4, v11 }
{ V_SRS v4, a3 }
{ V_SRS v11, a0 }
{ V_SRS v14, a4 }
{ A_ADD a7, a1, a3 }
{ A_UPS a1, v12 }
{ A_ADD a3, a0, a4 }
{ A_UPS a0, v5 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a2, a0 }
{ A_RSUM a2, a4 }
{ A_SUB a4, a5, a0 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a1, a0 }
{ A_RECI a0, a2 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v5, a0 }
{ A_UPS a0, v1 }
{ A_UPS a5, v3 }
{ A_UPS a6, v0 }
{ V_MUL v0, v13, v5 }
{ L_VLD v3, p0, 32 ; V_MUL v1, v4, v5 }
{ L_VST v0, p1, 32 ; L_VLD v0, p0, 32 ; V_MUL v4, v11, v5 }
{ L_VST v1, p1, 32 ; L_VLD v1, p0, 32 ; V_MUL v11, v14, v5 }
{ L_VST v4, p1, 32 ; L_VLD v4, p0, 32 ; V_SRS v5, a1 }
{ L_VST v11, p1, 32 ; V_SRS v12, a2 }
{ V_SRS v11, a3 ; C_DMAST 1, r5, r6, r14, r7 }
{ V_SRS v13, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v2 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v2, v9 }
{ A_ADD a3, a7, a2 }
{ A_UPS a2, v6 }
{ A_RSUM a4, a3 }
{ A_UPS a3, v2 }
{ V_MAX v2, v6, v8 }
{ V_MAX v6, v7, v10 }
{ A_RECI a7, a4 }
{ V_MAX v9, v2, v6 }
{ V_MAX v2, v3, v0 }
{ V_RMAX v6, v9 }
{ V_MAX v9, v1, v4 }
{ V_SRS v14, a7 }
{ A_SUB a4, a0, a3 }
{ A_SUB a0, a5, a3 }
{ A_SUB a5, a6, a3 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ A_EXP a0, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v8 }
{ L_VLD v7, p0, 32 ; A_UPS a6, v7 }
{ V_MUL v8, v5, v14 }
{ V_MUL v5, v12, v14 }
{ L_VST v8, p1, 32 ; L_VLD v8, p0, 32 ; V_MUL v12, v11, v14 }
{ L_VST v5, p1, 32 ; L_VLD v5, p0, 32 ; V_MUL v11, v13, v14 }
{ L_VST v12, p1, 32 ; L_VLD v12, p0, 32 ; V_SRS v13, a1 }
{ L_VST v11, p1, 32 ; V_MAX v11, v2, v9 }
{ V_SRS v2, a3 }
{ V_SRS v9, a0 }
{ V_SRS v14, a4 }
{ A_ADD a7, a1, a3 }
{ A_UPS a1, v10 }
{ A_ADD a3, a0, a4 }
{ A_UPS a0, v6 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a2, a0 }
{ A_RSUM a2, a4 }
{ A_SUB a4, a5, a0 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a1, a0 }
{ A_RECI a0, a2 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v6, a0 }
{ A_UPS a0, v3 }
{ A_UPS a5, v0 }
{ A_UPS a6, v1 }
{ L_VLD v1, p0, 32 ; V_MUL v0, v13, v6 }
{ L_VLD v2, p0, 32 ; V_MUL v3, v2, v6 }
{ L_VST v0, p1, 32 ; L_VLD v0, p0, 32 ; V_MUL v10, v9, v6 }
{ L_VST v3, p1, 32 ; L_VLD v3, p0, 32 ; V_MUL v9, v14, v6 }
{ L_VST v10, p1, 32 ; V_SRS v6, a1 }
{ L_VST v9, p1, 32 ; V_SRS v10, a2 }
{ V_SRS v9, a3 }
{ V_SRS v13, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v4 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v4, v11 }
{ A_ADD a3, a7, a2 }
{ A_UPS a2, v7 }
{ A_RSUM a4, a3 }
{ A_UPS a3, v4 }
{ V_MAX v4, v7, v8 }
{ V_MAX v7, v5, v12 }
{ A_RECI a7, a4 }
{ V_MAX v11, v4, v7 }
{ V_MAX v4, v1, v2 }
{ V_RMAX v7, v11 }
{ V_MAX v11, v0, v3 }
{ V_SRS v14, a7 }
{ A_SUB a4, a0, a3 ; S_ADDI r5, r0, 2048 }
{ A_SUB a0, a5, a3 ; S_ADDI r6, r15, 2048 }
{ A_SUB a5, a6, a3 ; S_ADDI r7, r0, 16 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ A_EXP a0, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v8 }
{ L_VLD v5, p0, 32 ; A_UPS a6, v5 }
{ V_MUL v8, v6, v14 }
{ V_MUL v6, v10, v14 }
{ L_VST v8, p1, 32 ; L_VLD v8, p0, 32 ; V_MUL v10, v9, v14 }
{ L_VST v6, p1, 32 ; L_VLD v6, p0, 32 ; V_MUL v9, v13, v14 }
{ L_VST v10, p1, 32 ; L_VLD v10, p0, 32 ; V_SRS v13, a1 }
{ L_VST v9, p1, 32 ; V_MAX v9, v4, v11 }
{ V_SRS v4, a3 }
{ V_SRS v11, a0 }
{ V_SRS v14, a4 }
{ A_ADD a7, a1, a3 }
{ A_UPS a1, v12 }
{ A_ADD a3, a0, a4 }
{ A_UPS a0, v7 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a2, a0 }
{ A_RSUM a2, a4 }
{ A_SUB a4, a5, a0 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a1, a0 }
{ A_RECI a0, a2 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v7, a0 }
{ A_UPS a0, v1 }
{ A_UPS a5, v2 }
{ A_UPS a6, v0 }
{ V_MUL v0, v13, v7 }
{ L_VLD v2, p0, 32 ; V_MUL v1, v4, v7 }
{ L_VST v0, p1, 32 ; L_VLD v0, p0, 32 ; V_MUL v4, v11, v7 }
{ L_VST v1, p1, 32 ; L_VLD v1, p0, 32 ; V_MUL v11, v14, v7 }
{ L_VST v4, p1, 32 ; L_VLD v4, p0, 32 ; V_SRS v7, a1 }
{ L_VST v11, p1, 32 ; V_SRS v12, a2 }
{ V_SRS v11, a3 ; C_DMAST 2, r5, r6, r14, r7 }
{ V_SRS v13, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v3 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v3, v9 }
{ A_ADD a3, a7, a2 }
{ A_UPS a2, v5 }
{ A_RSUM a4, a3 }
{ A_UPS a3, v3 }
{ V_MAX v3, v5, v8 }
{ V_MAX v5, v6, v10 }
{ A_RECI a7, a4 }
{ V_MAX v9, v3, v5 }
{ V_MAX v3, v2, v0 }
{ V_RMAX v5, v9 }
{ V_MAX v9, v1, v4 }
{ V_SRS v14, a7 }
{ A_SUB a4, a0, a3 }
{ A_SUB a0, a5, a3 }
{ A_SUB a5, a6, a3 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ A_EXP a0, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v8 }
{ L_VLD v6, p0, 32 ; A_UPS a6, v6 }
{ V_MUL v8, v7, v14 }
{ V_MUL v7, v12, v14 }
{ L_VST v8, p1, 32 ; L_VLD v8, p0, 32 ; V_MUL v12, v11, v14 }
{ L_VST v7, p1, 32 ; L_VLD v7, p0, 32 ; V_MUL v11, v13, v14 }
{ L_VST v12, p1, 32 ; L_VLD v12, p0, 32 ; V_SRS v13, a1 }
{ L_VST v11, p1, 32 ; V_MAX v11, v3, v9 }
{ V_SRS v3, a3 }
{ V_SRS v9, a0 }
{ V_SRS v14, a4 }
{ A_ADD a7, a1, a3 }
{ A_UPS a1, v10 }
{ A_ADD a3, a0, a4 }
{ A_UPS a0, v5 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a2, a0 }
{ A_RSUM a2, a4 }
{ A_SUB a4, a5, a0 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a1, a0 }
{ A_RECI a0, a2 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v5, a0 }
{ A_UPS a0, v2 }
{ A_UPS a5, v0 }
{ A_UPS a6, v1 }
{ L_VLD v1, p0, 32 ; V_MUL v0, v13, v5 }
{ L_VLD v3, p0, 32 ; V_MUL v2, v3, v5 }
{ L_VST v0, p1, 32 ; L_VLD v0, p0, 32 ; V_MUL v10, v9, v5 }
{ L_VST v2, p1, 32 ; L_VLD v2, p0, 32 ; V_MUL v9, v14, v5 }
{ L_VST v10, p1, 32 ; V_SRS v5, a1 }
{ L_VST v9, p1, 32 ; V_SRS v10, a2 }
{ V_SRS v9, a3 }
{ V_SRS v13, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v4 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v4, v11 }
{ A_ADD a3, a7, a2 }
{ A_UPS a2, v6 }
{ A_RSUM a4, a3 }
{ A_UPS a3, v4 }
{ V_MAX v4, v6, v8 }
{ V_MAX v6, v7, v12 }
{ A_RECI a7, a4 }
{ V_MAX v11, v4, v6 }
{ V_MAX v4, v1, v3 }
{ V_RMAX v6, v11 }
{ V_MAX v11, v0, v2 }
{ V_SRS v14, a7 }
{ A_SUB a4, a0, a3 ; S_ADDI r5, r0, 2560 }
{ A_SUB a0, a5, a3 ; S_ADDI r6, r15, 2560 }
{ A_SUB a5, a6, a3 ; S_ADDI r7, r0, 16 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ A_EXP a0, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v8 }
{ L_VLD v7, p0, 32 ; A_UPS a6, v7 }
{ V_MUL v8, v5, v14 }
{ V_MUL v5, v10, v14 }
{ L_VST v8, p1, 32 ; L_VLD v8, p0, 32 ; V_MUL v10, v9, v14 }
{ L_VST v5, p1, 32 ; L_VLD v5, p0, 32 ; V_MUL v9, v13, v14 }
{ L_VST v10, p1, 32 ; L_VLD v10, p0, 32 ; V_SRS v13, a1 }
{ L_VST v9, p1, 32 ; V_MAX v9, v4, v11 }
{ V_SRS v4, a3 }
{ V_SRS v11, a0 }
{ V_SRS v14, a4 }
{ A_ADD a7, a1, a3 }
{ A_UPS a1, v12 }
{ A_ADD a3, a0, a4 }
{ A_UPS a0, v6 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a2, a0 }
{ A_RSUM a2, a4 }
{ A_SUB a4, a5, a0 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a1, a0 }
{ A_RECI a0, a2 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v6, a0 }
{ A_UPS a0, v1 }
{ A_UPS a5, v3 }
{ A_UPS a6, v0 }
{ V_MUL v0, v13, v6 }
{ L_VLD v3, p0, 32 ; V_MUL v1, v4, v6 }
{ L_VST v0, p1, 32 ; L_VLD v0, p0, 32 ; V_MUL v4, v11, v6 }
{ L_VST v1, p1, 32 ; L_VLD v1, p0, 32 ; V_MUL v11, v14, v6 }
{ L_VST v4, p1, 32 ; L_VLD v4, p0, 32 ; V_SRS v6, a1 }
{ L_VST v11, p1, 32 ; V_SRS v12, a2 }
{ V_SRS v11, a3 ; C_DMAST 3, r5, r6, r14, r7 }
{ V_SRS v13, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v2 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v2, v9 }
{ A_ADD a3, a7, a2 }
{ A_UPS a2, v7 }
{ A_RSUM a4, a3 }
{ A_UPS a3, v2 }
{ V_MAX v2, v7, v8 }
{ V_MAX v7, v5, v10 }
{ A_RECI a7, a4 }
{ V_MAX v9, v2, v7 }
{ V_MAX v2, v3, v0 }
{ V_RMAX v7, v9 }
{ V_MAX v9, v1, v4 }
{ V_SRS v14, a7 }
{ A_SUB a4, a0, a3 }
{ A_SUB a0, a5, a3 }
{ A_SUB a5, a6, a3 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ A_EXP a0, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v8 }
{ L_VLD v5, p0, 32 ; A_UPS a6, v5 }
{ V_MUL v8, v6, v14 }
{ V_MUL v6, v12, v14 }
{ L_VST v8, p1, 32 ; L_VLD v8, p0, 32 ; V_MUL v12, v11, v14 }
{ L_VST v6, p1, 32 ; L_VLD v6, p0, 32 ; V_MUL v11, v13, v14 }
{ L_VST v12, p1, 32 ; L_VLD v12, p0, 32 ; V_SRS v13, a1 }
{ L_VST v11, p1, 32 ; V_MAX v11, v2, v9 }
{ V_SRS v2, a3 }
{ V_SRS v9, a0 }
{ V_SRS v14, a4 }
{ A_ADD a7, a1, a3 }
{ A_UPS a1, v10 }
{ A_ADD a3, a0, a4 }
{ A_UPS a0, v7 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a2, a0 }
{ A_RSUM a2, a4 }
{ A_SUB a4, a5, a0 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a1, a0 }
{ A_RECI a0, a2 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v7, a0 }
{ A_UPS a0, v3 }
{ A_UPS a5, v0 }
{ A_UPS a6, v1 }
{ L_VLD v1, p0, 32 ; V_MUL v0, v13, v7 }
{ L_VLD v2, p0, 32 ; V_MUL v3, v2, v7 }
{ L_VST v0, p1, 32 ; L_VLD v0, p0, 32 ; V_MUL v10, v9, v7 }
{ L_VST v3, p1, 32 ; L_VLD v3, p0, 32 ; V_MUL v9, v14, v7 }
{ L_VST v10, p1, 32 ; V_SRS v7, a1 }
{ L_VST v9, p1, 32 ; V_SRS v10, a2 }
{ V_SRS v9, a3 }
{ V_SRS v13, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v4 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v4, v11 }
{ A_ADD a3, a7, a2 }
{ A_UPS a2, v5 }
{ A_RSUM a4, a3 }
{ A_UPS a3, v4 }
{ V_MAX v4, v5, v8 }
{ V_MAX v5, v6, v12 }
{ A_RECI a7, a4 }
{ V_MAX v11, v4, v5 }
{ V_MAX v4, v1, v2 }
{ V_RMAX v5, v11 }
{ V_MAX v11, v0, v3 }
{ V_SRS v14, a7 }
{ A_SUB a4, a0, a3 ; S_ADDI r5, r0, 3072 }
{ A_SUB a0, a5, a3 ; S_ADDI r6, r15, 3072 }
{ A_SUB a5, a6, a3 ; S_ADDI r7, r0, 16 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ A_EXP a0, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v8 }
{ L_VLD v6, p0, 32 ; A_UPS a6, v6 }
{ V_MUL v8, v7, v14 }
{ V_MUL v7, v10, v14 }
{ L_VST v8, p1, 32 ; L_VLD v8, p0, 32 ; V_MUL v10, v9, v14 }
{ L_VST v7, p1, 32 ; L_VLD v7, p0, 32 ; V_MUL v9, v13, v14 }
{ L_VST v10, p1, 32 ; L_VLD v10, p0, 32 ; V_SRS v13, a1 }
{ L_VST v9, p1, 32 ; V_MAX v9, v4, v11 }
{ V_SRS v4, a3 }
{ V_SRS v11, a0 }
{ V_SRS v14, a4 }
{ A_ADD a7, a1, a3 }
{ A_UPS a1, v12 }
{ A_ADD a3, a0, a4 }
{ A_UPS a0, v5 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a2, a0 }
{ A_RSUM a2, a4 }
{ A_SUB a4, a5, a0 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a1, a0 }
{ A_RECI a0, a2 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v5, a0 }
{ A_UPS a0, v1 }
{ A_UPS a5, v2 }
{ A_UPS a6, v0 }
{ V_MUL v0, v13, v5 }
{ L_VLD v2, p0, 32 ; V_MUL v1, v4, v5 }
{ L_VST v0, p1, 32 ; L_VLD v0, p0, 32 ; V_MUL v4, v11, v5 }
{ L_VST v1, p1, 32 ; L_VLD v1, p0, 32 ; V_MUL v11, v14, v5 }
{ L_VST v4, p1, 32 ; L_VLD v4, p0, 32 ; V_SRS v5, a1 }
{ L_VST v11, p1, 32 ; V_SRS v12, a2 }
{ V_SRS v11, a3 ; C_DMAST 1, r5, r6, r14, r7 }
{ V_SRS v13, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v3 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v3, v9 }
{ A_ADD a3, a7, a2 }
{ A_UPS a2, v6 }
{ A_RSUM a4, a3 }
{ A_UPS a3, v3 }
{ V_MAX v3, v6, v8 }
{ V_MAX v6, v7, v10 }
{ A_RECI a7, a4 }
{ V_MAX v9, v3, v6 }
{ V_MAX v3, v2, v0 }
{ V_RMAX v6, v9 }
{ V_MAX v9, v1, v4 }
{ V_SRS v14, a7 }
{ A_SUB a4, a0, a3 }
{ A_SUB a0, a5, a3 }
{ A_SUB a5, a6, a3 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ A_EXP a0, a5 }
{ A_EXP a4, a6 }
{ A_UPS a5, v8 }
{ A_UPS a6, v7 }
{ V_MUL v7, v5, v14 }
{ V_MUL v5, v12, v14 }
{ L_VST v7, p1, 32 ; V_MUL v8, v11, v14 }
{ L_VST v5, p1, 32 ; V_MUL v7, v13, v14 }
{ L_VST v8, p1, 32 ; V_SRS v5, a1 }
{ L_VST v7, p1, 32 ; V_SRS v8, a3 }
{ V_SRS v7, a0 }
{ V_SRS v11, a4 }
{ A_ADD a7, a1, a3 }
{ A_UPS a1, v10 }
{ A_ADD a3, a0, a4 }
{ A_UPS a0, v6 }
{ A_ADD a4, a7, a3 }
{ A_SUB a3, a2, a0 ; S_ADDI r5, r0, 3584 }
{ A_RSUM a2, a4 ; S_ADDI r6, r15, 3584 }
{ A_SUB a4, a5, a0 ; S_ADDI r7, r0, 12 }
{ A_SUB a5, a6, a0 }
{ A_SUB a6, a1, a0 }
{ A_RECI a0, a2 }
{ A_EXP a1, a3 }
{ A_EXP a2, a4 }
{ A_EXP a3, a5 }
{ A_EXP a4, a6 }
{ V_SRS v6, a0 }
{ A_UPS a0, v2 }
{ A_UPS a5, v0 ; S_ADDI r8, r0, 3968 }
{ A_UPS a6, v1 ; S_ADDI r9, r15, 3968 }
{ V_MAX v0, v3, v9 ; S_ADDI r10, r0, 4 }
{ V_MUL v1, v5, v6 }
{ V_MUL v2, v8, v6 }
{ L_VST v1, p1, 32 ; V_MUL v3, v7, v6 }
{ L_VST v2, p1, 32 ; V_MUL v1, v11, v6 }
{ L_VST v3, p1, 32 ; V_SRS v2, a1 }
{ L_VST v1, p1, 32 ; V_SRS v3, a2 }
{ V_SRS v1, a3 }
{ V_SRS v5, a4 }
{ A_ADD a7, a1, a2 }
{ A_UPS a1, v4 }
{ A_ADD a2, a3, a4 }
{ V_RMAX v4, v0 }
{ A_ADD a3, a7, a2 }
C_NOP
{ A_RSUM a2, a3 }
{ A_UPS a3, v4 }
{ A_SUB a4, a0, a3 }
{ A_SUB a0, a5, a3 }
{ A_RECI a5, a2 }
{ A_SUB a2, a6, a3 }
{ A_SUB a6, a1, a3 }
{ A_EXP a1, a4 }
{ A_EXP a3, a0 }
{ V_SRS v0, a5 }
{ A_EXP a0, a2 }
{ A_EXP a2, a6 }
{ V_MUL v4, v2, v0 }
{ V_MUL v2, v3, v0 }
{ L_VST v4, p1, 32 ; V_MUL v3, v1, v0 }
{ L_VST v2, p1, 32 ; V_MUL v1, v5, v0 }
{ L_VST v3, p1, 32 ; V_SRS v0, a1 }
{ L_VST v1, p1, 32 ; V_SRS v2, a3 }
{ V_SRS v1, a0 ; C_DMAST 1, r5, r6, r14, r7 }
{ V_SRS v3, a2 }
{ A_ADD a4, a1, a3 }
{ A_ADD a1, a0, a2 }
C_NOP
{ A_ADD a0, a4, a1 }
C_NOP
{ A_RSUM a1, a0 }
C_NOP
C_NOP
C_NOP
{ A_RECI a0, a1 }
C_NOP
C_NOP
C_NOP
C_NOP
{ V_SRS v4, a0 }
C_NOP
{ V_MUL v5, v0, v4 }
{ V_MUL v0, v2, v4 }
{ L_VST v5, p1, 32 ; V_MUL v2, v1, v4 }
{ L_VST v0, p1, 32 ; V_MUL v1, v3, v4 }
{ L_VST v2, p1, 32 }
{ L_VST v1, p1, 32 }
{ C_DMAST 2, r8, r9, r14, r10 }
C_HALT
