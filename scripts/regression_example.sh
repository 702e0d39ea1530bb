#!/usr/bin/env bash
# The worked example of docs/regressions.md, end to end: a deliberately slowed RTL is caught by
# `kcraft compare`. A scratch copy of this source tree gets docs/examples/regressions/no_back_to_back_vector.patch
# (the systolic sequencer stops issuing a vector instruction while the vector unit is still busy with the
# previous one), is built, and the same baseline sweep runs on this tree's kcraft (the reference) and on the
# copy's (the change); then
#   1. both sweeps are correct everywhere (the change costs cycles, not correctness);
#   2. `kcraft compare` exits 1 and names every element-wise kernel (relu, softmax, rms_norm) as slower;
#   3. the matrix-bound gemm, which issues no back-to-back vector instructions, is unchanged.
#
#   scripts/regression_example.sh [--kcraft PATH] [--work DIR] [--keep]
#
#   --kcraft PATH  the reference kcraft (default: build/kcraft of this tree, which must be built)
#   --work DIR     where the copy and its build go (default: a new temporary directory); a DIR kept from an
#                  earlier run is reused, its build incrementally
#   --keep         keep the temporary directory (it is removed after a successful run otherwise)
#
# Ends with "regression example: N passed, M failed"; the exit status is non-zero when a check failed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/scratch_tree.sh
source "$here/scripts/lib/scratch_tree.sh"
example="regression example"
platform=systolic
patch_file="$here/docs/examples/regressions/no_back_to_back_vector.patch"
reference="$here/build/kcraft"

work=""
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --kcraft) reference="$2"; shift 2 ;;
    --work) work="$2"; keep=1; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "regression_example: unknown argument '$1' (expected --kcraft PATH, --work DIR or --keep)" >&2; exit 2 ;;
  esac
done
[ -x "$reference" ] || { echo "regression_example: no kcraft at $reference (build first, or --kcraft PATH)" >&2; exit 2; }
scratch_work
src="$work/src"
jobs="${KCRAFT_JOBS:-$(nproc)}"

echo "== scratch copy in $src, with the slowed RTL"
scratch_copy "$here" "$src" "$platform"
scratch_apply "$src" "$work" "$patch_file" || fatal "the patch applies to this tree"
scratch_build "$src" "$work/build.log" "$jobs" kcraft || fatal "the scratch copy builds"
pass "the scratch copy with the patch builds"

echo "== the same baseline sweep on the reference and on the change"
sweep=(bench --agents baseline --platforms "$platform" --hw default --tasks relu,softmax,rms_norm,gemm
       --configs C1,C2 --transcripts none --progress none --jobs 2)
rm -f "$work/ref.db" "$work/change.db"
"$reference" "${sweep[@]}" --db "$work/ref.db" >"$work/ref.txt" 2>&1 || fatal "the reference sweep runs"
"$reference" --json report --db "$work/ref.db" >"$work/ref.json" || fatal "the reference's report"
"$src/build/kcraft" "${sweep[@]}" --db "$work/change.db" >"$work/change.txt" 2>&1 || fatal "the change's sweep runs"
if grep -q "8 run now (0 failed jobs)" "$work/ref.txt" && grep -q "8 run now (0 failed jobs)" "$work/change.txt"; then
  pass "both sweeps ran their 8 runs"
else
  fail "a sweep did not run its 8 runs: $(grep 'run now' "$work/ref.txt" "$work/change.txt")"
fi

echo "== kcraft compare ref.json change.db"
status=0
"$reference" --json compare "$work/ref.json" "$work/change.db" >"$work/compare.json" || status=$?
"$reference" compare "$work/ref.json" "$work/change.db" >"$work/compare.txt" || true
cat "$work/compare.txt"
if [ "$status" -eq 1 ]; then pass "kcraft compare exits 1 (regressed)"; else fail "kcraft compare exited $status, not 1"; fi
# Which runs each class holds, from the JSON.
verdicts=$(python3 - "$work/compare.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d.get("runs", [])
def key(r): return f"{r.get('task')}:{r.get('config')}"
print(" ".join(sorted(f"{key(r)}={r.get('change')}" for r in rows)))
print("correct" if all(r.get("old", {}).get("verdict") == "pass" and r.get("new", {}).get("verdict") == "pass"
                       for r in rows) and len(rows) == 8 else "not all correct")
EOF
) || fatal "the compare JSON reads"
echo "$verdicts"
if echo "$verdicts" | grep -q "^correct$"; then
  pass "all 8 runs are correct before and after"
else
  fail "not every run is correct before and after: $verdicts"
fi
slow_ok=1
for t in relu softmax rms_norm; do
  echo "$verdicts" | grep -q "$t:C2=slower" || slow_ok=0
done
if [ "$slow_ok" -eq 1 ]; then pass "relu, softmax and rms_norm C2 are reported slower"; else fail "the element-wise kernels are not all reported slower"; fi
if echo "$verdicts" | grep -q "gemm:C1=same" && echo "$verdicts" | grep -q "gemm:C2=same"; then
  pass "gemm (matrix-bound) is unchanged"
else
  fail "gemm changed: $verdicts"
fi
finish
