; gemm: C = A B; per row m of C and block of LANES columns, K broadcasts of A times rows of B.
        LI     x1, ADDR_A           ; A[m, 0]
        LI     x3, ADDR_C           ; C[m, n0]
        LI     x6, M
m_loop:
        LI     x8, ADDR_B           ; B[0, n0]
        LI     x5, N / LANES
n_loop:
        VSPLAT v0, x0               ; the accumulator
        MV     x9, x1               ; A[m, k]
        MV     x2, x8               ; B[k, n0]
        LI     x4, K
k_loop:
        VBC    v1, x9
        VLD    v2, x2
        VMUL   v3, v1, v2
        VADD   v0, v0, v3
        ADDI   x9, x9, 4
        ADDI   x2, x2, 4 * N
        ADDI   x4, x4, -1
        BNZ    x4, k_loop
        VST    v0, x3
        ADDI   x3, x3, ROW_BYTES
        ADDI   x8, x8, ROW_BYTES
        ADDI   x5, x5, -1
        BNZ    x5, n_loop
        ADDI   x1, x1, 4 * K
        ADDI   x6, x6, -1
        BNZ    x6, m_loop
        HALT
