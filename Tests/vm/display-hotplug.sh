# Inside the VM: kiosk run started with no touchscreen (only the VM's keyboard), then a display
# unplugged and plugged in again while kiosk is idle.
#   1. kiosk starts with only "AT Translated Set 2 keyboard" in /dev/input: it says once that it
#      waits (a warning; the keyboard at debug), then takes the panel evemu-device makes;
#   2. once idle, the connector is forced off (sysfs status) and the host resizes the display
#      through QEMU, so the kernel sends its own DRM hotplug uevent: kiosk reads the connector
#      again and logs it unplugged; a tap on the button meanwhile is taken, and nothing drawn;
#   3. the connector is given back to detection and the host sizes the display 800x480 again:
#      a second hotplug uevent; kiosk logs it plugged in, sets the mode and draws a whole frame,
#      with the tap's effect, though nothing moves; the host takes a screendump; SIGTERM.
# Every wait is on a marker, with a timeout of a minute.
connector=/sys/class/drm/card0-Virtual-1
ls /dev/input > /tmp/input-before.txt
./kiosk run --config kiosk.conf --log-level debug > /tmp/run.out 2> /tmp/run.err &
k=$!
wait_for "no touchscreen yet" /tmp/run.err
settled /tmp/run.err
evemu-device tap.evemu > /tmp/device.txt 2>&1 &
wait_for /dev/input/event /tmp/device.txt
device=$(grep -o '/dev/input/event[0-9]*' /tmp/device.txt)
wait_for "touchscreen attached" /tmp/run.err
settled /tmp/run.err

echo off > $connector/status
echo "KIOSK-DISPLAY-SIZE 640x480"
wait_for "display unplugged" /tmp/run.err
echo "KIOSK-UNPLUGGED $(cat $connector/status)"
evemu-play "$device" < tap.evemu
wait_for "primaryActionTriggered" /tmp/run.err
settled /tmp/run.err

echo detect > $connector/status
echo "KIOSK-DISPLAY-SIZE 800x480"
wait_for "display back" /tmp/run.err
settled /tmp/run.err
echo "KIOSK-PLUGGED $(cat $connector/status)"
screendump
kill -TERM $k
wait $k
echo "KIOSK-EXIT $?"
section INPUT /tmp/input-before.txt
section LOG /tmp/run.err
