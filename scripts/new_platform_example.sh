#!/usr/bin/env bash
# The platform scaffold end to end (scripts/new_platform.sh, docs/platforms.md §6): a scratch copy of this
# source tree, with no platform registered, gains the platform `toyvec` from the template, then
#   1. the scaffold refuses a name that is not lower_snake_case, a reserved word and an existing platform;
#   2. the copy builds (kcraft, the new platform's RTL with Verilator -Wall, model and tests);
#   3. the new platform's own tests pass (model, RTL against the model, baselines, lint, yosys synthesis of
#      the tiny parameters, the guide), and so do PlatformRegistry.EveryPlatformImplementsTheInterface (the
#      interface on every registered platform: here toyvec alone) and fuzz.assembler_toyvec (the assembler's
#      fuzz harness, tests/fuzz/assembler_toyvec.cpp, found by tests/fuzz/CMakeLists.txt's glob, replayed
#      over its seeds);
#   4. `kcraft eval toyvec relu k.s --config C1` passes on the RTL with the functional model agreeing
#      (k.s from `kcraft baseline`);
#   5. `kcraft validate toyvec --programs 50` finds RTL and model in agreement;
#   6. `kcraft bench --platforms toyvec` solves relu and gemm at C1 and C2 and shows C3-C5 as unsupported;
#   7. `kcraft mcp --platform toyvec` lists the tools and runs the kernel (write_code, run_eval);
#   8. the tutorial's worked example (docs/platforms.md, "From the scaffold to your accelerator"),
#      docs/examples/new_platform/toyvec_vsub.patch (VSUB through every layer), applies to the scaffold;
#      with --worked-example it is applied, built, and the platform's tests, the interface test, the fuzz
#      replay, `kcraft validate` and `kcraft isa` then know VSUB (about a minute more).
#
#   scripts/new_platform_example.sh [--work DIR] [--keep] [--worked-example]
#
#   --work DIR  where the copy and its build go (default: a new temporary directory); a DIR kept from an
#               earlier run is reused, its build incrementally
#   --keep      keep the temporary directory (it is removed after a successful run otherwise)
#   --worked-example  also build and test the scaffold with the worked example applied (step 8)
#
# The copy and its build: scripts/lib/scratch_tree.sh (the files git lists; with ccache, unchanged files hit
# the main build's compiles). The copy keeps no registered platform but toyvec, which is then the default.
# This tree is not changed. Ends with "new platform example: N passed, M failed"; the exit status is
# non-zero when a check failed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/scratch_tree.sh
source "$here/scripts/lib/scratch_tree.sh"
example="new platform example"
platform=toyvec

work=""
keep=0
worked=0
while [ $# -gt 0 ]; do
  case "$1" in
    --work)
      [ $# -ge 2 ] || { echo "new_platform_example: --work needs a directory" >&2; exit 2; }
      work="$2"
      keep=1
      shift 2
      ;;
    --keep) keep=1; shift ;;
    --worked-example) worked=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "new_platform_example: unknown argument '$1' (expected --work DIR, --keep or --worked-example)" >&2; exit 2 ;;
  esac
done
scratch_work
src="$work/src"
build="$src/build"
jobs="${KCRAFT_JOBS:-$(nproc)}"

echo "== scratch copy in $src, no platform registered"
# scratch_copy keeps one platform's tb/ folder: toyvec has none yet, so every registered one goes.
scratch_copy "$here" "$src" "$platform"
# An earlier run's scaffold (a kept work directory) is replaced by this tree's template.
rm -rf "$src"/{rtl,isa,tasks,tb,tests}/"$platform" "$src/isa/$platform.yaml" "$src/docs/$platform.md" \
  "$src/tests/fuzz/assembler_$platform.cpp" "$src/tests/fuzz/seeds/assembler_$platform"

echo "== the scaffold refuses bad names"
files() { find "$src" -path "$src/build" -prune -o -print | sort; }
refuses() {  # refuses NAME WHY MESSAGE: the script exits with an error, says MESSAGE and writes nothing
  files >"$work/files_before.txt"
  if "$src/scripts/new_platform.sh" "$1" --tree "$src" >"$work/refuse.txt" 2>&1; then
    fail "new_platform.sh accepted $2 '$1'"
  elif ! files | cmp -s - "$work/files_before.txt"; then
    fail "new_platform.sh refused $2 '$1' but wrote files"
  elif grep -q "$3" "$work/refuse.txt"; then
    pass "new_platform.sh refuses $2 '$1': $(head -1 "$work/refuse.txt")"
  else
    fail "new_platform.sh refused $2 '$1' without saying why: $(cat "$work/refuse.txt")"
  fi
}
refuses "Toy-Vec" "a name that is not lower_snake_case" "lower_snake_case"
refuses "class" "a reserved word" "reserved word"
refuses "systolic" "an existing platform" "exists already"

