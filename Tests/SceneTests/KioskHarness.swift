import Foundation
import Gestures
import InputEvents
import KioskCore
import KioskTestSupport
import Runtime
import Testing

/// The repository's default config, as `kiosk replay` reads it.
let repositoryRoot = KioskExecutable.repositoryRoot
let defaultConfigPath = KioskExecutable.defaultConfigPath

/// Replays a touch script through `kiosk replay`'s own job with the default config, and reads back the outputs.
extension Fingers {
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
