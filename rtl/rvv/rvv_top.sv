// Top level of the rvv platform: the core (rvv_core: scalar pipeline, FPU, vector unit, data cache and
// write buffer), the ITCM and the DTCM.
//
// The host contract is every kcraft top's (rtl/common/kc_host_if.sv, tb/common/accelerator_hw.h), with
// the addresses of kc_host_pkg and the generated rvv_pkg (rtl/rvv/rvv_host_regs.yaml):
//   - ctl_*: synchronous writes: ITCM words (space 0), START / DRAM size / CLEAR (space 1), initial DTCM
//     words (space 2). CLEAR zeroes the ITCM, the DTCM and the registers (clearing_o meanwhile);
//   - dbg_*: a combinational back-door read of status words, counters, x/f/v registers, CSRs, DTCM and
//     ITCM words;
//   - mem_*: DRAM requests, one ROW_BITS row per beat at the row's byte offset from the DRAM base
//     (0x8000_0000), with byte enables (mem_req_be_o: the bytes the access touches), and in-order
//     responses (writes answer too). The response port is registered (kc_host_if's RSP_REG): a response
//     presented in cycle d reaches the core in cycle d + 1, so the testbench's DRAM model presents each
//     one a cycle before it is due (RvvHw::kDramResponseLead) and the core sees it when it is due;
//   - retire_*: the instruction that retires this cycle (byte pc, word); stall_o the cycle's stall cause;
//     retire_fflags_o the FP exception flags that instruction raises, vector_fflags_o those of a vector FP
//     instruction finishing this cycle (coverage reads them: fcsr.fflags only shows flags not yet set).
// Memory map (isa/rvv/rvv_memory_map.h): ITCM at 0, DTCM at 0x0001_0000, DRAM at 0x8000_0000.
module rvv_top #(
  parameter int unsigned VLEN = 128,
  parameter int unsigned LANES = VLEN / 32,
  parameter int unsigned ITCM_BYTES = 65536,
  parameter int unsigned DTCM_BYTES = 65536,
  parameter int unsigned DCACHE_BYTES = 2048,
  parameter int unsigned WRITE_BUFFER = 4,
  parameter int unsigned DRAM_OUTSTANDING = 32,
  parameter int unsigned DIV_BITS_PER_CYCLE = 2,
  parameter int unsigned FDIV_BITS_PER_CYCLE = 2,
  parameter int unsigned VECTOR_QUEUE = 4,  // vector instructions issued and not started (a power of two >= 2)
  parameter int unsigned ROW_BITS = VLEN,
  parameter int unsigned DBG_BITS = VLEN > 64 ? VLEN : 64
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // host control writes
  input  logic                  ctl_we_i,
  input  logic [31:0]           ctl_addr_i,
  input  logic [31:0]           ctl_wdata_i,
  // back-door reads
  input  logic                  dbg_en_i,
  input  logic [3:0]            dbg_sel_i,
  input  logic [31:0]           dbg_addr_i,
  output logic [DBG_BITS-1:0]   dbg_rdata_o,
  // DRAM port: a request is accepted in the cycle it is offered (the testbench's DRAM model queues it and
  // times the response), so there is no ready input, which a simulator would evaluate at every evaluation
  output logic                  mem_req_valid_o,
  output logic                  mem_req_write_o,
  output logic [31:0]           mem_req_addr_o,
  output logic [ROW_BITS-1:0]   mem_req_wdata_o,
  output logic [ROW_BITS/8-1:0] mem_req_be_o,
  output logic [31:0]           mem_req_tag_o,
  input  logic                  mem_rsp_valid_i,
  input  logic [ROW_BITS-1:0]   mem_rsp_rdata_i,
  // status and trace
  output logic                  running_o,
  output logic                  halted_o,     // the run is over (ecall or an error, drained)
  output logic                  clearing_o,
  output logic                  retire_o,
  output logic [31:0]           retire_pc_o,
  output logic [31:0]           retire_insn_o,
  output logic [2:0]            stall_o,
  output logic [4:0]            retire_fflags_o,
  output logic [4:0]            vector_fflags_o
);
  localparam int unsigned ROW_BYTES = ROW_BITS / 8;
  localparam int unsigned ITCM_WORDS = ITCM_BYTES / 4;
  localparam int unsigned DTCM_ROWS = DTCM_BYTES / ROW_BYTES;
  localparam int unsigned WPR = ROW_BITS / 32;
  localparam int unsigned IAW = $clog2(ITCM_WORDS);
  localparam int unsigned RAW = $clog2(DTCM_ROWS);
  localparam int unsigned WW = WPR > 1 ? $clog2(WPR) : 1;
  localparam int unsigned MAX_CLEAR = ITCM_WORDS > DTCM_ROWS ? ITCM_WORDS : DTCM_ROWS;

  // ---------------------------------------------------------------- host interface
  logic                start, clear_req, clearing;
  logic [32:0]         dram_bytes;
  logic [31:0]         clear_idx;
  logic                itcm_we;
  logic [IAW-1:0]      itcm_waddr;
  logic [31:0]         itcm_wdata;
  logic [63:0]         status_word, dbg_counter;
  logic [DBG_BITS-1:0] dbg_rdata;
  logic                rsp_valid;
  logic [ROW_BITS-1:0] rsp_rdata;
  logic                running, stopped, retire;
  logic [3:0]          err_code;
  logic [31:0]         err_pc, err_insn, err_addr, pc, retire_pc, retire_insn;
  wire [63:0]          err_lo = 64'(err_insn);
  wire [63:0]          err_hi = 64'(err_addr);
  kc_host_if #(
    .IMEM_WORDS(ITCM_WORDS), .CLEAR_ROWS(MAX_CLEAR), .ERR_BITS(4), .ROW_BITS(ROW_BITS), .DBG_BITS(DBG_BITS),
    .RSP_REG(1'b1)
  ) u_host (
    .clk_i,
    .rst_ni,
    .ctl_we_i,
    .ctl_addr_i,
    .ctl_wdata_i,
    .start_o        (start),
    .clear_o        (clear_req),
    .dram_bytes_o   (dram_bytes),
    .clear_idx_o    (clear_idx),
    .imem_we_o      (itcm_we),
    .imem_waddr_o   (itcm_waddr),
    .imem_wdata_o   (itcm_wdata),
    .dbg_en_i,
    .dbg_sel_i,
    .dbg_addr_i,
    .dbg_rdata_o,
    .err_code_i     (err_code),
    .err_pc_i       (err_pc),
    .err_lo_i       (err_lo),
    .err_hi_i       (err_hi),
    .pc_i           (pc),
    .status_i       (status_word),
    .counter_i      (dbg_counter),
    .dbg_rdata_i    (dbg_rdata),
    // No logic reads the response port combinationally (RSP_REG): a simulator evaluates whatever a
    // top-level input reaches at every evaluation, before the clock edge and again after it; here that was
    // the core's stall and much of the pipeline behind it.
    .mem_rsp_valid_i,
    .mem_rsp_rdata_i,
    .rsp_valid_o    (rsp_valid),
    .rsp_rdata_o    (rsp_rdata),
    .running_i      (running),
    .stopped_i      (stopped),
    .retire_i       (retire),
    .retire_pc_i    (retire_pc),
    .retire_insn_i  (retire_insn),
    .running_o,
    .halted_o,
    .clearing_o     (clearing),
    .retire_o,
    .retire_pc_o,
    .retire_insn_o
  );
  assign clearing_o = clearing;
  wire ctl_dtcm = ctl_we_i && ctl_addr_i[31 -: kc_host_pkg::CTL_SPACE_BITS] == rvv_pkg::CTL_SPACE_DTCM;

  // ---------------------------------------------------------------- ITCM
  logic           itcm_re;
  logic [IAW-1:0] itcm_raddr;
  logic [31:0]    itcm_rdata, itcm_dbg;
  kc_sram #(.WIDTH(32), .DEPTH(ITCM_WORDS), .NR(1), .NW(1)) u_itcm (
    .clk_i,
    .re_i       (itcm_re),
    .raddr_i    (itcm_raddr),
    .rdata_o    (itcm_rdata),
    .we_i       (itcm_we),
    .waddr_i    (itcm_waddr),
    .wdata_i    (itcm_wdata),
    .dbg_en_i,
    .dbg_addr_i (IAW'(dbg_addr_i)),
    .dbg_rdata_o(itcm_dbg)
  );

  // ---------------------------------------------------------------- DTCM
  logic                 re0, re1, c_we;
  logic [RAW-1:0]       raddr0, raddr1, c_waddr;
  logic [ROW_BITS-1:0]  rdata0, rdata1, c_wdata;
  logic [ROW_BYTES-1:0] c_be;
  logic [31:0]          dtcm_dbg;
  // Host words and the clear take the write port when the core is not running.
  wire [WW-1:0] host_word = WPR > 1 ? WW'(ctl_addr_i[WW-1:0]) : '0;
  logic [ROW_BYTES-1:0] host_be;
  always_comb begin
    host_be = '0;
    host_be[4*host_word +: 4] = 4'hF;
  end
  wire                 clear_dtcm = clearing && clear_idx < DTCM_ROWS;
  wire                 host_dtcm = ctl_dtcm && !clearing;
  wire                 d_we = clear_dtcm || host_dtcm || c_we;
  wire [RAW-1:0]       d_waddr = clear_dtcm ? RAW'(clear_idx) : host_dtcm ? RAW'(ctl_addr_i / WPR) : c_waddr;
  wire [ROW_BITS-1:0]  d_wdata = clear_dtcm ? '0 : host_dtcm ? {WPR{ctl_wdata_i}} : c_wdata;
  wire [ROW_BYTES-1:0] d_be = clear_dtcm ? '1 : host_dtcm ? host_be : c_be;
  rvv_dtcm #(.ROW_BITS(ROW_BITS), .ROWS(DTCM_ROWS)) u_dtcm (
    .clk_i,
    .re0_i      (re0),
    .raddr0_i   (raddr0),
    .rdata0_o   (rdata0),
    .re1_i      (re1),
    .raddr1_i   (raddr1),
    .rdata1_o   (rdata1),
    .we_i       (d_we),
    .waddr_i    (d_waddr),
    .wdata_i    (d_wdata),
    .be_i       (d_be),
    .dbg_en_i,
    .dbg_word_i (dbg_addr_i),
    .dbg_rdata_o(dtcm_dbg)
  );

  // ---------------------------------------------------------------- core
  logic [31:0]       dbg_xreg, dbg_freg, dbg_csr;
  logic [2:0]        stall;
  logic [VLEN-1:0]   dbg_vreg;
  rvv_core #(
    .VLEN(VLEN), .LANES(LANES), .ITCM_BYTES(ITCM_BYTES), .DTCM_BYTES(DTCM_BYTES), .DCACHE_BYTES(DCACHE_BYTES),
    .WRITE_BUFFER(WRITE_BUFFER), .DRAM_OUTSTANDING(DRAM_OUTSTANDING), .DIV_BITS_PER_CYCLE(DIV_BITS_PER_CYCLE),
    .FDIV_BITS_PER_CYCLE(FDIV_BITS_PER_CYCLE), .VECTOR_QUEUE(VECTOR_QUEUE), .ROW_BITS(ROW_BITS)
  ) u_core (
    .clk_i,
    .rst_ni,
    .start_i        (start),
    .clear_i        (clear_req),
    .dram_bytes_i   (dram_bytes),
    .itcm_re_o      (itcm_re),
    .itcm_raddr_o   (itcm_raddr),
    .itcm_rdata_i   (itcm_rdata),
    .dtcm_re0_o     (re0),
    .dtcm_raddr0_o  (raddr0),
    .dtcm_rdata0_i  (rdata0),
    .dtcm_re1_o     (re1),
    .dtcm_raddr1_o  (raddr1),
    .dtcm_rdata1_i  (rdata1),
    .dtcm_we_o      (c_we),
    .dtcm_waddr_o   (c_waddr),
    .dtcm_wdata_o   (c_wdata),
    .dtcm_be_o      (c_be),
    .mem_req_valid_o,
    .mem_req_ready_i(1'b1),  // DRAM accepts every request (see the port list)
    .mem_req_write_o,
    .mem_req_addr_o,
    .mem_req_wdata_o,
    .mem_req_be_o,
    .mem_req_tag_o,
    .mem_rsp_valid_i(rsp_valid),
    .mem_rsp_rdata_i(rsp_rdata),
    .running_o      (running),
    .stopped_o      (stopped),
    .err_code_o     (err_code),
    .err_pc_o       (err_pc),
    .err_insn_o     (err_insn),
    .err_addr_o     (err_addr),
    .pc_o           (pc),
    .stall_o        (stall),
    .retire_o       (retire),
    .retire_pc_o    (retire_pc),
    .retire_insn_o  (retire_insn),
    .retire_fflags_o,
    .vector_fflags_o,
    .dbg_en_i,
    .dbg_addr_i,
    .dbg_xreg_o     (dbg_xreg),
    .dbg_freg_o     (dbg_freg),
    .dbg_vreg_o     (dbg_vreg),
    .dbg_csr_o      (dbg_csr),
    .dbg_counter_o  (dbg_counter)
  );

  // ---------------------------------------------------------------- back door: the core's own words
  always_comb begin
    status_word = '0;
    if (dbg_en_i) case (dbg_addr_i)
      rvv_pkg::ST_STALL: status_word = 64'(stall);
      rvv_pkg::ST_PARAM_VLEN: status_word = 64'(VLEN);
      rvv_pkg::ST_PARAM_ITCM: status_word = 64'(ITCM_BYTES);
      rvv_pkg::ST_PARAM_DTCM: status_word = 64'(DTCM_BYTES);
      rvv_pkg::ST_PARAM_LANES: status_word = 64'(LANES);
      rvv_pkg::ST_PARAM_DCACHE: status_word = 64'(DCACHE_BYTES);
      default: status_word = '0;
    endcase
  end

  always_comb begin
    dbg_rdata = '0;
    if (dbg_en_i) case (dbg_sel_i)
      rvv_pkg::DBG_XREG: dbg_rdata = DBG_BITS'(dbg_xreg);
      rvv_pkg::DBG_FREG: dbg_rdata = DBG_BITS'(dbg_freg);
      rvv_pkg::DBG_VREG: dbg_rdata = DBG_BITS'(dbg_vreg);
      rvv_pkg::DBG_CSR: dbg_rdata = DBG_BITS'(dbg_csr);
      rvv_pkg::DBG_DTCM: dbg_rdata = DBG_BITS'(dtcm_dbg);
      rvv_pkg::DBG_ITCM: dbg_rdata = DBG_BITS'(itcm_dbg);
      default: dbg_rdata = '0;
    endcase
  end

  assign stall_o = stall;
endmodule
