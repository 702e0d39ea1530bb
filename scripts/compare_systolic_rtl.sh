#!/usr/bin/env bash
# Checks that the systolic RTL of the working tree behaves exactly like the RTL of another git revision:
# both run the same random programs side by side in tests/systolic/netlist_tb.sv (the other revision's
# modules renamed old_*, its top standing where the yosys netlist usually stands), and every output is
# compared in every cycle, plus back-door reads of all state and the final DRAM images. For refactors
# that must not change behaviour (e.g. restructuring RTL for simulation speed).
# With --synthesis-form instead of a revision, the other side is the working tree's own RTL as synthesis
# reads it (the macro SYNTHESIS defined: the array's PEs and the vector unit's lanes one block each), so
# the two forms those modules are written in are checked against each other (ctest
# systolic.synthesis_form_matches_simulation_form).
#
#   scripts/compare_systolic_rtl.sh <systolic_netlist_programs> <git-rev>|--synthesis-form [CONFIG]
#                                   [--programs N] [--pkg FILE] [--work DIR]
#
# CONFIG is a hardware configuration (rtl/systolic/configs/<CONFIG>.yaml) or `tiny` (MLEN = VLEN = 2, as
# scripts/check_systolic_netlist.sh). Default: small. The first argument is the program generator
# (build/tests/systolic/systolic_netlist_programs); both revisions use the generated ISA package --pkg,
# so they must share the ISA. Exits 0 when the two agree. default: about 2 minutes, most of it compiling.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage="usage: $0 <systolic_netlist_programs> <git-rev>|--synthesis-form [CONFIG] [--programs N] [--pkg FILE] [--work DIR]"
generator="${1:?${usage}}"
rev="${2:?${usage}}"
shift 2
config="small"
programs=40
pkg="${root}/build/generated/isa/systolic_isa_pkg.sv"
work="${TMPDIR:-/tmp}/kcraft_compare_systolic_rtl"
while [ $# -gt 0 ]; do
  case "$1" in
    --programs) programs="$2"; shift ;;
    --pkg) pkg="$2"; shift ;;
    --work) work="$2"; shift ;;
    -*) echo "compare_systolic_rtl: unknown option $1" >&2; exit 2 ;;
    *) config="$1" ;;
  esac
  shift
done

params=()
if [ "${config}" = "tiny" ]; then
  params=(MLEN=2 VLEN=2 BLEN=1 IMEM_WORDS=256 VSRAM_ROWS=64 MSRAM_ROWS=64 ACC_ROWS=64 FPSRAM_WORDS=16
          LOOP_DEPTH=2 DMA_SLOTS=2 DMA_OUTSTANDING=4)
