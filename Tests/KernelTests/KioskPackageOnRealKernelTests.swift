import Foundation
import Testing

/// The suite's VM, waited for before its test cases run (`KernelHarness.AfterItsVM`); they report its errors.
private func theVM() async { _ = try? await KioskPackageOnRealKernelTests.packaged.value }

/// kiosk's Debian package as an integrator meets it: `deploy/make-deb.sh` packs the release build
/// twice (revisions 1 and 2), and in the systemd VM (Debian 12, systemd as PID 1, no network)
/// `apt-get install ./kiosk_*_amd64.deb` installs it, an edited config survives the upgrade to
/// revision 2, and `apt-get remove`, then `purge`, take it away (Tests/vm/kiosk-package.sh inside).
@Suite("kiosk's .deb installed, upgraded, removed and purged by apt under systemd",
       .enabled(if: KernelHarness.canBootSystemd, "needs root, debootstrap and the kernel tests' tools"), .afterItsVM(theVM))
struct KioskPackageOnRealKernelTests {
    struct Packaged {
        var run: KernelHarness.Run
        /// What `kiosk --version` says on this machine for the packaged binary.
        var version: String
        /// Tests/package/lintian.sh on the first package: its status and report.
        var lintian: (status: Int32, output: String)
    }

    static let packaged = Task<Packaged, any Error> {
        let kiosk = try await KernelHarness.releaseKioskBinary.value
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-package-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var debs: [String] = []
        for revision in ["1", "2"] {
            let made = try await KernelHarness.shell(KernelHarness.root.appendingPathComponent("deploy/make-deb.sh").path,
                                               ["--arch", "amd64", "--binary", kiosk, "--revision", revision, "--out", dir.path,
                                                "--compression", "gzip"])
            try #require(made.status == 0, "make-deb.sh: \(made.output)")
            debs.append(made.output.split(separator: "\n").last.map(String.init) ?? "")
        }
        let run = try await KernelHarness.inPlace(first: true) {
            try await KernelHarness.shell(KernelHarness.root.appendingPathComponent("Tests/vm/service-in-vm.sh").path,
                                          ["--no-install", kiosk, KernelHarness.root.appendingPathComponent("Tests/vm/kiosk-package.sh").path] + debs,
                                          // Three apt runs under TCG: 2 to 4 minutes measured on a loaded machine.
                                          environment: ["KIOSK_VM_TIMEOUT": "480"])
        }
        let version = try await KernelHarness.shell(kiosk, ["--version"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let lintian = try await KernelHarness.shell(KernelHarness.root.appendingPathComponent("Tests/package/lintian.sh").path, [debs[0]])
        return Packaged(run: KernelHarness.Run(status: run.status, console: run.output), version: version, lintian: lintian)
    }

    func finished() async throws -> Packaged {
        let packaged = try await Self.packaged.value
        #expect(packaged.run.status == 0, "\(packaged.run.console)")
        return packaged
    }

    func section(_ name: String, _ run: KernelHarness.Run) throws -> String {
        try #require(run.section("KIOSK-\(name)-BEGIN", "KIOSK-\(name)-END"), "no section \(name) in:\n\(run.console)")
    }

    /// A state section's `KEY=VALUE` lines.
    func state(_ name: String, _ run: KernelHarness.Run) throws -> [String: String] {
        var state: [String: String] = [:]
        for line in try section(name, run).split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if kv.count == 2 { state[String(kv[0])] = String(kv[1]) }
        }
        return state
    }

    /// lintian reports no tag but those docs/deploying.md ("The package") explains (Tests/package/lintian.sh).
    @Test func lintianReportsOnlyTheExplainedTags() async throws {
        let lintian = try await Self.packaged.value.lintian
        #expect(lintian.status == 0, "\(lintian.output)")
    }

    @Test func aptInstallsThePackageAndTheServiceComesUpActiveAsTheKioskUser() async throws {
        let packaged = try await finished()
        let run = packaged.run
        let install = try section("INSTALL", run)
        #expect(install.contains("status=0"), "\(install)")
        let before = try state("BEFORE", run)
        #expect(before["ActiveState"] == "inactive" && before["Package"] == "", "\(before)")
        let installed = try state("INSTALLED", run)
        #expect(installed["ActiveState"] == "active" && installed["SubState"] == "running", "\(installed)")
        #expect(installed["UnitFileState"] == "enabled" && installed["FragmentPath"]?.hasSuffix("/lib/systemd/system/kiosk.service") == true, "\(installed)")
        #expect(installed["User"] == "kiosk" && installed["Account"]?.contains("(video)") == true, "\(installed)")
        #expect(installed["Package"] == "\(packaged.version)-1 ii ", "\(installed)")
        // One version: the package's is the binary's, and the running kiosk logged the same.
        #expect(installed["KioskVersion"] == packaged.version, "\(installed)")
        #expect(installed["Journal"]?.contains("kiosk.version=\(packaged.version) ") == true, "\(installed)")
        #expect(installed["Getty"] == "/dev/null", "the serial getty is masked: \(installed)")
    }

    @Test func anUpgradeKeepsAnEditedConfigAndRestartsTheService() async throws {
        let packaged = try await finished()
        let run = packaged.run
        let upgrade = try section("UPGRADE", run)
        #expect(upgrade.contains("status=0"), "\(upgrade)")
        let installed = try state("INSTALLED", run), upgraded = try state("UPGRADED", run)
        #expect(upgraded["Package"] == "\(packaged.version)-2 ii ", "\(upgraded)")
        #expect(upgraded["ActiveState"] == "active" && upgraded["SubState"] == "running", "\(upgraded)")
        #expect(upgraded["MainPID"] != installed["MainPID"], "restarted on the new package: \(installed) \(upgraded)")
        #expect(upgraded["Edited"] == "1" && upgraded["Leftovers"] == "0", "the integrator's edit kept, no .dpkg-* beside it: \(upgraded)")
        #expect(upgraded["UnitFileState"] == "enabled", "\(upgraded)")
    }

    /// `[mqtt]` added to the installed config, then `dpkg-reconfigure kiosk`: the MQTT drop-in is
    /// in place (the unit gets the network), and kiosk runs with it, as install.sh would leave it.
    @Test func reconfiguringAfterAddingMQTTGivesTheServiceTheNetwork() async throws {
        let run = try await finished().run
        var facts: [String: String] = [:]
        let text = try section("RECONFIGURE", run)
        for line in text.split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { facts[String(kv[0])] = String(kv[1]) }
        }
        #expect(facts["status"] == "0" && facts["DropIn"] == "1", "\(text)")
        #expect(facts["PrivateNetwork"] == "no" && facts["ActiveState"] == "active", "\(text)")
    }

