import ControlProtocol
import KioskConfig
import KioskCore
import KioskLog
import Runtime
import Scene
#if canImport(Glibc)
import Glibc
#endif

/// The control socket (`[control] socket`): JSON Lines over a Unix stream socket, the shape of
/// mpv's JSON IPC and sway's IPC. Requests carry an optional `id`, echoed in the reply; events
/// are pushed after a `subscribe`.
///
/// Served from the loop's one `poll()`: every descriptor non-blocking, every queue bounded. A
/// client that does not read loses lines (counted) and is disconnected; the loop never waits.
public final class ControlSocket: LoopExtension {
    public let path: String
    public private(set) var settings: ControlSettings
    /// The listening socket; nil once stopped (closed then, and only then).
    private var listenerFile: FileDescriptor?
    private var listener: Int32 { listenerFile?.rawValue ?? -1 }
    private var clients: [ControlClient] = []
    private var log: Logger
    /// Events' `t` counts from here: the moment kiosk opened the socket.
    private let origin: Instant
    private var connections = 0
    /// After accept() failed (EMFILE and the like) the listener is left alone until then: its
    /// waiting client would wake every poll() at once, a spin.
    private var acceptPausedUntil: Instant?
    static let acceptPauseSeconds = 1.0
    /// Clients disconnected because they did not read, and the lines they lost.
    public private(set) var slowDisconnects = 0
    public private(set) var droppedLines = 0
    /// The display as last said to subscribers, its last touch left out (a touch is no display event).
    private var displaySaid: DisplayStatus?

    /// For the stats line, `control=CLIENTS/DROPPED`: clients now, and the lines slow ones lost.
    public var statsFields: [(String, String)] { [("control", "\(clients.count)/\(droppedLines)")] }

    /// Listens at `settings.socket` (which must not be nil), mode 0660: the kiosk user and its group.
    public init(settings: ControlSettings, logger: Logger, now: Instant) throws(SocketError) {
        let path = settings.socket ?? ControlSettings.defaultSocket
        self.path = path
        self.settings = settings
        log = logger
        origin = now
        listenerFile = FileDescriptor(owning: try UnixSocket.listen(path: path, mode: 0o660, backlog: 16))
        log.info("control socket listening", metadata: ["control.socket": "\(path)"])
    }

    deinit {
        clients.removeAll()
    }

    /// Clients connected now.
    public var clientCount: Int { clients.count }

    public func appendPollDescriptors(to fds: inout [pollfd]) {
        if acceptPausedUntil == nil, listenerFile != nil { fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
        for c in clients {
            var events: Int16 = 0
            if !c.readClosed { events |= Int16(POLLIN) }
            if c.hasOutput { events |= Int16(POLLOUT) }
            fds.append(pollfd(fd: c.fd, events: events, revents: 0))
        }
    }

    public func service(_ ready: UnsafeBufferPointer<pollfd>, now: Instant, target: CommandTarget) {
        if let until = acceptPausedUntil, now >= until { acceptPausedUntil = nil }
        for p in ready where p.revents != 0 {
            if p.fd == listener {
                acceptClients(now: now)
            } else if let c = clients.first(where: { $0.fd == p.fd }) {
                if p.revents & Int16(POLLOUT) != 0 { c.flush() }
                if p.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    c.read(limit: ControlRequest.maximumLineBytes, line: { handle($0, from: c, target: target, now: now) },
                           tooLong: { c.send(ControlReply.error(nil, "request longer than \(ControlRequest.maximumLineBytes) bytes")) })
                }
            }
        }
        flushAndReap()
    }

    /// Soon, when a client is to be closed: one that overflowed may never be writable again.
    public var nextDeadline: Instant? {
        clients.contains { $0.isFinished } ? origin : acceptPausedUntil
    }

    public func publish(_ events: ArraySlice<SceneEvent>, source: ChangeSource, scene: KioskScene, now: Instant) {
        guard clients.contains(where: { !$0.subscriptions.isEmpty }) else { return }
        for e in events {
            // A line is built only when someone asked for its kind (a drag makes a gesture event a frame).
            let kind: ControlRequest.EventKind = if case .gesture = e { .gesture } else { .control }
            if clients.contains(where: { $0.subscriptions.contains(kind) }) {
                let line = ControlEvents.line(e, source: source, origin: origin).1
                for c in clients where c.subscriptions.contains(kind) { c.send(line) }
            }
            if let state = ControlEvents.stateLine(e, source: source, scene: scene, origin: origin) {
                for c in clients where c.subscriptions.contains(.state) { c.send(state) }
            }
        }
        for c in clients where c.hasOutput { c.flush() }
    }

    /// A reload: `max_clients` and `client_queue` are taken at once (clients over the new
    /// maximum stay; a queue already longer than the new bound is written out, then held to it).
    /// Another path is a restart key (the socket turned off is the loop's to name).
    public func reconfigure(old: KioskConfiguration, new: KioskConfiguration, scene: KioskScene, now: Instant) -> [String] {
        settings.maximumClients = new.control.maximumClients
        settings.clientQueueLines = new.control.clientQueueLines
        for c in clients { c.capacity = settings.clientQueueLines }
        return new.control.restartKeys(listeningAt: path)
    }

