; layer_norm_c2: written (generated and list-scheduled from kcraft isa --json) by a new user from kcraft isa, task
; show and docs/vliw.md alone; kept as kernels the attainable bound must stay under and near (VliwBounds).
; layer_norm M=32 N=64 generated
S_LI r1, ROW_BYTES
S_LI r4, 4
S_LI r3, ADDR_X
C_DMALD 0, r0, r3, r1, r4, 0
S_LI r2, 4096
S_LI r3, ADDR_GAMMA
S_LI r4, 8
C_DMALD 1, r2, r3, r1, r4, 1
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
S_LI_FP r5, 1.0/64
S_LI_FP r6, 1e-5
S_LI r14, ROW_BYTES
S_LI r15, ADDR_Y
S_PMOV p0, r0
S_PMOV p1, r0
S_LI r2, 4096
S_PMOV p2, r2
S_LI r2, 4224
S_PMOV p3, r2
{ V_BCST v0, r5 }
{ A_BCST a0, r5 }
{ A_BCST a1, r6 }
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
{ L_VLD v1, p0, 32 ; C_ACQ 0 }
{ L_VLD v2, p0, 32 }
{ L_VLD v3, p0, 32 }
{ L_VLD v4, p0, 32 ; A_VMUL a2, v1, v0 }
{ A_VMUL a3, v1, v1 }
C_NOP
{ A_VMAC a2, v2, v0 }
{ A_VMAC a3, v2, v2 }
C_NOP
{ A_VMAC a2, v3, v0 }
{ A_VMAC a3, v3, v3 }
C_NOP
{ A_VMAC a2, v4, v0 }
{ A_VMAC a3, v4, v4 }
C_NOP
{ A_RSUM a2, a2 }
{ A_RSUM a3, a3 }
C_NOP
C_NOP
{ A_MUL a4, a2, a2 }
{ L_VLD v5, p0, 32 ; A_MUL a3, a3, a0 ; C_ACQ 0 }
{ L_VLD v7, p0, 32 ; V_SRS v6, a2 }
{ L_VLD v8, p0, 32 ; A_SUB a3, a3, a4 }
{ L_VLD v9, p0, 32 ; A_UPS a4, v6 }
{ L_VLD v10, p0, 32 ; V_SUB v1, v1, v6 }
{ L_VLD v11, p0, 32 ; V_SUB v2, v2, v6 }
{ L_VLD v12, p0, 32 ; V_SUB v3, v3, v6 }
{ L_VLD v6, p0, 32 ; V_SUB v4, v4, v6 }
{ A_ADD a3, a3, a1 }
{ A_SUB a2, a2, a4 }
{ A_VMUL a4, v5, v0 }
{ A_VMUL a5, v5, v5 }
{ A_RSQRT a3, a3 }
{ A_VMAC a4, v7, v0 }
{ A_VMAC a5, v7, v7 }
{ L_VLD v14, p2, 32 ; V_SRS v13, a2 ; C_ACQ 1 }
{ L_VLD v15, p3, 32 ; A_VMAC a4, v8, v0 }
{ A_VMAC a5, v8, v8 }
{ V_SUB v1, v1, v13 }
{ A_VMAC a4, v9, v0 }
{ A_VMAC a5, v9, v9 }
{ V_SUB v2, v2, v13 }
{ A_RSUM a4, a4 }
{ A_RSUM a5, a5 }
{ V_SUB v3, v3, v13 }
{ V_SUB v4, v4, v13 }
{ V_SRS v13, a3 }
{ A_MUL a5, a5, a0 }
{ A_MUL a2, a4, a4 }
{ V_MUL v14, v14, v13 }
{ A_SUB a2, a5, a2 }
{ V_MUL v14, v1, v14 }
{ L_VLD v1, p2, 32 ; A_ADD a2, a2, a1 }
{ A_VMUL a3, v10, v0 }
{ A_VMUL a5, v10, v10 }
{ V_MUL v1, v1, v13 }
{ A_VMAC a3, v11, v0 }
{ V_MUL v1, v2, v1 }
{ L_VLD v2, p3, 32 ; A_VMAC a5, v11, v11 }
{ A_VMAC a3, v12, v0 }
{ V_ADD v15, v14, v15 }
{ L_VLD v14, p2, 32 ; A_VMAC a5, v12, v12 }
{ L_VST v15, p1, 32 ; A_VMAC a3, v6, v0 }
{ L_VLD v15, p3, 32 ; V_ADD v1, v1, v2 }
{ V_MUL v14, v14, v13 }
{ L_VLD v2, p2, -96 ; L_VST v1, p1, 32 ; A_VMAC a5, v6, v6 }
{ L_VLD v1, p3, -96 ; V_MUL v14, v3, v14 }
{ A_RSQRT a2, a2 }
{ V_MUL v2, v2, v13 }
{ L_VLD v3, p0, 32 ; V_ADD v14, v14, v15 }
{ L_VLD v4, p0, 32 ; V_MUL v2, v4, v2 }
{ L_VST v14, p1, 32 ; L_VLD v13, p0, 32 ; A_RSUM a3, a3 }
{ L_VLD v2, p0, 32 ; V_ADD v1, v2, v1 }
{ A_RSUM a5, a5 }
{ L_VST v1, p1, 32 ; V_SRS v1, a2 }
{ V_SRS v14, a4 }
{ A_MUL a2, a3, a3 }
{ A_UPS a6, v14 }
{ V_SUB v5, v5, v14 }
{ V_SUB v7, v7, v14 }
{ V_SUB v8, v8, v14 }
{ V_SUB v9, v9, v14 }
{ A_SUB a6, a4, a6 }
{ A_MUL a5, a5, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v14, a6 }
{ A_SUB a5, a5, a2 }
{ V_SUB v5, v5, v14 }
{ V_SUB v7, v7, v14 }
{ V_SUB v8, v8, v14 }
{ V_SUB v14, v9, v14 }
{ L_VLD v9, p3, 32 ; V_MUL v15, v15, v1 }
{ A_ADD a5, a5, a1 }
{ V_MUL v15, v5, v15 }
{ L_VLD v5, p2, 32 ; A_VMUL a2, v3, v0 }
{ A_VMUL a4, v3, v3 }
{ V_ADD v9, v15, v9 }
{ L_VLD v15, p3, 32 ; V_MUL v5, v5, v1 }
{ L_VST v9, p1, 32 ; A_VMAC a2, v4, v0 }
{ L_VLD v9, p2, 32 ; V_MUL v5, v7, v5 }
{ L_VLD v7, p3, 32 ; A_VMAC a4, v4, v4 }
{ A_VMAC a2, v13, v0 }
{ V_MUL v9, v9, v1 }
{ A_VMAC a4, v13, v13 }
{ V_MUL v8, v8, v9 }
{ L_VLD v9, p2, -96 ; A_VMAC a2, v2, v0 }
{ A_VMAC a4, v2, v2 }
{ V_ADD v5, v5, v15 }
{ L_VLD v15, p3, -96 ; V_MUL v1, v9, v1 }
{ L_VST v5, p1, 32 ; L_VLD v5, p0, 32 ; V_ADD v7, v8, v7 ; C_ACQ 0 }
{ L_VLD v8, p0, 32 ; V_MUL v1, v14, v1 }
{ L_VST v7, p1, 32 ; L_VLD v7, p0, 32 ; A_RSQRT a5, a5 }
{ L_VLD v1, p0, 32 ; V_ADD v15, v1, v15 }
{ A_RSUM a2, a2 }
{ L_VST v15, p1, 32 ; A_RSUM a4, a4 }
{ V_SRS v9, a3 }
{ V_SRS v14, a5 }
{ A_UPS a5, v9 }
{ V_SUB v10, v10, v9 }
{ V_SUB v11, v11, v9 }
{ V_SUB v12, v12, v9 }
{ V_SUB v6, v6, v9 }
{ A_SUB a5, a3, a5 }
{ A_MUL a4, a4, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v9, a5 }
{ A_MUL a3, a2, a2 }
{ V_SUB v10, v10, v9 }
{ V_SUB v11, v11, v9 }
{ V_SUB v12, v12, v9 }
{ V_SUB v6, v6, v9 }
{ L_VLD v9, p3, 32 ; V_MUL v15, v15, v14 }
{ A_SUB a4, a4, a3 }
{ V_MUL v15, v10, v15 }
{ L_VLD v10, p2, 32 ; A_ADD a4, a4, a1 }
{ A_VMUL a3, v5, v0 }
{ A_VMUL a5, v5, v5 }
{ V_MUL v10, v10, v14 }
{ A_VMAC a3, v8, v0 }
{ V_MUL v10, v11, v10 }
{ L_VLD v11, p3, 32 ; A_VMAC a5, v8, v8 }
{ A_VMAC a3, v7, v0 }
{ V_ADD v15, v15, v9 }
{ L_VLD v9, p2, 32 ; A_VMAC a5, v7, v7 }
{ L_VST v15, p1, 32 ; A_VMAC a3, v1, v0 }
{ L_VLD v15, p3, 32 ; V_ADD v11, v10, v11 }
{ V_MUL v9, v9, v14 }
{ L_VLD v10, p2, -96 ; L_VST v11, p1, 32 ; A_VMAC a5, v1, v1 }
{ L_VLD v11, p3, -96 ; V_MUL v9, v12, v9 }
{ A_RSQRT a4, a4 }
{ V_MUL v10, v10, v14 }
{ L_VLD v9, p0, 32 ; V_ADD v15, v9, v15 }
{ L_VLD v10, p0, 32 ; V_MUL v6, v6, v10 }
{ L_VST v15, p1, 32 ; L_VLD v12, p0, 32 ; A_RSUM a3, a3 }
{ L_VLD v11, p0, 32 ; V_ADD v6, v6, v11 }
{ A_RSUM a5, a5 }
{ L_VST v6, p1, 32 ; V_SRS v6, a4 }
{ V_SRS v14, a2 }
{ A_MUL a4, a3, a3 }
{ A_UPS a6, v14 }
{ V_SUB v3, v3, v14 }
{ V_SUB v4, v4, v14 }
{ V_SUB v13, v13, v14 }
{ V_SUB v14, v2, v14 }
{ A_SUB a2, a2, a6 }
{ A_MUL a5, a5, a0 ; S_ADDI r7, r0, 0 }
{ L_VLD v15, p2, 32 ; V_SRS v2, a2 ; S_ADDI r8, r15, 0 }
{ A_SUB a4, a5, a4 ; S_ADDI r9, r0, 16 }
{ V_SUB v3, v3, v2 }
{ V_SUB v4, v4, v2 }
{ V_SUB v13, v13, v2 }
{ V_SUB v2, v14, v2 }
{ L_VLD v14, p3, 32 ; V_MUL v15, v15, v6 }
{ A_ADD a4, a4, a1 }
{ V_MUL v3, v3, v15 }
{ L_VLD v15, p2, 32 ; A_VMUL a2, v9, v0 }
{ A_VMUL a5, v9, v9 }
{ V_ADD v3, v3, v14 }
{ L_VLD v14, p3, 32 ; V_MUL v15, v15, v6 }
{ L_VST v3, p1, 32 ; A_VMAC a2, v10, v0 }
{ L_VLD v3, p2, 32 ; V_MUL v4, v4, v15 }
{ L_VLD v15, p3, 32 ; A_VMAC a5, v10, v10 }
{ A_VMAC a2, v12, v0 }
{ V_MUL v3, v3, v6 }
{ A_VMAC a5, v12, v12 }
{ V_MUL v13, v13, v3 }
{ L_VLD v3, p2, -96 ; A_VMAC a2, v11, v0 }
{ A_VMAC a5, v11, v11 }
{ V_ADD v14, v4, v14 }
{ L_VLD v4, p3, -96 ; V_MUL v3, v3, v6 }
{ L_VST v14, p1, 32 ; L_VLD v6, p0, 32 ; V_ADD v15, v13, v15 }
{ L_VLD v2, p0, 32 ; V_MUL v3, v2, v3 }
{ L_VST v15, p1, 32 ; L_VLD v13, p0, 32 ; A_RSQRT a4, a4 }
{ L_VLD v3, p0, 32 ; V_ADD v4, v3, v4 }
{ A_RSUM a2, a2 }
{ L_VST v4, p1, 32 ; A_RSUM a5, a5 }
{ V_SRS v4, a3 ; C_DMAST 1, r7, r8, r14, r9 }
{ V_SRS v14, a4 }
{ A_UPS a4, v4 }
{ V_SUB v5, v5, v4 }
{ V_SUB v8, v8, v4 }
{ V_SUB v7, v7, v4 }
{ V_SUB v1, v1, v4 }
{ A_SUB a3, a3, a4 }
{ A_MUL a5, a5, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v4, a3 }
{ A_MUL a3, a2, a2 }
{ V_SUB v5, v5, v4 }
{ V_SUB v8, v8, v4 }
{ V_SUB v7, v7, v4 }
{ V_SUB v4, v1, v4 }
{ L_VLD v1, p3, 32 ; V_MUL v15, v15, v14 }
{ A_SUB a5, a5, a3 }
{ V_MUL v5, v5, v15 }
{ L_VLD v15, p2, 32 ; A_ADD a5, a5, a1 }
{ A_VMUL a3, v6, v0 }
{ A_VMUL a4, v6, v6 }
{ V_MUL v15, v15, v14 }
{ A_VMAC a3, v2, v0 }
{ V_MUL v15, v8, v15 }
{ L_VLD v8, p3, 32 ; A_VMAC a4, v2, v2 }
{ A_VMAC a3, v13, v0 }
{ V_ADD v1, v5, v1 }
{ L_VLD v5, p2, 32 ; A_VMAC a4, v13, v13 }
{ L_VST v1, p1, 32 ; A_VMAC a3, v3, v0 }
{ L_VLD v1, p3, 32 ; V_ADD v8, v15, v8 }
{ V_MUL v5, v5, v14 }
{ L_VLD v15, p2, -96 ; L_VST v8, p1, 32 ; A_VMAC a4, v3, v3 }
{ L_VLD v8, p3, -96 ; V_MUL v5, v7, v5 }
{ A_RSQRT a5, a5 }
{ V_MUL v14, v15, v14 }
{ L_VLD v5, p0, 32 ; V_ADD v1, v5, v1 }
{ L_VLD v4, p0, 32 ; V_MUL v14, v4, v14 }
{ L_VST v1, p1, 32 ; L_VLD v1, p0, 32 ; A_RSUM a3, a3 }
{ L_VLD v7, p0, 32 ; V_ADD v8, v14, v8 }
{ A_RSUM a4, a4 }
{ L_VST v8, p1, 32 ; V_SRS v8, a5 }
{ V_SRS v14, a2 }
{ A_MUL a5, a3, a3 }
{ A_UPS a6, v14 }
{ V_SUB v9, v9, v14 }
{ V_SUB v10, v10, v14 }
{ V_SUB v12, v12, v14 }
{ V_SUB v11, v11, v14 }
{ A_SUB a2, a2, a6 }
{ A_MUL a4, a4, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v14, a2 }
{ A_SUB a4, a4, a5 }
{ V_SUB v9, v9, v14 }
{ V_SUB v10, v10, v14 }
{ V_SUB v12, v12, v14 }
{ V_SUB v14, v11, v14 }
{ L_VLD v11, p3, 32 ; V_MUL v15, v15, v8 }
{ A_ADD a4, a4, a1 }
{ V_MUL v9, v9, v15 }
{ L_VLD v15, p2, 32 ; A_VMUL a2, v5, v0 }
{ A_VMUL a5, v5, v5 }
{ V_ADD v11, v9, v11 }
{ L_VLD v9, p3, 32 ; V_MUL v15, v15, v8 }
{ L_VST v11, p1, 32 ; A_VMAC a2, v4, v0 }
{ L_VLD v11, p2, 32 ; V_MUL v15, v10, v15 }
{ L_VLD v10, p3, 32 ; A_VMAC a5, v4, v4 }
{ A_VMAC a2, v1, v0 }
{ V_MUL v11, v11, v8 }
{ A_VMAC a5, v1, v1 }
{ V_MUL v11, v12, v11 }
{ L_VLD v12, p2, -96 ; A_VMAC a2, v7, v0 }
{ A_VMAC a5, v7, v7 }
{ V_ADD v15, v15, v9 }
{ L_VLD v9, p3, -96 ; V_MUL v12, v12, v8 }
{ L_VST v15, p1, 32 ; L_VLD v8, p0, 32 ; V_ADD v10, v11, v10 }
{ L_VLD v11, p0, 32 ; V_MUL v14, v14, v12 }
{ L_VST v10, p1, 32 ; L_VLD v10, p0, 32 ; A_RSQRT a4, a4 }
{ L_VLD v9, p0, 32 ; V_ADD v14, v14, v9 }
{ A_RSUM a2, a2 }
{ L_VST v14, p1, 32 ; A_RSUM a5, a5 }
{ V_SRS v12, a3 }
{ V_SRS v14, a4 }
{ A_UPS a4, v12 }
{ V_SUB v6, v6, v12 }
{ V_SUB v2, v2, v12 }
{ V_SUB v13, v13, v12 }
{ V_SUB v3, v3, v12 }
{ A_SUB a3, a3, a4 }
{ A_MUL a5, a5, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v12, a3 }
{ A_MUL a3, a2, a2 }
{ V_SUB v6, v6, v12 }
{ V_SUB v2, v2, v12 }
{ V_SUB v13, v13, v12 }
{ V_SUB v3, v3, v12 }
{ L_VLD v12, p3, 32 ; V_MUL v15, v15, v14 }
{ A_SUB a3, a5, a3 }
{ V_MUL v6, v6, v15 }
{ L_VLD v15, p2, 32 ; A_ADD a3, a3, a1 }
{ A_VMUL a4, v8, v0 }
{ A_VMUL a5, v8, v8 }
{ V_MUL v15, v15, v14 }
{ A_VMAC a4, v11, v0 }
{ V_MUL v15, v2, v15 }
{ L_VLD v2, p3, 32 ; A_VMAC a5, v11, v11 }
{ A_VMAC a4, v10, v0 }
{ V_ADD v6, v6, v12 }
{ L_VLD v12, p2, 32 ; A_VMAC a5, v10, v10 }
{ L_VST v6, p1, 32 ; A_VMAC a4, v9, v0 }
{ L_VLD v6, p3, 32 ; V_ADD v2, v15, v2 }
{ V_MUL v12, v12, v14 }
{ L_VLD v15, p2, -96 ; L_VST v2, p1, 32 ; A_VMAC a5, v9, v9 }
{ L_VLD v2, p3, -96 ; V_MUL v12, v13, v12 }
{ A_RSQRT a3, a3 }
{ V_MUL v14, v15, v14 }
{ L_VLD v12, p0, 32 ; V_ADD v6, v12, v6 }
{ L_VLD v13, p0, 32 ; V_MUL v3, v3, v14 }
{ L_VST v6, p1, 32 ; L_VLD v6, p0, 32 ; A_RSUM a4, a4 }
{ L_VLD v2, p0, 32 ; V_ADD v3, v3, v2 }
{ A_RSUM a5, a5 }
{ L_VST v3, p1, 32 ; V_SRS v3, a3 }
{ V_SRS v14, a2 }
{ A_MUL a3, a4, a4 }
{ A_UPS a6, v14 }
{ V_SUB v5, v5, v14 }
{ V_SUB v4, v4, v14 }
{ V_SUB v1, v1, v14 }
{ V_SUB v7, v7, v14 }
{ A_SUB a2, a2, a6 }
{ A_MUL a5, a5, a0 ; S_ADDI r7, r0, 512 }
{ L_VLD v15, p2, 32 ; V_SRS v14, a2 ; S_ADDI r8, r15, 512 }
{ A_SUB a3, a5, a3 ; S_ADDI r9, r0, 16 }
{ V_SUB v5, v5, v14 }
{ V_SUB v4, v4, v14 }
{ V_SUB v1, v1, v14 }
{ V_SUB v14, v7, v14 }
{ L_VLD v7, p3, 32 ; V_MUL v15, v15, v3 }
{ A_ADD a3, a3, a1 }
{ V_MUL v15, v5, v15 }
{ L_VLD v5, p2, 32 ; A_VMUL a2, v12, v0 }
{ A_VMUL a5, v12, v12 }
{ V_ADD v7, v15, v7 }
{ L_VLD v15, p3, 32 ; V_MUL v5, v5, v3 }
{ L_VST v7, p1, 32 ; A_VMAC a2, v13, v0 }
{ L_VLD v7, p2, 32 ; V_MUL v5, v4, v5 }
{ L_VLD v4, p3, 32 ; A_VMAC a5, v13, v13 }
{ A_VMAC a2, v6, v0 }
{ V_MUL v7, v7, v3 }
{ A_VMAC a5, v6, v6 }
{ V_MUL v7, v1, v7 }
{ L_VLD v1, p2, -96 ; A_VMAC a2, v2, v0 }
{ A_VMAC a5, v2, v2 }
{ V_ADD v5, v5, v15 }
{ L_VLD v15, p3, -96 ; V_MUL v3, v1, v3 }
{ L_VST v5, p1, 32 ; L_VLD v1, p0, 32 ; V_ADD v4, v7, v4 }
{ L_VLD v5, p0, 32 ; V_MUL v3, v14, v3 }
{ L_VST v4, p1, 32 ; L_VLD v4, p0, 32 ; A_RSQRT a3, a3 }
{ L_VLD v3, p0, 32 ; V_ADD v15, v3, v15 }
{ A_RSUM a2, a2 }
{ L_VST v15, p1, 32 ; A_RSUM a5, a5 }
{ V_SRS v7, a4 ; C_DMAST 2, r7, r8, r14, r9 }
{ V_SRS v14, a3 }
{ A_UPS a3, v7 }
{ V_SUB v8, v8, v7 }
{ V_SUB v11, v11, v7 }
{ V_SUB v10, v10, v7 }
{ V_SUB v7, v9, v7 }
{ A_SUB a4, a4, a3 }
{ A_MUL a5, a5, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v9, a4 }
{ A_MUL a3, a2, a2 }
{ V_SUB v8, v8, v9 }
{ V_SUB v11, v11, v9 }
{ V_SUB v10, v10, v9 }
{ V_SUB v9, v7, v9 }
{ L_VLD v7, p3, 32 ; V_MUL v15, v15, v14 }
{ A_SUB a5, a5, a3 }
{ V_MUL v15, v8, v15 }
{ L_VLD v8, p2, 32 ; A_ADD a5, a5, a1 }
{ A_VMUL a3, v1, v0 }
{ A_VMUL a4, v1, v1 }
{ V_MUL v8, v8, v14 }
{ A_VMAC a3, v5, v0 }
{ V_MUL v8, v11, v8 }
{ L_VLD v11, p3, 32 ; A_VMAC a4, v5, v5 }
{ A_VMAC a3, v4, v0 }
{ V_ADD v15, v15, v7 }
{ L_VLD v7, p2, 32 ; A_VMAC a4, v4, v4 }
{ L_VST v15, p1, 32 ; A_VMAC a3, v3, v0 }
{ L_VLD v15, p3, 32 ; V_ADD v8, v8, v11 }
{ V_MUL v7, v7, v14 }
{ L_VLD v11, p2, -96 ; L_VST v8, p1, 32 ; A_VMAC a4, v3, v3 }
{ L_VLD v8, p3, -96 ; V_MUL v10, v10, v7 }
{ A_RSQRT a5, a5 }
{ V_MUL v14, v11, v14 }
{ L_VLD v7, p0, 32 ; V_ADD v15, v10, v15 }
{ L_VLD v10, p0, 32 ; V_MUL v9, v9, v14 }
{ L_VST v15, p1, 32 ; L_VLD v11, p0, 32 ; A_RSUM a3, a3 }
{ L_VLD v9, p0, 32 ; V_ADD v8, v9, v8 }
{ A_RSUM a4, a4 }
{ L_VST v8, p1, 32 ; V_SRS v8, a5 }
{ V_SRS v14, a2 }
{ A_MUL a5, a3, a3 }
{ A_UPS a6, v14 }
{ V_SUB v12, v12, v14 }
{ V_SUB v13, v13, v14 }
{ V_SUB v6, v6, v14 }
{ V_SUB v2, v2, v14 }
{ A_SUB a2, a2, a6 }
{ A_MUL a4, a4, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v14, a2 }
{ A_SUB a5, a4, a5 }
{ V_SUB v12, v12, v14 }
{ V_SUB v13, v13, v14 }
{ V_SUB v6, v6, v14 }
{ V_SUB v14, v2, v14 }
{ L_VLD v2, p3, 32 ; V_MUL v15, v15, v8 }
{ A_ADD a5, a5, a1 }
{ V_MUL v12, v12, v15 }
{ L_VLD v15, p2, 32 ; A_VMUL a2, v7, v0 }
{ A_VMUL a4, v7, v7 }
{ V_ADD v12, v12, v2 }
{ L_VLD v2, p3, 32 ; V_MUL v15, v15, v8 }
{ L_VST v12, p1, 32 ; A_VMAC a2, v10, v0 }
{ L_VLD v12, p2, 32 ; V_MUL v15, v13, v15 }
{ L_VLD v13, p3, 32 ; A_VMAC a4, v10, v10 }
{ A_VMAC a2, v11, v0 }
{ V_MUL v12, v12, v8 }
{ A_VMAC a4, v11, v11 }
{ V_MUL v12, v6, v12 }
{ L_VLD v6, p2, -96 ; A_VMAC a2, v9, v0 }
{ A_VMAC a4, v9, v9 }
{ V_ADD v2, v15, v2 }
{ L_VLD v15, p3, -96 ; V_MUL v6, v6, v8 }
{ L_VST v2, p1, 32 ; L_VLD v2, p0, 32 ; V_ADD v12, v12, v13 }
{ L_VLD v6, p0, 32 ; V_MUL v14, v14, v6 }
{ L_VST v12, p1, 32 ; L_VLD v8, p0, 32 ; A_RSQRT a5, a5 }
{ L_VLD v12, p0, 32 ; V_ADD v15, v14, v15 }
{ A_RSUM a2, a2 }
{ L_VST v15, p1, 32 ; A_RSUM a4, a4 }
{ V_SRS v13, a3 }
{ V_SRS v14, a5 }
{ A_UPS a5, v13 }
{ V_SUB v1, v1, v13 }
{ V_SUB v5, v5, v13 }
{ V_SUB v4, v4, v13 }
{ V_SUB v3, v3, v13 }
{ A_SUB a3, a3, a5 }
{ A_MUL a4, a4, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v13, a3 }
{ A_MUL a3, a2, a2 }
{ V_SUB v1, v1, v13 }
{ V_SUB v5, v5, v13 }
{ V_SUB v4, v4, v13 }
{ V_SUB v13, v3, v13 }
{ L_VLD v3, p3, 32 ; V_MUL v15, v15, v14 }
{ A_SUB a4, a4, a3 }
{ V_MUL v1, v1, v15 }
{ L_VLD v15, p2, 32 ; A_ADD a4, a4, a1 }
{ A_VMUL a3, v2, v0 }
{ A_VMUL a5, v2, v2 }
{ V_MUL v15, v15, v14 }
{ A_VMAC a3, v6, v0 }
{ V_MUL v15, v5, v15 }
{ L_VLD v5, p3, 32 ; A_VMAC a5, v6, v6 }
{ A_VMAC a3, v8, v0 }
{ V_ADD v1, v1, v3 }
{ L_VLD v3, p2, 32 ; A_VMAC a5, v8, v8 }
{ L_VST v1, p1, 32 ; A_VMAC a3, v12, v0 }
{ L_VLD v1, p3, 32 ; V_ADD v5, v15, v5 }
{ V_MUL v3, v3, v14 }
{ L_VLD v15, p2, -96 ; L_VST v5, p1, 32 ; A_VMAC a5, v12, v12 }
{ L_VLD v5, p3, -96 ; V_MUL v3, v4, v3 }
{ A_RSQRT a4, a4 }
{ V_MUL v14, v15, v14 }
{ L_VLD v1, p0, 32 ; V_ADD v3, v3, v1 }
{ L_VLD v4, p0, 32 ; V_MUL v14, v13, v14 }
{ L_VST v3, p1, 32 ; L_VLD v3, p0, 32 ; A_RSUM a3, a3 }
{ L_VLD v5, p0, 32 ; V_ADD v14, v14, v5 }
{ A_RSUM a5, a5 }
{ L_VST v14, p1, 32 ; V_SRS v13, a4 }
{ V_SRS v14, a2 }
{ A_MUL a4, a3, a3 }
{ A_UPS a6, v14 }
{ V_SUB v7, v7, v14 }
{ V_SUB v10, v10, v14 }
{ V_SUB v11, v11, v14 }
{ V_SUB v14, v9, v14 }
{ A_SUB a6, a2, a6 }
{ A_MUL a5, a5, a0 ; S_ADDI r7, r0, 1024 }
{ L_VLD v15, p2, 32 ; V_SRS v9, a6 ; S_ADDI r8, r15, 1024 }
{ A_SUB a5, a5, a4 ; S_ADDI r9, r0, 16 }
{ V_SUB v7, v7, v9 }
{ V_SUB v10, v10, v9 }
{ V_SUB v11, v11, v9 }
{ V_SUB v9, v14, v9 }
{ L_VLD v14, p3, 32 ; V_MUL v15, v15, v13 }
{ A_ADD a5, a5, a1 }
{ V_MUL v7, v7, v15 }
{ L_VLD v15, p2, 32 ; A_VMUL a2, v1, v0 }
{ A_VMUL a4, v1, v1 }
{ V_ADD v14, v7, v14 }
{ L_VLD v7, p3, 32 ; V_MUL v15, v15, v13 }
{ L_VST v14, p1, 32 ; A_VMAC a2, v4, v0 }
{ L_VLD v14, p2, 32 ; V_MUL v10, v10, v15 }
{ L_VLD v15, p3, 32 ; A_VMAC a4, v4, v4 }
{ A_VMAC a2, v3, v0 }
{ V_MUL v14, v14, v13 }
{ A_VMAC a4, v3, v3 }
{ V_MUL v14, v11, v14 }
{ L_VLD v11, p2, -96 ; A_VMAC a2, v5, v0 }
{ A_VMAC a4, v5, v5 }
{ V_ADD v10, v10, v7 }
{ L_VLD v7, p3, -96 ; V_MUL v13, v11, v13 }
{ L_VST v10, p1, 32 ; L_VLD v10, p0, 32 ; V_ADD v14, v14, v15 }
{ L_VLD v9, p0, 32 ; V_MUL v13, v9, v13 }
{ L_VST v14, p1, 32 ; L_VLD v11, p0, 32 ; A_RSQRT a5, a5 }
{ L_VLD v13, p0, 32 ; V_ADD v7, v13, v7 }
{ A_RSUM a2, a2 }
{ L_VST v7, p1, 32 ; A_RSUM a4, a4 }
{ V_SRS v7, a3 ; C_DMAST 3, r7, r8, r14, r9 }
{ V_SRS v14, a5 }
{ A_UPS a5, v7 }
{ V_SUB v2, v2, v7 }
{ V_SUB v6, v6, v7 }
{ V_SUB v8, v8, v7 }
{ V_SUB v12, v12, v7 }
{ A_SUB a3, a3, a5 }
{ A_MUL a4, a4, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v7, a3 }
{ A_MUL a3, a2, a2 }
{ V_SUB v2, v2, v7 }
{ V_SUB v6, v6, v7 }
{ V_SUB v8, v8, v7 }
{ V_SUB v12, v12, v7 }
{ L_VLD v7, p3, 32 ; V_MUL v15, v15, v14 }
{ A_SUB a4, a4, a3 }
{ V_MUL v15, v2, v15 }
{ L_VLD v2, p2, 32 ; A_ADD a4, a4, a1 }
{ A_VMUL a3, v10, v0 }
{ A_VMUL a5, v10, v10 }
{ V_MUL v2, v2, v14 }
{ A_VMAC a3, v9, v0 }
{ V_MUL v2, v6, v2 }
{ L_VLD v6, p3, 32 ; A_VMAC a5, v9, v9 }
{ A_VMAC a3, v11, v0 }
{ V_ADD v7, v15, v7 }
{ L_VLD v15, p2, 32 ; A_VMAC a5, v11, v11 }
{ L_VST v7, p1, 32 ; A_VMAC a3, v13, v0 }
{ L_VLD v7, p3, 32 ; V_ADD v6, v2, v6 }
{ V_MUL v15, v15, v14 }
{ L_VLD v2, p2, -96 ; L_VST v6, p1, 32 ; A_VMAC a5, v13, v13 }
{ L_VLD v6, p3, -96 ; V_MUL v8, v8, v15 }
{ A_RSQRT a4, a4 }
{ V_MUL v2, v2, v14 }
{ L_VLD v8, p0, 32 ; V_ADD v7, v8, v7 }
{ L_VLD v2, p0, 32 ; V_MUL v12, v12, v2 }
{ L_VST v7, p1, 32 ; L_VLD v7, p0, 32 ; A_RSUM a3, a3 }
{ L_VLD v6, p0, 32 ; V_ADD v12, v12, v6 }
{ A_RSUM a5, a5 }
{ L_VST v12, p1, 32 ; V_SRS v12, a4 }
{ V_SRS v14, a2 }
{ A_MUL a4, a3, a3 }
{ A_UPS a6, v14 }
{ V_SUB v1, v1, v14 }
{ V_SUB v4, v4, v14 }
{ V_SUB v3, v3, v14 }
{ V_SUB v14, v5, v14 }
{ A_SUB a2, a2, a6 }
{ A_MUL a5, a5, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v5, a2 }
{ A_SUB a5, a5, a4 }
{ V_SUB v1, v1, v5 }
{ V_SUB v4, v4, v5 }
{ V_SUB v3, v3, v5 }
{ V_SUB v5, v14, v5 }
{ L_VLD v14, p3, 32 ; V_MUL v15, v15, v12 }
{ A_ADD a5, a5, a1 }
{ V_MUL v15, v1, v15 }
{ L_VLD v1, p2, 32 ; A_VMUL a2, v8, v0 }
{ A_VMUL a4, v8, v8 }
{ V_ADD v15, v15, v14 }
{ L_VLD v14, p3, 32 ; V_MUL v1, v1, v12 }
{ L_VST v15, p1, 32 ; A_VMAC a2, v2, v0 }
{ L_VLD v15, p2, 32 ; V_MUL v4, v4, v1 }
{ L_VLD v1, p3, 32 ; A_VMAC a4, v2, v2 }
{ A_VMAC a2, v7, v0 }
{ V_MUL v15, v15, v12 }
{ A_VMAC a4, v7, v7 }
{ V_MUL v15, v3, v15 }
{ L_VLD v3, p2, -96 ; A_VMAC a2, v6, v0 }
{ A_VMAC a4, v6, v6 }
{ V_ADD v14, v4, v14 }
{ L_VLD v4, p3, -96 ; V_MUL v3, v3, v12 }
{ L_VST v14, p1, 32 ; L_VLD v12, p0, 32 ; V_ADD v1, v15, v1 ; C_ACQ 0 }
{ L_VLD v3, p0, 32 ; V_MUL v5, v5, v3 }
{ L_VST v1, p1, 32 ; L_VLD v1, p0, 32 ; A_RSQRT a5, a5 }
{ L_VLD v4, p0, 32 ; V_ADD v5, v5, v4 }
{ A_RSUM a2, a2 }
{ L_VST v5, p1, 32 ; A_RSUM a4, a4 }
{ V_SRS v5, a3 }
{ V_SRS v14, a5 }
{ A_UPS a5, v5 }
{ V_SUB v10, v10, v5 }
{ V_SUB v9, v9, v5 }
{ V_SUB v11, v11, v5 }
{ V_SUB v5, v13, v5 }
{ A_SUB a5, a3, a5 }
{ A_MUL a4, a4, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v13, a5 }
{ A_MUL a3, a2, a2 }
{ V_SUB v10, v10, v13 }
{ V_SUB v9, v9, v13 }
{ V_SUB v11, v11, v13 }
{ V_SUB v5, v5, v13 }
{ L_VLD v13, p3, 32 ; V_MUL v15, v15, v14 }
{ A_SUB a3, a4, a3 }
{ V_MUL v10, v10, v15 }
{ L_VLD v15, p2, 32 ; A_ADD a3, a3, a1 }
{ A_VMUL a4, v12, v0 }
{ A_VMUL a5, v12, v12 }
{ V_MUL v15, v15, v14 }
{ A_VMAC a4, v3, v0 }
{ V_MUL v9, v9, v15 }
{ L_VLD v15, p3, 32 ; A_VMAC a5, v3, v3 }
{ A_VMAC a4, v1, v0 }
{ V_ADD v10, v10, v13 }
{ L_VLD v13, p2, 32 ; A_VMAC a5, v1, v1 }
{ L_VST v10, p1, 32 ; A_VMAC a4, v4, v0 }
{ L_VLD v10, p3, 32 ; V_ADD v15, v9, v15 }
{ V_MUL v13, v13, v14 }
{ L_VLD v9, p2, -96 ; L_VST v15, p1, 32 ; A_VMAC a5, v4, v4 }
{ L_VLD v15, p3, -96 ; V_MUL v11, v11, v13 }
{ A_RSQRT a3, a3 }
{ V_MUL v9, v9, v14 }
{ L_VLD v11, p0, 32 ; V_ADD v10, v11, v10 }
{ L_VLD v5, p0, 32 ; V_MUL v9, v5, v9 }
{ L_VST v10, p1, 32 ; L_VLD v10, p0, 32 ; A_RSUM a4, a4 }
{ L_VLD v9, p0, 32 ; V_ADD v15, v9, v15 }
{ A_RSUM a5, a5 }
{ L_VST v15, p1, 32 ; V_SRS v13, a3 }
{ V_SRS v14, a2 }
{ A_MUL a3, a4, a4 }
{ A_UPS a6, v14 }
{ V_SUB v8, v8, v14 }
{ V_SUB v2, v2, v14 }
{ V_SUB v7, v7, v14 }
{ V_SUB v6, v6, v14 }
{ A_SUB a6, a2, a6 }
{ A_MUL a5, a5, a0 ; S_ADDI r7, r0, 1536 }
{ L_VLD v15, p2, 32 ; V_SRS v14, a6 ; S_ADDI r8, r15, 1536 }
{ A_SUB a3, a5, a3 ; S_ADDI r9, r0, 16 }
{ V_SUB v8, v8, v14 }
{ V_SUB v2, v2, v14 }
{ V_SUB v7, v7, v14 }
{ V_SUB v6, v6, v14 }
{ L_VLD v14, p3, 32 ; V_MUL v15, v15, v13 }
{ A_ADD a3, a3, a1 }
{ V_MUL v15, v8, v15 }
{ L_VLD v8, p2, 32 ; A_VMUL a2, v11, v0 }
{ A_VMUL a5, v11, v11 }
{ V_ADD v14, v15, v14 }
{ L_VLD v15, p3, 32 ; V_MUL v8, v8, v13 }
{ L_VST v14, p1, 32 ; A_VMAC a2, v5, v0 }
{ L_VLD v14, p2, 32 ; V_MUL v2, v2, v8 }
{ L_VLD v8, p3, 32 ; A_VMAC a5, v5, v5 }
{ A_VMAC a2, v10, v0 }
{ V_MUL v14, v14, v13 }
{ A_VMAC a5, v10, v10 }
{ V_MUL v14, v7, v14 }
{ L_VLD v7, p2, -96 ; A_VMAC a2, v9, v0 }
{ A_VMAC a5, v9, v9 }
{ V_ADD v2, v2, v15 }
{ L_VLD v15, p3, -96 ; V_MUL v7, v7, v13 }
{ L_VST v2, p1, 32 ; L_VLD v2, p0, 32 ; V_ADD v8, v14, v8 }
{ L_VLD v6, p0, 32 ; V_MUL v7, v6, v7 }
{ L_VST v8, p1, 32 ; L_VLD v8, p0, 32 ; A_RSQRT a3, a3 }
{ L_VLD v13, p0, 32 ; V_ADD v7, v7, v15 }
{ A_RSUM a2, a2 }
{ L_VST v7, p1, 32 ; A_RSUM a5, a5 }
{ V_SRS v7, a4 ; C_DMAST 1, r7, r8, r14, r9 }
{ V_SRS v14, a3 }
{ A_UPS a3, v7 }
{ V_SUB v12, v12, v7 }
{ V_SUB v3, v3, v7 }
{ V_SUB v1, v1, v7 }
{ V_SUB v4, v4, v7 }
{ A_SUB a3, a4, a3 }
{ A_MUL a5, a5, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v7, a3 }
{ A_MUL a3, a2, a2 }
{ V_SUB v12, v12, v7 }
{ V_SUB v3, v3, v7 }
{ V_SUB v1, v1, v7 }
{ V_SUB v7, v4, v7 }
{ L_VLD v4, p3, 32 ; V_MUL v15, v15, v14 }
{ A_SUB a5, a5, a3 }
{ V_MUL v15, v12, v15 }
{ L_VLD v12, p2, 32 ; A_ADD a5, a5, a1 }
{ A_VMUL a3, v2, v0 }
{ A_VMUL a4, v2, v2 }
{ V_MUL v12, v12, v14 }
{ A_VMAC a3, v6, v0 }
{ V_MUL v3, v3, v12 }
{ L_VLD v12, p3, 32 ; A_VMAC a4, v6, v6 }
{ A_VMAC a3, v8, v0 }
{ V_ADD v15, v15, v4 }
{ L_VLD v4, p2, 32 ; A_VMAC a4, v8, v8 }
{ L_VST v15, p1, 32 ; A_VMAC a3, v13, v0 }
{ L_VLD v15, p3, 32 ; V_ADD v3, v3, v12 }
{ V_MUL v4, v4, v14 }
{ L_VLD v12, p2, -96 ; L_VST v3, p1, 32 ; A_VMAC a4, v13, v13 }
{ L_VLD v3, p3, -96 ; V_MUL v4, v1, v4 }
{ A_RSQRT a5, a5 }
{ V_MUL v14, v12, v14 }
{ L_VLD v1, p0, 32 ; V_ADD v15, v4, v15 }
{ L_VLD v4, p0, 32 ; V_MUL v7, v7, v14 }
{ L_VST v15, p1, 32 ; L_VLD v12, p0, 32 ; A_RSUM a3, a3 }
{ L_VLD v3, p0, 32 ; V_ADD v7, v7, v3 }
{ A_RSUM a4, a4 }
{ L_VST v7, p1, 32 ; V_SRS v7, a5 }
{ V_SRS v14, a2 }
{ A_MUL a5, a3, a3 }
{ A_UPS a6, v14 }
{ V_SUB v11, v11, v14 }
{ V_SUB v5, v5, v14 }
{ V_SUB v10, v10, v14 }
{ V_SUB v14, v9, v14 }
{ A_SUB a6, a2, a6 }
{ A_MUL a4, a4, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v9, a6 }
{ A_SUB a4, a4, a5 }
{ V_SUB v11, v11, v9 }
{ V_SUB v5, v5, v9 }
{ V_SUB v10, v10, v9 }
{ V_SUB v9, v14, v9 }
{ L_VLD v14, p3, 32 ; V_MUL v15, v15, v7 }
{ A_ADD a4, a4, a1 }
{ V_MUL v15, v11, v15 }
{ L_VLD v11, p2, 32 ; A_VMUL a2, v1, v0 }
{ A_VMUL a5, v1, v1 }
{ V_ADD v14, v15, v14 }
{ L_VLD v15, p3, 32 ; V_MUL v11, v11, v7 }
{ L_VST v14, p1, 32 ; A_VMAC a2, v4, v0 }
{ L_VLD v14, p2, 32 ; V_MUL v11, v5, v11 }
{ L_VLD v5, p3, 32 ; A_VMAC a5, v4, v4 }
{ A_VMAC a2, v12, v0 }
{ V_MUL v14, v14, v7 }
{ A_VMAC a5, v12, v12 }
{ V_MUL v14, v10, v14 }
{ L_VLD v10, p2, -96 ; A_VMAC a2, v3, v0 }
{ A_VMAC a5, v3, v3 }
{ V_ADD v15, v11, v15 }
{ L_VLD v11, p3, -96 ; V_MUL v7, v10, v7 }
{ L_VST v15, p1, 32 ; L_VLD v5, p0, 32 ; V_ADD v14, v14, v5 }
{ L_VLD v9, p0, 32 ; V_MUL v7, v9, v7 }
{ L_VST v14, p1, 32 ; L_VLD v10, p0, 32 ; A_RSQRT a4, a4 }
{ L_VLD v11, p0, 32 ; V_ADD v7, v7, v11 }
{ A_RSUM a2, a2 }
{ L_VST v7, p1, 32 ; A_RSUM a5, a5 }
{ V_SRS v7, a3 }
{ V_SRS v14, a4 }
{ A_UPS a4, v7 }
{ V_SUB v2, v2, v7 }
{ V_SUB v6, v6, v7 }
{ V_SUB v8, v8, v7 }
{ V_SUB v7, v13, v7 }
{ A_SUB a3, a3, a4 }
{ A_MUL a5, a5, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v13, a3 }
{ A_MUL a3, a2, a2 }
{ V_SUB v2, v2, v13 }
{ V_SUB v6, v6, v13 }
{ V_SUB v8, v8, v13 }
{ V_SUB v7, v7, v13 }
{ L_VLD v13, p3, 32 ; V_MUL v15, v15, v14 }
{ A_SUB a5, a5, a3 }
{ V_MUL v2, v2, v15 }
{ L_VLD v15, p2, 32 ; A_ADD a5, a5, a1 }
{ A_VMUL a3, v5, v0 }
{ A_VMUL a4, v5, v5 }
{ V_MUL v15, v15, v14 }
{ A_VMAC a3, v9, v0 }
{ V_MUL v15, v6, v15 }
{ L_VLD v6, p3, 32 ; A_VMAC a4, v9, v9 }
{ A_VMAC a3, v10, v0 }
{ V_ADD v2, v2, v13 }
{ L_VLD v13, p2, 32 ; A_VMAC a4, v10, v10 }
{ L_VST v2, p1, 32 ; A_VMAC a3, v11, v0 }
{ L_VLD v2, p3, 32 ; V_ADD v15, v15, v6 }
{ V_MUL v13, v13, v14 }
{ L_VLD v6, p2, -96 ; L_VST v15, p1, 32 ; A_VMAC a4, v11, v11 }
{ L_VLD v15, p3, -96 ; V_MUL v13, v8, v13 }
{ A_RSQRT a5, a5 }
{ V_MUL v14, v6, v14 }
{ L_VLD v6, p0, 32 ; V_ADD v2, v13, v2 }
{ L_VLD v8, p0, 32 ; V_MUL v7, v7, v14 }
{ L_VST v2, p1, 32 ; L_VLD v2, p0, 32 ; A_RSUM a3, a3 }
{ L_VLD v13, p0, 32 ; V_ADD v7, v7, v15 }
{ A_RSUM a4, a4 }
{ L_VST v7, p1, 32 ; V_SRS v7, a5 }
{ V_SRS v14, a2 }
{ A_MUL a5, a3, a3 }
{ A_UPS a6, v14 }
{ V_SUB v1, v1, v14 }
{ V_SUB v4, v4, v14 }
{ V_SUB v12, v12, v14 }
{ V_SUB v14, v3, v14 }
{ A_SUB a6, a2, a6 }
{ A_MUL a4, a4, a0 ; S_ADDI r7, r0, 2048 }
{ L_VLD v15, p2, 32 ; V_SRS v3, a6 ; S_ADDI r8, r15, 2048 }
{ A_SUB a5, a4, a5 ; S_ADDI r9, r0, 16 }
{ V_SUB v1, v1, v3 }
{ V_SUB v4, v4, v3 }
{ V_SUB v12, v12, v3 }
{ V_SUB v14, v14, v3 }
{ L_VLD v3, p3, 32 ; V_MUL v15, v15, v7 }
{ A_ADD a5, a5, a1 }
{ V_MUL v15, v1, v15 }
{ L_VLD v1, p2, 32 ; A_VMUL a2, v6, v0 }
{ A_VMUL a4, v6, v6 }
{ V_ADD v15, v15, v3 }
{ L_VLD v3, p3, 32 ; V_MUL v1, v1, v7 }
{ L_VST v15, p1, 32 ; A_VMAC a2, v8, v0 }
{ L_VLD v15, p2, 32 ; V_MUL v4, v4, v1 }
{ L_VLD v1, p3, 32 ; A_VMAC a4, v8, v8 }
{ A_VMAC a2, v2, v0 }
{ V_MUL v15, v15, v7 }
{ A_VMAC a4, v2, v2 }
{ V_MUL v15, v12, v15 }
{ L_VLD v12, p2, -96 ; A_VMAC a2, v13, v0 }
{ A_VMAC a4, v13, v13 }
{ V_ADD v4, v4, v3 }
{ L_VLD v3, p3, -96 ; V_MUL v7, v12, v7 }
{ L_VST v4, p1, 32 ; L_VLD v1, p0, 32 ; V_ADD v15, v15, v1 }
{ L_VLD v4, p0, 32 ; V_MUL v7, v14, v7 }
{ L_VST v15, p1, 32 ; L_VLD v12, p0, 32 ; A_RSQRT a5, a5 }
{ L_VLD v3, p0, 32 ; V_ADD v7, v7, v3 }
{ A_RSUM a2, a2 }
{ L_VST v7, p1, 32 ; A_RSUM a4, a4 }
{ V_SRS v7, a3 ; C_DMAST 2, r7, r8, r14, r9 }
{ V_SRS v14, a5 }
{ A_UPS a5, v7 }
{ V_SUB v5, v5, v7 }
{ V_SUB v9, v9, v7 }
{ V_SUB v10, v10, v7 }
{ V_SUB v7, v11, v7 }
{ A_SUB a3, a3, a5 }
{ A_MUL a4, a4, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v11, a3 }
{ A_MUL a3, a2, a2 }
{ V_SUB v5, v5, v11 }
{ V_SUB v9, v9, v11 }
{ V_SUB v10, v10, v11 }
{ V_SUB v7, v7, v11 }
{ L_VLD v11, p3, 32 ; V_MUL v15, v15, v14 }
{ A_SUB a4, a4, a3 }
{ V_MUL v5, v5, v15 }
{ L_VLD v15, p2, 32 ; A_ADD a4, a4, a1 }
{ A_VMUL a3, v1, v0 }
{ A_VMUL a5, v1, v1 }
{ V_MUL v15, v15, v14 }
{ A_VMAC a3, v4, v0 }
{ V_MUL v15, v9, v15 }
{ L_VLD v9, p3, 32 ; A_VMAC a5, v4, v4 }
{ A_VMAC a3, v12, v0 }
{ V_ADD v5, v5, v11 }
{ L_VLD v11, p2, 32 ; A_VMAC a5, v12, v12 }
{ L_VST v5, p1, 32 ; A_VMAC a3, v3, v0 }
{ L_VLD v5, p3, 32 ; V_ADD v9, v15, v9 }
{ V_MUL v11, v11, v14 }
{ L_VLD v15, p2, -96 ; L_VST v9, p1, 32 ; A_VMAC a5, v3, v3 }
{ L_VLD v9, p3, -96 ; V_MUL v11, v10, v11 }
{ A_RSQRT a4, a4 }
{ V_MUL v15, v15, v14 }
{ L_VLD v10, p0, 32 ; V_ADD v5, v11, v5 }
{ L_VLD v7, p0, 32 ; V_MUL v15, v7, v15 }
{ L_VST v5, p1, 32 ; L_VLD v5, p0, 32 ; A_RSUM a3, a3 }
{ L_VLD v11, p0, 32 ; V_ADD v9, v15, v9 }
{ A_RSUM a5, a5 }
{ L_VST v9, p1, 32 ; V_SRS v9, a4 }
{ V_SRS v14, a2 }
{ A_MUL a4, a3, a3 }
{ A_UPS a6, v14 }
{ V_SUB v6, v6, v14 }
{ V_SUB v8, v8, v14 }
{ V_SUB v2, v2, v14 }
{ V_SUB v14, v13, v14 }
{ A_SUB a6, a2, a6 }
{ A_MUL a5, a5, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v13, a6 }
{ A_SUB a5, a5, a4 }
{ V_SUB v6, v6, v13 }
{ V_SUB v8, v8, v13 }
{ V_SUB v2, v2, v13 }
{ V_SUB v14, v14, v13 }
{ L_VLD v13, p3, 32 ; V_MUL v15, v15, v9 }
{ A_ADD a5, a5, a1 }
{ V_MUL v15, v6, v15 }
{ L_VLD v6, p2, 32 ; A_VMUL a2, v10, v0 }
{ A_VMUL a4, v10, v10 }
{ V_ADD v15, v15, v13 }
{ L_VLD v13, p3, 32 ; V_MUL v6, v6, v9 }
{ L_VST v15, p1, 32 ; A_VMAC a2, v7, v0 }
{ L_VLD v15, p2, 32 ; V_MUL v8, v8, v6 }
{ L_VLD v6, p3, 32 ; A_VMAC a4, v7, v7 }
{ A_VMAC a2, v5, v0 }
{ V_MUL v15, v15, v9 }
{ A_VMAC a4, v5, v5 }
{ V_MUL v2, v2, v15 }
{ L_VLD v15, p2, -96 ; A_VMAC a2, v11, v0 }
{ A_VMAC a4, v11, v11 }
{ V_ADD v13, v8, v13 }
{ L_VLD v8, p3, -96 ; V_MUL v9, v15, v9 }
{ L_VST v13, p1, 32 ; L_VLD v6, p0, 32 ; V_ADD v2, v2, v6 }
{ L_VLD v13, p0, 32 ; V_MUL v9, v14, v9 }
{ L_VST v2, p1, 32 ; L_VLD v2, p0, 32 ; A_RSQRT a5, a5 }
{ L_VLD v8, p0, 32 ; V_ADD v9, v9, v8 }
{ A_RSUM a2, a2 }
{ L_VST v9, p1, 32 ; A_RSUM a4, a4 }
{ V_SRS v9, a3 }
{ V_SRS v14, a5 }
{ A_UPS a5, v9 }
{ V_SUB v1, v1, v9 }
{ V_SUB v4, v4, v9 }
{ V_SUB v12, v12, v9 }
{ V_SUB v3, v3, v9 }
{ A_SUB a5, a3, a5 }
{ A_MUL a4, a4, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v9, a5 }
{ A_MUL a3, a2, a2 }
{ V_SUB v1, v1, v9 }
{ V_SUB v4, v4, v9 }
{ V_SUB v12, v12, v9 }
{ V_SUB v9, v3, v9 }
{ L_VLD v3, p3, 32 ; V_MUL v15, v15, v14 }
{ A_SUB a4, a4, a3 }
{ V_MUL v15, v1, v15 }
{ L_VLD v1, p2, 32 ; A_ADD a4, a4, a1 }
{ A_VMUL a3, v6, v0 }
{ A_VMUL a5, v6, v6 }
{ V_MUL v1, v1, v14 }
{ A_VMAC a3, v13, v0 }
{ V_MUL v4, v4, v1 }
{ L_VLD v1, p3, 32 ; A_VMAC a5, v13, v13 }
{ A_VMAC a3, v2, v0 }
{ V_ADD v15, v15, v3 }
{ L_VLD v3, p2, 32 ; A_VMAC a5, v2, v2 }
{ L_VST v15, p1, 32 ; A_VMAC a3, v8, v0 }
{ L_VLD v15, p3, 32 ; V_ADD v4, v4, v1 }
{ V_MUL v3, v3, v14 }
{ L_VLD v1, p2, -96 ; L_VST v4, p1, 32 ; A_VMAC a5, v8, v8 }
{ L_VLD v4, p3, -96 ; V_MUL v3, v12, v3 }
{ A_RSQRT a4, a4 }
{ V_MUL v14, v1, v14 }
{ L_VLD v1, p0, 32 ; V_ADD v3, v3, v15 }
{ L_VLD v12, p0, 32 ; V_MUL v9, v9, v14 }
{ L_VST v3, p1, 32 ; L_VLD v3, p0, 32 ; A_RSUM a3, a3 }
{ L_VLD v4, p0, 32 ; V_ADD v9, v9, v4 }
{ A_RSUM a5, a5 }
{ L_VST v9, p1, 32 ; V_SRS v9, a4 }
{ V_SRS v14, a2 }
{ A_MUL a4, a3, a3 }
{ A_UPS a6, v14 }
{ V_SUB v10, v10, v14 }
{ V_SUB v7, v7, v14 }
{ V_SUB v5, v5, v14 }
{ V_SUB v11, v11, v14 }
{ A_SUB a6, a2, a6 }
{ A_MUL a5, a5, a0 ; S_ADDI r7, r0, 2560 }
{ L_VLD v15, p2, 32 ; V_SRS v14, a6 ; S_ADDI r8, r15, 2560 }
{ A_SUB a4, a5, a4 ; S_ADDI r9, r0, 16 }
{ V_SUB v10, v10, v14 }
{ V_SUB v7, v7, v14 }
{ V_SUB v5, v5, v14 }
{ V_SUB v14, v11, v14 }
{ L_VLD v11, p3, 32 ; V_MUL v15, v15, v9 }
{ A_ADD a4, a4, a1 }
{ V_MUL v15, v10, v15 }
{ L_VLD v10, p2, 32 ; A_VMUL a2, v1, v0 }
{ A_VMUL a5, v1, v1 }
{ V_ADD v15, v15, v11 }
{ L_VLD v11, p3, 32 ; V_MUL v10, v10, v9 }
{ L_VST v15, p1, 32 ; A_VMAC a2, v12, v0 }
{ L_VLD v15, p2, 32 ; V_MUL v10, v7, v10 }
{ L_VLD v7, p3, 32 ; A_VMAC a5, v12, v12 }
{ A_VMAC a2, v3, v0 }
{ V_MUL v15, v15, v9 }
{ A_VMAC a5, v3, v3 }
{ V_MUL v5, v5, v15 }
{ L_VLD v15, p2, -96 ; A_VMAC a2, v4, v0 }
{ A_VMAC a5, v4, v4 }
{ V_ADD v10, v10, v11 }
{ L_VLD v11, p3, -96 ; V_MUL v9, v15, v9 }
{ L_VST v10, p1, 32 ; L_VLD v7, p0, 32 ; V_ADD v5, v5, v7 }
{ L_VLD v9, p0, 32 ; V_MUL v14, v14, v9 }
{ L_VST v5, p1, 32 ; L_VLD v5, p0, 32 ; A_RSQRT a4, a4 }
{ L_VLD v10, p0, 32 ; V_ADD v11, v14, v11 }
{ A_RSUM a2, a2 }
{ L_VST v11, p1, 32 ; A_RSUM a5, a5 }
{ V_SRS v11, a3 ; C_DMAST 3, r7, r8, r14, r9 }
{ V_SRS v14, a4 }
{ A_UPS a4, v11 }
{ V_SUB v6, v6, v11 }
{ V_SUB v13, v13, v11 }
{ V_SUB v2, v2, v11 }
{ V_SUB v11, v8, v11 }
{ A_SUB a3, a3, a4 }
{ A_MUL a5, a5, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v8, a3 }
{ A_MUL a3, a2, a2 }
{ V_SUB v6, v6, v8 }
{ V_SUB v13, v13, v8 }
{ V_SUB v2, v2, v8 }
{ V_SUB v8, v11, v8 }
{ L_VLD v11, p3, 32 ; V_MUL v15, v15, v14 }
{ A_SUB a5, a5, a3 }
{ V_MUL v15, v6, v15 }
{ L_VLD v6, p2, 32 ; A_ADD a5, a5, a1 }
{ A_VMUL a3, v7, v0 }
{ A_VMUL a4, v7, v7 }
{ V_MUL v6, v6, v14 }
{ A_VMAC a3, v9, v0 }
{ V_MUL v6, v13, v6 }
{ L_VLD v13, p3, 32 ; A_VMAC a4, v9, v9 }
{ A_VMAC a3, v5, v0 }
{ V_ADD v11, v15, v11 }
{ L_VLD v15, p2, 32 ; A_VMAC a4, v5, v5 }
{ L_VST v11, p1, 32 ; A_VMAC a3, v10, v0 }
{ L_VLD v11, p3, 32 ; V_ADD v13, v6, v13 }
{ V_MUL v15, v15, v14 }
{ L_VLD v6, p2, -96 ; L_VST v13, p1, 32 ; A_VMAC a4, v10, v10 }
{ L_VLD v13, p3, -96 ; V_MUL v2, v2, v15 }
{ A_RSQRT a5, a5 }
{ V_MUL v6, v6, v14 }
{ L_VLD v11, p0, 32 ; V_ADD v2, v2, v11 }
{ L_VLD v8, p0, 32 ; V_MUL v6, v8, v6 }
{ L_VST v2, p1, 32 ; L_VLD v2, p0, 32 ; A_RSUM a3, a3 }
{ L_VLD v13, p0, 32 ; V_ADD v6, v6, v13 }
{ A_RSUM a4, a4 }
{ L_VST v6, p1, 32 ; V_SRS v6, a5 }
{ V_SRS v14, a2 }
{ A_MUL a5, a3, a3 }
{ A_UPS a6, v14 }
{ V_SUB v1, v1, v14 }
{ V_SUB v12, v12, v14 }
{ V_SUB v3, v3, v14 }
{ V_SUB v14, v4, v14 }
{ A_SUB a2, a2, a6 }
{ A_MUL a4, a4, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v4, a2 }
{ A_SUB a4, a4, a5 }
{ V_SUB v1, v1, v4 }
{ V_SUB v12, v12, v4 }
{ V_SUB v3, v3, v4 }
{ V_SUB v14, v14, v4 }
{ L_VLD v4, p3, 32 ; V_MUL v15, v15, v6 }
{ A_ADD a4, a4, a1 }
{ V_MUL v1, v1, v15 }
{ L_VLD v15, p2, 32 ; A_VMUL a2, v11, v0 }
{ A_VMUL a5, v11, v11 }
{ V_ADD v4, v1, v4 }
{ L_VLD v1, p3, 32 ; V_MUL v15, v15, v6 }
{ L_VST v4, p1, 32 ; A_VMAC a2, v8, v0 }
{ L_VLD v4, p2, 32 ; V_MUL v12, v12, v15 }
{ L_VLD v15, p3, 32 ; A_VMAC a5, v8, v8 }
{ A_VMAC a2, v2, v0 }
{ V_MUL v4, v4, v6 }
{ A_VMAC a5, v2, v2 }
{ V_MUL v4, v3, v4 }
{ L_VLD v3, p2, -96 ; A_VMAC a2, v13, v0 }
{ A_VMAC a5, v13, v13 }
{ V_ADD v1, v12, v1 }
{ L_VLD v12, p3, -96 ; V_MUL v6, v3, v6 }
{ L_VST v1, p1, 32 ; L_VLD v1, p0, 32 ; V_ADD v15, v4, v15 }
{ L_VLD v3, p0, 32 ; V_MUL v6, v14, v6 }
{ L_VST v15, p1, 32 ; L_VLD v4, p0, 32 ; A_RSQRT a4, a4 }
{ L_VLD v6, p0, 32 ; V_ADD v12, v6, v12 }
{ A_RSUM a2, a2 }
{ L_VST v12, p1, 32 ; A_RSUM a5, a5 }
{ V_SRS v12, a3 }
{ V_SRS v14, a4 }
{ A_UPS a4, v12 }
{ V_SUB v7, v7, v12 }
{ V_SUB v9, v9, v12 }
{ V_SUB v5, v5, v12 }
{ V_SUB v10, v10, v12 }
{ A_SUB a3, a3, a4 }
{ A_MUL a5, a5, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v12, a3 }
{ A_MUL a3, a2, a2 }
{ V_SUB v7, v7, v12 }
{ V_SUB v9, v9, v12 }
{ V_SUB v5, v5, v12 }
{ V_SUB v10, v10, v12 }
{ L_VLD v12, p3, 32 ; V_MUL v15, v15, v14 }
{ A_SUB a5, a5, a3 }
{ V_MUL v7, v7, v15 }
{ L_VLD v15, p2, 32 ; A_ADD a5, a5, a1 }
{ A_VMUL a3, v1, v0 }
{ A_VMUL a4, v1, v1 }
{ V_MUL v15, v15, v14 }
{ A_VMAC a3, v3, v0 }
{ V_MUL v9, v9, v15 }
{ L_VLD v15, p3, 32 ; A_VMAC a4, v3, v3 }
{ A_VMAC a3, v4, v0 }
{ V_ADD v12, v7, v12 }
{ L_VLD v7, p2, 32 ; A_VMAC a4, v4, v4 }
{ L_VST v12, p1, 32 ; A_VMAC a3, v6, v0 }
{ L_VLD v12, p3, 32 ; V_ADD v15, v9, v15 }
{ V_MUL v7, v7, v14 }
{ L_VLD v9, p2, -96 ; L_VST v15, p1, 32 ; A_VMAC a4, v6, v6 }
{ L_VLD v15, p3, -96 ; V_MUL v7, v5, v7 }
{ A_RSQRT a5, a5 }
{ V_MUL v9, v9, v14 }
{ L_VLD v5, p0, 32 ; V_ADD v12, v7, v12 }
{ L_VLD v7, p0, 32 ; V_MUL v9, v10, v9 }
{ L_VST v12, p1, 32 ; L_VLD v10, p0, 32 ; A_RSUM a3, a3 }
{ L_VLD v9, p0, 32 ; V_ADD v15, v9, v15 }
{ A_RSUM a4, a4 }
{ L_VST v15, p1, 32 ; V_SRS v12, a5 }
{ V_SRS v14, a2 }
{ A_MUL a5, a3, a3 }
{ A_UPS a6, v14 }
{ V_SUB v11, v11, v14 }
{ V_SUB v8, v8, v14 }
{ V_SUB v2, v2, v14 }
{ V_SUB v13, v13, v14 }
{ A_SUB a2, a2, a6 }
{ A_MUL a4, a4, a0 ; S_ADDI r7, r0, 3072 }
{ L_VLD v15, p2, 32 ; V_SRS v14, a2 ; S_ADDI r8, r15, 3072 }
{ A_SUB a4, a4, a5 ; S_ADDI r9, r0, 16 }
{ V_SUB v11, v11, v14 }
{ V_SUB v8, v8, v14 }
{ V_SUB v2, v2, v14 }
{ V_SUB v14, v13, v14 }
{ L_VLD v13, p3, 32 ; V_MUL v15, v15, v12 }
{ A_ADD a4, a4, a1 }
{ V_MUL v11, v11, v15 }
{ L_VLD v15, p2, 32 ; A_VMUL a2, v5, v0 }
{ A_VMUL a5, v5, v5 }
{ V_ADD v11, v11, v13 }
{ L_VLD v13, p3, 32 ; V_MUL v15, v15, v12 }
{ L_VST v11, p1, 32 ; A_VMAC a2, v7, v0 }
{ L_VLD v11, p2, 32 ; V_MUL v15, v8, v15 }
{ L_VLD v8, p3, 32 ; A_VMAC a5, v7, v7 }
{ A_VMAC a2, v10, v0 }
{ V_MUL v11, v11, v12 }
{ A_VMAC a5, v10, v10 }
{ V_MUL v2, v2, v11 }
{ L_VLD v11, p2, -96 ; A_VMAC a2, v9, v0 }
{ A_VMAC a5, v9, v9 }
{ V_ADD v15, v15, v13 }
{ L_VLD v13, p3, -96 ; V_MUL v11, v11, v12 }
{ L_VST v15, p1, 32 ; L_VLD v8, p0, 32 ; V_ADD v2, v2, v8 }
{ L_VLD v11, p0, 32 ; V_MUL v14, v14, v11 }
{ L_VST v2, p1, 32 ; L_VLD v2, p0, 32 ; A_RSQRT a4, a4 }
{ L_VLD v12, p0, 32 ; V_ADD v13, v14, v13 }
{ A_RSUM a2, a2 }
{ L_VST v13, p1, 32 ; A_RSUM a5, a5 }
{ V_SRS v13, a3 ; C_DMAST 1, r7, r8, r14, r9 }
{ V_SRS v14, a4 }
{ A_UPS a4, v13 }
{ V_SUB v1, v1, v13 }
{ V_SUB v3, v3, v13 }
{ V_SUB v4, v4, v13 }
{ V_SUB v13, v6, v13 }
{ A_SUB a3, a3, a4 }
{ A_MUL a5, a5, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v6, a3 }
{ A_MUL a3, a2, a2 }
{ V_SUB v1, v1, v6 }
{ V_SUB v3, v3, v6 }
{ V_SUB v4, v4, v6 }
{ V_SUB v6, v13, v6 }
{ L_VLD v13, p3, 32 ; V_MUL v15, v15, v14 }
{ A_SUB a5, a5, a3 }
{ V_MUL v1, v1, v15 }
{ L_VLD v15, p2, 32 ; A_ADD a5, a5, a1 }
{ A_VMUL a3, v8, v0 }
{ A_VMUL a4, v8, v8 }
{ V_MUL v15, v15, v14 }
{ A_VMAC a3, v11, v0 }
{ V_MUL v3, v3, v15 }
{ L_VLD v15, p3, 32 ; A_VMAC a4, v11, v11 }
{ A_VMAC a3, v2, v0 }
{ V_ADD v1, v1, v13 }
{ L_VLD v13, p2, 32 ; A_VMAC a4, v2, v2 }
{ L_VST v1, p1, 32 ; A_VMAC a3, v12, v0 }
{ L_VLD v1, p3, 32 ; V_ADD v15, v3, v15 }
{ V_MUL v13, v13, v14 }
{ L_VLD v3, p2, -96 ; L_VST v15, p1, 32 ; A_VMAC a4, v12, v12 }
{ L_VLD v15, p3, -96 ; V_MUL v13, v4, v13 }
{ A_RSQRT a5, a5 }
{ V_MUL v14, v3, v14 }
{ L_VLD v3, p0, 32 ; V_ADD v1, v13, v1 }
{ L_VLD v4, p0, 32 ; V_MUL v6, v6, v14 }
{ L_VST v1, p1, 32 ; L_VLD v1, p0, 32 ; A_RSUM a3, a3 }
{ L_VLD v13, p0, 32 ; V_ADD v6, v6, v15 }
{ A_RSUM a4, a4 }
{ L_VST v6, p1, 32 ; V_SRS v6, a5 }
{ V_SRS v14, a2 }
{ A_MUL a5, a3, a3 }
{ A_UPS a6, v14 }
{ V_SUB v5, v5, v14 }
{ V_SUB v7, v7, v14 }
{ V_SUB v10, v10, v14 }
{ V_SUB v14, v9, v14 }
{ A_SUB a6, a2, a6 }
{ A_MUL a4, a4, a0 }
{ L_VLD v15, p2, 32 ; V_SRS v9, a6 }
{ A_SUB a5, a4, a5 }
{ V_SUB v5, v5, v9 }
{ V_SUB v7, v7, v9 }
{ V_SUB v10, v10, v9 }
{ V_SUB v9, v14, v9 }
{ L_VLD v14, p3, 32 ; V_MUL v15, v15, v6 }
{ A_ADD a5, a5, a1 }
{ V_MUL v15, v5, v15 }
{ L_VLD v5, p2, 32 ; A_VMUL a2, v3, v0 }
{ A_VMUL a4, v3, v3 }
{ V_ADD v14, v15, v14 }
{ L_VLD v15, p3, 32 ; V_MUL v5, v5, v6 }
{ L_VST v14, p1, 32 ; A_VMAC a2, v4, v0 }
{ L_VLD v14, p2, 32 ; V_MUL v5, v7, v5 }
{ L_VLD v7, p3, 32 ; A_VMAC a4, v4, v4 }
{ A_VMAC a2, v1, v0 }
{ V_MUL v14, v14, v6 }
{ A_VMAC a4, v1, v1 }
{ V_MUL v14, v10, v14 }
{ L_VLD v10, p2, -96 ; A_VMAC a2, v13, v0 }
{ L_VLD v0, p3, -96 ; A_VMAC a4, v13, v13 }
{ V_ADD v5, v5, v15 }
{ V_MUL v10, v10, v6 }
{ L_VST v5, p1, 32 ; V_ADD v7, v14, v7 }
{ V_SRS v5, a3 }
{ L_VST v7, p1, 32 ; V_MUL v10, v9, v10 }
{ A_UPS a6, v5 }
{ V_SUB v8, v8, v5 }
{ V_SUB v11, v11, v5 }
{ V_SUB v2, v2, v5 ; S_ADDI r7, r0, 3584 }
{ V_SUB v5, v12, v5 ; S_ADDI r8, r15, 3584 }
{ A_SUB a6, a3, a6 ; S_ADDI r9, r0, 12 }
{ V_ADD v10, v10, v0 }
{ A_RSQRT a5, a5 }
{ L_VLD v6, p2, 32 ; L_VST v10, p1, 32 ; V_SRS v0, a6 }
{ L_VLD v7, p3, 32 ; A_RSUM a2, a2 }
{ A_RSUM a4, a4 }
{ V_SUB v8, v8, v0 }
{ V_SRS v9, a5 }
{ V_SUB v11, v11, v0 }
{ V_SUB v2, v2, v0 }
{ V_SUB v0, v5, v0 }
{ A_MUL a4, a4, a0 }
{ A_MUL a0, a2, a2 }
{ V_SRS v5, a2 }
{ V_MUL v6, v6, v9 }
{ L_VLD v10, p2, 32 ; A_SUB a0, a4, a0 }
{ L_VLD v12, p3, 32 ; A_UPS a3, v5 ; S_ADDI r10, r0, 3968 }
{ V_SUB v3, v3, v5 ; S_ADDI r11, r15, 3968 }
{ V_MUL v10, v10, v9 ; S_ADDI r12, r0, 4 }
{ L_VLD v14, p2, 32 ; V_SUB v4, v4, v5 }
{ L_VLD v15, p3, 32 ; V_SUB v1, v1, v5 }
{ V_SUB v5, v13, v5 }
{ V_MUL v14, v14, v9 }
{ L_VLD v13, p2, -96 ; V_MUL v6, v8, v6 }
{ L_VLD v8, p3, -96 ; V_MUL v11, v11, v10 }
{ V_MUL v2, v2, v14 }
{ V_MUL v9, v13, v9 }
{ A_ADD a1, a0, a1 }
{ V_MUL v0, v0, v9 }
{ A_SUB a3, a2, a3 }
{ V_ADD v6, v6, v7 }
{ V_ADD v12, v11, v12 }
{ L_VST v6, p1, 32 ; V_ADD v2, v2, v15 }
{ L_VST v12, p1, 32 ; V_ADD v0, v0, v8 }
{ L_VST v2, p1, 32 ; A_RSQRT a1, a1 }
{ L_VLD v6, p2, 32 ; L_VST v0, p1, 32 ; V_SRS v2, a3 }
{ L_VLD v0, p3, 32 ; C_DMAST 1, r7, r8, r14, r9 }
{ V_SUB v3, v3, v2 }
{ V_SUB v4, v4, v2 }
{ V_SRS v7, a1 }
{ V_SUB v1, v1, v2 }
{ V_SUB v2, v5, v2 }
{ V_MUL v6, v6, v7 }
{ L_VLD v5, p2, 32 }
{ L_VLD v8, p3, 32 ; V_MUL v6, v3, v6 }
C_NOP
{ V_MUL v5, v5, v7 }
{ L_VLD v3, p2, 32 ; V_ADD v6, v6, v0 }
{ L_VLD v0, p3, 32 ; V_MUL v4, v4, v5 }
{ L_VST v6, p1, 32 }
{ V_MUL v3, v3, v7 }
{ L_VLD v5, p2, -96 ; V_ADD v8, v4, v8 }
{ L_VLD v4, p3, -96 ; V_MUL v1, v1, v3 }
{ L_VST v8, p1, 32 }
{ V_MUL v5, v5, v7 }
{ V_ADD v1, v1, v0 }
{ V_MUL v2, v2, v5 }
{ L_VST v1, p1, 32 }
{ V_ADD v4, v2, v4 }
C_NOP
{ L_VST v4, p1, 32 }
{ C_DMAST 2, r10, r11, r14, r12 }
C_HALT
