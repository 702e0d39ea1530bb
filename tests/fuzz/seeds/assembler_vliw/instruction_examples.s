C_NOP
C_HALT
C_LOOP r5, row_done
C_LOOPI 16, tile_done
C_ACQ 3
C_REL 3
C_DMALD 0, r1, r2, r3, r4, 5
C_DMAST 1, r1, r2, r3, r4
S_ADD r3, r1, r2
S_SUB r3, r1, r2
S_MUL r3, r1, r2
S_AND r3, r1, r2
S_OR r3, r1, r2
S_XOR r3, r1, r2
S_SLL r3, r1, r2
S_SRL r3, r1, r2
S_ADDI r1, r1, 16
S_ORI r1, r1, 0x8000
S_SLLI r2, r1, 5
S_SRLI r2, r1, 1
S_LUI r4, 0x3F80
S_PMOV p2, r5
S_PADD p2, r5
S_PADDI p2, -64
S_PGET r5, p2
L_VLD v1, p0, 32
L_VST v1, p1, 32
L_VLDB v2, p3, 2
L_SLD r4, p2, 4
L_SST r4, p2
V_ADD v3, v1, v2
V_SUB v3, v1, v2
V_MUL v3, v1, v2
V_MAX v3, v1, v2
V_MIN v3, v1, v2
V_BCST v3, r2
V_BCL v3, v1, 5
V_SHUF v3, v1, v2, 2
V_ALIGN v3, v1, v2, 1
V_RMAX v3, v1
V_SRS v3, a1
A_UPS a1, v3
A_VMUL a1, v2, v3
A_VMAC a1, v2, v3
A_MMUL a1, v2, v3
A_MMAC a1, v2, v3
A_ADD a3, a1, a2
A_SUB a3, a1, a2
A_MUL a3, a1, a2
A_MAX a3, a1, a2
A_EXP a2, a1
A_RECI a2, a1
A_RSQRT a2, a1
A_RSUM a2, a1
A_RMAX a2, a1
A_BCST a2, r3
C_NOP
row_done:
tile_done:
C_HALT
