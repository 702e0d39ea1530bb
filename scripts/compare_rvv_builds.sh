#!/usr/bin/env bash
# Checks that two kcraft binaries simulate the rvv platform identically: every task's template (RVV
# intrinsics) and its compiler baseline (the scalar C reference), plus the worked gemm examples, run through
# `kcraft eval` with each binary, and the whole report (verdict, cycles, every counter, the output
# tensors), the instruction trace (every retirement with its cycle) and the timeline (the stall cause of
# every cycle and every DRAM request) must be byte-identical. For RTL or testbench changes that must not
# change a single cycle (e.g. restructuring for simulation speed); build the old revision's kcraft apart.
#
#   scripts/compare_rvv_builds.sh <old kcraft> <new kcraft> [--configs C1,C2] [--tasks a,b] [--hw default]
#                                 [--work DIR]
#
# --tasks limits the tasks (default: all; the level-3 blocks' C1 compiler baselines alone take 39M and 50M
# cycles).
# Exits 0 when every run agrees; prints each kernel's cycles.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage="usage: $0 <old kcraft> <new kcraft> [--configs C1,C2] [--tasks a,b] [--hw default] [--work DIR]"
old="${1:?${usage}}"
new="${2:?${usage}}"
shift 2
configs="C1"
only_tasks=""
hw="default"
work="${TMPDIR:-/tmp}/kcraft_compare_rvv_builds"
while [ $# -gt 0 ]; do
  case "$1" in
    --configs) configs="$2"; shift ;;
    --tasks) only_tasks="$2"; shift ;;
    --hw) hw="$2"; shift ;;
    --work) work="$2"; shift ;;
    *) echo "compare_rvv_builds: unknown argument $1" >&2; echo "${usage}" >&2; exit 2 ;;
  esac
  shift
done
for bin in "${old}" "${new}"; do
  if [ ! -x "${bin}" ]; then echo "compare_rvv_builds: ${bin} is not an executable" >&2; exit 2; fi
done
rm -rf "${work}"
mkdir -p "${work}"

# The tasks, from the binary's own list (first column of `kcraft tasks`, lines that name a level).
mapfile -t tasks < <("${new}" tasks | awk 'NR > 1 && $2 ~ /^[0-9]+$/ {print $1}')
if [ -n "${only_tasks}" ]; then
  IFS=, read -r -a tasks <<< "${only_tasks}"
fi

failures=0
runs=0
run_pair() {  # name task config kernel-file
  local name="$1" task="$2" config="$3" kernel="$4"
  for side in old new; do
    local bin="${old}"
    [ "${side}" = new ] && bin="${new}"
    # The report's exit status is the verdict: compare it too, never stop on it.
    set +e
    "${bin}" eval rvv "${task}" "${kernel}" --config "${config}" --hw "${hw}" \
      --itrace "${work}/${name}.${side}.itrace" --timeline "${work}/${name}.${side}.timeline.json" \
      > "${work}/${name}.${side}.out" 2>&1
    echo "exit $?" >> "${work}/${name}.${side}.out"
    set -e
    # The report names the files it wrote: the same for both sides.
    sed -i "s|${work}/${name}.${side}.|FILE.|g" "${work}/${name}.${side}.out"
  done
  runs=$((runs + 1))
  local bad=""
  for f in out itrace timeline.json; do
    cmp -s "${work}/${name}.old.${f}" "${work}/${name}.new.${f}" || bad+=" ${f}"
  done
  local cycles
  cycles="$(awk '/^cycles / {print $2; exit}' "${work}/${name}.new.out")"
  if [ -n "${bad}" ]; then
    failures=$((failures + 1))
    echo "DIFFER ${name}: ${cycles:-?} cycles;${bad} differ (${work}/${name}.{old,new}.*)"
  else
    echo "same   ${name}: ${cycles:-?} cycles"
  fi
}

IFS=, read -r -a config_list <<< "${configs}"
for config in "${config_list[@]}"; do
  for task in "${tasks[@]}"; do
    "${new}" baseline rvv "${task}" --config "${config}" --hw "${hw}" > "${work}/${task}.${config}.c"
    run_pair "${task}.${config}.template" "${task}" "${config}" "${work}/${task}.${config}.c"
    "${new}" baseline rvv "${task}" --config "${config}" --hw "${hw}" --compiler \
      > "${work}/${task}.${config}.compiler.c"
    run_pair "${task}.${config}.compiler" "${task}" "${config}" "${work}/${task}.${config}.compiler.c"
  done
  if [ -z "${only_tasks}" ] || [[ ",${only_tasks}," == *",gemm,"* ]]; then
    for example in gemm.c gemm.S; do
      run_pair "gemm.${config}.example_${example}" gemm "${config}" "${root}/docs/examples/rvv/${example}"
    done
  fi
done
echo "${runs} kernels, ${failures} differ"
[ "${failures}" -eq 0 ]
