# Inside the VM: kiosk run as on a kiosk, its log on the second serial port (/dev/ttyS1).
#   1. a uinput FT5406 appears; kiosk run starts and takes it and virtio-gpu's card0;
#   2. visit.evemu drags a square, pinches another, taps the button and toggles the switch;
#   3. a broken config and SIGHUP: the reload fails, logged with file:line; kiosk draws on:
#      again.evemu taps the button once more;
#   4. SIGUSR1 writes a screenshot; the host takes a screendump; SIGTERM ends it cleanly.
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

./kiosk run --config kiosk.conf > /tmp/run.out 2> /tmp/run.err &
k=$!
wait_for "touchscreen attached" /tmp/run.err
evemu-play "$device" < visit.evemu
sleep 1
wait_for "stats" /tmp/run.err 2

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
kill -TERM $k
wait $k
echo "KIOSK-RUN-STATUS $?"
kill $panel
section RUN-ERR /tmp/run.err
section RUN-OUT /tmp/run.out
section SCREENSHOTS /tmp/screenshots.txt
