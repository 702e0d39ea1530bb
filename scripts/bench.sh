#!/usr/bin/env bash
# The main job: set up (installs missing Debian packages, builds), then run the offline benchmark sweep
# and print the results table. Extra arguments go to `kcraft bench` (e.g. --hw small --tasks gemm).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/setup.sh"
exec "$here/build/kcraft" bench "$@"
