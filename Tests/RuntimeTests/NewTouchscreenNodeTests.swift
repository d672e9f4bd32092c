import Display
import Foundation
import Gestures
import InMemoryLogging
import KioskCore
import Logging
@testable import Runtime
import Testing
@testable import TouchInput

/// `kiosk run` when a panel is plugged in: the kernel makes its node before udev gives it group
/// `input`, so the first open is refused. That is debug while udev has time; the loop wakes when
/// the time is up (no input comes to wake it) and says the error then, once.
@Suite("The live loop and a new touchscreen node udev has not set up yet")
struct NewTouchscreenNodeTests {
    final class Clock { var now = Instant(seconds: 100) }

    final class Run {
        let folder: URL
        let handler = InMemoryLogHandler()
        let clock = Clock()
        let loop: KioskLoop
        /// Nodes that refuse to open (EACCES), as a node does before udev has set its group.
        var refused: Set<String> = []

        init() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-newnode-\(UUID().uuidString.prefix(8))")
            self.folder = folder
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let scene = try String(contentsOfFile: KioskLoopTests.configPath, encoding: .utf8).components(separatedBy: "\n[display]").first ?? ""
            let path = folder.appendingPathComponent("kiosk.conf").path
            try (scene + "\n[input]\ndirectory = \"\(folder.path)\"\n[log]\nserial = \"none\"\nstats_interval = 0\n")
                .write(toFile: path, atomically: true, encoding: .utf8)
            let handler = self.handler
            var logger = Logger(label: "test", factory: { _ in handler })
            logger.logLevel = .debug
            let clock = self.clock
            loop = try KioskLoop(options: .init(configPath: path, logLevel: .debug), logger: logger, logPump: nil,
                                 output: { _ throws(DisplayError) in
                                     do { return try HeadlessOutput(width: 800, height: 480, format: .xrgb8888, now: { clock.now }) }
                                     catch { throw DisplayError("\(error)") }
                                 }, clock: { clock.now })
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        /// The kernel makes a node (not an input device here) that udev has not given its group yet.
        func kernelMakes(_ name: String) throws -> String {
            let node = folder.appendingPathComponent(name).path
            refused.insert(node)
            let input = try #require(loop.input)
            input.openNode = { [unowned self] path in
                guard !self.refused.contains(path) else {
                    errno = EACCES
                    return -1
                }
                return EvdevDevice.openNode(path)
            }
            _ = FileManager.default.createFile(atPath: node, contents: nil)
            return node
        }

        var inputLines: [String] {
            handler.entries.filter { $0.metadata.keys.contains { $0.hasPrefix("input.") } }.map { "\($0.level) \($0.message)" }
        }
    }

    @Test func theLoopWakesWhenTheGracePeriodEndsAndSaysTheErrorOnce() throws {
        let run = try Run()
        let waiting = "warning no touchscreen yet; waiting for one to be plugged in"
        #expect(run.inputLines == [waiting])
        let before = run.loop.nextWake()
        let node = try run.kernelMakes("event1")
        _ = run.loop.iterate()
        let settling = "debug touchscreen node not open yet; udev may still be setting its permissions"
        #expect(run.inputLines == [waiting, settling])
        #expect(run.handler.entries.last?.metadata["input.device"] == "\(node)")
        #expect(!run.handler.entries.contains { $0.level >= .error }, "\(run.handler.entries)")

        // Nothing else would wake the loop that soon: the grace period's end sets the poll's timeout.
        let due = Instant(seconds: 102)
        #expect(before.map { $0 > due } ?? true, "the test needs nothing else due before: \(String(describing: before))")
        #expect(run.loop.nextWake() == due)
        run.clock.now = Instant(seconds: 101.5)
        _ = run.loop.iterate()
        #expect(run.inputLines == [waiting, settling])
        #expect(run.loop.nextWake() == due)

        run.clock.now = due
        _ = run.loop.iterate()
        #expect(run.inputLines == [waiting, settling, "error touchscreen cannot be used"])
        let error = try #require(run.handler.entries.last)
        #expect("\(error.metadata["input.error"] ?? "")".contains("\(node): permission denied (open): the user needs to be in group 'input'"))
        // Said once, and no deadline left to wake for.
        #expect(run.loop.nextWake() == before)
        run.clock.now = Instant(seconds: 105)
        _ = run.loop.iterate()
        #expect(run.inputLines.count == 3)
    }

    @Test func aNodeUdevSetsUpInTimeIsNoError() throws {
        let run = try Run()
        let node = try run.kernelMakes("event1")
        _ = run.loop.iterate()
        run.clock.now = Instant(seconds: 100.05)
        // udev's chgrp: the node opens now, and IN_ATTRIB says so.
        run.refused.remove(node)
        chmod(node, 0o660)
        _ = run.loop.iterate()
        run.clock.now = Instant(seconds: 103)
        _ = run.loop.iterate()
        // Opened and judged for what it is (an empty file: not a device); never refused.
        #expect(!run.handler.entries.contains { "\($0.metadata["input.error"] ?? "")".contains("permission denied") }, "\(run.handler.entries)")
        #expect(run.handler.entries.contains { "\($0.metadata["input.error"] ?? "")".contains("\(node): libevdev_new_from_fd failed") })
    }
}
