#!/usr/bin/env bash
# The benchmarks' static thresholds (docs/performance.md, "Benchmarks in CI"):
#   Benchmarks/thresholds.sh check     run every benchmark once, each p90 against Thresholds/ (CI)
#   Benchmarks/thresholds.sh update    run them and record their p90 as the new baseline (commit it)
# Exit status of check: 0 as recorded, 4 only improvements (both a pass here: 0), 2 a regression.
#
# ordo-one/benchmark 1.38 writes a threshold file with the benchmark's name's spaces turned into
# underscores, but reads it back under the name as it is, so a name with spaces never finds its
# file and every check fails ("Could not find any matching absolute thresholds"). After an update
# the files are renamed to what the reader looks for (no benchmark name here has an underscore).
set -euo pipefail
cd "$(dirname "$0")"
# The same metrics in both: the mallocs counted depend on which metrics are measured.
metrics=(--metric wallClock --metric mallocCountTotal)
case "${1:-}" in
update)
    rm -rf Thresholds
    swift package --allow-writing-to-package-directory benchmark thresholds update "${metrics[@]}" --no-progress
    for f in Thresholds/*.p90.json; do
        base=${f#Thresholds/}
        target=${base%%.*}
        rest=${base#*.}
        name=${rest%.p90.json}
        mv "$f" "Thresholds/$target.${name//_/ }.p90.json"
    done
    ;;
check)
    status=0
    swift package benchmark thresholds check "${metrics[@]}" --no-progress || status=$?
    if [ "$status" -eq 4 ]; then status=0; fi
    exit "$status"
    ;;
*)
    echo "usage: $0 check|update" >&2
    exit 2
    ;;
esac
