import Glibc
import KioskLog
import Testing

/// A pseudo-terminal standing in for the serial device: the sink opens `slavePath`, the test reads
/// what reached the wire from the master side.
final class PseudoTerminal {
    let master: Int32
    let slavePath: String

    init() throws {
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
        try #require(master >= 0, "posix_openpt: \(String(cString: strerror(errno)))")
        var name = [CChar](repeating: 0, count: 128)
        try #require(grantpt(master) == 0 && unlockpt(master) == 0 && ptsname(master, &name, name.count) == 0)
        slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit { hangUp() }

    private var closed = false

    /// Closes the master: the slave side sees a hang-up, as when a USB adapter is pulled out.
    func hangUp() {
        if !closed { close(master) }
        closed = true
    }

    /// The slave's line settings as the kernel holds them.
    func slaveSettings() throws -> termios {
        let fd = open(slavePath, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        var settings = termios()
        try #require(tcgetattr(fd, &settings) == 0)
        return settings
    }
}

/// Reads what `fd` has now; a pty hands bytes to the master side asynchronously, so a read first
/// waits up to `timeoutMilliseconds` for some to arrive (a bound on waiting, not a delay).
func readAvailable(_ fd: Int32, timeoutMilliseconds: Int32 = 0) -> [UInt8] {
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
func read(_ fd: Int32, through suffix: String) -> String {
    var bytes: [UInt8] = []
    while !String(decoding: bytes, as: UTF8.self).hasSuffix(suffix) {
        let more = readAvailable(fd, timeoutMilliseconds: 1000)
        if more.isEmpty { break }
        bytes += more
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Alternates flushing the sink and reading the far end until the sink has nothing queued and
/// the text read ends with `suffix`: what a poll loop does for a slow reader.
func drain(_ sink: any LogSink, from fd: Int32, through suffix: String) -> String {
    var bytes: [UInt8] = []
    while true {
        sink.flush()
        guard sink.wantsWrite else { break }
        let more = readAvailable(fd, timeoutMilliseconds: 1000)
        if more.isEmpty { break }
        bytes += more
    }
    let text = String(decoding: bytes, as: UTF8.self)
    return text.hasSuffix(suffix) ? text : text + read(fd, through: suffix)
}
