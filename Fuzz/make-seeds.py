#!/usr/bin/env python3
"""Writes Fuzz/corpus/<target>/ from the project's traces and config: small seeds to start from.

Run from anywhere: python3 Fuzz/make-seeds.py. The seeds are committed; rerun after a change to the
input format of a target (Fuzz/Sources/fuzz-*/main.swift say what each target reads).
"""
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(HERE, "corpus")
FIXTURES = os.path.join(ROOT, "Tests", "InputEventsTests", "Fixtures")
EVENTS_PER_TRACE = 80


def write(target, name, data):
    os.makedirs(os.path.join(CORPUS, target), exist_ok=True)
    mode = "w" if isinstance(data, str) else "wb"
    with open(os.path.join(CORPUS, target, name), mode) as f:
        f.write(data)


def shortened(path):
    """The trace's header and its first events."""
    lines, events = [], 0
    for line in open(path):
        if line.startswith("E:"):
            events += 1
            if events > EVENTS_PER_TRACE:
                break
        lines.append(line)
    return "".join(lines)


def events(text):
    """(microseconds, type, code, value) of every E: line."""
    out = []
    for m in re.finditer(r"^E: (\d+)\.(\d{6}) ([0-9a-f]{4}) ([0-9a-f]{4}) (-?\d+)", text, re.M):
        out.append((int(m[1]) * 1_000_000 + int(m[2]), int(m[3], 16), int(m[4], 16), int(m[5])))
    return out


def decoder_seed(panel, options, evs):
    """fuzz-decoder's input: panel, options, then type, code, value and the time step (ms) per event."""
    data = bytes([panel, options])
    last = evs[0][0] if evs else 0
    for t, type_, code, value in evs:
        step = max(-128, min(127, round((t - last) / 1000)))
        last = t
        data += struct.pack("<BHiB", type_, code, value, step & 0xFF)
    return data


def protocol_a_trace():
    """Two fingers dragging on the demo trace's panel as a protocol A driver reports them."""
    demo = open(os.path.join(ROOT, "traces", "demo.evemu")).read()
    header = [l for l in demo.splitlines(True) if l[:2] in ("N:", "I:", "P:", "B:", "A:")]
    out = ["# EVEMU 1.3\n"]
    for line in header:
        if line.startswith("N:"):
            line = "N: Protocol A Touchscreen\n"
        if line.startswith("B: 03"):
            line = "B: 03 03 00 00 00 00 00 60 00\n"  # ABS_X, ABS_Y, ABS_MT_POSITION_X/Y: no slot, no id
        if line.startswith("A: 2f") or line.startswith("A: 39"):
            continue
        out.append(line)
    t = 10.0
    for step in range(12):
        x1, y1, x2, y2 = 200 + 10 * step, 200, 500 - 10 * step, 260
        for x, y in ((x1, y1), (x2, y2)):
            out.append(f"E: {t:.6f} 0003 0035 {x}\nE: {t:.6f} 0003 0036 {y}\nE: {t:.6f} 0000 0002 0000\n")
        out.append(f"E: {t:.6f} 0001 014a 1\n" if step == 0 else "")
        out.append(f"E: {t:.6f} 0003 0000 {x1}\nE: {t:.6f} 0003 0001 {y1}\nE: {t:.6f} 0000 0000 0000\n")
        t += 0.016
    out.append(f"E: {t:.6f} 0000 0002 0000\nE: {t:.6f} 0001 014a 0\nE: {t:.6f} 0000 0000 0000\n")
    return "".join(out)


