#!/usr/bin/env bash
# Synthesizes a platform's RTL (<platform>_top) with yosys and prints its cell count.
#
#   scripts/synth.sh PLATFORM [CONFIG] [--coarse | --full] [--sources LIST] [--log FILE]
#
# CONFIG is a hardware configuration (rtl/<platform>/configs/<CONFIG>.yaml) or a synthesis-only one
# (rtl/<platform>/synth/<CONFIG>.yaml, e.g. `tiny`, the ctest smoke check); their `build:` parameters
# become yosys -chparam overrides; a path to a YAML file (containing a /) is read as one. Default: tiny.
#   --coarse  yosys `synth -run :fine`: every module elaborated and optimized to word-level cells
#             (adders, muxes, flip-flops, memories). The default.
#   --full    gate-level: coarse, then techmap and abc to single-bit gates and flip-flops. SRAMs stay
#             memory macros ($mem_v2 cells), as a real flow would use an SRAM compiler for them.
# `share` is skipped in both (it would take minutes on the FP units and only changes the gate count).
# The hierarchy is kept: each module is synthesized once, so the cell count of the top is the sum over
# instances. --sources is the RTL file list, packages first, ';'-separated (ctest passes CMake's
# KCRAFT_<PLATFORM>_RTL_SOURCES); by default it is read from build/CMakeCache.txt of the tree, so build
# first. Exits non-zero if yosys fails, `check -assert` finds a problem, or no cells come out.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() { sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
platform=""
config="tiny"
mode="coarse"
sources=""
log=""
while [ $# -gt 0 ]; do
  case "$1" in
    --coarse) mode="coarse" ;;
    --full) mode="full" ;;
    --sources) sources="$2"; shift ;;
    --log) log="$2"; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "synth: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) if [ -z "${platform}" ]; then platform="$1"; else config="$1"; fi ;;
  esac
  shift
done
if [ -z "${platform}" ]; then usage >&2; exit 2; fi
if [ ! -d "${root}/rtl/${platform}" ]; then
  echo "synth: no platform '${platform}' (rtl/${platform}/ does not exist)" >&2
  exit 2
fi
log="${log:-${TMPDIR:-/tmp}/kcraft_synth_${platform}.log}"
top="${platform}_top"

if [ -z "${sources}" ]; then
  cache="${root}/build/CMakeCache.txt"
  var="KCRAFT_$(echo "${platform}" | tr '[:lower:]' '[:upper:]')_RTL_SOURCES"
  sources=$(sed -n "s/^${var}:INTERNAL=//p" "${cache}" 2>/dev/null || true)
  if [ -z "${sources}" ]; then
    echo "synth: ${var} is not in ${cache}; build first (scripts/setup.sh) or pass --sources" >&2
    exit 2
  fi
fi
IFS=';' read -r -a files <<< "${sources}"
for f in "${files[@]}"; do
  if [ ! -f "${f}" ]; then
    echo "synth: ${f} does not exist (generated files appear when the tree is built)" >&2
    exit 2
  fi
done

if [[ "${config}" == */* && -f "${config}" ]]; then
  yaml="${config}"  # a configuration file given by path (kcraft explore's variants)
  config="$(basename "${config}" .yaml)"
else
  yaml="${root}/rtl/${platform}/configs/${config}.yaml"
  [ -f "${yaml}" ] || yaml="${root}/rtl/${platform}/synth/${config}.yaml"
fi
if [ ! -f "${yaml}" ]; then
  echo "synth: no configuration '${config}' in rtl/${platform}/configs/ or rtl/${platform}/synth/" >&2
  exit 2
fi
# The `build:` mapping: "  KEY: value" lines until the next top-level key, as yosys -chparam arguments.
params=()
while read -r key value; do
  params+=(-chparam "${key}" "${value}")
done < <(awk '/^build:/ {in_build = 1; next}
             /^[^ #]/ {in_build = 0}
             in_build && match($0, /^  [A-Z_]+: *[0-9]+/) {
               split(substr($0, RSTART, RLENGTH), kv, /: */); sub(/^ +/, "", kv[1]); print kv[1], kv[2]
             }' "${yaml}")
if [ "${#params[@]}" -eq 0 ]; then
  echo "synth: ${yaml} has no build: parameters" >&2
  exit 2
fi

script="read_verilog -defer -sv ${files[*]}
hierarchy -check -top ${top} ${params[*]}
synth -top ${top} -noshare -run :fine"
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
tee -o ${log}.stat stat -top ${top}"

start=$(date +%s)
if ! yosys -q -l "${log}" -p "${script}" > /dev/null 2>&1; then
  grep -E "ERROR|Error" "${log}" | head -20 >&2 || true
  echo "synth: yosys failed (log: ${log})" >&2
  exit 1
fi
seconds=$(( $(date +%s) - start ))

# `stat -top` ends with the whole design's numbers (every instance counted).
cells=$(awk '/=== design hierarchy ===/ {top = 1} top && /Number of cells:/ {n = $4} END {print n + 0}' "${log}.stat")
memories=$(awk '/=== design hierarchy ===/ {top = 1} top && $1 == "$mem_v2" {n = $2} END {print n + 0}' "${log}.stat")
if [ "${cells}" -le 0 ]; then
  echo "synth: no cells in the synthesized design (log: ${log})" >&2
  exit 1
fi
echo "${top} (${config}, ${mode}): ${cells} cells (${memories} of them memories), ${seconds} s (log: ${log})"
