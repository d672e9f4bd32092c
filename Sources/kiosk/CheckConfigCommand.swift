import ArgumentParser
import Foundation
import KioskConfig

struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a kiosk config file and print it resolved, with every default filled in.",
        discussion: """
            The output is itself a config file that reads back to the same configuration; a key \
            left unset on purpose (such as the card) is a comment saying what happens instead.
            Exit status: 0 when the file is valid, 2 when it is not: the error, as \
            file:line: key: what is wrong, is printed on standard error.
            """
    )

    @Argument(help: "The kiosk config file (TOML); default: /etc/kiosk/kiosk.conf when it exists, else a checkout's config/kiosk.toml.")
    var file: String?

    func run() throws {
        let chosen = ConfigPath.resolve(file)
        chosen.announce("check-config")
        let file = chosen.path
        let config: KioskConfiguration
        do {
            config = try KioskConfiguration.load(path: file)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(2)
        }
        FileHandle.standardOutput.write(Data(config.resolvedText.utf8))
    }
}
