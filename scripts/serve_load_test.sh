#!/usr/bin/env bash
# The full load test of `kcraft serve` (docs/serve.md): concurrent clients of the official MCP TypeScript
# SDK (tests/mcp/package-lock.json) over Streamable HTTP on loopback, each a whole agent loop on every
# platform for several rounds, then a second run that kills the server mid-load and restarts it.
#
#   scripts/serve_load_test.sh [--clients N] [--rounds R] [--jobs J] [build-dir]
#
# Defaults: 32 clients, 5 rounds, --jobs 2, build/. Needs the build (scripts/setup.sh --tests) and Node.js
# with npm (the SDK is installed into the build tree the first time, as ctest's mcp.sdk_client does).
# Prints the measurements as JSON (also in <build>/serve-load.json); exits 1 on any failed check.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
clients=32
rounds=5
jobs=2
build="$here/build"
while [ $# -gt 0 ]; do
  case "$1" in
    --clients) clients="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -*) echo "serve_load_test.sh: unknown option $1" >&2; exit 2 ;;
    *) build="$1"; shift ;;
  esac
done
kcraft="$build/kcraft"
[ -x "$kcraft" ] || { echo "serve_load_test.sh: no $kcraft; run scripts/setup.sh --tests first" >&2; exit 2; }
sdk="$build/tests/mcp/sdk_client"
mkdir -p "$sdk"
cp "$here/tests/mcp/package.json" "$here/tests/mcp/package-lock.json" "$here/tests/mcp/serve_load_test.mjs" "$sdk/"
cmake -DNPM="$(command -v npm)" -DDIR="$sdk" -P "$here/tests/mcp/npm_ci.cmake" >/dev/null

echo "== $clients clients x $rounds rounds, --jobs $jobs"
start=$SECONDS
node "$sdk/serve_load_test.mjs" "$kcraft" --clients "$clients" --rounds "$rounds" --jobs "$jobs" \
  --report "$build/serve-load.json"
echo "== kill and restart under $clients clients"
node "$sdk/serve_load_test.mjs" "$kcraft" --clients "$clients" --jobs "$jobs" --kill-restart
echo "serve_load_test.sh: passed in $((SECONDS - start)) s; measurements in $build/serve-load.json"
