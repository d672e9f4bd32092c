import Foundation
import KioskCore
import KioskTestSupport
import Render
import Testing

/// `kiosk run` as a process on this machine: a headless display, no touchscreen, the log on
/// stderr. Signals and storms of them, reloads, screenshots, a slow stage, the serial device
/// missing or too slow (a pseudo-terminal), a bad config reported on it, systemd's socket. (The
/// real panel, touchscreen and serial port: KernelTests' end-to-end boot.)
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

    @Test func sigintStopsItCleanlyToo() throws {
        let k = try KioskProcess(config: try headlessConfig())
        #expect(k.waitFor("no touchscreen yet"), "\(k.text)")
        k.signal(SIGINT)
        #expect(k.exitStatus() == 0, "\(k.text)")
        #expect(k.text.split(separator: "\n").last?.contains("stopping on SIGINT; display restored") == true, "\(k.text)")
    }

    /// Signals of one kind that are pending together are one (the kernel keeps one of each), and
    /// the loop acts on each kind at most once a wake-up. Three storms of HUP and USR1 mixed:
    /// 1. 200 of each while the kiosk is held (SIGSTOP, as a long frame would hold it): exactly
    ///    one reload and one screenshot; a USR1 sent alone afterwards is answered (responsive).
    /// 2. 200 of each while it runs: how many it sees apart depends on the scheduler, so the
    ///    bound is the signals sent; each reload and screenshot is whole (every screenshot logged
    ///    is on disk), and all are done within two stats lines.
    /// 3. 200 of each and then TERM while it is held: it stops at once with status 0, doing
    ///    neither the reload nor the screenshot asked for in the same instant.
    @Test func stormsOfSignalsAreCoalescedAnsweredAndATermEndsThem() throws {
        let k = try KioskProcess(config: try headlessConfig(log: "stats_interval = 1\nrepeat_interval = 0"))
        #expect(k.waitFor(" stats "), "\(k.text)")
        func count(_ s: String) -> Int { k.lines(containing: s).count }
        func pngs() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: k.folder.path).filter { $0.hasSuffix(".png") }.count }
        func storm() {
            for i in 0..<400 { k.signal(i % 2 == 0 ? SIGHUP : SIGUSR1) }
        }

        try #require(k.freeze(), "kiosk did not stop on SIGSTOP")
        storm()
        k.signal(SIGCONT)
        #expect(k.waitFor("config reloaded"), "\(k.text)")
        #expect(k.waitFor("screenshot written"), "\(k.text)")
        k.signal(SIGUSR1)
        #expect(k.waitFor("screenshot written", count: 2), "a signal on its own after the storm is answered: \(k.text)")
        #expect(count("SIGHUP: reloading") == 1 && count("config reloaded") == 1, "\(k.lines(containing: "reload"))")
        #expect(try count("screenshot written") == 2 && pngs() == 2)

        storm()
        // Signals sent before a stats line's wake-up began have all been read by its end: two
        // stats lines after the storm, nothing of it is left.
        let statsBefore = count(" stats ")
        #expect(k.waitFor(" stats ", count: statsBefore + 2), "\(k.text)")
        let reloads = count("config reloaded") - 1, shots = count("screenshot written") - 2
        #expect(reloads >= 1 && reloads <= 200, "reloads in the live storm: \(reloads)")
        #expect(shots >= 1 && shots <= 200, "screenshots in the live storm: \(shots)")
        #expect(count("SIGHUP: reloading") == count("config reloaded"), "every reload asked for was done")
        #expect(try pngs() == count("screenshot written"), "every screenshot logged is on disk")

        let (reloadsBefore, shotsBefore) = (count("config reloaded"), count("screenshot written"))
        try #require(k.freeze(), "kiosk did not stop on SIGSTOP")
        storm()
        k.signal(SIGTERM)
        k.signal(SIGCONT)
        #expect(k.exitStatus() == 0, "\(k.text)")
        #expect(count("config reloaded") == reloadsBefore && count("screenshot written") == shotsBefore, "\(k.text.suffix(2000))")
        #expect(count("stopping on SIGTERM") == 1)
        #expect(k.text.split(separator: "\n").last?.contains("stopping on SIGTERM; display restored") == true, "\(k.text.suffix(2000))")
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

    /// The serial line cannot keep up: a pseudo-terminal whose far end nobody reads, filled
    /// first as a 115200 baud wire is by a chatty log, and a 16-line buffer. The loop does not
    /// notice: each SIGHUP is answered and drawn, stats lines reach stderr and count the lines
    /// dropped; once the far end reads, the serial side says `dropped N lines` where the gap is.
    @Test func aSerialLineTooSlowDropsLinesAndTheLoopGoesOn() throws {
        let wire = try PseudoTerminal()
        let writer = open(wire.slavePath, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        try #require(writer >= 0)
        defer { close(writer) }
        try #require(Self.fill(writer) > 0)

        let config = try headlessConfig(log: "stats_interval = 1\nrepeat_interval = 0\nbuffer_lines = 16")
            .replacingOccurrences(of: "serial = \"none\"", with: "serial = \"\(wire.slavePath)\"")
        let k = try KioskProcess(config: config)
        #expect(k.waitFor(" stats "), "\(k.text)")
        // 30 reloads are 60 lines, beyond the 16 the buffer holds: each one is answered all the same.
        for n in 1...30 {
            k.signal(SIGHUP)
            try #require(k.waitFor("config reloaded", count: n), "reload \(n) not answered: \(k.text.suffix(2000))")
        }
        let before = k.lines(containing: " stats ").count
        #expect(k.waitFor(" stats ", count: before + 1), "\(k.text)")
        let stats = try #require(k.lines(containing: " stats ").last)
        let dropped = Self.field("log.dropped", in: stats) ?? 0
        #expect(dropped > 0, "the stats line counts the dropped lines: \(stats)")

        // The far end reads: the filler, the 16 lines the buffer held, the notice, then what follows.
        var serial = ""
        func readUntil(_ done: (String) -> Bool) -> Bool {
            for _ in 0..<40 where !done(serial) {
                serial += String(decoding: readAvailable(wire.master, timeoutMilliseconds: 500), as: UTF8.self)
            }
            return done(serial)
        }
        #expect(readUntil { $0.contains("dropped ") && $0.contains("kiosk starting") }, "serial side: \(serial.suffix(2000))")
        let lines = serial.split(separator: "\r\n").map { $0.drop { $0 == "." } }
        #expect(lines.first { $0.contains("kiosk starting") } != nil, "the first lines wait in the buffer: \(lines.prefix(3))")
        // Every dropped line is in a notice: read on until a stats line written after them all.
        let statsSeen = lines.filter { $0.contains(" stats ") }.count
        #expect(readUntil { $0.split(separator: "\r\n").filter { $0.contains(" stats ") }.count > statsSeen + 1 }, "\(serial.suffix(2000))")
        let all = serial.split(separator: "\r\n")
        let notices = all.compactMap { line -> Int? in
            guard let r = line.range(of: "dropped "), line.hasSuffix(" lines") else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }
        #expect(!notices.isEmpty)
        let lastStats = try #require(all.last { $0.contains(" stats ") })
        #expect(notices.reduce(0, +) == Self.field("log.dropped", in: lastStats), "notices \(notices); \(lastStats)")
        #expect(k.stop() == 0, "\(k.text.suffix(2000))")
        #expect(readUntil { $0.contains("stopping on SIGTERM; display restored") }, "the last line reaches the wire too: \(serial.suffix(500))")
        let frames = Self.field("frames", in: try #require(k.lines(containing: "stopping on SIGTERM").last)) ?? 0
        #expect(frames >= 31, "the first frame and one a reload: \(frames)")
    }

    /// The lines still queued when kiosk stops (the stopping line last) reach a wire that is
    /// slow, not dead: kiosk waits for the wire to take them, for a bounded time, before it exits.
    @Test func theLastLinesReachASlowWireAtExit() throws {
        let wire = try PseudoTerminal()
        let writer = open(wire.slavePath, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        try #require(writer >= 0)
        defer { close(writer) }
        let config = try headlessConfig(log: "repeat_interval = 0\nbuffer_lines = 64")
            .replacingOccurrences(of: "serial = \"none\"", with: "serial = \"\(wire.slavePath)\"")
        let k = try KioskProcess(config: config)
        #expect(k.waitFor("no touchscreen yet"), "\(k.text)")
        // The wire full while kiosk runs; then 20 lines (10 reloads) wait in its buffer.
        try #require(Self.fill(writer) > 0)
        for n in 1...10 {
            k.signal(SIGHUP)
            try #require(k.waitFor("config reloaded", count: n), "\(k.text)")
        }
        k.signal(SIGTERM)
        #expect(k.waitFor("stopping on SIGTERM"), "\(k.text)")
        // Only now does the far end read: kiosk has either exited, its lines lost, or it waits.
        #expect(k.waitUntilEndedOrAsleep())
        var serial = ""
        for _ in 0..<40 where !serial.contains("stopping on SIGTERM; display restored") {
            serial += String(decoding: readAvailable(wire.master, timeoutMilliseconds: 500), as: UTF8.self)
        }
        #expect(k.exitStatus() == 0, "\(k.text)")
        let lines = serial.split(separator: "\r\n").map { $0.drop { $0 == "." } }
        #expect(lines.filter { $0.contains("config reloaded") }.count == 10, "\(lines.suffix(5))")
        #expect(lines.last?.contains("stopping on SIGTERM; display restored") == true, "the stopping line reaches the wire: \(lines.suffix(3))")
    }

    /// A config that does not load still reaches the integrator's cable: the error, with file
    /// and line, goes to the serial device its `[log]` names, even when `[log]` itself is the
    /// part that is wrong, as well as to stderr; the exit status is 2.
    @Test(arguments: [("display", "rotation = 45", "display.rotation"), ("log", "levle = \"debug\"", "log.levle")])
    func aConfigThatDoesNotLoadIsReportedOnTheSerialDeviceItNames(section: String, mistake: String, key: String) throws {
        let wire = try PseudoTerminal()
        let good = try headlessConfig().replacingOccurrences(of: "serial = \"none\"", with: "serial = \"\(wire.slavePath)\"")
        let k = try KioskProcess(config: good.replacingOccurrences(of: "[\(section)]\n", with: "[\(section)]\n\(mistake)\n"))
        #expect(k.exitStatus() == 2)
        let number = try #require(try String(contentsOfFile: k.configPath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0 == mistake }).advanced(by: 1)
        let expected = "kiosk.conf:\(number): \(key)"
        #expect(k.lines(containing: "kiosk cannot start").first?.contains(expected) == true, "stderr: \(k.text)")
        let serial = read(wire.master, through: "\r\n")
        #expect(serial.contains("critical kiosk cannot start") && serial.contains(expected), "serial side: \(serial)")
    }

    @Test func aFileThatIsNotTOMLExitsWithStatus2AndSaysWhere() throws {
        let k = try KioskProcess(config: try headlessConfig(tail: "[log\n"))
        #expect(k.exitStatus() == 2)
        #expect(k.lines(containing: "kiosk cannot start").first?.contains("not valid TOML") == true, "\(k.text)")
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
        let bound = UnixSocketAddress.attach(fd, to: path, .bind)
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

extension KioskRunCommandTests {
    /// Writes dots to a pseudo-terminal's slave until it takes no more, even once the kernel has
    /// moved what it holds on to the master's read buffer (not writable for 200 ms); the bytes written.
    static func fill(_ fd: Int32) -> Int {
        let dots = [UInt8](repeating: UInt8(ascii: "."), count: 1024)
        var written = 0
        while true {
            let n = write(fd, dots, dots.count)
            if n > 0 {
                written += n
                continue
            }
            guard n < 0, errno == EAGAIN || errno == EINTR else { return written }
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if poll(&entry, 1, 200) == 0 { return written }
        }
    }

    /// The number in a log line's `key=N` field.
    static func field(_ key: String, in line: Substring) -> Int? {
        guard let r = line.range(of: " \(key)=") else { return nil }
        return Int(line[r.upperBound...].prefix { $0.isNumber })
    }
}
