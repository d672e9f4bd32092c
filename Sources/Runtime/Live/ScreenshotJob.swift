import CLinuxSystem
import KioskCore
import Render
#if canImport(Glibc)
import Glibc
#endif

/// The frame the panel shows, as PNG bytes (the shadow buffer the renderer draws, upright).
public struct Screenshot: Sendable, Equatable {
    public var png: [UInt8]
    public var width: Int
    public var height: Int
    /// When it was asked for: the frame is the one drawn by then.
    public var takenAt: Instant
    /// Where the PNG was written, when it was asked for as a file (SIGUSR1's); `png` is then
    /// empty: the loop never reads the picture back.
    public var file: String?
}

/// Why a screenshot that was started did not come: said to every one who waited for it.
public struct ScreenshotError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The loop's screenshots (the control socket's `screenshot`, MQTT's Screenshot button).
///
/// Encoding 800x480 as a PNG takes milliseconds to tens of them (README, "Performance"): too long
/// for a frame. So the encode runs in a child process: `fork()` gives it the frame as it was
/// (copy on write), it writes the PNG down a pipe and exits (Render/PNGEncoding.swift
/// `forkPNGWriter(to:)`), and the loop reads the pipe without blocking, from its one `poll()`,
/// and reaps the child through a pidfd; the loop draws on meanwhile. Bounded: one child at a
/// time (a request while one encodes waits for that one's picture: coalesced), at most one start
/// per `Limits.minimumInterval` (a request sooner is refused and counted as dropped), at most
/// `Limits.maximumBytes` of PNG (more: the child is killed), `Limits.seconds` for the child.
///
/// A picture asked for as a file (SIGUSR1's) is written by the child itself, to a temporary name
/// beside the file; the loop only renames it once the child exited with success (or removes it),
/// so no disk write of it is the loop's and no half-written picture has the file's name.
final class ScreenshotJob {
    struct Limits {
        var minimumInterval = 2.0
        var maximumBytes = 2 << 20
        var seconds = 10.0
    }

    /// Where the child writes the picture.
    enum Output: Equatable {
        /// Down a pipe the loop reads: the picture comes back as bytes (the socket's and MQTT's).
        case pipe
        /// Into this file.
        case file(String)
    }

    /// What became of a request.
    enum Admission: Equatable {
        /// A child is encoding the frame now.
        case started
        /// One was already encoding: its picture answers this request too.
        case joined
        /// Nothing started; why.
        case refused(String)
    }

    struct Child {
        var pid: pid_t
        var pidfd: Int32
        /// Where the child writes: the read end of its pipe, or the file.
        var sink: Sink
        var bytes: [UInt8] = []
        /// The pipe ended (a file's child has none to read).
        var ended = false
        var status: Int32?
        var failure: String?
        var deadline: Instant
        var width: Int
        var height: Int
        var askedAt: Instant
    }

    /// What the loop holds of where a child writes.
    enum Sink {
        case pipe(Int32)
        case file(String)
    }

    let limits: Limits
    private(set) var child: Child?
    private(set) var lastStart: Instant?
    /// Screenshots made; requests refused (too soon, no child) or failed; requests that joined one in flight.
    private(set) var taken = 0
    private(set) var dropped = 0
    private(set) var coalesced = 0
    /// Each read's room, allocated once.
    private var chunk = [UInt8](repeating: 0, count: 65536)

    init(limits: Limits = Limits()) { self.limits = limits }

    deinit { cancel() }

    var inFlight: Bool { child != nil }

    /// Where a child writes the file `path` until it exited with success: hidden, beside it.
    static func temporaryName(of path: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        return path[..<slash] + "." + path[slash...] + ".partial"
    }

    /// Starts encoding `frame` as it is at `now` into `output`, joins the encode in flight (its
    /// output, whatever this one asked for), or says why not.
    func request(_ frame: PixelBuffer, into output: Output = .pipe, now: Instant) -> Admission {
        if child != nil {
            coalesced += 1
            return .joined
        }
        if let last = lastStart, now < last.adding(seconds: limits.minimumInterval) {
            dropped += 1
            let wait = last.adding(seconds: limits.minimumInterval).seconds - now.seconds
            return .refused("at most one screenshot every \(fixedDecimal(limits.minimumInterval, 1)) s; the next in \(fixedDecimal(wait, 1)) s")
        }
        switch start(frame, into: output, now: now) {
        case .success(let c):
            child = c
            lastStart = now
            return .started
        case .failure(let why):
            dropped += 1
            return .refused("cannot start the encoder: \(why)")
        }
    }

