// softmax C2 on rvv/default: the fastest kernel we have (issue 28's check of the attainable bound, written
// for it by generating and list-scheduling with a script, from kcraft isa, task show and docs/rvv.md).
// Rows are software-pipelined in e32 m4 groups of 16: while row r computes its exponentials,
// row r+1 is loaded (first touch) and max-reduced, and row r-1 (stored unnormalised) is
// reloaded, multiplied by 1/sum and stored. exp(x - c) with c = round(max*log2e) powers of two:
// S = round(x*log2e) + (1.5*2^23 - K) by the magic-constant add (row shift K folded in), clamped;
// F = x*log2e - k by a fused vfmsub; monic cubic minimax for 2^F (the constant factor cancels
// in the normalisation) by Horner with vfmadd.vv and 2 coefficient vector groups; 2^(k-K) by one
// vmacc.vx adding S<<23 to the result bits. Chain ops are interleaved with the max/sum/norm ops
// so most arithmetic starts back to back. Per-row reductions fold m4->m2->m1 then vfred*.
    .text
    .globl kernel
kernel:
    li t0, 1069066811
    fmv.w.x fs0, t0
    li t0, 1262485379
    fmv.w.x fs1, t0
    li t0, 1082963811
    fmv.w.x fs2, t0
    li t0, 1095306340
    fmv.w.x ft0, t0
    li t0, 1100021205
    fmv.w.x ft1, t0
    li t0, 0x3f800000
    fmv.w.x fs5, t0
    li t1, 16
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.v.f v0, ft0
    vfmv.v.f v4, ft1
    li t0, 8388608
    li s2, 12582912
    li a0, ADDR_X
    li a1, ADDR_Y
    addi t2, a0, 0
    vle32.v v24, (t2)
    addi t3, a0, 64
    vle32.v v28, (t3)
    vfmax.vv v24, v24, v28
    addi t4, a0, 128
    vle32.v v28, (t4)
    vfmax.vv v24, v24, v28
    addi t2, a0, 192
    vle32.v v28, (t2)
    vfmax.vv v24, v24, v28
    addi t3, a0, 0
    vle32.v v8, (t3)
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vfredmax.vs v24, v24, v24
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    addi t4, a0, 256
    vle32.v v24, (t4)
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    vfmadd.vv v20, v8, v4
    addi t2, a0, 64
    vle32.v v8, (t2)
    vmacc.vx v20, t0, v12
    addi t3, a1, 0
    vse32.v v20, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    addi t4, a0, 320
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vfmadd.vv v16, v8, v4
    addi t2, a0, 128
    vle32.v v8, (t2)
    vmacc.vx v16, t0, v12
    addi t3, a1, 64
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    addi t4, a0, 384
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vfmadd.vv v16, v8, v4
    addi t2, a0, 192
    vle32.v v8, (t2)
    vmacc.vx v16, t0, v12
    addi t3, a1, 128
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    addi t4, a0, 448
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    vfmadd.vv v16, v8, v4
    addi t2, a0, 256
    vle32.v v8, (t2)
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    vmacc.vx v16, t0, v12
    addi t3, a1, 192
    vse32.v v16, (t3)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    addi t4, a0, 512
    vle32.v v24, (t4)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    addi t2, a1, 0
    vle32.v v28, (t2)
    vfmadd.vv v20, v8, v4
    addi t3, a0, 320
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    addi t4, a1, 0
    vse32.v v28, (t4)
    addi t2, a1, 256
    vse32.v v20, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    addi t3, a0, 576
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t4, a1, 64
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    addi t2, a0, 384
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t3, a1, 64
    vse32.v v28, (t3)
    addi t4, a1, 320
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    addi t2, a0, 640
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t3, a1, 128
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    addi t4, a0, 448
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t2, a1, 128
    vse32.v v28, (t2)
    addi t3, a1, 384
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    addi t4, a0, 704
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    addi t2, a1, 192
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    addi t3, a0, 512
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    addi t4, a1, 192
    vse32.v v28, (t4)
    addi t2, a1, 448
    vse32.v v16, (t2)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    addi t3, a0, 768
    vle32.v v24, (t3)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    addi t4, a1, 256
    vle32.v v28, (t4)
    vfmadd.vv v20, v8, v4
    addi t2, a0, 576
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    addi t3, a1, 256
    vse32.v v28, (t3)
    addi t4, a1, 512
    vse32.v v20, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    addi t2, a0, 832
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t3, a1, 320
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    addi t4, a0, 640
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t2, a1, 320
    vse32.v v28, (t2)
    addi t3, a1, 576
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    addi t4, a0, 896
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t2, a1, 384
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    addi t3, a0, 704
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t4, a1, 384
    vse32.v v28, (t4)
    addi t2, a1, 640
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    addi t3, a0, 960
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    addi t4, a1, 448
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    addi t2, a0, 768
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    addi t3, a1, 448
    vse32.v v28, (t3)
    addi t4, a1, 704
    vse32.v v16, (t4)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    addi t2, a0, 1024
    vle32.v v24, (t2)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    addi t3, a1, 512
    vle32.v v28, (t3)
    vfmadd.vv v20, v8, v4
    addi t4, a0, 832
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    addi t2, a1, 512
    vse32.v v28, (t2)
    addi t3, a1, 768
    vse32.v v20, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    addi t4, a0, 1088
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t2, a1, 576
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    addi t3, a0, 896
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t4, a1, 576
    vse32.v v28, (t4)
    addi t2, a1, 832
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    addi t3, a0, 1152
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t4, a1, 640
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    addi t2, a0, 960
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t3, a1, 640
    vse32.v v28, (t3)
    addi t4, a1, 896
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    addi t2, a0, 1216
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    addi t3, a1, 704
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    addi t4, a0, 1024
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    addi t2, a1, 704
    vse32.v v28, (t2)
    addi t3, a1, 960
    vse32.v v16, (t3)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    addi t4, a0, 1280
    vle32.v v24, (t4)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    addi t2, a1, 768
    vle32.v v28, (t2)
    vfmadd.vv v20, v8, v4
    addi t3, a0, 1088
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    addi t4, a1, 768
    vse32.v v28, (t4)
    addi t2, a1, 1024
    vse32.v v20, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    addi t3, a0, 1344
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t4, a1, 832
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    addi t2, a0, 1152
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t3, a1, 832
    vse32.v v28, (t3)
    addi t4, a1, 1088
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    addi t2, a0, 1408
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t3, a1, 896
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    addi t4, a0, 1216
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t2, a1, 896
    vse32.v v28, (t2)
    addi t3, a1, 1152
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    addi t4, a0, 1472
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    addi t2, a1, 960
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    addi t3, a0, 1280
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    addi t4, a1, 960
    vse32.v v28, (t4)
    addi t2, a1, 1216
    vse32.v v16, (t2)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    addi t3, a0, 1536
    vle32.v v24, (t3)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    addi t4, a1, 1024
    vle32.v v28, (t4)
    vfmadd.vv v20, v8, v4
    addi t2, a0, 1344
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    addi t3, a1, 1024
    vse32.v v28, (t3)
    addi t4, a1, 1280
    vse32.v v20, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    addi t2, a0, 1600
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t3, a1, 1088
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    addi t4, a0, 1408
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t2, a1, 1088
    vse32.v v28, (t2)
    addi t3, a1, 1344
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    addi t4, a0, 1664
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t2, a1, 1152
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    addi t3, a0, 1472
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t4, a1, 1152
    vse32.v v28, (t4)
    addi t2, a1, 1408
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    addi t3, a0, 1728
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    addi t4, a1, 1216
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    addi t2, a0, 1536
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    addi t3, a1, 1216
    vse32.v v28, (t3)
    addi t4, a1, 1472
    vse32.v v16, (t4)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    addi t2, a0, 1792
    vle32.v v24, (t2)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    addi t3, a1, 1280
    vle32.v v28, (t3)
    vfmadd.vv v20, v8, v4
    addi t4, a0, 1600
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    addi t2, a1, 1280
    vse32.v v28, (t2)
    addi t3, a1, 1536
    vse32.v v20, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    addi t4, a0, 1856
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t2, a1, 1344
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    addi t3, a0, 1664
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t4, a1, 1344
    vse32.v v28, (t4)
    addi t2, a1, 1600
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    addi t3, a0, 1920
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t4, a1, 1408
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    addi t2, a0, 1728
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t3, a1, 1408
    vse32.v v28, (t3)
    addi t4, a1, 1664
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    addi t2, a0, 1984
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    addi t3, a1, 1472
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    addi t4, a0, 1792
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    addi t2, a1, 1472
    vse32.v v28, (t2)
    addi t3, a1, 1728
    vse32.v v16, (t3)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t4, 2048
    add t4, t4, a0
    vle32.v v24, (t4)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    addi t2, a1, 1536
    vle32.v v28, (t2)
    vfmadd.vv v20, v8, v4
    addi t3, a0, 1856
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    addi t4, a1, 1536
    vse32.v v28, (t4)
    addi t2, a1, 1792
    vse32.v v20, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t3, 2112
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t4, a1, 1600
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    addi t2, a0, 1920
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t3, a1, 1600
    vse32.v v28, (t3)
    addi t4, a1, 1856
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 2176
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t3, a1, 1664
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    addi t4, a0, 1984
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t2, a1, 1664
    vse32.v v28, (t2)
    addi t3, a1, 1920
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 2240
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    addi t2, a1, 1728
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 2048
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    addi t4, a1, 1728
    vse32.v v28, (t4)
    addi t2, a1, 1984
    vse32.v v16, (t2)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t3, 2304
    add t3, t3, a0
    vle32.v v24, (t3)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    addi t4, a1, 1792
    vle32.v v28, (t4)
    vfmadd.vv v20, v8, v4
    li t2, 2112
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    addi t3, a1, 1792
    vse32.v v28, (t3)
    li t4, 2048
    add t4, t4, a1
    vse32.v v20, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t2, 2368
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t3, a1, 1856
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 2176
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t2, a1, 1856
    vse32.v v28, (t2)
    li t3, 2112
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 2432
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    addi t2, a1, 1920
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 2240
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    addi t4, a1, 1920
    vse32.v v28, (t4)
    li t2, 2176
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 2496
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    addi t4, a1, 1984
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 2304
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    addi t3, a1, 1984
    vse32.v v28, (t3)
    li t4, 2240
    add t4, t4, a1
    vse32.v v16, (t4)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t2, 2560
    add t2, t2, a0
    vle32.v v24, (t2)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t3, 2048
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v20, v8, v4
    li t4, 2368
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t2, 2048
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 2304
    add t3, t3, a1
    vse32.v v20, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t4, 2624
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 2112
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 2432
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 2112
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 2368
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 2688
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 2176
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 2496
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 2176
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 2432
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 2752
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 2240
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 2560
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 2240
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 2496
    add t3, t3, a1
    vse32.v v16, (t3)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t4, 2816
    add t4, t4, a0
    vle32.v v24, (t4)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t2, 2304
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v20, v8, v4
    li t3, 2624
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t4, 2304
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 2560
    add t2, t2, a1
    vse32.v v20, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t3, 2880
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 2368
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 2688
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 2368
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 2624
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 2944
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t3, 2432
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 2752
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 2432
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 2688
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 3008
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 2496
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 2816
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t4, 2496
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 2752
    add t2, t2, a1
    vse32.v v16, (t2)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t3, 3072
    add t3, t3, a0
    vle32.v v24, (t3)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t4, 2560
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v20, v8, v4
    li t2, 2880
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t3, 2560
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 2816
    add t4, t4, a1
    vse32.v v20, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t2, 3136
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t3, 2624
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 2944
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 2624
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 2880
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 3200
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 2688
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 3008
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 2688
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 2944
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 3264
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t4, 2752
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 3072
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 2752
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 3008
    add t4, t4, a1
    vse32.v v16, (t4)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t2, 3328
    add t2, t2, a0
    vle32.v v24, (t2)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t3, 2816
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v20, v8, v4
    li t4, 3136
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t2, 2816
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 3072
    add t3, t3, a1
    vse32.v v20, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t4, 3392
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 2880
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 3200
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 2880
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 3136
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 3456
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 2944
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 3264
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 2944
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 3200
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 3520
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 3008
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 3328
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 3008
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 3264
    add t3, t3, a1
    vse32.v v16, (t3)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t4, 3584
    add t4, t4, a0
    vle32.v v24, (t4)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t2, 3072
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v20, v8, v4
    li t3, 3392
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t4, 3072
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 3328
    add t2, t2, a1
    vse32.v v20, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t3, 3648
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 3136
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 3456
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 3136
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 3392
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 3712
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t3, 3200
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 3520
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 3200
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 3456
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 3776
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 3264
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 3584
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t4, 3264
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 3520
    add t2, t2, a1
    vse32.v v16, (t2)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t3, 3840
    add t3, t3, a0
    vle32.v v24, (t3)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t4, 3328
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v20, v8, v4
    li t2, 3648
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t3, 3328
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 3584
    add t4, t4, a1
    vse32.v v20, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t2, 3904
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t3, 3392
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 3712
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 3392
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 3648
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 3968
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 3456
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 3776
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 3456
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 3712
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 4032
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t4, 3520
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 3840
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 3520
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 3776
    add t4, t4, a1
    vse32.v v16, (t4)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t2, 4096
    add t2, t2, a0
    vle32.v v24, (t2)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t3, 3584
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v20, v8, v4
    li t4, 3904
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t2, 3584
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 3840
    add t3, t3, a1
    vse32.v v20, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t4, 4160
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 3648
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 3968
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 3648
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 3904
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 4224
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 3712
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 4032
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 3712
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 3968
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 4288
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 3776
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 4096
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 3776
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 4032
    add t3, t3, a1
    vse32.v v16, (t3)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t4, 4352
    add t4, t4, a0
    vle32.v v24, (t4)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t2, 3840
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v20, v8, v4
    li t3, 4160
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t4, 3840
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 4096
    add t2, t2, a1
    vse32.v v20, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t3, 4416
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 3904
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 4224
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 3904
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 4160
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 4480
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t3, 3968
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 4288
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 3968
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 4224
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 4544
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 4032
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 4352
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t4, 4032
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 4288
    add t2, t2, a1
    vse32.v v16, (t2)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t3, 4608
    add t3, t3, a0
    vle32.v v24, (t3)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t4, 4096
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v20, v8, v4
    li t2, 4416
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t3, 4096
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 4352
    add t4, t4, a1
    vse32.v v20, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t2, 4672
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t3, 4160
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 4480
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 4160
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 4416
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 4736
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 4224
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 4544
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 4224
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 4480
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 4800
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t4, 4288
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 4608
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 4288
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 4544
    add t4, t4, a1
    vse32.v v16, (t4)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t2, 4864
    add t2, t2, a0
    vle32.v v24, (t2)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t3, 4352
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v20, v8, v4
    li t4, 4672
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t2, 4352
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 4608
    add t3, t3, a1
    vse32.v v20, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t4, 4928
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 4416
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 4736
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 4416
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 4672
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 4992
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 4480
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 4800
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 4480
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 4736
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 5056
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 4544
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 4864
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 4544
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 4800
    add t3, t3, a1
    vse32.v v16, (t3)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t4, 5120
    add t4, t4, a0
    vle32.v v24, (t4)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t2, 4608
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v20, v8, v4
    li t3, 4928
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t4, 4608
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 4864
    add t2, t2, a1
    vse32.v v20, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t3, 5184
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 4672
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 4992
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 4672
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 4928
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 5248
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t3, 4736
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 5056
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 4736
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 4992
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 5312
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 4800
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 5120
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t4, 4800
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 5056
    add t2, t2, a1
    vse32.v v16, (t2)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t3, 5376
    add t3, t3, a0
    vle32.v v24, (t3)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t4, 4864
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v20, v8, v4
    li t2, 5184
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t3, 4864
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 5120
    add t4, t4, a1
    vse32.v v20, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t2, 5440
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t3, 4928
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 5248
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 4928
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 5184
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 5504
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 4992
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 5312
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 4992
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 5248
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 5568
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t4, 5056
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 5376
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 5056
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 5312
    add t4, t4, a1
    vse32.v v16, (t4)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t2, 5632
    add t2, t2, a0
    vle32.v v24, (t2)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t3, 5120
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v20, v8, v4
    li t4, 5440
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t2, 5120
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 5376
    add t3, t3, a1
    vse32.v v20, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t4, 5696
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 5184
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 5504
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 5184
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 5440
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 5760
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 5248
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 5568
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 5248
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 5504
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 5824
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 5312
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 5632
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 5312
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 5568
    add t3, t3, a1
    vse32.v v16, (t3)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t4, 5888
    add t4, t4, a0
    vle32.v v24, (t4)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t2, 5376
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v20, v8, v4
    li t3, 5696
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t4, 5376
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 5632
    add t2, t2, a1
    vse32.v v20, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t3, 5952
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 5440
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 5760
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 5440
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 5696
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 6016
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t3, 5504
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 5824
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 5504
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 5760
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 6080
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 5568
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 5888
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t4, 5568
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 5824
    add t2, t2, a1
    vse32.v v16, (t2)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t3, 6144
    add t3, t3, a0
    vle32.v v24, (t3)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t4, 5632
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v20, v8, v4
    li t2, 5952
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t3, 5632
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 5888
    add t4, t4, a1
    vse32.v v20, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t2, 6208
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t3, 5696
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 6016
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 5696
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 5952
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 6272
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 5760
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 6080
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 5760
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 6016
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 6336
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t4, 5824
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 6144
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 5824
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 6080
    add t4, t4, a1
    vse32.v v16, (t4)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t2, 6400
    add t2, t2, a0
    vle32.v v24, (t2)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t3, 5888
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v20, v8, v4
    li t4, 6208
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t2, 5888
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 6144
    add t3, t3, a1
    vse32.v v20, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t4, 6464
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 5952
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 6272
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 5952
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 6208
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 6528
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 6016
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 6336
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 6016
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 6272
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 6592
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 6080
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 6400
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 6080
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 6336
    add t3, t3, a1
    vse32.v v16, (t3)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t4, 6656
    add t4, t4, a0
    vle32.v v24, (t4)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t2, 6144
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v20, v8, v4
    li t3, 6464
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t4, 6144
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 6400
    add t2, t2, a1
    vse32.v v20, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t3, 6720
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 6208
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 6528
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 6208
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 6464
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 6784
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t3, 6272
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 6592
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 6272
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 6528
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 6848
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 6336
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 6656
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t4, 6336
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 6592
    add t2, t2, a1
    vse32.v v16, (t2)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t3, 6912
    add t3, t3, a0
    vle32.v v24, (t3)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t4, 6400
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v20, v8, v4
    li t2, 6720
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t3, 6400
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 6656
    add t4, t4, a1
    vse32.v v20, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t2, 6976
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t3, 6464
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 6784
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 6464
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 6720
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 7040
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 6528
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 6848
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 6528
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 6784
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 7104
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t4, 6592
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 6912
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 6592
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 6848
    add t4, t4, a1
    vse32.v v16, (t4)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t2, 7168
    add t2, t2, a0
    vle32.v v24, (t2)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t3, 6656
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v20, v8, v4
    li t4, 6976
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t2, 6656
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 6912
    add t3, t3, a1
    vse32.v v20, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t4, 7232
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 6720
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 7040
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 6720
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 6976
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 7296
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 6784
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 7104
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 6784
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 7040
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 7360
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 6848
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 7168
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 6848
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 7104
    add t3, t3, a1
    vse32.v v16, (t3)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t4, 7424
    add t4, t4, a0
    vle32.v v24, (t4)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t2, 6912
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v20, v8, v4
    li t3, 7232
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t4, 6912
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 7168
    add t2, t2, a1
    vse32.v v20, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t3, 7488
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 6976
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 7296
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 6976
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 7232
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 7552
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t3, 7040
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 7360
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 7040
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 7296
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 7616
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 7104
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 7424
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t4, 7104
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 7360
    add t2, t2, a1
    vse32.v v16, (t2)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t3, 7680
    add t3, t3, a0
    vle32.v v24, (t3)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t4, 7168
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v20, v8, v4
    li t2, 7488
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t3, 7168
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 7424
    add t4, t4, a1
    vse32.v v20, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t2, 7744
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t3, 7232
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 7552
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 7232
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 7488
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t4, 7808
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 7296
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 7616
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 7296
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 7552
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 7872
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t4, 7360
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 7680
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 7360
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 7616
    add t4, t4, a1
    vse32.v v16, (t4)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    li t2, 7936
    add t2, t2, a0
    vle32.v v24, (t2)
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t3, 7424
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v20, v8, v4
    li t4, 7744
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t2, 7424
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 7680
    add t3, t3, a1
    vse32.v v20, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    li t4, 8000
    add t4, t4, a0
    vle32.v v28, (t4)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t2, 7488
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 7808
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 7488
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 7744
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t3, 8064
    add t3, t3, a0
    vle32.v v28, (t3)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    li t4, 7552
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    li t2, 7872
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t3, 7552
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 7808
    add t4, t4, a1
    vse32.v v16, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    li t2, 8128
    add t2, t2, a0
    vle32.v v28, (t2)
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmax.vv v24, v24, v28
    vfmadd.vv v16, v8, v0
    vsetivli zero, 8, e32, m2, ta, ma
    vfmax.vv v24, v24, v26
    vsetvli zero, t1, e32, m4, ta, ma
    li t3, 7616
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 7936
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    vsetivli zero, 4, e32, m1, ta, ma
    vfmax.vv v24, v24, v25
    vsetvli zero, t1, e32, m4, ta, ma
    li t2, 7616
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 7872
    add t3, t3, a1
    vse32.v v16, (t3)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vfredmax.vs v24, v24, v24
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa0, v24
    vfmv.f.s fa1, v20
    vfmul.vf v12, v8, fs0
    fmul.s ft2, fa0, fs0
    fcvt.w.s s4, ft2
    sub s4, s2, s4
    fcvt.s.w fs3, s4
    vfadd.vf v12, v12, fs3
    fdiv.s fs4, fs5, fa1
    vfsub.vf v20, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v20
    vfadd.vf v20, v8, fs2
    vfmadd.vv v20, v8, v0
    li t4, 7680
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v20, v8, v4
    li t2, 8000
    add t2, t2, a0
    vle32.v v8, (t2)
    vfmul.vf v28, v28, fs4
    vmacc.vx v20, t0, v12
    li t3, 7680
    add t3, t3, a1
    vse32.v v28, (t3)
    li t4, 7936
    add t4, t4, a1
    vse32.v v20, (t4)
    vfmul.vf v12, v8, fs0
    vfadd.vf v12, v12, fs3
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmadd.vv v16, v8, v0
    li t2, 7744
    add t2, t2, a1
    vle32.v v28, (t2)
    vfmadd.vv v16, v8, v4
    li t3, 8064
    add t3, t3, a0
    vle32.v v8, (t3)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t4, 7744
    add t4, t4, a1
    vse32.v v28, (t4)
    li t2, 8000
    add t2, t2, a1
    vse32.v v16, (t2)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmadd.vv v16, v8, v0
    li t3, 7808
    add t3, t3, a1
    vle32.v v28, (t3)
    vfmadd.vv v16, v8, v4
    li t4, 8128
    add t4, t4, a0
    vle32.v v8, (t4)
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 7808
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 8064
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v12, v8, fs0
    vfadd.vv v20, v20, v16
    vfadd.vf v12, v12, fs3
    vfsub.vf v16, v12, fs3
    vfmax.vf v12, v12, fs1
    vfmsub.vf v8, fs0, v16
    vfadd.vf v16, v8, fs2
    vfmadd.vv v16, v8, v0
    li t4, 7872
    add t4, t4, a1
    vle32.v v28, (t4)
    vfmadd.vv v16, v8, v4
    vfmul.vf v28, v28, fs4
    vmacc.vx v16, t0, v12
    li t2, 7872
    add t2, t2, a1
    vse32.v v28, (t2)
    li t3, 8128
    add t3, t3, a1
    vse32.v v16, (t3)
    vfadd.vv v20, v20, v16
    vsetivli zero, 4, e32, m1, ta, ma
    vsetivli zero, 8, e32, m2, ta, ma
    vfadd.vv v20, v20, v22
    vsetivli zero, 4, e32, m1, ta, ma
    vmv.s.x v22, zero
    vfadd.vv v20, v20, v21
    vfredusum.vs v20, v20, v22
    vsetvli zero, t1, e32, m4, ta, ma
    vfmv.f.s fa1, v20
    fdiv.s fs4, fs5, fa1
    li t4, 7936
    add t4, t4, a1
    vle32.v v28, (t4)
    li t2, 8000
    add t2, t2, a1
    vle32.v v16, (t2)
    li t3, 8064
    add t3, t3, a1
    vle32.v v8, (t3)
    li t4, 8128
    add t4, t4, a1
    vle32.v v12, (t4)
    vfmul.vf v28, v28, fs4
    li t2, 7936
    add t2, t2, a1
    vse32.v v28, (t2)
    vfmul.vf v16, v16, fs4
    li t3, 8000
    add t3, t3, a1
    vse32.v v16, (t3)
    vfmul.vf v8, v8, fs4
    li t4, 8064
    add t4, t4, a1
    vse32.v v8, (t4)
    vfmul.vf v12, v12, fs4
    li t2, 8128
    add t2, t2, a1
    vse32.v v12, (t2)
    ret
