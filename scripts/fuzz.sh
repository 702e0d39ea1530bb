#!/usr/bin/env bash
# In-process fuzzing with libFuzzer (docs/fuzzing.md): one harness per parser of outside input.
#
#   scripts/fuzz.sh [harness|all] [seconds]    fuzz one harness (or every one, in turn) for `seconds` each
#                                              (default 60)
#   scripts/fuzz.sh --runs N [harness|all]     stop each harness after N executions instead (e.g. 1000000)
#   scripts/fuzz.sh --ci                       CI: every harness for 5 seconds (KCRAFT_FUZZ_CI_SECONDS), built
#                                              at -O0 in build-fuzz-ci
#   scripts/fuzz.sh --list                     the harnesses
#
# Installs clang-16, libfuzzer-16-dev and libclang-rt-16-dev (the sanitizer runtimes) with apt-get if
# missing, configures and builds build-fuzz (clang, -DKCRAFT_FUZZ=ON: sanitizers, no Verilated RTL), then
# runs each fuzzer on its corpus: the working corpus
# build-fuzz/fuzz/corpus/<harness> (grows between runs), the generated seeds, tests/fuzz/seeds/<harness>
# and the inputs of past findings tests/fuzz/regressions/<harness>, with the merged dictionary. Prints per
# harness the executions, executions per second and whether anything was found; exits 1 on a finding and
# keeps the input in build-fuzz/fuzz/findings/<harness>/ (add it to tests/fuzz/regressions/<harness>/ with
# the fix). Environment: KCRAFT_JOBS (build jobs, default 2), KCRAFT_FUZZ_BUILD (default build-fuzz).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KCRAFT_FUZZ_BUILD:-$here/build-fuzz}"
jobs="${KCRAFT_JOBS:-2}"

