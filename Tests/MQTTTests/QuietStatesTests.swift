import Foundation
import KioskCore
import KioskTestSupport
import MQTT
import MQTTProtocol
@testable import Runtime
import Testing

/// `[mqtt] state_interval`: a finger moving a slider sends its state at most every interval on
/// kiosk's clock, and its final value at the lift; the control socket still hears every change;
/// a command's change goes out at once.
@Suite(.enabled(if: Broker.available, "needs mosquitto and mosquitto-clients"), .serialized)
struct QuietStatesTests {
    static let state = "\(KioskOnBrokerTests.prefix)/slider/state"

    /// The slider's states the subscriber has seen, in order.
    func states(_ sub: LineProcess) -> [String] {
        sub.payloads(on: Self.state)
    }

    func sliderOnGlass(_ h: VirtualLoopOnBroker) throws -> String {
        let id = try #require(h.loop.scene.viewID(named: "slider"))
        return ControlPayload.percentState(h.loop.scene.views[id.rawValue].slider?.value ?? -1)
    }

    /// Connected, with the slider's first state on the broker and in `sub`, a second ago.
    func connected(_ h: VirtualLoopOnBroker, _ sub: LineProcess) {
        #expect(h.run { h.mqtt.isConnected }, "\(h.handler.entries.map(\.message))")
        #expect(h.run { states(sub) == ["50.0"] }, "\(sub.text)")
        h.clock.advance(by: 1)
        h.wake()
    }

    @Test func aHalfSecondSwipeSendsAtMostSixStatesTheLastOnTheGlass() throws {
        let broker = try Broker()
        let sub = try broker.subscribe([Self.state])
        let h = try VirtualLoopOnBroker(broker: broker, socket: true)
        connected(h, sub)
        let watcher = try SocketWatcher(path: try #require(h.socketPath))
        watcher.send(#"{"id": 1, "command": "subscribe", "events": ["control"]}"#)
        #expect(h.run { watcher.read(); return watcher.lines.count == 1 }, "\(watcher.lines)")
        let id = try #require(h.loop.scene.viewID(named: "slider"))
        let knob = h.loop.scene.knobCenter(of: id, at: h.clock.now)
        h.fingers.drag(from: knob, to: Point(x: knob.x + 100, y: knob.y), over: 0.5)
        let onGlass = try sliderOnGlass(h)
        #expect(onGlass != "50.0")
        #expect(h.run { states(sub).last == onGlass }, "\(states(sub)) on the broker; \(onGlass) on the glass")
        let sent = states(sub).dropFirst()
        #expect(sent.count <= 6 && sent.count >= 5, "\(sent)")
        // The control socket's subscriber heard the slider at every one of the 30 frames it moved.
        #expect(h.run { watcher.read(); return watcher.lines.filter { $0.contains("\"valueChanged\"") }.count >= 30 }, "\(watcher.lines)")
        #expect(watcher.lines.filter { $0.contains("\"valueChanged\"") }.count == 30, "\(watcher.lines)")
    }

    /// A change held back while the finger stays still is sent when its interval is up: the loop
    /// wakes for it, with the finger still down.
    @Test func aHeldBackChangeGoesOutWhenItsIntervalIsUp() throws {
        let broker = try Broker()
        let sub = try broker.subscribe([Self.state])
        let h = try VirtualLoopOnBroker(broker: broker, mqtt: "state_interval = 0.25\n")
        connected(h, sub)
        let id = try #require(h.loop.scene.viewID(named: "slider"))
        let knob = h.loop.scene.knobCenter(of: id, at: h.clock.now)
        let finger = h.fingers.down(knob)[0]
        h.fingers.move([finger: Point(x: knob.x + 10, y: knob.y)])
        let first = h.clock.now
        let firstValue = try sliderOnGlass(h)
        #expect(h.run { states(sub).last == firstValue }, "\(states(sub))")
        h.fingers.move([finger: Point(x: knob.x + 20, y: knob.y)])
        h.fingers.move([finger: Point(x: knob.x + 30, y: knob.y)])
        let held = try sliderOnGlass(h)
        h.run(seconds: 0.3) { false }
        #expect(states(sub).last == firstValue, "held back: \(states(sub))")
        let due = first.adding(seconds: 0.25)
        #expect(h.loop.nextWake() == due, "the loop wakes for it")
        h.clock.now = due
        h.wake()
        #expect(h.run { states(sub).last == held }, "\(states(sub))")
        #expect(h.loop.scene.isHeld(id), "the finger is still down")
        #expect(h.mqtt.nextDeadline.map { $0 > due } ?? true, "nothing more is due")
        // A change right before the lift is held back; the lift, a frame later, sends it at once.
        h.fingers.move([finger: Point(x: knob.x + 40, y: knob.y)])
        h.fingers.up([finger])
        let final = try sliderOnGlass(h)
        #expect(final != held && h.clock.now < due.adding(seconds: 0.25))
        #expect(h.run { states(sub).last == final }, "at the lift, on kiosk's clock: \(states(sub))")
    }

    /// Commands from the broker are not a finger: each one's state goes out at once, however close.
    @Test func aCommandsStateGoesOutAtOnce() throws {
        let broker = try Broker()
        let sub = try broker.subscribe([Self.state])
        let h = try VirtualLoopOnBroker(broker: broker)
        connected(h, sub)
        try broker.publish("\(KioskOnBrokerTests.prefix)/slider/set", "10")
        #expect(h.run { states(sub).last == "10.0" }, "\(states(sub))")
        try broker.publish("\(KioskOnBrokerTests.prefix)/slider/set", "20")
        #expect(h.run { states(sub).last == "20.0" }, "the virtual clock never moved: \(states(sub))")
    }
}
