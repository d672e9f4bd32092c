# Inside the VM: kiosk against three uinput panels, each made by evemu-device from a trace's
# header and played with evemu-play, one after the other:
#   1. PROTOCOL-A: a multitouch protocol A panel (no slots), read through libmtdev;
#   2. ELEVEN: an FT5406 (protocol B, 10 slots) given eleven fingers;
#   3. RESISTIVE: a single-touch resistive panel, 0..4095, playing a drag.
# For each: what kiosk devices says, the frames kiosk touches printed, its log with its exit
# status, and what kiosk record recorded meanwhile.
panel() {  # panel NAME TRACE
    evemu-device "$2" > /tmp/$1-device.txt 2>&1 &
    maker=$!
    wait_for /dev/input/event /tmp/$1-device.txt
    device=$(grep -o '/dev/input/event[0-9]*' /tmp/$1-device.txt)
    ./kiosk devices > /tmp/$1-devices.txt 2>&1
    ./kiosk touches --device "$device" > /tmp/$1.txt 2> /tmp/$1.err &
    touches=$!
    ./kiosk record --device "$device" /tmp/$1.evemu 2> /tmp/$1-record.err &
    record=$!
    wait_for listening /tmp/$1.err
    wait_for recording /tmp/$1-record.err
    # evemu-play returns when it has written every event: then kiosk only has to read the rest.
    evemu-play "$device" < "$2"
    still /tmp/$1.txt
    kill -TERM $touches $record
    wait $touches
    echo "kiosk touches exit status $?" >> /tmp/$1.err
    wait $record
    kill $maker
    wait $maker 2>/dev/null
    section "$1-DEVICES" /tmp/$1-devices.txt
    section "$1" /tmp/$1.txt
    section "$1-LOG" /tmp/$1.err
    section "$1-RECORDED" /tmp/$1.evemu
}
panel PROTOCOL-A protocol-a.evemu
panel ELEVEN eleven.evemu
panel RESISTIVE resistive.evemu