echo "== scaffold $platform"
"$src/scripts/new_platform.sh" "$platform" --tree "$src" >"$work/scaffold.txt" || fatal "new_platform.sh $platform"
squeeze() { sed 's/^ *//; s/  */ /g'; }
pass "new_platform.sh $platform: $(grep 'lines in' "$work/scaffold.txt" | squeeze), $(grep 'lines marked' "$work/scaffold.txt" | squeeze)"
if grep -rqi myaccel "$src"/{rtl,isa,tasks,tb,tests}/"$platform" "$src/isa/$platform.yaml" "$src/docs/$platform.md" \
  "$src/tests/fuzz/assembler_$platform.cpp" "$src/tests/fuzz/seeds/assembler_$platform"; then
  fail "the scaffold left the template's name in its files"
fi

echo "== configure and build (kcraft, the $platform RTL, model and tests)"
# kcraft_<p>_checks (tests/CMakeLists.txt): kcraft, the platform's tests, the interface test and the fuzz replay,
# the target docs/platforms.md's Step 0 builds.
scratch_build "$src" "$work/build.log" "$jobs" "kcraft_${platform}_checks" || fatal "the scratch copy builds"
pass "the scratch copy builds: generator, Verilated RTL (-Wall), functional model, testbench, tests, kcraft"
kcraft="$build/kcraft"

echo "== the platform's own tests"
if (cd "$build" && ctest -R "^$platform\\." --output-on-failure >"$work/ctest.txt" 2>&1) &&
  grep -q '100% tests passed' "$work/ctest.txt"; then
  pass "ctest -R '^$platform\\.': $(grep -o '[0-9]*% tests passed.*' "$work/ctest.txt" | head -1)"
else
  tail -40 "$work/ctest.txt" >&2
  fail "the $platform tests"
fi
if grep -q "$platform\.lint\.default .*Passed" "$work/ctest.txt" && grep -q "$platform\.yosys_synth_tiny .*Passed" "$work/ctest.txt"; then
  pass "lint (Verilator -Wall) and yosys (scripts/synth.sh $platform tiny) among them"
elif ! command -v yosys >/dev/null 2>&1; then
  fail "no yosys on this machine: the synthesis smoke test did not run"
else
  fail "$platform.lint.default or $platform.yosys_synth_tiny did not pass"
fi

echo "== the interface test and the assembler's fuzz harness"
if (cd "$build" && ctest -R '^agent\.PlatformRegistry\.EveryPlatformImplementsTheInterface$' \
  --output-on-failure >"$work/ctest_interface.txt" 2>&1) && grep -q '100% tests passed, 0 tests failed out of 1$' "$work/ctest_interface.txt"; then
  pass "PlatformRegistry.EveryPlatformImplementsTheInterface on the registered platforms ($platform)"
else
  tail -40 "$work/ctest_interface.txt" >&2
  fail "PlatformRegistry.EveryPlatformImplementsTheInterface"
fi
if (cd "$build" && ctest -R "^fuzz\.assembler_$platform\$" --output-on-failure >"$work/ctest_fuzz.txt" 2>&1) &&
  grep -q '100% tests passed, 0 tests failed out of 1$' "$work/ctest_fuzz.txt"; then
  pass "fuzz.assembler_$platform: the harness replays its $(find "$src/tests/fuzz/seeds/assembler_$platform" -type f | wc -l) seeds"
else
  tail -40 "$work/ctest_fuzz.txt" >&2
  fail "fuzz.assembler_$platform"
fi

echo "== kcraft eval on the RTL, the functional model agreeing"
# kcraft's commands keep their results store (results/kcraft.db) under the working directory: the scratch
# copy's, not the source tree's.
cd "$work"
if [ "$("$kcraft" platforms | awk 'NR==1 {print $1}')" = "$platform" ]; then
  pass "kcraft platforms lists $platform (the default: the only platform)"
else
  fail "kcraft platforms: $("$kcraft" platforms | head -3)"
fi
"$kcraft" baseline "$platform" relu --config C1 >"$work/k.s" 2>"$work/baseline.txt" || fail "kcraft baseline $platform relu"
if "$kcraft" eval "$platform" relu "$work/k.s" --config C1 >"$work/eval.txt" 2>&1 &&
  grep -q '^pass:' "$work/eval.txt" && grep -q '^functional model: agree' "$work/eval.txt"; then
  pass "kcraft eval $platform relu k.s --config C1: $(head -1 "$work/eval.txt" | cut -d';' -f1), model agrees"
else
  cat "$work/eval.txt" >&2
  fail "kcraft eval $platform relu k.s --config C1"
fi

