C_NOP
C_HALT
C_FENCE
C_LOOP r5, row_done
C_LOOPI 16, tile_done
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
S_LUI r4, 0x0010
S_ADD_FP f3, f1, f2
S_SUB_FP f3, f1, f2
S_MUL_FP f3, f1, f2
S_MAX_FP f3, f1, f2
S_MIN_FP f3, f1, f2
S_EXP_FP f2, f1
S_RECI_FP f2, f1
S_SQRT_FP f2, f1
S_RSQRT_FP f2, f1
S_LUI_FP f1, 0x3F80
S_LLI_FP f1, 0x0001
S_LD_FP f4, r0, 3
S_ST_FP f4, r0, 3
S_ITOF f2, r7
V_ADD_VV r3, r1, r2, 1
V_SUB_VV r3, r1, r2
V_MUL_VV r3, r1, r2
V_MAX_VV r3, r1, r2
V_MIN_VV r3, r1, r2
V_ADD_VF r3, r1, f2
V_SUB_VF r3, r1, f2
V_MUL_VF r3, r1, f2
V_MAX_VF r3, r1, f0
V_MIN_VF r3, r1, f2
V_EXP_V r3, r1
V_RECI_V r3, r1
V_RSQRT_V r3, r1
V_EXP_VF r3, r1, f2
V_BCAST_F r3, f1
V_RED_SUM f1, r1
V_RED_MAX f1, r1
V_RED_DOT f1, r1, r2
M_LDW r6
M_LDWT r6
M_MM r5, r4
M_MMA r5, r4, 4
M_WO r7, r5
H_LOAD_V r1, r2, r3, 16
H_LOAD_M r1, r2, r3, 16
H_STORE_V r1, r2, r3, 16
S_LI r5, 100000
S_MV r2, r7
S_LI_FP f3, 1.0/3
S_MV_FP f2, f5
C_HALT
