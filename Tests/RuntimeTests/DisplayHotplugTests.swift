import Display
import Foundation
import Gestures
import KioskCore
import KioskTestSupport
import KioskLog
import Render
@testable import Runtime
import Testing

/// The kernel's uevents read defensively: any bytes make a uevent or nil, never a trap.
@Suite("Reading kernel uevents")
struct UeventTests {
    func parse(_ text: String) -> Uevent? {
        Array(text.utf8).withUnsafeBytes { Uevent($0) }
    }

    /// As the kernel sends it when a connector of card0 changes (drm_sysfs_hotplug_event).
    static let hotplug = "change@/devices/pci0000:00/0000:00:02.0/virtio0/drm/card0\0ACTION=change\0"
        + "DEVPATH=/devices/pci0000:00/0000:00:02.0/virtio0/drm/card0\0SUBSYSTEM=drm\0HOTPLUG=1\0DEVNAME=dri/card0\0"
        + "DEVTYPE=drm_minor\0SEQNUM=2043\0MAJOR=226\0MINOR=0\0"

    @Test func aDRMHotplugIsTold() throws {
        let event = try #require(parse(Self.hotplug))
        #expect(event.action == "change")
        #expect(event.devicePath == "/devices/pci0000:00/0000:00:02.0/virtio0/drm/card0")
        #expect(event.subsystem == "drm" && event.deviceName == "dri/card0" && event.isHotplug)
        #expect(event.isDisplayHotplug)
    }

    @Test func otherEventsAreNotHotplugs() throws {
        // A touchscreen plugged in, a drm change that is not a hotplug (a lease), HOTPLUG=0.
        let input = "add@/devices/virtual/input/input7/event4\0ACTION=add\0SUBSYSTEM=input\0DEVNAME=input/event4\0SEQNUM=9\0"
        #expect(parse(input)?.isDisplayHotplug == false)
        #expect(parse(input)?.subsystem == "input")
        #expect(parse(Self.hotplug.replacingOccurrences(of: "HOTPLUG=1", with: "LEASE=1"))?.isDisplayHotplug == false)
        #expect(parse(Self.hotplug.replacingOccurrences(of: "HOTPLUG=1", with: "HOTPLUG=0"))?.isDisplayHotplug == false)
        #expect(parse(Self.hotplug.replacingOccurrences(of: "SUBSYSTEM=drm", with: "SUBSYSTEM=drmx"))?.isDisplayHotplug == false)
        // udev's own messages (its monitor group) start with a binary header after "libudev".
        #expect(parse("libudev\0\u{fe}\u{ed}\u{ca}\u{fe}SUBSYSTEM=drm\0HOTPLUG=1\0") == nil)
    }

    @Test(arguments: ["", "\0", "@", "@/devices\0SUBSYSTEM=drm\0HOTPLUG=1\0", "change", "=\0==\0", "change@\0HOTPLUG", "\0\0\0change@/x"])
    func oddBytesAreNotAHotplugAndDoNotTrap(text: String) {
        #expect(parse(text)?.isDisplayHotplug != true)
    }

    @Test func aFinalFieldWithoutItsNULStillCounts() {
        #expect(parse("change@/d\0SUBSYSTEM=drm\0HOTPLUG=1")?.isDisplayHotplug == true)
    }

    /// Random bytes, biased towards the separators and keys a parser trips on.
    @Test func anyBytesAtAllAreReadWithoutATrap() {
        var random = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [[0], [UInt8(ascii: "@")], [UInt8(ascii: "=")], Array("SUBSYSTEM=drm".utf8), Array("HOTPLUG=1".utf8),
                                 Array("change@".utf8), [0xff, 0xfe], [0xc3], Array("libudev".utf8)]
        var parsed = 0
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...24, using: &random) {
                if Bool.random(using: &random) {
                    bytes += pieces.randomElement(using: &random)!
                } else {
                    bytes.append(UInt8.random(in: 0...255, using: &random))
                }
            }
            if let event = bytes.withUnsafeBytes({ Uevent($0) }) {
                parsed += 1
                #expect(!event.action.isEmpty)
            }
        }
        #expect(parsed > 100, "the generator reaches the fields past the header")
    }

    /// The socket opens and, with nothing sent, reads nothing and does not block.
    @Test func theSocketOpensAndReadsNothingWhenNothingCame() throws {
        let socket = try DisplayHotplugSocket()
        #expect(socket.fileDescriptor >= 0)
        #expect(socket.readDisplayHotplug() == false)
    }
}

