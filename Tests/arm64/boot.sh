#!/usr/bin/env bash
# Boots Debian's arm64 kernel under qemu-system-aarch64 (-M virt -cpu cortex-a72, TCG) with
# virtio-gpu and uinput, runs one shell script inside as init's only job, and prints the serial
# console: Tests/vm/run-in-vm.sh's counterpart for an aarch64 kiosk.
#
#   Tests/arm64/boot.sh SCRIPT [FILE...]
#
# FILEs are copied to /payload in the VM; aarch64 executables among them with the shared
# libraries their dynamic loader lists (found under qemu-user in the trixie build root). The
# kernel, its modules, busybox and evemu are trixie's arm64 packages, unpacked in the build root's
# /opt/arm64-vm (Tools/trixie-root.sh). The script runs with Tests/vm/helpers.sh sourced; its exit
# status is printed as "KIOSK-VM-EXIT <status>" and becomes this command's. With
# KIOSK_VM_SCREENDUMP=FILE.ppm, `screendump [NAME]` inside saves the screen as in run-in-vm.sh
# (the host's word comes back on a virtio console, /dev/hvc0). KIOSK_VM_TIMEOUT (default 240).
# Needs qemu-system-arm qemu-user-static cpio kmod python3, and root for the build root.
set -euo pipefail
script=${1:?usage: boot.sh SCRIPT [FILE...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/Tests/vm/initramfs.sh"
root=${KIOSK_ARM64_ROOT:-$("$top/Tools/trixie-root.sh" path)}
vm=$root/opt/arm64-vm
version=$(cat "$vm/kernel-version")
modules=$vm/lib/modules
[ -d "$modules/$version" ] || modules=$vm/usr/lib/modules
kbase=$(dirname "$(dirname "$modules")")   # modprobe -d and depmod -b take the folder above lib/modules
[ -f "$modules/$version/modules.dep" ] || /sbin/depmod -b "$kbase" "$version"

run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
initrd=$run/root
mkdir -p "$initrd"/{bin,dev,proc,sys,tmp,payload,modules,lib/aarch64-linux-gnu}
busybox=$vm/bin/busybox
[ -x "$busybox" ] || busybox=$vm/usr/bin/busybox
cp "$busybox" "$initrd/bin/busybox"
# An aarch64 executable and its libraries: the dynamic loader, run under qemu-user against the
# root, lists them (paths inside the root); all go flat into /lib/aarch64-linux-gnu.
libpath=/opt/arm64-vm/usr/lib/aarch64-linux-gnu:/usr/lib/aarch64-linux-gnu:/opt/arm64-swift/usr/lib/swift/linux:/opt/arm64-swift/usr/libexec/swift/lib/swift/linux
copy_binary() {
    cp "$1" "$2"
    QEMU_LD_PREFIX=$root LD_LIBRARY_PATH=$libpath qemu-aarch64-static "$root/lib/ld-linux-aarch64.so.1" --list "$1" \
        | awk -v root="$root" '$2 == "=>" && $3 ~ /^\// && index($3, root) != 1 { print $3 }' | while read -r lib; do
            [ -e "$initrd/lib/aarch64-linux-gnu/$(basename "$lib")" ] || cp -L "$root$lib" "$initrd/lib/aarch64-linux-gnu/"
        done
}
cp -L "$root/lib/ld-linux-aarch64.so.1" "$initrd/lib/ld-linux-aarch64.so.1"
for tool in evemu-device evemu-play evemu-record evemu-describe; do copy_binary "$vm/usr/bin/$tool" "$initrd/bin/$tool"; done
is_aarch64() { [ "$(od -An -tx1 -j18 -N2 "$1" 2>/dev/null | tr -d ' \n')" = b700 ] && [ "$(head -c4 "$1" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; }
for file in "$@"; do
    if is_aarch64 "$file"; then copy_binary "$file" "$initrd/payload/$(basename "$file")"; else cp "$file" "$initrd/payload/"; fi
done
cp "$script" "$initrd/payload/script.sh"
vm_modules "$initrd" "$kbase" "$version" virtio_gpu uinput evdev virtio_pci virtio_console
# The host's word that a screendump was taken comes on a virtio console.
vm_init "$initrd" /dev/hvc0 'export LD_LIBRARY_PATH=/lib/aarch64-linux-gnu'
(cd "$initrd" && find . | cpio -o -H newc --quiet) > "$run/initrd.cpio"

serial=$run/serial.log
: > "$serial"
monitor=(-monitor none)
watcher=
if [ -n "${KIOSK_VM_SCREENDUMP:-}" ]; then
    monitor=(-monitor "unix:$run/monitor.sock,server,nowait"
             -chardev "socket,id=taken,path=$run/taken.sock,server=on,wait=off"
             -device virtio-serial-pci -device virtconsole,chardev=taken)
    python3 "$top/Tests/vm/screendumps.py" "$serial" "$run/monitor.sock" "$KIOSK_VM_SCREENDUMP" "${KIOSK_VM_TIMEOUT:-240}" "$run/taken.sock" &
    watcher=$!
fi
kernel=$vm/boot/vmlinuz-$version
timeout "${KIOSK_VM_TIMEOUT:-240}" qemu-system-aarch64 -M virt -cpu cortex-a72 -m 1024 -smp 1 -no-reboot \
    -kernel "$kernel" -initrd "$run/initrd.cpio" -append "console=ttyAMA0 rdinit=/init quiet panic=-1" \
    -device virtio-gpu-pci,xres=800,yres=480 -nic none -display none -serial "file:$serial" "${monitor[@]}" || true
vm_stop "$watcher"
vm_exit "$serial" boot.sh
