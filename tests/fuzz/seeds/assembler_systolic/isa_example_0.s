.equ VLEN, 16
.equ ROWS, 64
.equ ADDR_X, 0
.equ ADDR_Y, 4096
; Y = max(X, 0), X and Y are ROWS x VLEN BF16, row-major.
        .equ ROW_BYTES, 2*VLEN
        S_LI      r1, ADDR_X          ; DRAM source
        S_LI      r2, ADDR_Y          ; DRAM destination
        S_LI      r3, ROW_BYTES       ; stride: rows are contiguous
        H_LOAD_V  r0, r1, r3, ROWS    ; VSRAM rows 0..ROWS-1 = X
        S_LI      r4, ROWS            ; loop count
        S_MV      r5, r0              ; row pointer
        C_LOOP    r4, relu_done
        V_MAX_VF  r5, r5, f0          ; row = max(row, +0.0)
        S_ADDI    r5, r5, 1
relu_done:
        H_STORE_V r0, r2, r3, ROWS    ; Y = VSRAM rows 0..ROWS-1
        C_HALT
