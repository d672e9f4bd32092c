# Inside the VM: the allocations of kiosk run's live input path, counted by a preloaded malloc
# counter (malloc-count.so; SIGUSR2 prints its count). A finger rests on the button, then moves
# a pixel back and forth: every report is read (libevdev), decoded, calibrated, made a
# TouchFrame and handed to the gestures, and nothing on screen changes. The count is taken
# after the finger settles (c0), after 200 such reports (c1) and after 400 more (c2), each once
# kiosk has gone idle; (c2 - c1) - (c1 - c0) is what 200 reports allocate.
count() {  # count N: ask kiosk for its count, the Nth time
    kill -USR2 $k
    wait_for "^malloc-count" /tmp/run.err "$1"
}

evemu-device down.evemu > /tmp/device.txt 2>&1 &
wait_for /dev/input/event /tmp/device.txt
device=$(grep -o '/dev/input/event[0-9]*' /tmp/device.txt)
LD_PRELOAD=./malloc-count.so ./kiosk run --config kiosk.conf > /tmp/run.out 2> /tmp/run.err &
k=$!
wait_for "touchscreen attached" /tmp/run.err
quiet $k
evemu-play "$device" < down.evemu
quiet $k
count 1
evemu-play "$device" < wiggle200.evemu
quiet $k
count 2
evemu-play "$device" < wiggle400.evemu
quiet $k
count 3
evemu-play "$device" < up.evemu
quiet $k
kill -TERM $k
wait $k
echo "KIOSK-EXIT $?"
echo "KIOSK-COUNTS $(grep '^malloc-count' /tmp/run.err | cut -d' ' -f2 | tr '\n' ' ')"
section LOG /tmp/run.err
