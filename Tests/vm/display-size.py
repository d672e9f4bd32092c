#!/usr/bin/env python3
# The host's side of a display plugged and unplugged in the VM, through QEMU's own hotplug path:
# when the VM's console prints "KIOSK-DISPLAY-SIZE WxH", this asks QEMU's VNC server for that
# size (an RFB SetDesktopSize message), which QEMU passes to virtio-gpu as its head's new
# size: 0x0 disables the head (the guest's connector reads disconnected), a size enables it
# again. The guest's kernel sees virtio-gpu's display-change event and sends the DRM hotplug
# uevent (HOTPLUG=1) that kiosk listens for: no sysfs forcing, the path a real HDMI unplug takes.
#
#   display-size.py SERIAL_LOG VNC_SOCKET TIMEOUT_SECONDS
import re
import socket
import struct
import sys
import time

serial, path, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
end = time.time() + limit
marker = re.compile(rb"^KIOSK-DISPLAY-SIZE (\d+)x(\d+)\r?$", re.M)


def exactly(s, n):
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        if not chunk:
            raise EOFError("the VNC server closed the connection")
        data += chunk
    return data


def connect():
    while time.time() < end:
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            break
        except OSError:
            time.sleep(0.1)
    else:
        sys.exit("display-size: no VNC server at " + path)
    exactly(s, 12)                                   # "RFB 003.008\n"
    s.sendall(b"RFB 003.008\n")
    count = exactly(s, 1)[0]
    types = exactly(s, count)
    if 1 not in types:
        sys.exit("display-size: the VNC server wants authentication: %r" % types)
    s.sendall(bytes([1]))                            # security: none
    if struct.unpack(">I", exactly(s, 4))[0] != 0:
        sys.exit("display-size: the VNC server refused the connection")
    s.sendall(bytes([1]))                            # ClientInit: shared
    header = exactly(s, 24)
    exactly(s, struct.unpack(">I", header[20:24])[0])  # the desktop's name
    # SetEncodings: raw, and ExtendedDesktopSize (-308) so the server takes SetDesktopSize.
    s.sendall(struct.pack(">BBH", 2, 0, 2) + struct.pack(">ii", 0, -308))
    return s


s = None
done = 0
while time.time() < end:
    text = open(serial, "rb").read()
    found = list(marker.finditer(text))
    if len(found) <= done:
        if b"KIOSK-VM-EXIT" in text:
            break
        time.sleep(0.05)
        continue
    for m in found[done:]:
        if s is None:
            s = connect()
        width, height = int(m.group(1)), int(m.group(2))
        # SetDesktopSize (251): the size, one screen (id 0) covering it.
        s.sendall(struct.pack(">BBHHBB", 251, 0, width, height, 1, 0) + struct.pack(">IHHHHI", 0, 0, 0, width, height, 0))
    done = len(found)
if s is not None:
    s.close()
