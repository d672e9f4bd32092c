"""kiosk against a real Home Assistant: run by Tests/homeassistant/check.sh (read it first).

Starts Mosquitto, Home Assistant (onboarded through its API, MQTT set up through the config flow)
and `kiosk run` (headless, the default scene), then checks through Home Assistant's REST API what
an integrator sees: the entities, commands both ways, availability, restarts and reloads. Prints a
line per check and a summary; exits 1 if any check failed. Listens on 127.0.0.1 only; every wait is
bounded.
"""

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, seconds, probe, interval=0.25):
    """probe() until it returns something truthy; that value, or an exception naming `what`."""
    end = time.monotonic() + seconds
    last = None
    while time.monotonic() < end:
        try:
            value = probe()
            if value:
                return value
        except Exception as error:  # a server not up yet answers with a refused connection
            last = error
        time.sleep(interval)
    raise TimeoutError(f"{what} within {seconds} s" + (f" (last: {last})" if last else ""))


class HomeAssistant:
    def __init__(self, python, folder, port):
        self.folder, self.port = folder, port
        self.base = f"http://127.0.0.1:{port}"
        self.token = None
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "configuration.yaml"), "w") as f:
            f.write(
                "homeassistant:\n  name: kiosk check\n  latitude: 52.37\n  longitude: 4.89\n  elevation: 0\n"
                "  unit_system: metric\n  time_zone: UTC\n  country: NL\n  currency: EUR\n"
                f"http:\n  server_host: 127.0.0.1\n  server_port: {port}\n"
                "api:\nconfig:\nonboarding:\nauth:\nlogger:\n  default: warning\n"
            )
        self.log_path = os.path.join(folder, "home-assistant.log")
        self.process = subprocess.Popen(
            [python, "-m", "homeassistant", "-c", folder, "--log-file", self.log_path],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def request(self, method, path, body=None, form=False, auth=True):
        data, headers = None, {}
        if body is not None:
            if form:
                data = urllib.parse.urlencode(body).encode()
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            else:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
        if auth and self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        with urllib.request.urlopen(req, timeout=30) as r:
            text = r.read().decode()
            return json.loads(text) if text else None

    def onboard(self):
        wait_for("Home Assistant's onboarding API", 180, lambda: self.request("GET", "/api/onboarding", auth=False))
        client = self.base + "/"
        code = self.request("POST", "/api/onboarding/users", {
            "client_id": client, "name": "Owner", "username": "owner", "password": "kiosk-check-password",
            "language": "en"}, auth=False)["auth_code"]
        self.token = self.request("POST", "/auth/token", {
            "grant_type": "authorization_code", "code": code, "client_id": client}, form=True, auth=False)["access_token"]

    def add_mqtt(self, broker_port):
        step = self.request("POST", "/api/config/config_entries/flow", {"handler": "mqtt", "show_advanced_options": False})
        if step.get("type") == "menu":
            step = self.request("POST", f"/api/config/config_entries/flow/{step['flow_id']}", {"next_step_id": "broker"})
        done = self.request("POST", f"/api/config/config_entries/flow/{step['flow_id']}", {"broker": "127.0.0.1", "port": broker_port})
        if done.get("type") != "create_entry":
            raise RuntimeError(f"the MQTT config flow did not create an entry: {done}")

    def template(self, text):
        req = urllib.request.Request(self.base + "/api/template", data=json.dumps({"template": text}).encode(),
                                     headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
                                     method="POST")
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.read().decode()

    def mqtt_entities(self):
        return json.loads(self.template("{{ integration_entities('mqtt') | list | tojson }}"))

    def state(self, entity):
        try:
            return self.request("GET", f"/api/states/{entity}")
        except urllib.error.HTTPError as error:
            if error.code == 404:
                return None
            raise

    def call(self, domain, service, **data):
        return self.request("POST", f"/api/services/{domain}/{service}", data)

    def log_lines(self, *needles):
        if not os.path.exists(self.log_path):
            return []
        with open(self.log_path, errors="replace") as f:
            return [l.rstrip() for l in f if any(n in l for n in needles)]

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Kiosk:
    """`kiosk run`, headless, on the default scene with [mqtt] on the broker and a control socket."""

    def __init__(self, binary, repo, folder, broker_port, scene=None):
        self.binary, self.folder = binary, folder
        self.socket = os.path.join(folder, "control.sock")
        self.config = os.path.join(folder, "kiosk.conf")
        self.log = open(os.path.join(folder, "kiosk.log"), "ab")
        with open(os.path.join(repo, "config", "kiosk.toml")) as f:
            self.scene = scene or f.read().split("\n[display]")[0]
        self.broker_port = broker_port
        # A build without the state store ([state]) runs without it: the restart check then fails.
        self.takes_state = True
        self.write_config(self.scene)
        probe = subprocess.run([binary, "check-config", self.config], capture_output=True, text=True)
        if "state: unknown key" in probe.stdout + probe.stderr:
            self.takes_state = False
            self.write_config(self.scene)
        self.process = None
        self.start()

    def write_config(self, scene, mqtt=""):
        self.scene = scene
        text = scene + f"""
[display]
card = "headless"
screenshot_directory = "{self.folder}"

[input]
directory = "{self.folder}"

[log]
serial = "none"
stats_interval = 1

[control]
socket = "{self.socket}"

[state]
directory = "{self.folder}"

[mqtt]
broker = "mqtt://127.0.0.1:{self.broker_port}"
client_id = "kiosk-check"
topic_prefix = "kiosk/check"
node = "check"
""" + mqtt
        if not self.takes_state:
            text = text.replace(f'[state]\ndirectory = "{self.folder}"\n', "")
        with open(self.config + ".new", "w") as f:
            f.write(text)
        os.replace(self.config + ".new", self.config)

    def start(self):
        # A stand-in for /sys/class/backlight (the display as a light): made once, kept across restarts.
        self.backlight = os.path.join(self.folder, "backlight", "standin")
        if not os.path.isdir(self.backlight):
            os.makedirs(self.backlight)
            for name, value in (("max_brightness", "255"), ("brightness", "255"), ("bl_power", "0")):
                with open(os.path.join(self.backlight, name), "w") as f:
                    f.write(value + "\n")
        env = dict(os.environ, KIOSK_BACKLIGHT_CLASS=os.path.dirname(self.backlight))
        self.process = subprocess.Popen([self.binary, "run", "--config", self.config], cwd=self.folder,
                                        stdout=self.log, stderr=self.log, env=env)
        wait_for("kiosk's control socket", 30, lambda: self.ask({"command": "get_state"}).get("ok"))

    def ask(self, request):
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(5)
            s.connect(self.socket)
            s.sendall((json.dumps(request) + "\n").encode())
            data = b""
            while not data.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            return json.loads(data.decode().splitlines()[0])

    def view(self, name):
        state = self.ask({"command": "get_state"})
        views = state.get("views", state.get("state", {}).get("views", []))
        if isinstance(views, dict):
            return views.get(name)
        return next((v for v in views if v.get("name") == name), None)

    def reload(self, scene, mqtt=""):
        self.write_config(scene, mqtt)
        self.process.send_signal(signal.SIGHUP)

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


class Report:
    def __init__(self):
        self.results = []

    def check(self, name, body):
        try:
            detail = body()
            self.results.append((name, True, detail or ""))
            print(f"PASS {name}" + (f": {detail}" if detail else ""), flush=True)
        except Exception as error:
            self.results.append((name, False, str(error)))
            print(f"FAIL {name}: {error}", flush=True)

    def summary(self, version):
        passed = sum(1 for _, ok, _ in self.results if ok)
        print(f"\nHome Assistant {version}: {passed} of {len(self.results)} checks passed")
        for name, ok, _ in self.results:
            print(f"  {'pass' if ok else 'FAIL'}  {name}")
        return passed == len(self.results)


def entities_by_domain(ha):
    found = {}
    for e in ha.mqtt_entities():
        found.setdefault(e.split(".")[0], []).append(e)
    return found


def find(ha, domain, needle):
    """The MQTT entity of `domain` whose id or friendly name holds `needle`."""
    for e in entities_by_domain(ha).get(domain, []):
        s = ha.state(e) or {}
        if needle in e or needle in str(s.get("attributes", {}).get("friendly_name", "")).lower():
            return e
    raise LookupError(f"no {domain} entity for '{needle}' among {entities_by_domain(ha).get(domain, [])}")


def backlight_file(kiosk, name):
    with open(os.path.join(kiosk.backlight, name)) as f:
        return f.read().strip()


def display_checks(ha, kiosk, report):
    """The display as a light "Display" with brightness, "Blank after" and "Last touch" (issue 23 item 3)."""
    def light_both_ways():
        entity = find(ha, "light", "display")
        ha.call("light", "turn_on", entity_id=entity, brightness_pct=40)
        wait_for("the backlight at 40 %", 10, lambda: backlight_file(kiosk, "brightness") == "102")
        ha.call("light", "turn_off", entity_id=entity)
        wait_for("the panel off (bl_power 4)", 10, lambda: backlight_file(kiosk, "bl_power") == "4")
        wait_for("the light off in Home Assistant", 10, lambda: (ha.state(entity) or {}).get("state") == "off")
        kiosk.ask({"command": "wake"})
        wait_for("the light on in Home Assistant", 10, lambda: (ha.state(entity) or {}).get("state") == "on")
        brightness = (ha.state(entity) or {}).get("attributes", {}).get("brightness")
        if brightness not in (101, 102):
            raise AssertionError(f"{entity}: brightness {brightness} (expected 40 % of 255)")
        return f"{entity}, brightness {brightness}"
    report.check("the display light and the backlight file agree, both ways", light_both_ways)

    def blank_after_and_last_touch():
        number = find(ha, "number", "blank_after")
        attributes = (ha.state(number) or {}).get("attributes", {})
        ha.call("number", "set_value", entity_id=number, value=600)
        wait_for("blank_after 600 on the kiosk", 10,
                 lambda: (kiosk.ask({"command": "get_state"}).get("display") or {}).get("blank_after") == 600)
        kiosk.ask({"command": "tap", "x": 700, "y": 40})
        sensor = find(ha, "sensor", "last_touch")
        wait_for("the last touch in Home Assistant", 10, lambda: (ha.state(sensor) or {}).get("state") not in (None, "unknown", "unavailable"))
        return f"{number} {attributes.get('unit_of_measurement')}, {sensor} {(ha.state(sensor) or {}).get('state')}"
    report.check("blank_after set from Home Assistant; the last touch as a timestamp", blank_after_and_last_touch)


def check_screenshot(ha, report):
    """Issue 23 item 5: the Screenshot button makes kiosk publish a PNG, and the image entity serves it."""
    def screenshot():
        button, image = "button.kiosk_check_screenshot", "image.kiosk_check_screen"
        if ha.state(button) is None or ha.state(image) is None:
            raise AssertionError(f"no {button} or {image} among {ha.mqtt_entities()}")
        before = (ha.state(image) or {}).get("state")
        ha.call("button", "press", entity_id=button)
        wait_for("the image updated", 15,
                 lambda: (ha.state(image) or {}).get("state") not in (None, "unknown", "unavailable", before))
        req = urllib.request.Request(ha.base + f"/api/image_proxy/{image}", headers={"Authorization": f"Bearer {ha.token}"})
        with urllib.request.urlopen(req, timeout=30) as r:
            data, kind = r.read(), r.headers.get("Content-Type")
        if not data.startswith(b"\x89PNG\r\n\x1a\n") or kind != "image/png":
            raise AssertionError(f"{len(data)} bytes of {kind}: {data[:16]!r}")
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        return f"{image}: {width}x{height}, {len(data)} bytes of {kind}"
    report.check("the Screenshot button publishes the panel's frame, and the image entity serves it as a PNG", screenshot)


def label_and_diagnostic_checks(ha, kiosk, report):
    """The button's label as a `text` entity both ways; the diagnostics sensors fed at the stats line."""
    def label_both_ways():
        entity = find(ha, "text", "label")
        ha.call("text", "set_value", entity_id=entity, value="Open")
        wait_for("the label 'Open' on the glass", 10, lambda: (kiosk.view("button") or {}).get("label") == "Open")
        kiosk.ask({"command": "set", "view": "button", "label": "Press"})
        wait_for("the label 'Press' in Home Assistant", 10, lambda: (ha.state(entity) or {}).get("state") == "Press")
        return entity
    report.check("the button's label works both ways (text)", label_both_ways)

    def diagnostics_arrive():
        fps, started = find(ha, "sensor", "frame_rate"), find(ha, "sensor", "started")
        touchscreen = find(ha, "binary_sensor", "touchscreen")
        # Not retained: the first message after Home Assistant subscribed is the next stats line (1 s).
        wait_for("the diagnostics", 20, lambda: (ha.state(fps) or {}).get("state") not in (None, "unknown", "unavailable"))
        float(ha.state(fps)["state"])
        when = ha.state(started)["state"]
        if "T" not in when or ha.state(touchscreen)["state"] != "off":
            raise AssertionError(f"started {when!r}, touchscreen {ha.state(touchscreen)}")
        return f"{fps} {ha.state(fps)['state']}, {started} {when}, {touchscreen} off"
    report.check("the diagnostics arrive (frame rate, start time, the touchscreen)", diagnostics_arrive)


def without_view(scene, name):
    """The scene's text with the view `name`'s [[view]] block taken out."""
    start = scene.index(f'name = "{name}"')
    block_start = scene.rindex("[[view]]", 0, start)
    block_end = scene.find("[[", start)
    return scene[:block_start] + (scene[block_end:] if block_end >= 0 else "")


def restart_removal_checks(ha, kiosk, report):
    def restart_removes_view():
        # The device config's components are remembered in the state file: the next start sends the
        # slider's once as its platform alone, which is how Home Assistant removes it.
        kiosk.stop()
        kiosk.write_config(without_view(kiosk.scene, "slider"))
        kiosk.start()
        wait_for("the slider's entity gone", 30, lambda: not [e for e in entities_by_domain(ha).get("number", []) if "slider" in e])
        press = find(ha, "button", "press")
        wait_for("the other entities available", 30, lambda: (ha.state(press) or {}).get("state") not in (None, "unavailable"))
        return f"number.kiosk_check_slider gone, {press} available"
    report.check("a view removed while kiosk is stopped is removed by the next start", restart_removes_view)


def run_checks(args, report, work):
    broker_port, ha_port = free_port(), free_port()
    conf = os.path.join(work, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write(f"listener {broker_port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    broker = subprocess.Popen(["mosquitto", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # Every message on the broker, with its topic, for reading after a failed check (--keep).
    wait_for("the broker", 10, lambda: socket.create_connection(("127.0.0.1", broker_port), 1).close() or True)
    traffic = subprocess.Popen(["mosquitto_sub", "-p", str(broker_port), "-v", "-t", "#"],
                               stdout=open(os.path.join(work, "mqtt-traffic.log"), "w"), stderr=subprocess.DEVNULL)
    ha = HomeAssistant(sys.executable, os.path.join(work, "ha"), ha_port)
    kiosk = None
    try:
        report.check("Home Assistant starts and is onboarded through its API", ha.onboard)
        report.check("the MQTT integration is set up through its config flow", lambda: ha.add_mqtt(broker_port))
        kiosk_folder = os.path.join(work, "kiosk")
        os.makedirs(kiosk_folder)
        kiosk = Kiosk(args.kiosk, args.repo, kiosk_folder, broker_port)

        def entities_appear():
            want = {"switch": 1, "number": 1, "event": 1, "button": 1}
            found = wait_for("every control's entity", 60,
                             lambda: (lambda d: d if all(len(d.get(k, [])) >= n for k, n in want.items()) else None)(entities_by_domain(ha)))
            everyone = sorted(e for v in found.values() for e in v)
            # Home Assistant ignores commands to an entity it holds unavailable: wait for kiosk's `online`.
            wait_for("every entity available", 30,
                     lambda: all((ha.state(e) or {}).get("state") not in (None, "unavailable") for e in everyone))
            return ", ".join(everyone)
        report.check("every control appears as its entities", entities_appear)

        def switch_both_ways():
            entity = find(ha, "switch", "switch")
            ha.call("switch", "turn_on", entity_id=entity)
            wait_for("the switch on the glass", 10, lambda: (kiosk.view("switch") or {}).get("on") is True)
            kiosk.ask({"command": "set", "view": "switch", "on": False})
            wait_for("the switch off in Home Assistant", 10, lambda: (ha.state(entity) or {}).get("state") == "off")
            return entity
        report.check("the switch works both ways", switch_both_ways)

        def slider_both_ways():
            entity = find(ha, "number", "slider")
            ha.call("number", "set_value", entity_id=entity, value=55)
            wait_for("the slider at 55 % on the glass", 10,
                     lambda: abs(float((kiosk.view("slider") or {}).get("value", -1)) - 0.55) < 0.002)
            kiosk.ask({"command": "set", "view": "slider", "value": 0.2})
            wait_for("the slider at 20 in Home Assistant", 10,
                     lambda: abs(float((ha.state(entity) or {}).get("state", "nan")) - 20) < 0.2)
            return entity
        report.check("the slider works both ways", slider_both_ways)

        def button_press():
            entity = find(ha, "button", "press")
            event = find(ha, "event", "press")
            before = (ha.state(event) or {}).get("state")
            ha.call("button", "press", entity_id=entity)
            wait_for("the press as an event in Home Assistant", 10, lambda: (ha.state(event) or {}).get("state") != before)
            return f"{entity} -> {event}"
        report.check("a press from Home Assistant fires the button's event", button_press)
        check_screenshot(ha, report)
        label_and_diagnostic_checks(ha, kiosk, report)
        display_checks(ha, kiosk, report)

        def names():
            want = {"switch.kiosk_check_switch": ("kiosk check Switch", "switch"),
                    "number.kiosk_check_slider": ("kiosk check Slider", None),
                    "button.kiosk_check_press": ("kiosk check Press", None),
                    "event.kiosk_check_press_pressed": ("kiosk check Press pressed", "button")}
            for entity, (name, device_class) in want.items():
                attributes = (ha.state(entity) or {}).get("attributes", {})
                # Home Assistant 2025.4.4 shows "kiosk check switch" for the name "Switch": compared without case.
                if str(attributes.get("friendly_name")).lower() != name.lower() or attributes.get("device_class") != device_class:
                    raise AssertionError(f"{entity}: {attributes} (expected {name!r}, device class {device_class!r}); "
                                         f"entities: {ha.mqtt_entities()}")
            slider = (ha.state("number.kiosk_check_slider") or {}).get("attributes", {})
            if slider.get("mode") != "slider" or slider.get("unit_of_measurement") != "%":
                raise AssertionError(f"the slider: {slider}")
            return ", ".join(f"{e} '{(ha.state(e) or {}).get('attributes', {}).get('friendly_name')}'" for e in want)
        report.check("entity ids from [mqtt] node, names from labels or made readable, device classes", names)

        def device_info():
            entity = find(ha, "switch", "switch")
            ask = lambda key: ha.template("{{ device_attr(device_id('%s'), '%s') }}" % (entity, key))
            model, sw, name = ask("model"), ask("sw_version"), ask("name")
            if model != "kiosk" or not sw or sw == "None" or not name.startswith("kiosk "):
                raise AssertionError(f"model {model!r}, sw_version {sw!r}, name {name!r}")
            origin = [l for l in ha.log_lines("Processing device discovery") if "kiosk" in l]
            return f"{name}, model {model}, sw_version {sw}, hw_version {ask('hw_version')}" + (", origin logged" if origin else "")
        report.check("one device (device discovery) with its model and version", device_info)

        def switch_forms():
            before = sorted(ha.mqtt_entities())
            for form, what in (('"entity"', "per-entity configs"), ('"device"', "the device config again")):
                kiosk.reload(kiosk.scene, f"discovery = {form}\n")
                time.sleep(2)  # the clearing and the new configs: then the entities must be back
                wait_for(f"the same entities from {what}", 30,
                         lambda: sorted(ha.mqtt_entities()) == before
                         and all((ha.state(e) or {}).get("state") not in (None, "unavailable") for e in before))
            return f"{len(before)} entities, the same ids"
        report.check("discovery switched to per-entity and back: the same entities, none twice", switch_forms)

        def warnings():
            lines = [l for l in ha.log_lines("mqtt", "MQTT") if " WARNING " in l or " ERROR " in l]
            if lines:
                raise AssertionError("\n".join(lines[:10]))
        report.check("no MQTT warning or error in Home Assistant's log", warnings)

        def killed_is_unavailable():
            kiosk.kill()
            mine = ha.mqtt_entities()
            wait_for("every entity unavailable", 30,
                     lambda: all((ha.state(e) or {}).get("state") == "unavailable" for e in mine))
            return f"{len(mine)} entities"
        report.check("SIGKILL makes every entity unavailable (the will)", killed_is_unavailable)

        def restart_keeps_values():
            kiosk.start()
            entity = find(ha, "number", "slider")
            wait_for("the slider available again at 20", 30,
                     lambda: abs(float((ha.state(entity) or {}).get("state", "nan")) - 20) < 0.2)
        report.check("a restart keeps the slider where it was (the state store) and is available again", restart_keeps_values)

        def reload_removes_view():
            scene = kiosk.scene
            start = scene.index('name = "switch"')
            block_start = scene.rindex("[[view]]", 0, start)
            block_end = scene.find("[[", start)
            without = scene[:block_start] + (scene[block_end:] if block_end >= 0 else "")
            without = "\n".join(l for l in without.split("\n") if '"switch"' not in l or "kind" in l)
            kiosk.reload(without)
            wait_for("the switch's entity gone", 30,
                     lambda: not [e for e in entities_by_domain(ha).get("switch", []) if "switch" in e])
        report.check("a reload that removes a view removes its entity", reload_removes_view)
        restart_removal_checks(ha, kiosk, report)
    finally:
        if kiosk:
            kiosk.stop()
        ha.stop()
        traffic.terminate()
        broker.terminate()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kiosk", required=True)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args()
    from homeassistant.const import __version__ as version
    work = tempfile.mkdtemp(prefix="kiosk-ha-")
    report = Report()
    try:
        run_checks(args, report, work)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"work folder: {work}")
    sys.exit(0 if report.summary(version) else 1)


if __name__ == "__main__":
    main()
