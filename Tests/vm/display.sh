# Inside the VM: kiosk show on virtio-gpu's card0. It replays trace.evemu, sets the mode, flips
# pages and holds the frame; the host takes a screendump meanwhile (KIOSK-SCREENDUMP), and kiosk
# then puts the display back.
section() { echo "KIOSK-$1-BEGIN"; cat "$2"; echo "KIOSK-$1-END"; }
# The screen before any kiosk: the kernel's console on virtio-gpu's framebuffer.
echo "KIOSK-SCREENDUMP:before"
sleep 3
./kiosk show --trace trace.evemu --config kiosk.toml --font DejaVuSans.ttf --seconds 6 > /tmp/show.txt 2> /tmp/show.err &
k=$!
for i in $(seq 1 600); do grep -q KIOSK-SHOWN /tmp/show.txt && break; kill -0 $k 2>/dev/null || break; sleep 0.1; done
grep -q KIOSK-SHOWN /tmp/show.txt && echo KIOSK-SCREENDUMP
wait $k
echo "KIOSK-SHOW-STATUS $?"
section SHOW /tmp/show.txt
section SHOW-LOG /tmp/show.err
# With another process holding DRM master, kiosk show must say so and leave.
./kiosk show --config kiosk.toml --font DejaVuSans.ttf --seconds 6 > /tmp/holder.txt 2>&1 &
h=$!
for i in $(seq 1 600); do grep -q KIOSK-SHOWN /tmp/holder.txt && break; kill -0 $h 2>/dev/null || break; sleep 0.1; done
./kiosk show --config kiosk.toml --font DejaVuSans.ttf --seconds 0 > /tmp/second.txt 2>&1
echo "KIOSK-SECOND-STATUS $?"
kill $h
wait $h
section SECOND /tmp/second.txt
# A crash while the frame is shown: the screen goes back to what it showed before.
./kiosk show --config kiosk.toml --font DejaVuSans.ttf --seconds 30 > /tmp/crash.txt 2>&1 &
c=$!
for i in $(seq 1 600); do grep -q KIOSK-SHOWN /tmp/crash.txt && break; kill -0 $c 2>/dev/null || break; sleep 0.1; done
kill -SEGV $c
wait $c
echo "KIOSK-CRASH-STATUS $?"
sleep 1
echo "KIOSK-SCREENDUMP:crashed"
sleep 3
# A mode the connector does not offer: the error lists the ones it does.
./kiosk show --config kiosk.toml --font DejaVuSans.ttf --mode 1234x567 --seconds 0 > /tmp/badmode.txt 2>&1
echo "KIOSK-BADMODE-STATUS $?"
section BADMODE /tmp/badmode.txt
