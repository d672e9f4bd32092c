# Inside the VM: kiosk against a uinput FT5406 made from trace.evemu's header.
#   1. kiosk devices lists it (and skips the VM's keyboard), also as the [input] device of a config
#      and through a udev-style by-id symlink; evemu-describe describes it for comparison;
#   2. kiosk touches (the device named by its name) and kiosk record (by the symlink) listen while
#      evemu-play plays trace.evemu; kiosk's recording is then turned back into a device by
#      evemu-device and played into it by evemu-play, while evemu-record records what comes out;
#   3. a flood played while kiosk touches and kiosk record are stopped (SIGSTOP) overflows the
#      kernel's buffer: SYN_DROPPED, then libevdev's resync must leave no touch down, and the
#      finger still down must jump to where it is;
#   4. grab: evemu-record reads the panel while kiosk touches --grab holds it, then without grab;
#   5. hotplug: kiosk touches --follow starts with no touchscreen; one appears and a finger drags
#      on it; it is removed mid-drag; another appears and is tapped.
evemu-device trace.evemu > /tmp/device.txt 2>&1 &
panel=$!
wait_for /dev/input/event /tmp/device.txt
device=$(grep -o '/dev/input/event[0-9]*' /tmp/device.txt)
# There is no udev here: the link udev would make, by hand.
mkdir -p /dev/input/by-id
link=/dev/input/by-id/i2c-generic-ft5x06-event-ts
ln -s "../$(basename "$device")" "$link"
./kiosk devices > /tmp/devices.txt 2>&1
section DEVICES /tmp/devices.txt
./kiosk devices --config named.toml > /tmp/devices-named.txt 2>&1
section DEVICES-NAMED /tmp/devices-named.txt
./kiosk devices --config missing.toml > /tmp/devices-missing.txt 2>&1
section DEVICES-MISSING /tmp/devices-missing.txt
./kiosk devices --device "$link" > /tmp/devices-link.txt 2>&1
section DEVICES-LINK /tmp/devices-link.txt
evemu-describe "$device" > /tmp/describe.txt 2>&1
section DESCRIBE /tmp/describe.txt

./kiosk touches --device "generic ft5x06 (79)" --duration 10 > /tmp/touches.txt 2> /tmp/touches.err &
t=$!
./kiosk record --device "$link" --duration 10 /tmp/recorded.evemu 2> /tmp/record.err &
r=$!
wait_for listening /tmp/touches.err
wait_for recording /tmp/record.err
evemu-play "$device" < trace.evemu
wait $t $r
section TOUCHES /tmp/touches.txt
section TOUCHES-LOG /tmp/touches.err
section RECORDED /tmp/recorded.evemu
section RECORD-LOG /tmp/record.err

# kiosk's recording, played back through the kernel by evemu's own tools.
evemu-device /tmp/recorded.evemu > /tmp/replay-device.txt 2>&1 &
replay=$!
wait_for /dev/input/event /tmp/replay-device.txt
again=$(grep -o '/dev/input/event[0-9]*' /tmp/replay-device.txt)
evemu-describe "$again" > /tmp/replay-describe.txt 2>&1
evemu-record "$again" > /tmp/replayed.evemu 2>&1 &
other=$!
# Once evemu-record has the device open, the kernel keeps every event for it.
opened $other "$again"
evemu-play "$again" < /tmp/recorded.evemu
still /tmp/replayed.evemu
kill $other
wait $other
kill $replay
wait $replay 2>/dev/null
section REPLAY-DESCRIBE /tmp/replay-describe.txt
section REPLAYED /tmp/replayed.evemu

./kiosk touches --duration 12 > /tmp/flood.txt 2> /tmp/flood.err &
t=$!
./kiosk record --duration 12 /tmp/flood.evemu 2> /tmp/flood-record.err &
r=$!
wait_for listening /tmp/flood.err
wait_for recording /tmp/flood-record.err
evemu-play "$device" < flood-down.evemu
wait_for began /tmp/flood.txt
kill -STOP $t $r
evemu-play "$device" < flood-rest.evemu
kill -CONT $t $r
wait_for "moved 700.0 400.0" /tmp/flood.txt
evemu-play "$device" < flood-up.evemu
wait $t $r
section FLOOD /tmp/flood.txt
section FLOOD-LOG /tmp/flood.err
section FLOOD-RECORDED /tmp/flood.evemu
section FLOOD-RECORD-LOG /tmp/flood-record.err

# Another reader, started before kiosk takes the panel (evemu-record refuses a grabbed device).
evemu-record "$device" > /tmp/grab-other.evemu 2>&1 &
other=$!
opened $other "$device"
./kiosk touches --grab --device "$device" > /tmp/grab.txt 2> /tmp/grab.err &
t=$!
wait_for listening /tmp/grab.err
evemu-record "$device" > /tmp/grab-refused.txt 2>&1
evemu-play "$device" < tap.evemu
still /tmp/grab.txt
kill $t
wait $t
kill $other
wait $other
section GRAB /tmp/grab.txt
section GRAB-OTHER /tmp/grab-other.evemu
section GRAB-REFUSED /tmp/grab-refused.txt
evemu-record "$device" > /tmp/free-other.evemu 2>&1 &
other=$!
opened $other "$device"
./kiosk touches --device "$device" > /tmp/free.txt 2> /tmp/free.err &
t=$!
wait_for listening /tmp/free.err
evemu-play "$device" < tap2.evemu
still /tmp/free.txt
still /tmp/free-other.evemu
kill $t
wait $t
kill $other
wait $other
section FREE /tmp/free.txt
section FREE-OTHER /tmp/free-other.evemu

kill $panel
sleep 0.5
./kiosk touches --follow --duration 20 > /tmp/hotplug.txt 2> /tmp/hotplug.err &
t=$!
wait_for following /tmp/hotplug.err
evemu-device drag.evemu > /tmp/device2.txt 2>&1 &
first=$!
wait_for attached /tmp/hotplug.err
evemu-play "$(grep -o '/dev/input/event[0-9]*' /tmp/device2.txt)" < drag.evemu
wait_for moved /tmp/hotplug.txt
kill $first
wait_for detached /tmp/hotplug.err
evemu-device tap.evemu > /tmp/device3.txt 2>&1 &
second=$!
wait_for attached /tmp/hotplug.err 2
evemu-play "$(grep -o '/dev/input/event[0-9]*' /tmp/device3.txt)" < tap.evemu
wait_for ended /tmp/hotplug.txt
kill $second
wait_for detached /tmp/hotplug.err 2
kill $t
wait $t
section HOTPLUG /tmp/hotplug.txt
section HOTPLUG-LOG /tmp/hotplug.err
