import Foundation
import Synchronization
import Testing

/// `kiosk run` started as a process, its stderr (the log) collected as it arrives, so a test can
/// wait for a line (woken by each write, never by polling) and send it signals.
final class KioskProcess: Sendable {
    private let process: Process
    /// What the process wrote so far; a class, so the pipe's handler can hold it.
    private final class Collected: Sendable {
        let text = Mutex("")
    }

    private let log = Collected()
    private let arrived = DispatchSemaphore(value: 0)
    let folder: URL
    /// The folder was made for this process, and goes with it.
    private let ownsFolder: Bool

    /// Starts `kiosk run --config CONFIG` with `config` written into a fresh folder, or into
    /// `folder` (a restart on the same files); with `openFileLimit`, under that many file
    /// descriptors (`ulimit -n`, through /bin/sh).
    init(config: String, arguments: [String] = [], environment: [String: String] = [:], folder given: URL? = nil,
         openFileLimit: Int? = nil) throws {
        folder = try given ?? temporaryFolder("run")
        ownsFolder = given == nil
        let path = folder.appendingPathComponent("kiosk.conf")
        try config.replacingOccurrences(of: "@FOLDER@", with: folder.path).write(to: path, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = kioskExecutable
        process.arguments = ["run", "--config", path.path] + arguments
        if let openFileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(openFileLimit) && exec \"$0\" \"$@\"", kioskExecutable.path] + (process.arguments ?? [])
        }
        process.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        err.fileHandleForReading.readabilityHandler = { [log, arrived] handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
            } else {
                log.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            arrived.signal()
        }
        try process.run()
    }

    var configPath: String { folder.appendingPathComponent("kiosk.conf").path }
    var text: String { log.text.withLock { $0 } }
    func lines(containing s: String) -> [Substring] { text.split(separator: "\n").filter { $0.contains(s) } }

    /// Waits until the log holds `s` at least `count` times, or the process ends, or `seconds` pass.
    @discardableResult
    func waitFor(_ s: String, count: Int = 1, seconds: Double = 20) -> Bool {
        let end = DispatchTime.now() + seconds
        while true {
            if lines(containing: s).count >= count { return true }
            if !process.isRunning, lines(containing: s).count < count {
                // One last look: the pipe may still hold the end.
                _ = arrived.wait(timeout: .now() + 0.5)
                return lines(containing: s).count >= count
            }
            if arrived.wait(timeout: end) == .timedOut { return lines(containing: s).count >= count }
        }
    }

    func signal(_ s: Int32) { kill(process.processIdentifier, s) }

    var pid: Int32 { process.processIdentifier }

    /// Stops the process (SIGSTOP) and waits until the kernel says it is stopped, as a frame that
    /// runs long holds the loop: signals sent meanwhile wait together.
    func freeze() -> Bool {
        signal(SIGSTOP)
        let stat = "/proc/\(process.processIdentifier)/stat"
        for _ in 0..<2000 {
            // The state is the field after the command name in parentheses.
            if let text = try? String(contentsOfFile: stat, encoding: .utf8), let close = text.lastIndex(of: ")"),
               text[text.index(after: close)...].hasPrefix(" T") {
                return true
            }
            usleep(10_000)
        }
        return false
    }

    /// Waits until the process has ended or sleeps (state S: blocked in a system call such as
    /// poll), for at most `seconds`; true if it has.
    func waitUntilEndedOrAsleep(seconds: Double = 20) -> Bool {
        let stat = "/proc/\(process.processIdentifier)/stat"
        let end = DispatchTime.now() + seconds
        while DispatchTime.now() < end {
            guard process.isRunning, let text = try? String(contentsOfFile: stat, encoding: .utf8),
                  let close = text.lastIndex(of: ")") else { return true }
            let state = text[text.index(after: close)...].dropFirst().first
            if state == "S" || state == "Z" { return true }
            usleep(1000)
        }
        return false
    }

    /// Sends SIGTERM and waits for the exit status.
    func stop() -> Int32 {
        if process.isRunning { signal(SIGTERM) }
        // Bounded: once (seen in one run of many) Foundation never noticed a kiosk that had
        // exited, and an unbounded wait would hold the whole test run, CI's included.
        guard waitForExit(seconds: 30) else {
            Issue.record("kiosk \(process.processIdentifier) did not end within 30 s of SIGTERM (or Foundation did not see it end): \(state)")
            return -1
        }
        _ = waitFor("\u{0}", seconds: 0.5)
        return process.terminationStatus
    }

    /// The process's state letter in /proc (Z: ended, not yet reaped), for a failure message.
    private var state: String {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return "gone from /proc" }
        return "state \(text[text.index(after: close)...].dropFirst().prefix(1))"
    }

    /// Waits for the process to end by itself, or kills it after `seconds`, which is a failure.
    func exitStatus(seconds: Double = 20) -> Int32 {
        if !waitForExit(seconds: seconds) { kill(process.processIdentifier, SIGKILL) }
        guard waitForExit(seconds: 30) else {
            Issue.record("kiosk \(process.processIdentifier) did not end within 30 s of SIGKILL (or Foundation did not see it end): \(state)")
            return -1
        }
        _ = waitFor("\u{0}", seconds: 0.5)
        return process.terminationStatus
    }

    /// Waits until the process has ended, for at most `seconds`; true if it has.
    func waitForExit(seconds: Double) -> Bool {
        let end = DispatchTime.now() + seconds
        while process.isRunning {
            if DispatchTime.now() >= end { return false }
            _ = arrived.wait(timeout: .now() + 0.05)
        }
        return true
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            _ = waitForExit(seconds: 30)
        }
        if ownsFolder { try? FileManager.default.removeItem(at: folder) }
    }
}

/// A config for `kiosk run` on this machine: the default scene, a headless display, an empty
/// input folder (no touchscreen), the log on stderr only, no state file unless `tail` has a `[state]`
/// (so no test reads or writes the machine's /var/lib/kiosk). `extra` is appended to the sections.
func headlessConfig(display: String = "", log: String = "", input: String = "", tail: String = "") throws -> String {
    let scene = try String(contentsOf: repositoryRoot.appendingPathComponent("config/kiosk.toml"), encoding: .utf8)
    // The default file documents the runtime sections; cut them off, the test sets its own.
    let sceneOnly = scene.components(separatedBy: "\n[display]").first ?? scene
    return sceneOnly + """

        [display]
        card = "headless"
        screenshot_directory = "@FOLDER@"
        \(display)

        [input]
        directory = "@FOLDER@"
        \(input)

        [log]
        serial = "none"
        \(log)
        \(tail)
        """ + (tail.contains("[state]") ? "" : "\n[state]\nenabled = false\n")
}
