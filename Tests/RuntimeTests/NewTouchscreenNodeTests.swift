import Display
import Foundation
import Gestures
import KioskCore
import KioskTestSupport
@testable import Runtime
import Testing
@testable import TouchInput

/// `kiosk run` when a panel is plugged in: the kernel makes its node before udev gives it group
/// `input`, so the first open is refused. That is debug while udev has time; the loop wakes when
/// the time is up (no input comes to wake it) and says the error then, once.
@Suite("The live loop and a new touchscreen node udev has not set up yet")
struct NewTouchscreenNodeTests {
    final class Run: LiveLoopRun {
        /// Nodes that refuse to open (EACCES), as a node does before udev has set its group.
        var refused: Set<String> = []

        init() throws { try super.init("newnode", log: "stats_interval = 0\n") }

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
    }

    @Test func theLoopWakesWhenTheGracePeriodEndsAndSaysTheErrorOnce() throws {
        let run = try Run()
        let waiting = "warning no touchscreen yet; waiting for one to be plugged in"
        #expect(run.inputLines == [waiting])
        let before = run.loop.nextWake()
        let node = try run.kernelMakes("event1")
        run.embedded.run()
        let settling = "debug touchscreen node not open yet; udev may still be setting its permissions"
        #expect(run.inputLines == [waiting, settling])
        #expect(run.handler.entries.last?.metadata["input.device"] == "\(node)")
        #expect(!run.handler.entries.contains { $0.level >= .error }, "\(run.handler.entries)")

        // Nothing else would wake the loop that soon: the grace period's end sets the poll's timeout.
        let due = Instant(seconds: 102)
        #expect(before.map { $0 > due } ?? true, "the test needs nothing else due before: \(String(describing: before))")
        #expect(run.loop.nextWake() == due)
        run.clock.now = Instant(seconds: 101.5)
        run.embedded.run()
        #expect(run.inputLines == [waiting, settling])
        #expect(run.loop.nextWake() == due)

        run.clock.now = due
        run.embedded.run()
        #expect(run.inputLines == [waiting, settling, "error touchscreen cannot be used"])
        let error = try #require(run.handler.entries.last)
        #expect("\(error.metadata["input.error"] ?? "")".contains("\(node): permission denied (open): the user needs to be in group 'input'"))
        // Said once, and no deadline left to wake for.
        #expect(run.loop.nextWake() == before)
        run.clock.now = Instant(seconds: 105)
        run.embedded.run()
        #expect(run.inputLines.count == 3)
    }

    @Test func aNodeUdevSetsUpInTimeIsNoError() throws {
        let run = try Run()
        let node = try run.kernelMakes("event1")
        run.embedded.run()
        run.clock.now = Instant(seconds: 100.05)
        // udev's chgrp: the node opens now, and IN_ATTRIB says so.
        run.refused.remove(node)
        chmod(node, 0o660)
        run.embedded.run()
        run.clock.now = Instant(seconds: 103)
        run.embedded.run()
        // Opened and judged for what it is (an empty file: not a device); never refused.
        #expect(!run.handler.entries.contains { "\($0.metadata["input.error"] ?? "")".contains("permission denied") }, "\(run.handler.entries)")
        #expect(run.handler.entries.contains { "\($0.metadata["input.error"] ?? "")".contains("\(node): libevdev_new_from_fd failed") })
    }
}
