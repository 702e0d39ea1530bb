/* crt0 of the rvv platform: start-up, the end-of-program protocol and, under QEMU, the trap reporter
 * (rvv_memory_map.h explains them).
 * Start: sp = RVV_STACK_TOP, .bss zeroed, fcsr = 0, v0..v31 = 0, vl = 0 with vtype = e32/m1, every other
 * register 0, so a kernel starts from the same state under QEMU and on the RTL whatever the loader left.
 * The core must reset with the F and V units on (mstatus.FS/VS): crt0 runs in QEMU user mode too, where
 * mstatus is not accessible.
 */
#include "rvv_memory_map.h"

  .section .text.crt0, "ax", @progbits
  .option norelax
  .globl _start
  .type _start, @function
_start:
  li sp, RVV_STACK_TOP
  /* QEMU only (host flag set by the loader; the RTL's loader leaves it 0 and no ecall runs before the
   * end): rt_sigaction for the fatal signals, on the signal stack at RVV_TRAP_STACK_ADDR, so a trap
   * reports its PC and registers (.Ltrap). */
  li t0, RVV_HOST_FLAGS
  lw t0, 0(t0)
  andi t0, t0, RVV_HOST_FLAG_TRAP_REPORT
  beqz t0, 4f
  addi sp, sp, -32
  li t0, RVV_TRAP_STACK_ADDR /* stack_t {ss_sp, ss_flags, ss_size} */
  sw t0, 16(sp)
  sw zero, 20(sp)
  li t0, RVV_TRAP_STACK_BYTES
  sw t0, 24(sp)
  addi a0, sp, 16
  li a1, 0
  li a7, RVV_SYS_SIGALTSTACK
  ecall
  la t0, .Ltrap /* struct sigaction {handler, flags, mask (64 bits)} */
  sw t0, 0(sp)
  li t0, 0x08000004 /* SA_ONSTACK | SA_SIGINFO */
  sw t0, 4(sp)
  sw zero, 8(sp)
  sw zero, 12(sp)
  li s0, 4 /* SIGILL */
  jal ra, 3f
  li s0, 5 /* SIGTRAP */
  jal ra, 3f
  li s0, 7 /* SIGBUS */
  jal ra, 3f
  li s0, 8 /* SIGFPE */
  jal ra, 3f
  li s0, 11 /* SIGSEGV */
  jal ra, 3f
  /* The stack words used go back to zero: the kernel sees the same memory as on the RTL. */
  sw zero, 0(sp)
  sw zero, 4(sp)
  sw zero, 16(sp)
  sw zero, 24(sp)
  addi sp, sp, 32
  j 4f
3:
  mv a0, s0
  mv a1, sp
  li a2, 0
  li a3, 8
  li a7, RVV_SYS_RT_SIGACTION
  ecall
  ret
4:
  fscsr zero
  vsetvli t0, zero, e32, m8, ta, ma
  vmv.v.i v0, 0
  vmv.v.i v8, 0
  vmv.v.i v16, 0
  vmv.v.i v24, 0
  /* .bss from the zero group v0..v7, a group's bytes per store (a word per store took a composite's
   * 16 KiB of static buffers 20k cycles). */
  la t0, __bss_start
  la t1, __bss_end
1:
  sub t2, t1, t0
  beqz t2, 2f
  vsetvli t2, t2, e8, m8, ta, ma
  vse8.v v0, (t0)
  add t0, t0, t2
  j 1b
