#!/usr/bin/env bash
# Smoke synthesis of rtl/rvv/rvv_fpu.sv with yosys: elaborate, coarse-grain `synth` (up to but not
# including the fine-grained gate mapping, which takes much longer), and `check -assert`, which fails on
# processes, latches, undriven or multiply-driven nets. Prints "rvv_fpu: <N> cells" on success.
#   tests/rvv_fpu/synth_rvv_fpu.sh <yosys> <log> <sources...>
set -euo pipefail
yosys_bin="$1"
log="$2"
shift 2
"$yosys_bin" -q -l "$log" -p "read_verilog -sv $*; synth -top rvv_fpu -run :fine; check -assert; stat" >/dev/null
cells="$(grep -E '^ +Number of cells:' "$log" | tail -1 | awk '{print $4}')"
echo "rvv_fpu: ${cells} cells"