def scene_seeds():
    """fuzz-scene's inputs: the gestures of the default scene (config/kiosk.toml, 800x480)."""
    W, H = 800, 480

    def xy(x, y):
        return struct.pack("<HH", round((x + W) / (3 * W) * 65535), round((y + H) / (3 * H) * 65535))

    def frame(step_ms, touches):
        data = bytes([0]) + struct.pack("<hB", step_ms, len(touches))
        for touch_id, phase, x, y in touches:
            data += bytes([touch_id, phase]) + xy(x, y)
        return data

    def advance(ms):
        return bytes([1]) + struct.pack("<H", ms)

    wait = bytes([2])

    def drag(touch_id, start, end, steps=8, step_ms=16):
        (x0, y0), (x1, y1) = start, end
        data = frame(step_ms, [(touch_id, 0, x0, y0)])
        for i in range(1, steps + 1):
            data += frame(step_ms, [(touch_id, 1, x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)])
        return data + frame(step_ms, [(touch_id, 3, x1, y1)])

    def two(a, b, a_end, b_end, steps=8):
        data = frame(16, [(1, 0, *a), (2, 0, *b)])
        for i in range(1, steps + 1):
            f = i / steps
            p = (a[0] + (a_end[0] - a[0]) * f, a[1] + (a_end[1] - a[1]) * f)
            q = (b[0] + (b_end[0] - b[0]) * f, b[1] + (b_end[1] - b[1]) * f)
            data += frame(16, [(1, 1, *p), (2, 1, *q)])
        return data + frame(16, [(1, 3, *a_end), (2, 3, *b_end)])

    tap = lambda i, x, y: frame(16, [(i, 0, x, y)]) + frame(60, [(i, 3, x, y)])
    traced = 3  # decisions traced and written, events recorded
    yield "tap-yellow", bytes([traced]) + tap(1, 160, 190) + wait + wait
    yield "double-tap-cyan", bytes([traced]) + tap(1, 400, 190) + advance(100) + tap(2, 400, 190) + wait
    yield "long-press-magenta", bytes([traced]) + frame(16, [(1, 0, 640, 190)]) + wait + drag(1, (640, 190), (600, 100))[7:] + wait
    yield "pan-yellow", bytes([0]) + drag(1, (160, 190), (300, 300))
    yield "pinch-rotate-cyan", bytes([traced]) + two((370, 170), (430, 210), (330, 120), (480, 260))
    yield "swipe-canvas", bytes([traced]) + drag(1, (700, 60), (300, 70), steps=4, step_ms=10) + wait
    yield "slider", bytes([2]) + drag(1, (410, 424), (530, 424))
    yield "switch-and-button", bytes([2]) + tap(1, 680, 424) + wait + tap(2, 130, 424) + frame(16, [(3, 0, 130, 424)]) + wait
    yield "64-fingers", bytes([1]) + frame(16, [(i, 0, 12 * i, 7 * i) for i in range(64)]) \
        + frame(16, [(i, 1, 12 * i + 5, 7 * i + 5) for i in range(64)]) + frame(16, [(i, 4, 0, 0) for i in range(64)])
    yield "odd-frames", bytes([3]) + frame(16, [(1, 1, 100, 100), (1, 0, 160, 190), (1, 0, 160, 190)]) \
        + frame(-500, [(1, 1, 170, 200), (2, 3, 0, 0)]) + bytes([3]) + struct.pack("<Q", 10**17) + frame(16, [(1, 3, 0, 0)]) \
        + bytes([4])

    def far(step_ms, touches):
        data = bytes([0]) + struct.pack("<hB", step_ms, len(touches))
        for touch_id, phase, x, y in touches:
            data += bytes([touch_id, phase]) + struct.pack("<dd", x, y)
        return data

    inf, nan = float("inf"), float("nan")
    yield "anywhere", bytes([1 | 4]) + far(16, [(1, 0, 160, 190), (2, 0, 400, 190)]) \
        + far(16, [(1, 1, 1e300, -1e300), (2, 1, 400.5, 190)]) + far(16, [(1, 1, inf, nan), (2, 1, 5e15, 190)]) \
        + bytes([2]) + far(16, [(1, 3, nan, nan), (2, 3, -inf, 0)]) + bytes([2])


