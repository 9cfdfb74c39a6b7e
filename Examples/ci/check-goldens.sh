#!/bin/sh
# Lays out every case in a folder and checks it against its golden files.
#
#   check-goldens.sh [DIR]     (default: Examples)
#
# Each DIR/NAME/ holding a file named `command` is a case: `command` holds the arguments
# after `cvlayout` (an engine, its options, a dataset file in the same folder), and the
# goldens are DIR/NAME/layout.json and DIR/NAME/layout.csv, whichever exist. Each golden is
# checked with `cvlayout ... --check GOLDEN`, which prints what moved on stderr. Engines and
# transitions (`cvlayout transition …`) are checked; any other command is trouble. A case
# with neither golden (an animated `--scroll-to` SVG) has nothing to check and is skipped.
# Set CVLAYOUT to the binary to use (default: cvlayout from $PATH).
# Exit status: 0 all the same, 1 some differ, 2 trouble (unreadable golden, bad command).
set -u
cvlayout=${CVLAYOUT:-cvlayout}
case $cvlayout in  # a relative path must survive the cd below
    */*) cvlayout=$(cd "$(dirname "$cvlayout")" && pwd)/$(basename "$cvlayout") ;;
esac
dir=${1:-Examples}
engines=" $("$cvlayout" engines | cut -d ' ' -f 1 | tr '\n' ' ') "
status=0
checked=0
for case_dir in "$dir"/*/; do
    case_dir=${case_dir%/}
    name=${case_dir##*/}
    [ -f "$case_dir/command" ] || continue
    # The arguments, without carriage returns (a `command` file saved with CRLF endings).
    arguments=$(tr -d '\r' < "$case_dir/command")
    engine=$(set -f; set -- $arguments; echo "${1:-}")
    case "$engines transition " in
        *" $engine "*) ;;
        *) echo "TROUBLE  $name ('$engine' is not an engine or transition)"; status=2; continue ;;
    esac
    if [ ! -f "$case_dir/layout.json" ] && [ ! -f "$case_dir/layout.csv" ]; then
        echo "skip     $name (no layout.json or layout.csv: a picture only)"
        continue
    fi
    for golden in layout.json layout.csv; do
        [ -f "$case_dir/$golden" ] || continue
        checked=$((checked + 1))
        # In the case's folder, so that the dataset's name resolves; the command is split
        # into words but never globbed.
        (cd "$case_dir" && set -f && exec "$cvlayout" $arguments --check "$golden")
        case $? in
            0) echo "ok       $name/$golden" ;;
            1) echo "DIFFERS  $name/$golden"; [ "$status" -eq 0 ] && status=1 ;;
            *) echo "TROUBLE  $name/$golden"; status=2 ;;
        esac
    done
done
if [ "$checked" -eq 0 ]; then
    echo "check-goldens.sh: no cases under $dir (folders with a 'command' file and layout.json or layout.csv)" >&2
    exit 2
fi
exit "$status"
