#!/usr/bin/env bash
# Full gate-level synthesis of rtl/common/kc_fp_pkg.sv with yosys (every function, through
# tests/arith/fp_bench_top.sv), failing on any yosys error or `check` problem. Takes a few minutes on one
# core, so it is not part of the default ctest run (configure with -DKCRAFT_ARITH_FULL_SYNTH=ON to add it).
#   tests/arith/synth_kc_fp_pkg.sh [log-file]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
log="${1:-${TMPDIR:-/tmp}/kc_fp_pkg_synth.log}"
yosys -q -l "${log}" -p "
  read_verilog -sv ${root}/rtl/common/kc_fp_pkg.sv ${root}/tests/arith/fp_bench_top.sv
  synth -top fp_bench_top
  check -assert
  tee -o ${log}.stat stat"
grep -E "Number of cells|Chip area" "${log}.stat" || true
echo "kc_fp_pkg synthesized (log: ${log})"
