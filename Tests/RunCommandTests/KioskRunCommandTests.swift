import Foundation
import Render
import Testing

/// `kiosk run` as a process on this machine: a headless display, no touchscreen, the log on
/// stderr. Signals, reloads, screenshots, a slow stage, the serial device missing, systemd's
/// socket. (The real panel, touchscreen and serial port: KernelTests' end-to-end boot.)
@Suite("kiosk run, the command", .serialized)
struct KioskRunCommandTests {
    @Test func startsWaitsForATouchscreenAndStopsCleanlyOnSIGTERM() throws {
        let k = try KioskProcess(config: try headlessConfig())
        #expect(k.waitFor("kiosk starting"), "\(k.text)")
        #expect(k.waitFor("no touchscreen yet; waiting for one to be plugged in"), "\(k.text)")
        #expect(k.lines(containing: "kiosk starting").first?.contains("display=\"headless 800x480@60 XRGB8888\"") == true
                || k.lines(containing: "kiosk starting").first?.contains("headless 800x480") == true, "\(k.text)")
        #expect(k.stop() == 0)
        #expect(k.waitFor("stopping on SIGTERM; display restored"), "\(k.text)")
    }

    @Test func aBadConfigAtStartExitsWithStatus2AndNamesFileLineAndKey() throws {
        let k = try KioskProcess(config: try headlessConfig(display: "rotation = 45"))
        #expect(k.exitStatus() == 2)
        let line = try #require(k.lines(containing: "kiosk cannot start").first, "\(k.text)")
        #expect(line.contains("kiosk.conf:"), "\(line)")
        #expect(line.contains("display.rotation"), "\(line)")
    }

    @Test func aBadReloadIsLoggedAndTheKioskKeepsItsConfigThenAGoodOneApplies() throws {
        let good = try headlessConfig()
        let k = try KioskProcess(config: good)
        #expect(k.waitFor("no touchscreen yet"), "\(k.text)")
        try good.replacingOccurrences(of: "@FOLDER@", with: k.folder.path).replacingOccurrences(of: "serial = \"none\"", with: "serial = \"none\"\nlevle = \"debug\"")
            .write(toFile: k.configPath, atomically: true, encoding: .utf8)
        k.signal(SIGHUP)
        #expect(k.waitFor("config reload failed"), "\(k.text)")
        let failed = try #require(k.lines(containing: "config reload failed").first)
        #expect(failed.contains("log.levle: unknown key"), "\(failed)")
        #expect(failed.contains("did you mean 'level'?"), "\(failed)")
        #expect(failed.contains("still running generation 1"), "\(failed)")

        try good.replacingOccurrences(of: "@FOLDER@", with: k.folder.path).replacingOccurrences(of: "\"#f5c518\"", with: "\"#ff0000\"")
            .write(toFile: k.configPath, atomically: true, encoding: .utf8)
        k.signal(SIGHUP)
        #expect(k.waitFor("config reloaded"), "\(k.text)")
        #expect(k.lines(containing: "config reloaded").first?.contains("config.generation=2") == true, "\(k.text)")
        #expect(k.stop() == 0)
    }

    @Test func sigusr1WritesTheScreenAsAPNG() throws {
        let k = try KioskProcess(config: try headlessConfig())
        #expect(k.waitFor("no touchscreen yet"), "\(k.text)")
        k.signal(SIGUSR1)
        #expect(k.waitFor("screenshot written"), "\(k.text)")
        let files = try FileManager.default.contentsOfDirectory(atPath: k.folder.path).filter { $0.hasSuffix(".png") }
        #expect(files.count == 1, "\(files)")
        let shot = try PixelBuffer(contentsOfPNG: k.folder.appendingPathComponent(files[0]).path)
        #expect(shot.width == 800 && shot.height == 480)
        #expect(k.stop() == 0)
    }

    @Test func aStormOfSignalsIsCoalescedAndTheKioskStaysUp() throws {
        let k = try KioskProcess(config: try headlessConfig())
        #expect(k.waitFor("no touchscreen yet"), "\(k.text)")
        for _ in 0..<300 {
            k.signal(SIGHUP)
            k.signal(SIGUSR1)
        }
        #expect(k.waitFor("config reloaded"), "\(k.text)")
        #expect(k.waitFor("screenshot written"), "\(k.text)")
        #expect(k.stop() == 0, "\(k.text)")
        #expect(k.lines(containing: "config reloaded").count < 300, "signals of a kind pending together are one")
        #expect(k.lines(containing: "stopping on SIGTERM").count == 1)
    }

    @Test func aStageOverrunIsCountedLoggedAndReportedInTheStats() throws {
        let k = try KioskProcess(config: try headlessConfig(log: "stats_interval = 1"), arguments: ["--inject-stall", "render:40"])
        #expect(k.waitFor("render stage overran its budget"), "\(k.text)")
        let overrun = try #require(k.lines(containing: "render stage overran its budget").first)
        #expect(overrun.contains("stage.budget.ms=9.17"), "\(overrun)")
        #expect(k.waitFor(" stats "), "\(k.text)")
        #expect(k.lines(containing: " stats ").first?.contains("overruns=render:1") == true, "\(k.text)")
        #expect(k.stop() == 0)
    }

    @Test func aMissingSerialDeviceIsReportedAndTheKioskRunsOn() throws {
        let k = try KioskProcess(config: try headlessConfig().replacingOccurrences(of: "serial = \"none\"", with: "serial = \"@FOLDER@/ttyUSB9\""))
        #expect(k.waitFor("ttyUSB9"), "\(k.text)")
        #expect(k.waitFor("no touchscreen yet"), "\(k.text)")
        k.signal(SIGUSR1)
        #expect(k.waitFor("screenshot written"), "the loop goes on without its serial port: \(k.text)")
        #expect(k.stop() == 0)
    }
}

/// systemd's side of Type=notify and WatchdogSec: a datagram socket the test listens on.
@Suite("kiosk run under systemd's notify socket")
struct KioskRunNotifyTests {
    @Test func readyAfterTheFirstFrameKeepAlivesFromTheLoopAndStopping() throws {
        let folder = try temporaryFolder("notify")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("notify.sock").path
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var a = sockaddr_un()
        a.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &a.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let bound = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        try #require(bound == 0)
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        // A 0.4 s watchdog: kiosk must send a keep-alive every 0.2 s even with nothing moving.
        let k = try KioskProcess(config: try headlessConfig(), environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "400000"])
        func receive() -> String? {
            var buffer = [UInt8](repeating: 0, count: 1024)
            let n = recv(fd, &buffer, buffer.count, 0)
            return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
        }
        let first = receive()
        #expect(first?.hasPrefix("READY=1\nSTATUS=generation 1; headless") == true, "\(first ?? "nothing")")
        var keepAlives = 0
        while keepAlives < 5, let m = receive(), m == "WATCHDOG=1" { keepAlives += 1 }
        #expect(keepAlives == 5, "an idle kiosk still feeds the watchdog")
        k.signal(SIGHUP)
        var reload: [String] = []
        while reload.count < 2, let m = receive() {
            if m != "WATCHDOG=1" { reload.append(m) }
        }
        #expect(reload.first?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true, "\(reload)")
        #expect(reload.last?.hasPrefix("READY=1") == true, "\(reload)")
        #expect(k.stop() == 0)
        var stopping = false
        while let m = receive() {
            if m == "STOPPING=1" {
                stopping = true
                break
            }
        }
        #expect(stopping)
    }
}
