#!/usr/bin/env bash
# Builds the libFuzzer targets with swiftc directly (SwiftPM cannot link -sanitize=fuzzer
# executables): each library module is compiled with coverage and address-sanitizer
# instrumentation, then each Fuzz/<Target>.swift is linked against them.
#
#   Fuzz/build.sh [OUT_DIR]        default OUT_DIR: .build/fuzz
#
# Fails loudly (non-zero status, message on stderr) when the toolchain cannot build
# fuzzers, so CI never skips fuzzing silently.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-.build/fuzz}"
SWIFTC="${SWIFTC:-swiftc}"
FLAGS=(-sanitize=fuzzer,address -O -g -parse-as-library -swift-version 6 -package-name cvlayout)
# Fresh modules each build: an object left from a target that no longer exists must not be linked.
rm -rf "$OUT/modules"
mkdir -p "$OUT/modules"

if ! command -v "$SWIFTC" > /dev/null; then
    echo "Fuzz/build.sh: error: '$SWIFTC' not found; fuzz targets need a Swift toolchain with libFuzzer (-sanitize=fuzzer)" >&2
    exit 1
fi

# module name, then its dependencies' order does not matter: -I finds them.
build_module() {
    local name="$1"
    echo "Fuzz/build.sh: compiling $name" >&2
    # Every source file of the target, in its subfolders too, as SwiftPM compiles them.
    local sources=()
    while IFS= read -r file; do sources+=("$file"); done < <(find Sources/"$name" -name '*.swift' | LC_ALL=C sort)
    "$SWIFTC" "${FLAGS[@]}" -wmo -module-name "$name" -I "$OUT/modules" \
        -emit-module -emit-module-path "$OUT/modules/$name.swiftmodule" \
        -c -o "$OUT/modules/$name.o" "${sources[@]}"
}
build_module LayoutCore
build_module FastText
build_module LayoutDatasets
build_module LayoutWriters
build_module LayoutComparison
build_module CVLayoutCLI

for target in DecoderFuzz CommandLineFuzz; do
    echo "Fuzz/build.sh: linking $target" >&2
    # ld.gold warns about asan's local symbols; those warnings are noise.
    "$SWIFTC" "${FLAGS[@]}" -I "$OUT/modules" -module-name "$target" \
        "Fuzz/$target.swift" "$OUT"/modules/*.o -o "$OUT/$target" 2> "$OUT/$target.link.log" || {
        cat "$OUT/$target.link.log" >&2
        echo "Fuzz/build.sh: error: linking $target failed" >&2
        exit 1
    }
    grep -v "Cannot export local symbol" "$OUT/$target.link.log" >&2 || true
done
echo "Fuzz/build.sh: built $OUT/DecoderFuzz and $OUT/CommandLineFuzz" >&2
