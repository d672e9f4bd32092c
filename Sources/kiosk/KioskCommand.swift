import ArgumentParser
import KioskConfig
import KioskVersion
import Runtime

@main
struct Kiosk: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "A touch kiosk for a Raspberry Pi: evdev touches, UIKit gesture semantics, drawn straight to DRM.",
        version: KioskVersion.current,
        subcommands: [RunCommand.self, CheckConfigCommand.self, ReplayCommand.self, DevicesCommand.self, RecordCommand.self,
                      TouchesCommand.self, ShowCommand.self, ControlCommand.self, CalibrateCommand.self]
    )

    static func main() {
        // Config text is parsed in a child process from here on: what the parser keeps and a
        // parser that aborts end with the child (KioskConfig/ConfigParsing.swift).
        ConfigParsing.isolate()
        main(nil)
    }
}
