#!/usr/bin/env bash
# scripts/lib/quiet_build.sh on the output of a make and of a Ninja build: one line per step, everything in
# the log, and on failure the compiler's output without the progress lines.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$here/scripts/lib/quiet_build.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
expect_same() {  # NAME EXPECTED_FILE ACTUAL_FILE
  if ! diff -u "$2" "$3"; then
    echo "FAIL: $1" >&2
    failures=$((failures + 1))
  fi
}

cat > "$work/ninja.out" <<'OUT'
[1/6] Building CXX object isa/CMakeFiles/kcraft_isa.dir/Unity/unity_0_cxx.cxx.o
[2/6] Verilating systolic_top as Vsystolic_default
[3/6] Linking CXX static library isa/libkcraft_isa.a
[4/6] Building CXX object cli/CMakeFiles/kcraft.dir/main.cpp.o
FAILED: cli/CMakeFiles/kcraft.dir/main.cpp.o
/usr/bin/c++ -O3 -std=c++17 -c /src/cli/main.cpp -o cli/CMakeFiles/kcraft.dir/main.cpp.o
/src/cli/main.cpp:3:5: error: 'undeclared' was not declared in this scope
ninja: build stopped: subcommand failed.
OUT
cat > "$work/ninja.steps" <<'OUT'
  [    2/6] Verilating systolic_top as Vsystolic_default
  [    3/6] Linking CXX static library isa/libkcraft_isa.a
OUT
cat > "$work/ninja.failure" <<'OUT'
FAILED: cli/CMakeFiles/kcraft.dir/main.cpp.o
/usr/bin/c++ -O3 -std=c++17 -c /src/cli/main.cpp -o cli/CMakeFiles/kcraft.dir/main.cpp.o
/src/cli/main.cpp:3:5: error: 'undeclared' was not declared in this scope
ninja: build stopped: subcommand failed.
OUT
quiet_build_progress "$work/ninja.log" < "$work/ninja.out" > "$work/ninja.printed"
expect_same "Ninja: one line per model and link" "$work/ninja.steps" "$work/ninja.printed"
expect_same "Ninja: the log holds everything" "$work/ninja.out" "$work/ninja.log"
quiet_build_failure "$work/ninja.log" > "$work/ninja.shown"
expect_same "Ninja: a failure shows the compiler's output" "$work/ninja.failure" "$work/ninja.shown"

cat > "$work/make.out" <<'OUT'
make[2]: Entering directory '/build'
[  5%] Building CXX object isa/CMakeFiles/kcraft_isa.dir/a.cpp.o
[ 10%] Linking CXX static library libkcraft_isa.a
[ 10%] Built target kcraft_isa
[ 55%] Verilating vliw_top as Vvliw_small
make[2]: Leaving directory '/build'
[100%] Linking CXX executable ../kcraft
[100%] Built target kcraft
OUT
cat > "$work/make.steps" <<'OUT'
  [    10%] Linking CXX static library libkcraft_isa.a
  [    10%] built kcraft_isa
  [    55%] Verilating vliw_top as Vvliw_small
  [   100%] Linking CXX executable ../kcraft
  [   100%] built kcraft
OUT
quiet_build_progress "$work/make.log" < "$work/make.out" > "$work/make.printed"
expect_same "make: one line per step" "$work/make.steps" "$work/make.printed"
expect_same "make: the log holds everything" "$work/make.out" "$work/make.log"
quiet_build_failure "$work/make.log" > "$work/make.shown"
: > "$work/empty"
expect_same "make: nothing but progress and directory lines to show" "$work/empty" "$work/make.shown"

[ "$failures" -eq 0 ] && echo "quiet_build: all checks passed"
exit "$failures"
