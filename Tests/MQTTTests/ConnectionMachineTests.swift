import KioskCore
import KioskTestSupport
import MQTTProtocol
import Testing

/// The connection's state machine on a virtual clock, no broker: connect, backoff, timeouts, the
/// will and the discovery re-send, each as the events and actions MQTTExtension carries out.
@Suite struct ConnectionMachineTests {
    let clock = VirtualClock()
    let will = MQTTConnection.Will(topic: "kiosk/test/availability")

    func machine(discovery: Bool = true) -> MQTTConnection { MQTTConnection(will: will, discovery: discovery, now: clock.now) }

    func advance(_ seconds: Double) { clock.now = clock.now.adding(seconds: seconds) }

    /// Up to the CONNACK: a lookup, then a connect that carries the will.
    func connect(_ m: inout MQTTConnection) {
        #expect(m.tick(now: clock.now) == .lookUp)
        #expect(m.lookedUp(.address("127.0.0.1"), now: clock.now) == .connect(address: "127.0.0.1", will: will))
        #expect(m.connack(refusal: nil, now: clock.now) == .announce(discovery: m.discovery))
    }

    @Test func theFirstAttemptIsAtOnceAndEveryConnectCarriesTheWill() {
        var m = machine()
        #expect(m.nextDeadline == clock.now)
        #expect(m.tick(now: clock.now) == .lookUp)
        let action = m.lookedUp(.address("10.0.0.2"), now: clock.now)
        #expect(action == .connect(address: "10.0.0.2", will: MQTTConnection.Will(topic: "kiosk/test/availability", payload: "offline", retain: true)))
        #expect(m.connack(refusal: nil, now: clock.now) == .announce(discovery: true))
        #expect(m.isConnected)
    }

    /// Each failure waits twice as long as the one before, up to 30 s; a connection resets it.
    @Test func backoffDoublesToItsCeilingAndAConnectionResetsIt() {
        var m = machine()
        var waits: [Double] = []
        for _ in 0..<9 {
            #expect(m.tick(now: clock.now) == .lookUp)
            guard case .retry(_, let after, _) = m.lookedUp(.failed("no such host"), now: clock.now) else {
                Issue.record("a failed lookup is retried")
                return
            }
            waits.append(after)
            #expect(m.tick(now: clock.now.adding(seconds: after - 0.001)) == .none, "nothing before the wait is over")
            #expect(m.nextDeadline == clock.now.adding(seconds: after))
            advance(after)
        }
        #expect(waits == [0.5, 1, 2, 4, 8, 16, 30, 30, 30])
        connect(&m)
        #expect(m.backoff == MQTTConnection.firstBackoff)
        #expect(m.lost("reset", now: clock.now) == .reconnect(reason: "reset", after: 0.5))
    }

    @Test func aLookupOrAConnectThatHangsIsGivenUpAfterTenSeconds() {
        var m = machine()
        #expect(m.tick(now: clock.now) == .lookUp)
        // The lookup is looked at every 20 ms, then given up.
        #expect(m.nextDeadline == clock.now)
        advance(0.01)
        #expect(m.tick(now: clock.now) == .none)
        #expect(m.nextDeadline == clock.now.adding(seconds: MQTTConnection.lookupInterval))
        advance(10)
        #expect(m.tick(now: clock.now) == .retry(reason: "the name lookup took over 10 s", after: 0.5, disconnect: false))
        advance(0.5)
        #expect(m.tick(now: clock.now) == .lookUp)
        _ = m.lookedUp(.address("127.0.0.1"), now: clock.now)
        #expect(m.nextDeadline == clock.now.adding(seconds: 10))
        advance(9.9)
        #expect(m.tick(now: clock.now) == .none)
        advance(0.1)
        #expect(m.tick(now: clock.now) == .retry(reason: "no answer from the broker within 10 s", after: 1, disconnect: true))
    }

    /// A refused CONNACK is followed by the broker's disconnect: the retry names the refusal.
    @Test func aRefusalIsSaidWhenTheDisconnectComes() {
        var m = machine()
        _ = m.tick(now: clock.now)
        _ = m.lookedUp(.address("127.0.0.1"), now: clock.now)
        #expect(m.connack(refusal: "not authorised", now: clock.now) == .none)
        #expect(!m.isConnected)
        #expect(m.lost("the broker closed the connection (7)", now: clock.now)
            == .retry(reason: "the broker refused: not authorised", after: 0.5, disconnect: false))
        #expect(m.connectFailed("late", now: clock.now) == .none, "nothing is tried twice")
    }

    @Test func keepaliveBookkeepingRunsEveryFiveSecondsWhileConnected() {
        var m = machine()
        connect(&m)
        #expect(m.nextDeadline == clock.now.adding(seconds: 5))
        advance(4.9)
        #expect(m.tick(now: clock.now) == .none)
        advance(0.1)
        #expect(m.tick(now: clock.now) == .keepAlive)
        #expect(m.nextDeadline == clock.now.adding(seconds: 5))
    }

    /// Home Assistant's birth message asks for discovery again, only while connected and with
    /// discovery on; a reload that turns discovery off stops it.
    @Test func homeAssistantsBirthResendsDiscovery() {
        var m = machine()
        #expect(m.homeAssistantStatus(online: true) == .none, "not connected yet")
        connect(&m)
        #expect(m.homeAssistantStatus(online: true) == .sendDiscovery)
        #expect(m.homeAssistantStatus(online: false) == .none, "its last will")
        m.discovery = false
        #expect(m.homeAssistantStatus(online: true) == .none)
        #expect(m.lost("gone", now: clock.now) == .reconnect(reason: "gone", after: 0.5))
        advance(0.5)
        #expect(m.tick(now: clock.now) == .lookUp)
        _ = m.lookedUp(.address("127.0.0.1"), now: clock.now)
        #expect(m.connack(refusal: nil, now: clock.now) == .announce(discovery: false))
    }

    /// Stopped while connected: `offline` said plainly (the will is kept back by a clean
    /// disconnect); the disconnect's callback is then no lost connection, and nothing is tried again.
    @Test func stoppingSaysOfflineOnceAndTriesNothingMore() {
        var m = machine()
        connect(&m)
        #expect(m.stop() == .goOffline)
        #expect(m.lost("the broker closed the connection (0)", now: clock.now) == .none)
        #expect(m.nextDeadline == nil)
        advance(60)
        #expect(m.tick(now: clock.now) == .none)
        var idle = machine()
        #expect(idle.stop() == .none, "nothing to say when not connected")
    }
}
