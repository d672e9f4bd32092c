# Inside the VM of service-in-vm.sh, as root, once systemd has finished the boot: kiosk.service
# as deploy/install.sh installed it, started at boot by systemd.
#   1. the service as it came up: its state and status text (READY=1 is sent after the first
#      frame), the process's user, groups, seccomp and capabilities, its network namespace, and
#      which devices the unit's cgroup lets a process open; the screen ("boot"). With only the
#      VM's keyboard in /dev/input, its journal lines at warning and above once it said it waits;
#   2. a uinput FT5406 appears and trace.evemu is played on it; once the scene has settled the
#      host takes a screendump ("touched");
#   3. a broken config and `systemctl reload`: refused, logged at err; a changed config (another
#      background) and `systemctl reload`: applied; the screen ("reloaded");
#   3b. the display unplugged while kiosk idles (the connector forced off, and the host resizes
#      virtio-gpu's head through QEMU, so the kernel sends a real DRM hotplug uevent into the
#      unit's namespaces), the installed config reloaded meanwhile (its own background), then
#      plugged in again (a second uevent): kiosk logs both and draws a whole frame ("replugged");
#   4. SIGKILL: systemd restarts kiosk; SIGSTOP: the watchdog kills it and systemd restarts it;
#      each timed from the signal until the new kiosk is active;
#   5. the service stopped, kiosk run by a user that lacks one of input, video, dialout;
#   6. `systemctl restart kiosk` keeps the slider the control socket set (the state file);
#   6b. the display as a light under the unit: Debian's kernel under QEMU has no backlight device
#      (virtio-gpu has none), so a stand-in: a tmpfs over /sys/class/backlight holding a folder
#      laid out as the class (max_brightness, brightness, bl_power), brightness and bl_power
#      root:video 0664 as deploy/kiosk-backlight.rules makes them. kiosk is restarted to find it;
#      `kiosk control display` sets the brightness and switches it off and on through the unit's
#      sandbox (ReadWritePaths=, the video group under PrivateUsers=). It tests the sandbox and the
#      group, not a driver nor the link from /sys/class/backlight into /sys/devices;
#   7. systemd-analyze security; kiosk's journal by priority.
# Every wait is on a state or a log line, bounded; the host's test reads the sections printed.
uptime_s() { cut -d' ' -f1 /proc/uptime; }
prop() { systemctl show -p "$1" --value kiosk; }
state() { echo "$(prop ActiveState)/$(prop SubState)"; }
# until_active OLDPID: until a kiosk other than OLDPID is active and running (up to 60 s).
until_active() {
    for i in $(seq 1 300); do
        pid=$(prop MainPID)
        [ "$(state)" = active/running ] && [ "$pid" != 0 ] && [ "$pid" != "$1" ] && return 0
        sleep 0.2
    done
    echo "KIOSK-TIMEOUT waiting for a new kiosk to be active (was $1; now $(state), pid $(prop MainPID))"
    return 1
}
until_state() {  # until_state STATE: until kiosk.service is STATE (up to 60 s)
    for i in $(seq 1 300); do [ "$(prop ActiveState)" = "$1" ] && return 0; sleep 0.2; done
    echo "KIOSK-TIMEOUT waiting for kiosk.service to be $1 (it is $(state))"
    return 1
}
show() { systemctl show kiosk -p ActiveState -p SubState -p StatusText -p MainPID -p NRestarts -p Result; }

# kiosk's own lines in the journal, as they come.
journalctl -b -f -t kiosk -o cat --no-pager > /tmp/kiosk.log &

echo "KIOSK-BOOTED uptime=$(uptime_s)"
show > /tmp/state-boot.txt
pid=$(prop MainPID)
# Booted with only the VM's keyboard: kiosk's lines at warning and above once it said it waits.
for i in $(seq 1 300); do
    journalctl -b -t kiosk _PID="$pid" -p warning -o cat --no-pager > /tmp/only-keyboard.txt
    grep -q "no touchscreen yet" /tmp/only-keyboard.txt && break
    sleep 0.2
