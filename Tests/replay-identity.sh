#!/bin/sh
# Records `kiosk replay`'s outputs for every trace in the repository, so that two builds can be
# compared byte for byte (issue 12: the loop's redesign must not change a replay).
#
#   Tests/replay-identity.sh record KIOSK DIR     # writes DIR/<case>/{events,state,decisions,png,out,err,status}
#   Tests/replay-identity.sh compare KIOSK BEFORE # records into a temporary folder, then diffs against BEFORE
#
# Every output option of `kiosk replay` is used: --events, --state, --decisions, --screenshot, and
# stdout (the events without --events). Each trace runs under the default config and under a
# variant in RGB565 turned 90 degrees; the eGalax trace also with --position-axes ABS_Z,ABS_RX.
set -eu
cd "$(dirname "$0")/.."
mode=$1 kiosk=$2 dir=$3

record() {
    out=$1
    mkdir -p "$out"
    variant=$out/rgb565-90.toml
    sed -e 's/^pixel_format *=.*//' -e 's/^rotation *=.*//' config/kiosk.toml \
        | awk '{print} /^\[display\]/{print "pixel_format = \"rgb565\""; print "rotation = 90"}' > "$variant"
    for trace in $(find traces Tests Fuzz/corpus -name '*.evemu' | sort); do
        for config in config/kiosk.toml "$variant"; do
            axeslist=none
            case "$trace" in *egalax*) axeslist="none ABS_Z,ABS_RX" ;; esac
            for axes in $axeslist; do
                [ "$axes" = none ] && axes=
                name=$(echo "$trace-$(basename "$config" .toml)${axes:+-$axes}" | tr '/,' '__')
                c=$out/$name
                mkdir -p "$c"
                status=0
                "$kiosk" replay "$trace" --config "$config" ${axes:+--position-axes "$axes"} \
                    --events "$c/events" --state "$c/state" --decisions "$c/decisions" --screenshot "$c/png" \
                    > "$c/out" 2> "$c/err" || status=$?
                echo "$status" > "$c/status"
                # Standard output carries the events when --events is not given.
                "$kiosk" replay "$trace" --config "$config" ${axes:+--position-axes "$axes"} > "$c/stdout" 2>/dev/null || true
            done
        done
    done
    # The config path appears in error messages: make it the same in both recordings.
    for f in "$out"/*/err; do sed -i "s#$out#OUT#g" "$f"; done
    rm -f "$variant"
}

case $mode in
record) record "$dir" ;;
compare)
    now=$(mktemp -d)
    record "$now"
    if diff -r "$dir" "$now" > "$now.diff"; then
        echo "replay identity: $(ls "$now" | wc -l) cases, every output byte-identical to $dir"
        rm -rf "$now" "$now.diff"
    else
        echo "replay identity: outputs differ (see $now.diff)"; head -40 "$now.diff"; exit 1
    fi ;;
*) echo "usage: $0 record|compare KIOSK DIR" >&2; exit 2 ;;
esac
