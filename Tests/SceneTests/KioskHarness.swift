import Foundation
import Gestures
import InputEvents
import KioskCore
import KioskTestSupport
import Runtime
import Testing

/// The repository's default config, as `kiosk replay` reads it.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let defaultConfigPath = repositoryRoot.appendingPathComponent("config/kiosk.toml").path

/// Writes a finger script as an evemu trace from a virtual FT5406 panel, replays it through
/// `kiosk replay`'s own job with the default config, and reads back the outputs.
///
/// Frames come at the panel's 60 Hz; every movement is spread over frames as a finger would.
final class KioskScript {
    private(set) var panel: SyntheticTouchscreen
    static let frame = 1.0 / 60
    private var nextFinger = 0

    init(device: DeviceDescription = SyntheticTouchscreen.ft5406) {
        panel = SyntheticTouchscreen(device: device, screen: Size(width: 800, height: 480), start: Instant(seconds: 10))
    }

    var now: Instant { panel.now }
    /// Millimetres on the default panel, in pixels.
    func mm(_ millimetres: Double) -> Double { PanelMetrics.raspberryPi7Inch.pixels(millimetres: millimetres) }

    // MARK: Fingers

    func wait(_ seconds: Double) { panel.wait(seconds) }

    /// Puts fingers down at `points` in one report; returns their numbers.
    @discardableResult
    func down(_ points: Point...) -> [Int] {
        let fingers = points.map { p -> Int in
            let f = nextFinger
            nextFinger += 1
            panel.down(f, at: p)
            return f
        }
        panel.sync()
        return fingers
    }

    func up(_ fingers: [Int]) {
        panel.wait(Self.frame)
        for f in fingers { panel.up(f) }
        panel.sync()
    }

    /// Moves each finger along its own straight path, in `seconds`, a report per frame.
    func move(_ paths: [(finger: Int, from: Point, to: Point)], over seconds: Double) {
        let steps = max(1, Int((seconds / Self.frame).rounded()))
        for step in 1...steps {
            panel.wait(seconds / Double(steps))
            let t = Double(step) / Double(steps)
            for p in paths { panel.move(p.finger, to: p.from + (p.to - p.from) * t) }
            panel.sync()
        }
    }

    func tap(at p: Point) {
        let f = down(p)
        up(f)
    }

    func drag(from a: Point, to b: Point, over seconds: Double) {
        let f = down(a)
        move([(f[0], a, b)], over: seconds)
        up(f)
    }

    /// Two fingers on a horizontal line through `center`, spreading from `from` to `to` pixels apart.
    func pinch(center c: Point, from: Double, to: Double, over seconds: Double) {
        let a0 = c - Point(x: from / 2, y: 0), b0 = c + Point(x: from / 2, y: 0)
        let f = down(a0, b0)
        move([(f[0], a0, c - Point(x: to / 2, y: 0)), (f[1], b0, c + Point(x: to / 2, y: 0))], over: seconds)
        up(f)
    }

    /// Two fingers `radius` from `center` on opposite sides, turning by `angle` radians (clockwise positive).
    func rotate(center c: Point, radius: Double, by angle: Double, over seconds: Double) {
        let f = down(c - Point(x: radius, y: 0), c + Point(x: radius, y: 0))
        let steps = max(1, Int((seconds / Self.frame).rounded()))
        for step in 1...steps {
            panel.wait(seconds / Double(steps))
            let arm = Point(x: radius, y: 0).rotated(by: angle * Double(step) / Double(steps))
            panel.move(f[0], to: c - arm)
            panel.move(f[1], to: c + arm)
            panel.sync()
        }
        up(f)
    }

    // MARK: Replay

    /// The trace as `kiosk record` would write it.
    var traceText: String { panel.trace.text }

    /// Replays the script through `kiosk replay`'s job and the default config.
    func replay(config: String = defaultConfigPath) throws -> ReplayResult {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-\(UUID().uuidString).evemu").path
        try traceText.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try ReplayResult(ReplayJob(tracePath: path, configPath: config).run())
    }
}

/// The outputs of a replay, read back as JSON.
struct ReplayResult {
    let outputs: ReplayJob.Outputs
    /// One dictionary per JSON line of `--events`.
    let events: [[String: Any]]
    /// The views of `--state`, by name.
    let views: [String: [String: Any]]

    init(_ outputs: ReplayJob.Outputs) throws {
        self.outputs = outputs
        events = try outputs.events.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let state = try #require(JSONSerialization.jsonObject(with: Data(outputs.state.utf8)) as? [String: Any])
        let list = try #require(state["views"] as? [[String: Any]])
        views = Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as! String, $0) })
    }

    var decisions: [String] { outputs.decisions.split(separator: "\n").map(String.init) }

    func center(_ view: String) -> Point { point(view, "center") }
    func knob(_ view: String) -> Point { point(view, "knob") }
    func number(_ view: String, _ key: String) -> Double { (views[view]?[key] as? NSNumber)?.doubleValue ?? .nan }
    func flag(_ view: String, _ key: String) -> Bool? { views[view]?[key] as? Bool }
    func text(_ view: String, _ key: String) -> String? { views[view]?[key] as? String }

    private func point(_ view: String, _ key: String) -> Point {
        guard let a = views[view]?[key] as? [NSNumber], a.count == 2 else { return Point(x: .nan, y: .nan) }
        return Point(x: a[0].doubleValue, y: a[1].doubleValue)
    }

    /// The states a recognizer went through, in order, as `--events` lists them.
    func states(_ recognizer: String, on view: String) -> [String] {
        events.filter { $0["view"] as? String == view && $0["recognizer"] as? String == recognizer }.compactMap { $0["state"] as? String }
    }

    /// The control events of a view, in order.
    func controlEvents(_ view: String) -> [String] {
        events.filter { $0["view"] as? String == view }.compactMap { $0["event"] as? String }
    }

    /// The time of the first event of `recognizer@view` in `state`.
    func time(_ recognizer: String, on view: String, _ state: String) -> Double? {
        events.first { $0["view"] as? String == view && $0["recognizer"] as? String == recognizer && $0["state"] as? String == state }
            .flatMap { ($0["t"] as? NSNumber)?.doubleValue }
    }
}

func expectClose(_ a: Point, _ b: Point, within tolerance: Double = 1.5, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a.distance(to: b) <= tolerance, "\(a) is not within \(tolerance) px of \(b)", sourceLocation: sourceLocation)
}
