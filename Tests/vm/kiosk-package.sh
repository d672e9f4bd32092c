# Runs inside the systemd VM (Tests/vm/service-in-vm.sh --no-install): kiosk's Debian package
# installed with apt, upgraded with an edited config, removed and purged, as an integrator would.
# /payload holds kiosk_<version>-1_amd64.deb and kiosk_<version>-2_amd64.deb (deploy/make-deb.sh).
# Each step's facts go between KIOSK-<NAME>-BEGIN and -END lines for
# Tests/KernelTests/KioskPackageOnRealKernelTests.swift.
export DEBIAN_FRONTEND=noninteractive
first=$(ls /payload/kiosk_*-1_amd64.deb)
second=$(ls /payload/kiosk_*-2_amd64.deb)

# Everything in the places a package may write, before and after, to find what is left behind.
# (The root is the initramfs; /run is a mount of its own. /tmp holds these lists.)
snapshot() { find / /run -xdev \( -path /tmp -o -path /payload -o -path /var/log/journal -o -path /run/log \) -prune -o -print | sort -u; }
# The unit's state, the package's, and what kiosk itself says about its version.
state() {
    echo "KIOSK-$1-BEGIN"
    systemctl show -p ActiveState -p SubState -p MainPID -p UnitFileState -p User -p FragmentPath kiosk.service
    echo "Package=$(dpkg-query -W -f '${Version} ${db:Status-Abbrev}' kiosk 2>/dev/null)"
    echo "KioskVersion=$(kiosk --version 2>&1)"
    echo "Conffile=$(md5sum < /etc/kiosk/kiosk.conf 2>/dev/null | cut -d' ' -f1)"
    echo "Edited=$(grep -c '^# edited on the kiosk' /etc/kiosk/kiosk.conf 2>/dev/null)"
    echo "Leftovers=$(ls /etc/kiosk/ 2>/dev/null | grep -c 'dpkg-')"
    echo "Getty=$(readlink /etc/systemd/system/serial-getty@ttyS0.service)"
    echo "Account=$(id kiosk 2>&1)"
    echo "Journal=$(journalctl -b -u kiosk.service -o cat --no-pager | grep -m 1 'kiosk starting')"
    echo "Uptime=$(cut -d' ' -f1 /proc/uptime)"
    echo "KIOSK-$1-END"
}

snapshot > /tmp/before
state BEFORE

echo "KIOSK-INSTALL-BEGIN"
# apt itself, as docs/deploying.md says: apt install ./kiosk_<version>_amd64.deb. Its Depends are in the
# image already (there is no network): apt must find them there.
apt-get install -y --no-install-recommends "$first" 2>&1
echo "status=$?"
echo "KIOSK-INSTALL-END"
state INSTALLED

# An integrator's edit, then an upgrade: the edit stays, the service is restarted on the new kiosk.
sed -i '1i # edited on the kiosk' /etc/kiosk/kiosk.conf
echo "KIOSK-UPGRADE-BEGIN"
apt-get install -y --no-install-recommends "$second" 2>&1
echo "status=$?"
echo "KIOSK-UPGRADE-END"
state UPGRADED

# [mqtt] added by hand: `dpkg-reconfigure kiosk` gives the unit the network (docs/connecting.md, "MQTT and Home Assistant").
printf '\n[mqtt]\nbroker = "mqtt://127.0.0.1:1883"\n' >> /etc/kiosk/kiosk.conf
echo "KIOSK-RECONFIGURE-BEGIN"
dpkg-reconfigure kiosk 2>&1
echo "status=$?"
echo "DropIn=$(grep -c '^PrivateNetwork=no' /etc/systemd/system/kiosk.service.d/mqtt.conf 2>/dev/null)"
echo "PrivateNetwork=$(systemctl show -p PrivateNetwork --value kiosk.service)"
echo "ActiveState=$(systemctl show -p ActiveState --value kiosk.service)"
echo "KIOSK-RECONFIGURE-END"

echo "KIOSK-REMOVE-BEGIN"
apt-get remove -y kiosk 2>&1
echo "status=$?"
echo "KIOSK-REMOVE-END"
state REMOVED
echo "KIOSK-REMOVED-FILES-BEGIN"
for f in /usr/bin/kiosk /usr/lib/systemd/system/kiosk.service /etc/kiosk/kiosk.conf /var/lib/kiosk; do [ ! -e "$f" ] || echo "$f"; done
echo "KIOSK-REMOVED-FILES-END"

echo "KIOSK-PURGE-BEGIN"
apt-get purge -y kiosk 2>&1
echo "status=$?"
echo "KIOSK-PURGE-END"
state PURGED
snapshot > /tmp/after
# What the package's life left: paths that exist now and did not before.
echo "KIOSK-LEFT-BEGIN"
comm -13 /tmp/before /tmp/after
echo "KIOSK-LEFT-END"
