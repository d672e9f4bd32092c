import Foundation
import KioskTestSupport
import Synchronization
import Testing

/// A program run by a test with its output (stdout and stderr) collected line by line as it
/// arrives, so the test waits for a line (woken by each write), never for a fixed time.
final class LineProcess: Sendable {
    private final class Collected: Sendable { let text = Mutex("") }
    private let process: Process
    private let collected = Collected()
    private let arrived = DispatchSemaphore(value: 0)

    /// `environment` is added to the test's own.
    init(_ executable: String, _ arguments: [String], directory: URL? = nil, environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [collected, arrived] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil } else {
                collected.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            arrived.signal()
        }
        try process.run()
    }

    deinit { stop(SIGKILL) }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var text: String { collected.text.withLock { $0 } }
    /// The whole lines so far: a line still being written is not one yet (mosquitto_sub writes
    /// through stdio's 4096-byte buffer, so a longer message, such as the device config, arrives
    /// in pieces).
    var lines: [Substring] { Self.wholeLines(text) }

    /// The payloads `mosquitto_sub -v` printed for `topic`, in order.
    func payloads(on topic: String) -> [String] {
        lines.filter { $0.hasPrefix(topic + " ") }.map { String($0.dropFirst(topic.count + 1)) }
    }

    static func wholeLines(_ text: String) -> [Substring] {
        guard let end = text.lastIndex(of: "\n") else { return [] }
        return text[..<end].split(separator: "\n")
    }

    /// Waits until `condition` holds on the output so far, or `seconds` pass; true when it held.
    @discardableResult
    func wait(seconds: Double = 20, until condition: (String) -> Bool) -> Bool {
        let end = DispatchTime.now() + seconds
        while true {
            if condition(text) { return true }
            if !process.isRunning {
                _ = arrived.wait(timeout: .now() + 0.3)
                return condition(text)
            }
            if arrived.wait(timeout: end) == .timedOut { return condition(text) }
        }
    }

    /// Waits for a line equal to `line`, `count` times.
    @discardableResult
    func waitFor(line: String, count: Int = 1, seconds: Double = 20) -> Bool {
        wait(seconds: seconds) { Self.wholeLines($0).filter { $0 == line }.count >= count }
    }

    @discardableResult
    func waitFor(containing s: String, count: Int = 1, seconds: Double = 20) -> Bool {
        wait(seconds: seconds) { Self.wholeLines($0).filter { $0.contains(s) }.count >= count }
    }

    func signal(_ s: Int32) { kill(process.processIdentifier, s) }

    func stop(_ s: Int32 = SIGTERM) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, s)
        process.waitUntilExit()
    }

    func waitUntilExit() { process.waitUntilExit() }
}

/// A Mosquitto broker of the test's own on 127.0.0.1 and a free port, optionally with a password
/// file; killed and started again on the same port when a test says so.
final class Broker {
    static let executable = "/usr/sbin/mosquitto"
    static var available: Bool {
        toolsPresent(["/usr/sbin/mosquitto", "/usr/bin/mosquitto_sub", "/usr/bin/mosquitto_pub", "/usr/bin/mosquitto_passwd"])
    }

    let folder: URL
    let port: Int
    /// user and password, when the broker wants them.
    let credentials: (user: String, password: String)?
    let tls: Bool
    private(set) var process: LineProcess?

