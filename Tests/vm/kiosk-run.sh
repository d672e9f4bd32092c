# Inside the VM: kiosk run as on a kiosk, its log on the second serial port (/dev/ttyS1).
#   1. a uinput FT5406 appears; kiosk run starts and takes it and virtio-gpu's card0;
#   2. visit.evemu drags a square, pinches another, taps the button and toggles the switch;
#   3. a broken config and SIGHUP: the reload fails, logged with file:line; kiosk draws on:
#      again.evemu taps the button once more;
#   4. SIGUSR1 writes a screenshot; the host takes a screendump;
#   5. a good config with blank_after = 1 and SIGHUP: it applies; the panel blanks (DPMS off)
#      and a tap wakes it (DPMS on) without reaching the button;
#   6. the touchscreen is unplugged: logged, the kiosk runs on; SIGTERM ends it cleanly.
section() { echo "KIOSK-$1-BEGIN"; cat "$2"; echo "KIOSK-$1-END"; }
wait_for() {  # wait_for TEXT FILE [COUNT]: until FILE holds TEXT at least COUNT times
    for i in $(seq 1 300); do [ "$(grep -c "$1" "$2" 2>/dev/null)" -ge "${3:-1}" ] && return 0; sleep 0.1; done
    echo "KIOSK-TIMEOUT waiting for '$1' in $2"
    return 1
}
mkdir -p /var/lib/kiosk
evemu-device visit.evemu > /tmp/device.txt 2>&1 &
panel=$!
wait_for /dev/input/event /tmp/device.txt
device=$(grep -o '/dev/input/event[0-9]*' /tmp/device.txt)

./kiosk run --config kiosk.conf --log-level debug > /tmp/run.out 2> /tmp/run.err &
k=$!
wait_for "touchscreen attached" /tmp/run.err
evemu-play "$device" < visit.evemu
sleep 1
wait_for "stats" /tmp/run.err 2

cp kiosk.conf good.conf
cp broken.conf kiosk.conf
kill -HUP $k
wait_for "config reload failed" /tmp/run.err
evemu-play "$device" < again.evemu
sleep 1
kill -USR1 $k
wait_for "screenshot written" /tmp/run.err
ls /var/lib/kiosk > /tmp/screenshots.txt
echo KIOSK-SCREENDUMP
sleep 4
wait_for "stats" /tmp/run.err 4

awk '{ print } /^\[display\]$/ { print "blank_after = 1" }' good.conf > kiosk.conf
kill -HUP $k
wait_for "config reloaded" /tmp/run.err
wait_for "display blanked" /tmp/run.err
echo "KIOSK-DPMS-BLANKED $(cat /sys/class/drm/card0-Virtual-1/dpms)"
evemu-play "$device" < again.evemu
wait_for "display woken" /tmp/run.err
sleep 0.5
echo "KIOSK-DPMS-WOKEN $(cat /sys/class/drm/card0-Virtual-1/dpms)"
kill $panel
wait_for "touchscreen removed" /tmp/run.err
kill -TERM $k
wait $k
echo "KIOSK-RUN-STATUS $?"
section RUN-ERR /tmp/run.err
section RUN-OUT /tmp/run.out
section SCREENSHOTS /tmp/screenshots.txt
