// Top level of the rvv platform: the core (rvv_core: scalar pipeline, FPU, vector unit, data cache and
// write buffer), the ITCM and the DTCM.
//
// The host contract is every kcraft top's (tb/common/accelerator_hw.h), with rvv_pkg's addresses:
//   - ctl_*: synchronous writes: ITCM words (space 0), START / DRAM size / CLEAR (space 1), initial DTCM
//     words (space 2). CLEAR zeroes the ITCM, the DTCM and the registers (clearing_o meanwhile);
//   - dbg_*: a combinational back-door read of status words, counters, x/f/v registers, CSRs, DTCM and
//     ITCM words;
//   - mem_*: DRAM requests, one ROW_BITS row per beat at the row's byte offset from the DRAM base
//     (0x8000_0000), with byte enables (mem_req_be_o: the bytes the access touches), and in-order
//     responses (writes answer too). The response port is registered: a response presented in cycle d
//     reaches the core in cycle d + 1, so the testbench's DRAM model presents each one a cycle before it
//     is due (RvvHw::kDramResponseLead) and the core sees it when it is due;
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
  localparam int unsigned CLR_W = $clog2(MAX_CLEAR + 1);

  // ---------------------------------------------------------------- host control
  wire ctl_itcm = ctl_we_i && ctl_addr_i[31:28] == rvv_pkg::CTL_SPACE_ITCM;
  wire ctl_reg = ctl_we_i && ctl_addr_i[31:28] == rvv_pkg::CTL_SPACE_REG;
  wire ctl_dtcm = ctl_we_i && ctl_addr_i[31:28] == rvv_pkg::CTL_SPACE_DTCM;
  wire start = ctl_reg && ctl_addr_i[27:0] == rvv_pkg::CTL_START;
  wire clear_req = ctl_reg && ctl_addr_i[27:0] == rvv_pkg::CTL_CLEAR;

  logic [32:0]      dram_bytes_q;
  logic             clearing_q;
  logic [CLR_W-1:0] clear_idx_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dram_bytes_q <= '0;
      clearing_q <= 1'b0;
      clear_idx_q <= '0;
    end else begin
      if (ctl_reg && ctl_addr_i[27:0] == rvv_pkg::CTL_DRAM_BYTES) dram_bytes_q <= {1'b0, ctl_wdata_i};
      if (clear_req) begin
        clearing_q <= 1'b1;
        clear_idx_q <= '0;
      end else if (clearing_q) begin
        clear_idx_q <= clear_idx_q + 1'b1;
        if (32'(clear_idx_q) == MAX_CLEAR - 1) clearing_q <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- ITCM
  logic           itcm_re;
  logic [IAW-1:0] itcm_raddr;
  logic [31:0]    itcm_rdata, itcm_dbg;
  wire            itcm_we = (ctl_itcm && !clearing_q) || (clearing_q && 32'(clear_idx_q) < ITCM_WORDS);
  wire [IAW-1:0]  itcm_waddr = clearing_q ? IAW'(clear_idx_q) : IAW'(ctl_addr_i);
  wire [31:0]     itcm_wdata = clearing_q ? 32'h0 : ctl_wdata_i;
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
  wire                 clear_dtcm = clearing_q && 32'(clear_idx_q) < DTCM_ROWS;
  wire                 host_dtcm = ctl_dtcm && !clearing_q;
  wire                 d_we = clear_dtcm || host_dtcm || c_we;
  wire [RAW-1:0]       d_waddr = clear_dtcm ? RAW'(clear_idx_q) : host_dtcm ? RAW'(ctl_addr_i / WPR) : c_waddr;
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

  // ---------------------------------------------------------------- DRAM response register
  // No logic reads the response port combinationally: what the core does with a response starts from
  // these flops. (A simulator evaluates whatever a top-level input reaches at every evaluation, before the
  // clock edge and again after it; here that was the core's stall and much of the pipeline behind it.)
  logic                rsp_valid_q;
  logic [ROW_BITS-1:0] rsp_rdata_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rsp_valid_q <= 1'b0;
    else rsp_valid_q <= mem_rsp_valid_i;
  end
  always_ff @(posedge clk_i) begin
    if (mem_rsp_valid_i) rsp_rdata_q <= mem_rsp_rdata_i;
  end

  // ---------------------------------------------------------------- core
  logic              running, stopped, retire;
  logic [3:0]        err_code;
  logic [31:0]       err_pc, err_insn, err_addr, pc, retire_pc, retire_insn, dbg_xreg, dbg_freg, dbg_csr;
  logic [2:0]        stall;
  logic [VLEN-1:0]   dbg_vreg;
  logic [63:0]       dbg_counter;
  rvv_core #(
    .VLEN(VLEN), .LANES(LANES), .ITCM_BYTES(ITCM_BYTES), .DTCM_BYTES(DTCM_BYTES), .DCACHE_BYTES(DCACHE_BYTES),
    .WRITE_BUFFER(WRITE_BUFFER), .DRAM_OUTSTANDING(DRAM_OUTSTANDING), .DIV_BITS_PER_CYCLE(DIV_BITS_PER_CYCLE),
    .FDIV_BITS_PER_CYCLE(FDIV_BITS_PER_CYCLE), .VECTOR_QUEUE(VECTOR_QUEUE), .ROW_BITS(ROW_BITS)
  ) u_core (
    .clk_i,
    .rst_ni,
    .start_i        (start && !clearing_q),
    .clear_i        (clear_req),
    .dram_bytes_i   (dram_bytes_q),
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
    .mem_rsp_valid_i(rsp_valid_q),
    .mem_rsp_rdata_i(rsp_rdata_q),
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

  // ---------------------------------------------------------------- back-door reads
  logic [63:0] status_word;
  always_comb begin
    status_word = '0;
    if (dbg_en_i) case (dbg_addr_i)
      rvv_pkg::ST_FLAGS:
        status_word = {60'h0, clearing_q, err_code != rvv_pkg::ERR_NONE, stopped, running};
      rvv_pkg::ST_ERR_CODE: status_word = 64'(err_code);
      rvv_pkg::ST_ERR_PC: status_word = 64'(err_pc);
      rvv_pkg::ST_ERR_LO: status_word = 64'(err_insn);
      rvv_pkg::ST_ERR_HI: status_word = 64'(err_addr);
      rvv_pkg::ST_PC: status_word = 64'(pc);
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
    dbg_rdata_o = '0;
    if (dbg_en_i) begin
      case (dbg_sel_i)
        rvv_pkg::DBG_STATUS: dbg_rdata_o = DBG_BITS'(status_word);
        rvv_pkg::DBG_COUNTER: dbg_rdata_o = DBG_BITS'(dbg_counter);
        rvv_pkg::DBG_XREG: dbg_rdata_o = DBG_BITS'(dbg_xreg);
        rvv_pkg::DBG_FREG: dbg_rdata_o = DBG_BITS'(dbg_freg);
        rvv_pkg::DBG_VREG: dbg_rdata_o = DBG_BITS'(dbg_vreg);
        rvv_pkg::DBG_CSR: dbg_rdata_o = DBG_BITS'(dbg_csr);
        rvv_pkg::DBG_DTCM: dbg_rdata_o = DBG_BITS'(dtcm_dbg);
        rvv_pkg::DBG_ITCM: dbg_rdata_o = DBG_BITS'(itcm_dbg);
        default: dbg_rdata_o = '0;
      endcase
    end
  end

  assign running_o = running;
  assign halted_o = stopped;
  assign clearing_o = clearing_q;
  assign retire_o = retire;
  assign retire_pc_o = retire_pc;
  assign retire_insn_o = retire_insn;
  assign stall_o = stall;
endmodule