    /// With `tls`, the listener speaks TLS with a certificate for `localhost` signed by `caFile`.
    init(credentials: (user: String, password: String)? = nil, tls: Bool = false) throws {
        folder = try KioskExecutable.temporaryFolder("broker")
        port = try freeLocalPort()
        self.credentials = credentials
        self.tls = tls
        var config = "listener \(port) 127.0.0.1\npersistence false\nlog_dest stderr\nlog_type all\n"
        if tls {
            try makeCertificates()
            config += "cafile \(caFile)\ncertfile \(path("server.crt"))\nkeyfile \(path("server.key"))\n"
        }
        if let credentials {
            let file = folder.appendingPathComponent("passwd").path
            let made = try LineProcess("/usr/bin/mosquitto_passwd", ["-b", "-c", file, credentials.user, credentials.password])
            made.waitUntilExit()
            // Readable by the broker's own user, which it becomes when started as root.
            guard chmod(file, 0o644) == 0, chmod(folder.path, 0o755) == 0 else {
                throw BrokerError("mosquitto_passwd made no \(file): \(made.text)")
            }
            config += "allow_anonymous false\npassword_file \(file)\n"
        } else {
            config += "allow_anonymous true\n"
        }
        try config.write(to: folder.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    var caFile: String { path("ca.crt") }
    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static var canMakeCertificates: Bool { toolsPresent(["/usr/bin/openssl"]) }

    /// A CA, and a server certificate it signs for localhost and 127.0.0.1 (openssl); readable by
    /// the broker's own user, which it becomes when started as root.
    private func makeCertificates() throws {
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: path("ext.cnf"), atomically: true, encoding: .utf8)
        let steps = [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out", path("ca.crt"), "-days", "2", "-subj", "/CN=kiosk test CA"],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", path("server.csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"), "-CAcreateserial",
             "-out", path("server.crt"), "-days", "2", "-extfile", path("ext.cnf")],
        ]
        for step in steps {
            let p = try LineProcess("/usr/bin/openssl", step)
            p.waitUntilExit()
        }
        for name in ["ca.crt", "server.crt", "server.key"] {
            guard chmod(path(name), 0o644) == 0 else { throw BrokerError("openssl made no \(name)") }
        }
        chmod(folder.path, 0o755)
    }

    deinit {
        process?.stop(SIGKILL)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts the broker and waits until it listens.
    func start() throws {
        let p = try LineProcess(Self.executable, ["-c", folder.appendingPathComponent("mosquitto.conf").path])
        process = p
        // "running" comes once every listener is open; "Opening ... listen socket" comes before.
        guard p.waitFor(containing: "Opening ipv4 listen socket on port \(port)", seconds: 10),
              p.wait(seconds: 10, until: { $0.contains(" running") }) else {
            throw BrokerError("mosquitto did not start: \(p.text)")
        }
    }

    /// Kills the broker with SIGKILL: its clients' connections are reset, nothing is said.
    func kill() {
        process?.stop(SIGKILL)
        process = nil
    }

    /// `mosquitto_sub` on `topics` (retained messages included), one line per message: `topic payload`.
    func subscribe(_ topics: [String], credentials given: (user: String, password: String)? = nil) throws -> LineProcess {
        let sub = try LineProcess("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", "\(port)", "-v", "-i", "test-sub-\(UUID().uuidString.prefix(6))"]
            + topics.flatMap { ["-t", $0] } + login(given ?? credentials))
        return sub
    }

    /// `mosquitto_pub` of one message; waits until it has been sent.
    func publish(_ topic: String, _ message: String, retain: Bool = false) throws {
        let pub = try LineProcess("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-m", message]
            + (retain ? ["-r"] : []) + login(credentials))
        pub.waitUntilExit()
    }

    /// The retained messages on the broker under `topics` now, as `topic: payload`: what a new
    /// subscriber (Home Assistant starting) is given. mosquitto_sub with `--retained-only` for
    /// `seconds` (its own `-W` relies on SIGALRM, which the test runner may have blocked), then killed.
    func retained(_ topics: [String], seconds: Double = 0.7) throws -> [String: String] {
        let sub = try LineProcess("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", "\(port)", "-v", "--retained-only",
                                                            "-i", "test-retained-\(UUID().uuidString.prefix(6))"]
            + topics.flatMap { ["-t", $0] } + login(credentials))
        sub.wait(seconds: seconds) { _ in false }
        sub.stop(SIGKILL)
        var out: [String: String] = [:]
        for line in sub.lines {
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            out[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return out
    }

    private func login(_ c: (user: String, password: String)?) -> [String] {
        guard let c else { return [] }
        return ["-u", c.user, "-P", c.password]
    }
}

struct BrokerError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
