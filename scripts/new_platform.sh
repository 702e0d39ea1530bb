#!/usr/bin/env bash
# Writes a minimal, working platform NAME into a kcraft source tree (docs/platforms.md §6): the template
# scripts/new_platform/template/ (a real platform named `myaccel`: ISA YAML, RTL on the shared host
# interface, functional model, testbench, registration, relu and gemm baselines at C1-C2, guide, tests, the
# assembler's fuzz harness tests/fuzz/assembler_NAME.cpp and its seeds),
# with `myaccel`, `Myaccel` and `MYACCEL` replaced by NAME in its three casings, in file contents and paths.
#
#   scripts/new_platform.sh NAME [--tree DIR]
#
#   NAME        lower_snake_case ([a-z][a-z0-9_]*), not a platform (or folder) of any room already, not a
#               reserved word
#   --tree DIR  the source tree to write into (default: the tree this script is in)
#
# Prints every file it wrote with its line count, and what to do next. Nothing else in the tree changes:
# the rooms pick up their new folders when CMake next configures (kcraft_add_platform_subdirectories).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
template="$here/scripts/new_platform/template"
token=myaccel

usage() { echo "usage: scripts/new_platform.sh NAME [--tree DIR]" >&2; exit 2; }
name=""
tree="$here"
while [ $# -gt 0 ]; do
  case "$1" in
    --tree) [ $# -ge 2 ] || usage; tree="$2"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "new_platform: unknown option '$1'" >&2; usage ;;
    *) [ -z "$name" ] || usage; name="$1"; shift ;;
  esac
done
[ -n "$name" ] || usage
tree="$(cd "$tree" && pwd)"

if ! [[ "$name" =~ ^[a-z][a-z0-9_]*$ ]]; then
  echo "new_platform: '$name' is not a platform name: lower_snake_case, [a-z][a-z0-9_]*" >&2
  exit 2
fi
# Words a platform name cannot be: the rooms' shared folders, C++ and SystemVerilog keywords the name
# becomes part of as a namespace or package prefix, and the template's own token.
reserved=" common tools golden specs scripts fuzz agent cli build docs tests tasks isa rtl tb
  and asm auto bool break case catch char class const continue default delete do double else enum explicit
  export extern false float for friend goto if inline int long module namespace new not operator or private
  protected public register return short signed sizeof static struct switch template this throw true try
  typedef union unsigned using virtual void volatile while xor logic wire reg begin end function task
  package interface input output $token "
if printf '%s\n' $reserved | grep -qx -- "$name"; then
  echo "new_platform: '$name' is a reserved word (a shared folder, a C++ or SystemVerilog keyword)" >&2
  exit 2
fi
for room in rtl isa tasks tb tests; do
  if [ -e "$tree/$room/$name" ]; then
    echo "new_platform: '$name' exists already: $tree/$room/$name" >&2
    exit 2
  fi
done
for file in "isa/$name.yaml" "docs/$name.md" "tests/fuzz/assembler_$name.cpp" "tests/fuzz/seeds/assembler_$name"; do
  if [ -e "$tree/$file" ]; then
    echo "new_platform: '$name' exists already: $tree/$file" >&2
    exit 2
  fi
done

capitalized="$(sed -E 's/(^|_)([a-z0-9])/\U\2/g' <<<"$name")"  # toy_vec -> ToyVec
upper="$(tr '[:lower:]' '[:upper:]' <<<"$name")"
echo "new_platform: writing platform '$name' into $tree"
written=()
while IFS= read -r -d '' source; do
  relative="${source#"$template"/}"
  target="$tree/${relative//$token/$name}"
  mkdir -p "$(dirname "$target")"
  sed -e "s/$token/$name/g" -e "s/Myaccel/$capitalized/g" -e "s/MYACCEL/$upper/g" "$source" >"$target"
  [ -x "$source" ] && chmod +x "$target"
  written+=("$target")
done < <(find "$template" -type f -print0 | sort -z)
# The name's length moves line breaks: the C++ files are formatted again with the tree's .clang-format.
if command -v clang-format >/dev/null 2>&1 && [ -f "$tree/.clang-format" ]; then
  for file in "${written[@]}"; do
    case "$file" in *.cpp|*.h) clang-format -i --style=file "$file" ;; esac
  done
fi
total=0
for file in "${written[@]}"; do
  lines=$(wc -l <"$file")
  total=$((total + lines))
  printf '  %5d  %s\n' "$lines" "${file#"$tree"/}"
done
printf '  %5d  lines in %d files\n' "$total" "${#written[@]}"
team=$(cat "${written[@]}" | grep -c 'TEAM:' || true)
printf '  %5d  lines marked TEAM: (where a team writes its own first)\n' "$team"
cat <<NEXT
Next:
  1. configure and build what its checks need (the rooms pick up the new folders): cmake -S $tree -B <build> &&
     cmake --build <build> -j2 --target kcraft_${name}_checks (kcraft, tests/$name, the interface test, the fuzz replay)
  2. check it: kcraft platforms; kcraft baseline $name relu --config C1 > k.s; kcraft eval $name relu k.s --config C1;
     kcraft validate $name; kcraft bench --platforms $name; ctest -R '^$name\\.'
     (lint and yosys included: scripts/synth.sh $name tiny); ctest -R 'EveryPlatformImplementsTheInterface';
     ctest -R '^fuzz.assembler_$name\$' (the assembler's fuzz harness on its seeds; scripts/fuzz.sh assembler_$name)
  3. make it yours, in the order of docs/platforms.md "From the scaffold to your accelerator": the ISA YAML, the
     model, the RTL, the testbench, the baseline compiler, the guide (every "TEAM:" marks a place to start).
NEXT
