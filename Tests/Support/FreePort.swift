import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 that nothing listens on now (the kernel picks it), for a broker a test starts.
public func freeLocalPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard ok else { throw FreePortError(description: "no free port: \(String(cString: strerror(errno)))") }
    return Int(UInt16(bigEndian: address.sin_port))
}

public struct FreePortError: Error, CustomStringConvertible {
    public var description: String
}

/// True when every program in `paths` is there to run. Under CI (`CI` set) a missing one is not a
/// reason to skip: the test runs and fails, so a CI machine without it cannot pass by skipping.
public func toolsPresent(_ paths: [String]) -> Bool {
    ProcessInfo.processInfo.environment["CI"] != nil || paths.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
}