/// A display whose connector can be unplugged and plugged in again, as the kernel reports it.
final class PluggableOutput: WrappedOutput {
    let inner: HeadlessDisplay
    var connection = DisplayConnection(connector: "HDMI-A-1", isConnected: true, modes: [DisplayMode(width: 800, height: 480, refresh: 60, isPreferred: true)])
    private(set) var recoveries = 0

    init(_ inner: HeadlessDisplay) { self.inner = inner }

    var summary: String { "pluggable " + inner.summary }
    func recover() throws(DisplayError) {
        guard connection.isConnected else { throw DisplayError(card: "card0", .nothingConnected(connector: "HDMI-A-1", named: false)) }
        recoveries += 1
    }
    func probeConnection() -> DisplayConnection? { connection }
}

/// What the live loop does on a display hotplug event: the connector is read again; unplugged,
/// nothing is drawn; plugged in again, a whole frame is drawn at once, though nothing moved.
@Suite("The live loop on display hotplug")
struct DisplayHotplugLoopTests {
    final class Run: LiveLoopRun {
        let output: PluggableOutput

        init() throws {
            let clock = VirtualClock()
            output = PluggableOutput(try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, clock: clock))
            try super.init("hotplug", clock: clock, output: output)
            loop.tick(at: clock.now)
        }

        var displayLines: [String] {
            handler.entries.filter { "\($0.message)".contains("display") }.map { "\($0.level) \($0.message)" }
        }
    }

    @Test func unpluggedNothingIsDrawnAndPluggedInAWholeFrameIsDrawnAtOnce() throws {
        let run = try Run()
        #expect(run.output.flipCount == 1)

        run.output.connection.isConnected = false
        run.output.connection.modes = []
        run.loop.displayHotplugged(at: run.clock.now)
        run.loop.displayHotplugged(at: run.clock.now)
        #expect(run.displayLines == ["warning display unplugged; nothing is drawn until it is back, input goes on"], "said once")
        let unplugged = try #require(run.handler.entries.last { "\($0.message)".hasPrefix("display unplugged") })
        #expect(unplugged.metadata["display.connector"] == "HDMI-A-1")
        #expect(unplugged.metadata["display.modes"] == "none")

        // Yellow is dragged meanwhile: the scene moves, nothing is drawn, no retry is timed.
        run.drag(from: Point(x: 160, y: 190), by: 30)
        #expect(run.output.flipCount == 1)
        #expect(run.loop.nextWake() == nil || run.loop.nextWake()! > run.clock.now.adding(seconds: 3), "no retries while unplugged")

        // Plugged in again, idle: the whole scene as it is now, without waiting for a touch.
        run.output.connection = DisplayConnection(connector: "HDMI-A-1", isConnected: true,
                                                  modes: [DisplayMode(width: 800, height: 480, refresh: 60, isPreferred: true)])
        run.loop.displayHotplugged(at: run.clock.now)
        #expect(run.output.recoveries == 1)
        run.loop.tick(at: run.clock.now)
        #expect(run.output.flipCount == 2)
        let expected = try PixelBuffer(width: 800, height: 480)
        try SceneRenderer().draw(scene: run.loop.scene, at: run.clock.now, into: expected)
        #expect(memcmp(expected.bytes, run.output.inner.screen.bytes, expected.stride * 480) == 0, "the whole scene")
        #expect(run.displayLines.suffix(2) == ["info display plugged in", "info display back; drawing a whole frame"], "\(run.displayLines)")
        #expect(run.handler.entries.last { $0.message == "display plugged in" }?.metadata["display.modes"] == "800x480@60")
    }

    @Test func anEventThatChangesNothingForOurConnectorIsOnlyADebugLine() throws {
        let run = try Run()
        run.loop.displayHotplugged(at: run.clock.now)
        #expect(run.displayLines == ["debug display hotplug event; the display is still connected"])
        #expect(run.output.recoveries == 0)
        run.loop.tick(at: run.clock.now)
        #expect(run.output.flipCount == 1, "nothing to draw")
    }

    @Test func aDisplayThatComesBackWithoutTheModeIsWarnedAbout() throws {
        let run = try Run()
        run.output.connection.isConnected = false
        run.loop.displayHotplugged(at: run.clock.now)
        run.output.connection = DisplayConnection(connector: "HDMI-A-1", isConnected: true,
                                                  modes: [DisplayMode(width: 1920, height: 1080, refresh: 60, isPreferred: true)])
        run.loop.displayHotplugged(at: run.clock.now)
        #expect(run.displayLines.contains("warning the display plugged in does not offer 800x480; kiosk sets that mode all the same"))
        #expect(run.output.recoveries == 1)
    }
}
