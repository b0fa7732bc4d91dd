#!/usr/bin/env bash
# Builds and runs every libFuzzer target under Fuzz/ for a bounded time; exits non-zero on a crash.
#
#   Fuzz/run.sh [TOTAL_SECONDS] [TARGET...]
#
# TOTAL_SECONDS (default 60) is split evenly over the targets run (at least 1 s each); compile time is
# not counted. TARGET names a folder under Fuzz/ (default: every folder). A target folder holds:
#   *.swift      the entry file(s), with @_cdecl("LLVMFuzzerTestOneInput")
#   corpus/      checked-in seed inputs (never modified; new inputs go to a scratch copy)
#   options.txt  optional extra libFuzzer flags, one per line (e.g. -max_len=8192)
# Environment: FUZZ_WORK_DIR (scratch folder; default a fresh temp dir), SWIFTC (default swiftc).
# Crash inputs are written to $FUZZ_WORK_DIR/<target>/crash-*; the script prints their paths.
#
#   sources.txt  optional: the files the entry is compiled with, one path (relative to the repository)
#                a line, instead of the wire codecs (for parsers outside SyncGateWire, such as the
#                command line's durations and the daemon's requests, kept self-contained for this)
#
# Without sources.txt, each entry is compiled together with every file of the SyncGateWire target
# (Sources/SyncGateWire, the wire codecs), into one module: the codecs need nothing but the standard
# library, and the script refuses to start when a file there imports any module.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
total="${1:-60}"
shift || true
swiftc="${SWIFTC:-swiftc}"
work="${FUZZ_WORK_DIR:-$(mktemp -d -t syncgate-fuzz.XXXXXX)}"

if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    targets=()
    for dir in "$root"/Fuzz/*/; do
        targets+=("$(basename "$dir")")
    done
fi
if [ "${#targets[@]}" -eq 0 ]; then
    echo "no fuzz targets under $root/Fuzz" >&2
    exit 1
fi
wire="$root/Sources/SyncGateWire"
wire_sources=()
while IFS= read -r -d '' file; do
    wire_sources+=("$file")
done < <(find "$wire" -name '*.swift' -print0 | sort -z)
if [ "${#wire_sources[@]}" -eq 0 ]; then
    echo "no Swift files under $wire" >&2
    exit 1
fi
if grep -nE '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]' "${wire_sources[@]}" >&2; then
    echo "the wire codecs must use the standard library alone: remove the imports above" >&2
    exit 1
fi
per=$(( total / ${#targets[@]} ))
[ "$per" -ge 1 ] || per=1

status=0
for target in "${targets[@]}"; do
    dir="$root/Fuzz/$target"
    out="$work/$target"
    mkdir -p "$out/corpus"
    sources=("$dir"/*.swift)
    if [ -f "$dir/sources.txt" ]; then
        while IFS= read -r line || [ -n "$line" ]; do
            [ -n "$line" ] && sources+=("$root/$line")
        done < "$dir/sources.txt"
    else
        sources+=("${wire_sources[@]}")
    fi
    echo "== $target: building (${#sources[@]} files)"
    # The linker's "Cannot export local symbol __asan_*" notes are harmless; keep them out of the log.
    "$swiftc" -sanitize=fuzzer,address -parse-as-library -swift-version 6 -package-name SyncGate \
        -enable-upcoming-feature ExistentialAny -O -g \
        "${sources[@]}" -o "$out/fuzz-$target" 2> >(grep -v "Cannot export local symbol" >&2)
    flags=()
    if [ -f "$dir/options.txt" ]; then
        while IFS= read -r line || [ -n "$line" ]; do
            [ -n "$line" ] && flags+=("$line")
        done < "$dir/options.txt"
    fi
    seeds=()
    [ -d "$dir/corpus" ] && seeds+=("$dir/corpus")
    echo "== $target: fuzzing for ${per}s"
    if "$out/fuzz-$target" -max_total_time="$per" -print_final_stats=1 -artifact_prefix="$out/" \
        ${flags[@]+"${flags[@]}"} "$out/corpus" ${seeds[@]+"${seeds[@]}"} > "$out/log.txt" 2>&1; then
        grep -E "^stat::number_of_executed_units|^Done" "$out/log.txt" || true
        echo "== $target: ok"
    else
        status=1
        tail -n 60 "$out/log.txt"
        echo "== $target: FAILED; crash inputs:" >&2
        ls "$out"/crash-* "$out"/leak-* "$out"/timeout-* "$out"/oom-* 2>/dev/null >&2 || true
    fi
done
exit "$status"
