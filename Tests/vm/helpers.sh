# Helpers every script in the VM has: run-in-vm.sh installs this file and sources it before the
# script. Each wait is on a marker and gives up after a minute, saying KIOSK-TIMEOUT.
section() { echo "KIOSK-$1-BEGIN"; cat "$2"; echo "KIOSK-$1-END"; }
wait_for() {  # wait_for TEXT FILE [COUNT]: until FILE holds TEXT at least COUNT times
    for i in $(seq 1 600); do [ "$(grep -c "$1" "$2" 2>/dev/null)" -ge "${3:-1}" ] && return 0; sleep 0.1; done
    echo "KIOSK-TIMEOUT waiting for '$1' in $2"
    return 1
}
opened() {  # opened PID DEVICE: until process PID has DEVICE open
    for i in $(seq 1 600); do ls -l "/proc/$1/fd" 2>/dev/null | grep -q "$2\$" && return 0; sleep 0.1; done
    echo "KIOSK-TIMEOUT waiting for $1 to open $2"
    return 1
}
still() {  # still FILE: until FILE has not grown for half a second
    last=-1
    for i in $(seq 1 120); do
        size=$(wc -c < "$1")
        [ "$size" = "$last" ] && return 0
        last=$size
        sleep 0.5
    done
    echo "KIOSK-TIMEOUT waiting for $1 to stop growing"
    return 1
}
quiet() {  # quiet PID: until its CPU time has not moved for half a second
    last=-1; same=0
    for i in $(seq 1 600); do
        t=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
        if [ "$t" = "$last" ]; then same=$((same + 1)); [ $same -ge 5 ] && return 0; else same=0; fi
        last=$t
        sleep 0.1
    done
    echo "KIOSK-TIMEOUT waiting for $1 to go idle"
    return 1
}
stats_lines() { grep -c ' stats ' "$1"; }
settled() {  # settled FILE: until a kiosk run stats line after the present one counts no frame drawn
    n=$(stats_lines "$1")
    for i in $(seq 1 600); do
        grep ' stats ' "$1" | tail -n +$((n + 1)) | grep -q ' frames=0 ' && return 0
        sleep 0.1
    done
    echo "KIOSK-TIMEOUT waiting for a stats line with frames=0 in $1"
    return 1
}
