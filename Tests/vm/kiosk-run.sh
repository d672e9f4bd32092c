# Inside the VM: kiosk run as on a kiosk, its log on the second serial port (/dev/ttyS1).
#   0. the console shows a line of text; the host takes a screendump of it ("console");
#   1. a uinput FT5406 appears; kiosk run starts and takes it and virtio-gpu's card0;
#   2. visit.evemu drags a square, pinches another, taps the button and toggles the switch;
#      once the scene has settled, a few seconds of idleness are measured: kiosk's CPU time,
#      its wake-ups, and the page flips the kernel delivered to it (tracepoint
#      drm_vblank_event_delivered; the console's own commits carry no file and are not counted);
#   3. a broken config and SIGHUP: the reload fails, logged with file:line; kiosk draws on:
#      again.evemu taps the button once more;
#   4. SIGUSR1 writes a screenshot; the host takes a screendump;
#   5. a good config with blank_after = 1 and SIGHUP: it applies; the panel blanks (DPMS off)
#      and a tap wakes it (DPMS on) without reaching the button;
#   6. the touchscreen is unplugged: logged, the kiosk runs on; SIGTERM ends it cleanly and the
#      console is back ("after-term");
#   7. a second kiosk run ("during-int") ends on SIGINT, the console back again ("after-int");
#   8. a kiosk started on the broken config exits with status 2.
# Every wait is on a marker (a log line, a file, the host's word that a screendump was taken),
# with a timeout of a minute; the only timed span is the idle measurement itself.
# Page flips the kernel completed for a DRM file (kiosk's); fbcon's commits have no file.
flips() { grep drm_vblank_event_delivered /sys/kernel/tracing/trace | grep -vc 'file=0000000000000000'; }
# utime + stime in clock ticks (fields 14 and 15; kiosk's comm has no space in it).
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
wakeups() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$1/status"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }

mount -t tracefs nodev /sys/kernel/tracing
echo 1 > /sys/kernel/tracing/events/drm/drm_vblank_event_delivered/enable
# The console before any kiosk: a line of text, the cursor hidden so it does not blink.
printf '\033[?25l\nkiosk-run.sh: the console before kiosk\n' > /dev/tty1
screendump console

mkdir -p /var/lib/kiosk
evemu-device visit.evemu > /tmp/device.txt 2>&1 &
panel=$!
wait_for /dev/input/event /tmp/device.txt
device=$(grep -o '/dev/input/event[0-9]*' /tmp/device.txt)

./kiosk run --config kiosk.conf --log-level debug > /tmp/run.out 2> /tmp/run.err &
k=$!
wait_for "touchscreen attached" /tmp/run.err
f0=$(flips)
evemu-play "$device" < visit.evemu
settled /tmp/run.err
echo "KIOSK-VISIT flips=$(($(flips) - f0))"

# Idle: three whole stats intervals after the scene settled.
n0=$(stats_lines /tmp/run.err)
c0=$(cpu_ticks $k); w0=$(wakeups $k); f0=$(flips); t0=$(uptime_s)
wait_for ' stats ' /tmp/run.err $((n0 + 3))
c1=$(cpu_ticks $k); w1=$(wakeups $k); f1=$(flips); t1=$(uptime_s)
echo "KIOSK-IDLE cpu.ticks=$((c1 - c0)) wakeups=$((w1 - w0)) flips=$((f1 - f0)) seconds=$t0-$t1 hz=$(getconf CLK_TCK 2>/dev/null || echo 100)"
grep ' stats ' /tmp/run.err | sed -n "$((n0 + 1)),$((n0 + 3))p" > /tmp/idle-stats.txt

cp kiosk.conf good.conf
cp broken.conf kiosk.conf
kill -HUP $k
wait_for "config reload failed" /tmp/run.err
evemu-play "$device" < again.evemu
wait_for "primaryActionTriggered" /tmp/run.err 2
settled /tmp/run.err
kill -USR1 $k
wait_for "screenshot written" /tmp/run.err
ls /var/lib/kiosk > /tmp/screenshots.txt
screendump

awk '{ print } /^\[display\]$/ { print "blank_after = 1" }' good.conf > kiosk.conf
kill -HUP $k
wait_for "config reloaded" /tmp/run.err
wait_for "display blanked" /tmp/run.err
echo "KIOSK-DPMS-BLANKED $(cat /sys/class/drm/card0-Virtual-1/dpms)"
evemu-play "$device" < again.evemu
wait_for "display woken" /tmp/run.err
echo "KIOSK-DPMS-WOKEN $(cat /sys/class/drm/card0-Virtual-1/dpms)"
kill $panel
wait_for "touchscreen removed" /tmp/run.err
kill -TERM $k
wait $k
echo "KIOSK-RUN-STATUS $?"
screendump after-term

cp good.conf kiosk.conf
./kiosk run --config kiosk.conf > /tmp/run2.out 2> /tmp/run2.err &
k=$!
wait_for ' stats ' /tmp/run2.err
screendump during-int
kill -INT $k
wait $k
echo "KIOSK-RUN2-STATUS $?"
screendump after-int

./kiosk run --config broken.conf > /tmp/run3.out 2> /tmp/run3.err
echo "KIOSK-RUN3-STATUS $?"

section RUN-ERR /tmp/run.err
section RUN-OUT /tmp/run.out
section RUN2-ERR /tmp/run2.err
section RUN3-ERR /tmp/run3.err
section IDLE-STATS /tmp/idle-stats.txt
section SCREENSHOTS /tmp/screenshots.txt
