# kiosk calibrate on a real kernel: a uinput resistive panel (evemu-device, from panel.evemu's
# header) whose raw coordinates are a known distortion of the screen (distortions.txt: a name
# and six numbers per line, raw = (a·x + b·y + c, d·x + e·y + f) in normalised terms), the
# targets drawn on virtio-gpu's card0, and a tap played where each KIOSK-CALIBRATE line says a
# target is, then on Save. For each distortion: what calibrate printed, the config it wrote,
# and what `kiosk touches` (with that config, and --raw) prints for a tap on the button.
evemu-device panel.evemu > /tmp/device.txt 2>&1 &
for i in $(seq 1 50); do
    device=$(grep -o '/dev/input/event[0-9]*' /tmp/device.txt) && break
    sleep 0.2
done
[ -n "$device" ] || { cat /tmp/device.txt; exit 3; }

# tap X Y: a 0.15 s press of the panel where screen point (X, Y) is, through the distortion now in force.
tap() {
    awk -v x="$1" -v y="$2" -v m="$matrix" 'BEGIN {
        split(m, k, " ")
        u = k[1] * x / 800 + k[2] * y / 480 + k[3]; v = k[4] * x / 800 + k[5] * y / 480 + k[6]
        rx = int(u * 4096); ry = int(v * 4096)
        printf "E: 0.000000 0003 0000 %d\nE: 0.000000 0003 0001 %d\nE: 0.000000 0003 0018 200\n", rx, ry
        printf "E: 0.000000 0001 014a 1\nE: 0.000000 0000 0000 0000\n"
        printf "E: 0.150000 0003 0018 0\nE: 0.150000 0001 014a 0\nE: 0.150000 0000 0000 0000\n"
    }' > /tmp/tap.evemu
    evemu-play "$device" < /tmp/tap.evemu
}

# field LINE KEY: the value of KEY=... in a KIOSK-CALIBRATE line
field() { echo "$1" | tr ' ' '\n' | grep "^$2=" | cut -d= -f2; }

while read -r name matrix; do
    [ -n "$name" ] || continue
    cp kiosk.toml "/tmp/$name.toml"
    ./kiosk calibrate --config "/tmp/$name.toml" --device "$device" > "/tmp/$name.out" 2> "/tmp/$name.err" &
    pid=$!
    for n in 1 2 3 4 5; do
        wait_for "KIOSK-CALIBRATE target $n " "/tmp/$name.err" || break
        line=$(grep "KIOSK-CALIBRATE target $n " "/tmp/$name.err")
        tap "$(field "$line" x)" "$(field "$line" y)"
        sleep 0.2
    done
    wait_for "KIOSK-CALIBRATE check" "/tmp/$name.err" && {
        save=$(field "$(grep "KIOSK-CALIBRATE check" "/tmp/$name.err")" save)
        sx=$(echo "$save" | awk -F, '{ print $1 + $3 / 2 }'); sy=$(echo "$save" | awk -F, '{ print $2 + $4 / 2 }')
        tap "$sx" "$sy"
    }
    wait $pid
    echo "KIOSK-CALIBRATE-STATUS $name $?"
    section "OUT-$name" "/tmp/$name.out"
    section "ERR-$name" "/tmp/$name.err"
    section "CONFIG-$name" "/tmp/$name.toml"
    # What run would see, with the written config: a tap on the button's centre (130, 424).
    for mode in calibrated raw; do
        flag=""; [ $mode = raw ] && flag=--raw
        # Until the tap has ended, then Ctrl-C: touches prints each frame as it comes.
        ./kiosk touches --config "/tmp/$name.toml" --device "$device" $flag > "/tmp/$name-$mode.txt" 2> "/tmp/$name-$mode.err" &
        tpid=$!
        opened $tpid "$device"
        sleep 0.3
        tap 130 424
        wait_for " ended " "/tmp/$name-$mode.txt"
        kill -INT $tpid
        wait $tpid
        section "TOUCHES-$mode-$name" "/tmp/$name-$mode.txt"
        section "TOUCHES-ERR-$mode-$name" "/tmp/$name-$mode.err"
    done
done < distortions.txt
