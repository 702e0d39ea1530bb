; Diagnostics: an unknown mnemonic, a register out of range, an immediate too large, an undefined symbol,
; a missing operand and a label defined twice.
again:
        VFOO   v1, v2, v3
        VADD   v16, v0, v0
        LI     x1, 1048576
        ADDI   x2, x2, NOT_A_SYMBOL
        VLD    v1
again:
        BNZ    x1, nowhere
        HALT
