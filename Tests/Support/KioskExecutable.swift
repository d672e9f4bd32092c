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
        /// It was still running after the time it was given, and was killed.
        public var timedOut = false
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

    /// Runs `executable` (default: kiosk) in the repository's root, killed after `seconds`: a hang
    /// fails the test instead of holding the suite. Killed for the time: status -1, `timedOut`, and
    /// "timed out" on standard error. Killed by a signal: the signal negated, and "killed by signal"
    /// before its standard error. Its outputs go to files, so a full pipe cannot stop it.
    public static func run(_ arguments: [String], seconds: Double, executable: URL = url) throws -> Finished {
        let dir = try temporaryFolder("run")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("stdout"), err = dir.appendingPathComponent("stderr")
        try Data().write(to: out)
        try Data().write(to: err)
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        p.currentDirectoryURL = repositoryRoot
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        let ended = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in ended.signal() }
        try p.run()
        if ended.wait(timeout: .now() + seconds) == .timedOut {
            kill(p.processIdentifier, SIGKILL)
            ended.wait()
            return Finished(status: -1, stdout: "", stderr: "timed out after \(seconds) s: \(arguments)", timedOut: true)
        }
        let signalled = p.terminationReason == .uncaughtSignal
        return Finished(
            status: signalled ? -p.terminationStatus : p.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: (signalled ? "killed by signal \(p.terminationStatus)\n" : "") + (try String(contentsOf: err, encoding: .utf8)))
    }

    /// A fresh folder under the temporary directory; the caller removes it when it wants.
    public static func temporaryFolder(_ label: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
