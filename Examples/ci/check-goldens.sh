#!/bin/sh
# Lays out every case in a folder and checks it against its golden files.
#
#   check-goldens.sh [--artifacts DIR] [--record MODE] [--junit FILE] [DIR]   (default: Examples)
#
# Each DIR/NAME/ holding a file named `command` is a case: `command` holds the arguments
# after `cvlayout` (an engine, its options, a dataset file in the same folder), and the
# goldens are DIR/NAME/layout.json and DIR/NAME/layout.csv, whichever exist. Each golden is
# checked with `cvlayout ... --check GOLDEN`, which prints what moved on stderr. Engines and
# transitions (`cvlayout transition …`) are checked; any other command is trouble. A case
# with neither golden (an animated `--scroll-to` SVG) has nothing to check and is skipped.
#
#   --artifacts DIR  for each golden that differs, DIR/NAME/json/ or DIR/NAME/csv/ gets
#                    layout.actual.json|csv (the new layout), layout.diff.svg (both layouts
#                    in one picture) and layout.report.txt; nothing for a golden that matches
#   --record MODE    passed to --check: never, missing, failed or all; with missing or
#                    all, the goldens a case's `formats` file names (json, csv; both
#                    without one) are checked whether they exist or not. A recorded golden
#                    says RECORDED and counts as differing (status 1)
#   --junit FILE     a JUnit XML file: one testsuite, one testcase per golden (a failure
#                    holding the report when it differs, an error when it is trouble)
#
# Set CVLAYOUT to the binary to use (default: cvlayout from $PATH). CVLAYOUT_ARTIFACTS and
# CVLAYOUT_RECORD, when set, are cvlayout's defaults for --artifacts and --record as usual.
# Prints ok, DIFFERS, RECORDED, TROUBLE or skip per golden or case.
# Exit status: 0 all the same, 1 some differ or were recorded, 2 trouble (unreadable
# golden, bad command).
set -u
# A case without a dataset runs on its embedded data: never on this script's own standard
# input, which cvlayout would otherwise read as the dataset when it is a pipe or a file.
exec < /dev/null
usage() {
    echo "usage: check-goldens.sh [--artifacts DIR] [--record MODE] [--junit FILE] [DIR]" >&2
    exit 2
}
# A path made absolute (the checks run inside each case's folder).
absolute() {
    case $1 in
        /*) printf '%s\n' "$1" ;;
        *) printf '%s/%s\n' "$(pwd)" "$1" ;;
    esac
}
artifacts=
record=
junit=
while [ $# -gt 0 ]; do
    case $1 in
        --artifacts) [ $# -ge 2 ] || usage; artifacts=$(absolute "$2"); shift 2 ;;
        --artifacts=*) artifacts=$(absolute "${1#*=}"); shift ;;
        --record) [ $# -ge 2 ] || usage; record=$2; shift 2 ;;
        --record=*) record=${1#*=}; shift ;;
        --junit) [ $# -ge 2 ] || usage; junit=$(absolute "$2"); shift 2 ;;
        --junit=*) junit=$(absolute "${1#*=}"); shift ;;
        --) shift; break ;;
        -*) echo "check-goldens.sh: unknown option '$1'" >&2; usage ;;
        *) break ;;
    esac
done
[ $# -le 1 ] || usage
case $record in
    ''|never|missing|failed|all) ;;
    *) echo "check-goldens.sh: --record: expected never, missing, failed or all, got '$record'" >&2; exit 2 ;;
esac
cvlayout=${CVLAYOUT:-cvlayout}
case $cvlayout in  # a relative path must survive the cd below
    */*) cvlayout=$(cd "$(dirname "$cvlayout")" && pwd)/$(basename "$cvlayout") ;;