    private func start(_ frame: PixelBuffer, into output: Output, now: Instant) -> Result<Child, SystemCallError> {
        // What the child writes to, and what the loop keeps: the pipe's read end, or the file's name.
        let target: Int32, sink: Sink
        switch output {
        case .pipe:
            var ends: [Int32] = [-1, -1]
            guard kiosk_pipe2(&ends, O_CLOEXEC) == 0 else { return .failure(SystemCallError(call: "pipe2", errno: Errno(rawValue: errno))) }
            _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
            (target, sink) = (ends[1], .pipe(ends[0]))
        case .file(let path):
            let temporary = Self.temporaryName(of: path)
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return .failure(SystemCallError(call: "open", subject: temporary, errno: Errno(rawValue: errno))) }
            (target, sink) = (fd, .file(path))
        }
        let forked = frame.forkPNGWriter(to: target)
        close(target)
        guard case .success(let pid) = forked else {
            Self.release(sink)
            if case .failure(let e) = forked { return .failure(SystemCallError(call: "fork", errno: e)) }
            return .failure(SystemCallError(call: "fork", errno: Errno(rawValue: EINVAL)))
        }
        let pidfd = pidfd_open(pid, 0)
        guard pidfd >= 0 else {
            // Without a pidfd the loop cannot learn of its exit: stopped and reaped now (as a hook's).
            let code = errno
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = systemCall { waitpid(pid, &status, 0) }
            Self.release(sink)
            return .failure(SystemCallError(call: "pidfd_open", errno: Errno(rawValue: code)))
        }
        _ = fcntl(pidfd, F_SETFD, FD_CLOEXEC)
        return .success(Child(pid: pid, pidfd: pidfd, sink: sink, ended: output != .pipe,
                              deadline: now.adding(seconds: limits.seconds), width: frame.width, height: frame.height, askedAt: now))
    }

    /// The child's pipe until it ends, and its pidfd until it exits.
    func appendPollDescriptors(to fds: inout [pollfd]) {
        guard let c = child else { return }
        if !c.ended, case .pipe(let fd) = c.sink { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        if c.status == nil { fds.append(pollfd(fd: c.pidfd, events: Int16(POLLIN), revents: 0)) }
    }

    /// The child's time limit.
    var nextDeadline: Instant? { child.map { $0.deadline } }

    /// Reads what the child wrote, reaps it once it exited: the screenshot or why not, once, when
    /// the child is gone; nil while it is still at work. Never waits (the pipe is non-blocking, the
    /// reap WNOHANG), so it may be called at any wake-up, its descriptors ready or not.
    func service(now: Instant) -> Result<Screenshot, ScreenshotError>? {
        guard var c = child else { return nil }
        if c.failure == nil, now >= c.deadline {
            c.failure = "the encoder took longer than \(Int(limits.seconds)) s and was stopped"
            kill(c.pid, SIGKILL)
        }
        if !c.ended { read(&c) }
        if c.status == nil {
            var status: Int32 = 0
            if case .success(let p) = systemCall({ waitpid(c.pid, &status, WNOHANG) }), p == c.pid { c.status = status }
        }
        guard let status = c.status, c.ended || c.failure != nil else {
            child = c
            return nil
        }
        close(c.pidfd)
        child = nil
        if let failure = c.failure ?? (status == 0 ? nil : "the encoder ended with \(HookSpawn.describe(status: status).text)") {
            Self.release(c.sink)
            return failed(failure)
        }
        switch c.sink {
        case .pipe(let fd):
            close(fd)
            guard c.bytes.starts(with: PixelBuffer.pngSignature) else { return failed("the encoder wrote no PNG") }
        case .file(let file):
            // Renamed only once whole: the file's name never holds half a picture.
            let temporary = Self.temporaryName(of: file)
            guard rename(temporary, file) == 0 else {
                let why = Errno(rawValue: errno)
                unlink(temporary)
                return failed("rename \(temporary) to \(file): \(why)")
            }
        }
        taken += 1
        var file: String?
        if case .file(let path) = c.sink { file = path }
        return .success(Screenshot(png: c.bytes, width: c.width, height: c.height, takenAt: c.askedAt, file: file))
    }

    private func failed(_ why: String) -> Result<Screenshot, ScreenshotError> {
        dropped += 1
        return .failure(ScreenshotError(why))
    }

    /// Reads what the pipe holds now; past `maximumBytes` the child is stopped.
    private func read(_ c: inout Child) {
        while true {
            let room = min(chunk.count, limits.maximumBytes + 1 - c.bytes.count)
            let n: Int
            guard case .pipe(let fd) = c.sink else {
                c.ended = true
                return
            }
            switch systemCall({ chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, room) } }) {
            case .success(let count): n = count
            case .failure(let errno):
                // Nothing more for now, or the pipe broke.
                if errno != .wouldBlock { c.ended = true }
                return
            }
            if n > 0 {
                c.bytes.append(contentsOf: chunk[0..<n])
                if c.bytes.count > limits.maximumBytes {
                    c.failure = "the PNG is larger than \(limits.maximumBytes) bytes"
                    c.bytes = []
                    c.ended = true
                    kill(c.pid, SIGKILL)
                    return
                }
                continue
            }
            c.ended = true
            return
        }
    }

    /// The loop is ending: a child still at work is stopped and reaped.
    func cancel() {
        guard let c = child else { return }
        kill(c.pid, SIGKILL)
        var status: Int32 = 0
        _ = systemCall { waitpid(c.pid, &status, 0) }
        close(c.pidfd)
        Self.release(c.sink)
        child = nil
    }

    /// A child's sink given up: the pipe closed, or the unfinished file removed.
    private static func release(_ sink: Sink) {
        switch sink {
        case .pipe(let fd): close(fd)
        case .file(let path): unlink(temporaryName(of: path))
        }
    }
}
