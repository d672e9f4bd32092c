import KioskCore
import Glibc

/// A serial device opened for the log: non-blocking, write-only, raw 8N1 at a fixed speed.
enum SerialLine {
    /// Opens `path` and sets the line; the descriptor, or the call that failed and its errno.
    ///
    /// `O_NONBLOCK` keeps both the open (no wait for carrier) and every write from blocking;
    /// `O_NOCTTY` keeps the kiosk from acquiring the console as its controlling terminal.
    static func open(_ path: String, baud: BaudRate) -> Result<Int32, SystemCallError> {
        let fd: Int32
        switch systemCall({ Glibc.open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) }) {
        case .success(let opened): fd = opened
        case .failure(let error): return .failure(SystemCallError(call: "open", errno: error))
        }
        if let failure = configure(fd, baud: baud) {
            close(fd)
            return .failure(failure)
        }
        return .success(fd)
    }

    /// Raw 8N1 without flow control: the kiosk writes finished lines, ending them with CRLF itself,
    /// so the kernel must not translate, pause on XOFF, or wait for CTS or carrier.
    static func configure(_ fd: Int32, baud: BaudRate) -> SystemCallError? {
        var settings = termios()
        if case .failure(let error) = systemCall({ tcgetattr(fd, &settings) }) { return SystemCallError(call: "tcgetattr", errno: error) }
        cfmakeraw(&settings)
        settings.c_cflag &= ~tcflag_t(truncatingIfNeeded: PARENB | CSTOPB | CSIZE)
        settings.c_cflag &= ~tcflag_t(truncatingIfNeeded: CRTSCTS)
        settings.c_cflag |= tcflag_t(truncatingIfNeeded: CS8 | CLOCAL | CREAD)
        settings.c_iflag &= ~tcflag_t(truncatingIfNeeded: IXON | IXOFF | IXANY)
        settings.c_oflag &= ~tcflag_t(truncatingIfNeeded: OPOST)
        if case .failure(let error) = systemCall({ cfsetospeed(&settings, baud.speed) }) { return SystemCallError(call: "cfsetospeed", errno: error) }
        if case .failure(let error) = systemCall({ cfsetispeed(&settings, baud.speed) }) { return SystemCallError(call: "cfsetispeed", errno: error) }
        if case .failure(let error) = systemCall({ tcsetattr(fd, TCSANOW, &settings) }) { return SystemCallError(call: "tcsetattr", errno: error) }
        return nil
    }

    /// Writes to a descriptor opened `O_NONBLOCK`: EAGAIN means full, nothing else waits.
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> LineRing.WriteResult {
        switch systemCall({ Glibc.write(fd, bytes.baseAddress, bytes.count) }) {
        case .success(let written): .wrote(written)
        case .failure(let error) where error == .wouldBlock: .wouldBlock
        case .failure(let error): .failed(error)
        }
    }

    /// True when poll says the device hung up or errored: a USB adapter pulled out with nothing queued.
    static func hasHungUp(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: 0, revents: 0)
        guard case .success(let ready) = systemCall({ poll(&entry, 1, 0) }), ready > 0 else { return false }
        return Int32(entry.revents) & (POLLHUP | POLLERR | POLLNVAL) != 0
    }
}
