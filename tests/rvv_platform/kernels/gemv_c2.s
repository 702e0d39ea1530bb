// gemv_c2: written by a new user from kcraft isa, task show and docs/rvv.md alone (issue 28's check);
// kept as kernels the attainable bound must stay under and near (RvvBounds).
// gemv y = A x, K == 64 (two e32 m8 groups per row), M even.
// Each row: P = A_lo*x_lo + A_hi*x_hi (32 lanes), folded to 4 partial sums stored to a stack
// buffer; a final pass adds the 4 partials of each row with strided loads.
#if K != 64
#error K == 64 only
#endif
#define CAT(a, b) a##b
#define HI4_v16 v20
#define HI4_v24 v28
#define HI2_v16 v18
#define HI2_v24 v26
#define M1_v16 v17
#define M1_v24 v25

// row with A_lo in P, A_hi in Q (both loaded); loads the next row: lo into Q, hi into P
#define ROW(P, Q, LD) \
    vfmul.vv P, P, v0; \
    vfmacc.vv P, v8, Q; \
    LD(Q, 0); \
    vsetivli zero, 16, e32, m4, ta, ma; \
    vfadd.vv P, P, CAT(HI4_, P); \
    vsetivli zero, 8, e32, m2, ta, ma; \
    vfadd.vv P, P, CAT(HI2_, P); \
    vsetivli zero, 4, e32, m1, ta, ma; \
    vfadd.vv P, P, CAT(M1_, P); \
    vse32.v P, (a3); \
    addi a3, a3, 16; \
    vsetvli zero, t1, e32, m8, ta, ma; \
    LD(P, 128); \
    LD##ADV

#define LOADN(R, OFF) addi t2, a0, OFF; vle32.v R, (t2)
#define LOADNADV addi a0, a0, K*4
#define NOLOAD(R, OFF)
#define NOLOADADV

    .text
    .globl kernel
kernel:
    addi sp, sp, -(M*16)
    mv a3, sp
    li t1, 32
    vsetvli zero, t1, e32, m8, ta, ma
    li t2, ADDR_X
    vle32.v v0, (t2)
    addi t2, t2, 128
    vle32.v v8, (t2)
    li a0, ADDR_A
    LOADN(v16, 0)
    LOADN(v24, 128)
    LOADNADV
    li a2, M/2 - 1
1:
    ROW(v16, v24, LOADN)
    ROW(v24, v16, LOADN)
    addi a2, a2, -1
    bnez a2, 1b
    ROW(v16, v24, LOADN)
    ROW(v24, v16, NOLOAD)
    // y[r] = sum of the 4 partials at sp + 16 r
    li t3, 16
    mv a3, sp
    li a1, ADDR_Y
    li a2, M
2:
    vsetvli t1, a2, e32, m8, ta, ma
    vlse32.v v0, (a3), t3
    addi t2, a3, 4
    vlse32.v v8, (t2), t3
    addi t2, a3, 8
    vlse32.v v16, (t2), t3
    addi t2, a3, 12
    vlse32.v v24, (t2), t3
    vfadd.vv v0, v0, v8
    vfadd.vv v16, v16, v24
    vfadd.vv v0, v0, v16
    vse32.v v0, (a1)
    slli t2, t1, 2
    add a1, a1, t2
    slli t2, t1, 4
    add a3, a3, t2
    sub a2, a2, t1
    bnez a2, 2b
    addi sp, sp, M*16
    ret
