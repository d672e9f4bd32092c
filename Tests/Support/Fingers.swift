import Gestures
import InputEvents
import KioskCore

/// The tests' one touch vocabulary: fingers put down, moved, lifted and cancelled on one virtual
/// clock, delivered at whichever depth the test needs.
///
/// - `Fingers(clock:deliver:)`: each report as a `TouchFrame` to a closure (the engine's `process`,
///   the scene's `handle`, the loop's `process`): the fingers that changed (in finger order), then
///   every other finger down, stationary (in finger order), at the clock's time.
/// - `Fingers(panel:)`: each report as the evdev events the `device`'s kernel driver writes,
///   through a `SyntheticTouchscreen` (SyntheticDevices.swift: an FT5406, a protocol A or a
///   resistive panel), read back as an evemu trace (`trace`, `traceText`) or as `events` (for a
///   decoder, or a uinput device); `unplug` and `inhibit` write the kernel's release.
/// - Below both, `EvdevScript` writes raw kernel events no finger can produce (SYN_DROPPED,
///   malformed reports); `SyntheticTouchscreen`'s own tests use it directly.
///
/// The verbs: `down`, `move` (to a place, or `over` seconds), `up`, `cancel`, `wait`, `tap`,
/// `tapInOneReport`, `drag`, `pinch`, `rotate`, `spreadAndTurn`, and `report` for several fingers'
/// changes in one report. Time passes only when a verb says so, on `clock`: `wait` lets it pass
/// between reports (the closure target's `tick` hears it: timers); a report comes `after` its
/// delay, by default at once for a `down` or a `report` and a frame (1/60 s, the FT5406's rate)
/// later for a `move`, `up` or `cancel`; movements `over` some seconds are a report a frame.
/// Fingers are numbers, given out in order from `firstFinger`; on a panel each takes the lowest free slot.
public final class Fingers {
    /// The FT5406's report interval.
    public static let frame = 1.0 / 60

    /// A change of one finger in a report: put down at a point, moved to one, lifted where it
    /// is, lifted after a last move to a point (both in the one report), cancelled.
    public enum Change {
        case down(Point), move(Point), up, upAt(Point), cancel
    }

    private enum Target {
        case frames(deliver: (TouchFrame) -> Void, tick: (Instant) -> Void, tickEvery: Double?)
        case panel(SyntheticTouchscreen)
    }

    /// The tests' one virtual clock: time passes only when the test says so.
    public let clock: VirtualClock
    public var now: Instant { clock.now }
    /// The fingers down, by number, where each last was.
    public private(set) var held: [Int: Point] = [:]
    private var nextFinger: Int
    private var target: Target

    /// Reports as `TouchFrame`s to `deliver`. `tick` hears the clock after each `wait`, or after each
    /// `tickEvery` seconds of it (a display's refresh, for tests that draw every frame).
    public init(clock: VirtualClock = VirtualClock(Instant(seconds: 10)), firstFinger: Int = 0, tickEvery: Double? = nil,
                tick: @escaping (Instant) -> Void = { _ in }, deliver: @escaping (TouchFrame) -> Void) {
        self.clock = clock
        nextFinger = firstFinger
        target = .frames(deliver: deliver, tick: tick, tickEvery: tickEvery)
    }

    /// Reports as a `device`'s evdev events on a `screen` (read them with `events`, `trace`, `traceText`);
    /// a protocol A device tells the last lift as `protocolARelease` says.
    public init(panel device: DeviceDescription, screen: Size = Size(width: 800, height: 480),
                clock: VirtualClock = VirtualClock(Instant(seconds: 10)),
                protocolARelease: SyntheticTouchscreen.ProtocolARelease = .emptyContact) {
        self.clock = clock
        nextFinger = 0
        var panel = SyntheticTouchscreen(device: device, screen: screen, start: clock.now)
        panel.protocolARelease = protocolARelease
        target = .panel(panel)
    }

    /// Millimetres on the default panel (the Raspberry Pi 7" display), in pixels.
    public func mm(_ millimetres: Double) -> Double { PanelMetrics.raspberryPi7Inch.pixels(millimetres: millimetres) }

    // MARK: The panel's side

    /// The panel's events so far (a panel's fingers only).
    public var events: [InputEvent] { panel.events }
    /// The panel's trace, with its device's header (a panel's fingers only).
    public var trace: EvemuTrace { panel.trace }
    /// The trace as `kiosk record` would write it (a panel's fingers only).
    public var traceText: String { panel.trace.text }
    /// The panel's device (a panel's fingers only).
    public var device: DeviceDescription { panel.device }
    /// How a protocol A panel tells the last lift from now on (a panel's fingers only).
    public var protocolARelease: SyntheticTouchscreen.ProtocolARelease {
        get { panel.protocolARelease }
        set {
            var panel = self.panel
            panel.protocolARelease = newValue
            target = .panel(panel)
        }
    }

