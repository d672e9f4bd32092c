# Waits for a kiosk run inside the VM, shared by the scripts that start one (sourced). Each
# waits on a marker, with a timeout of a minute, and says KIOSK-TIMEOUT when it gives up.
section() { echo "KIOSK-$1-BEGIN"; cat "$2"; echo "KIOSK-$1-END"; }
wait_for() {  # wait_for TEXT FILE [COUNT]: until FILE holds TEXT at least COUNT times
    for i in $(seq 1 600); do [ "$(grep -c "$1" "$2" 2>/dev/null)" -ge "${3:-1}" ] && return 0; sleep 0.1; done
    echo "KIOSK-TIMEOUT waiting for '$1' in $2"
    return 1
}
stats_lines() { grep -c ' stats ' "$1"; }
settled() {  # settled FILE: until a stats line after the present one counts no frame drawn
    n=$(stats_lines "$1")
    for i in $(seq 1 600); do
        grep ' stats ' "$1" | tail -n +$((n + 1)) | grep -q ' frames=0 ' && return 0
        sleep 0.1
    done
    echo "KIOSK-TIMEOUT waiting for a stats line with frames=0 in $1"
    return 1
}