esac
dir=${1:-Examples}
engines=" $("$cvlayout" engines | cut -d ' ' -f 1 | tr '\n' ' ') "
status=0
checked=0
failures=0
errors=0
scratch=$(mktemp -d) || exit 2
trap 'rm -rf "$scratch"' EXIT
: > "$scratch/cases"
# XML text: the five characters escaped, control characters (but tab and newline) dropped.
xml_escape() {
    LC_ALL=C tr -d '\000-\010\013\014\016-\037' | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'
}
# A testcase of our own: $1 the golden's name, $2 the element (error), $3 a file with its text.
junit_case() {
    {
        printf '<testcase classname="check-goldens" name="%s">\n' "$(printf '%s' "$1" | xml_escape)"
        printf '<%s message="%s">' "$2" "$(head -n 1 "$3" | xml_escape)"
        xml_escape < "$3"
        printf '</%s>\n</testcase>\n' "$2"
    } >> "$scratch/cases"
}
for case_dir in "$dir"/*/; do
    case_dir=${case_dir%/}
    name=${case_dir##*/}
    [ -f "$case_dir/command" ] || continue
    # The arguments, without carriage returns (a `command` file saved with CRLF endings).
    arguments=$(tr -d '\r' < "$case_dir/command")
    engine=$(set -f; set -- $arguments; echo "${1:-}")
    case "$engines transition " in
        *" $engine "*) ;;
        *)
            echo "TROUBLE  $name ('$engine' is not an engine or transition)"; status=2
            if [ -n "$junit" ]; then
                echo "'$engine' is not an engine or transition" > "$scratch/message"
                junit_case "$name" error "$scratch/message"
                errors=$((errors + 1))
            fi
            continue ;;
    esac
    # The goldens: those there; when recording missing ones, those the case's `formats`
    # file names (json, csv), or both without one.
    goldens=
    for golden in layout.json layout.csv; do
        [ -f "$case_dir/$golden" ] && goldens="$goldens $golden"
    done
    if [ "$record" = missing ] || [ "$record" = all ]; then
        formats="json csv"
        [ -f "$case_dir/formats" ] && formats=$(tr -d '\r' < "$case_dir/formats")
        goldens=
        for format in $formats; do
            case $format in json|csv) goldens="$goldens layout.$format" ;; esac
        done
    fi
    if [ -z "$goldens" ]; then
        echo "skip     $name (no layout.json or layout.csv: a picture only)"
        continue
    fi
    for golden in $goldens; do
        checked=$((checked + 1))
        set --
        [ -n "$artifacts" ] && set -- "$@" --artifacts "$artifacts/$name/${golden##*.}"
        [ -n "$record" ] && set -- "$@" --record "$record"
        [ -n "$junit" ] && set -- "$@" --report junit --report-file "$scratch/report.xml"
        rm -f "$scratch/report.xml"
        # In the case's folder, so that the dataset's name resolves; the command is split
        # into words but never globbed. Its messages are passed on (and kept for --junit).
        (cd "$case_dir" && set -f && exec "$cvlayout" $arguments --check "$golden" "$@") 2> "$scratch/stderr"
        result=$?
        cat "$scratch/stderr" >&2
        case $result in
            0) echo "ok       $name/$golden" ;;
            1)
                if grep -q '^recorded ' "$scratch/stderr"; then
                    echo "RECORDED $name/$golden"
                else
                    echo "DIFFERS  $name/$golden"
                fi
                [ "$status" -eq 0 ] && status=1 ;;
            *) echo "TROUBLE  $name/$golden"; status=2 ;;
        esac
        if [ -n "$junit" ]; then
            if [ -s "$scratch/report.xml" ]; then
                # cvlayout's testcase, renamed after the case; the suite's lines dropped.
                escaped=$(printf '%s' "$name/$golden" | xml_escape | sed -e 's/[\\&|]/\\&/g')
                sed -e '1,2d' -e '$d' -e "1,3s|^<testcase classname=\"\\([^\"]*\\)\" name=\"[^\"]*\">|<testcase classname=\"\\1\" name=\"$escaped\">|" \
                    "$scratch/report.xml" >> "$scratch/cases"
                [ "$result" -eq 1 ] && failures=$((failures + 1))
            elif [ "$result" -eq 1 ]; then
                # Recorded without comparing (--record all, or a missing golden).
                junit_case "$name/$golden" failure "$scratch/stderr"
                failures=$((failures + 1))
            else
                junit_case "$name/$golden" error "$scratch/stderr"
                errors=$((errors + 1))
            fi
        fi
    done
done
if [ -n "$junit" ]; then
    tests=$(grep -c '^<testcase ' "$scratch/cases")
    {
        echo '<?xml version="1.0" encoding="UTF-8"?>'
        echo "<testsuite name=\"check-goldens\" tests=\"$tests\" failures=\"$failures\" errors=\"$errors\" skipped=\"0\">"
        cat "$scratch/cases"
        echo '</testsuite>'
    } > "$junit.tmp" && mv "$junit.tmp" "$junit"
fi
if [ "$checked" -eq 0 ]; then
    echo "check-goldens.sh: no cases under $dir (folders with a 'command' file and layout.json or layout.csv)" >&2
    exit 2
fi
exit "$status"
