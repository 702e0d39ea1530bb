#!/usr/bin/env bash
# The worked example of docs/extending.md, end to end: a scratch copy of this source tree gains the systolic
# instruction V_ABS_V from docs/examples/extending/v_abs_v.patch, then
#   1. the patch is what the doc shows (each file's diff is one ```diff block of docs/extending.md);
#   2. kcraft_isagen emits V_ABS_V into the C++ tables, the SystemVerilog package and the reference, and
#      the ISA toolchain's tests (tests/isa) pass on them;
#   3. the assembler assembles a program that uses it (`kcraft check`);
#   4. the RTL builds with Verilator (-Wall, so it also lints clean);
#   5. the functional model executes it (the patch's model test, against hand-computed results);
#   6. the RTL and the model agree on the patch's directed program and on random programs, and the
#      first 20 programs of `kcraft validate systolic` execute every instruction, V_ABS_V included;
#   7. `kcraft validate systolic --programs 20` finds RTL and model in agreement;
#   8. the RTL's synthesis form (the vector unit's lanes one block each, for yosys) runs random programs,
#      V_ABS_V among their instructions, exactly like its simulation form (scripts/compare_systolic_rtl.sh);
#   9. `kcraft isa systolic` lists V_ABS_V.
#
#   scripts/extend_example.sh [--work DIR] [--keep]
#
#   --work DIR  where the copy and its build go (default: a new temporary directory); a DIR kept from an
#               earlier run is reused, its build incrementally
#   --keep      keep the temporary directory (it is removed after a successful run otherwise)
#
# The copy and its build: scripts/lib/scratch_tree.sh (the files git lists; only the extended platform
# registered; with ccache, unchanged files hit the main build's compiles). This tree is not changed.
# Ends with "extend example: N passed, M failed"; the exit status is non-zero when a check failed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/scratch_tree.sh
source "$here/scripts/lib/scratch_tree.sh"
example="extend example"
platform=systolic
examples="$here/docs/examples/extending"
patch_file="$examples/v_abs_v.patch"
doc="$here/docs/extending.md"

work=""
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --work)
      [ $# -ge 2 ] || { echo "extend_example: --work needs a directory" >&2; exit 2; }
      work="$2"
      keep=1
      shift 2
      ;;
    --keep) keep=1; shift ;;
    *) echo "extend_example: unknown argument '$1' (expected --work DIR or --keep)" >&2; exit 2 ;;
  esac
done
scratch_work
src="$work/src"
build="$src/build"
jobs="${KCRAFT_JOBS:-$(nproc)}"

echo "== the patch is what docs/extending.md shows"
if python3 - "$doc" "$patch_file" <<'EOF'; then pass "docs/extending.md shows every file of the patch, verbatim"; else fail "docs/extending.md and docs/examples/extending/v_abs_v.patch differ"; fi
import re, sys
doc, patch = (open(p).read() for p in sys.argv[1:3])
blocks = re.findall(r"^```diff\n(.*?)^```$", doc, re.S | re.M)
files = re.split(r"(?m)^(?=diff --git )", patch)
files = [f for f in files if f]
missing = [f.splitlines()[0] for f in files if f not in blocks]
extra = [b.splitlines()[0] if b else "(empty)" for b in blocks if b not in files]
for m in missing: print(f"  not shown in the doc (or shown differently): {m}", file=sys.stderr)
for e in extra: print(f"  a diff block of the doc that is not in the patch: {e}", file=sys.stderr)
sys.exit(1 if missing or extra or not files else 0)
EOF

echo "== scratch copy in $src"
scratch_copy "$here" "$src" "$platform"

echo "== apply docs/examples/extending/v_abs_v.patch"
scratch_apply "$src" "$work" "$patch_file" || fatal "the patch applies to this tree"
pass "the patch applies to this tree"

echo "== configure and build (the generator, the $platform RTL, its tests, kcraft)"
scratch_build "$src" "$work/build.log" "$jobs" kcraft kcraft_${platform}_model_tests kcraft_${platform}_rtl_tests \
  kcraft_isa_tests ${platform}_netlist_programs || fatal "the scratch copy builds"
pass "the scratch copy builds: generator, Verilated RTL (-Wall), functional model, tests, kcraft"

echo "== the generator emits the new instruction"
generated="$build/generated/isa"
if grep -q 'V_ABS_V = 0x45,' "$generated/${platform}_isa.h"; then
  pass "C++ tables: Op::V_ABS_V = 0x45"
