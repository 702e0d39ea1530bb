#!/usr/bin/env bash
# A long random differential campaign (`kcraft validate`) in chunks over several processes: each chunk is
# its own `kcraft validate PLATFORM --seed S --programs CHUNK`, so a chunk's result is on disk as soon as it
# ends, a stopped campaign resumes where it stopped (chunks with a result are skipped), and a divergence
# names its seed and how to reproduce it.
#
#   scripts/validate_campaign.sh PLATFORM PROGRAMS [--jobs N] [--chunk N] [--seed S] [--hw NAME] [--dir DIR]
#
# Results: DIR/chunk_<first seed>.json (kcraft's --json output) and a summary line per chunk on stdout; the
# exit status is 1 when any chunk diverged. Default DIR: build/validate/<platform>-<hw>.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
kcraft="${KCRAFT:-$root/build/kcraft}"
[[ $# -ge 2 ]] || { sed -n '2,10p' "$0" >&2; exit 2; }
platform="$1"; programs="$2"; shift 2
jobs=2; chunk=250; seed=1; hw=default; dir=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --chunk) chunk="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --hw) hw="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    *) echo "validate_campaign.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
for n in "$programs" "$jobs" "$chunk" "$seed"; do
  [[ "$n" =~ ^[0-9]+$ && "$n" -gt 0 ]] || { echo "validate_campaign.sh: '$n' is not a positive number" >&2; exit 2; }
done
[[ -x "$kcraft" ]] || { echo "validate_campaign.sh: no kcraft at $kcraft (build first, or set KCRAFT)" >&2; exit 2; }
dir="${dir:-$root/build/validate/$platform-$hw}"
mkdir -p "$dir"

run_chunk() {  # first_seed count
  local first="$1" count="$2" out="$dir/chunk_$1.json"
  [[ -s "$out" ]] && return 0
  if "$kcraft" --json validate "$platform" --hw "$hw" --seed "$first" --programs "$count" >"$out.tmp" 2>"$dir/chunk_$first.log"; then
    mv "$out.tmp" "$out"
  else
    mv "$out.tmp" "$out"  # a divergence is a result too (kcraft exits non-zero)
  fi
}
export -f run_chunk
export kcraft platform hw dir

start=$(date +%s)
last=$((seed + programs - 1))
for ((s = seed; s <= last; s += chunk)); do
  n=$((last - s + 1)); ((n > chunk)) && n=$chunk
  echo "$s $n"
done | xargs -P "$jobs" -n 2 bash -c 'run_chunk "$0" "$1"; echo "chunk $0: $(head -c 300 "$dir/chunk_$0.json" | tr -d "\n" | cut -c1-160)"'

# The summary over every chunk of this campaign.
agree=0; diverged=0; cycles=0; missing=0
for ((s = seed; s <= last; s += chunk)); do
  f="$dir/chunk_$s.json"
  if [[ ! -s "$f" ]]; then missing=$((missing + 1)); continue; fi
  if grep -q '"result": "agree"' "$f"; then
    n=$(grep -o '"programs": [0-9]*' "$f" | grep -o '[0-9]*$')
    c=$(grep -o '"rtl_cycles": [0-9]*' "$f" | grep -o '[0-9]*$')
    agree=$((agree + n)); cycles=$((cycles + c))
  else
    diverged=$((diverged + 1)); echo "DIVERGENCE in the chunk from seed $s: $f" >&2
  fi
done
echo "$platform/$hw seeds $seed..$last: $agree programs agree ($cycles RTL cycles), $diverged chunk(s) diverged," \
     "$missing chunk(s) without a result; $(( $(date +%s) - start )) s"
[[ $diverged -eq 0 && $missing -eq 0 ]]
