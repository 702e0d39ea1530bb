#!/usr/bin/env bash
# Set up (installs missing Debian packages, builds everything including the tests), then run the test
# suite with ctest.
#
#   scripts/test.sh [--sanitize | --long] [ctest arguments...]
#
#   (none)      the test suite: every test but the long checks below (about 10 minutes on 2 cores)
#   --long      the long checks only: yosys synthesis of each platform (label synth), the Verilator
#               line/toggle coverage builds (label coverage_build), the scratch builds of the extension
#               examples (label scratch_build), the longest decoder-block runs on the RTL, and the larger
#               members of rvv's QEMU families (C3-C5 of both references, the knob combinations at C2),
#               kcraft serve under 32 MCP SDK clients (label long_load; scripts/serve_load_test.sh),
#               about 20 minutes on 2 cores (docs/simulation-speed.md, "CI")
#   --sanitize  the suite on an AddressSanitizer + UndefinedBehaviorSanitizer build (build-asan/);
#               any sanitizer report fails the test that caused it (docs/sanitizers.md).
# Extra arguments go to ctest (e.g. -R systolic).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

setup_args=(--tests)
build_dir="$here/build"
# The long checks leave the suite for scripts/test.sh --long: yosys on each platform's RTL (about 6 CPU
# minutes), the coverage builds (a Verilated model with coverage per platform, about 6 CPU minutes), the
# scratch copies of the tree that docs/extending.md's examples build (about 7 CPU minutes with a cold
# ccache), the decoder blocks on the RTL where they take longest (rvv's 40-50M cycles, vliw's small
# configuration; about 3.5 CPU minutes; conv_block and vliw's default configuration stay in the suite), and
# rvv's template and compiler baseline under QEMU at C3-C5 and its every-knob check at C2 (the same code as
# C1-C2 and C1 on more data; about 4 CPU minutes), and kcraft serve under 32 MCP SDK clients (label long_load,
# about 2 minutes; the suite's serve.sdk_load runs 4). CI's 45 minutes hold the normal suite, the sanitizer
# suite and the fuzzers' smoke run; the rest runs here (docs/simulation-speed.md, "CI").
long_labels='synth|coverage_build|scratch_build|long_load'
long_tests='RvvCompositeOnRtl.*decoder_block|Level3/CompositeBaselines.*decoder_block.*_small|RvvBaseline\.[A-Za-z0-9]+/[a-z0-9_]+_C[345] |RvvKnobs\.EveryCombination[A-Za-z]*/[a-z0-9_]+_C2 '
ctest_args=(-LE "$long_labels" -E "$long_tests")
if [ "${1:-}" = "--long" ]; then
  shift
  "$here/scripts/setup.sh" "${setup_args[@]}" "$build_dir"
  cd "$build_dir"
  status=0
  ctest --output-on-failure -j "${KCRAFT_JOBS:-$(nproc)}" -L "$long_labels" "$@" || status=$?
  ctest --output-on-failure -j "${KCRAFT_JOBS:-$(nproc)}" -R "$long_tests" "$@" || status=$?
  exit "$status"
elif [ "${1:-}" = "--sanitize" ]; then
  shift
  setup_args=(--sanitize)
  build_dir="$here/build-asan"
  # Leaks, use-after-free, overflows and undefined behaviour all end the process with a non-zero status.
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
  export LSAN_OPTIONS="suppressions=$here/scripts/sanitizer/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  # The yosys synthesis checks run yosys on the RTL, none of our instrumented code (scripts/test.sh --long
  # runs them).
  # systolic.extend_example (label scratch_build) and scripts.new_platform_example (label scaffold_build)
  # configure and build their own uninstrumented copies of the tree (docs/extending.md,
  # docs/platforms.md): nothing of them runs under the sanitizers.
  # The decoder blocks on the RTL, rvv's (tens of millions of cycles each, 1.5 min apiece uninstrumented) and
  # vliw's (3.5 min apiece instrumented on small), run the same instrumented code as conv_block's composite
  # and every other RTL test of their platform, several times slower.
  # The RTL coverage tests of every platform (label coverage_build) each build a Verilated coverage model in
  # build-asan/test-variant-cache: about 3 and 6 CPU minutes of uninstrumented model code (docs/coverage.md);
  # the instrumented part (the .dat reader) is in tb.RtlCoverage.
  # Exhaustive families run their smallest members only: every task's template on the vliw model at C1-C2
  # and rvv's template and compiler baseline under QEMU at C1 (C2-C5 are the same code on more data), and not the every-knob-combination tests of the vliw and rvv
  # templates nor the level-3 wrong-kernel checks (the same assembler, model and reference code as the
  # runs that stay, for minutes: 1,253 of the 2,453 test-seconds of the instrumented run).
  # The RTL families run on each platform's default hardware configuration only (the small/wide ones
  # run the same testbench code, which is what is instrumented, on another Verilated model), and rvv's
  # RTL baselines at level 1 (its level-2 templates are the same testbench code on longer runs).
  # The wrong-kernel checks of the level-2 and level-3 tasks and conv2d run the same tolerance code as the
  # level-1 ones on larger tensors; vliw's small-tile special forms are an RTL family on the second
  # configuration; the comparison scripts' check runs kcraft commands the other tests run.
  # kcraft serve's 32-client load test (label long_load, scripts/serve_load_test.sh) runs the same server code
  # as serve.sdk_load's 4 clients, for minutes.
  # The four sweep-planning tests that plan the full sweep over
  # and over (bench.Shard.ShardsAreDisjoint... plans it 27 times) are 108 s of the same instrumented planner
  # that the other bench.Plan tests and the BenchE2E sweeps run.
  # docs/sanitizers.md lists the measurements.
  ctest_args=(-LE 'synth|scratch_build|coverage_build|scaffold_build|long_load'
              -E 'RvvCompositeOnRtl.*decoder_block|Level3/CompositeBaselines.*decoder_block|VliwBaseline\.AssemblesCleanAndPassesOnTheModel/.*_C[345]_|VliwBaselineKnobs\.|RvvKnobs\.EveryCombination|RvvBaseline\.[A-Za-z0-9]+/[a-z0-9_]+_C[2345] |Baselines\.PassOnTheRtlForEveryConfiguration/small_|Baselines\.PassOnTheRtlWithTheModelAgreeing/[a-z0-9_]+_small|CompositeBaselines\.PassOnTheRtlWithEveryPhaseMarked/[a-z0-9_]+_small|RvvBaselineOnRtl\.C1PassesWithQemuAgreeing/(attention|mha|gqa|mqa|flash_attention|ffn|swiglu)|ToleranceSanity\.WrongKernelsFail/(decoder_block|conv_block|conv2d|ffn|swiglu|attention|mha|gqa|mqa|flash_attention)|VliwSmallTile\.|scripts\.compare_builds_and_speed|bench\.Shard\.ShardsAreDisjointAndTheirUnionIsTheSweep|bench\.Plan\.(EveryTaskConfigurationTargetAgentAndAttempt|LevelThreeCellsRunWithABaselineOrAreUnsupportedWithAReason|TheQuickSweepListsWhatItLeavesOutAndFullRunsEverything)')
fi
"$here/scripts/setup.sh" "${setup_args[@]}" "$build_dir"
jobs="${KCRAFT_JOBS:-$(nproc)}"
cd "$build_dir"
exec ctest --output-on-failure -j "$jobs" "${ctest_args[@]}" "$@"
