#!/usr/bin/env bash
# Set up (installs missing Debian packages, builds everything including the tests), then run the whole
# test suite with ctest. Extra arguments go to ctest (e.g. -R systolic).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/setup.sh"
jobs="${KCRAFT_JOBS:-$(nproc)}"
cd "$here/build"
exec ctest --output-on-failure -j "$jobs" "$@"
