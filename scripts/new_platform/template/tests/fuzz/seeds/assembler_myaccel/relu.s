; relu: y = max(x, 0), one row of LANES FP32 elements per iteration.
        LI     x1, ADDR_X
        LI     x2, ADDR_Y
        LI     x3, M * N / LANES    ; rows
        VSPLAT v0, x0               ; v0 = +0.0
row:
        VLD    v1, x1
        VMAX   v1, v1, v0
        VST    v1, x2
        ADDI   x1, x1, ROW_BYTES
        ADDI   x2, x2, ROW_BYTES
        ADDI   x3, x3, -1
        BNZ    x3, row
        HALT
