#!/usr/bin/env bash
# Smoke synthesis of rtl/rvv/rvv_fpu.sv with yosys: elaborate, coarse-grain `synth` (up to but not
# including the fine-grained gate mapping), and `check -assert`, which fails on processes, latches,
# undriven or multiply-driven nets. Prints "rvv_fpu: <N> cells" on success.
#   tests/rvv_fpu/synth_rvv_fpu.sh [--full] <yosys> <log> <sources...>
# --full: the whole flow to generic gates, flattened (about 25,000 gates and 237 flip-flops with the
# default 2-bit-per-cycle divider; ~40 s).
set -euo pipefail
flow="synth -top rvv_fpu -run :fine"
if [ "${1:-}" = "--full" ]; then
  flow="synth -top rvv_fpu -flatten"
  shift
fi
yosys_bin="$1"
log="$2"
shift 2
"$yosys_bin" -q -l "$log" -p "read_verilog -sv $*; $flow; check -assert; stat" >/dev/null
cells="$(grep -E '^ +Number of cells:' "$log" | tail -1 | awk '{print $4}')"
echo "rvv_fpu: ${cells} cells"
