import ArgumentParser
import Foundation
import KioskConfig

/// The one rule for every command's `--config` default: `/etc/kiosk/kiosk.conf` when it exists,
/// else `config/kiosk.toml` of a checkout (the working directory or one above it, then the one
/// the kiosk binary was built in). Each command says which file it took when it was not named.
struct ConfigPath {
    static let installed = "/etc/kiosk/kiosk.conf"
    static let checkout = "config/kiosk.toml"

    /// The path to read.
    let path: String
    /// Why this one, for the line the command prints; nil when `--config` named it.
    let why: String?
    /// False when nothing was named and neither file exists: commands that can go on without
    /// a config (`devices`, `touches`) use the defaults then.
    var found = true

    /// `explicit` when given; else the rule's choice. With neither file there, the installed path:
    /// reading it fails with an error that says which files were looked for.
    static func resolve(_ explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> ConfigPath {
        if let explicit { return ConfigPath(path: explicit, why: nil) }
        let files = FileManager.default
        if files.fileExists(atPath: installed) { return ConfigPath(path: installed, why: "the installed config") }
        let cwd = files.currentDirectoryPath
        for start in [cwd, URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent().path] {
            if let found = checkoutConfig(above: start) {
                return ConfigPath(path: found, why: "the checkout's; \(installed) does not exist")
            }
        }
        return ConfigPath(path: installed, why: "the default; neither it nor a checkout's \(checkout) exists: pass --config FILE", found: false)
    }

    /// `config/kiosk.toml` in `directory` or the nearest folder above it that is a kiosk checkout (has Package.swift).
    static func checkoutConfig(above directory: String) -> String? {
        var url = URL(fileURLWithPath: directory)
        for _ in 0..<8 {
            let candidate = url.appendingPathComponent(checkout).path
            if FileManager.default.fileExists(atPath: candidate),
               FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) || url.path == FileManager.default.currentDirectoryPath {
                // Relative when it is the working directory's, as people type it.
                return url.path == FileManager.default.currentDirectoryPath ? checkout : candidate
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { break }
            url = parent
        }
        return nil
    }

    /// The config when one was named or found; nil (defaults) when none is there. A file that
    /// does not read is an error (exit status 2), said on stderr.
    func loadIfThere(_ command: String) throws -> KioskConfiguration? {
        guard found else {
            FileHandle.standardError.write(Data("kiosk \(command): no config (neither \(Self.installed) nor a checkout's \(Self.checkout)); the defaults\n".utf8))
            return nil
        }
        announce(command)
        do {
            return try KioskConfiguration.load(path: path)
        } catch {
            FileHandle.standardError.write(Data("kiosk \(command): \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    /// Says on stderr which config `command` took, when it was not named.
    func announce(_ command: String) {
        guard let why else { return }
        FileHandle.standardError.write(Data("kiosk \(command): config \(path) (\(why))\n".utf8))
    }
}
