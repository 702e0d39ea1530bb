#!/bin/sh
# run_logged.sh LOG COMMAND [ARGS...]: runs COMMAND with all its output in LOG, so that a build shows one
# progress line per step (the custom command's COMMENT) instead of a tool's own command lines. On failure
# the whole log is printed (the compiler's errors with it); KCRAFT_VERBOSE=1 prints it always.
log="$1"
shift
mkdir -p "$(dirname "$log")"
"$@" > "$log" 2>&1
status=$?
if [ "$status" -ne 0 ] || [ "${KCRAFT_VERBOSE:-0}" = 1 ]; then
  cat "$log"
  [ "$status" -ne 0 ] && echo "(this log: $log)"
fi
exit "$status"
