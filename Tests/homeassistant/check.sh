#!/usr/bin/env bash
# kiosk against a real Home Assistant, as an integrator meets it: Home Assistant from PyPI in a
# virtual environment, its MQTT integration set up through the config flow on a Mosquitto broker of
# this script's own, and `kiosk run` (headless) on that broker. Every check goes through Home
# Assistant's REST API. Too heavy for CI (Home Assistant's install is ~700 MB and its first start
# takes a minute): run it by hand, and put the summary it prints last in docs/connecting.md
# ("Against a real Home Assistant").
#
#   Tests/homeassistant/check.sh [KIOSK_BINARY]
#
# KIOSK_BINARY defaults to .build/debug/kiosk (build it first). The virtual environment is cached
# in $KIOSK_HA_CACHE (default /var/cache/kiosk-ha); HA_VERSION picks Home Assistant's version
# (default 2025.4.4, the newest that takes Python 3.13.0), PYTHON the interpreter (default pyenv's
# 3.13); KIOSK_HA_KEEP=1 keeps the work folder (the logs of kiosk, Home Assistant and the broker).
# Everything listens on 127.0.0.1 only. Exit status 0 when every check passed.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
kiosk=${1:-$root/.build/debug/kiosk}
cache=${KIOSK_HA_CACHE:-/var/cache/kiosk-ha}
version=${HA_VERSION:-2025.4.4}
python=${PYTHON:-$(ls -d /root/.pyenv/versions/3.13*/bin/python3.13 2>/dev/null | tail -n 1)}

[ -x "$kiosk" ] || { echo "check.sh: no kiosk binary at $kiosk; run swift build first" >&2; exit 2; }
command -v mosquitto >/dev/null || { echo "check.sh: needs mosquitto (apt-get install mosquitto mosquitto-clients)" >&2; exit 2; }
[ -n "$python" ] && [ -x "$python" ] || { echo "check.sh: needs Python 3.13 (set PYTHON)" >&2; exit 2; }

mkdir -p "$cache"
if ! "$cache/venv/bin/python" -c "import homeassistant.const as c; assert c.__version__ == '$version'" 2>/dev/null; then
    echo "check.sh: installing Home Assistant $version into $cache/venv (a few minutes, once)"
    rm -rf "$cache/venv"
    "$python" -m venv "$cache/venv"
    "$cache/venv/bin/pip" install -q "homeassistant==$version" "paho-mqtt>=2"
fi

exec "$cache/venv/bin/python" "$root/Tests/homeassistant/check.py" --kiosk "$kiosk" --repo "$root" ${KIOSK_HA_KEEP:+--keep}
