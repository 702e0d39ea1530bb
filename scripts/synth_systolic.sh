#!/usr/bin/env bash
# Synthesizes the systolic NPU's RTL (systolic_top) with yosys and prints its cell count.
#
#   scripts/synth_systolic.sh [CONFIG] [--coarse | --full] [--pkg FILE] [--log FILE]
#
# CONFIG is a hardware configuration (rtl/systolic/configs/<CONFIG>.yaml, its build: parameters) or
# `tiny` (MLEN = VLEN = 2 and a few rows per memory: the ctest smoke check). Default: small.
#   --coarse  yosys `synth -run :fine`: every module elaborated and optimized to word-level cells
#             (adders, muxes, flip-flops, memories). The default.
#   --full    gate-level: coarse, then techmap and abc to single-bit gates and flip-flops. SRAMs stay
#             memory macros ($mem_v2 cells), as a real flow would use an SRAM compiler for them.
# `share` is skipped in both (it would take minutes on the FP units and only changes the gate count).
# The hierarchy is kept: each module is synthesized once, so the cell count of the top is the sum over
# instances. --pkg is the generated systolic_isa_pkg.sv (default: build/generated/isa/ of the tree).
# Exits non-zero if yosys fails, `check -assert` finds a problem, or no cells come out.
# One core, yosys 0.23: tiny coarse 35 s (8,050 cells), small coarse 2.5 min (38,300), default coarse
# 7 min (115,251); gate-level tiny 7.5 min (435,827 cells), small 21 min and 6.6 GB (1,360,932 cells).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

config="small"
mode="coarse"
pkg="${root}/build/generated/isa/systolic_isa_pkg.sv"
log="${TMPDIR:-/tmp}/kcraft_synth_systolic.log"
while [ $# -gt 0 ]; do
  case "$1" in
    --coarse) mode="coarse" ;;
    --full) mode="full" ;;
    --pkg) pkg="$2"; shift ;;
    --log) log="$2"; shift ;;
    -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "synth_systolic: unknown option $1" >&2; exit 2 ;;
    *) config="$1" ;;
  esac
  shift
done

if [ ! -f "${pkg}" ]; then
  echo "synth_systolic: ${pkg} does not exist; build first (cmake --build build) or pass --pkg" >&2
  exit 2
fi

# Parameters as yosys -chparam arguments.
params=()
if [ "${config}" = "tiny" ]; then
  for kv in MLEN=2 VLEN=2 BLEN=1 IMEM_WORDS=64 VSRAM_ROWS=16 MSRAM_ROWS=16 ACC_ROWS=16 FPSRAM_WORDS=16 \
            LOOP_DEPTH=2 DMA_SLOTS=2 DMA_OUTSTANDING=4; do
    params+=(-chparam "${kv%%=*}" "${kv#*=}")
  done
else
  yaml="${root}/rtl/systolic/configs/${config}.yaml"
  if [ ! -f "${yaml}" ]; then
    echo "synth_systolic: no hardware configuration ${yaml}" >&2
    exit 2
  fi
  # The `build:` mapping: "  KEY: value" lines until the next top-level key.
  while read -r key value; do
    params+=(-chparam "${key}" "${value}")
  done < <(awk '/^build:/ {in_build = 1; next}
               /^[^ #]/ {in_build = 0}
               in_build && match($0, /^  [A-Z_]+: *[0-9]+/) {
                 split(substr($0, RSTART, RLENGTH), kv, /: */); sub(/^ +/, "", kv[1]); print kv[1], kv[2]
               }' "${yaml}")
  if [ "${#params[@]}" -eq 0 ]; then
    echo "synth_systolic: ${yaml} has no build: parameters" >&2
    exit 2
  fi
fi

sources=(
  "${pkg}"
  "${root}/rtl/systolic/systolic_pkg.sv"
  "${root}/rtl/common/kc_fp_pkg.sv"
  "${root}/rtl/common/kc_sram.sv"
  "${root}/rtl/common/kc_dma_engine.sv"
  "${root}/rtl/systolic/systolic_array.sv"
  "${root}/rtl/systolic/systolic_matrix_unit.sv"
  "${root}/rtl/systolic/systolic_vector_unit.sv"
  "${root}/rtl/systolic/systolic_sequencer.sv"
  "${root}/rtl/systolic/systolic_top.sv"
)

script="read_verilog -defer -sv ${sources[*]}
hierarchy -check -top systolic_top ${params[*]}
synth -top systolic_top -noshare -run :fine"
if [ "${mode}" = "full" ]; then
  # synth's fine stage without memory_map: memories stay macros, the rest becomes gates.
  script+="
opt -fast -full
techmap
opt -fast
abc -fast
opt -fast"
fi
script+="
check -assert
tee -o ${log}.stat stat -top systolic_top"

start=$(date +%s)
if ! yosys -q -l "${log}" -p "${script}" > /dev/null 2>&1; then
  grep -E "ERROR|Error" "${log}" | head -20 >&2 || true
  echo "synth_systolic: yosys failed (log: ${log})" >&2
  exit 1
fi
seconds=$(( $(date +%s) - start ))

# `stat -top` ends with the whole design's numbers (every instance counted).
cells=$(awk '/=== design hierarchy ===/ {top = 1} top && /Number of cells:/ {n = $4} END {print n + 0}' "${log}.stat")
memories=$(awk '/=== design hierarchy ===/ {top = 1} top && $1 == "$mem_v2" {n = $2} END {print n + 0}' "${log}.stat")
if [ "${cells}" -le 0 ]; then
  echo "synth_systolic: no cells in the synthesized design (log: ${log})" >&2
  exit 1
fi
echo "systolic_top (${config}, ${mode}): ${cells} cells (${memories} of them memories), ${seconds} s (log: ${log})"
