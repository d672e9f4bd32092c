# Inside the VM: DRM master taken from a running kiosk, as logind takes it from a session it
# switches away from, then given back.
#   1. a uinput FT5406 appears; kiosk run takes it and virtio-gpu's card0;
#   2. master-thief drops master on kiosk's own DRM file and holds master itself; a tap on the
#      button makes kiosk draw: the page flip is refused, kiosk logs the display lost; a second
#      tap still reaches the button (input goes on); kiosk's retry is refused (master held);
#   3. the thief lets go; kiosk takes master back at its next retry and draws the whole scene,
#      both taps' effect included; the host takes a screendump; SIGTERM ends kiosk.
# Every wait is on a marker, with a timeout of a minute.

evemu-device tap.evemu > /tmp/device.txt 2>&1 &
wait_for /dev/input/event /tmp/device.txt
device=$(grep -o '/dev/input/event[0-9]*' /tmp/device.txt)
./kiosk run --config kiosk.conf --log-level debug > /tmp/run.out 2> /tmp/run.err &
k=$!
wait_for "touchscreen attached" /tmp/run.err
settled /tmp/run.err

./master-thief $k /dev/dri/card0 /tmp/release > /tmp/thief.txt 2>&1 &
thief=$!
wait_for "took master" /tmp/thief.txt
evemu-play "$device" < tap.evemu
wait_for "display lost" /tmp/run.err
evemu-play "$device" < tap.evemu
wait_for "primaryActionTriggered" /tmp/run.err 2
wait_for "display still down" /tmp/run.err
touch /tmp/release
wait_for "let go" /tmp/thief.txt
wait $thief
echo "KIOSK-THIEF-EXIT $?"
wait_for "display back" /tmp/run.err
settled /tmp/run.err
screendump
kill -TERM $k
wait $k
echo "KIOSK-EXIT $?"
section THIEF /tmp/thief.txt
section LOG /tmp/run.err
