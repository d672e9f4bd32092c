#!/usr/bin/env python3
"""Soak of `kiosk run` (issue 21, part 5): reloads, socket sets, MQTT sets and synthetic taps on a
headless kiosk with a real Mosquitto broker, watching its resident memory and checking that every
acknowledged change is the state at the end.

  Tests/soak.py [--short] [--kiosk PATH]

Phase 1: reloads (SIGHUP, each waited for in the log): after 20 to warm up, RSS may grow by less
than 1 MB over 1000 of them (200 with --short).
Phase 2: rounds, each of 1000 socket sets on the slider (pipelined on one connection, 64 at a time,
every reply read), 100 MQTT sets on the switch (one mosquitto_pub), 100 synthetic taps on the button (through
the socket, at most the 16 kiosk queues at once; each takes 50 ms of kiosk's clock) and a reload.
100 rounds: 10^5 socket sets, 10^4 MQTT sets, 10^4 taps. With --short, 10 rounds of 50 taps. RSS after the first round (the warm-up) may grow by less
than 1 MB to the end. At the end the slider holds the last set acknowledged on the socket, the
switch the last sent over MQTT, the button every tap; the broker's retained states say the same.

Not a timed test: it prints what it measured and exits 1 when a bound is broken. The default
kiosk is the debug build; CI runs --short on the release build (.ci/run); docs/running.md, "Reloads, and
months without growth", gives the long run's figures.
"""
import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOUND_KB = 1024


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Log:
    """A process's stderr, collected by a thread; waited on by condition."""

    def __init__(self, stream):
        self.lines = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for raw in stream:
            with self.cond:
                self.lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self.cond.notify_all()

    def count(self, needle):
        with self.cond:
            return sum(1 for line in self.lines if needle in line)

    def wait(self, needle, count=1, seconds=60):
        end = time.monotonic() + seconds
        with self.cond:
            while sum(1 for line in self.lines if needle in line) < count:
                left = end - time.monotonic()
                if left <= 0:
                    raise SystemExit(f"soak: no {count}x '{needle}' in kiosk's log after {seconds} s; last lines:\n"
                                     + "\n".join(self.lines[-20:]))
                self.cond.wait(left)


class Control:
    """One connection to the control socket: JSON lines out, replies read in order."""

    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.buffer = b""
        self.next_id = 1

    def send(self, request):
        request["id"] = self.next_id
        self.next_id += 1
        self.s.sendall((json.dumps(request) + "\n").encode())
        return request["id"]

    def reply(self):
        while b"\n" not in self.buffer:
            chunk = self.s.recv(65536)
            if not chunk:
                raise SystemExit("soak: kiosk closed the control socket")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def ask(self, request):
        sent = self.send(request)
        while True:
            r = self.reply()
            if r.get("id") == sent:
                return r

    def views(self):
        r = self.ask({"command": "get_state"})
        return {v["name"]: v for v in r["state"]["views"]}


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise SystemExit("soak: kiosk has no VmRSS")


def wait_until(what, check, seconds=60, state=lambda: ""):
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            raise SystemExit(f"soak: {what} did not happen within {seconds} s {state()}")
        time.sleep(0.01)


