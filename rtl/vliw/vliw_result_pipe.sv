// Vector and accumulator registers with the exposed pipeline in front of them.
//
// A result issued as bundle n with latency L is written at the L-th pipeline step after its issue, so the
// bundle n+L is the first to read it; bundles in between read the old value (no interlocks). The pipeline
// steps on every issued bundle and every drain cycle (step_i) and freezes in stalls, so a stall never
// changes which value a bundle reads. Three writers feed it: the two load/store slots (L_VLD, L_VLDB) and
// the vec slot. An entry's stage is its age in steps; when several results land in the same step they are
// written oldest first and, within one bundle, in slot order: the last write wins, as in the model.
module vliw_result_pipe #(
  parameter int unsigned VLEN = 16,
  parameter int unsigned MAX_LAT = 5
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 step_i,      // the pipeline advances at this clock edge
  // results of the bundle issuing now (only while step_i)
  input  logic [1:0]           ls_valid_i,  // ls0, ls1 write a vector register
  input  logic [7:0]           ls_idx_i,    // ls s at [4*s +: 4]
  input  logic [5:0]           ls_lat_i,    // ls s at [3*s +: 3]
  input  logic [2*VLEN*16-1:0] ls_data_i,   // ls s at [s*VLEN*16 +: VLEN*16]
  input  logic                 vec_valid_i,
  input  logic                 vec_to_acc_i,
  input  logic [3:0]           vec_idx_i,
  input  logic [2:0]           vec_lat_i,
  input  logic [VLEN*32-1:0]   vec_data_i,  // vector results in the low half of each lane
  // register reads (combinational)
  input  logic [3:0]           va_idx_i,
  input  logic [3:0]           vb_idx_i,
  input  logic [3:0]           vs0_idx_i,   // L_VST data of ls0
  input  logic [3:0]           vs1_idx_i,   // L_VST data of ls1
  input  logic [2:0]           as_idx_i,
  input  logic [2:0]           at_idx_i,
  input  logic [2:0]           ad_idx_i,
  output logic [VLEN*16-1:0]   va_o,
  output logic [VLEN*16-1:0]   vb_o,
  output logic [VLEN*16-1:0]   vs0_o,
  output logic [VLEN*16-1:0]   vs1_o,
  output logic [VLEN*32-1:0]   as_o,
  output logic [VLEN*32-1:0]   at_o,
  output logic [VLEN*32-1:0]   ad_o,
  output logic                 busy_o,      // results in flight
  output logic                 landing_o,   // a result is written at this edge (when step_i)
  input  logic                 dbg_en_i,
  input  logic [3:0]           dbg_idx_i,
  output logic [VLEN*16-1:0]   dbg_v_o,
  output logic [VLEN*32-1:0]   dbg_a_o
);
  localparam int unsigned STAGES = MAX_LAT - 1;  // ages 1 .. MAX_LAT-1 (latency 1 writes at issue)
  localparam int unsigned W = 3;                  // writers: ls0, ls1, vec
  localparam int unsigned PW = (STAGES > 1) ? $clog2(STAGES) : 1;

  logic [VLEN*16-1:0] v_q [16];
  logic [VLEN*32-1:0] a_q [8];

  // Results in flight, in a ring of STAGES positions of W entries: the bundle issuing at a step takes
  // position head_q (entry [head_q*W + w] for writer w) and its entries stay there until they land, so a
  // result is copied once in and once out rather than moved a stage at every step. The entries of age a
  // (issued a steps ago) are at position head_q - a (mod STAGES); those of age STAGES are at head_q itself
  // and land at this step at the latest (latency <= MAX_LAT), so the issuing bundle can take it.
  logic [PW-1:0]        head_q;
  logic                 st_valid_q  [STAGES*W];
  logic                 st_acc_q    [STAGES*W];
  logic [3:0]           st_idx_q    [STAGES*W];
  logic [2:0]           st_rem_q    [STAGES*W];  // steps until it lands
  logic [VLEN*32-1:0]   st_data_q   [STAGES*W];

  // The bundle issuing now as entries of "age 0".
  logic                 in_valid [W];
  logic                 in_acc   [W];
  logic [3:0]           in_idx   [W];
  logic [2:0]           in_lat   [W];
  logic [VLEN*32-1:0]   in_data  [W];
  always_comb begin
    for (int unsigned s = 0; s < 2; s++) begin
      in_valid[s] = ls_valid_i[s];
      in_acc[s] = 1'b0;
      in_idx[s] = ls_idx_i[4*s +: 4];
      in_lat[s] = ls_lat_i[3*s +: 3];
      for (int unsigned i = 0; i < VLEN; i++) in_data[s][32*i +: 32] = {16'd0, ls_data_i[s*VLEN*16 + 16*i +: 16]};
    end
    in_valid[2] = vec_valid_i;
    in_acc[2] = vec_to_acc_i;
    in_idx[2] = vec_idx_i;
    in_lat[2] = vec_lat_i;
    in_data[2] = vec_data_i;
  end

  always_comb begin
    busy_o = 1'b0;
    landing_o = 1'b0;
    for (int unsigned e = 0; e < STAGES * W; e++) begin
      busy_o = busy_o | st_valid_q[e];
      landing_o = landing_o | (st_valid_q[e] && st_rem_q[e] == 3'd1);
    end
    for (int unsigned w = 0; w < W; w++) landing_o = landing_o | (in_valid[w] && in_lat[w] == 3'd1);
  end

  // The ring position of the entries of age a (1 .. STAGES).
  function automatic logic [PW-1:0] position_of_age(input logic [PW-1:0] head, input logic [31:0] age);
    position_of_age = PW'((32'(head) + 32'(STAGES) - age) % 32'(STAGES));
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned r = 0; r < 16; r++) v_q[r] <= '0;
      for (int unsigned r = 0; r < 8; r++) a_q[r] <= '0;
      head_q <= '0;
      for (int unsigned e = 0; e < STAGES * W; e++) begin
        st_valid_q[e] <= 1'b0;
        st_acc_q[e] <= 1'b0;
        st_idx_q[e] <= '0;
        st_rem_q[e] <= '0;
        st_data_q[e] <= '0;
      end
    end else if (step_i) begin
      // Land: oldest first, then the bundle issuing now; slot order within a bundle. Nonblocking
      // assignments to the same register: the last one wins.
      for (int unsigned age = STAGES; age >= 1; age--) begin
        for (int unsigned w = 0; w < W; w++) begin
          logic [PW+1:0] e;
          e = (PW+2)'(position_of_age(head_q, age)) * (PW+2)'(W) + (PW+2)'(w);
          if (st_valid_q[e] && st_rem_q[e] == 3'd1) begin
            if (st_acc_q[e]) a_q[st_idx_q[e][2:0]] <= st_data_q[e];
            else v_q[st_idx_q[e]] <= narrow(st_data_q[e]);
          end
        end
      end
      for (int unsigned w = 0; w < W; w++) begin
        if (in_valid[w] && in_lat[w] == 3'd1) begin
          if (in_acc[w]) a_q[in_idx[w][2:0]] <= in_data[w];
          else v_q[in_idx[w]] <= narrow(in_data[w]);
        end
      end
      // Age: an entry that landed leaves; the others are a step closer to landing.
      for (int unsigned e = 0; e < STAGES * W; e++) begin
        if (st_valid_q[e]) begin
          st_valid_q[e] <= st_rem_q[e] != 3'd1;
          st_rem_q[e] <= st_rem_q[e] - 3'd1;
        end
      end
      // The issuing bundle's longer-latency results take the position of age STAGES, which has just
      // landed (these assignments come last and win).
      for (int unsigned w = 0; w < W; w++) begin
        st_valid_q[head_q*W+w] <= in_valid[w] && in_lat[w] != 3'd1;
        st_acc_q[head_q*W+w] <= in_acc[w];
        st_idx_q[head_q*W+w] <= in_idx[w];
        st_rem_q[head_q*W+w] <= in_lat[w] - 3'd1;
        if (in_valid[w] && in_lat[w] != 3'd1) st_data_q[head_q*W+w] <= in_data[w];
      end
      head_q <= (head_q == PW'(STAGES - 1)) ? '0 : head_q + PW'(1);
    end
  end

  function automatic logic [VLEN*16-1:0] narrow(input logic [VLEN*32-1:0] lanes);
    for (int unsigned i = 0; i < VLEN; i++) narrow[16*i +: 16] = lanes[32*i +: 16];
  endfunction

  assign va_o = v_q[va_idx_i];
  assign vb_o = v_q[vb_idx_i];
  assign vs0_o = v_q[vs0_idx_i];
  assign vs1_o = v_q[vs1_idx_i];
  assign as_o = a_q[as_idx_i];
  assign at_o = a_q[at_idx_i];
  assign ad_o = a_q[ad_idx_i];
  assign dbg_v_o = dbg_en_i ? v_q[dbg_idx_i] : '0;
  assign dbg_a_o = dbg_en_i ? a_q[dbg_idx_i[2:0]] : '0;
endmodule
