; Every instruction and pseudo-instruction of isa/myaccel.yaml once, with labels, expressions and a .word.
start:
        LI     x1, 4096
        ADDI   x4, x4, -1
        ADD    x3, x1, x2
        MV     x2, x7
        VLD    v1, x2
        VST    v1, x3
        VBC    v1, x2
        VSPLAT v0, x0
        VADD   v0, v0, v3
        VMUL   v3, v1, v2
        VMAX   v1, v1, v0
        LI     x5, (ROW_BYTES * 3) / 2 - 1
        BNZ    x4, start
        .word  0x00000001
        HALT
