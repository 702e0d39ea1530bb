#!/usr/bin/env bash
# Installs the Debian packages kcraft needs (only those missing) and configures + builds it.
# Usage: scripts/setup.sh [build-dir]    (default: build)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${1:-$here/build}"

packages=(
  build-essential cmake pkg-config git
  verilator libsystemc-dev
  libyaml-cpp-dev libcurl4-openssl-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev
  libsqlite3-dev libbenchmark-dev libcpp-httplib-dev googletest libgtest-dev libgmock-dev zlib1g-dev
  yosys python3 python3-numpy
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js (>= 18) and npm run the MCP SDK client test (tests/mcp); a newer install that is already there is kept.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
# Headless Chromium renders the benchmark's HTML report, and a single-node Slurm runs the sharded-sweep
# scripts, in tests (tests/bench).
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] && [ -x /usr/sbin/munged ] && command -v sbatch >/dev/null 2>&1 ||
  missing+=(slurmctld slurmd slurm-client munge)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "kcraft setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi

jobs="${KCRAFT_JOBS:-$(nproc)}"
cmake -S "$here" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build_dir" -j "$jobs"
