import Foundation

/// Running the built `kiosk` as a user does, for the command tests of every test target.
public enum KioskExecutable {
    /// The repository's root folder.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The repository's default config, `config/kiosk.toml`.
    public static let defaultConfigPath = repositoryRoot.appendingPathComponent("config/kiosk.toml").path

    /// The `kiosk` executable `swift build` put beside the test bundle.
    public static let url: URL = {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("kiosk")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return repositoryRoot.appendingPathComponent(".build/debug/kiosk")
    }()

    /// What a finished program printed, and its exit status.
    public struct Finished: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` (default: kiosk) in the repository's root to its end.
    public static func run(_ arguments: [String], executable: URL = url, environment: [String: String]? = nil) throws -> Finished {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        p.currentDirectoryURL = repositoryRoot
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Finished(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// A fresh folder under the temporary directory; the caller removes it when it wants.
    public static func temporaryFolder(_ label: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