    /// The kernel's release when the panel is unplugged, at the clock's time: the keys that are
    /// down released, `SYN_REPORT` 1 (`SyntheticTouchscreen.unplug`). Every finger is gone.
    public func unplug() { release { $0.unplug() } }

    /// The kernel's release when the panel is inhibited, at the clock's time: every slot's contact
    /// and the keys released, `SYN_REPORT` 1 (`SyntheticTouchscreen.inhibit`). Every finger is gone.
    public func inhibit() { release { $0.inhibit() } }

    private func release(_ body: (inout SyntheticTouchscreen) -> Void) {
        var panel = self.panel
        panel.now = clock.now
        body(&panel)
        target = .panel(panel)
        held = [:]
    }

    private var panel: SyntheticTouchscreen {
        guard case .panel(let panel) = target else { preconditionFailure("these fingers deliver frames, not a panel's events") }
        return panel
    }

    // MARK: Verbs

    /// Lets `seconds` pass with the fingers down held still; timers fire.
    public func wait(_ seconds: Double) {
        guard case .frames(_, let tick, let every) = target else {
            clock.advance(by: seconds)
            return
        }
        guard let every else {
            clock.advance(by: seconds)
            tick(clock.now)
            return
        }
        for _ in 0..<max(1, Int((seconds / every).rounded())) {
            clock.advance(by: every)
            tick(clock.now)
        }
    }

    /// Puts fingers down at `points`, in one report `after` seconds; returns their numbers.
    @discardableResult
    public func down(_ points: Point..., after seconds: Double = 0) -> [Int] {
        report(down: points, after: seconds)
    }

    /// Moves fingers (by number) to new places in one report, a frame later.
    public func move(_ moves: [Int: Point], after seconds: Double = Fingers.frame) {
        report(moves.mapValues { .move($0) }, after: seconds)
    }

