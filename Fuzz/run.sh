#!/usr/bin/env bash
# Runs each fuzz target built by Fuzz/build.sh for a bounded time, one after the other.
#
#   Fuzz/run.sh SECONDS [OUT_DIR]     default OUT_DIR: .build/fuzz
#
# With FUZZ_RUNS="DecoderFuzz=N,CommandLineFuzz=M" (what `make fuzz-ci` sets) each target
# instead runs exactly that many inputs from the committed seeds alone, with a fixed seed and
# deterministic Swift hashing, so a CI run does a fixed amount of work whatever the machine's
# speed. (The inputs are close to but not exactly the same from run to run: coverage
# feedback from Foundation still varies a little.)
#
# Each target starts from its committed seeds (Fuzz/corpus/<target>) plus what earlier runs
# found (OUT_DIR/corpus/<target>, not committed). A crash, sanitizer report, timeout (10 s
# for one input) or RSS over 2 GB stops the run with a non-zero status and leaves the input
# in OUT_DIR/artifacts/. The last lines of each run give the execution count
# (stat::number_of_executed_units). Reproduce a finding with OUT_DIR/TARGET ABSOLUTE_PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET="${1:?usage: Fuzz/run.sh SECONDS [OUT_DIR]}"
OUT="${2:-.build/fuzz}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"    # absolute: CommandLineFuzz runs in an empty temporary directory
SEEDS="$(pwd)/Fuzz/corpus"
export SWIFT_BACKTRACE=enable=no   # libFuzzer reports crashes itself; the Swift backtracer would stall
for target in DecoderFuzz CommandLineFuzz; do
    if [[ ! -x "$OUT/$target" ]]; then
        echo "Fuzz/run.sh: error: $OUT/$target is missing; run Fuzz/build.sh first" >&2
        exit 1
    fi
    mkdir -p "$OUT/corpus/$target" "$OUT/artifacts/$target"
    runs=$(echo "${FUZZ_RUNS:-}" | tr ',' '\n' | sed -n "s/^$target=//p")
    if [[ -n "$runs" ]]; then
        corpus="$(mktemp -d)"
        limit=(-runs="$runs" -seed=1)
        export SWIFT_DETERMINISTIC_HASHING=1
        echo "Fuzz/run.sh: $target for $runs inputs (seed 1)" >&2
    else
        corpus="$OUT/corpus/$target"
        limit=(-max_total_time="$SECONDS_PER_TARGET")
        echo "Fuzz/run.sh: $target for ${SECONDS_PER_TARGET}s" >&2
    fi
    set +e
    "$OUT/$target" "${limit[@]}" -rss_limit_mb=2048 -timeout=10 \
        -max_len=16384 -print_final_stats=1 -artifact_prefix="$OUT/artifacts/$target/" \
        "$corpus" "$SEEDS/$target" 2>&1 | grep -v -E '^(#[0-9]+\s+(NEW|REDUCE|pulse)|\s+NEW_FUNC)'
    status=${PIPESTATUS[0]}
    set -e
    if [[ $status -ne 0 ]]; then
        echo "Fuzz/run.sh: error: $target failed (status $status); see $OUT/artifacts/$target/" >&2
        exit "$status"
    fi
done
