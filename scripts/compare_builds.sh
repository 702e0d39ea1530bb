#!/usr/bin/env bash
# Checks that two kcraft binaries simulate a platform identically: every task's baseline (the template
# compiler's kernel) and, where the platform has one, its compiler baseline, plus the worked examples in
# docs/examples/PLATFORM/ (each named after its task: gemm.c, gemm.S), run through `kcraft eval` with each
# binary, and the whole report (verdict, cycles, every counter, the output tensors), the instruction trace
# (every retirement with its cycle) and the timeline (the stall cause of every cycle and every DRAM
# request) must be byte-identical. For RTL or testbench changes that must not change a single cycle (e.g.
# restructuring for simulation speed); build the old revision's kcraft apart.
#
#   scripts/compare_builds.sh <platform> <old kcraft> <new kcraft> [--configs C1,C2] [--tasks a,b]
#                             [--hw default] [--work DIR]
#
# --tasks limits the tasks (default: all; rvv's level-3 compiler baselines at C1 alone take 39M and 50M
# cycles).
# Exits 0 when every run agrees; prints each kernel's cycles.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage="usage: $0 <platform> <old kcraft> <new kcraft> [--configs C1,C2] [--tasks a,b] [--hw default] [--work DIR]"
platform="${1:?${usage}}"
old="${2:?${usage}}"
new="${3:?${usage}}"
shift 3
configs="C1"
only_tasks=""
hw="default"
work="${TMPDIR:-/tmp}/kcraft_compare_builds_${platform}"
while [ $# -gt 0 ]; do
  case "$1" in
    --configs) configs="$2"; shift ;;
    --tasks) only_tasks="$2"; shift ;;
    --hw) hw="$2"; shift ;;
    --work) work="$2"; shift ;;
    *) echo "compare_builds: unknown argument $1" >&2; echo "${usage}" >&2; exit 2 ;;
  esac
  shift
done
for bin in "${old}" "${new}"; do
  if [ ! -x "${bin}" ]; then echo "compare_builds: ${bin} is not an executable" >&2; exit 2; fi
done
rm -rf "${work}"
mkdir -p "${work}"
python=/usr/bin/python3
[ -x "${python}" ] || python=python3

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
    "${bin}" eval "${platform}" "${task}" "${kernel}" --config "${config}" --hw "${hw}" \
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

# Writes a baseline (`kcraft --json baseline ...`) to WORK/NAME with the extension its language needs;
# prints the file's path, nothing when the platform has no such kernel.
write_kernel() {  # name baseline-arguments...
  local name="$1" json
  shift
  json="$("${new}" --json baseline "$@" 2> /dev/null)" || return 0
  KERNEL_JSON="${json}" "${python}" -c '
import json, os, sys
k = json.loads(os.environ["KERNEL_JSON"])
path = sys.argv[1] + os.path.splitext(k["file_name"])[1]
open(path, "w").write(k["source"])
print(path)' "${work}/${name}"
}

IFS=, read -r -a config_list <<< "${configs}"
for config in "${config_list[@]}"; do
  for task in "${tasks[@]}"; do
    kernel="$(write_kernel "${task}.${config}.template" "${platform}" "${task}" --config "${config}" --hw "${hw}")"
    if [ -z "${kernel}" ]; then
      echo "skip   ${task}.${config}: no baseline on ${hw} (kcraft baseline says why)"
      continue
    fi
    run_pair "${task}.${config}.template" "${task}" "${config}" "${kernel}"
    # The compiler baseline, where the platform has one.
    kernel="$(write_kernel "${task}.${config}.compiler" "${platform}" "${task}" --config "${config}" \
      --hw "${hw}" --compiler)"
    [ -z "${kernel}" ] || run_pair "${task}.${config}.compiler" "${task}" "${config}" "${kernel}"
  done
  for example in "${root}/docs/examples/${platform}"/*.{c,S,s}; do
    [ -f "${example}" ] || continue
    name="$(basename "${example}")"
    task="${name%.*}"
    if [ -n "${only_tasks}" ] && [[ ",${only_tasks}," != *",${task},"* ]]; then continue; fi
    run_pair "${task}.${config}.example_${name}" "${task}" "${config}" "${example}"
  done
done
echo "${runs} kernels, ${failures} differ"
[ "${failures}" -eq 0 ]
