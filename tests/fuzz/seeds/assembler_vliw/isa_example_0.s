; Y = max(X, 0): X and Y are BYTES_X / ROW_BYTES rows of VLEN BF16; DM rows 0.. hold them in turn.
        S_LI      r1, ADDR_X
        S_LI      r2, ROW_BYTES        ; dense rows
        S_LI      r3, BYTES_X / ROW_BYTES
        C_DMALD   0, r0, r1, r2, r3, 0 ; DM[0..] = X, then lock 0 is released
        V_BCST    v0, r0               ; v0 = +0.0 in every lane
        C_ACQ     0                    ; wait for the load
        S_PMOV    p0, r0
        S_PMOV    p1, r0
        C_LOOP    r3, rows_done
        L_VLD     v1, p0, ROW_BYTES
        C_NOP                          ; v1 lands 3 bundles after L_VLD
        C_NOP
        V_MAX     v2, v1, v0
        C_NOP                          ; v2 lands 2 bundles after V_MAX
        L_VST     v2, p1, ROW_BYTES
rows_done:
        S_LI      r4, ADDR_Y
        C_DMAST   1, r0, r4, r2, r3    ; Y = DM[0..]; C_HALT waits for it
        C_HALT
