import ArgumentParser
import Foundation
import Runtime

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Play a recorded evemu trace through the gesture engine and the scene, on a virtual clock.",
        discussion: """
            The same trace always gives byte-identical outputs. Without --events the gesture and \
            control events are printed on standard output, one JSON object per line.
            Exit status: 0 on success, 2 when the trace or the config is malformed.
            """
    )

    @Argument(help: "The evemu recording (evemu-record's format).")
    var trace: String

    @Option(help: "The kiosk config file (TOML).")
    var config = "config/kiosk.toml"

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

    func run() throws {
        do {
            let outputs = try ReplayJob(
                tracePath: trace, configPath: config, positionAxes: positionAxes, screenshotPath: screenshot
            ).run()
            try write(outputs.events, to: events)
            if let state { try outputs.state.write(toFile: state, atomically: true, encoding: .utf8) }
            if let decisions { try outputs.decisions.write(toFile: decisions, atomically: true, encoding: .utf8) }
        } catch let error as ReplayJobError {
            FileHandle.standardError.write(Data("kiosk replay: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    private func write(_ text: String, to path: String?) throws {
        if let path {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}
