#!/usr/bin/env bash
# Installs the Debian packages kcraft needs (only those missing), then configures and builds it.
#
#   scripts/setup.sh [--tests] [--sanitize] [build-dir]
#
# Without options: what running kcraft needs (the README's main command) — the run-time packages and the
# `kcraft` binary alone, into build/.
#   --tests     also the test suite's packages (GoogleTest, Google Benchmark, yosys, numpy,
#               Node.js, Chromium, Slurm; the RISC-V toolchain and QEMU of the coming rvv platform) and every
#               target, tests included.
#   --sanitize  with --tests: an AddressSanitizer + UBSan build, into build-asan/ (docs/sanitizers.md).
# KCRAFT_JOBS=N sets the parallel build jobs (default: nproc).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

with_tests=0
sanitize=0
build_dir=""
for arg in "$@"; do
  case "$arg" in
    --tests) with_tests=1 ;;
    --sanitize) with_tests=1; sanitize=1 ;;
    -*) echo "kcraft setup: unknown option $arg (expected --tests, --sanitize, or a build directory)" >&2; exit 2 ;;
    *) build_dir="$arg" ;;
  esac
done
if [ -z "$build_dir" ]; then
  if [ "$sanitize" -eq 1 ]; then build_dir="$here/build-asan"; else build_dir="$here/build"; fi
fi

run_packages=(
  build-essential cmake ninja-build pkg-config git
  verilator libsystemc-dev zlib1g-dev
  libyaml-cpp-dev libcurl4-openssl-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev libsqlite3-dev
  libssl-dev  # OpenSSL's SHA-256: the evaluation cache's keys
  libcpp-httplib-dev  # kcraft serve's HTTP server (and the tests' local HTTP servers)
  binutils-riscv64-unknown-elf clang-16 lld-16 qemu-user  # rvv: its toolchain and QEMU, the functional twin
)
test_packages=(
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  yosys python3 python3-numpy
  valgrind  # scripts/compare_speed.py --instructions (cachegrind)
  ccache  # scripts/extend_example.sh's scratch copy of the tree reuses this build's compiles
)

packages=("${run_packages[@]}")
[ "$with_tests" -eq 1 ] && packages+=("${test_packages[@]}")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "$with_tests" -eq 1 ]; then
  # Node.js (>= 18) and npm run the MCP SDK client test (tests/mcp); a newer install that is already there
  # is kept.
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  # Headless Chromium renders the benchmark's HTML report, and a single-node Slurm runs the sharded-sweep
  # scripts, in tests (tests/bench).
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  [ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] && [ -x /usr/sbin/munged ] && command -v sbatch >/dev/null 2>&1 ||
    missing+=(slurmctld slurmd slurm-client munge)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "kcraft setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi

jobs="${KCRAFT_JOBS:-$(nproc)}"
build_args=()
build_label="everything"
if [ "$with_tests" -eq 0 ]; then
  build_args=(--target kcraft)
  build_label="kcraft"
fi
config_args=(-DCMAKE_BUILD_TYPE=Release)
if [ "$with_tests" -eq 1 ]; then
  # The tests run every hardware configuration, so all of them are compiled in.
  config_args+=(-DKCRAFT_BUILD_TESTS=ON -DKCRAFT_HW_CONFIGS=)
elif [ ! -f "$build_dir/CMakeCache.txt" ]; then
  # A new build directory for running only; an existing one keeps its tests (they are not rebuilt here).
  # Only each platform's `default` configuration is compiled in: the others are built on first use, into
  # the variant cache (docs/explore.md), with a progress line.
  config_args+=(-DKCRAFT_BUILD_TESTS=OFF -DKCRAFT_HW_CONFIGS=default)
fi
[ "$sanitize" -eq 1 ] && config_args+=(-DKCRAFT_SANITIZE=ON)
# Ninja for a new build directory: it compiles a target's sources while the libraries it links are still
# being built, where make waits target by target (the run-only build: 199 s instead of 224 s on 2 cores,
# docs/simulation-speed.md). An existing directory keeps the generator it was made with.
[ -f "$build_dir/CMakeCache.txt" ] || config_args+=(-G Ninja)
# Through ccache when it is installed, with this tree as its base directory: a copy of the tree elsewhere
# (systolic.extend_example's, docs/extending.md) then hits the cache for every file it did not change.
if command -v ccache >/dev/null 2>&1; then
  # pch_defines,time_macros: compiles with the tests' precompiled header are cached too (ccache's manual).
  config_args+=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_BASEDIR=$here;CCACHE_SLOPPINESS=pch_defines,time_macros;ccache")
fi
mkdir -p "$build_dir"
if [ "${KCRAFT_VERBOSE:-0}" = 1 ]; then
  # Everything: CMake's own messages, every compile, the Verilator builds' compiler command lines.
  cmake -S "$here" -B "$build_dir" "${config_args[@]}"
  cmake --build "$build_dir" -j "$jobs" "${build_args[@]}"
  exit 0
fi

# Quiet: one line per step (configure, each library, each Verilated model, each link); the whole output in
# $build_dir/build.log, and on failure the compiler's output (every line that is not a progress line).
# shellcheck source=lib/quiet_build.sh
source "$here/scripts/lib/quiet_build.sh"
log="$build_dir/build.log"
start=$SECONDS
printf 'kcraft setup: configuring %s ... ' "$build_dir"
if ! cmake -S "$here" -B "$build_dir" "${config_args[@]}" > "$build_dir/configure.log" 2>&1; then
  echo "failed"
  cat "$build_dir/configure.log"
  exit 1
fi
: > "$log"
echo "$((SECONDS - start)) s"
echo "kcraft setup: building ${build_label} with $jobs jobs (full output: $log; KCRAFT_VERBOSE=1 shows it)"
set +e
cmake --build "$build_dir" -j "$jobs" "${build_args[@]}" 2>&1 | quiet_build_progress "$log"
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  echo "kcraft setup: the build failed; its output without the progress lines:" >&2
  quiet_build_failure "$log" >&2
  exit "$status"
fi
elapsed=$((SECONDS - start))
echo "kcraft setup: done in $((elapsed / 60)) min $((elapsed % 60)) s"
