import Glibc
import InputEvents
import KioskCore
import Testing
@testable import TouchInput

/// The watcher without a device: why nothing is taken, each cause said once, and a device
/// directory that appears only later. (With real devices: KernelTests.)
@Suite("Watching for a touchscreen")
struct TouchscreenWatcherTests {
    /// What the watcher said, as text.
    final class Said {
        var lines: [String] = []
        func record(_ event: TouchscreenWatcher.Event) {
            switch event {
            case .problem(let text): lines.append("problem: \(text)")
            case .waiting(let text): lines.append("waiting: \(text)")
            case .skipped(let path, _, let reason): lines.append("skipped \(path): \(reason)")
            case .attached(let path, _, _): lines.append("attached \(path)")
            case .detached(let path, _): lines.append("detached \(path)")
            case .frame: lines.append("frame")
            case .settling(let path, let reason): lines.append("settling \(path): \(reason)")
            }
        }
    }

    func watcher(_ directory: String, wanted: String? = nil) throws -> TouchscreenWatcher {
        try TouchscreenWatcher(directory: directory, wanted: wanted, grab: false, screen: Size(width: 800, height: 480))
    }

    /// True when the watcher's inotify descriptor has something to read now.
    func isReady(_ w: TouchscreenWatcher) -> Bool {
        var fd = pollfd(fd: w.fileDescriptors[0], events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) == 1
    }

    /// Nothing plugged in is not an error: the watcher says once that it waits.
    @Test func anEmptyDirectoryIsWaitedOnOnce() throws {
        let folder = TemporaryFolder()
        let w = try watcher(folder.path)
        let said = Said()
        w.attach(said.record)
        #expect(said.lines == ["waiting: no touchscreen in \(folder.path) yet"])
        #expect(w.device == nil)
        _ = folder.folder("by-id")
        #expect(isReady(w))
        w.service(said.record)
        w.attach(said.record)
        #expect(said.lines.count == 1, "said once: \(said.lines)")
    }

    @Test func whyNothingWasTakenIsSaidOncePerCause() throws {
        let folder = TemporaryFolder()
        folder.file("event0")
        let w = try watcher(folder.path)
        let said = Said()
        w.attach(said.record)
        let skipped = "problem: no touchscreen kiosk can open in \(folder.path); it cannot open:\n  \(folder.path)/event0: libevdev_new_from_fd failed: Inappropriate ioctl for device"
        #expect(said.lines == [skipped])
        // Rescans for changes that do not change the cause say nothing more.
        folder.file("mouse0")
        #expect(isReady(w))
        w.service(said.record)
        chmod("\(folder.path)/event0", 0o600)
        w.service(said.record)
        #expect(said.lines == [skipped])
        // A new cause is said.
        folder.file("event1")
        w.service(said.record)
        #expect(said.lines.count == 2)
        #expect(said.lines.last?.hasSuffix("\(folder.path)/event1: libevdev_new_from_fd failed: Inappropriate ioctl for device") == true)
    }

    @Test func aWantedDeviceThatCannotBeUsedSaysWhy() throws {
        let folder = TemporaryFolder()
        folder.file("event0")
        let said = Said()
        try watcher(folder.path, wanted: "\(folder.path)/event0").attach(said.record)
        #expect(said.lines == ["problem: \(folder.path)/event0: libevdev_new_from_fd failed: Inappropriate ioctl for device"])

        // Asked for and not there: waited for, not an error.
        let missing = Said()
        let w = try watcher(folder.path, wanted: "\(folder.path)/by-id/usb-panel-event-if00")
        w.attach(missing.record)
        w.attach(missing.record)
        #expect(missing.lines == ["waiting: \(folder.path)/by-id/usb-panel-event-if00 is not there yet"])
        // The link's folder is watched once it exists: udev makes links after the node.
        _ = folder.folder("by-id")
        w.service(missing.record)
        _ = folder.link("by-id/usb-panel-event-if00", to: "../event0")
        #expect(isReady(w), "the by-id folder is watched")
        w.service(missing.record)
        #expect(missing.lines.last == "problem: \(folder.path)/event0: libevdev_new_from_fd failed: Inappropriate ioctl for device",
                "the link was followed to its node: \(missing.lines)")

        // A name no device has, with a node kiosk cannot open that may be it: an error naming both.
        let named = Said()
        try watcher(folder.path, wanted: "generic ft5x06 (79)").attach(named.record)
        #expect(named.lines == ["problem: no touchscreen kiosk can open in \(folder.path); it cannot open:\n  "
                                + "\(folder.path)/event0: libevdev_new_from_fd failed: Inappropriate ioctl for device"])
        unlink("\(folder.path)/event0")
        let nameless = Said()
        try watcher(folder.path, wanted: "generic ft5x06 (79)").attach(nameless.record)
        #expect(nameless.lines == ["waiting: no device named \"generic ft5x06 (79)\" in \(folder.path) yet"])
    }

    @Test func aDirectoryThatDoesNotExistYetIsWaitedFor() throws {
        let folder = TemporaryFolder()
        // Two levels missing: /tmp/kiosk-input-X/dev/input.
        let input = "\(folder.path)/dev/input"
        let w = try watcher(input)
        #expect(!w.isWatchingDirectory)
        let said = Said()
        w.attach(said.record)
        #expect(said.lines == ["waiting: \(input) does not exist yet"])
        #expect(!isReady(w))
        _ = folder.folder("dev")
        #expect(isReady(w), "the parent's creation is seen")
        w.service(said.record)
        #expect(!w.isWatchingDirectory)
        _ = folder.folder("dev/input")
        w.service(said.record)
        #expect(w.isWatchingDirectory)
        // Now the directory itself is watched: a node in it is looked at at once.
        folder.file("dev/input/event0")
        #expect(isReady(w))
        w.service(said.record)
        #expect(said.lines.last == "problem: no touchscreen kiosk can open in \(input); it cannot open:\n  \(input)/event0: libevdev_new_from_fd failed: Inappropriate ioctl for device", "\(said.lines)")
        // Removed again, it is waited for again.
        unlink("\(input)/event0")
        rmdir(input)
        w.service(said.record)
        #expect(!w.isWatchingDirectory)
        _ = folder.folder("dev/input")
        w.service(said.record)
        #expect(w.isWatchingDirectory)
    }

    @Test func anExistingDirectoryIsWatchedStraightAway() throws {
        let folder = TemporaryFolder()
        _ = folder.folder("input")
        // Exists already: watched straight away, no parent watch.
        let w = try watcher("\(folder.path)/input")
        #expect(w.isWatchingDirectory)
        #expect(TouchscreenWatcher.child(of: "/tmp", towards: "/tmp/a/b/c") == "/tmp/a")
        #expect(TouchscreenWatcher.parent(of: "/dev") == "/")
        #expect(TouchscreenWatcher.parent(of: "/dev/input") == "/dev")
    }
}
