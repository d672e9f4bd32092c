import KioskCore
import KioskLog
import MQTTProtocol
#if canImport(Glibc)
import Glibc
#endif

// The connection's actions (MQTTConnection says what, this does it with libmosquitto), and
// libmosquitto's socket and callbacks turned into the machine's events.
extension MQTTExtension {

    func perform(_ action: MQTTConnection.Action, now: Instant) {
        switch action {
        case .none:
            break
        case .lookUp:
            let l = NameLookup(host: settings.broker.host, port: settings.broker.port)
            lookup = l
            // An address is known at once: no wake-up spent waiting for it.
            if let outcome = l.poll() {
                lookup = nil
                perform(machine.lookedUp(outcome, now: now), now: now)
            }
        case .connect(let address, let will):
            startConnect(address, will: will, now: now)
        case .retry(let reason, let after, let disconnect):
            lookup = nil
            if disconnect { client.disconnect() }
            log.warning("mqtt: cannot connect to the broker; trying again", metadata: [
                "mqtt.broker": "\(settings.broker)", "mqtt.error": "\(reason)", "mqtt.retry.s": "\(fixedDecimal(after, 1))",
            ])
        case .reconnect(let reason, let after):
            counters.connectionsLost += 1
            log.warning("mqtt: connection lost; reconnecting", metadata: [
                "mqtt.broker": "\(settings.broker)", "mqtt.error": "\(reason)", "mqtt.retry.s": "\(fixedDecimal(after, 1))",
            ])
        case .announce(let discovery):
            announce(discovery: discovery)
        case .sendDiscovery:
            discoveryWanted = .all
        case .keepAlive:
            do { try client.misc() } catch { lost("\(error)") }
        case .goOffline:
            goOffline()
        }
    }

    private func startConnect(_ address: String, will: MQTTConnection.Will, now: Instant) {
        do {
            try client.setWill(topic: will.topic, payload: will.payload, retain: will.retain)
            if let user = settings.username {
                if let file = settings.passwordFile {
                    // Read at each connect, so a changed password is taken without a restart.
                    let text = try? TextFile.readText(file, what: "the MQTT password file", limit: 4096)
                    password = text.map { String($0.split(separator: "\n", omittingEmptySubsequences: false).first ?? "") }
                }
                try client.setCredentials(username: user, password: password)
            }
            // TLS checks the certificate against the name, so libmosquitto is given the name (and
            // looks it up again itself); in the clear it gets the address we found.
            let host = settings.broker.tls ? settings.broker.host : address
            try client.connect(host: host, port: settings.broker.port, keepalive: Self.keepaliveSeconds)
        } catch {
            perform(machine.connectFailed("\(error)", now: now), now: now)
        }
    }

    /// CONNACK, from inside `read()`.
    func connack(_ rc: Int32) {
        perform(machine.connack(refusal: rc == 0 ? nil : MosquittoClient.connackReason(rc), now: lastNow), now: lastNow)
    }

    /// CONNACK accepted: subscriptions, availability, then the retained set and every state.
    private func announce(discovery: Bool) {
        counters.connects += 1
        queued = 0
        log.info("mqtt: connected", metadata: ["mqtt.broker": "\(settings.broker)", "mqtt.topic_prefix": "\(topics.prefix)"])
        do {
            try client.subscribe(topics.commandFilter, qos: 1)
            try client.subscribe(topics.labelCommandFilter, qos: 1)
            if discovery { try client.subscribe(topics.homeAssistantStatus, qos: 1) }
        } catch {
            log.warning("mqtt: subscribing failed", metadata: ["mqtt.error": "\(error)"])
        }
        send(topics.availability, "online", qos: 1, retain: true)
        discoveryWanted = discovery ? .all : .none
        retainedOutOfLine = true
        diagnosticsDue = true
        // Every state again: what changed while disconnected, and whatever the broker lost.
        for i in controls.indices {
            controls[i].published = nil
            controls[i].publishedLabel = nil
        }
        resendDisplay()
    }

    /// The connection ended or failed; from a callback or a failed call.
    func lost(_ why: String) {
        perform(machine.lost(why, now: lastNow), now: lastNow)
    }

    /// Says `offline` itself (a clean DISCONNECT keeps the will from being sent), waits a little
    /// for it to be written, and disconnects.
    func goOffline() {
        send(topics.availability, "offline", qos: 1, retain: true)
        var waited = 0
        while client.wantsWrite, waited < 20 {
            var fd = pollfd(fd: client.socket, events: Int16(POLLOUT), revents: 0)
            _ = Glibc.poll(&fd, 1, 10)
            do { try client.write() } catch { break }
            waited += 1
        }
        // The machine is stopped first: the disconnect callback, which comes from inside
        // disconnect(), is then no lost connection.
        client.disconnect()
    }

    func serveSocket(_ ready: UnsafeBufferPointer<pollfd>, now: Instant) {
        let fd = client.socket
        guard fd >= 0 else {
            lost("no socket")
            return
        }
        var events: Int16 = 0
        for p in ready where p.fd == fd { events |= p.revents }
        if case .connecting = machine.state, events & Int16(POLLERR | POLLHUP) != 0 {
            // The TCP connect failed (refused, unreachable). libmosquitto does not always say so
            // while a TLS handshake waits on the socket; the socket's own error does.
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
            let why = code != 0 ? "\(Errno(rawValue: code))" : "the connection was closed"
            perform(machine.connectFailed("connecting to \(settings.broker.host):\(settings.broker.port): \(why)", now: now), now: now)
            return
        }
        do {
            if events & Int16(POLLIN | POLLERR | POLLHUP) != 0 { try client.read() }
            if client.socket >= 0, client.wantsWrite, events & Int16(POLLOUT | POLLERR) != 0 { try client.write() }
        } catch {
            lost("\(error)")
            return
        }
        if !client.wantsWrite { queued = 0 }
    }

    func send(_ topic: String, _ payload: String, qos: Int32 = 0, retain: Bool) {
        send(topic, bytes: Array(payload.utf8), qos: qos, retain: retain)
    }

    func send(_ topic: String, bytes payload: [UInt8], qos: Int32 = 0, retain: Bool) {
        do {
            try client.publish(topic, bytes: payload, qos: qos, retain: retain)
            counters.published += 1
            queued += 1
            if !client.wantsWrite { queued = 0 }
        } catch {
            lost("\(error)")
        }
    }
}