    /// Moves each finger along a straight line from where it is to its target in `seconds`, a report a frame.
    public func move(_ targets: [Int: Point], over seconds: Double) {
        let starts = held
        let steps = max(1, Int((seconds / Self.frame).rounded()))
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            var changes: [Int: Change] = [:]
            for (finger, to) in targets {
                guard let from = starts[finger] else { preconditionFailure("finger \(finger) is not down") }
                changes[finger] = .move(from + (to - from) * t)
            }
            report(changes, after: seconds / Double(steps))
        }
    }

    /// Lifts fingers (every finger down when none are named) in one report, a frame later.
    public func up(_ fingers: [Int]? = nil, after seconds: Double = Fingers.frame) {
        report(Dictionary(uniqueKeysWithValues: (fingers ?? Array(held.keys)).map { ($0, Change.up) }), after: seconds)
    }

    /// Cancels fingers (every finger down when none are named) in one report, a frame later: the
    /// system took them (as the kernel's release after an unplug is decoded). Frames only: on a
    /// panel the kernel takes fingers with `unplug` or `inhibit`.
    public func cancel(_ fingers: [Int]? = nil, after seconds: Double = Fingers.frame) {
        report(Dictionary(uniqueKeysWithValues: (fingers ?? Array(held.keys)).map { ($0, Change.cancel) }), after: seconds)
    }

    /// One report `after` seconds with several fingers' changes at once: `down` puts new fingers
    /// down (their numbers are returned, in order), `changes` moves, lifts or cancels fingers that are down.
    @discardableResult
    public func report(down points: [Point] = [], _ changes: [Int: Change] = [:], after seconds: Double = 0) -> [Int] {
        var all = changes
        let new = points.map { p -> Int in
            let finger = nextFinger
            nextFinger += 1
            all[finger] = .down(p)
            return finger
        }
        if seconds != 0 { clock.advance(by: seconds) }
        deliver(all)
        return new
    }

    // MARK: Gestures

    /// Fingers down at `points` in one report, held `seconds` (timers fire), lifted a frame later.
    public func tap(at points: Point..., holding seconds: Double = 0) {
        let fingers = report(down: points)
        if seconds > 0 { wait(seconds) }
        up(fingers)
    }

    /// A finger pressed and released in one report (lvgl#5211): on a panel one `SYN_REPORT` holds
    /// both; as frames, the two a decoder makes of it (began, then ended), at one time.
    public func tapInOneReport(at p: Point) {
        let finger = nextFinger
        nextFinger += 1
        switch target {
        case .panel(var panel):
            panel.now = clock.now
            panel.down(finger, at: p)
            panel.up(finger)
            panel.sync()
            target = .panel(panel)
        case .frames:
            deliver([finger: .down(p)])
            deliver([finger: .up])
        }
    }

    /// One finger down at `a`, moved to `b` in `seconds`, lifted a frame later.
    public func drag(from a: Point, to b: Point, over seconds: Double) {
        let f = down(a)
        move([f[0]: b], over: seconds)
        up(f)
    }

    /// Two fingers on a horizontal line through `center`, spreading in straight lines from `from`
    /// to `to` pixels apart in `seconds`, then lifted.
    public func pinch(center c: Point, from: Double, to: Double, over seconds: Double) {
        let f = down(c - Point(x: from / 2, y: 0), c + Point(x: from / 2, y: 0))
        move([f[0]: c - Point(x: to / 2, y: 0), f[1]: c + Point(x: to / 2, y: 0)], over: seconds)
        up(f)
    }

    /// Two fingers `radius` from `center` on opposite sides, turning by `angle` radians (clockwise
    /// positive) in `seconds`, then lifted.
    public func rotate(center c: Point, radius: Double, by angle: Double, over seconds: Double) {
        let f = down(c - Point(x: radius, y: 0), c + Point(x: radius, y: 0))
        let steps = max(1, Int((seconds / Self.frame).rounded()))
        for step in 1...steps {
            let arm = Point(x: radius, y: 0).rotated(by: angle * Double(step) / Double(steps))
            report([f[0]: .move(c - arm), f[1]: .move(c + arm)], after: seconds / Double(steps))
        }
        up(f)
    }

    /// Two fingers about `center`, `span` apart at `angle`, spread to `toSpan` and turned to
    /// `toAngle` together (span and angle change evenly) in `seconds`, then lifted.
    public func spreadAndTurn(around center: Point, span: Double, to toSpan: Double, angle: Double = 0, toAngle: Double = 0,
                              over seconds: Double) {
        func points(_ s: Double, _ a: Double) -> (Point, Point) {
            let half = Point(x: s / 2, y: 0).rotated(by: a)
            return (center - half, center + half)
        }
        let (a, b) = points(span, angle)
        let f = down(a, b)
        let steps = max(1, Int((seconds / Self.frame).rounded()))
        for i in 1...steps {
            let t = Double(i) / Double(steps)
            let (p, q) = points(span + (toSpan - span) * t, angle + (toAngle - angle) * t)
            move([f[0]: p, f[1]: q], after: seconds / Double(steps))
        }
        up(f)
    }

    // MARK: Delivery

    private func deliver(_ changes: [Int: Change]) {
        for (finger, change) in changes {
            if case .down = change {
                precondition(held[finger] == nil, "finger \(finger) is already down")
            } else {
                precondition(held[finger] != nil, "finger \(finger) is not down")
            }
        }
        switch target {
        case .frames(let deliver, _, _):
            deliver(frame(changes))
        case .panel(var panel):
            panel.now = clock.now
            for (finger, change) in changes.sorted(by: { $0.key < $1.key }) {
                switch change {
                case .down(let p): panel.down(finger, at: p)
                case .move(let p): panel.move(finger, to: p)
                case .up: panel.up(finger)
                case .upAt(let p):
                    panel.move(finger, to: p)
                    panel.up(finger)
                case .cancel: preconditionFailure("a panel's finger cannot be cancelled: unplug() or inhibit() the panel")
                }
            }
            panel.sync()
            target = .panel(panel)
            note(changes)
        }
    }

    /// The changed fingers (in finger order), then every other finger held, stationary (in finger order).
    private func frame(_ changes: [Int: Change]) -> TouchFrame {
        var touches: [Touch] = []
        for (finger, change) in changes.sorted(by: { $0.key < $1.key }) {
            let (phase, p): (TouchPhase, Point) = switch change {
            case .down(let p): (.began, p)
            case .move(let p): (.moved, p)
            case .up: (.ended, held[finger]!)
            case .upAt(let p): (.ended, p)
            case .cancel: (.cancelled, held[finger]!)
            }
            touches.append(Touch(id: TouchID(finger), phase: phase, location: p))
        }
        for (finger, p) in held.sorted(by: { $0.key < $1.key }) where changes[finger] == nil {
            touches.append(Touch(id: TouchID(finger), phase: .stationary, location: p))
        }
        note(changes)
        return TouchFrame(time: clock.now, touches: touches)
    }

    private func note(_ changes: [Int: Change]) {
        for (finger, change) in changes {
            switch change {
            case .down(let p): held[finger] = p
            case .move(let p): held[finger] = p
            case .up, .upAt, .cancel: held[finger] = nil
            }
        }
    }
}
