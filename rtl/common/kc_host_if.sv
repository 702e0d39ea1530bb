// The host interface every kcraft top shares (docs/platforms.md §6; tb/common/accelerator_hw.h is its C++
// side). A top instantiates it once, connects its host ports to it, and keeps only what is its own:
//   - control port (ctl_*): clocked writes decoded with kc_host_pkg's addresses: IMEM words (the IMEM
//     write port below, which the CTL_CLEAR sweep shares), START, the DRAM size and CLEAR. CLEAR sweeps
//     clear_idx_o over 0 .. CLEAR_ROWS-1, one row per cycle with clearing_o high; the top zeroes row
//     clear_idx_o of each of its memories meanwhile (IMEM here). Spaces other than IMEM and REG are the
//     top's to decode (rvv's DTCM words);
//   - debug back door (dbg_*): combinational reads, evaluated only while dbg_en_i is high (a simulator
//     evaluates what the testbench's inputs reach at every evaluation: docs/simulation-speed.md).
//     DBG_STATUS answers the common status words (ST_FLAGS .. ST_PC) from the status inputs and the
//     others from status_i; DBG_COUNTER answers counter_i; every other selector answers dbg_rdata_i.
//     The top computes status_i, counter_i and dbg_rdata_i from dbg_sel_i/dbg_addr_i, also only while
//     dbg_en_i is high;
//   - DRAM response (mem_rsp_*): passed to the core, or registered first (RSP_REG: then no logic hangs on
//     the response inputs, and the testbench presents each response a cycle early: kDramResponseLead);
//   - status and issue trace: running_o, halted_o (the run is over), clearing_o, and the instruction that
//     issues this cycle (retire_*).
// The DRAM request port needs no logic: the top wires it from its DMA or load/store unit.
module kc_host_if #(
  parameter int unsigned IMEM_WORDS = 4096,  // instruction words
  parameter int unsigned CLEAR_ROWS = 4096,  // rows CTL_CLEAR sweeps: the deepest memory of the top
  parameter int unsigned ERR_BITS = 4,       // error code width (0: no error)
  parameter int unsigned ROW_BITS = 256,     // one DRAM beat
  parameter int unsigned DBG_BITS = 512,     // the back door's read width
  parameter bit          RSP_REG = 1'b0,     // register the DRAM response before the core sees it
  parameter int unsigned IM_AW = IMEM_WORDS > 1 ? $clog2(IMEM_WORDS) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // control port
  input  logic                ctl_we_i,
  input  logic [31:0]         ctl_addr_i,
  input  logic [31:0]         ctl_wdata_i,
  output logic                start_o,       // START written (and no clear running): the run begins
  output logic                clear_o,       // CLEAR written
  output logic [32:0]         dram_bytes_o,
  output logic [31:0]         clear_idx_o,   // the row the clear sweep zeroes (while clearing_o)
  output logic                imem_we_o,     // IMEM write port: host words and the clear sweep
  output logic [IM_AW-1:0]    imem_waddr_o,
  output logic [31:0]         imem_wdata_o,
  // debug back door
  input  logic                dbg_en_i,
  input  logic [3:0]          dbg_sel_i,
  input  logic [31:0]         dbg_addr_i,
  output logic [DBG_BITS-1:0] dbg_rdata_o,
  input  logic [ERR_BITS-1:0] err_code_i,
  input  logic [31:0]         err_pc_i,
  input  logic [63:0]         err_lo_i,
  input  logic [63:0]         err_hi_i,
  input  logic [31:0]         pc_i,          // ST_PC
  input  logic [63:0]         status_i,      // status word dbg_addr_i beyond the common ones
  input  logic [63:0]         counter_i,     // counter dbg_addr_i
  input  logic [DBG_BITS-1:0] dbg_rdata_i,   // the top's selectors
  // DRAM response
  input  logic                mem_rsp_valid_i,
  input  logic [ROW_BITS-1:0] mem_rsp_rdata_i,
  output logic                rsp_valid_o,
  output logic [ROW_BITS-1:0] rsp_rdata_o,
  // status and issue trace
  input  logic                running_i,
  input  logic                stopped_i,     // the run is over (a halt or an error, drained)
  input  logic                retire_i,
  input  logic [31:0]         retire_pc_i,
  input  logic [31:0]         retire_insn_i,
  output logic                running_o,
  output logic                halted_o,
  output logic                clearing_o,
  output logic                retire_o,
  output logic [31:0]         retire_pc_o,
  output logic [31:0]         retire_insn_o
);
  localparam int unsigned CLR_W = $clog2(CLEAR_ROWS + 1);
  localparam int unsigned IDX_BITS = 32 - kc_host_pkg::CTL_SPACE_BITS;

  // ---------------------------------------------------------------- control port
  wire [kc_host_pkg::CTL_SPACE_BITS-1:0] ctl_space = ctl_addr_i[31 -: kc_host_pkg::CTL_SPACE_BITS];
  wire [IDX_BITS-1:0] ctl_index = ctl_addr_i[IDX_BITS-1:0];
  wire ctl_imem = ctl_we_i && ctl_space == kc_host_pkg::CTL_SPACE_IMEM;
  wire ctl_reg = ctl_we_i && ctl_space == kc_host_pkg::CTL_SPACE_REG;
  wire clear_req = ctl_reg && ctl_index == kc_host_pkg::CTL_CLEAR;

  logic [32:0]      dram_bytes_q;
  logic             clearing_q;
  logic [CLR_W-1:0] clear_idx_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dram_bytes_q <= '0;
      clearing_q <= 1'b0;
      clear_idx_q <= '0;
    end else begin
      if (ctl_reg && ctl_index == kc_host_pkg::CTL_DRAM_BYTES) dram_bytes_q <= {1'b0, ctl_wdata_i};
      if (clear_req) begin
        clearing_q <= 1'b1;
        clear_idx_q <= '0;
      end else if (clearing_q) begin
        clear_idx_q <= clear_idx_q + 1'b1;
        if (32'(clear_idx_q) == CLEAR_ROWS - 1) clearing_q <= 1'b0;
      end
    end
  end

  assign start_o = ctl_reg && ctl_index == kc_host_pkg::CTL_START && !clearing_q;
  assign clear_o = clear_req;
  assign dram_bytes_o = dram_bytes_q;
  assign clearing_o = clearing_q;
  assign clear_idx_o = 32'(clear_idx_q);
  assign imem_we_o = (ctl_imem && !clearing_q) || (clearing_q && 32'(clear_idx_q) < IMEM_WORDS);
  assign imem_waddr_o = clearing_q ? IM_AW'(clear_idx_q) : IM_AW'(ctl_addr_i);
  assign imem_wdata_o = clearing_q ? 32'h0 : ctl_wdata_i;

  // ---------------------------------------------------------------- debug back door
  logic [63:0] status_word;
  always_comb begin
    status_word = '0;
    if (dbg_en_i) case (dbg_addr_i)
      kc_host_pkg::ST_FLAGS: begin
        status_word[kc_host_pkg::FLAG_RUNNING] = running_i;
        status_word[kc_host_pkg::FLAG_STOPPED] = stopped_i;
        status_word[kc_host_pkg::FLAG_ERROR] = err_code_i != '0;
        status_word[kc_host_pkg::FLAG_CLEARING] = clearing_q;
      end
      kc_host_pkg::ST_ERR_CODE: status_word = 64'(err_code_i);
      kc_host_pkg::ST_ERR_PC: status_word = 64'(err_pc_i);
      kc_host_pkg::ST_ERR_LO: status_word = err_lo_i;
      kc_host_pkg::ST_ERR_HI: status_word = err_hi_i;
      kc_host_pkg::ST_PC: status_word = 64'(pc_i);
      default: status_word = status_i;
    endcase
  end

  always_comb begin
    dbg_rdata_o = '0;
    if (dbg_en_i) case (dbg_sel_i)
      kc_host_pkg::DBG_STATUS: dbg_rdata_o = DBG_BITS'(status_word);
      kc_host_pkg::DBG_COUNTER: dbg_rdata_o = DBG_BITS'(counter_i);
      default: dbg_rdata_o = dbg_rdata_i;
    endcase
  end

  // ---------------------------------------------------------------- DRAM response
  if (RSP_REG) begin : g_rsp_reg
    // What the core does with a response starts from these flops, not from the top's inputs.
    logic                rsp_valid_q;
    logic [ROW_BITS-1:0] rsp_rdata_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) rsp_valid_q <= 1'b0;
      else rsp_valid_q <= mem_rsp_valid_i;
    end
    always_ff @(posedge clk_i) begin
      if (mem_rsp_valid_i) rsp_rdata_q <= mem_rsp_rdata_i;
    end
    assign rsp_valid_o = rsp_valid_q;
    assign rsp_rdata_o = rsp_rdata_q;
  end else begin : g_rsp_wire
    assign rsp_valid_o = mem_rsp_valid_i;
    assign rsp_rdata_o = mem_rsp_rdata_i;
  end

  // ---------------------------------------------------------------- status and issue trace
  assign running_o = running_i;
  assign halted_o = stopped_i;
  assign retire_o = retire_i;
  assign retire_pc_o = retire_pc_i;
  assign retire_insn_o = retire_insn_i;
endmodule