else
  yaml="${root}/rtl/systolic/configs/${config}.yaml"
  if [ ! -f "${yaml}" ]; then
    echo "compare_systolic_rtl: no hardware configuration ${yaml}" >&2
    exit 2
  fi
  # The `build:` mapping: "  KEY: value" lines until the next top-level key.
  while read -r key value; do
    params+=("${key}=${value}")
  done < <(awk '/^build:/ {in_build = 1; next}
               /^[^ #]/ {in_build = 0}
               in_build && match($0, /^  [A-Z_]+: *[0-9]+/) {
                 split(substr($0, RSTART, RLENGTH), kv, /: */); sub(/^ +/, "", kv[1]); print kv[1], kv[2]
               }' "${yaml}")
fi

rm -rf "${work}"
mkdir -p "${work}/old"

# The other revision's RTL: every module and package it defines gets an old_ prefix (the generated ISA
# package is shared), its top becomes systolic_top_netlist with the configuration's parameters as defaults.
old_files=()
if [ "${rev}" = "--synthesis-form" ]; then
  while read -r path; do old_files+=("${path#"${root}/"}"); done < <(ls "${root}"/rtl/common/*.sv "${root}"/rtl/systolic/*.sv)
else
  while read -r path; do
    case "${path}" in *.sv) old_files+=("${path}") ;; esac
  done < <(git -C "${root}" ls-tree -r --name-only "${rev}" -- rtl/common rtl/systolic)
fi
names=()
for path in "${old_files[@]}"; do
  file="${work}/old/$(basename "${path}")"
  if [ "${rev}" = "--synthesis-form" ]; then
    # Defined for these files only: they come after the simulation form's on Verilator's command line.
    { echo '`define SYNTHESIS'; cat "${root}/${path}"; echo '`undef SYNTHESIS'; } > "${file}"
  else
    git -C "${root}" show "${rev}:${path}" > "${file}"
  fi
  while read -r name; do names+=("${name}"); done < <(sed -nE 's/^(module|package) ([a-z_0-9]+).*/\2/p' "${file}")
done
rename=""
for name in "${names[@]}"; do
  if [ "${name}" = "systolic_top" ]; then
    rename+="s/\\bsystolic_top\\b/systolic_top_netlist/g;"
  else
    rename+="s/\\b${name}\\b/old_${name}/g;"
  fi
done
for kv in "${params[@]}"; do
  rename+="s/^(  parameter int unsigned ${kv%%=*} = )[0-9]+,/\\1${kv#*=},/;"
done
old_sources=()
pkg_sources=()
for path in "${old_files[@]}"; do
  file="${work}/old/$(basename "${path}")"
  sed -i -E "${rename}" "${file}"
  if grep -q "^package " "${file}"; then pkg_sources+=("${file}"); else old_sources+=("${file}"); fi
done

new_sources=(
  "${pkg}"
  "${root}/build/generated/rtl/kc_host_pkg.sv"
  "${root}/build/generated/rtl/systolic_pkg.sv"
  "${root}/rtl/common/kc_fp_pkg.sv"
  "${root}/rtl/common/kc_sram.sv"
  "${root}/rtl/common/kc_dma_engine.sv"
  "${root}/rtl/common/kc_host_if.sv"
  "${root}/rtl/systolic/systolic_array.sv"
  "${root}/rtl/systolic/systolic_matrix_unit.sv"
  "${root}/rtl/systolic/systolic_vector_unit.sv"
  "${root}/rtl/systolic/systolic_sequencer.sv"
  "${root}/rtl/systolic/systolic_top.sv"
)

dram_bytes=$("${generator}" "${work}" "${programs}" "${params[@]}")
gparams=()
for kv in "${params[@]}"; do gparams+=("-G${kv}"); done

echo "compare_systolic_rtl: verilator (${config}: ${params[*]})"
verilator --binary --timing -j 2 -Wno-fatal -Wno-lint -Wno-style -Wno-UNOPTFLAT --top-module netlist_tb \
  "${gparams[@]}" -GPROGRAMS="${programs}" -GDRAM_BYTES="${dram_bytes}" -Mdir "${work}/obj" \
  "${new_sources[@]}" "${pkg_sources[@]}" "${old_sources[@]}" "${root}/tests/systolic/netlist_tb.sv" \
  > "${work}/verilator.log" 2>&1 || {
  grep -A3 "%Error" "${work}/verilator.log" | head -20 >&2 || true
  echo "compare_systolic_rtl: verilator failed (log: ${work}/verilator.log)" >&2
  exit 1
}

echo "compare_systolic_rtl: simulation"
result=$(cd "${work}" && ./obj/Vnetlist_tb | tee "${work}/sim.log" | grep "mismatches") || true
echo "${result}"
other="${rev}'s"
[ "${rev}" = "--synthesis-form" ] && other="its synthesis form"
if [[ "${result}" =~ ^${programs}\ programs\ \(${programs}\ halted\).*:\ 0\ mismatches$ ]]; then
  echo "compare_systolic_rtl: the RTL behaves exactly like ${other}"
  exit 0
fi
echo "compare_systolic_rtl: the RTL and ${other} differ (log: ${work}/sim.log)" >&2
exit 1
