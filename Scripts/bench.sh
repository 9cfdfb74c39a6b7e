#!/usr/bin/env bash
# make bench: time every engine and format at growing sizes against the floor of `cat`
# copying the same bytes, then the rect-query benchmark. Release build; output to /dev/null.
# Needs /usr/bin/time (Debian's `time` package); uses hyperfine when present for the cat floor.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/cvlayout
QUERY=.build/release/cvlayout-bench
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SIZES=${BENCH_SIZES:-"10000 100000 1000000"}
BIG=${BENCH_BIG:-10000000}

[ -x "$BIN" ] || { echo "bench: build first (make release)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }

# seconds and peak KB of one run, output to a file (for its size) or /dev/null.
measure() { # out cmd...
  local out=$1; shift
  /usr/bin/time -f "%e %M" -o "$TMP/time" "$@" > "$out"
  cat "$TMP/time"
}

# The floor: cat of the same bytes from a file to /dev/null (best of 5).
cat_floor() {
  local best=999
  for _ in 1 2 3 4 5; do
    local s; s=$( { /usr/bin/time -f "%e" cat "$1" > /dev/null; } 2>&1 )
    best=$(python3 -c "print(min($best, $s))")
  done
  echo "$best"
}

printf "%-10s %-5s %10s %8s %12s %9s %9s %10s %8s\n" engine fmt elements seconds "elements/s" "MB/s" "peak MB" "cat s" "× cat"
run_case() { # engine format n [dataset]
  local engine=$1 format=$2 n=$3 data=${4:-}
  local args=("$engine" -f "$format")
  if [ -n "$data" ]; then args+=("$data"); else args+=(--count "$n"); fi
  "$BIN" "${args[@]}" > "$TMP/out"
  local bytes; bytes=$(stat -c %s "$TMP/out")
  read -r secs kb < <(measure /dev/null "$BIN" "${args[@]}")
  local floor; floor=$(cat_floor "$TMP/out")
  python3 - "$engine" "$format" "$n" "$secs" "$kb" "$bytes" "$floor" <<'PY'
import sys
e, f, n, s, kb, b, c = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
s = max(s, 0.005); c = max(c, 0.001)
print(f"{e:<10} {f:<5} {n:>10} {s:>8.2f} {n/s:>12.0f} {b/1e6/s:>9.1f} {kb/1024:>9.1f} {c:>10.3f} {s/c:>8.1f}")
PY
}

for n in $SIZES; do
  for format in json csv; do run_case waterfall "$format" "$n"; done
  python3 -c "print([1000] * ($n // 1000))" > "$TMP/rings.json"
  run_case ring json "$n" "$TMP/rings.json"
  for engine in flow line carousel stack circle; do run_case "$engine" json "$n"; done
done
for n in 10000 100000; do run_case waterfall svg "$n"; done
run_case waterfall json "$BIG"

# A dataset of a million heights, parsed by Foundation, against the --count run.
python3 -c "import random; random.seed(1); print('[' + ','.join(str(50 + random.randrange(100)) for _ in range(1000000)) + ']')" > "$TMP/heights.json"
run_case waterfall json 1000000 "$TMP/heights.json"

# Start-up: the embedded ring against --version.
echo
read -r ring_s _ < <(measure /dev/null "$BIN" ring)
read -r version_s _ < <(measure /dev/null "$BIN" --version)
echo "start-up: ring on the embedded data ${ring_s} s, --version ${version_s} s"

echo
"$QUERY"
