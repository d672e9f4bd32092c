# Inside the VM: a tap played through uinput reaches a hook. kiosk run takes a uinput FT5406 and
# virtio-gpu's card0; tap.evemu taps the button; its [[hook]] (hook.sh, run without a shell by
# kiosk) writes its environment to /tmp/hook-env.txt and a line to its stdout, which kiosk logs.
# Every wait is on a marker, with a timeout of a minute.
chmod 755 hook.sh
evemu-device tap.evemu > /tmp/device.txt 2>&1 &
panel=$!
wait_for /dev/input/event /tmp/device.txt
device=$(grep -o '/dev/input/event[0-9]*' /tmp/device.txt)

./kiosk run --config kiosk.conf > /tmp/run.out 2> /tmp/run.err &
k=$!
wait_for "touchscreen attached" /tmp/run.err
evemu-play "$device" < tap.evemu
wait_for "ended: exit status 0" /tmp/run.err
kill -TERM $k
wait $k
echo "KIOSK-RUN-STATUS $?"
kill $panel
section HOOK-ENV /tmp/hook-env.txt
section LOG /tmp/run.err