echo "== kcraft validate"
if "$kcraft" validate "$platform" --programs 50 --seed 1 >"$work/validate.txt" 2>&1 && grep -q 'agree on' "$work/validate.txt"; then
  pass "kcraft validate $platform --programs 50: $(grep -o '[0-9]* instructions issued' "$work/validate.txt")"
else
  cat "$work/validate.txt" >&2
  fail "kcraft validate $platform --programs 50"
fi

echo "== kcraft bench"
# The baseline agent: the quickest sweep that still evaluates every supported cell.
if (cd "$work" && "$kcraft" bench --platforms "$platform" --agents baseline --progress none --db "$work/bench.db" \
  >"$work/bench.txt" 2>&1) &&
  grep -Eq '^gemm +1 +\| 2/2' "$work/bench.txt" && grep -Eq '^relu +1 +\| 2/2' "$work/bench.txt" &&
  grep -Eq '^relu +1 +1\.00x.* -- +-- +-- ' "$work/bench.txt"; then
  pass "kcraft bench --platforms $platform: relu and gemm solved at C1 and C2, C3-C5 unsupported"
else
  cat "$work/bench.txt" >&2
  fail "kcraft bench --platforms $platform"
fi

echo "== the MCP tools"
python3 - "$work/k.s" >"$work/mcp_in.jsonl" <<'PY'
import json, sys
code = open(sys.argv[1]).read()
for m in [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "write_code", "arguments": {"code": code}}},
    {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "run_eval", "arguments": {}}},
]:
    print(json.dumps(m))
PY
if "$kcraft" mcp --platform "$platform" --task relu --quiet <"$work/mcp_in.jsonl" >"$work/mcp_out.jsonl" 2>"$work/mcp_err.txt" &&
  python3 - "$work/mcp_out.jsonl" <<'PY'
import json, sys
replies = {r.get("id"): r for r in map(json.loads, open(sys.argv[1]))}
tools = [t["name"] for t in replies[2]["result"]["tools"]]
assert {"write_code", "run_eval", "profile", "submit"} <= set(tools), tools
assert not replies[3]["result"].get("isError"), replies[3]
text = replies[4]["result"]["content"][0]["text"]
assert text.startswith("pass:"), text
PY
then
  pass "kcraft mcp --platform $platform: tools/list, write_code and run_eval (pass)"
else
  cat "$work/mcp_out.jsonl" "$work/mcp_err.txt" >&2
  fail "kcraft mcp --platform $platform"
fi

echo "== the tutorial's worked example: VSUB"
patch_file="$here/docs/examples/new_platform/toyvec_vsub.patch"
if (cd "$src" && GIT_CEILING_DIRECTORIES="$work" git apply --check "$patch_file") 2>"$work/patch.txt"; then
  pass "docs/examples/new_platform/toyvec_vsub.patch applies to the scaffold ($(grep -c '^diff --git' "$patch_file") files)"
else
  cat "$work/patch.txt" >&2
  fail "docs/examples/new_platform/toyvec_vsub.patch does not apply to the scaffold: make it again (docs/platforms.md)"
  worked=0
fi
if [ "$worked" -eq 1 ]; then
  scratch_apply "$src" "$work" "$patch_file" >"$work/apply.txt" 2>&1 || fatal "the worked example applies"
  scratch_build "$src" "$work/build_vsub.log" "$jobs" kcraft "kcraft_${platform}_model_tests" \
    "kcraft_${platform}_rtl_tests" kcraft_platform_interface_tests "kcraft_fuzz_replay_assembler_$platform" ||
    fatal "the scratch copy builds with VSUB"
  if (cd "$build" && ctest -R "^$platform\\.|^agent\\.PlatformRegistry\\.EveryPlatformImplementsTheInterface\$|^fuzz\\.assembler_$platform\$" \
    --output-on-failure >"$work/ctest_vsub.txt" 2>&1) && grep -q '100% tests passed' "$work/ctest_vsub.txt"; then
    pass "with VSUB: $(grep -o '[0-9]*% tests passed.*' "$work/ctest_vsub.txt" | head -1)"
  else
    tail -40 "$work/ctest_vsub.txt" >&2
    fail "the tests with VSUB"
  fi
  if "$kcraft" validate "$platform" --programs 100 --seed 1 >"$work/validate_vsub.txt" 2>&1 &&
    grep -q 'agree on' "$work/validate_vsub.txt" && "$kcraft" isa "$platform" >"$work/isa_vsub.md" &&
    grep -q '^#### VSUB$' "$work/isa_vsub.md"; then
    pass "kcraft validate $platform with VSUB in the random programs: agree; kcraft isa $platform documents VSUB"
  else
    head -20 "$work/validate_vsub.txt" >&2
    fail "kcraft validate / isa $platform with VSUB"
  fi
fi

finish
