/* gemm, hand-vectorised in RVV assembly: C[M, N] = A[M, K] B[K, N], FP32, row-major.
 *
 * The algorithm of gemm.c, written out: for four rows of C at a time and a strip of vl columns, one vector
 * load of B[k][n .. n+vl) per k serves the four rows, each updated by one vfmacc.vf with the scalar
 * A[m+i][k]; the accumulators stay in v8, v12, v16, v20 (LMUL 4: four registers each) for the whole k loop.
 * Columns are strip-mined with vsetvli, so any N and any VLEN work; M must be a multiple of 4.
 *
 * Only caller-saved registers are used (a*, t*, ft*, and the vector registers, which the ABI does not
 * preserve), so the kernel needs no stack. ADDR_A, M, K... come from the task's symbol header.
 */
#if M % 4 != 0
#error "gemm.S computes four rows of C per pass: M must be a multiple of 4"
#endif

  .text
  .globl kernel
kernel:
  li a0, ADDR_A              # a0: &A[m][0], the first row of this pass
  li a1, ADDR_C              # a1: &C[m][0]
  li a2, ADDR_A + M * K * 4  # a2: the end of A: the last pass ends there
  li a7, N * 4               # a7: the row stride of B and C in bytes
.Lpass:                      # rows m .. m+3
  li a3, 0                   # a3: n, the strip's first column
.Lstrip:                     # columns n .. n+vl-1
  li t0, N
  sub t0, t0, a3
  vsetvli t1, t0, e32, m4, ta, ma  # t1 = vl = min(N - n, 4 * VLEN / 32)
  vmv.v.i v8, 0              # the accumulators C[m+0..3][n .. n+vl)
  vmv.v.i v12, 0
  vmv.v.i v16, 0
  vmv.v.i v20, 0
  slli t2, a3, 2             # t2: n in bytes
  li t3, ADDR_B
  add t3, t3, t2             # t3: &B[k][n], from k = 0
  li t0, K * 4
  mv t4, a0                  # t4, t5, t6, a4: &A[m+0..3][k]
  add t5, t4, t0
  add t6, t5, t0
  add a4, t6, t0
  add a5, a0, t0             # a5: the end of row m: the k loop stops there
.Lk:
  vle32.v v24, (t3)          # B[k][n .. n+vl)
  flw ft0, 0(t4)             # A[m+0..3][k]
  flw ft1, 0(t5)
  flw ft2, 0(t6)
  flw ft3, 0(a4)
  vfmacc.vf v8, ft0, v24     # C[m+i][n..] += A[m+i][k] * B[k][n..]
  vfmacc.vf v12, ft1, v24
  vfmacc.vf v16, ft2, v24
  vfmacc.vf v20, ft3, v24
  add t3, t3, a7             # the next row of B
  addi t4, t4, 4             # the next column of A
  addi t5, t5, 4
  addi t6, t6, 4
  addi a4, a4, 4
  bne t4, a5, .Lk
  add t0, a1, t2             # &C[m][n], then the three rows below
  vse32.v v8, (t0)
  add t0, t0, a7
  vse32.v v12, (t0)
  add t0, t0, a7
  vse32.v v16, (t0)
  add t0, t0, a7
  vse32.v v20, (t0)
  add a3, a3, t1             # n += vl
  li t0, N
  bltu a3, t0, .Lstrip
  li t0, 4 * K * 4
  add a0, a0, t0             # four rows down in A
  slli t0, a7, 2
  add a1, a1, t0             # and in C
  bne a0, a2, .Lpass
  ret