usage() { sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

harnesses_in_source() {
  grep -l '^extern "C" int LLVMFuzzerTestOneInput(.*) {$' "$here"/tests/fuzz/*.cpp | xargs -n1 basename | sed 's/\.cpp$//' | sort
}

target="all"
seconds=""
runs=""
ci=0
while [ $# -gt 0 ]; do
  case "$1" in
    --list) harnesses_in_source; exit 0 ;;
    --ci) ci=1 ;;
    --runs) runs="${2:?--runs needs a number}"; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "scripts/fuzz.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *)
      if [ -z "${target_set:-}" ] && ! [[ "$1" =~ ^[0-9]+$ ]]; then target="$1"; target_set=1
      elif [[ "$1" =~ ^[0-9]+$ ]]; then seconds="$1"
      else echo "scripts/fuzz.sh: unexpected argument $1" >&2; exit 2
      fi ;;
  esac
  shift
done
fuzz_opt=-O1
if [ "$ci" -eq 1 ]; then
  target="all"
  seconds="${KCRAFT_FUZZ_CI_SECONDS:-5}"
  # CI's fuzz build compiles at -O0, in a directory of its own: a third of -O1's compile time (the largest
  # unity batch: 9 s instead of 30 s), for fewer executions in its 5 seconds (docs/fuzzing.md, "In CI").
  fuzz_opt=-O0
  build="${KCRAFT_FUZZ_BUILD:-$here/build-fuzz-ci}"
fi
seconds="${seconds:-60}"

all_harnesses=($(harnesses_in_source))
if [ "$target" = "all" ]; then
  selected=("${all_harnesses[@]}")
else
  if ! printf '%s\n' "${all_harnesses[@]}" | grep -qx "$target"; then
    echo "scripts/fuzz.sh: no harness '$target' (scripts/fuzz.sh --list)" >&2
    exit 2
  fi
  selected=("$target")
fi

# ---- toolchain
missing=()
for p in clang-16 libfuzzer-16-dev libclang-rt-16-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "scripts/fuzz.sh: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}" ||
    { "${sudo_cmd[@]}" apt-get update && DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y \
        --no-install-recommends "${missing[@]}"; }
fi

# ---- build (the project's other dependencies come from scripts/setup.sh's packages)
if [ ! -f "$build/CMakeCache.txt" ]; then
  generator=()
  command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
  CC=clang-16 CXX=clang++-16 cmake -S "$here" -B "$build" "${generator[@]}" -DKCRAFT_FUZZ=ON \
    -DKCRAFT_FUZZ_OPT="$fuzz_opt" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
targets=(kcraft_fuzz_corpus)
for h in "${selected[@]}"; do targets+=("fuzz_$h"); done
# Serialised: several fuzz.sh may share build-fuzz (e.g. two harnesses fuzzing side by side).
flock "$build/.fuzz-build.lock" cmake --build "$build" -j "$jobs" --target "${targets[@]}"

# ---- fuzz
work="$build/fuzz"
generated="$build/tests/fuzz/generated"
mkdir -p "$work"
# malloc_context_size=0: AddressSanitizer records no stack for each allocation and free (a tenth of the
# time of the allocation-heavy harnesses). A report then lacks the allocation and free stacks;
# reproducing the input (without these options) prints them.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:malloc_context_size=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# The longest input each harness is given (-max_len): room for the largest real input of its kind (the seeds
# are never cut), not much more, since longer inputs only cost time. libFuzzer's default is the largest seed
# or 4096 bytes.
max_len_of() {
  case "$1" in
    retry_after_header) echo 64 ;;             # one header value
    rvv_tool_diagnostics) echo 4096 ;;         # a compiler's messages about one kernel
    rvv_elf32) echo 16384 ;;                   # a linked kernel is a few KB
    task_expr) echo 256 ;;                     # one expression of a task spec
    disassembler_systolic) echo 1024 ;;        # 256 words; the word-by-word check covers the first 64
    hw_config_yaml | provider_settings_yaml) echo 2048 ;;  # the real files are under 1 KB
    task_spec_yaml | mcp_jsonrpc) echo 4096 ;;
    serve_http) echo 4096 ;;                   # a session of a dozen requests, 2.5 KB  # specs under 1 KB; a session with a baseline kernel, 2.7 KB
    openai_response | anthropic_response) echo 4096 ;;  # a response body
    assembler_systolic) echo 8192 ;;           # the baseline kernels are up to 5 KB
    assembler_vliw) echo 16384 ;;              # its baseline kernels are longer (bundles, unrolled loops)
    transcript_replay) echo 16384 ;;           # a recorded session, 10 KB
    isa_spec_yaml) echo 65536 ;;               # isa/systolic.yaml is 48 KB
    *) echo 4096 ;;
  esac
}
# One harness: its fuzzer over its corpus, its result line in $work/lines/<harness>.
fuzz_one() {
  local h="$1" corpus="$work/corpus/$1" findings="$work/findings/$1" dirs d dict options log start status
  local elapsed execs rate result
  mkdir -p "$corpus" "$findings" "$work/dict" "$work/logs" "$work/lines"
  dirs=("$corpus")
  for d in "$generated/seeds/$h" "$here/tests/fuzz/seeds/$h" "$here/tests/fuzz/regressions/$h"; do
    [ -d "$d" ] && dirs+=("$d")
  done
  dict="$work/dict/$h.dict"
  cat /dev/null "$generated/$h.dict" "$here/tests/fuzz/dict/$h.dict" 2>/dev/null > "$dict" || true
  options=(-timeout=10 -rss_limit_mb=2048 -max_len="$(max_len_of "$h")" -print_final_stats=1
           -artifact_prefix="$findings/")
  [ -s "$dict" ] && options+=(-dict="$dict")
  if [ -n "$runs" ]; then options+=(-runs="$runs"); else options+=(-max_total_time="$seconds"); fi
  log="$work/logs/$h.log"
  start=$(date +%s)
  status=0
  "$build/tests/fuzz/fuzz_$h" "${options[@]}" "${dirs[@]}" >"$log" 2>&1 || status=$?
  elapsed=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ "$status" -eq 0 ]; then
    result="no finding (${elapsed} s)"
  else
    artifact=$(ls -t "$findings" 2>/dev/null | head -1)
    result="FINDING: $findings/${artifact:-?} (log: $log)"
  fi
  printf '%-24s %12s %10s  %s\n' "$h" "${execs:-?}" "${rate:-?}" "$result" > "$work/lines/$h"
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $h executions=${execs:-?} exec_per_sec=${rate:-?} seconds=$elapsed status=$status" \
    >>"$work/results.txt"
  return "$status"
}

# KCRAFT_JOBS harnesses at a time (each fuzzer is one process on one core), their lines in order.
found=0
printf '%-24s %12s %10s  %s\n' harness executions "exec/s" result
rm -rf "$work/lines"
for h in "${selected[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz_one "$h" &
done
wait || true
for h in "${selected[@]}"; do
  if [ -f "$work/lines/$h" ]; then
    cat "$work/lines/$h"
    grep -q FINDING "$work/lines/$h" && found=1
  else
    printf '%-24s %12s %10s  %s\n' "$h" "?" "?" "FAILED to run (log: $work/logs/$h.log)"
    found=1
  fi
done
if [ "$found" -ne 0 ]; then
  echo "scripts/fuzz.sh: finding(s) above; reproduce with $build/tests/fuzz/fuzz_<harness> <input>" >&2
  exit 1
fi