done
{
    grep -E '^(Uid|Gid|NoNewPrivs|Seccomp|CapEff|CapBnd):' "/proc/$pid/status"
    echo "User: $(stat -c %U "/proc/$pid")"
    echo "Groups: $(for g in $(awk '/^Groups:/ { $1 = ""; print }' "/proc/$pid/status"); do getent group "$g" | cut -d: -f1; done | sort | paste -sd' ')"
    [ "$(readlink "/proc/$pid/ns/net")" = "$(readlink /proc/1/ns/net)" ] && echo "Network: the host's" || echo "Network: private"
    echo "Interfaces: $(awk -F: 'NR > 2 { gsub(/ /, "", $1); print $1 }' "/proc/$pid/net/dev" | paste -sd' ')"
} > /tmp/process.txt
# The device allow-list as the kernel applies it to the unit's cgroup: a shell moved into it
# tries to open each device (O_NONBLOCK, reading nothing).
cgroup=/sys/fs/cgroup$(awk -F: '$1 == "0" { print $3 }' "/proc/$pid/cgroup")
sh -c 'echo $$ > "$1/cgroup.procs"; shift
    for d in "$@"; do
        if dd if="$d" of=/dev/null bs=1 count=0 iflag=nonblock 2>/dev/null; then echo "$d open"; else echo "$d denied"; fi
    done' sh "$cgroup" /dev/dri/card0 /dev/input/event0 /dev/ttyS1 /dev/null /dev/mem /dev/uinput /dev/kmsg /dev/vcs > /tmp/devices.txt
screendump boot

evemu-device trace.evemu > /tmp/device.txt 2>&1 &
wait_for /dev/input/event /tmp/device.txt
device=$(grep -o '/dev/input/event[0-9]*' /tmp/device.txt)
wait_for "touchscreen attached" /tmp/kiosk.log
evemu-play "$device" < trace.evemu
settled /tmp/kiosk.log
screendump touched

cp /etc/kiosk/kiosk.conf /tmp/installed.conf
cp broken.conf /etc/kiosk/kiosk.conf
systemctl reload kiosk
wait_for "config reload failed" /tmp/kiosk.log
cp changed.conf /etc/kiosk/kiosk.conf
systemctl reload kiosk
wait_for "config reloaded" /tmp/kiosk.log
settled /tmp/kiosk.log
show > /tmp/state-reloaded.txt
screendump reloaded

connector=/sys/class/drm/card0-Virtual-1
echo off > $connector/status
echo "KIOSK-DISPLAY-SIZE 640x480"
wait_for "display unplugged" /tmp/kiosk.log
echo "KIOSK-UNPLUGGED $(cat $connector/status)"
cp /tmp/installed.conf /etc/kiosk/kiosk.conf
systemctl reload kiosk
wait_for "config reloaded" /tmp/kiosk.log 2
echo detect > $connector/status
echo "KIOSK-DISPLAY-SIZE 800x480"
wait_for "display back" /tmp/kiosk.log
settled /tmp/kiosk.log
echo "KIOSK-PLUGGED $(cat $connector/status)"
screendump replugged

old=$(prop MainPID)
t0=$(uptime_s)
kill -KILL "$old"
until_active "$old"
echo "KIOSK-SIGKILL seconds=$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { print b - a }') restarts=$(prop NRestarts)"

