import Foundation
import Testing
@testable import MQTT

/// The broker's address is found without blocking: an address at once, a name through
/// getaddrinfo_a, asked after until it answers.
@Suite struct NameLookupTests {
    @Test func anAddressIsTakenAsItIs() {
        #expect(NameLookup(host: "127.0.0.1", port: 1883).poll() == .address("127.0.0.1"))
        #expect(NameLookup(host: "::1", port: 1883).poll() == .address("::1"))
    }

    @Test func aNameIsLookedUpInTheBackground() throws {
        let lookup = NameLookup(host: "localhost", port: 1883)
        let end = Date().addingTimeInterval(10)
        var outcome = lookup.poll()
        while outcome == nil, Date() < end {
            var none = pollfd()
            _ = poll(&none, 0, 5)
            outcome = lookup.poll()
        }
        let found = try #require(outcome)
        #expect(found == .address("127.0.0.1") || found == .address("::1"), "\(found)")
    }
}