def state_seeds():
    """State files: whole (as the version before device components), empty, refused by the config,
    another version, device components (and of the wrong shape), torn, escaped text."""
    whole = """{
  "version": 1,
  "views": {
    "button": {"kind": "button", "label": "Open \\"the\\" door", "taps": 3},
    "canvas": {"kind": "canvas", "theme": "dusk"},
    "slider": {"kind": "slider", "value": 0.956},
    "switch": {"kind": "switch", "on": true}
  },
  "mqtt": {"announced": [
    "homeassistant/number/kiosk/slider/config",
    "kiosk/slider/state"
  ]}
}
"""
    seeds = {
        "whole.json": whole,
        "empty-views.json": '{"version": 1, "views": {}, "mqtt": {"announced": []}}\n',
        "out-of-range.json": '{"version": 1, "views": {"slider": {"kind": "slider", "value": 1e300}, '
                             '"lamp": {"kind": "switch", "on": false}}}\n',
        "wrong-kind.json": '{"version": 1, "views": {"switch": {"kind": "button", "label": "x", "taps": -4}}}\n',
        "other-version.json": '{"version": 2, "views": {}}\n',
        "device-components.json": '{"version": 1, "views": {}, "mqtt": {"announced": '
                                  '["homeassistant/device/kiosk/config"], "device_components": '
                                  '{"homeassistant/device/kiosk/config": {"lamp_switch": "switch", '
                                  '"touch_binary_sensor": "binary_sensor"}, "old/device/n/config": {}}}}\n',
        "device-components-wrong.json": '{"version": 1, "mqtt": {"device_components": '
                                        '{"t": {"a_switch": 1}, "u": ["b_number"]}}}\n',
        "truncated.json": '{"version": 1, "views": {"slider": {"kind": "sli',
        "unicode.json": '{"version": 1, "views": {"button": {"kind": "button", '
                        '"label": "\\u00e9\\ud83d\\ude00\\u2028", "taps": 0}}}\n',
    }
    for name, text in seeds.items():
        write("state", name, text)


def main():
    traces = {
        "demo": (os.path.join(ROOT, "traces", "demo.evemu"), 0),
        "EP0430M09": (os.path.join(FIXTURES, "EP0430M09.2-finger-scroll-down.evemu"), 0),
        "egalax": (os.path.join(FIXTURES, "egalax-usb-0eef-0001.single-touch.evemu"), 3),
    }
    for name, (path, panel) in traces.items():
        text = shortened(path)
        write("evemu", name + ".evemu", text)
        write("decoder", name, decoder_seed(panel, 0, events(text)))
    protocol_a = protocol_a_trace()
    write("evemu", "protocol-a.evemu", protocol_a)
    write("decoder", "protocol-a", decoder_seed(2, 0, events(protocol_a)))
    demo = events(shortened(traces["demo"][0]))
    write("decoder", "demo-calibrated-filtered", decoder_seed(0, 1 | 2 | 8, demo))
    # The eGalax's touches as a resistive panel's: its position axes moved to ABS_X/ABS_Y.
    egalax = [(t, ty, {2: 0, 3: 1}.get(c, c) if ty == 3 else c, v) for t, ty, c, v in events(shortened(traces["egalax"][0]))]
    write("decoder", "resistive", decoder_seed(1, 4 | 8, egalax))

    write("config", "kiosk.toml", open(os.path.join(ROOT, "config", "kiosk.toml")).read())
    write("config", "small.toml", """[panel]
width_px = 800
height_px = 480
width_mm = 154.2
height_mm = 85.9

[[view]]
name = "canvas"
kind = "canvas"
frame = [0, 0, 800, 480]

[[view]]
name = "box"
kind = "square"
parent = "canvas"
frame = [100, 100, 120, 120]
color = "#f5c518"

[[view]]
name = "slider"
kind = "slider"
parent = "canvas"
frame = [260, 396, 300, 56]
value = 0.5

[[gesture]]
view = "box"
kind = "pan"
action = "move"
minimum_distance_mm = 2

[[gesture]]
view = "canvas"
kind = "swipe"
directions = ["left"]
action = "cycle_theme"

[display]
rotation = 90

[log]
level = "debug"
""")
    for name, data in scene_seeds():
        write("scene", name, data)
    state_seeds()


main()