class Soak:
    def __init__(self, args):
        self.args = args
        self.folder = tempfile.mkdtemp(prefix="kiosk-soak-")
        self.port = free_port()
        self.prefix = "soak/kiosk"
        self.failures = []
        self.reloads = 0

    def start(self):
        conf = os.path.join(self.folder, "mosquitto.conf")
        with open(conf, "w") as f:
            f.write(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest stderr\n")
        self.broker = subprocess.Popen(["mosquitto", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        Log(self.broker.stderr)
        wait_until("the broker listening", lambda: self._port_open(), 10)
        with open(os.path.join(ROOT, "config/kiosk.toml")) as f:
            scene = f.read().split("\n[display]")[0]
        config = os.path.join(self.folder, "kiosk.conf")
        with open(config, "w") as f:
            f.write(scene + f"""
[display]
card = "headless"
screenshot_directory = "{self.folder}"

[input]
directory = "{self.folder}"

[log]
serial = "none"
repeat_interval = 0

[control]
socket = "{self.folder}/control.sock"

[state]
directory = "{self.folder}"

[mqtt]
broker = "mqtt://127.0.0.1:{self.port}"
client_id = "soak"
topic_prefix = "{self.prefix}"
""")
        self.kiosk = subprocess.Popen([self.args.kiosk, "run", "--config", config], cwd=self.folder,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.log = Log(self.kiosk.stderr)
        self.log.wait("control socket listening")
        self.log.wait("mqtt: connected")
        self.control = Control(os.path.join(self.folder, "control.sock"))

    def _port_open(self):
        try:
            socket.create_connection(("127.0.0.1", self.port), 0.2).close()
            return True
        except OSError:
            return False

    def stop(self):
        for p in (getattr(self, "kiosk", None), getattr(self, "broker", None)):
            if p and p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()

    def reload(self):
        self.reloads += 1
        self.kiosk.send_signal(signal.SIGHUP)
        self.log.wait("config reloaded", self.reloads)

    def expect(self, ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            self.failures.append(what)

    def phase_reloads(self, count):
        for _ in range(20):
            self.reload()
        before = rss_kb(self.kiosk.pid)
        started = time.monotonic()
        for _ in range(count):
            self.reload()
        took = time.monotonic() - started
        grown = rss_kb(self.kiosk.pid) - before
        self.expect(grown < BOUND_KB, f"{count} reloads grew RSS by {grown} kB from {before} kB "
                                      f"(bound {BOUND_KB} kB; {took / count * 1000:.1f} ms a reload)")

    def socket_sets(self, round_number, count):
        """`count` sets of the slider, pipelined; returns the last value acknowledged."""
        values = [((round_number * count + k) % 997 + 1) / 1000 for k in range(count)]
        in_flight = []
        last = None
        for k, value in enumerate(values):
            in_flight.append((self.control.send({"command": "set", "view": "slider", "value": value}), value))
            # A window well inside the client's queue ([control] client_queue, 256 lines): a client
            # that does not read its replies is disconnected, as it should be.
            if len(in_flight) == 64 or k == len(values) - 1:
                for sent, v in in_flight:
                    r = self.control.reply()
                    while r.get("id") != sent:
                        r = self.control.reply()
                    if r.get("ok") is True:
                        last = v
                    else:
                        self.expect(False, f"socket set {v} refused: {r}")
                in_flight = []
        return last

    def mqtt_sets(self, round_number, count):
        """`count` sets of the switch in one mosquitto_pub; returns the last one sent."""
        words = ["ON" if (round_number + k) % 2 == 0 else "OFF" for k in range(count)]
        subprocess.run(["mosquitto_pub", "-p", str(self.port), "-q", "1", "-t", f"{self.prefix}/switch/set", "-l"],
                       input=("\n".join(words) + "\n").encode(), check=True)
        return words[-1] == "ON"

    def taps(self, count, expected):
        """`count` taps on the button, at most 16 waiting at once; waits until each has landed."""
        sent = 0
        while sent < count:
            r = self.control.ask({"command": "tap", "x": 130, "y": 424})
            if r.get("ok") is True:
                sent += 1
            else:
                time.sleep(0.05)  # the queue of 16 is full: the taps before play first
        seen = []

        def landed():
            seen[:] = [self.control.views()["button"]["taps"]]
            return seen[0] >= expected
        wait_until(f"{expected} taps", landed, 120,
                   lambda: f"(counted {seen}); kiosk's last lines:\n" + "\n".join(self.log.lines[-15:]))
        self.expect(seen[0] == expected, f"{expected} taps counted, not {seen[0]}") if seen[0] != expected else None

    def phase_load(self, rounds, taps_per_round):
        last_slider = last_switch = None
        taps = self.control.views()["button"]["taps"]
        warm = None
        started = time.monotonic()
        for n in range(rounds):
            last_slider = self.socket_sets(n, 1000)
            last_switch = self.mqtt_sets(n, 100)
            wait_until("the switch set over MQTT", lambda: self.control.views()["switch"]["on"] == last_switch)
            taps += taps_per_round
            self.taps(taps_per_round, taps)
            self.reload()
            if n == 0:
                warm = rss_kb(self.kiosk.pid)
        took = time.monotonic() - started
        grown = rss_kb(self.kiosk.pid) - warm
        self.expect(grown < BOUND_KB, f"{rounds * 1000} socket sets, {rounds * 100} MQTT sets, {rounds * taps_per_round} taps, "
                                      f"{rounds} reloads grew RSS by {grown} kB after warm-up at {warm} kB "
                                      f"(bound {BOUND_KB} kB; {took:.0f} s)")
        views = self.control.views()
        self.expect(views["slider"]["value"] == last_slider,
                    f"the slider is the last value acknowledged on the socket ({views['slider']['value']} == {last_slider})")
        self.expect(views["switch"]["on"] == last_switch, f"the switch is the last set over MQTT ({last_switch})")
        self.expect(views["button"]["taps"] == taps, f"the button counted every tap ({views['button']['taps']} of {taps})")
        retained = self.retained(["slider", "switch"])
        slider_state = f"{last_slider * 100:.1f}"
        self.expect(retained.get("slider") == slider_state, f"the broker's retained slider state is {slider_state}: {retained}")
        switch_state = "ON" if last_switch else "OFF"
        self.expect(retained.get("switch") == switch_state, f"the broker's retained switch state is {switch_state}: {retained}")
        self.final = (last_slider, last_switch, taps)

    def check_state_file(self):
        """After SIGTERM: the state file holds what the glass held at the end."""
        if not getattr(self, "final", None):
            return
        slider, switch, taps = self.final
        try:
            with open(os.path.join(self.folder, "state.json")) as f:
                views = json.load(f)["views"]
        except (OSError, ValueError, KeyError) as e:
            self.expect(False, f"the state file is readable after SIGTERM ({e})")
            return
        saved = (views.get("slider", {}).get("value"), views.get("switch", {}).get("on"), views.get("button", {}).get("taps"))
        self.expect(saved == (slider, switch, taps),
                    f"the state file holds the end state (slider, switch, taps) {saved} == {(slider, switch, taps)}")

    def retained(self, views):
        out = subprocess.run(["mosquitto_sub", "-p", str(self.port), "-v", "-W", "3", "-C", str(len(views))]
                             + sum([["-t", f"{self.prefix}/{v}/state"] for v in views], []),
                             capture_output=True, text=True)
        found = {}
        for line in out.stdout.splitlines():
            m = re.match(rf"{re.escape(self.prefix)}/(\w+)/state (.*)", line)
            if m:
                found[m.group(1)] = m.group(2)
        return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--short", action="store_true", help="the CI size: 200 reloads, 10 rounds of 50 taps")
    parser.add_argument("--kiosk", default=os.path.join(ROOT, ".build/debug/kiosk"))
    args = parser.parse_args()
    # kiosk runs in a folder of its own: a path relative to where the soak was started must still find it.
    args.kiosk = os.path.abspath(args.kiosk)
    soak = Soak(args)
    try:
        soak.start()
        soak.phase_reloads(200 if args.short else 1000)
        soak.phase_load(10, 50) if args.short else soak.phase_load(100, 100)
    finally:
        soak.stop()
    soak.check_state_file()
    if soak.failures:
        print(f"soak: {len(soak.failures)} failed", file=sys.stderr)
        sys.exit(1)
    print("soak: all within bounds")


if __name__ == "__main__":
    main()
