; docs/extending.md: a kernel fragment that uses V_ABS_V, the instruction its patch adds to systolic.
; Eight rows of DRAM from address 0 become their absolute values at DRAM address 4096.
    S_LI r3, ROW_BYTES             ; dense rows
    H_LOAD_V r0, r0, r3, 8         ; VSRAM rows 0..7 = DRAM rows 0..7
    S_LI r1, 8
    V_ABS_V r1, r0, 0              ; row 8 + k = |row k|: the offset moves both rows
    V_ABS_V r1, r0, 1
    V_ABS_V r1, r0, 2
    V_ABS_V r1, r0, 3
    V_ABS_V r1, r0, 4
    V_ABS_V r1, r0, 5
    V_ABS_V r1, r0, 6
    V_ABS_V r1, r0, 7
    S_LI r4, 4096
    H_STORE_V r1, r4, r3, 8        ; waits for the last V_ABS_V (interlock)
    C_HALT
