#!/usr/bin/env bash
# Measures Verilator's speed options on one platform side by side: builds the platform's default hardware
# configuration once per variant (its own build directory under --work), then runs `kcraft speed` for
# every variant in turn, round after round, so that all variants see the same machine noise. Prints, per
# variant, the Verilated model's build time and the median simulated cycles per second (bare Verilator
# and SystemC testbench) on each workload, and the ratio to the first variant. docs/simulation-speed.md
# records the results that chose the defaults in cmake/KcraftVerilator.cmake.
#
#   scripts/verilator_speed_study.sh [--platform P] [--rounds N] [--work DIR] [--variants a,b,...]
#                                    [--workloads task:config,...] [--jobs N]
#
# Variants (--variants; default: all):
#   current     the defaults of cmake/KcraftVerilator.cmake
#   slow-O1     run-once code (constructors, initial, trace set-up) at -O1 instead of -O3
#   fast-O2     hot evaluation code at -O2 instead of -O3 (and run-once code at -O1)
#   no-vl-O3    Verilator's own optimisations at their default level instead of -O3
#   x-unique    --x-assign unique --x-initial unique (Verilator's defaults) instead of fast
#   threads2    --threads 2 (a second evaluation thread)
#   no-localize with -fno-localize (function temporaries kept as members of the model; the default until
#               2026-12-07)
#   big-funcs   evaluation functions split at 20000 statements instead of 2000
#   gcc         the models compiled by g++ (the default is clang++ where there is one)
#   pgo         GCC profile-guided optimisation (models compiled by g++): -fprofile-generate, one run of every workload, -fprofile-use
#   vl-pgo      Verilator's --prof-pgo with --threads 2: one profiled run, then the profile fed back
# Takes about 3 minutes per variant to build on 2 cores, then a few seconds per run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

platform=systolic
rounds=5
work="${root}/build-speed-study"
variants="current,slow-O1,fast-O2,no-vl-O3,x-unique,threads2,pgo,vl-pgo"
workloads="gemm:C4,softmax:C5,relu:C5"
jobs="${KCRAFT_JOBS:-$(nproc)}"
while [ $# -gt 0 ]; do
  case "$1" in
    --platform) platform="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --work) work="$2"; shift ;;
    --variants) variants="$2"; shift ;;
    --workloads) workloads="$2"; shift ;;
    --jobs) jobs="$2"; shift ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "verilator_speed_study: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
IFS=',' read -r -a variant_list <<< "${variants}"
IFS=',' read -r -a workload_list <<< "${workloads}"

# The project's own objects are the same in every variant: ccache compiles them once.
if ! command -v ccache >/dev/null 2>&1; then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends ccache
fi

default_opt_args="-O3;--x-assign;fast;--x-initial;fast;--noassert"
variant_cmake_args() {
  case "$1" in
    current) echo "" ;;
    slow-O1) echo "-DKCRAFT_VERILATOR_CFLAGS=-std=gnu++17 -DKCRAFT_VERILATOR_OPT_SLOW=-O1" ;;
    fast-O2) echo "-DKCRAFT_VERILATOR_CFLAGS=-std=gnu++17 -DKCRAFT_VERILATOR_OPT_FAST=-O2 -DKCRAFT_VERILATOR_OPT_SLOW=-O1" ;;
    no-vl-O3) echo "-DKCRAFT_VERILATOR_OPT_ARGS=--x-assign;fast;--x-initial;fast;--noassert" ;;
    x-unique) echo "-DKCRAFT_VERILATOR_OPT_ARGS=-O3;--x-assign;unique;--x-initial;unique;--noassert" ;;
    threads2) echo "-DKCRAFT_VERILATOR_OPT_ARGS=${default_opt_args};--threads;2" ;;
    no-localize) echo "-DKCRAFT_VERILATOR_OPT_ARGS=-O3;-fno-localize;--x-assign;fast;--x-initial;fast;--noassert" ;;
    big-funcs) echo "-DKCRAFT_VERILATOR_SPLIT_ARGS=--output-split;20000;--output-split-cfuncs;20000" ;;
    gcc) echo "-DKCRAFT_VERILATOR_CXX=$(command -v g++)" ;;
    pgo) echo "" ;;     # two builds, set below
    vl-pgo) echo "" ;;  # two builds, set below
    *) echo "verilator_speed_study: unknown variant $1" >&2; exit 2 ;;
  esac
}

mkdir -p "${work}"
declare -A build_seconds
configure_and_build() {  # dir, cmake args...
  local dir="$1"; shift
  cmake -S "${root}" -B "${dir}" -DCMAKE_BUILD_TYPE=Release -DKCRAFT_BUILD_TESTS=OFF \
    -DKCRAFT_HW_CONFIGS=default -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "$@" > "${dir}.configure.log"
  # Everything the model's build depends on first, so that the timed step is the model alone.
  cmake --build "${dir}" -j "${jobs}" --target kcraft_isagen kcraft_verilated > "${dir}.build.log"
  # CPU seconds (user + system of every compiler process), not wall time: the machine may be shared.
  # The model itself bypasses ccache, so the figure is a real compile even when a variant was built before.
  local cpu
  cpu=$( { TIMEFORMAT='%U %S'; time CCACHE_DISABLE=1 cmake --build "${dir}" -j "${jobs}" --target "rtl_${platform}_default_build" \
           >> "${dir}.build.log"; } 2>&1 | awk '{printf "%.0f", $1 + $2}')
  cmake --build "${dir}" -j "${jobs}" --target kcraft >> "${dir}.build.log"
  echo "${cpu}"
}