    public func stop(now: Instant) {
        for c in clients { c.flush() }
        clients.removeAll()
        listenerFile = nil
        unlink(path)
    }

    // MARK: Requests

    private func handle(_ line: ArraySlice<UInt8>, from c: ControlClient, target: CommandTarget, now: Instant) {
        if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return }
        let request: ControlRequest
        do {
            request = try ControlRequest.parse(line)
        } catch {
            log.debug("control request refused", metadata: ["control.client": "\(c.number)", "control.error": "\(error.message)"])
            c.send(ControlReply.error(error.id, error.message))
            return
        }
        switch request.command {
        case .getState:
            // `kiosk replay --state`'s object, on one line.
            let state = SceneReport.state(of: target.scene).split(separator: "\n").map { $0.drop { $0 == " " } }.joined()
            c.send(ControlReply.ok(request.id, keys: [("state", state), ("display", ControlEvents.display(target.displayStatus))]))
        case .subscribe(let kinds):
            c.subscriptions = kinds
            let names = kinds.sorted().map { JSONString.quoted($0.rawValue) }.joined(separator: ", ")
            c.send(ControlReply.ok(request.id, ("events", "[\(names)]")))
        case .unsubscribe:
            c.subscriptions = []
            c.send(ControlReply.ok(request.id))
        case .setValue(let view, let value):
            submit(.setValue(view: view, value), request, c, target)
        case .setOn(let view, let on):
            submit(.setOn(view: view, on), request, c, target)
        case .setLabel(let view, let label):
            submit(.setLabel(view: view, label), request, c, target)
            if c.held { c.waitingLabel = view }
        case .tap(let p):
            submit(.tap(p), request, c, target)
        case .swipe(let a, let b, let seconds):
            submit(.swipe(from: a, to: b, seconds: seconds), request, c, target)
        case .setDisplay(let on, let brightness, let blankAfter):
            submitDisplay(on: on, brightness: brightness, blankAfter: blankAfter, request, c, target)
        case .wake:
            submit(.wake, request, c, target)
        case .screenshot:
            submit(.screenshot, request, c, target)
            if c.held { c.waitingScreenshot = true }
        }
    }

    /// Queues the command with the loop; the client's next lines wait for its reply (`completed`).
    private func submit(_ command: RemoteCommand, _ request: ControlRequest, _ c: ControlClient, _ target: CommandTarget) {
        guard target.submit(command, source: .socket, requester: self, ticket: c.number) else {
            c.send(ControlReply.error(request.id, "kiosk is busy: too many commands are waiting; try again"))
            return
        }
        c.held = true
        c.waitingID = request.id
    }

    /// The display's `set`: `blank_after` and on/brightness are two commands to the loop, applied
    /// in order; the reply is the last one's (a refused `blank_after` is said and the rest not sent).
    private func submitDisplay(on: Bool?, brightness: Double?, blankAfter: Double?, _ request: ControlRequest, _ c: ControlClient, _ target: CommandTarget) {
        guard on != nil || brightness != nil else { return submit(.setBlankAfter(blankAfter ?? 0), request, c, target) }
        if let blankAfter {
            guard blankAfter.isFinite, blankAfter >= 0, blankAfter <= 86_400 else {
                c.send(ControlReply.error(request.id, "blank_after \(blankAfter) is out of range; expected seconds from 0 (never) to 86400"))
                return
            }
            guard target.submit(.setBlankAfter(blankAfter), source: .socket, requester: self, ticket: -c.number) else {
                c.send(ControlReply.error(request.id, "kiosk is busy: too many commands are waiting; try again"))
                return
            }
        }
        submit(.setDisplay(on: on, brightness: brightness), request, c, target)
    }

    /// The display's on/off, brightness or `blank_after` changed: a `display` line to the clients
    /// subscribed to `state` (not for a touch alone: that is the touch's events).
    public func displayChanged(_ status: DisplayStatus, now: Instant) {
        var said = status
        said.lastTouch = nil
        guard said != displaySaid else { return }
        displaySaid = said
        guard clients.contains(where: { $0.subscriptions.contains(.state) }) else { return }
        var o = JSONObject()
        o.add("event", "display")
        o.add(contentsOf: ControlEvents.displayFields(status))
        o.add("t", now.seconds(since: origin), digits: 3)
        o.add("source", status.cause.rawValue)
        let line = o.json
        for c in clients where c.subscriptions.contains(.state) {
            c.send(line)
            c.flush()
        }
    }

    /// The loop applied a client's command: its reply, then the client's lines that waited.
    public func completed(ticket: Int, result: Result<Void, RemoteCommandError>, target: CommandTarget, now: Instant) {
        guard let c = clients.first(where: { $0.number == ticket }), c.held else { return }
        // Taken: the reply (and the client's next lines) wait for the picture (`screenshotTaken`).
        if c.waitingScreenshot, case .success = result { return }
        c.waitingScreenshot = false
        let id = c.waitingID, label = c.waitingLabel
        c.held = false
        c.waitingID = nil
        c.waitingLabel = nil
        switch result {
        case .success:
            c.send(ControlReply.ok(id))
            if let view = label, let state = ControlEvents.stateLine(view, scene: target.scene, time: now, source: .socket, origin: origin) {
                // A label is no control event: its state line is said here.
                for other in clients where other.subscriptions.contains(.state) { other.send(state) }
            }
        case .failure(let e):
            c.send(ControlReply.error(id, e.message))
        }
        c.drain(limit: ControlRequest.maximumLineBytes, line: { handle($0, from: c, target: target, now: now) },
                tooLong: { c.send(ControlReply.error(nil, "request longer than \(ControlRequest.maximumLineBytes) bytes")) })
        if c.hasOutput, !c.overflowed { c.flush() }
    }

    /// The picture the clients that asked for a screenshot wait for: their replies, then their
    /// lines that waited.
    public func screenshotTaken(_ result: Result<Screenshot, ScreenshotError>, target: CommandTarget, now: Instant) {
        for c in clients where c.held && c.waitingScreenshot {
            let id = c.waitingID
            c.held = false
            c.waitingID = nil
            c.waitingScreenshot = false
            switch result {
            case .success(let s): c.send(ControlReply.screenshot(id, png: s.png, width: s.width, height: s.height))
            case .failure(let e): c.send(ControlReply.error(id, "screenshot failed: \(e.message)"))
            }
            c.drain(limit: ControlRequest.maximumLineBytes, line: { handle($0, from: c, target: target, now: now) },
                    tooLong: { c.send(ControlReply.error(nil, "request longer than \(ControlRequest.maximumLineBytes) bytes")) })
            if c.hasOutput, !c.overflowed { c.flush() }
        }
    }

    // MARK: Clients

    private func acceptClients(now: Instant) {
        while true {
            let fd: Int32?
            do {
                fd = try UnixSocket.accept(listener, path: path)
            } catch {
                // EMFILE and the like: the client waits in the backlog; said, then tried again in a second.
                log.error("control socket: cannot accept a client; trying again in a second", metadata: ["control.error": "\(error)"])
                acceptPausedUntil = now.adding(seconds: Self.acceptPauseSeconds)
                return
            }
            guard let fd else { return }
            connections += 1
            let c = ControlClient(fd: fd, number: connections, capacity: settings.clientQueueLines)
            guard clients.count < settings.maximumClients else {
                c.send(ControlReply.error(nil, "too many clients (\(settings.maximumClients), [control] max_clients); try again later"))
                c.flush()
                log.warning("control client refused: too many clients", metadata: ["control.clients": "\(clients.count)"])
                continue
            }
            clients.append(c)
            log.debug("control client connected", metadata: ["control.client": "\(c.number)", "control.clients": "\(clients.count)"])
        }
    }

    private func flushAndReap() {
        for c in clients where c.hasOutput && !c.overflowed { c.flush() }
        guard clients.contains(where: { $0.isFinished }) else { return }
        clients.removeAll { c in
            guard c.isFinished else { return false }
            if c.overflowed {
                slowDisconnects += 1
                droppedLines += c.dropped
                log.warning("control client too slow: lines dropped, disconnected", metadata: [
                    "control.client": "\(c.number)", "control.dropped": "\(c.dropped)",
                    "control.queue": "\(settings.clientQueueLines)",
                ])
            } else if let why = c.broken {
                log.debug("control client lost", metadata: ["control.client": "\(c.number)", "control.error": "\(why)"])
            } else {
                log.debug("control client disconnected", metadata: ["control.client": "\(c.number)"])
            }
            return true
        }
    }
}

extension ControlSocket {
    /// Opens the socket the loop's config names (`[control] socket`) and installs it; `"none"`:
    /// nothing. A socket that cannot be opened is logged and the kiosk runs on without it: the
    /// glass still works.
    public static func install(on loop: KioskLoop, logger: Logger) {
        let settings = loop.configuration.control
        guard let path = settings.socket else { return }
        do {
            loop.install(try ControlSocket(settings: settings, logger: logger, now: loop.clock.now))
        } catch {
            // Its folder missing is kiosk run by hand, outside the unit whose RuntimeDirectory=
            // makes /run/kiosk: a warning that says so, not an error on every start.
            let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            var st = stat()
            if !folder.isEmpty, stat(folder, &st) != 0, errno == ENOENT {
                logger.warning("control socket off: its folder does not exist (kiosk.service makes /run/kiosk); set [control] socket to a folder that does, or \"none\"",
                               metadata: ["control.socket": "\(path)"])
            } else {
                logger.error("control socket unavailable", metadata: ["control.error": "\(error)"])
            }
        }
    }
}