else
  fail "C++ tables: no Op::V_ABS_V = 0x45 in ${platform}_isa.h"
fi
if grep -q "OP_V_ABS_V *= 7'h45;" "$generated/${platform}_isa_pkg.sv"; then
  pass "SystemVerilog package: OP_V_ABS_V = 7'h45"
else
  fail "SystemVerilog package: no OP_V_ABS_V = 7'h45 in ${platform}_isa_pkg.sv"
fi

# tests/isa: the loader against the generated tables (the patch updates the instruction count), the
# assembler, the disassembler and the SystemVerilog package, all over the new YAML.
if "$build/tests/isa/kcraft_isa_tests" --gtest_brief=1 >"$work/isa_tests.txt" 2>&1 &&
  grep -q 'PASSED  \] [1-9]' "$work/isa_tests.txt"; then
  pass "ISA toolchain tests: generated tables equal the YAML, assembler, disassembler, SystemVerilog package"
else
  cat "$work/isa_tests.txt" >&2
  fail "ISA toolchain tests (tests/isa)"
fi

echo "== the assembler assembles a program that uses it"
kcraft="$build/kcraft"
if "$kcraft" check "$platform" "$examples/abs_rows.s" >"$work/check.txt" 2>&1 && grep -q ': ok, ' "$work/check.txt"; then
  pass "kcraft check $platform abs_rows.s"
else
  fail "kcraft check $platform abs_rows.s: $(cat "$work/check.txt")"
fi

echo "== the functional model executes it"
# gtest exits 0 when a filter matches nothing: the summary must count the tests asked for.
if "$build/tests/$platform/kcraft_${platform}_model_tests" --gtest_brief=1 \
  --gtest_filter='SystolicModel.AbsClearsTheSignBit:SystolicModel.RandomCampaignUsesEveryInstruction' \
  >"$work/model.txt" 2>&1 && grep -q 'PASSED  \] 2 tests' "$work/model.txt"; then
  pass "model: V_ABS_V's results; the first 20 programs of a validate campaign execute every instruction"
else
  cat "$work/model.txt" >&2
  fail "model tests"
fi

echo "== the RTL and the model agree"
if "$build/tests/$platform/kcraft_${platform}_rtl_tests" --gtest_brief=1 \
  --gtest_filter='SystolicRtl.DirectedProgramsCoverEveryInstruction:Configs/SystolicRtlConfig.*/default:Configs/SystolicRtlLatency.*/default' \
  >"$work/rtl.txt" 2>&1 && grep -q 'PASSED  \] [1-9]' "$work/rtl.txt"; then
  pass "RTL against the model: directed programs (every instruction has one), random programs, errors, latencies"
else
  cat "$work/rtl.txt" >&2
  fail "RTL tests"
fi
if "$kcraft" validate "$platform" --programs 20 --seed 1 >"$work/validate.txt" 2>&1 &&
  grep -q 'agree on' "$work/validate.txt"; then
  pass "kcraft validate $platform --programs 20: $(grep -o '[0-9]* instructions issued' "$work/validate.txt")"
else
  cat "$work/validate.txt" >&2
  fail "kcraft validate $platform --programs 20"
fi

if "$src/scripts/compare_${platform}_rtl.sh" "$build/tests/$platform/${platform}_netlist_programs" --synthesis-form tiny \
  --pkg "$generated/${platform}_isa_pkg.sv" --work "$work/synthesis_form" >"$work/synthesis_form.txt" 2>&1; then
  pass "the RTL's synthesis form agrees with its simulation form: $(grep -o '[0-9]* cycles compared' "$work/synthesis_form.txt")"
else
  cat "$work/synthesis_form.txt" >&2
  fail "the RTL's synthesis form against its simulation form (scripts/compare_${platform}_rtl.sh --synthesis-form)"
fi

echo "== kcraft isa lists it"
"$kcraft" isa "$platform" >"$work/isa.md"
# shellcheck disable=SC2016  # the backquotes are the reference's Markdown, not a command
syntax='`V_ABS_V rd, rs1[, off]`'
if grep -q '^#### V_ABS_V' "$work/isa.md" && grep -qF "$syntax" "$work/isa.md"; then
  pass "kcraft isa $platform: V_ABS_V has its section and syntax"
else
  fail "kcraft isa $platform does not list V_ABS_V"
fi

finish
