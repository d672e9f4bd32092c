# Sourced by Tests/vm/run-in-vm.sh (x86_64) and Tests/arm64/boot.sh (aarch64): the parts of a
# test VM that do not depend on its architecture. Each script makes its own root folder (busybox,
# the payload with the libraries its executables need), boots its own qemu, and calls these.
vm_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# vm_modules ROOT KBASE VERSION MODULE...: the modules and those they depend on (modprobe's
# order, each once) copied to ROOT/modules and listed in ROOT/modules.order for init to load.
vm_modules() {
    local root=$1 kbase=$2 version=$3
    shift 3
    : > "$root/modules.order"
    for module in "$@"; do
        /sbin/modprobe -d "$kbase" -S "$version" --show-depends "$module" | awk '/^insmod/{print $2}'
    done | awk '!seen[$0]++' | while read -r path; do
        name=$(basename "$path")
        cp "$path" "$root/modules/$name"
        echo "/modules/$name" >> "$root/modules.order"
    done
}

# vm_init ROOT TAKEN [SETUP]: ROOT/init, Tests/vm/helpers.sh and the screendump helper. init mounts
# the kernel's file systems, loads the modules, runs the shell lines SETUP, listens on the serial
# device TAKEN for the host's word that a screendump was taken (Tests/vm/screendump.sh waits for
# it), then runs /payload/script.sh with the helpers sourced, prints "KIOSK-VM-EXIT <status>"
# and powers off.
vm_init() {
    local root=$1 taken=$2 setup=${3:-}
    {
        cat <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /modules.order); do
    case $m in *.ko.xz) xz -dc "$m" > "${m%.xz}" && m=${m%.xz} ;; esac
    insmod "$m" 2>/dev/null
done
mdev -s 2>/dev/null
INIT
        printf '%s\n' "$setup"
        cat <<INIT
for i in \$(seq 1 50); do [ -e $taken ] && break; sleep 0.1; done
if stty -F $taken raw -echo 2>/dev/null; then
    cat $taken > /tmp/screendumps-taken &
fi
INIT
        cat <<'INIT'
echo KIOSK-VM-READY
cd /payload && sh -c '. /lib/kiosk-vm-helpers.sh && . /payload/script.sh'
echo "KIOSK-VM-EXIT $?"
poweroff -f
INIT
    } > "$root/init"
    chmod +x "$root/init"
    mkdir -p "$root/lib"
    cp "$vm_lib/helpers.sh" "$root/lib/kiosk-vm-helpers.sh"
    install -m 0755 "$vm_lib/screendump.sh" "$root/bin/screendump"
}

# vm_stop PID: a host-side helper (the screendump watcher, the display sizer) stopped, if started.
vm_stop() {
    [ -n "$1" ] || return 0
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# vm_exit SERIAL NAME: prints the console and exits with the script's status ("KIOSK-VM-EXIT"),
# or 1 when the VM never got there.
vm_exit() {
    cat "$1"
    local status
    status=$(sed -n 's/^KIOSK-VM-EXIT \([0-9]*\).*/\1/p' "$1" | tail -1)
    [ -n "$status" ] || { echo "$2: the VM did not finish its script (see the console above)" >&2; exit 1; }
    exit "$status"
}
