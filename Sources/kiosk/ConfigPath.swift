import Foundation

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
        return ConfigPath(path: installed, why: "the default; neither it nor a checkout's \(checkout) exists: pass --config FILE")
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

    /// Says on stderr which config `command` took, when it was not named.
    func announce(_ command: String) {
        guard let why else { return }
        FileHandle.standardError.write(Data("kiosk \(command): config \(path) (\(why))\n".utf8))
    }
}
