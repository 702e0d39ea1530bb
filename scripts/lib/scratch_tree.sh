# A scratch copy of this source tree with a patch applied, built for one platform: the worked examples
# of docs/extending.md (scripts/extend_example.sh) and docs/regressions.md (scripts/regression_example.sh)
# change the RTL in such a copy, never in the tree itself. Sourced by those scripts (bash).

# scratch_copy HERE SRC PLATFORM: SRC becomes a copy of the files git lists in HERE (tracked and untracked,
# not ignored, so no build output; every file but build*/ outside a git checkout). A previous SRC/build is
# kept (the build is then incremental, with the new sources). Only PLATFORM stays registered (the other
# platforms' tb/ folders are left out, docs/platforms.md §6), so its RTL is the only one Verilated.
scratch_copy() {
  local here="$1" src="$2" platform="$3" list folder
  rm -rf "$src.new"
  mkdir -p "$src.new"
  if git -C "$here" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # Files deleted in the work tree but still tracked are left out.
    git -C "$here" ls-files -z --cached --others --exclude-standard |
      (cd "$here" && while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done) |
      tar -C "$here" --null -T - -cf - | tar -C "$src.new" -xf -
  else
    tar -C "$here" --exclude='./build*' -cf - . | tar -C "$src.new" -xf -
  fi
  if [ -d "$src/build" ]; then mv "$src/build" "$src.new/build"; fi
  rm -rf "$src"
  mv "$src.new" "$src"
  for list in "$src"/tb/*/CMakeLists.txt; do
    folder="$(basename "$(dirname "$list")")"
    if [ "$folder" != "$platform" ] && grep -q '^kcraft_register_platform(' "$list"; then
      rm -rf "${src:?}/tb/$folder"
    fi
  done
}

# scratch_apply SRC WORK PATCH: applies PATCH (paths relative to the tree) to the copy.
scratch_apply() {
  # The ceiling keeps git from finding a repository around the work directory (a work directory inside a
  # build tree of a checkout).
  (cd "$1" && GIT_CEILING_DIRECTORIES="$2" git apply --verbose "$3")
}

# scratch_build SRC LOG JOBS TARGET...: configures SRC/build (the default hardware configuration, tests on)
# and builds the targets, the output in LOG. With ccache, the same relative paths as the main build's
# (scripts/setup.sh): files the patch did not change hit its compiles.
scratch_build() {
  local src="$1" log="$2" jobs="$3"
  shift 3
  local launcher=() generator=()
  # The generator scripts/setup.sh gives a new build directory, so that the compile commands match its.
  command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
  if command -v ccache >/dev/null 2>&1; then
    launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_BASEDIR=$src;CCACHE_SLOPPINESS=pch_defines,time_macros;ccache")
  fi
  cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release -DKCRAFT_HW_CONFIGS=default -DKCRAFT_BUILD_TESTS=ON \
    "${generator[@]}" "${launcher[@]}" >"$log" 2>&1 || { tail -30 "$log" >&2; return 1; }
  cmake --build "$src/build" -j "$jobs" --target "$@" >>"$log" 2>&1 ||
    { grep -E -B2 -A12 'error|Error' "$log" | head -80 >&2; return 1; }
}

# The checks of a worked example. The script sets `example` (its name in messages), `work` (its work
# directory, made absolute by scratch_work) and `keep` (1: keep the work directory after a success).
passed=0
failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1" >&2; failed=$((failed + 1)); }
# The summary line "<example>: N passed, M failed" and the exit status; a success removes the work
# directory unless it is kept.
finish() {
  echo "$example: $passed passed, $failed failed"
  if [ "$failed" -eq 0 ] && [ "$keep" -eq 0 ]; then rm -rf "$work"; fi
  if [ "$failed" -eq 0 ]; then exit 0; else exit 1; fi
}
# A step whose failure makes the later ones meaningless ends the run, keeping the work directory.
fatal() {
  fail "$1"
  echo "$example: the scratch copy is in $work" >&2
  keep=1
  finish
}

# scratch_work: `work` made absolute, a new temporary directory when it is empty.
scratch_work() {
  if [ -z "$work" ]; then work="$(mktemp -d "${TMPDIR:-/tmp}/kcraft-${example// /-}.XXXXXX")"; fi
  mkdir -p "$work"
  work="$(cd "$work" && pwd)"
}
