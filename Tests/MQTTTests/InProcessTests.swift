import Display
import Foundation
import KioskCore
import KioskTestSupport
import KioskLog
import Scene
import KioskConfig
import MQTT
import Runtime
import Testing

/// The extension inside a live `KioskLoop` (headless, the real clock), woken by the test through
/// the loop's own `runOnce`, each `service` call timed (`Timed`), and a finger's tap given as the
/// touchscreen gives it (`process`, then `tick`).
@Suite(.enabled(if: Broker.available, "needs mosquitto and mosquitto-clients"), .serialized)
struct InProcessTests {
    final class Harness {
        let folder: URL
        let loop: KioskLoop
        let mqtt: MQTTExtension
        let handler = InMemoryLogHandler()
        let timed: Timed
        /// The longest `service` call so far, in milliseconds.
        var slowestService: Double { timed.slowest }

        /// `backlightClass`: a folder standing in for /sys/class/backlight (none: a folder without one).
        init(broker: Broker, backlightClass: String? = nil) throws {
            folder = try KioskExecutable.temporaryFolder("mqtt-loop")
            let path = folder.appendingPathComponent("kiosk.conf")
            let mqttSection = "broker = \"mqtt://127.0.0.1:\(broker.port)\"\nclient_id = \"kiosk-test\"\ntopic_prefix = \"\(KioskOnBrokerTests.prefix)\"\n"
            try KioskOnBrokerTests.Kiosk.config(folder: folder, mqtt: mqttSection).write(to: path, atomically: true, encoding: .utf8)
            let handler = handler
            let logger = Logger(label: "test", factory: { _ in handler })
            let backlights = backlightClass ?? folder.appendingPathComponent("no-backlight").path
            loop = try KioskLoop(options: .init(configPath: path.path, backlightClass: backlights), logger: logger, logPump: nil,
                                 output: { _ throws(DisplayError) in
                                     do { return try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888) }
                                     catch { throw DisplayError("\(error)") }
                                 })
            let settings = try #require(loop.configuration.mqtt)
            mqtt = try MQTTExtension(settings: settings, logger: logger, now: MonotonicClock.now)
            timed = Timed(mqtt)
            loop.install(timed)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        /// One wake-up of the loop, `run()`'s own, waiting at most 50 ms or until the loop's timer
        /// fires at its next wake (the extension's deadline among them: the monotonic clock arms it).
        func step() { _ = loop.runOnce(milliseconds: 50) }

        /// Steps until `condition` holds or `seconds` pass.
        @discardableResult
        func run(seconds: Double = 20, until condition: () -> Bool) -> Bool {
            loop.runOnce(seconds: seconds, waitingUpTo: 50, until: condition)
        }

        /// A finger's tap at `p`, as the touchscreen delivers it.
        func tap(at p: Point) {
            // Each report at the real time it is made.
            let clock = VirtualClock(MonotonicClock.now)
            let fingers = Fingers(clock: clock, firstFinger: 1, deliver: { frame in
                self.loop.process(frame)
                _ = self.loop.runOnce(milliseconds: 0)
            })
            let finger = fingers.down(p)
            run(seconds: 0.06) { false }
            clock.now = MonotonicClock.now
            fingers.up(finger, after: 0)
        }
    }

    /// A finger's tap on the button publishes the press (with its tap count) and the button's new state.
    @Test func aTapPublishes() throws {
        let broker = try Broker()
        let sub = try broker.subscribe(["\(KioskOnBrokerTests.prefix)/button/#"])
        let h = try Harness(broker: broker)
        #expect(h.run { h.mqtt.isConnected }, "\(h.handler.entries.map(\.message))")
        #expect(h.run { sub.text.contains("button/state {\"taps\":0") }, "\(sub.text)")
        let button = try #require(h.loop.scene.viewID(named: "button"))
        h.tap(at: h.loop.scene.frame(of: button).center)
        let prefix = KioskOnBrokerTests.prefix
        #expect(h.run { sub.text.contains("\(prefix)/button/event {\"event_type\":\"press\",\"taps\":1}") }, "\(sub.text)")
        #expect(h.run { sub.text.contains("\(prefix)/button/state {\"taps\":1,\"label\":\"Press\"}") }, "\(sub.text)")
        // A press from Home Assistant's button fires it as a tap would.
        try broker.publish("\(prefix)/button/set", "PRESS")
        #expect(h.run { sub.text.contains("\(prefix)/button/event {\"event_type\":\"press\",\"taps\":2}") }, "\(sub.text)")
        #expect(h.mqtt.counters.commandsApplied == 1 && h.mqtt.counters.eventsDropped == 0)
    }

