# Inside the VM: a tap played through uinput reaches a hook, a control-socket subscriber and an
# MQTT broker. kiosk run takes a uinput FT5406 and virtio-gpu's card0; tap.evemu taps the button;
# its [[hook]] (hook.sh, run without a shell by kiosk) writes its environment to /tmp/hook-env.txt
# and a line to its stdout, which kiosk logs; `kiosk control watch` prints the events it is sent;
# the broker is the host's (10.0.2.2 on QEMU's user-mode network), where the test subscribes.
# Every wait is on a marker, with a timeout of a minute.
chmod 755 hook.sh
evemu-device tap.evemu > /tmp/device.txt 2>&1 &
panel=$!
wait_for /dev/input/event /tmp/device.txt
device=$(grep -o '/dev/input/event[0-9]*' /tmp/device.txt)

./kiosk run --config kiosk.conf > /tmp/run.out 2> /tmp/run.err &
k=$!
wait_for "touchscreen attached" /tmp/run.err
wait_for "control socket listening" /tmp/run.err
wait_for "mqtt: connected" /tmp/run.err
./kiosk control --socket /tmp/control.sock watch > /tmp/watch.txt 2> /tmp/watch.err &
watcher=$!
# The watcher is subscribed once a change made through the socket reaches it.
for i in $(seq 1 60); do
    ./kiosk control --socket /tmp/control.sock set slider "0.$i" > /dev/null 2>> /tmp/watch.err
    grep -q valueChanged /tmp/watch.txt && break
    sleep 0.2
done
evemu-play "$device" < tap.evemu
wait_for "ended: exit status 0" /tmp/run.err
wait_for primaryActionTriggered /tmp/watch.txt
kill -TERM $k
wait $k
echo "KIOSK-RUN-STATUS $?"
kill $watcher $panel
section HOOK-ENV /tmp/hook-env.txt
section WATCH /tmp/watch.txt
section WATCH-ERR /tmp/watch.err
section LOG /tmp/run.err