old=$(prop MainPID)
t0=$(uptime_s)
kill -STOP "$old"
until_active "$old"
echo "KIOSK-SIGSTOP seconds=$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { print b - a }') restarts=$(prop NRestarts) watchdog=$(prop WatchdogUSec)"
show > /tmp/state-end.txt
journalctl -b -u kiosk _PID=1 -o cat --no-pager > /tmp/systemd.txt
ls -A /var/lib/kiosk > /tmp/state-directory.txt
# The control socket under the unit (RuntimeDirectory=kiosk): its mode, owner and group, and a
# set and a get through it with `kiosk control`, as root (a member of group kiosk may too).
{
    stat -c 'socket %a %U %G' /run/kiosk/control.sock
    /usr/local/bin/kiosk control --socket /run/kiosk/control.sock set slider 0.25 && echo "set ok"
    /usr/local/bin/kiosk control --socket /run/kiosk/control.sock state | tr -d ' \n'; echo
} > /tmp/control.txt 2>&1
# `systemctl restart kiosk` keeps the slider where the socket set it: the state file in the
# unit's StateDirectory, written at the set (and at SIGTERM), restored before the first frame.
{
    old=$(prop MainPID)
    systemctl restart kiosk
    until_active "$old"
    /usr/local/bin/kiosk control --socket /run/kiosk/control.sock state | tr -d ' \n'; echo
    stat -c 'state file %a %U %G' /var/lib/kiosk/state.json
} > /tmp/restart.txt 2>&1
{
    mount -t tmpfs -o mode=0755 standin /sys/class/backlight
    b=/sys/class/backlight/standin
    mkdir "$b"
    echo 255 > "$b/max_brightness"; echo 255 > "$b/brightness"; echo 0 > "$b/bl_power"
    chgrp video "$b/brightness" "$b/bl_power"
    chmod 0664 "$b/brightness" "$b/bl_power"
    old=$(prop MainPID)
    systemctl restart kiosk
    until_active "$old"
    k="/usr/local/bin/kiosk control --socket /run/kiosk/control.sock"
    $k display --brightness 0.4 && echo "brightness set $(cat "$b/brightness")"
    $k display off && echo "off bl_power $(cat "$b/bl_power")"
    $k display | tr -d ' \n'; echo
    $k wake && echo "woken bl_power $(cat "$b/bl_power")"
    journalctl -b -t kiosk -o cat --no-pager | grep -E 'backlight|display (blanked|woken)' | tail -n 5
} > /tmp/backlight.txt 2>&1
systemd-analyze security kiosk --no-pager > /tmp/security.txt 2>&1

# A user without one of the groups: the service's user and config, run by hand with setpriv.
systemctl stop kiosk
until_state inactive
for missing in input video dialout; do
    groups=$(echo video input dialout | tr ' ' '\n' | grep -vx "$missing" | paste -sd,)
    setpriv --reuid=kiosk --regid=kiosk --groups="$groups" --inh-caps=-all --bounding-set=-all \
        /usr/local/bin/kiosk run --config /etc/kiosk/kiosk.conf > /tmp/without-$missing.out 2> /tmp/without-$missing.err &
    k=$!
    # It exits, or goes on without what it could not open: either way it says so.
    for i in $(seq 1 300); do
        grep -q 'group' /tmp/without-$missing.err && break
        kill -0 $k 2>/dev/null || break
        sleep 0.2
    done
    if kill -0 $k 2>/dev/null; then
        kill -TERM $k
        echo "KIOSK-WITHOUT-$missing ran"
    fi
    wait $k
    echo "KIOSK-WITHOUT-$missing status=$?"
    section "WITHOUT-$missing" /tmp/without-$missing.err
done

section ONLY-KEYBOARD /tmp/only-keyboard.txt
section LOG /tmp/kiosk.log
section STATE-BOOT /tmp/state-boot.txt
section STATE-RELOADED /tmp/state-reloaded.txt
section STATE-END /tmp/state-end.txt
section PROCESS /tmp/process.txt
section DEVICES /tmp/devices.txt
section SYSTEMD /tmp/systemd.txt
section STATE-DIRECTORY /tmp/state-directory.txt
section CONTROL /tmp/control.txt
section RESTART /tmp/restart.txt
section BACKLIGHT /tmp/backlight.txt
section SECURITY /tmp/security.txt
# kiosk's lines at each syslog priority, 0 (emerg) to 7 (debug).
for p in 0 1 2 3 4 5 6 7; do
    journalctl -b -t kiosk -p "$p..$p" -o cat --no-pager > /tmp/journal-$p.txt
    section "JOURNAL-$p" /tmp/journal-$p.txt
done
