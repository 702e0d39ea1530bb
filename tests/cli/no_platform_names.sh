#!/bin/sh
# agent/ and cli/ reach platforms only through the platform interface and its registry
# (tb/common/platform.h): no file there may name one, comments and help texts included.
#   no_platform_names.sh <source dir> <platform name>...
root=$1
shift
pattern=$(printf '%s|' "$@")
pattern=${pattern%|}
matches=$(cd "$root" && grep -rnw -E "$pattern" agent cli)
status=$?
if [ "$status" -eq 1 ]; then
  exit 0
fi
if [ "$status" -eq 0 ]; then
  echo "agent/ and cli/ must not name a platform ($pattern); move this to the platform's folders or ask the registry:"
  echo "$matches"
  exit 1
fi
echo "grep failed ($status)"
exit 2
