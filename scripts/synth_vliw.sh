#!/usr/bin/env bash
# Synthesizes the vliw tile's RTL (vliw_top) with yosys and prints its cell count.
#
#   scripts/synth_vliw.sh [CONFIG] [--coarse | --full] [--pkg FILE] [--log FILE]
#
# CONFIG is a hardware configuration (rtl/vliw/configs/<CONFIG>.yaml, its build: parameters) or `tiny`
# (VLEN = 4, 64 IMEM words, 256 bytes of DM in 2 banks, one DMA channel: the ctest smoke check). Default:
# tiny. --coarse (the default) stops at word-level cells (`synth -run :fine`); --full goes on to gates
# (techmap, abc), memories staying macros. --pkg is the generated vliw_isa_pkg.sv (default:
# build/generated/isa/ of the tree). Exits non-zero if yosys fails, `check -assert` finds a problem, or no
# cells come out. Like scripts/synth_systolic.sh, whose conventions it follows.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

config="tiny"
mode="coarse"
pkg="${root}/build/generated/isa/vliw_isa_pkg.sv"
log="${TMPDIR:-/tmp}/kcraft_synth_vliw.log"
while [ $# -gt 0 ]; do
  case "$1" in
    --coarse) mode="coarse" ;;
    --full) mode="full" ;;
    --pkg) pkg="$2"; shift ;;
    --log) log="$2"; shift ;;
    -h|--help) sed -n '2,12p' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "synth_vliw: unknown option $1" >&2; exit 2 ;;
    *) config="$1" ;;
  esac
  shift
done

if [ ! -f "${pkg}" ]; then
  echo "synth_vliw: ${pkg} does not exist; build first (cmake --build build) or pass --pkg" >&2
  exit 2
fi

params=()
if [ "${config}" = "tiny" ]; then
  for kv in VLEN=4 IMEM_WORDS=64 DM_BYTES=256 DM_BANKS=2 LOOP_DEPTH=2 DMA_CHANNELS=1 DMA_QUEUE=2 \
            DMA_OUTSTANDING=4; do
    params+=(-chparam "${kv%%=*}" "${kv#*=}")
  done
else
  yaml="${root}/rtl/vliw/configs/${config}.yaml"
  if [ ! -f "${yaml}" ]; then
    echo "synth_vliw: no hardware configuration ${yaml}" >&2
    exit 2
  fi
  while read -r key value; do
    params+=(-chparam "${key}" "${value}")
  done < <(awk '/^build:/ {in_build = 1; next}
               /^[^ #]/ {in_build = 0}
               in_build && match($0, /^  [A-Z_]+: *[0-9]+/) {
                 split(substr($0, RSTART, RLENGTH), kv, /: */); sub(/^ +/, "", kv[1]); print kv[1], kv[2]
               }' "${yaml}")
fi

sources=(
  "${pkg}"
  "${root}/rtl/vliw/vliw_pkg.sv"
  "${root}/rtl/common/kc_fp_pkg.sv"
  "${root}/rtl/common/kc_sram.sv"
  "${root}/rtl/vliw/vliw_vector_unit.sv"
  "${root}/rtl/vliw/vliw_result_pipe.sv"
  "${root}/rtl/vliw/vliw_dm.sv"
  "${root}/rtl/vliw/vliw_dma.sv"
  "${root}/rtl/vliw/vliw_core.sv"
  "${root}/rtl/vliw/vliw_top.sv"
)

script="read_verilog -defer -sv ${sources[*]}
hierarchy -check -top vliw_top ${params[*]}
synth -top vliw_top -noshare -run :fine"
if [ "${mode}" = "full" ]; then
  script+="
opt -fast -full
techmap
opt -fast
abc -fast
opt -fast"
fi
script+="
check -assert
tee -o ${log}.stat stat -top vliw_top"

start=$(date +%s)
if ! yosys -q -l "${log}" -p "${script}" > /dev/null 2>&1; then
  grep -E "ERROR|Error" "${log}" | head -20 >&2 || true
  echo "synth_vliw: yosys failed (log: ${log})" >&2
  exit 1
fi
seconds=$(( $(date +%s) - start ))

cells=$(awk '/=== design hierarchy ===/ {top = 1} top && /Number of cells:/ {n = $4} END {print n + 0}' "${log}.stat")
memories=$(awk '/=== design hierarchy ===/ {top = 1} top && $1 == "$mem_v2" {n = $2} END {print n + 0}' "${log}.stat")
if [ "${cells}" -le 0 ]; then
  echo "synth_vliw: no cells in the synthesized design (log: ${log})" >&2
  exit 1
fi
echo "vliw_top (${config}, ${mode}): ${cells} cells (${memories} of them memories), ${seconds} s (log: ${log})"
