# Inside the VM: kiosk against a uinput FT5406 made from trace.evemu's header.
#   1. kiosk devices lists it (and skips the VM's keyboard);
#   2. kiosk touches and kiosk record listen while evemu-play plays trace.evemu;
#   3. a flood played while kiosk touches is stopped (SIGSTOP) overflows the kernel's buffer:
#      SYN_DROPPED, then libevdev's resync must leave no touch down;
#   4. hotplug: kiosk touches --follow starts with no touchscreen; one appears and a finger drags
#      on it; it is removed mid-drag; another appears and is tapped.
section() { echo "KIOSK-$1-BEGIN"; cat "$2"; echo "KIOSK-$1-END"; }
evemu-device trace.evemu > /tmp/device.txt 2>&1 &
panel=$!
for i in $(seq 1 50); do grep -q /dev/input/event /tmp/device.txt && break; sleep 0.1; done
device=$(grep -o '/dev/input/event[0-9]*' /tmp/device.txt)
./kiosk devices > /tmp/devices.txt 2>&1
section DEVICES /tmp/devices.txt

./kiosk touches --duration 10 > /tmp/touches.txt 2> /tmp/touches.err &
t=$!
./kiosk record --duration 10 /tmp/recorded.evemu 2> /tmp/record.err &
r=$!
for i in $(seq 1 200); do grep -q listening /tmp/touches.err && grep -q recording /tmp/record.err && break; sleep 0.1; done
evemu-play "$device" < trace.evemu
wait $t $r
section TOUCHES /tmp/touches.txt
section RECORDED /tmp/recorded.evemu
section RECORD-LOG /tmp/record.err

./kiosk touches --duration 12 > /tmp/flood.txt 2> /tmp/flood.err &
t=$!
for i in $(seq 1 200); do grep -q listening /tmp/flood.err && break; sleep 0.1; done
evemu-play "$device" < flood-down.evemu
for i in $(seq 1 100); do grep -q began /tmp/flood.txt && break; sleep 0.1; done
kill -STOP $t
evemu-play "$device" < flood-rest.evemu
kill -CONT $t
wait $t
section FLOOD /tmp/flood.txt
section FLOOD-LOG /tmp/flood.err

wait_for() {  # wait_for TEXT FILE [COUNT]: until FILE holds TEXT at least COUNT times
    for i in $(seq 1 200); do [ "$(grep -c "$1" "$2" 2>/dev/null)" -ge "${3:-1}" ] && return 0; sleep 0.1; done
    return 1
}
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
kill $t
section HOTPLUG /tmp/hotplug.txt
section HOTPLUG-LOG /tmp/hotplug.err
