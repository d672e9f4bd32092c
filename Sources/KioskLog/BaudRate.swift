import Glibc

/// A serial line speed the kernel's termios supports, from 1200 to 921600 bit/s (`B1200` … `B921600`).
public struct BaudRate: Sendable, Hashable, CustomStringConvertible {
    public let bitsPerSecond: Int
    /// The termios `speed_t` constant, such as `B115200`.
    let speed: speed_t

    /// The rates a Raspberry Pi's UARTs and common USB serial adapters run at; termios has
    /// constants for a few more, but nothing the kiosk should be configured with.
    static let supported: [(bitsPerSecond: Int, speed: Int32)] = [
        (1200, B1200), (1800, B1800), (2400, B2400), (4800, B4800), (9600, B9600), (19_200, B19200),
        (38_400, B38400), (57_600, B57600), (115_200, B115200), (230_400, B230400), (460_800, B460800),
        (500_000, B500000), (576_000, B576000), (921_600, B921600),
    ]

    /// Throws, naming the rate and the supported ones, for a rate termios has no constant for.
    public init(_ bitsPerSecond: Int) throws(LogSinkError) {
        guard let entry = Self.supported.first(where: { $0.bitsPerSecond == bitsPerSecond }) else {
            let list = Self.supported.map { String($0.bitsPerSecond) }.joined(separator: ", ")
            throw LogSinkError("unsupported baud rate \(bitsPerSecond); use one of \(list)")
        }
        self.bitsPerSecond = bitsPerSecond
        self.speed = speed_t(entry.speed)
    }

    public static let standard = try! BaudRate(115_200)

    public var description: String { String(bitsPerSecond) }
}
