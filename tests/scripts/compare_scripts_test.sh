#!/usr/bin/env bash
# scripts/compare_builds.sh and scripts/compare_speed.py on one binary against itself (every kernel the
# same, rates for every workload) and against a wrapper that alters one instruction trace (a difference,
# named, exit 1).
#
#   tests/scripts/compare_scripts_test.sh <kcraft>
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
kcraft="${1:?usage: $0 <kcraft>}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
expect_in() {  # FILE TEXT
  grep -qF -- "$2" "$1" || { fail "$1 lacks '$2'"; cat "$1" >&2; }
}

# The same binary on both sides: every kernel identical, the compiler baseline included where there is one.
bash "$here/scripts/compare_builds.sh" systolic "$kcraft" "$kcraft" --tasks relu --work "$work/s" > "$work/same.out" ||
  fail "compare_builds systolic against itself exited $?"
expect_in "$work/same.out" "same   relu.C1.template"
expect_in "$work/same.out" "1 kernels, 0 differ"
bash "$here/scripts/compare_builds.sh" rvv "$kcraft" "$kcraft" --tasks relu --work "$work/r" > "$work/rvv.out" ||
  fail "compare_builds rvv against itself exited $?"
expect_in "$work/rvv.out" "same   relu.C1.template"
expect_in "$work/rvv.out" "same   relu.C1.compiler"
expect_in "$work/rvv.out" "2 kernels, 0 differ"

# A build whose instruction trace differs in one line.
cat > "$work/altered" <<WRAP
#!/usr/bin/env bash
"$kcraft" "\$@"
status=\$?
prev=""
for arg in "\$@"; do
  if [ "\$prev" = --itrace ]; then echo "9 0x0 altered" >> "\$arg"; fi
  prev="\$arg"
done
exit \$status
WRAP
chmod +x "$work/altered"
if bash "$here/scripts/compare_builds.sh" systolic "$work/altered" "$kcraft" --tasks relu --work "$work/a" \
  > "$work/differ.out"; then
  fail "compare_builds passed a build whose trace differs"
fi
expect_in "$work/differ.out" "DIFFER relu.C1.template"
expect_in "$work/differ.out" "itrace differ"

# Speed: one round, one workload, both sides measured.
/usr/bin/env python3 "$here/scripts/compare_speed.py" systolic "$kcraft" "$kcraft" --rounds 1 \
  --workloads relu:C2 --json "$work/speed.json" > "$work/speed.out" 2> "$work/speed.err" ||
  { fail "compare_speed exited $?"; cat "$work/speed.err" >&2; }
expect_in "$work/speed.out" "simulated cycles per CPU-second"
expect_in "$work/speed.out" "| relu C2 | "
expect_in "$work/speed.out" "geometric mean"
expect_in "$work/speed.out" "| range |"
# Instructions: deterministic, so one binary against itself is exactly 1.
/usr/bin/env python3 "$here/scripts/compare_speed.py" systolic "$kcraft" "$kcraft" --workloads relu:C2 \
  --instructions > "$work/instructions.out" 2> "$work/instructions.err" ||
  { fail "compare_speed --instructions exited $?"; cat "$work/instructions.err" >&2; }
expect_in "$work/instructions.out" "instructions of the Verilated model and its driver per simulated cycle"
expect_in "$work/instructions.out" "| relu C2 | "
expect_in "$work/instructions.out" "| 1.000× |"
if /usr/bin/env python3 "$here/scripts/compare_speed.py" systolic "$kcraft" "$kcraft" --workloads relu > /dev/null 2>&1; then
  fail "compare_speed took a workload without a configuration"
fi

[ "$failures" -eq 0 ] && echo "compare scripts: all checks passed"
[ "$failures" -eq 0 ]
