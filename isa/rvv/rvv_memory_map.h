/* The rvv platform's memory map and end-of-program protocol: the one source of these numbers for C and
 * assembly kernels, crt0.S, the C++ toolchain (which generates the linker script from them), the QEMU
 * runner and, later, the RTL testbench. Plain hex literals only, so the assembler, the C preprocessor and
 * C++ all read them.
 *
 * Memory:
 *   ITCM  0x0000_0000, 64 KiB: code (crt0 at 0, the entry point). Read/execute; kernels do not store here.
 *   DTCM  0x0001_0000, 64 KiB: the 2 KiB trap stack (QEMU only, see below) at the bottom, then
 *         .rodata/.data/.bss from RVV_DATA_ADDR, the stack below RVV_STACK_TOP growing down, and the
 *         512-byte signature area [RVV_SIG_ADDR, DTCM end) at the top.
 *   DRAM  0x8000_0000: the task's tensors at the offsets tasks::DramLayout gives (address = base + offset).
 *         Under QEMU only the image's pages are mapped: accesses past them trap, but the granularity is a
 *         4 KiB page, not the layout's regions (checking writes against the layout is the platform's job).
 *
 * End of program (both for QEMU user mode and the RTL):
 *   1. The kernel (`void kernel(void)`, ilp32f) returns to crt0 with sp unchanged.
 *   2. crt0 stores the end state to the signature area, sp-relative (sp == RVV_STACK_TOP == RVV_SIG_ADDR,
 *      so no register is clobbered before it is saved): word 0 the magic RVV_SIG_MAGIC (written last),
 *      words 1..31 x1..x31 as the kernel left them (x2 = sp), words 32..63 f0..f31 (raw bits), then fcsr,
 *      vl, vtype, vstart, vlenb (offsets below).
 *   3. If sp != RVV_STACK_TOP, crt0 executes exit(RVV_EXIT_BAD_SP) instead.
 *   4. THE END is the first ecall after the kernel returns (on the RTL, where the trap flag below is 0,
 *      crt0's first ecall at all): a Linux write(1, RVV_SIG_ADDR, RVV_SIG_BYTES) (a7=64). The RTL
 *      halts at any ecall: the end state is then in the signature area and DRAM. Everything after it is
 *      the QEMU transport: crt0 writes the DRAM range [RVV_DRAM_BASE, + the word at RVV_HOST_DRAM_BYTES)
 *      to stdout and calls exit(0) (a7=93). The host reads signature then DRAM from the pipe.
 *   A kernel's own ecall therefore ends the program early (QEMU: the host sees a short or missing stream).
 *
 * The loader (the QEMU runner, the testbench) writes two words of the signature area before the start
 * (crt0 never writes them): RVV_HOST_DRAM_BYTES, the DRAM byte count, and RVV_HOST_FLAGS. Flag
 * RVV_HOST_FLAG_TRAP_REPORT (QEMU only; the RTL's loader leaves the word 0) makes crt0 install, before
 * anything else, a handler for SIGILL/SIGTRAP/SIGBUS/SIGFPE/SIGSEGV on the signal stack
 * [RVV_TRAP_STACK_ADDR, + RVV_TRAP_STACK_BYTES): on a trap it writes the trap record (RVV_TRAP_MAGIC,
 * signo, si_code, si_addr: 4 words) and the registers at the trap (pc, x1..x31: 32 words) to stdout and
 * exits with RVV_EXIT_TRAP. Those are crt0's only ecalls before the end, and only under QEMU.
 */
#ifndef KCRAFT_RVV_MEMORY_MAP_H
#define KCRAFT_RVV_MEMORY_MAP_H

#define RVV_ITCM_BASE 0x00000000
#define RVV_ITCM_BYTES 0x00010000
#define RVV_DTCM_BASE 0x00010000
#define RVV_DTCM_BYTES 0x00010000
#define RVV_DRAM_BASE 0x80000000
#define RVV_DRAM_MAX_BYTES 0x10000000 /* 256 MiB: the largest DRAM image a task may have */

/* QEMU's signal stack for the trap reporter; kernel data starts after it. */
#define RVV_TRAP_STACK_ADDR 0x00010000
#define RVV_TRAP_STACK_BYTES 0x800
#define RVV_DATA_ADDR 0x00010800

/* The signature area: the top 512 bytes of DTCM; the stack ends just below it. */
#define RVV_SIG_ADDR 0x0001FE00
#define RVV_SIG_BYTES 0x200
#define RVV_STACK_TOP 0x0001FE00
#define RVV_SIG_MAGIC 0x5652434B /* "KCRV" as little-endian bytes */

/* Byte offsets in the signature area. */
#define RVV_SIG_OFF_MAGIC 0
#define RVV_SIG_OFF_X 0   /* x[i] at RVV_SIG_OFF_X + 4*i, i = 1..31 (slot 0 holds the magic) */
#define RVV_SIG_OFF_F 128 /* f[i] at RVV_SIG_OFF_F + 4*i */
#define RVV_SIG_OFF_FCSR 256
#define RVV_SIG_OFF_VL 260
#define RVV_SIG_OFF_VTYPE 264
#define RVV_SIG_OFF_VSTART 268
#define RVV_SIG_OFF_VLENB 272
#define RVV_SIG_OFF_HOST_FLAGS 504
#define RVV_HOST_FLAGS 0x0001FFF8 /* RVV_SIG_ADDR + RVV_SIG_OFF_HOST_FLAGS */
#define RVV_HOST_FLAG_TRAP_REPORT 1
#define RVV_SIG_OFF_HOST_DRAM_BYTES 508
#define RVV_HOST_DRAM_BYTES 0x0001FFFC /* RVV_SIG_ADDR + RVV_SIG_OFF_HOST_DRAM_BYTES */

/* The trap record (QEMU only). */
#define RVV_TRAP_MAGIC 0x5452434B /* "KCRT" */
#define RVV_UCONTEXT_OFF_PC 160   /* riscv32 ucontext_t: uc_mcontext (pc, x1..x31) under QEMU 7.2 */

/* Linux (riscv) system calls crt0 uses, and its exit codes. */
#define RVV_SYS_SIGALTSTACK 132
#define RVV_SYS_RT_SIGACTION 134
#define RVV_SYS_WRITE 64
#define RVV_SYS_EXIT 93
#define RVV_EXIT_OK 0
#define RVV_EXIT_BAD_SP 3       /* the kernel returned with sp != RVV_STACK_TOP */
#define RVV_EXIT_WRITE_FAILED 4 /* the host closed the pipe */
#define RVV_EXIT_TRAP 5         /* QEMU: a fatal signal, reported on stdout */

#endif /* KCRAFT_RVV_MEMORY_MAP_H */
