; bundles, slot order, multi-line bundles and hazards across a loop back edge
        S_LI      r1, 100000
        S_LI_FP   r2, 0.5
        { A_BCST a0, r2 ; S_PMOV p0, r0 ; C_LOOPI 8, done }
        {
          L_VLD v1, p0, ROW_BYTES   // A
          L_VLDB v2, p1, 2          # B element
          A_VMAC a0, v1, v2 ; S_ADDI r3, r3, 1
        }
        { A_MMAC a1, v1, v2 ; C_NOP }
done:   { V_SRS v3, a0 ; L_VST v3, p2 }
        { C_DMAST 1, r1, r2, r3, r4, 7 ; V_SHUF v4, v3, v3, 2 }
        C_ACQ 7
        C_HALT
