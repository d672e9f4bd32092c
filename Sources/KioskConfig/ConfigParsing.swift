#if canImport(Glibc)
import Glibc
#endif
import KioskCore
import Synchronization
import TOMLKit

/// Where config text becomes a `TOMLDocument`: in this process, or in a child process.
///
/// TOMLKit keeps every document it parses (see `TOMLNode`), so a kiosk reloaded every ten minutes
/// would grow without end; and toml++ stops the whole process on some malformed text (see
/// `TOMLGuard`, which catches the cases known). In a child, both end with the child: it parses,
/// writes the document (or the error) down a pipe as `TOMLWire` bytes, and exits; kiosk reads the
/// bytes into plain values. A child that dies on a signal or says nothing is a config error,
/// and the kiosk keeps running its last good config.
///
/// The child is a `fork()` of kiosk, not a new program: it needs no executable path, lives 5 to 8
/// ms for the default config, parse included (docs/running.md, "Reloads, and months without growth"), and
/// the loop waits for it as it waited for the parse in place, bounded by `childSeconds`. Making
/// the reload wait for the child's pipe in the loop's poll instead would split `reload` in two;
/// for milliseconds, it is not worth it. A fork
/// is only safe in a process without threads that could hold a lock the child needs, which kiosk
/// is (no threads of ours; getaddrinfo_a's helpers hold no Swift lock) and a test runner is not:
/// so the `kiosk` executable turns it on at start (`isolate()`), and libraries and tests parse in
/// place.
public enum ConfigParsing {
    private static let inChild = Atomic<Bool>(false)
    /// The longest a child may take before it is killed and the text refused: well inside the
    /// unit's 10 s watchdog, three times what a 1 MB config (the largest read) takes in a debug build.
    static let childSeconds = 3.0

    /// From now on, parse in a child process. Called once by the `kiosk` executable.
    public static func isolate() { inChild.store(true, ordering: .relaxed) }

    static var isolated: Bool { inChild.load(ordering: .relaxed) }

    /// A test seam, never a setting (no document names it): when kiosk's environment names a
    /// file in `KIOSK_TEST_PARSER_FAULT`, each parser child reads that file before it parses, and
    /// on `abort` dies on SIGABRT (as toml++ does on text `TOMLGuard` misses), on `hang` never
    /// answers. The file, not the variable, says which, so a kiosk can start well and meet the
    /// fault at a reload (CommandTests' ParserChildTests). Parsing in place never reads it.
    static let faultVariable = "KIOSK_TEST_PARSER_FAULT"

    /// In the child: the fault the test asked for, if any.
    private static func injectFault() {
        guard let path = getenv(faultVariable) else { return }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return }
        var word = [UInt8](repeating: 0, count: 8)
        let n = read(fd, &word, word.count)
        close(fd)
        let said = String(decoding: word.prefix(max(0, n)), as: UTF8.self)
        if said.hasPrefix("abort") { abort() }
        if said.hasPrefix("hang") { while true { pause() } }
    }

    /// `text` as a document, or where and why it is not TOML.
    static func parse(_ text: String) -> Result<TOMLDocument, TOMLWire.Problem> {
        isolated ? parseInChild(text) : parseHere(text)
    }

    /// The parse itself: `TOMLGuard`'s scan, toml++, then a copy into plain values.
    static func parseHere(_ text: String) -> Result<TOMLDocument, TOMLWire.Problem> {
        do {
            return .success(TOMLDocument(try TOMLGuard.parse(text)))
        } catch let e as TOMLGuard.Problem {
            return .failure(TOMLWire.Problem(line: e.line, column: e.column, message: e.message))
        } catch let e as TOMLParseError {
            return .failure(TOMLWire.Problem(line: e.source.begin.line, column: e.source.begin.column, message: e.description))
        } catch {
            return .failure(TOMLWire.Problem(line: 0, column: 0, message: "\(error)"))
        }
    }

    static func parseInChild(_ text: String) -> Result<TOMLDocument, TOMLWire.Problem> {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return refused("cannot make a pipe for the parser: \(Errno(rawValue: errno))") }
        // Not inherited by a hook spawned later (pipe2 with O_CLOEXEC is not in Glibc's module).
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let pid = fork()
        if pid == 0 {
            // The child: nothing but the parse and one write; _exit runs no atexit handler of kiosk's.
            close(ends[0])
            injectFault()
            let bytes = TOMLWire.encode(parseHere(text))
            var sent = 0
            while sent < bytes.count, case .success(let n) = systemCall({ bytes[sent...].withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } }), n > 0 {
                sent += n
            }
            _exit(sent == bytes.count ? 0 : 1)
        }
        close(ends[1])
        defer { close(ends[0]) }
        guard pid > 0 else { return refused("cannot start the parser: fork: \(Errno(rawValue: errno))") }
        let bytes = readAll(ends[0], seconds: childSeconds)
        if bytes == nil { kill(pid, SIGKILL) }
        var status: Int32 = 0
        _ = systemCall { waitpid(pid, &status, 0) }
        let signal = status & 0x7f
        if signal != 0 {
            return refused(bytes == nil ? "the TOML parser took longer than \(Int(childSeconds)) s and was stopped"
                : "the TOML parser stopped on signal \(signal) (\(String(cString: strsignal(signal))))")
        }
        guard let bytes, let result = try? TOMLWire.decode(bytes) else { return refused("the TOML parser's child gave no result") }
        return result
    }

    private static func refused(_ why: String) -> Result<TOMLDocument, TOMLWire.Problem> {
        .failure(TOMLWire.Problem(line: 0, column: 0, message: why, parserFailed: true))
    }

    /// Everything `fd` gives until its end, or nil when that takes longer than `seconds`.
    private static func readAll(_ fd: Int32, seconds: Double) -> [UInt8]? {
        let end = MonotonicClock.seconds() + seconds
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = end - MonotonicClock.seconds()
            guard left > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard case .success(let ready) = systemCall({ poll(&p, 1, Int32(min(left * 1000 + 1, 60_000))) }) else { return nil }
            guard ready > 0 else { continue }
            switch systemCall({ chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }) {
            case .success(0): return out
            case .success(let n): out += chunk[0..<n]
            case .failure(.wouldBlock): continue
            case .failure: return out
            }
        }
    }
}
