#!/bin/sh
# screendump [NAME]: the host saves the screen as KIOSK-SCREENDUMP[:NAME] asks; returns once it
# has (status 1 after 60 s without the host's word).
taken="taken ${1:--}"
count() { grep -cx "$taken" /tmp/screendumps-taken 2>/dev/null || true; }
before=$(count)
echo "KIOSK-SCREENDUMP${1:+:$1}"
for i in $(seq 1 600); do
    [ "$(count)" -gt "${before:-0}" ] && exit 0
    sleep 0.1
done
echo "KIOSK-TIMEOUT waiting for the screendump ${1:-}"
exit 1
