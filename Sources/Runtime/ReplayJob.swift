import Display
import Foundation
import Gestures
import InputEvents
import KioskConfig
import KioskCore
import Scene

/// Why a replay could not run; each names the file and what is wrong with it.
public struct ReplayJobError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// `kiosk replay`: reads the config and the trace, replays, and renders the three outputs.
public struct ReplayJob {
    /// Nil: no trace, the scene as it starts.
    public var tracePath: String?
    public var configPath: String
    /// `ABS_Z,ABS_RX`: the axes that carry the position on an unusual single-touch device.
    public var positionAxes: String?
    /// Where to write the final frame as a PNG, drawn as the screen would show it.
    public var screenshotPath: String?
    /// Frames shown at these vblanks on the virtual clock, latency measured; nil: shown at once.
    public var vblank: SimulatedVBlank?

    public init(tracePath: String?, configPath: String, positionAxes: String? = nil, screenshotPath: String? = nil, vblank: SimulatedVBlank? = nil) {
        self.tracePath = tracePath
        self.configPath = configPath
        self.positionAxes = positionAxes
        self.screenshotPath = screenshotPath
        self.vblank = vblank
    }

    /// The largest trace read: some hours of a busy panel, far more than a replay needs.
    public static let maximumTraceSize = 256 << 20

    public struct Outputs {
        /// JSON Lines, one event per line.
        public var events: String
        /// The final scene, JSON.
        public var state: String
        /// The decision trace, a line per decision.
        public var decisions: String
        /// Input-to-flip latency, with `vblank`.
        public var latency: LatencyReport?
    }

    /// Loads the config and the trace and plays it on the virtual clock: what every command that
    /// replays shares. Errors name the file and what is wrong with it.
    public func replay(traceDecisions: Bool = true, draws: Bool = false) throws(ReplayJobError) -> Replay {
        let configuration: KioskConfiguration
        do {
            configuration = try KioskConfiguration.load(path: configPath)
        } catch {
            throw ReplayJobError("\(error)")
        }
        guard let tracePath else {
            do {
                return try Replay(trace: EvemuTrace(device: .ft5406), configuration: configuration,
                                  traceDecisions: traceDecisions, draws: draws, vblank: vblank)
            } catch {
                throw ReplayJobError("\(error)")
            }
        }
        let trace: EvemuTrace
        do {
            trace = try EvemuTrace.parse(bytes: TextFile.read(tracePath, what: "the trace", limit: Self.maximumTraceSize), file: tracePath)
        } catch {
            throw ReplayJobError("\(error)")
        }
        var axes: (x: AbsoluteAxis, y: AbsoluteAxis)?
        if let positionAxes {
            let names = positionAxes.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            guard names.count == 2, let x = AbsoluteAxis(name: names[0]), let y = AbsoluteAxis(name: names[1]) else {
                throw ReplayJobError("--position-axes: expected two axis names such as ABS_Z,ABS_RX, found '\(positionAxes)'")
            }
            axes = (x, y)
        }
        do {
            return try Replay(trace: trace, configuration: configuration, traceDecisions: traceDecisions, positionAxes: axes, draws: draws,
                              vblank: vblank)
        } catch {
            throw ReplayJobError("\(tracePath): \(error)")
        }
    }

    /// `kiosk replay`: the replay and its three outputs, and the screenshot when asked for.
    public func run() throws(ReplayJobError) -> Outputs {
        let replay = try replay(draws: screenshotPath != nil)
        if let screenshotPath {
            do {
                try replay.writeScreenshot(to: screenshotPath)
            } catch {
                throw ReplayJobError("--screenshot: \(error)")
            }
        }
        let events = replay.eventLines
        let decisions = replay.decisionLines
        return Outputs(
            events: events.isEmpty ? "" : events.joined(separator: "\n") + "\n",
            state: replay.stateJSON,
            decisions: decisions.isEmpty ? "" : decisions.joined(separator: "\n") + "\n",
            latency: replay.latency
        )
    }
}
