import Glibc
import InputEvents
import KioskCore
import Testing
@testable import TouchInput

/// A node the kernel has just made belongs to root until udev gives it group `input` (which raises
/// IN_ATTRIB): the watcher gives it a grace period, on its clock, before its refusal is an error.
/// As root a file's mode never refuses, so `Udev` stands in for the permissions at the open.
@Suite("A new node that udev has not given its group yet")
struct NewNodePermissionTests {

    /// Which nodes refuse to open (EACCES) for want of their group; the others open for real.
    final class Udev {
        var refused: Set<String> = []
        func open(_ path: String) -> Int32 {
            guard !refused.contains(path) else {
                errno = EACCES
                return -1
            }
            return EvdevDevice.openNode(path)
        }
    }

    let folder = TemporaryFolder()
    let clock = VirtualClock(500)
    let udev = Udev()
    let said = TouchscreenWatcherTests.Said()

    func watcher(wanted: String? = nil) throws -> TouchscreenWatcher {
        let clock = self.clock
        let w = try TouchscreenWatcher(directory: folder.path, wanted: wanted, grab: false, screen: Size(width: 800, height: 480),
                                       permissionGrace: 2, clock: clock)
        let udev = self.udev
        w.openNode = { udev.open($0) }
        return w
    }

    /// The kernel makes `name` (root's, refused), as devtmpfs does before udev has run.
    func kernelMakes(_ name: String) -> String {
        udev.refused.insert("\(folder.path)/\(name)")
        return folder.file(name)
    }

    /// udev gives the node its group: it opens now, and the change raises IN_ATTRIB.
    func udevGivesTheGroup(_ path: String) {
        udev.refused.remove(path)
        chmod(path, 0o660)
    }

    static let refusal = "permission denied (open): the user needs to be in group 'input' (sudo usermod -aG input $USER, then log in again)"

    @Test func aNewNodeThatUdevOpensWithinTheGracePeriodIsNoError() throws {
        let w = try watcher()
        w.attach(said.record)
        #expect(said.lines == ["waiting: no touchscreen in \(folder.path) yet"])
        let node = kernelMakes("event1")
        w.service(said.record)
        #expect(said.lines == ["waiting: no touchscreen in \(folder.path) yet", "settling \(node): \(Self.refusal)"])
        #expect(w.nextDeadline == Instant(seconds: 502))
        clock.now = Instant(seconds: 500.05)
        udevGivesTheGroup(node)
        w.service(said.record)
        // Opened and judged on what it is (a plain file here, not a panel): never a permission error.
        #expect(said.lines.count == 3)
        #expect(said.lines.last == "problem: no touchscreen kiosk can open in \(folder.path); it cannot open:\n  "
                + "\(node): libevdev_new_from_fd failed: Inappropriate ioctl for device")
        #expect(!said.lines.contains { $0.contains("permission denied") && $0.hasPrefix("problem") }, "\(said.lines)")
        #expect(w.nextDeadline == nil)
        // Its grace period ending later says nothing more.
        clock.now = Instant(seconds: 503)
        w.service(said.record)
        #expect(said.lines.count == 3)
    }

    @Test func aNewNodeThatStillRefusesAfterTheGracePeriodIsOneError() throws {
        let w = try watcher()
        w.attach(said.record)
        let node = kernelMakes("event1")
        w.service(said.record)
        #expect(w.nextDeadline == Instant(seconds: 502))
        // Other changes within the grace period (udev touching the node) say nothing more.
        clock.now = Instant(seconds: 501.9)
        chmod(node, 0o640)
        w.service(said.record)
        w.service(said.record)
        #expect(said.lines == ["waiting: no touchscreen in \(folder.path) yet", "settling \(node): \(Self.refusal)"])
        #expect(w.nextDeadline == Instant(seconds: 502))
        // Its time is up: the error, naming the node and the group, once.
        clock.now = Instant(seconds: 502)
        w.service(said.record)
        #expect(said.lines.count == 3)
        #expect(said.lines.last == "problem: no touchscreen kiosk can open in \(folder.path); it cannot open:\n  \(node): \(Self.refusal)")
        #expect(w.nextDeadline == nil, "no deadline left: the loop does not wake for it again")
        clock.now = Instant(seconds: 510)
        w.service(said.record)
        chmod(node, 0o600)
        w.service(said.record)
        #expect(said.lines.count == 3, "\(said.lines)")
    }

    @Test func aWantedNodeGetsTheGracePeriodToo() throws {
        let wanted = "\(folder.path)/event3"
        let w = try watcher(wanted: wanted)
        w.attach(said.record)
        #expect(said.lines == ["waiting: \(wanted) is not there yet"])
        clock.now = Instant(seconds: 600)
        _ = kernelMakes("event3")
        w.service(said.record)
        #expect(said.lines.last == "settling \(wanted): \(Self.refusal)")
        #expect(w.nextDeadline == Instant(seconds: 602))
        clock.now = Instant(seconds: 602.5)
        w.service(said.record)
        #expect(said.lines == ["waiting: \(wanted) is not there yet", "settling \(wanted): \(Self.refusal)",
                               "problem: \(wanted): \(Self.refusal)"])
    }

    /// At start udev is long done: a node that refuses then is an error at once, as before.
    @Test func aNodeThereAtStartThatRefusesIsAnErrorAtOnce() throws {
        let node = kernelMakes("event0")
        let w = try watcher()
        w.attach(said.record)
        #expect(said.lines == ["problem: no touchscreen kiosk can open in \(folder.path); it cannot open:\n  \(node): \(Self.refusal)"])
        #expect(w.nextDeadline == nil)
    }

    /// A node that refuses beside a young one: the old one is an error at once, and the young one's
    /// deadline is still kept, so its own refusal is said when its time is up.
    @Test func aYoungNodeBesideAnOldRefusingOneKeepsItsDeadline() throws {
        let old = kernelMakes("event0")
        let w = try watcher()
        w.attach(said.record)
        let young = kernelMakes("event1")
        w.service(said.record)
        #expect(said.lines == ["problem: no touchscreen kiosk can open in \(folder.path); it cannot open:\n  \(old): \(Self.refusal)"])
        #expect(w.nextDeadline == Instant(seconds: 502))
        clock.now = Instant(seconds: 502)
        w.service(said.record)
        #expect(said.lines.last == "problem: no touchscreen kiosk can open in \(folder.path); it cannot open:\n  "
                + "\(old): \(Self.refusal)\n  \(young): \(Self.refusal)")
    }
}
