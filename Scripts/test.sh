#!/usr/bin/env bash
# make test: build and run every test (Swift Testing; XCTest's runner, which would only
# report "Executed 0 tests", is not started). The whole log goes to .build/test.log. On
# success this prints the build's warnings (there should be none), each suite's line and the
# run's summary; on failure, the whole log, so that nothing of a failure is hidden.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
mkdir -p .build
log=.build/test.log
echo "make test: building and running every test (full log: $log)"
"$SWIFT" test --disable-xctest "$@" > "$log" 2>&1
status=$?
if [ "$status" -ne 0 ]; then
  cat "$log"
  echo "make test: FAILED (status $status); the log above is also in $log"
  exit "$status"
fi
# Warnings, with the source line and caret the compiler prints under each; then the result
# lines of the run (not the "started" lines, and not each passing test).
grep -E -A3 '(^|: )warning: ' "$log" | grep -v '^--$' | awk '!seen[$0]++' || true
awk '/^Build complete/ || /^✔ Suite / || /^✔ Test run with / || /^Test run with /' "$log"
