# Sourced by scripts/setup.sh: a build's output as one line per step, the whole of it in a log.
#
#   some_build 2>&1 | quiet_build_progress LOG    # appends every line to LOG, prints the step lines
#   quiet_build_failure LOG                       # prints LOG without the progress lines (the errors)
#
# Steps are what make and Ninja announce: a Verilated model, a link (each library, each executable) and,
# from make, "Built target". Compile lines, Verilator's own compiler command lines (cmake/run_logged.sh
# keeps those in a log of their own) and make's directory changes stay in LOG only.

# make: "[ 42%] Built target x", "[ 42%] Verilating ...", "[ 42%] Linking CXX executable x";
# Ninja: "[12/83] Verilating ...", "[12/83] Linking CXX static library x".
quiet_build_counter='^\[ *([0-9]+%|[0-9]+/[0-9]+)\] '

quiet_build_progress() {
  local log="$1" line
  local re_built='^\[ *([0-9]+%)\] Built target (.*)$'
  local re_step='^\[ *([0-9]+%|[0-9]+/[0-9]+)\] (Verilating .*|Linking CXX (executable|shared module|shared library|static library) .*)$'
  # A shell loop, not awk: each step shows as it happens (awk would buffer its input from the pipe).
  while IFS= read -r line; do
    printf '%s\n' "$line" >> "$log"
    if [[ $line =~ $re_built ]]; then
      printf '  [%7s] built %s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
    elif [[ $line =~ $re_step ]]; then
      printf '  [%7s] %s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
    fi
  done
}

quiet_build_failure() {
  grep -vE "${quiet_build_counter}|^g?make(\[[0-9]+\])?: (Entering|Leaving) directory" "$1" || true
}
