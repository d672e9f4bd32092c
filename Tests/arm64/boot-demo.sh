# Inside the arm64 VM (Tests/arm64/boot.sh): the aarch64 kiosk run as on a kiosk, on virtio-gpu's
# card0 and a uinput touchscreen made from demo.evemu's header; evemu-play plays the demo into
# it; once the scene has settled (a stats line with no frame drawn), the host takes a screendump,
# and SIGTERM ends the kiosk.
mkdir -p /var/lib/kiosk
evemu-device demo.evemu > /tmp/device.txt 2>&1 &
wait_for /dev/input/event /tmp/device.txt
device=$(grep -o '/dev/input/event[0-9]*' /tmp/device.txt)
./kiosk run --config kiosk.conf > /tmp/run.out 2> /tmp/run.err &
k=$!
wait_for "touchscreen attached" /tmp/run.err
evemu-play "$device" < demo.evemu
settled /tmp/run.err
# The kiosk's memory on the arm64 kernel, the scene drawn and settled: resident, and its peak.
echo "KIOSK-MEMORY $(grep -E '^(VmRSS|VmHWM)' /proc/$k/status | tr -s ' \t' ' ' | tr '\n' ' ')"
screendump
kill -TERM $k
wait $k
echo "KIOSK-RUN-STATUS $?"
section RUN-ERR /tmp/run.err
