# The host's side of a VM's screendumps (run-in-vm.sh, service-in-vm.sh): watches the serial
# console for "KIOSK-SCREENDUMP[:NAME]" lines, saves the screen for each with the QEMU monitor's
# screendump (DUMP, or DUMP with "-NAME" before ".ppm"), and says "taken NAME" on the guest's third
# serial port, where its screendump helper (screendump.sh) waits for it. Ends at "KIOSK-VM-EXIT".
#
#   python3 screendumps.py SERIAL_LOG MONITOR_SOCKET DUMP SECONDS TAKEN_SOCKET
import os, re, socket, sys, time
serial, sock_path, dump, limit, taken_path = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
end = time.time() + limit
marker = re.compile(rb"^KIOSK-SCREENDUMP(?::([A-Za-z0-9_-]+))?\r?$", re.M)
s = None
def until_prompt():
    data = b""
    while not data.endswith(b"(qemu) "):
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    return data
done = 0
while time.time() < end:
    found = list(marker.finditer(open(serial, "rb").read()))
    if len(found) <= done:
        if b"KIOSK-VM-EXIT" in open(serial, "rb").read():
            break
        time.sleep(0.05)
        continue
    for m in found[done:]:
        suffix = m.group(1)
        path = dump if suffix is None else dump[:-4] + "-" + suffix.decode() + ".ppm" if dump.endswith(".ppm") else dump + "-" + suffix.decode()
        if s is None:
            s = socket.socket(socket.AF_UNIX)
            s.connect(sock_path)
            until_prompt()
            taken = socket.socket(socket.AF_UNIX)
            taken.connect(taken_path)
        s.sendall(b"screendump " + path.encode() + b"\n")
        reply = until_prompt()
        if b"rror" in reply:
            print("run-in-vm: screendump: " + reply.decode(errors="replace"), file=sys.stderr)
        else:
            taken.sendall(b"taken " + (suffix or b"-") + b"\n")
    done = len(found)
if s is not None:
    s.close()
    taken.close()
