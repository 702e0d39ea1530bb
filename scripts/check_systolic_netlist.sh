#!/usr/bin/env bash
# Checks that yosys reads the systolic RTL the way Verilator does: synthesizes systolic_top for a small
# configuration (coarse, flattened), Verilates the netlist next to the RTL and runs random programs on
# both, comparing every output in every cycle (tests/systolic/netlist_tb.sv). Takes about two minutes.
#
#   scripts/check_systolic_netlist.sh <systolic_netlist_programs> [--pkg FILE] [--work DIR] [--programs N]
#
# The first argument is the program generator built from tests/systolic/netlist_programs.cpp
# (build/tests/systolic/systolic_netlist_programs). Exits 0 when the two agree.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

generator="${1:?usage: $0 <systolic_netlist_programs> [--pkg FILE] [--work DIR] [--programs N]}"
shift
pkg="${root}/build/generated/isa/systolic_isa_pkg.sv"
work="${TMPDIR:-/tmp}/kcraft_systolic_netlist"
programs=40
while [ $# -gt 0 ]; do
  case "$1" in
    --pkg) pkg="$2"; shift ;;
    --work) work="$2"; shift ;;
    --programs) programs="$2"; shift ;;
    *) echo "check_systolic_netlist: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

# Small enough to synthesize and simulate quickly, large enough for the random programs.
params=(MLEN=2 VLEN=2 BLEN=1 IMEM_WORDS=256 VSRAM_ROWS=64 MSRAM_ROWS=64 ACC_ROWS=64 FPSRAM_WORDS=16 LOOP_DEPTH=2
        DMA_SLOTS=2 DMA_OUTSTANDING=4)
chparams=()
gparams=()
for kv in "${params[@]}"; do
  chparams+=(-chparam "${kv%%=*}" "${kv#*=}")
  gparams+=("-G${kv}")
done

sources=(
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

rm -rf "${work}"
mkdir -p "${work}"

# -noalumacc keeps arithmetic as plain operators, which write_verilog prints as Verilog expressions.
echo "check_systolic_netlist: yosys"
yosys -q -l "${work}/yosys.log" -p "read_verilog -defer -sv ${sources[*]}
hierarchy -check -top systolic_top ${chparams[*]}
synth -top systolic_top -noshare -noalumacc -run :fine
flatten
check -assert
rename -top systolic_top_netlist
write_verilog -noattr ${work}/systolic_top_netlist.v" > /dev/null 2>&1 || {
  grep -E "ERROR" "${work}/yosys.log" >&2 || true
  echo "check_systolic_netlist: yosys failed (log: ${work}/yosys.log)" >&2
  exit 1
}

dram_bytes=$("${generator}" "${work}" "${programs}" "${params[@]}")

echo "check_systolic_netlist: verilator"
# The netlist is machine-written: lint opts out of it (yosys leaves unused wires); equality is the test.
verilator --binary --timing -j 2 -Wno-fatal -Wno-lint -Wno-style -Wno-UNOPTFLAT --top-module netlist_tb \
  "${gparams[@]}" -GPROGRAMS="${programs}" -GDRAM_BYTES="${dram_bytes}" -Mdir "${work}/obj" \
  "${sources[@]}" "${work}/systolic_top_netlist.v" "${root}/tests/systolic/netlist_tb.sv" \
  > "${work}/verilator.log" 2>&1 || {
  grep -A3 "%Error" "${work}/verilator.log" | head -20 >&2 || true
  echo "check_systolic_netlist: verilator failed (log: ${work}/verilator.log)" >&2
  exit 1
}

echo "check_systolic_netlist: simulation"
result=$(cd "${work}" && ./obj/Vnetlist_tb | tee "${work}/sim.log" | grep "mismatches") || true
echo "${result}"
if [[ "${result}" =~ ^${programs}\ programs\ \(${programs}\ halted\).*:\ 0\ mismatches$ ]]; then
  echo "check_systolic_netlist: the yosys netlist agrees with the RTL"
  exit 0
fi
echo "check_systolic_netlist: the yosys netlist and the RTL differ (log: ${work}/sim.log)" >&2
exit 1
