# Inside the VM: touches taken away by the kernel, on three uinput panels made by evemu-device
# (FT5406 protocol B, protocol A, resistive single touch). For each, while kiosk touches --follow
# and kiosk record listen:
#   1. a finger drags (drag.evemu, no lift), then the device is inhibited through sysfs: the kernel
#      releases what is down and closes the report with SYN_REPORT value 1, the device stays;
#   2. it is let go again, a second finger drags, and the device is destroyed mid-drag.
# Both touches must come out cancelled, never ended.
unplug() {  # unplug NAME TRACE
    evemu-device "$2" > /tmp/$1-device.txt 2>&1 &
    maker=$!
    wait_for /dev/input/event /tmp/$1-device.txt
    device=$(grep -o '/dev/input/event[0-9]*' /tmp/$1-device.txt)
    inhibited=/sys/class/input/$(basename "$device")/device/inhibited
    ./kiosk touches --follow --device "$device" > /tmp/$1.txt 2> /tmp/$1.err &
    touches=$!
    ./kiosk record --device "$device" /tmp/$1.evemu 2> /tmp/$1-record.err &
    record=$!
    wait_for attached /tmp/$1.err
    wait_for recording /tmp/$1-record.err
    evemu-play "$device" < "$2"
    wait_for moved /tmp/$1.txt 3
    echo 1 > "$inhibited"
    wait_for cancelled /tmp/$1.txt
    echo 0 > "$inhibited"
    evemu-play "$device" < "$2"
    wait_for moved /tmp/$1.txt 6
    kill $maker
    wait $maker 2>/dev/null
    wait_for detached /tmp/$1.err
    wait_for cancelled /tmp/$1.txt 2
    kill -TERM $touches
    wait $touches
    wait $record
    section "$1" /tmp/$1.txt
    section "$1-LOG" /tmp/$1.err
    section "$1-RECORDED" /tmp/$1.evemu
}
unplug FT5406 ft5406.evemu
unplug PROTOCOL-A protocol-a.evemu
unplug RESISTIVE resistive.evemu
