import ArgumentParser
import Display
import Foundation
import KioskCore
import Runtime

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Play a recorded evemu trace through the gesture engine and the scene, on a virtual clock.",
        discussion: """
            The same trace always gives byte-identical outputs. Without --events the gesture and \
            control events are printed on standard output, one JSON object per line.
            Exit status: 0 on success, 2 when the trace or the config cannot be read or is malformed, \
            or an output cannot be written.
            """
    )

    @Argument(help: "The evemu recording (evemu-record's format).")
    var trace: String

    @Option(help: "The kiosk config file (TOML); default: /etc/kiosk/kiosk.conf when it exists, else a checkout's config/kiosk.toml.")
    var config: String?

    @Option(help: "Write the gesture and control events here, as JSON Lines.")
    var events: String?

    @Option(help: "Write the final scene here, as JSON.")
    var state: String?

    @Option(help: "Write the decision trace here: why each gesture won or failed.")
    var decisions: String?

    @Option(help: "Draw the final frame, as the screen would show it, into this PNG.")
    var screenshot: String?

    @Option(help: "The axes that carry the position on a single-touch device, e.g. ABS_Z,ABS_RX.")
    var positionAxes: String?

    @Option(help: ArgumentHelp(
        "Show frames at this refresh rate's vblanks on the virtual clock and report input-to-flip latency on standard error.",
        valueName: "hz"))
    var refresh: Int?

    @Option(help: ArgumentHelp("With --refresh: where the first vblank falls on the trace's clock, in milliseconds (default 0).",
                               valueName: "ms"))
    var vblankPhase: Double?

    func validate() throws {
        if let refresh, !(1...1000).contains(refresh) {
            throw ValidationError("--refresh: \(refresh) Hz is not a refresh rate; give 1 to 1000 (a panel's is 60)")
        }
        if let vblankPhase {
            guard refresh != nil else { throw ValidationError("--vblank-phase needs --refresh") }
            guard vblankPhase.isFinite, vblankPhase >= 0, vblankPhase < 1000 else {
                throw ValidationError("--vblank-phase: \(vblankPhase) ms; give 0 to one refresh's length in milliseconds")
            }
        }
    }

    func run() throws {
        let chosen = ConfigPath.resolve(config)
        chosen.announce("replay")
        let config = chosen.path
        do {
            // Checked first: a replay can take a while, and its outputs should not be lost at the end.
            for (path, what) in outputs { try TextFile.checkWritable(path, what: what) }
            let outputs = try ReplayJob(
                tracePath: trace, configPath: config, positionAxes: positionAxes, screenshotPath: screenshot,
                vblank: refresh.map { SimulatedVBlank(refreshHz: $0, phaseMicroseconds: Int64(((vblankPhase ?? 0) * 1000).rounded())) }
            ).run()
            if let latency = outputs.latency { FileHandle.standardError.write(Data("\(latency)\n".utf8)) }
            if let events {
                try TextFile.write(outputs.events, to: events, what: "the events (--events)")
            } else {
                FileHandle.standardOutput.write(Data(outputs.events.utf8))
            }
            if let state { try TextFile.write(outputs.state, to: state, what: "the state (--state)") }
            if let decisions { try TextFile.write(outputs.decisions, to: decisions, what: "the decisions (--decisions)") }
        } catch let error as ReplayJobError {
            FileHandle.standardError.write(Data("kiosk replay: \(error)\n".utf8))
            throw ExitCode(2)
        } catch let error as FileError {
            FileHandle.standardError.write(Data("kiosk replay: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    /// Every output file asked for, with what it holds and the option that named it.
    private var outputs: [(path: String, what: String)] {
        [(events, "the events (--events)"), (state, "the state (--state)"), (decisions, "the decisions (--decisions)"),
         (screenshot, "the screenshot (--screenshot)")].compactMap { path, what in path.map { ($0, what) } }
    }
}
