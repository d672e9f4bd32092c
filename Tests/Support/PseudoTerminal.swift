import Glibc

/// A pseudo-terminal standing in for a serial device: kiosk (or a sink) opens `slavePath`, the test
/// reads what reached the wire from the master side, or leaves it unread, as a wire that is too slow.
public final class PseudoTerminal {
    public let master: Int32
    public let slavePath: String

    /// A system call that failed while making the terminal.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init() throws {
        // posix_openpt, grantpt, unlockpt and ptsname_r need _XOPEN_SOURCE in <stdlib.h>, which
        // Swift's Glibc module does not define; they are in libc all the same.
        typealias FdCall = @convention(c) (Int32) -> Int32
        typealias PtsName = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
        let libc = dlopen(nil, RTLD_NOW)
        let openpt = unsafeBitCast(dlsym(libc, "posix_openpt"), to: FdCall.self)
        let grantpt = unsafeBitCast(dlsym(libc, "grantpt"), to: FdCall.self)
        let unlockpt = unsafeBitCast(dlsym(libc, "unlockpt"), to: FdCall.self)
        let ptsname = unsafeBitCast(dlsym(libc, "ptsname_r"), to: PtsName.self)
        master = openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw Failure(description: "posix_openpt: \(String(cString: strerror(errno)))") }
        var name = [CChar](repeating: 0, count: 128)
        guard grantpt(master) == 0 && unlockpt(master) == 0 && ptsname(master, &name, name.count) == 0 else {
            let reason = String(cString: strerror(errno))
            close(master)
            throw Failure(description: "grantpt/unlockpt/ptsname_r: \(reason)")
        }
        slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit { hangUp() }

    private var closed = false

    /// Closes the master: the slave side sees a hang-up, as when a USB adapter is pulled out.
    public func hangUp() {
        if !closed { close(master) }
        closed = true
    }

    /// The slave's line settings as the kernel holds them.
    public func slaveSettings() throws -> termios {
        let fd = open(slavePath, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "open \(slavePath): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { throw Failure(description: "tcgetattr: \(String(cString: strerror(errno)))") }
        return settings
    }
}

/// Reads what `fd` has now; a pty hands bytes to the master side asynchronously, so a read first
/// waits up to `timeoutMilliseconds` for some to arrive (a bound on waiting, not a delay).
public func readAvailable(_ fd: Int32, timeoutMilliseconds: Int32 = 0) -> [UInt8] {
    var bytes: [UInt8] = []
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&entry, 1, timeoutMilliseconds) > 0 else { return bytes }
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = read(fd, &chunk, chunk.count)
        if count > 0 {
            bytes += chunk[0..<count]
        } else if count < 0, errno == EINTR {
            continue
        } else {
            return bytes
        }
    }
}

/// Reads `fd` until the text read ends with `suffix`, or nothing arrives for a second.
public func read(_ fd: Int32, through suffix: String) -> String {
    var bytes: [UInt8] = []
    while !String(decoding: bytes, as: UTF8.self).hasSuffix(suffix) {
        let more = readAvailable(fd, timeoutMilliseconds: 1000)
        if more.isEmpty { break }
        bytes += more
    }
    return String(decoding: bytes, as: UTF8.self)
}
