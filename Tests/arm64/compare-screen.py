# Compares a QEMU screendump (binary PPM, P6) with a PNG that `kiosk replay --screenshot` wrote
# (cairo's 8-bit RGB or RGBA, not interlaced), pixel by pixel, as KernelTests' PPMImage.differences
# does for an upright panel: a pixel differs when a channel is more than 2 levels off.
#
#   python3 compare-screen.py SCREEN.ppm REPLAY.png
#
# Prints "N of W*H pixels differ" (and the first one); exits 1 when N > 0 or the sizes differ.
import struct, sys, zlib


def ppm(path):
    data = open(path, "rb").read()
    fields, i = [], 0
    while len(fields) < 4:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            i = data.index(b"\n", i)
            continue
        start = i
        while not data[i:i + 1].isspace():
            i += 1
        fields.append(data[start:i])
    if fields[0] != b"P6" or fields[3] != b"255":
        sys.exit(f"{path}: not an 8-bit P6 PPM")
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[i + 1:i + 1 + w * h * 3], 3


def png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    i, idat, w = 8, b"", 0
    while i < len(data):
        length, kind = struct.unpack(">I4s", data[i:i + 8])
        body = data[i + 8:i + 8 + length]
        if kind == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                sys.exit(f"{path}: PNG depth {depth} colour type {colour} interlace {interlace} not handled")
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        i += 12 + length
    raw, stride = zlib.decompress(idat), w * bpp
    out, prev = bytearray(), bytearray(stride)
    for y in range(h):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line
        prev = line
    return w, h, bytes(out), bpp


sw, sh, screen, sb = ppm(sys.argv[1])
rw, rh, replay, rb = png(sys.argv[2])
if (sw, sh) != (rw, rh):
    print(f"sizes differ: screen {sw}x{sh}, replay {rw}x{rh}")
    sys.exit(1)
differing, first = 0, None
for k in range(sw * sh):
    s, r = screen[k * sb:k * sb + 3], replay[k * rb:k * rb + 3]
    if any(abs(s[c] - r[c]) > 2 for c in range(3)):
        differing += 1
        if first is None:
            first = f"({k % sw}, {k // sw}): screen {tuple(s)}, replay {tuple(r)}"
print(f"{differing} of {sw * sh} pixels differ" + (f", first at {first}" if first else ""))
sys.exit(1 if differing else 0)
