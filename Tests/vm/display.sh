# Inside the VM: kiosk show on virtio-gpu's card0. It replays trace.evemu, sets the mode, flips
# pages and holds the frame; the host takes a screendump meanwhile (`screendump`, which returns
# once the host has saved the screen), and kiosk then puts the display back.
# Waits until the kiosk show writing to $1 has its frame on screen, or has ended.
shown() { for i in $(seq 1 600); do grep -q KIOSK-SHOWN "$1" && break; kill -0 $2 2>/dev/null || break; sleep 0.1; done; }
# The screen before any kiosk: the kernel's console on virtio-gpu's framebuffer, with text on it,
# so that no other screen (a blank one, QEMU's "Display output is not active") passes for it.
for i in $(seq 1 20); do echo "kiosk display test: the console before kiosk, line $i of 20" > /dev/tty0; done
screendump before
./kiosk show --trace trace.evemu --config kiosk.toml --font DejaVuSans.ttf --seconds 6 > /tmp/show.txt 2> /tmp/show.err &
k=$!
shown /tmp/show.txt $k
grep -q KIOSK-SHOWN /tmp/show.txt && screendump
wait $k
echo "KIOSK-SHOW-STATUS $?"
section SHOW /tmp/show.txt
section SHOW-LOG /tmp/show.err
# The config alone gives the rotation (180) and the font.
./kiosk show --trace trace.evemu --config turned.toml --seconds 6 > /tmp/turned.txt 2> /tmp/turned.err &
k=$!
shown /tmp/turned.txt $k
grep -q KIOSK-SHOWN /tmp/turned.txt && screendump turned
wait $k
echo "KIOSK-TURNED-STATUS $?"
section TURNED /tmp/turned.txt
section TURNED-LOG /tmp/turned.err
# With another process holding DRM master, kiosk show must say so and leave.
./kiosk show --config kiosk.toml --font DejaVuSans.ttf --seconds 6 > /tmp/holder.txt 2>&1 &
h=$!
shown /tmp/holder.txt $h
./kiosk show --config kiosk.toml --font DejaVuSans.ttf --seconds 0 > /tmp/second.txt 2>&1
echo "KIOSK-SECOND-STATUS $?"
kill $h
wait $h
section SECOND /tmp/second.txt
# Ended by a signal, kiosk must put the screen back itself. This shell keeps the card open
# meanwhile: the kernel puts its console back only when the card's last file closes, so what
# the screen shows after kiosk's end is kiosk's doing. SIGKILL, which nothing catches, shows
# what the screen would look like without it.
for sig in TERM INT SEGV ABRT KILL; do
    ./kiosk show --config kiosk.toml --font DejaVuSans.ttf --seconds 60 > /tmp/$sig.txt 2> /tmp/$sig.err &
    k=$!
    shown /tmp/$sig.txt $k
    exec 3<>/dev/dri/card0
    kill -$sig $k
    wait $k
    echo "KIOSK-$sig-STATUS $?"
    # QEMU shows a modeset on its next display refresh: give it a moment before asking.
    sleep 1
    screendump $sig
    exec 3<&-
    section $sig-LOG /tmp/$sig.err
done
# A mode the connector does not offer: the error lists the ones it does.
./kiosk show --config kiosk.toml --font DejaVuSans.ttf --mode 1234x567 --seconds 0 > /tmp/badmode.txt 2>&1
echo "KIOSK-BADMODE-STATUS $?"
section BADMODE /tmp/badmode.txt
