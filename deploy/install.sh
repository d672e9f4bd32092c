#!/bin/sh
# Installs kiosk on a Raspberry Pi (Raspberry Pi OS Lite, 64-bit), or into a mounted image.
#
#   deploy/install.sh [--binary PATH] [--root DIR] [--boot-config] [--no-start]
#
#   --binary PATH   the kiosk executable (default: .build/release/kiosk, then ./kiosk)
#   --root DIR      install into DIR instead of / (an SD card's root file system, mounted)
#   --boot-config   add deploy/raspberry-pi's lines to config.txt and cmdline.txt (once; a
#                   .kiosk-backup of each is kept)
#   --no-start      enable the service but do not start it now
#
# It installs /usr/local/bin/kiosk, /etc/kiosk/kiosk.conf (only when there is none: an
# integrator's file is never overwritten), the systemd unit, the kiosk user (systemd-sysusers),
# and masks the serial getty so the serial line carries kiosk's log and the kernel's, no login.
# When the config has [mqtt], it adds kiosk.service.d/mqtt.conf (deploy/kiosk-mqtt.conf), which
# gives kiosk the network (the unit alone has none); without [mqtt], it removes that drop-in.
# Running it again changes nothing that is already in place.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
binary=
root=/
boot_config=no
start=yes
while [ $# -gt 0 ]; do
    case $1 in
        --binary) binary=$2; shift 2 ;;
        --root) root=$2; shift 2 ;;
        --boot-config) boot_config=yes; shift ;;
        --no-start) start=no; shift ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
if [ -z "$binary" ]; then
    for candidate in "$top/.build/release/kiosk" "$here/kiosk" ./kiosk; do
        [ -x "$candidate" ] && binary=$candidate && break
    done
fi
[ -n "$binary" ] && [ -x "$binary" ] || { echo "install.sh: no kiosk executable; build it (swift build -c release) or pass --binary PATH" >&2; exit 2; }
root=${root%/}
say() { echo "install.sh: $*"; }

install -D -m 0755 "$binary" "$root/usr/local/bin/kiosk"
say "installed $root/usr/local/bin/kiosk"
if [ -e "$root/etc/kiosk/kiosk.conf" ]; then
    say "kept $root/etc/kiosk/kiosk.conf (the default is $top/config/kiosk.toml)"
else
    install -D -m 0644 "$top/config/kiosk.toml" "$root/etc/kiosk/kiosk.conf"
    say "installed $root/etc/kiosk/kiosk.conf"
fi
install -D -m 0644 "$here/kiosk.service" "$root/etc/systemd/system/kiosk.service"
install -D -m 0644 "$here/kiosk.sysusers" "$root/usr/lib/sysusers.d/kiosk.conf"
# The backlight's brightness and bl_power for the video group (the display as a light).
install -D -m 0644 "$here/kiosk-backlight.rules" "$root/etc/udev/rules.d/90-kiosk-backlight.rules"
install -D -m 0644 "$top/README.md" "$root/usr/local/share/doc/kiosk/README.md"
# The reference the README links to, one file per topic, where its links find it.
for page in "$top"/docs/*.md; do install -D -m 0644 "$page" "$root/usr/local/share/doc/kiosk/docs/${page##*/}"; done
# Not enabled: the drop-in that lets hooks drive GPIO lines (docs/connecting.md, "Hooks").
install -D -m 0644 "$here/kiosk-gpio.conf" "$root/usr/local/share/doc/kiosk/kiosk-gpio.conf"
mkdir -p "$root/var/lib/kiosk"
# The unit has no network; a config with [mqtt] needs its broker: a drop-in allows the network.
dropin=$root/etc/systemd/system/kiosk.service.d/mqtt.conf
if grep -q '^[[:space:]]*\[mqtt\][[:space:]]*\(#.*\)\?$' "$root/etc/kiosk/kiosk.conf"; then
    install -D -m 0644 "$here/kiosk-mqtt.conf" "$dropin"
    say "installed $dropin: the config has [mqtt], so kiosk may reach the network"
