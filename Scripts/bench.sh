#!/usr/bin/env bash
# make bench: time every engine and format at growing sizes against the floor of `cat`
# copying the same bytes, then the rect-query benchmark. Release build; output to /dev/null.
# Timing and peak memory come from python3 (perf_counter, the child's ru_maxrss).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/cvlayout
QUERY=.build/release/cvlayout-bench
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SIZES=${BENCH_SIZES:-"10000 100000 1000000"}
BIG=${BENCH_BIG:-10000000}

[ -x "$BIN" ] || { echo "bench: build first (make release)" >&2; exit 1; }

# Best wall time of RUNS runs (seconds) and the peak resident memory (KB) of one command,
# its output to /dev/null.
RUNS=${BENCH_RUNS:-3}
measure() { # cmd...
  python3 - "$RUNS" "$@" <<'PY'
import resource, subprocess, sys, time
runs, command = int(sys.argv[1]), sys.argv[2:]
best = float("inf")
for _ in range(runs):
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    best = min(best, time.perf_counter() - start)
print(f"{best:.4f} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}")
PY
}

# The floor: cat copying the same bytes from a file to /dev/null (best of 5).
cat_floor() {
  BENCH_RUNS=5 measure cat "$1" | cut -d ' ' -f 1
}

printf "%-10s %-5s %10s %8s %12s %9s %9s %10s %8s\n" engine fmt elements seconds "elements/s" "MB/s" "peak MB" "cat s" "× cat"
run_case() { # engine format n [dataset [label]]
  local engine=$1 format=$2 n=$3 data=${4:-}
  local args=("$engine" -f "$format")
  if [ -n "$data" ]; then args+=("$data"); else args+=(--count "$n"); fi
  "$BIN" "${args[@]}" > "$TMP/out"
  local bytes; bytes=$(stat -c %s "$TMP/out")
  read -r secs kb < <(measure "$BIN" "${args[@]}")
  local floor; floor=$(cat_floor "$TMP/out")
  python3 - "$engine" "$format" "$n" "$secs" "$kb" "$bytes" "$floor" <<'PY'
import sys
e, f, n, s, kb, b, c = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
print(f"{e:<10} {f:<5} {n:>10} {s:>8.3f} {n/s:>12.0f} {b/1e6/s:>9.1f} {kb/1024:>9.1f} {c:>10.4f} {s/c:>8.1f}")
PY
  echo "$engine $format $n ${5:-embedded} $secs $kb $floor" >> "$TMP/results"
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
run_case waterfall json 1000000 "$TMP/heights.json" dataset

# Start-up: the embedded ring against --version.
echo
read -r ring_s _ < <(BENCH_RUNS=10 measure "$BIN" ring)
read -r version_s _ < <(BENCH_RUNS=10 measure "$BIN" --version)
echo "start-up: ring on the embedded data ${ring_s} s, --version ${version_s} s"

echo
"$QUERY"

# The performance issue's targets, from the runs above.
echo
python3 - "$TMP/results" "$ring_s" "$version_s" "$BIG" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    e, f, n, src, s, kb, c = line.split()
    rows[(e, f, int(n), src)] = (float(s), int(kb), float(c))
ring_s, version_s, big = float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
def get(e, f, n, src="embedded"):
    return rows.get((e, f, n, src))
def show(what, value, limit, unit="×"):
    ok = "ok" if value <= limit else "MISSED"
    print(f"{what:<58} {value:>7.2f}{unit}  (target ≤ {limit}{unit})  {ok}")
print("targets")
for e, f, n in [("waterfall", "json", 10**6), ("waterfall", "csv", 10**6), ("ring", "json", 10**6), ("waterfall", "svg", 10**5)]:
    r = get(e, f, n)
    if r: show(f"{e} {f} {n:,} elements, × cat of the same bytes", r[0] / r[2], 5)
r = get("waterfall", "json", 10**6)
if r: show("waterfall json 10^6 peak memory", r[1] / 1024, 250, " MB")
r7, r6 = get("waterfall", "json", big), get("waterfall", "json", 10**6)
if r7 and r6:
    show(f"waterfall json {big:,} / 1,000,000 time", r7[0] / r6[0], 11 * big / 10**7)
    show(f"waterfall json {big:,} / 1,000,000 peak memory", r7[1] / r6[1], big / 10**6)
d = get("waterfall", "json", 10**6, "dataset")
if d and r6: show("waterfall json 10^6 from a dataset / --count run", d[0] / r6[0], 2)
show("start-up: ring on the embedded data / --version", ring_s / version_s, 2)
PY