2:
  vsetivli zero, 0, e32, m1, ta, ma
  fmv.w.x f0, zero
  fmv.w.x f1, zero
  fmv.w.x f2, zero
  fmv.w.x f3, zero
  fmv.w.x f4, zero
  fmv.w.x f5, zero
  fmv.w.x f6, zero
  fmv.w.x f7, zero
  fmv.w.x f8, zero
  fmv.w.x f9, zero
  fmv.w.x f10, zero
  fmv.w.x f11, zero
  fmv.w.x f12, zero
  fmv.w.x f13, zero
  fmv.w.x f14, zero
  fmv.w.x f15, zero
  fmv.w.x f16, zero
  fmv.w.x f17, zero
  fmv.w.x f18, zero
  fmv.w.x f19, zero
  fmv.w.x f20, zero
  fmv.w.x f21, zero
  fmv.w.x f22, zero
  fmv.w.x f23, zero
  fmv.w.x f24, zero
  fmv.w.x f25, zero
  fmv.w.x f26, zero
  fmv.w.x f27, zero
  fmv.w.x f28, zero
  fmv.w.x f29, zero
  fmv.w.x f30, zero
  fmv.w.x f31, zero
  li x1, 0
  li x3, 0
  li x4, 0
  li x5, 0
  li x6, 0
  li x7, 0
  li x8, 0
  li x9, 0
  li x10, 0
  li x11, 0
  li x12, 0
  li x13, 0
  li x14, 0
  li x15, 0
  li x16, 0
  li x17, 0
  li x18, 0
  li x19, 0
  li x20, 0
  li x21, 0
  li x22, 0
  li x23, 0
  li x24, 0
  li x25, 0
  li x26, 0
  li x27, 0
  li x28, 0
  li x29, 0
  li x30, 0
  li x31, 0
  call kernel

  /* The end state, sp-relative: nothing is clobbered before it is saved. */
  sw x1, 4(sp)
  sw x2, 8(sp)
  sw x3, 12(sp)
  sw x4, 16(sp)
  sw x5, 20(sp)
  sw x6, 24(sp)
  sw x7, 28(sp)
  sw x8, 32(sp)
  sw x9, 36(sp)
  sw x10, 40(sp)
  sw x11, 44(sp)
  sw x12, 48(sp)
  sw x13, 52(sp)
  sw x14, 56(sp)
  sw x15, 60(sp)
  sw x16, 64(sp)
  sw x17, 68(sp)
  sw x18, 72(sp)
  sw x19, 76(sp)
  sw x20, 80(sp)
  sw x21, 84(sp)
  sw x22, 88(sp)
  sw x23, 92(sp)
  sw x24, 96(sp)
  sw x25, 100(sp)
  sw x26, 104(sp)
  sw x27, 108(sp)
  sw x28, 112(sp)
  sw x29, 116(sp)
  sw x30, 120(sp)
  sw x31, 124(sp)
  fsw f0, 128(sp)
  fsw f1, 132(sp)
  fsw f2, 136(sp)
  fsw f3, 140(sp)
  fsw f4, 144(sp)
  fsw f5, 148(sp)
  fsw f6, 152(sp)
  fsw f7, 156(sp)
  fsw f8, 160(sp)
  fsw f9, 164(sp)
  fsw f10, 168(sp)
  fsw f11, 172(sp)
  fsw f12, 176(sp)
  fsw f13, 180(sp)
  fsw f14, 184(sp)
  fsw f15, 188(sp)
  fsw f16, 192(sp)
  fsw f17, 196(sp)
  fsw f18, 200(sp)
  fsw f19, 204(sp)
  fsw f20, 208(sp)
  fsw f21, 212(sp)
  fsw f22, 216(sp)
  fsw f23, 220(sp)
  fsw f24, 224(sp)
  fsw f25, 228(sp)
  fsw f26, 232(sp)
  fsw f27, 236(sp)
  fsw f28, 240(sp)
  fsw f29, 244(sp)
  fsw f30, 248(sp)
  fsw f31, 252(sp)
  frcsr t0
  sw t0, RVV_SIG_OFF_FCSR(sp)
  csrr t0, vl
  sw t0, RVV_SIG_OFF_VL(sp)
  csrr t0, vtype
  sw t0, RVV_SIG_OFF_VTYPE(sp)
  csrr t0, vstart
  sw t0, RVV_SIG_OFF_VSTART(sp)
  csrr t0, vlenb
  sw t0, RVV_SIG_OFF_VLENB(sp)
  li t0, RVV_SIG_MAGIC
  sw t0, RVV_SIG_OFF_MAGIC(sp)
  li t0, RVV_STACK_TOP
  bne sp, t0, .Lbad_sp

  /* THE END: the first ecall (write of the signature). The RTL halts here; the rest is for QEMU. */
  li a1, RVV_SIG_ADDR
  li a2, RVV_SIG_BYTES
  jal ra, .Lwrite_all
  li a1, RVV_DRAM_BASE
  li t0, RVV_HOST_DRAM_BYTES
  lw a2, 0(t0)
  jal ra, .Lwrite_all
  li a0, RVV_EXIT_OK
  li a7, RVV_SYS_EXIT
  ecall

.Lbad_sp:
  li a0, RVV_EXIT_BAD_SP
  li a7, RVV_SYS_EXIT
  ecall

/* write(1, a1, a2) until all a2 bytes are out (a pipe may take fewer per call). */
.Lwrite_all:
  beqz a2, 2f
1:
  li a0, 1
  li a7, RVV_SYS_WRITE
  ecall
  blez a0, .Lwrite_failed
  add a1, a1, a0
  sub a2, a2, a0
  bnez a2, 1b
2:
  ret
.Lwrite_failed:
  li a0, RVV_EXIT_WRITE_FAILED
  li a7, RVV_SYS_EXIT
  ecall

/* QEMU only: the handler of a fatal signal (a0 = signo, a1 = siginfo, a2 = ucontext), on the signal stack.
 * Writes the trap record (RVV_TRAP_MAGIC, signo, si_code, si_addr) then the 32 words of the ucontext's
 * mcontext (pc, x1..x31) to stdout and exits with RVV_EXIT_TRAP. */
.Ltrap:
  mv s2, a2
  addi sp, sp, -16
  li t0, RVV_TRAP_MAGIC
  sw t0, 0(sp)
  sw a0, 4(sp)
  lw t0, 8(a1)
  sw t0, 8(sp)
  lw t0, 12(a1)
  sw t0, 12(sp)
  mv a1, sp
  li a2, 16
  jal ra, .Lwrite_all
  addi a1, s2, RVV_UCONTEXT_OFF_PC
  li a2, 128
  jal ra, .Lwrite_all
  li a0, RVV_EXIT_TRAP
  li a7, RVV_SYS_EXIT
  ecall
  .size _start, . - _start
