#!/usr/bin/env bash
# make release / make install: the static release build, `swift build -c release` with the
# arguments given. The linker's notes about functions of the toolchain's own static libraries
# (glibc's "Using 'getpwnam' in statically linked applications requires at runtime the shared
# libraries…", and `mktemp' in Foundation's temporary-file code) concern code cvlayout never
# calls; they are dropped so that a warning shown is one about cvlayout. Everything else, and
# the build's exit status, passes through.
set -o pipefail
"${SWIFT:-swift}" build -c release "$@" 2>&1 | {
    grep -v -e "in statically linked applications requires at runtime the shared libraries" \
            -e "warning: the use of \`mktemp' is dangerous" || true  # nothing left is no failure
}
