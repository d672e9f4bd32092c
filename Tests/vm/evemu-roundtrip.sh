# Inside the VM: a uinput device made from trace.evemu's header (evemu-device), the trace played
# into it (evemu-play), and what the kernel's evdev delivers recorded back (evemu-record).
evemu-device trace.evemu > /tmp/device.txt 2>&1 &
for i in 1 2 3 4 5 6 7 8 9 10; do
    device=$(grep -o '/dev/input/event[0-9]*' /tmp/device.txt) && break
    sleep 0.2
done
[ -n "$device" ] || { cat /tmp/device.txt; exit 3; }
evemu-record "$device" > /tmp/recorded.evemu &
recorder=$!
# Once evemu-record has the device open, the kernel keeps every event for it.
for i in $(seq 1 200); do ls -l "/proc/$recorder/fd" 2>/dev/null | grep -q "$device\$" && break; sleep 0.1; done
evemu-play "$device" < trace.evemu
# Until the recording has not grown for half a second.
last=-1
for i in $(seq 1 40); do size=$(wc -c < /tmp/recorded.evemu); [ "$size" = "$last" ] && break; last=$size; sleep 0.5; done
kill $recorder
echo KIOSK-RECORDED-BEGIN
cat /tmp/recorded.evemu
echo KIOSK-RECORDED-END