speed() {  # kcraft binary, task, config -> JSON
  "$1" speed "${platform}" --hw default --task "$2" --config "$3" --repeats 1 --json
}

train_workloads() {  # kcraft binary, in the current directory
  for w in "${workload_list[@]}"; do speed "$1" "${w%%:*}" "${w#*:}" > /dev/null; done
}

model_dir() { echo "$1/rtl/${platform}/V${platform}_default"; }

for v in "${variant_list[@]}"; do
  dir="${work}/${v}"
  rm -rf "${dir}"
  echo "verilator_speed_study: building ${v}" >&2
  case "${v}" in
    pgo)
      # Both builds in one directory: GCC finds a profile by the object file's path.
      profile_dir="${work}/pgo-profile"
      rm -rf "${profile_dir}"
      # Every platform's default model gets the profile flags, so the kcraft link needs GCC's profiling
      # runtime too (the second configure clears it again: the cache keeps values).
      configure_and_build "${dir}" "-DKCRAFT_VERILATOR_CXX=$(command -v g++)" \
        "-DKCRAFT_VERILATOR_CXXFLAGS=-fprofile-generate -fprofile-dir=${profile_dir}" \
        "-DCMAKE_EXE_LINKER_FLAGS=-fprofile-generate" > /dev/null
      train_workloads "${dir}/kcraft"
      rm -rf "$(model_dir "${dir}")"
      build_seconds[$v]=$(configure_and_build "${dir}" "-DKCRAFT_VERILATOR_CXX=$(command -v g++)" \
        "-DKCRAFT_VERILATOR_CXXFLAGS=-fprofile-use -fprofile-dir=${profile_dir} -fprofile-partial-training -Wno-missing-profile" \
        "-DCMAKE_EXE_LINKER_FLAGS=")
      ;;
    vl-pgo)
      configure_and_build "${dir}" "-DKCRAFT_VERILATOR_OPT_ARGS=${default_opt_args};--threads;2;--prof-pgo" > /dev/null
      (cd "${work}" && rm -f profile.vlt && train_workloads "${dir}/kcraft")
      if [ ! -s "${work}/profile.vlt" ]; then
        echo "verilator_speed_study: vl-pgo: the profiled run wrote no profile.vlt; skipped" >&2
        continue
      fi
      rm -rf "$(model_dir "${dir}")"
      build_seconds[$v]=$(configure_and_build "${dir}" \
        "-DKCRAFT_VERILATOR_OPT_ARGS=${default_opt_args};--threads;2;${work}/profile.vlt")
      ;;
    *)
      read -r -a args <<< "$(variant_cmake_args "${v}")"
      build_seconds[$v]=$(configure_and_build "${dir}" "${args[@]}")
      ;;
  esac
done

results="${work}/results.jsonl"
: > "${results}"
for ((r = 1; r <= rounds; r++)); do
  echo "verilator_speed_study: round ${r}/${rounds}" >&2
  for v in "${variant_list[@]}"; do
    [ -n "${build_seconds[$v]:-}" ] || continue
    for w in "${workload_list[@]}"; do
      speed "${work}/${v}/kcraft" "${w%%:*}" "${w#*:}" |
        /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); d["variant"]=sys.argv[1]; print(json.dumps(d))' \
          "${v}" >> "${results}"
    done
  done
done

build_json="{"
for v in "${variant_list[@]}"; do
  [ -n "${build_seconds[$v]:-}" ] && build_json+="\"${v}\": ${build_seconds[$v]},"
done
build_json="${build_json%,}}"

/usr/bin/python3 - "${results}" "${build_json}" "${variants}" <<'EOF'
import json, statistics, sys
# `kcraft speed --json` prints one object per run with its workloads in a list: one row per workload.
rows = [dict(w, variant=run["variant"]) for run in map(json.loads, open(sys.argv[1])) for w in run["workloads"]]
build = json.loads(sys.argv[2])
order = [v for v in sys.argv[3].split(",") if v in build]
workloads = list(dict.fromkeys(r["workload"] for r in rows))
def med(v, w, key):
    xs = [r[key] for r in rows if r["variant"] == v and r["workload"] == w]
    return statistics.median(xs) if xs else float("nan")
ref = order[0]
for w in workloads:
    cycles = {r["cycles"] for r in rows if r["workload"] == w}
    if len(cycles) != 1:
        sys.exit(f"verilator_speed_study: the variants ran {w} in different cycle counts {sorted(cycles)}")
head = "| variant | model build (CPU s) | " + " | ".join(f"{w}: bare k cycles/s (ratio) | SystemC k cycles/s" for w in workloads) + " |"
print(head)
print("|" + "---|" * (2 + 2 * len(workloads)))
for v in order:
    cells = [v, str(build[v])]
    for w in workloads:
        b = med(v, w, "bare_cycles_per_second")
        cells.append(f"{b/1e3:.1f} ({b/med(ref, w, 'bare_cycles_per_second'):.2f})")
        cells.append(f"{med(v, w, 'systemc_cycles_per_second')/1e3:.1f}")
    print("| " + " | ".join(cells) + " |")
runs = len(rows) // max(1, len(order) * len(workloads))
print(f"\nmedians of {runs} interleaved rounds; ratio = bare cycles/s over the variant '{ref}'")
EOF