    /// `remove` keeps what `purge` takes: the config and the state directory.
    @Test func removeStopsTheServiceAndKeepsTheConfig() async throws {
        let run = try await finished().run
        let remove = try section("REMOVE", run)
        #expect(remove.contains("status=0"), "\(remove)")
        let removed = try state("REMOVED", run)
        #expect(removed["ActiveState"] == "inactive", "\(removed)")
        #expect(removed["Package"]?.hasSuffix(" rc ") == true, "config files remain: \(removed)")
        let files = try section("REMOVED-FILES", run)
        #expect(files == "/etc/kiosk/kiosk.conf\n/var/lib/kiosk\n", "only the conffile and the state stay: \(files)")
        #expect(removed["Edited"] == "1", "\(removed)")
    }

    /// After `purge`, the file system holds nothing the package's life added, except the kiosk
    /// user (Debian keeps system users) and the logs and caches of apt, dpkg and systemd.
    @Test func purgeLeavesNothingBehind() async throws {
        let run = try await finished().run
        let purge = try section("PURGE", run)
        #expect(purge.contains("status=0"), "\(purge)")
        let purged = try state("PURGED", run)
        #expect(purged["Package"] == "" && purged["Conffile"] == "" && purged["Getty"] == "", "\(purged)")
        #expect(purged["Account"]?.hasPrefix("uid=") == true, "\(purged)")
        let expected = ["/etc/passwd-", "/etc/group-", "/etc/shadow-", "/etc/gshadow-", "/var/log/apt/", "/var/log/dpkg.log",
                        "/var/lib/dpkg/", "/var/cache/", "/var/lib/apt/", "/var/cache/debconf/", "/var/log/alternatives.log",
                        "/run/", "/var/lib/systemd/deb-systemd-helper-", "/tmp", "/payload"]
        let left = try section("LEFT", run).split(separator: "\n").filter { path in !expected.contains { path.hasPrefix($0) } }
        #expect(left.isEmpty, "left behind:\n\(left.joined(separator: "\n"))")
        let inRun = try section("LEFT", run).split(separator: "\n").filter { $0.contains("kiosk") }
        #expect(inRun.isEmpty, "\(inRun)")
    }
}