elif [ -e "$dropin" ]; then
    rm -f "$dropin"
    say "removed $dropin: the config has no [mqtt]"
fi

if [ "$boot_config" = yes ]; then
    boot=$root/boot/firmware
    [ -f "$boot/config.txt" ] || boot=$root/boot
    [ -f "$boot/config.txt" ] && [ -f "$boot/cmdline.txt" ] || { echo "install.sh: no config.txt and cmdline.txt in $root/boot/firmware or $root/boot" >&2; exit 2; }
    if ! grep -q '^# kiosk (deploy/raspberry-pi/config.txt)' "$boot/config.txt"; then
        [ -e "$boot/config.txt.kiosk-backup" ] || cp "$boot/config.txt" "$boot/config.txt.kiosk-backup"
        { echo; echo "# kiosk (deploy/raspberry-pi/config.txt)"; echo "[all]"; grep -v '^#' "$here/raspberry-pi/config.txt" | grep .; } >> "$boot/config.txt"
        say "added kiosk's lines to $boot/config.txt"
    fi
    # cmdline.txt is one line: drop the words kiosk's replace, add kiosk's, keep the rest in order.
    line=$(head -n 1 "$boot/cmdline.txt")
    words=$(cat "$here/raspberry-pi/cmdline.txt")
    kept=
    for w in $line; do
        case $w in
            console=*|consoleblank=*|vt.global_cursor_default=*|logo.nologo|quiet|loglevel=*) ;;
            *) kept="$kept $w" ;;
        esac
    done
    new="${kept# } $words"
    if [ "$new" != "$line" ]; then
        [ -e "$boot/cmdline.txt.kiosk-backup" ] || cp "$boot/cmdline.txt" "$boot/cmdline.txt.kiosk-backup"
        echo "$new" > "$boot/cmdline.txt"
        say "set $boot/cmdline.txt: $new"
    fi
fi

# The config is checked before the service is started with it.
if "$root/usr/local/bin/kiosk" --help >/dev/null 2>&1; then
    "$root/usr/local/bin/kiosk" check-config "$root/etc/kiosk/kiosk.conf" >/dev/null \
        || { echo "install.sh: $root/etc/kiosk/kiosk.conf has errors (above); fix them, then run install.sh again" >&2; exit 1; }
else
    say "this kiosk does not run here (another architecture?): run 'kiosk check-config /etc/kiosk/kiosk.conf' on the kiosk"
fi

# The serial getties to mask: the on-board UARTs' names (Pi 1-4: ttyS0 or ttyAMA0; Pi 5: ttyAMA10),
# and whatever /dev/serial0 points at on this machine.
getties="serial-getty@ttyS0.service serial-getty@ttyAMA0.service serial-getty@ttyAMA10.service"
if [ "$root" = "" ] && [ -e /dev/serial0 ]; then
    getties="$getties serial-getty@$(basename "$(readlink -f /dev/serial0)").service"
fi
if command -v systemctl >/dev/null 2>&1; then
    if [ "$root" = "" ]; then
        systemd-sysusers /usr/lib/sysusers.d/kiosk.conf
        # The backlight rule for the backlights already there (it applies by itself at the next boot).
        if command -v udevadm >/dev/null 2>&1; then udevadm trigger --subsystem-match=backlight --action=add || true; fi
        systemctl daemon-reload
        # --now: a getty still running would keep the port (root:tty 0620) from kiosk's user.
        # shellcheck disable=SC2086
        systemctl mask --now --quiet $getties
        systemctl enable --quiet kiosk.service
        if [ "$start" = yes ]; then systemctl restart kiosk.service; say "started kiosk.service"; fi
    else
        # shellcheck disable=SC2086
        systemctl --root="$root" mask --quiet $getties
        systemctl --root="$root" enable --quiet kiosk.service
    fi
    say "enabled kiosk.service; serial getties masked: $getties"
else
    say "no systemctl: enable kiosk.service and mask the serial getty yourself"
fi
[ "$boot_config" = yes ] && say "reboot for the boot settings to take effect"
say "done; the log: a USB serial adapter on the console UART at 115200 8N1, or journalctl -u kiosk"
