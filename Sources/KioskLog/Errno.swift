import Glibc

/// A failed system call's `errno`, named by `strerror` when printed.
public struct Errno: RawRepresentable, Error, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public var description: String { String(cString: strerror(rawValue)) }

    /// `EAGAIN`: the descriptor is non-blocking and full.
    static let wouldBlock = Errno(rawValue: EAGAIN)
}