    /// The broker killed and restarted: no `service` call takes long (the loop never waits on the
    /// broker), presses meanwhile are dropped and counted (nothing queued), and on reconnect the
    /// state comes back.
    @Test func theBrokerGoingAwayNeverStallsTheLoop() throws {
        let broker = try Broker()
        let h = try Harness(broker: broker)
        #expect(h.run { h.mqtt.isConnected })
        broker.kill()
        #expect(h.run { !h.mqtt.isConnected })
        let button = try #require(h.loop.scene.viewID(named: "button"))
        for _ in 0..<5 { h.tap(at: h.loop.scene.frame(of: button).center) }
        h.run(seconds: 2) { false }  // reconnect attempts, refused
        #expect(h.mqtt.counters.eventsDropped == 5)
        #expect(h.mqtt.statsFields.map { "\($0.0)=\($0.1)" } == ["mqtt=down/5"], "the stats line's field")
        try broker.start()
        let sub = try broker.subscribe(["\(KioskOnBrokerTests.prefix)/button/state"])
        #expect(h.run(seconds: 40) { h.mqtt.counters.connects == 2 })
        #expect(h.mqtt.statsFields.map { "\($0.0)=\($0.1)" } == ["mqtt=up/5"], "the stats line's field")
        #expect(h.run { sub.text.contains("{\"taps\":5,") }, "the state after the presses, sent on reconnect: \(sub.text)")
        #expect(h.slowestService < 20, "the slowest service call took \(h.slowestService) ms")
    }

    /// A broker that stops reading (SIGSTOP) while kiosk's button is pressed 20,000 times: the
    /// socket fills, then presses are dropped and counted instead of queued, and once the broker
    /// reads again the latest state arrives.
    @Test func aStalledBrokerQueuesNothingWithoutBound() throws {
        let broker = try Broker()
        let h = try Harness(broker: broker)
        let prefix = KioskOnBrokerTests.prefix
        let sub = try broker.subscribe(["\(prefix)/button/state"])
        #expect(h.run { h.mqtt.isConnected })
        #expect(h.run { sub.text.contains("{\"taps\":0,") }, "\(sub.text)")
        // A small send buffer, so that the socket is full after some 100 KB (the stopped broker's
        // receive window), not after megabytes.
        var fds: [pollfd] = []
        h.mqtt.appendPollDescriptors(to: &fds)
        var size: Int32 = 4096
        _ = setsockopt(try #require(fds.first).fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        broker.process?.signal(SIGSTOP)
        let before = h.mqtt.counters.published
        let presses = 20_000
        for i in 0..<presses {
            _ = h.loop.apply(.press(view: "button"), source: .mqtt)
            if i % 1000 == 0 { h.step() }
        }
        let sent = h.mqtt.counters.published - before
        #expect(h.mqtt.counters.eventsDropped > presses / 2, "presses dropped: \(h.mqtt.counters.eventsDropped)")
        #expect(sent < presses, "messages handed to libmosquitto while the broker slept: \(sent) for \(presses) presses")
        broker.process?.signal(SIGCONT)
        #expect(h.run(seconds: 30) { sub.text.contains("{\"taps\":\(presses),") }, "the latest state once the broker reads again")
    }
}

/// An extension as the loop serves it, each `service` call timed: what a test of "never blocks
/// the loop" measures.
final class Timed: LoopExtension {
    let inner: LoopExtension
    /// The longest `service` call so far, in milliseconds.
    private(set) var slowest = 0.0
    init(_ inner: LoopExtension) { self.inner = inner }

    func start(configuration: KioskConfiguration, scene: KioskScene, now: Instant) { inner.start(configuration: configuration, scene: scene, now: now) }
    func appendPollDescriptors(to fds: inout [pollfd]) { inner.appendPollDescriptors(to: &fds) }
    func service(_ ready: UnsafeBufferPointer<pollfd>, now: Instant, target: CommandTarget) {
        let start = MonotonicClock.now
        inner.service(ready, now: now, target: target)
        slowest = max(slowest, MonotonicClock.now.seconds(since: start) * 1000)
    }
    var nextDeadline: Instant? { inner.nextDeadline }
    func completed(ticket: Int, result: Result<Void, RemoteCommandError>, target: CommandTarget, now: Instant) {
        inner.completed(ticket: ticket, result: result, target: target, now: now)
    }
    func publish(_ events: ArraySlice<SceneEvent>, source: ChangeSource, scene: KioskScene, now: Instant) {
        inner.publish(events, source: source, scene: scene, now: now)
    }
    func reconfigure(old: KioskConfiguration, new: KioskConfiguration, scene: KioskScene, now: Instant) -> [String] {
        inner.reconfigure(old: old, new: new, scene: scene, now: now)
    }
    func stop(now: Instant) { inner.stop(now: now) }
    var statsFields: [(String, String)] { inner.statsFields }
    func displayChanged(_ status: DisplayStatus, now: Instant) { inner.displayChanged(status, now: now) }
    func screenshotTaken(_ result: Result<Screenshot, ScreenshotError>, target: CommandTarget, now: Instant) {
        inner.screenshotTaken(result, target: target, now: now)
    }
    func statsReported(now: Instant, target: CommandTarget) { inner.statsReported(now: now, target: target) }
}
