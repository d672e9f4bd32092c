import KioskCore

/// The life of kiosk's connection to its broker, as a state machine in swift-nio's style: events
/// in (the loop's time, the name lookup's outcome, the broker's CONNACK, a lost socket, Home
/// Assistant's birth message), actions out for the caller (MQTTExtension) to carry out with
/// libmosquitto. It reads no clock and touches no socket, so every path through it (connect,
/// backoff, timeouts, the will, the discovery re-send) is tested on a virtual clock.
///
/// waiting(until) ─tick─► resolving ─address─► connecting ─CONNACK 0─► connected
///     ▲                     │ failed, timeout     │ refused, error, timeout   │ lost
///     └─────────────────────┴─────────────────────┴───────────────────────────┘  (after the backoff)
public struct MQTTConnection: Sendable {
    public enum State: Equatable, Sendable {
        /// Waiting to try (again) at the moment given.
        case waiting(until: Instant)
        /// The broker's name is being looked up (off the loop); looked at again at `check`.
        case resolving(since: Instant, check: Instant)
        /// libmosquitto's connect is under way; no CONNACK yet.
        case connecting(since: Instant)
        /// CONNACK accepted; libmosquitto's keepalive bookkeeping is due at `nextMisc`.
        case connected(nextMisc: Instant)
        /// The loop ended: nothing more is tried.
        case stopped
    }

    /// What the broker says for kiosk when the connection dies without a word: a retained
    /// `offline` on the availability topic.
    public struct Will: Equatable, Sendable {
        public var topic: String
        public var payload: String
        public var retain: Bool
        public init(topic: String, payload: String = "offline", retain: Bool = true) {
            self.topic = topic
            self.payload = payload
            self.retain = retain
        }
    }

    /// The name lookup's outcome.
    public enum Lookup: Equatable, Sendable {
        case address(String)
        case failed(String)
    }

    public enum Action: Equatable, Sendable {
        case none
        /// Start looking the broker's name up.
        case lookUp
        /// Set `will`, then connect to `address` without blocking.
        case connect(address: String, will: Will)
        /// Connecting failed: say why and when it is tried again; with `disconnect`, drop the
        /// half-open connection first.
        case retry(reason: String, after: Double, disconnect: Bool)
        /// A connection that was up is gone: say why and when it is tried again.
        case reconnect(reason: String, after: Double)
        /// CONNACK accepted: subscribe, say `online`, bring the broker's retained messages in
        /// line with the config (discovery when `discovery`), send every state.
        case announce(discovery: Bool)
        /// Home Assistant (re)started: every discovery config again.
        case sendDiscovery
        /// libmosquitto's keepalive bookkeeping (`mosquitto_loop_misc`).
        case keepAlive
        /// The loop ends while connected: say `offline` (a clean DISCONNECT keeps the will back), disconnect.
        case goOffline
    }

    public static let firstBackoff = 0.5
    public static let maximumBackoff = 30.0
    /// A connect (or a lookup) that has not finished by then is given up and tried again.
    public static let connectTimeout = 10.0
    /// How often libmosquitto's keepalive bookkeeping runs while connected.
    public static let miscInterval = 5.0
    /// How often a running lookup is looked at.
    public static let lookupInterval = 0.02

    public private(set) var state: State
    /// The wait before the next attempt: 0.5 s, doubled after each failure up to 30 s; back to
    /// 0.5 s once connected.
    public private(set) var backoff = firstBackoff
    public let will: Will
    /// Whether Home Assistant's discovery is sent (`[mqtt] discovery`; a reload may change it).
    public var discovery: Bool
    /// The broker's reason for refusing the last CONNACK, said when the disconnect that follows comes.
    private var refusal: String?

    /// The first attempt is at `now`.
    public init(will: Will, discovery: Bool, now: Instant) {
        self.will = will
        self.discovery = discovery
        state = .waiting(until: now)
    }

    public var isConnected: Bool { if case .connected = state { true } else { false } }

    /// When the machine wants `tick` without any other event.
    public var nextDeadline: Instant? {
        switch state {
        case .waiting(let until): until
        case .resolving(let since, let check): min(check, since.adding(seconds: Self.connectTimeout))
        case .connecting(let since): since.adding(seconds: Self.connectTimeout)
        case .connected(let nextMisc): nextMisc
        case .stopped: nil
        }
    }

    /// Time passed: a wait over, a lookup or connect taking too long, keepalive due.
    public mutating func tick(now: Instant) -> Action {
        switch state {
        case .waiting(let until) where now >= until:
            state = .resolving(since: now, check: now)
            return .lookUp
        case .resolving(let since, _):
            if now.seconds(since: since) >= Self.connectTimeout {
                return retry("the name lookup took over \(Int(Self.connectTimeout)) s", now: now, disconnect: false)
            }
            state = .resolving(since: since, check: now.adding(seconds: Self.lookupInterval))
            return .none
        case .connecting(let since) where now.seconds(since: since) >= Self.connectTimeout:
            return retry("no answer from the broker within \(Int(Self.connectTimeout)) s", now: now, disconnect: true)
        case .connected(let nextMisc) where now >= nextMisc:
            state = .connected(nextMisc: now.adding(seconds: Self.miscInterval))
            return .keepAlive
        default:
            return .none
        }
    }

    /// The lookup finished.
    public mutating func lookedUp(_ outcome: Lookup, now: Instant) -> Action {
        guard case .resolving = state else { return .none }
        switch outcome {
        case .address(let address):
            state = .connecting(since: now)
            return .connect(address: address, will: will)
        case .failed(let why):
            return retry(why, now: now, disconnect: false)
        }
    }

    /// Starting the connect failed, or the socket failed before any CONNACK.
    public mutating func connectFailed(_ why: String, now: Instant) -> Action {
        switch state {
        case .connecting, .resolving: retry(why, now: now, disconnect: true)
        default: .none
        }
    }

    /// CONNACK. Accepted: connected; refused: the reason is kept for the disconnect that follows.
    public mutating func connack(refusal reason: String?, now: Instant) -> Action {
        guard case .connecting = state else { return .none }
        if let reason {
            refusal = reason
            return .none
        }
        refusal = nil
        backoff = Self.firstBackoff
        state = .connected(nextMisc: now.adding(seconds: Self.miscInterval))
        return .announce(discovery: discovery)
    }

    /// The connection closed or failed (the broker, the network, a read or write refused).
    public mutating func lost(_ why: String, now: Instant) -> Action {
        switch state {
        case .connected:
            let after = backoff
            state = .waiting(until: now.adding(seconds: after))
            backoff = min(backoff * 2, Self.maximumBackoff)
            return .reconnect(reason: why, after: after)
        case .connecting:
            let reason = refusal.map { "the broker refused: \($0)" } ?? why
            refusal = nil
            return retry(reason, now: now, disconnect: false)
        default:
            return .none
        }
    }

    /// A message on Home Assistant's status topic: its birth message (`online`) asks for discovery again.
    public mutating func homeAssistantStatus(online: Bool) -> Action {
        isConnected && discovery && online ? .sendDiscovery : .none
    }

    /// The loop ends.
    public mutating func stop() -> Action {
        let was = isConnected
        state = .stopped
        return was ? .goOffline : .none
    }

    private mutating func retry(_ why: String, now: Instant, disconnect: Bool) -> Action {
        let after = backoff
        state = .waiting(until: now.adding(seconds: after))
        backoff = min(backoff * 2, Self.maximumBackoff)
        return .retry(reason: why, after: after, disconnect: disconnect)
    }
}
