/* gemm, hand-vectorised with RVV intrinsics: C[M, N] = A[M, K] B[K, N], FP32, row-major.
 *
 * The baseline (the scalar C reference at -O2) computes one C element at a time: its k loop is a sum in
 * order, which clang does not vectorise, and reads B down a column. Here the vector runs along a row of B
 * and of C instead: for each k, one vector load of B[k][n .. n+vl) serves four rows of C, each updated by
 * one vfmacc.vf with the scalar A[m+i][k]. The four accumulators stay in registers for the whole k loop, so
 * C is written once. The k sums run in k order, like the reference (in FP32, with fused multiply-adds).
 *
 * LMUL 4: each operand is a group of 4 vector registers, VLEN/32 * 4 FP32 lanes (16 at VLEN 128). Four
 * accumulators and the B strip take 20 of the 32 registers. Columns are strip-mined with vsetvl, so any N
 * and any VLEN work; rows go four at a time.
 */
#include <riscv_vector.h>

#if M % 4 != 0
#error "gemm.c computes four rows of C per pass: M must be a multiple of 4"
#endif

void kernel(void) {
  const float* a = (const float*)ADDR_A;
  const float* b = (const float*)ADDR_B;
  float* c = (float*)ADDR_C;
  for (int m = 0; m < M; m += 4) {
    const float* a0 = a + (m + 0) * K;
    const float* a1 = a + (m + 1) * K;
    const float* a2 = a + (m + 2) * K;
    const float* a3 = a + (m + 3) * K;
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m4(N - n); /* columns in this strip */
      vfloat32m4_t c0 = __riscv_vfmv_v_f_f32m4(0.0f, vl);
      vfloat32m4_t c1 = __riscv_vfmv_v_f_f32m4(0.0f, vl);
      vfloat32m4_t c2 = __riscv_vfmv_v_f_f32m4(0.0f, vl);
      vfloat32m4_t c3 = __riscv_vfmv_v_f_f32m4(0.0f, vl);
      for (int k = 0; k < K; ++k) {
        vfloat32m4_t bk = __riscv_vle32_v_f32m4(b + k * N + n, vl); /* B[k][n .. n+vl) */
        c0 = __riscv_vfmacc_vf_f32m4(c0, a0[k], bk, vl);           /* C[m+i][n..] += A[m+i][k] B[k][n..] */
        c1 = __riscv_vfmacc_vf_f32m4(c1, a1[k], bk, vl);
        c2 = __riscv_vfmacc_vf_f32m4(c2, a2[k], bk, vl);
        c3 = __riscv_vfmacc_vf_f32m4(c3, a3[k], bk, vl);
      }
      __riscv_vse32_v_f32m4(c + (m + 0) * N + n, c0, vl);
      __riscv_vse32_v_f32m4(c + (m + 1) * N + n, c1, vl);
      __riscv_vse32_v_f32m4(c + (m + 2) * N + n, c2, vl);
      __riscv_vse32_v_f32m4(c + (m + 3) * N + n, c3, vl);
    }
  }
}
