#!/usr/bin/env bash
# Set up (installs missing Debian packages, builds everything including the tests), then run the whole
# test suite with ctest.
#
#   scripts/test.sh [--sanitize] [ctest arguments...]
#
#   --sanitize  the same suite on an AddressSanitizer + UndefinedBehaviorSanitizer build (build-asan/);
#               any sanitizer report fails the test that caused it (docs/sanitizers.md).
# Extra arguments go to ctest (e.g. -R systolic).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

setup_args=(--tests)
build_dir="$here/build"
ctest_args=()
if [ "${1:-}" = "--sanitize" ]; then
  shift
  setup_args=(--sanitize)
  build_dir="$here/build-asan"
  # Leaks, use-after-free, overflows and undefined behaviour all end the process with a non-zero status.
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
  export LSAN_OPTIONS="suppressions=$here/scripts/sanitizer/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  # The yosys synthesis checks run yosys on the RTL, none of our instrumented code: the normal suite has
  # them, a second run would only cost minutes.
  # systolic.extend_example (label scratch_build) configures and builds its own uninstrumented copy of the
  # tree (docs/extending.md): nothing of it runs under the sanitizers.
  # The decoder blocks on the RTL, rvv's (tens of millions of cycles each, 1.5 min apiece uninstrumented) and
  # vliw's (3.5 min apiece instrumented on small), run the same instrumented code as conv_block's composite
  # and every other RTL test of their platform, several times slower.
  # The vliw and rvv RTL coverage tests (label coverage_build) each build a Verilated coverage model in
  # build-asan/test-variant-cache: about 3 and 6 CPU minutes of uninstrumented model code (docs/coverage.md);
  # the instrumented part (the .dat reader) is in tb.RtlCoverage and systolic.SystolicRtlCoverage.
  ctest_args=(-LE 'synth|scratch_build|coverage_build' -E 'RvvCompositeOnRtl.*decoder_block|Level3/CompositeBaselines.*decoder_block')
fi
"$here/scripts/setup.sh" "${setup_args[@]}" "$build_dir"
jobs="${KCRAFT_JOBS:-$(nproc)}"
cd "$build_dir"
exec ctest --output-on-failure -j "$jobs" "${ctest_args[@]}" "$@"
