import CNameLookup
import MQTTProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The broker's address, found without blocking the loop: an address is taken as it is
/// (`AI_NUMERICHOST`, which never asks a name server); a name goes to glibc's `getaddrinfo_a`
/// (CNameLookup), and the loop asks whether it has finished. glibc answers that request on a
/// helper thread of its own; kiosk starts none.
final class NameLookup {
    typealias Outcome = MQTTConnection.Lookup

    private var lookup: OpaquePointer?
    private let host: String
    /// Known at once (an address, or a lookup that could not start), or once finished.
    private var outcome: Outcome?

    init(host: String, port: Int) {
        self.host = host
        if let address = Self.numeric(host) {
            outcome = .address(address)
            return
        }
        let rc = kiosk_lookup_start(host, Int32(port), &lookup)
        if rc != 0 { outcome = .failed("cannot look up '\(host)': \(Self.reason(rc))") }
    }

    deinit { kiosk_lookup_free(lookup) }

    /// The outcome once known; nil while the name server has not answered.
    func poll() -> Outcome? {
        if let outcome { return outcome }
        guard let lookup else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let rc = kiosk_lookup_poll(lookup, &buffer, UInt32(buffer.count))
        if rc > 0 { return nil }
        let found: Outcome = rc == 0 ? .address(Self.text(buffer)) : .failed("cannot look up '\(host)': \(Self.reason(rc))")
        outcome = found
        return found
    }

    /// `host` as an address when it is one (never a lookup).
    static func numeric(_ host: String) -> String? {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let result else { return nil }
        defer { freeaddrinfo(result) }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(result.pointee.ai_addr, result.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else {
            return nil
        }
        return text(buffer)
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func reason(_ code: Int32) -> String { String(cString: kiosk_lookup_error(code)) }
}
