# Inside the VM: kiosk run on virtio-gpu, whose driver has no vblank interrupts and completes page
# flips at once. kiosk must find that out at startup (drmWaitVBlank says EOPNOTSUPP), say it once,
# and draw every frame at once: a drag played at exactly 60 Hz makes flips 16.7 ms apart, which
# times alone could take for a panel's vblanks.
evemu-device drag.evemu > /tmp/device.txt 2>&1 &
wait_for /dev/input/event /tmp/device.txt
device=$(grep -o '/dev/input/event[0-9]*' /tmp/device.txt)
./kiosk run --config kiosk.conf --log-level debug > /tmp/run.out 2> /tmp/run.err &
k=$!
wait_for "touchscreen attached" /tmp/run.err
evemu-play "$device" < drag.evemu
settled /tmp/run.err
kill -TERM $k
wait $k
echo "KIOSK-EXIT $?"
section LOG /tmp/run.err
