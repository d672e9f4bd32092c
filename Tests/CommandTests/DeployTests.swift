import Foundation
import Testing

/// deploy/: the systemd unit is valid for systemd, and install.sh puts everything in place in a
/// Raspberry Pi OS root file system, edits its boot files once, and never overwrites a config.
@Suite("deploy/")
struct DeployTests {
    static let deploy = repositoryRoot.appendingPathComponent("deploy")
    static let hasSystemd = FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/systemctl")

    /// A root with the boot partition as Raspberry Pi OS Bookworm lays it out.
    func piRoot() throws -> URL {
        let root = try temporaryFolder("pi-root")
        let boot = root.appendingPathComponent("boot/firmware")
        try FileManager.default.createDirectory(at: boot, withIntermediateDirectories: true)
        try "# For more options and information see\n# http://rptl.io/configtxt\ndtparam=audio=on\ncamera_auto_detect=1\n[pi4]\narm_boost=1\n"
            .write(to: boot.appendingPathComponent("config.txt"), atomically: true, encoding: .utf8)
        try "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait quiet\n"
            .write(to: boot.appendingPathComponent("cmdline.txt"), atomically: true, encoding: .utf8)
        return root
    }

    func install(_ root: URL) throws -> Finished {
        try runToEnd(Self.deploy.appendingPathComponent("install.sh"),
                     ["--root", root.path, "--binary", kioskExecutable.path, "--boot-config", "--no-start"])
    }

    func read(_ root: URL, _ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test(.enabled(if: hasSystemd, "needs systemd-analyze")) func systemdAcceptsTheUnit() throws {
        // verify wants ExecStart to exist: point it at the built executable.
        let dir = try temporaryFolder("unit")
        let unit = try String(contentsOf: Self.deploy.appendingPathComponent("kiosk.service"), encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/kiosk", with: kioskExecutable.path)
        let path = dir.appendingPathComponent("kiosk.service")
        try unit.write(to: path, atomically: true, encoding: .utf8)
        let r = try runToEnd(URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["verify", path.path])
        let complaints = (r.stdout + r.stderr).split(separator: "\n").filter { $0.contains("kiosk.service") }
        #expect(complaints.isEmpty, "\(r.stdout)\(r.stderr)")
    }

    @Test func theUnitIsHardenedAndWatched() throws {
        let unit = try String(contentsOf: Self.deploy.appendingPathComponent("kiosk.service"), encoding: .utf8)
        for line in ["Type=notify", "WatchdogSec=", "Restart=always", "User=kiosk", "SupplementaryGroups=video input dialout",
                     "NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateNetwork=yes", "ExecReload=/bin/kill -HUP $MAINPID",
                     "ExecStart=/usr/local/bin/kiosk run --config /etc/kiosk/kiosk.conf",
                     // The backlight: the class's links and where a Pi's backlights are (the display as a light).
                     "ReadWritePaths=-/sys/class/backlight -/sys/devices/platform"] {
            #expect(unit.contains("\n" + line), "kiosk.service lacks \(line)")
        }
    }

    @Test func installPutsEverythingInPlaceAndEditsTheBootFilesOnce() throws {
        let root = try piRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try install(root)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let fm = FileManager.default
        #expect(fm.isExecutableFile(atPath: root.appendingPathComponent("usr/local/bin/kiosk").path))
        #expect(try read(root, "etc/kiosk/kiosk.conf") == (try String(contentsOf: repositoryRoot.appendingPathComponent("config/kiosk.toml"), encoding: .utf8)))
        #expect(try read(root, "etc/systemd/system/kiosk.service").contains("Type=notify"))
        #expect(try read(root, "usr/lib/sysusers.d/kiosk.conf").contains("m kiosk input"))
        let rule = try read(root, "etc/udev/rules.d/90-kiosk-backlight.rules")
        #expect(rule.contains("SUBSYSTEM==\"backlight\"") && rule.contains("chgrp video /sys$devpath/brightness")
            && rule.contains("chgrp video /sys$devpath/bl_power"))

        let cmdline = try read(root, "boot/firmware/cmdline.txt")
        #expect(cmdline == "root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait console=serial0,115200 console=tty3 consoleblank=0 vt.global_cursor_default=0 logo.nologo quiet loglevel=3\n")
        let config = try read(root, "boot/firmware/config.txt")
        #expect(config.hasPrefix("# For more options"), "the original lines stay first")
        #expect(config.contains("\n[all]\ndtoverlay=vc4-kms-v3d\n"), "\(config)")
        #expect(config.contains("\nenable_uart=1\n"))
        #expect(try read(root, "boot/firmware/cmdline.txt.kiosk-backup").contains("console=tty1"))
        if Self.hasSystemd {
            // Links as systemd makes them: absolute within the root they were made for.
            let wanted = try fm.destinationOfSymbolicLink(atPath: root.appendingPathComponent("etc/systemd/system/multi-user.target.wants/kiosk.service").path)
            #expect(wanted == "/etc/systemd/system/kiosk.service")
            let masked = try fm.destinationOfSymbolicLink(atPath: root.appendingPathComponent("etc/systemd/system/serial-getty@ttyS0.service").path)
            #expect(masked == "/dev/null")
        }

        // Again: nothing changes, and an integrator's config is kept.
        try "# mine\n".write(to: root.appendingPathComponent("etc/kiosk/kiosk.conf"), atomically: true, encoding: .utf8)
        let second = try install(root)
        #expect(second.stdout.contains("kept \(root.path)/etc/kiosk/kiosk.conf"), "\(second.stdout)")
        #expect(try read(root, "etc/kiosk/kiosk.conf") == "# mine\n")
        #expect(try read(root, "boot/firmware/cmdline.txt") == cmdline)
        #expect(try read(root, "boot/firmware/config.txt") == config)
    }

    @Test func installRefusesARootWithoutBootFiles() throws {
        let root = try temporaryFolder("no-boot")
        defer { try? FileManager.default.removeItem(at: root) }
        let r = try install(root)
        #expect(r.status == 2)
        #expect(r.stderr.contains("no config.txt and cmdline.txt in \(root.path)/boot/firmware or \(root.path)/boot"), "\(r.stderr)")
    }
}
