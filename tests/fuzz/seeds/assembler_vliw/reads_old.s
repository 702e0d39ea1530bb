; relu C1, software-pipelined through the exposed pipeline: one register per stage, each read taking
; the value that landed last (the row loaded three bundles earlier, the maximum of two bundles earlier).
    V_BCST v0, r0
    S_ADDI r1, r0, ADDR_X
    S_ADDI r2, r0, ADDR_Y
    S_ADDI r3, r0, ROW_BYTES
    S_ADDI r4, r0, M
    C_DMALD 0, r0, r1, r3, r4, 0
    C_ACQ 0
    S_PMOV p0, r0
    S_PMOV p1, r0
.reads_old begin v1, v2
    L_VLD v1, p0, ROW_BYTES
    L_VLD v1, p0, ROW_BYTES
    L_VLD v1, p0, ROW_BYTES
    { L_VLD v1, p0, ROW_BYTES ; V_MAX v2, v1, v0 }
    { L_VLD v1, p0, ROW_BYTES ; V_MAX v2, v1, v0 ; C_LOOPI M - 5, done }
    { L_VST v2, p1, ROW_BYTES ; L_VLD v1, p0, ROW_BYTES ; V_MAX v2, v1, v0 }
done:
    { L_VST v2, p1, ROW_BYTES ; V_MAX v2, v1, v0 }
    { L_VST v2, p1, ROW_BYTES ; V_MAX v2, v1, v0 }
    { L_VST v2, p1, ROW_BYTES ; V_MAX v2, v1, v0 }
    L_VST v2, p1, ROW_BYTES
    L_VST v2, p1, ROW_BYTES
.reads_old end
    C_DMAST 0, r0, r2, r3, r4
    C_HALT
