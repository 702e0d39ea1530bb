.equ MLEN, 16
.equ VLEN, 16
.equ BLEN, 4
.equ ROWS, 32
.equ ADDR_X, 0
.equ ADDR_W, 1024
.equ ADDR_Y, 2048
; Y = X * W. VSRAM rows 0..ROWS-1 hold X, rows ROWS..2*ROWS-1 receive Y.
        .equ ROW_BYTES, 2*MLEN
        .equ Y_ROW, ROWS
        S_LI      r1, ADDR_X
        S_LI      r2, ADDR_W
        S_LI      r3, ROW_BYTES
        H_LOAD_M  r0, r2, r3, MLEN    ; MSRAM rows 0..MLEN-1 = W
        H_LOAD_V  r0, r1, r3, ROWS    ; VSRAM rows 0..ROWS-1 = X
        M_LDW     r0                  ; W into the array
        S_MV      r4, r0              ; X row = accumulator row
        S_LI      r5, Y_ROW           ; Y row
        C_LOOPI   ROWS/BLEN, tiles_done
        M_MM      r4, r4              ; ACC[r4 + i] = X[r4 + i] * W, i < BLEN
        M_WO      r5, r4              ; VSRAM[r5 + i] = ACC[r4 + i] as BF16
        S_ADDI    r4, r4, BLEN
        S_ADDI    r5, r5, BLEN
tiles_done:
        S_LI      r6, ADDR_Y
        S_LI      r7, Y_ROW
        H_STORE_V r7, r6, r3, ROWS    ; Y = VSRAM rows Y_ROW..Y_ROW+ROWS-1
        C_HALT
