import ControlProtocol
import KioskCore
#if canImport(Glibc)
import Glibc
#endif

/// One program connected to the control socket: the bytes it sent that make no whole line yet,
/// and the lines waiting for it to read, at most `capacity` of them.
///
/// Never blocks: reads and writes take what the socket takes now. A client that does not read
/// fills its queue; the next line is dropped and counted, and the client is disconnected.
final class ControlClient {
    let fd: Int32
    let number: Int
    var subscriptions = Set<ControlRequest.EventKind>()
    /// The client closed its side for writing: it is served until its queue is out, then closed.
    private(set) var readClosed = false
    /// The connection failed (a reset, a write refused): closed at the next look.
    private(set) var broken: String?
    /// A command of this client waits for the loop: its next lines wait for the reply.
    var held = false
    /// The request id of the command waiting, for its reply.
    var waitingID: String?
    /// The command waiting sets this view's label (its state line is said on success).
    var waitingLabel: String?
    /// The command waiting is a screenshot: once the loop took it, the reply waits for the picture.
    var waitingScreenshot = false
    private var incoming = IncomingLines()
    private var outgoing: OutgoingLines

    init(fd: Int32, number: Int, capacity: Int) {
        self.fd = fd
        self.number = number
        outgoing = OutgoingLines(capacity: capacity)
    }

    deinit { close(fd) }

    /// How many lines may wait for the client to read them.
    var capacity: Int {
        get { outgoing.capacity }
        set { outgoing.capacity = newValue }
    }
    /// Lines dropped because the queue was full.
    var dropped: Int { outgoing.dropped }
    var queued: Int { outgoing.queued }
    var hasOutput: Bool { queued > 0 }
    var overflowed: Bool { dropped > 0 }
    /// Done with: gone, broken, too slow, or served to the end after it stopped writing.
    var isFinished: Bool { broken != nil || overflowed || (readClosed && !hasOutput && !held && incoming.isDrained) }

    /// Queues `line` (without its newline); false, counted, when the queue is full.
    @discardableResult
    func send(_ line: String) -> Bool { outgoing.send(line) }

    /// Writes what the socket takes now.
    func flush() {
        guard broken == nil else { return }
        if let errno = outgoing.flush(fd: fd) { broken = "write: \(errno)" }
    }

    /// Reads what is there and calls `line` with each whole line (without its newline, a CR
    /// before it dropped too), and `tooLong` for each line past `limit` bytes, which is skipped.
    /// While `held` (a command of this client waits for the loop), lines wait: `drain` hands
    /// them out once it is released, so replies keep the order of the requests.
    func read(limit: Int, line: (ArraySlice<UInt8>) -> Void, tooLong: () -> Void) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while broken == nil, !readClosed {
            let n: Int
            switch systemCall({ chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }) {
            case .success(let count): n = count
            case .failure(let errno):
                if errno != .wouldBlock && errno.rawValue != EWOULDBLOCK { broken = "read: \(errno)" }
                n = -1
            }
            if n < 0 { break }
            if n == 0 {
                readClosed = true
                break
            }
            incoming.unread.append(contentsOf: chunk[0..<n])
        }
        drain(limit: limit, line: line, tooLong: tooLong)
    }

    /// Hands out the lines read and not handed out yet, until one holds the client.
    func drain(limit: Int, line: (ArraySlice<UInt8>) -> Void, tooLong: () -> Void) {
        incoming.drain(limit: limit, held: { self.held }, readClosed: readClosed, line: line, tooLong: tooLong)
    }
}

/// The lines waiting for a client to read them, at most `capacity`; the one being written is
/// `queue[head]`, `written` bytes of it out.
struct OutgoingLines {
    var capacity: Int
    /// Lines refused because the queue was full.
    private(set) var dropped = 0
    private var queue: [String] = []
    private var head = 0
    private var written = 0

    init(capacity: Int) { self.capacity = capacity }

    var queued: Int { queue.count - head }

    /// Queues `line` (without its newline); false, counted, when the queue is full.
    mutating func send(_ line: String) -> Bool {
        guard queued < capacity else {
            dropped += 1
            return false
        }
        if head > 64, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        queue.append(line + "\n")
        return true
    }

    /// Writes to `fd` what it takes now; the error that broke the connection, if one did.
    mutating func flush(fd: Int32) -> Errno? {
        while head < queue.count {
            let skip = written
            let sent = queue[head].utf8.withContiguousStorageIfAvailable { bytes in
                let rest = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[skip...])
                return systemCall { Glibc.send(fd, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            } ?? .failure(Errno(rawValue: EINVAL))
            switch sent {
            case .success(let count): written += count
            case .failure(let errno):
                return errno != .wouldBlock && errno.rawValue != EWOULDBLOCK ? errno : nil
            }
            if written == queue[head].utf8.count {
                head += 1
                written = 0
            }
        }
        queue.removeAll(keepingCapacity: true)
        head = 0
        return nil
    }
}

/// The bytes a client sent: `unread` from `next` on, and the line being gathered in `input`.
struct IncomingLines {
    var unread: [UInt8] = []
    private var next = 0
    private var input: [UInt8] = []
    /// Part of an over-long line is being thrown away, up to its newline.
    private var discarding = false

    init() { input.reserveCapacity(1024) }

    var isDrained: Bool { next == unread.count }

    /// Hands out whole lines until `held` says a line holds the client; at the end of a client
    /// that stopped writing (`readClosed`), a last line without its newline too.
    mutating func drain(limit: Int, held: () -> Bool, readClosed: Bool, line: (ArraySlice<UInt8>) -> Void, tooLong: () -> Void) {
        while !held(), next < unread.count {
            let b = unread[next]
            next += 1
            if b == UInt8(ascii: "\n") {
                if discarding {
                    discarding = false
                    tooLong()
                } else {
                    var end = input.endIndex
                    if end > 0, input[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                    line(input[0..<end])
                }
                input.removeAll(keepingCapacity: true)
            } else if !discarding {
                if input.count >= limit {
                    discarding = true
                    input.removeAll(keepingCapacity: true)
                } else {
                    input.append(b)
                }
            }
        }
        guard next == unread.count else { return }
        unread.removeAll(keepingCapacity: true)
        next = 0
        // A last line without its newline (`printf '...' | socat`) is still a line.
        if readClosed, !held(), !input.isEmpty {
            if !discarding { line(input[...]) }
            input.removeAll()
        }
    }
}
