import Control
import ControlProtocol
import Foundation
import KioskConfig
import KioskCore
import KioskLog
import KioskTestSupport
@testable import Runtime
import Scene
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A program connected to the control socket, reading without blocking: the loop runs on the
/// test's own thread.
final class SocketClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var closed = false

    init(path: String, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        let r = UnixSocketAddress.attach(fd, to: path, .connect)
        guard r == 0 else { throw SocketTestError.connect(String(cString: strerror(errno))) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n } else { break }
        }
    }

    /// The whole lines that arrived so far.
    func lines() -> [String] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { buffer += chunk[0..<n]; continue }
            if n == 0 { closed = true }
            break
        }
        var out: [String] = []
        while let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            out.append(String(decoding: buffer[..<nl], as: UTF8.self))
            buffer.removeSubrange(...nl)
        }
        return out
    }
}

enum SocketTestError: Error { case connect(String) }

/// The control socket on a live loop (virtual clock, headless display), with real Unix sockets.
@Suite("The control socket")
final class ControlSocketTests {
    let run: LiveLoopRun
    let socket: ControlSocket
    let path: String

    convenience init() throws {
        try self.init(queue: 256, clients: 16)
    }

    init(queue: Int, clients: Int) throws {
        run = try LiveLoopRun("socket")
        path = run.folder.appendingPathComponent("control.sock").path
        var settings = ControlSettings()
        settings.socket = path
        settings.clientQueueLines = queue
        settings.maximumClients = clients
        var logger = Logger(label: "test", factory: { [handler = run.handler] _ in handler })
        logger.logLevel = .debug
        socket = try ControlSocket(settings: settings, logger: logger, now: run.clock.now)
        run.loop.install(socket)
        run.embedded.run()
    }

    /// How far each wake-up moves the virtual clock: a frame, unless a test holds it still.
    var frame = 1.0 / 60

    /// The virtual clock `frame` on (a wake-up at each moment the loop asked for on the way),
    /// then one more wake-up waiting up to `milliseconds` of real time in poll().
    func pump(milliseconds: Int32 = 20) {
        run.embedded.advanceTime(by: frame)
        run.embedded.run(waitingUpTo: milliseconds)
    }

    /// Pumps the loop until `client` has `count` lines more: the condition, however many wake-ups
    /// it takes on a loaded machine (a wake-up can return at once, with another descriptor ready);
    /// the bound of `seconds` only keeps a broken socket from holding the suite.
    func lines(_ client: SocketClient, count: Int = 1, seconds: Double = 10) -> [String] {
        var got: [String] = []
        let end = MonotonicClock.seconds() + seconds
        while got.count < count, !client.closed, MonotonicClock.seconds() < end {
            pump()
            got += client.lines()
        }
        return got
    }

    func ask(_ client: SocketClient, _ request: String) -> String {
        client.send(request + "\n")
        return lines(client).first ?? "(no reply)"
    }

    func view(_ name: String) -> ViewState { run.loop.scene.views[run.loop.scene.viewID(named: name)!.rawValue] }

    func json(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }

    @Test func theSocketFileIsReadAndWrittenByTheKioskUserAndItsGroupOnly() throws {
        var st = stat()
        #expect(lstat(path, &st) == 0)
        #expect(st.st_mode & S_IFMT == S_IFSOCK)
        #expect(st.st_mode & 0o777 == 0o660)
        #expect(st.st_gid == getegid())
        socket.stop(now: run.clock.now)
        #expect(access(path, F_OK) != 0, "the file is removed at exit")
    }

    @Test func getStateIsTheReplaysStateOnOneLineWithTheIDEchoed() throws {
        let c = try SocketClient(path: path)
        let reply = ask(c, #"{"id": 7, "command": "get_state"}"#)
        let o = json(reply)
        #expect(o["id"] as? Int == 7)
        #expect(o["ok"] as? Bool == true)
        let state = SceneReport.state(of: run.loop.scene)
        let expected = try JSONSerialization.jsonObject(with: Data(state.utf8)) as? NSDictionary
        #expect((o["state"] as? NSDictionary) == expected, "\(reply)")
        #expect(json(ask(c, #"{"id": "abc", "command": "get_state"}"#))["id"] as? String == "abc")
    }

    @Test func setChangesTheControlsAndSubscribersHearItWithItsSource() throws {
        let watcher = try SocketClient(path: path)
        #expect(json(ask(watcher, #"{"id": 1, "command": "subscribe", "events": ["control", "state"]}"#))["events"] as? [String] == ["control", "state"])
        let c = try SocketClient(path: path)
        #expect(ask(c, #"{"id": 2, "command": "set", "view": "slider", "value": 0.25}"#) == #"{"id": 2, "ok": true}"#)
        #expect(view("slider").value == 0.25)
        let events = lines(watcher, count: 2)
        #expect(events.count == 2)
        #expect(json(events[0])["event"] as? String == "control")
        #expect(json(events[0])["name"] as? String == "valueChanged")
        #expect(json(events[0])["source"] as? String == "socket")
        #expect(json(events[1])["event"] as? String == "state")
        #expect(json(events[1])["value"] as? Double == 0.25)
        #expect(json(ask(c, #"{"command": "set", "view": "switch", "on": true}"#))["ok"] as? Bool == true)
        #expect(view("switch").isOn)
        #expect(json(ask(c, #"{"command": "set", "view": "button", "label": "Open"}"#))["ok"] as? Bool == true)
        #expect(view("button").label == "Open")
        let more = lines(watcher, count: 3)
        #expect(more.contains { json($0)["event"] as? String == "state" && json($0)["label"] as? String == "Open" }, "\(more)")
        #expect(more.contains { json($0)["on"] as? Bool == true && json($0)["event"] as? String == "control" }, "\(more)")
    }

    @Test func tapAndSwipeAreTouchesThroughThePanelsPath() throws {
        let watcher = try SocketClient(path: path)
        _ = ask(watcher, #"{"command": "subscribe"}"#)
        let c = try SocketClient(path: path)
        #expect(json(ask(c, #"{"id": 3, "command": "tap", "x": 130, "y": 424}"#))["ok"] as? Bool == true)
        var events = lines(watcher, count: 4)
        #expect(view("button").taps == 1)
        #expect(events.contains { json($0)["name"] as? String == "primaryActionTriggered" && json($0)["taps"] as? Int == 1 }, "\(events)")
        #expect(json(ask(c, #"{"command": "tap", "x": 160, "y": 190}"#))["ok"] as? Bool == true)
        events = lines(watcher, count: 1)
        #expect(events.contains { json($0)["event"] as? String == "gesture" && json($0)["recognizer"] as? String == "tap" },
                "the yellow square's tap recognizer saw the finger: \(events)")
        let knob = view("slider").knobCenter()
        #expect(json(ask(c, #"{"command": "swipe", "from": [\#(knob.x), \#(knob.y)], "to": [559, \#(knob.y)], "duration": 0.2}"#))["ok"] as? Bool == true)
        events = lines(watcher, count: 30)
        #expect(view("slider").value == 1)
        #expect(events.allSatisfy { json($0)["source"] as? String == "socket" })
    }

    @Test(arguments: [
        ("this is not json", "malformed JSON"),
        ("[1, 2]", "one JSON object"),
        (#"{"id": 4, "command": "fly"}"#, "unknown command 'fly'"),
        (#"{"id": 4}"#, "missing \"command\""),
        (#"{"id": 4, "command": "set", "view": "slider", "value": 2}"#, "out of range"),
        (#"{"id": 4, "command": "set", "view": "slider", "value": "high"}"#, "\"value\" must be a number"),
        (#"{"id": 4, "command": "set", "view": "switch", "on": 1}"#, "\"on\" must be true or false"),
        (#"{"id": 4, "command": "set", "view": "nope", "value": 0.5}"#, "no view named 'nope'"),
        (#"{"id": 4, "command": "set", "view": "switch", "value": 0.5}"#, "is a switch"),
        (#"{"id": 4, "command": "subscribe", "events": ["touches"]}"#, "unknown event 'touches'"),
        (#"{"id": 4, "command": "tap", "x": 5000, "y": 1}"#, "off the screen"),
        (#"{"id": 4, "command": "swipe", "from": [1], "to": [2, 2]}"#, "must be [x, y]"),
    ])
    func aBadRequestGetsAnErrorNamingItAndTheConnectionIsKept(line: String, says: String) throws {
        let before = run.loop.scene.views
        let c = try SocketClient(path: path)
        let reply = ask(c, line)
        let o = json(reply)
        #expect(o["ok"] as? Bool == false, "\(reply)")
        #expect((o["error"] as? String)?.contains(says) == true, "\(reply)")
        if line.contains("\"id\": 4") { #expect(o["id"] as? Int == 4, "\(reply)") }
        #expect(run.loop.scene.views == before, "nothing changed")
        #expect(json(ask(c, #"{"command": "get_state"}"#))["ok"] as? Bool == true, "the connection is kept")
    }

    /// Issue 21, part 7: while a finger holds the slider or the switch, a `set` from the socket is
    /// refused with the reason, and one from MQTT too (its commands go through the loop's `apply`);
    /// nothing changes. Once the finger lifts, the same set is taken.
    @Test(arguments: ["slider", "switch"])
    func aSetOnAControlAFingerHoldsIsRefusedFromTheSocketAndMQTT(name: String) throws {
        let finger = run.fingers.down(view(name).knobCenter(), after: Fingers.frame)
        let before = run.loop.scene.views
        let c = try SocketClient(path: path)
        let request = name == "slider" ? #"{"id": 5, "command": "set", "view": "slider", "value": 0.9}"#
            : #"{"id": 5, "command": "set", "view": "switch", "on": true}"#
        let reply = json(ask(c, request))
        #expect(reply["ok"] as? Bool == false && (reply["error"] as? String)?.contains("is held by a finger") == true, "\(reply)")
        let command: RemoteCommand = name == "slider" ? .setValue(view: name, 0.9) : .setOn(view: name, true)
        if case .success = run.loop.apply(command, source: .mqtt) { Issue.record("MQTT's set was taken under the finger") }
        #expect(run.loop.scene.views == before, "nothing changed")
        run.fingers.up(finger)
        #expect(json(ask(c, request))["ok"] as? Bool == true)
        #expect(name == "slider" ? view(name).value == 0.9 : view(name).isOn, "taken once the finger lifted")
    }

    @Test func anOverlongLineIsRefusedAndTheConnectionKept() throws {
        let c = try SocketClient(path: path)
        c.send(String(repeating: "x", count: ControlRequest.maximumLineBytes + 10) + "\n")
        let reply = lines(c).first ?? ""
        #expect(reply.contains("longer than"), "\(reply)")
        #expect(json(ask(c, #"{"command": "get_state"}"#))["ok"] as? Bool == true)
    }

    /// Commands are queued with the loop and applied after the socket was served; the lines
    /// behind one wait for its reply, so replies keep the requests' order and a `get_state`
    /// written after a `set` in the same write sees it. A client that closes its side at once
    /// (socat at the end of its input) still gets every reply.
    @Test func requestsInOneWriteAreAnsweredInOrderAfterEachCommandIsApplied() throws {
        let c = try SocketClient(path: path)
        c.send(#"{"id": 1, "command": "set", "view": "slider", "value": 0.125}"# + "\n"
            + #"{"id": 2, "command": "get_state"}"# + "\n"
            + #"{"id": 3, "command": "set", "view": "slider", "value": 2}"# + "\n"
            + #"{"id": 4, "command": "set", "view": "switch", "on": true}"# + "\n"
            + #"{"id": 5, "command": "get_state"}"#)
        shutdown(c.fd, Int32(SHUT_WR))
        let replies = lines(c, count: 5).map(json)
        #expect(replies.map { $0["id"] as? Int } == [1, 2, 3, 4, 5])
        #expect(replies.map { $0["ok"] as? Bool } == [true, true, false, true, true])
        func state(_ reply: [String: Any], _ name: String) -> [String: Any]? {
            ((reply["state"] as? [String: Any])?["views"] as? [[String: Any]])?.first { $0["name"] as? String == name }
        }
        #expect(state(replies[1], "slider")?["value"] as? Double == 0.125, "the state after the set before it")
        #expect(state(replies[1], "switch")?["on"] as? Bool == false, "not yet the set after it")
        #expect(state(replies[4], "switch")?["on"] as? Bool == true)
        pump()
        _ = c.lines()
        #expect(c.closed, "answered to the end, then closed")
    }

    /// A reload takes `[control]`'s limits at once: a lower `max_clients` refuses the next client.
    @Test func aReloadTakesTheSocketsLimits() throws {
        let a = try SocketClient(path: path)
        #expect(json(ask(a, #"{"id": 1, "command": "get_state"}"#))["ok"] as? Bool == true)
        let config = run.loop.options.configPath
        let text = try String(contentsOfFile: config, encoding: .utf8)
        try (text + "\n[control]\nsocket = \"\(path)\"\nmax_clients = 1\nclient_queue = 32\n").write(toFile: config, atomically: true, encoding: .utf8)
        run.loop.reload(at: run.clock.now)
        #expect(socket.settings.maximumClients == 1 && socket.settings.clientQueueLines == 32)
        let b = try SocketClient(path: path)
        #expect(lines(b).first?.contains("too many clients") == true)
        #expect(!run.handler.entries.contains { $0.message.description.contains("until the next start") }, "the same socket: nothing waits for a restart")
        try (text + "\n[control]\nsocket = \"\(path).new\"\n").write(toFile: config, atomically: true, encoding: .utf8)
        run.loop.reload(at: run.clock.now)
        #expect(run.handler.entries.contains { $0.message.description.hasSuffix("until the next start: control.socket") }, "another path waits for a restart")
        #expect(socket.settings.maximumClients == 16, "the default again")
        _ = a
    }

    @Test func manyClientsAtOnceEachGetTheirOwnRepliesAndAllTheEvents() throws {
        let clients = try (0..<8).map { _ in try SocketClient(path: path) }
        for (i, c) in clients.enumerated() { c.send(#"{"id": \#(i), "command": "subscribe", "events": ["state"]}"# + "\n") }
        for (i, c) in clients.enumerated() { #expect(json(lines(c).first ?? "")["id"] as? Int == i) }
        #expect(socket.clientCount == 8)
        _ = run.loop.apply(.setValue(view: "slider", 0.75), source: .mqtt)
        // Published at the end of the wake-up that made the change.
        run.embedded.run()
        for c in clients {
            let l = lines(c).first ?? ""
            #expect(json(l)["value"] as? Double == 0.75 && json(l)["source"] as? String == "mqtt", "\(l)")
        }
    }

    @Test func aClientPastTheLimitIsToldAndClosed() throws {
        let small = try ControlSocketTests(queue: 256, clients: 2)
        let a = try SocketClient(path: small.path), b = try SocketClient(path: small.path)
        small.pump()
        let c = try SocketClient(path: small.path)
        let reply = small.lines(c).first ?? ""
        #expect(reply.contains("too many clients"), "\(reply)")
        small.pump()
        _ = c.lines()
        #expect(c.closed)
        #expect(small.socket.clientCount == 2)
        _ = (a, b)
    }

    @Test func aClientThatDoesNotReadIsBoundedCountedAndDisconnectedWhileOthersGoOn() throws {
        let slowSocket = try ControlSocketTests(queue: 16, clients: 16)
        let slow = try SocketClient(path: slowSocket.path, receiveBuffer: 4096)
        let fast = try SocketClient(path: slowSocket.path)
        _ = slowSocket.ask(slow, #"{"command": "subscribe", "events": ["state"]}"#)
        _ = slowSocket.ask(fast, #"{"command": "subscribe", "events": ["state"]}"#)
        var received = 0
        let sets = 3000
        for i in 0..<sets {
            _ = slowSocket.run.loop.apply(.setValue(view: "slider", i % 2 == 0 ? 0.1 : 0.2), source: .socket)
            slowSocket.run.embedded.run()
            if i % 10 == 9 { received += fast.lines().count }
        }
        for _ in 0..<5 { slowSocket.pump(); received += fast.lines().count }
        #expect(received == sets, "the reader got every line")
        #expect(slowSocket.socket.slowDisconnects == 1)
        #expect(slowSocket.socket.droppedLines > 0)
        #expect(slowSocket.socket.clientCount == 1)
        var slowLines = 0
        for _ in 0..<50 where !slow.closed { slowLines += slow.lines().count }
        #expect(slow.closed, "the slow client was disconnected")
        #expect(slowLines < sets / 2, "it got what the kernel and its queue held, not everything: \(slowLines)")
        #expect(slowSocket.run.handler.entries.contains { $0.message.description.contains("too slow") && $0.metadata["control.dropped"] != nil })
    }

    @Test func aSocketLeftByADeadKioskIsReplacedAndALiveOneIsNot() throws {
        var settings = ControlSettings()
        settings.socket = path
        #expect(throws: SocketError.self) { _ = try ControlSocket(settings: settings, logger: Logger(label: "x"), now: .zero) }
        socket.stop(now: run.clock.now)
        // A socket file with no one listening, as a SIGKILL leaves it.
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = UnixSocketAddress.attach(fd, to: path, .bind)
        close(fd)
        #expect(throws: Never.self) { _ = try ControlSocket(settings: settings, logger: Logger(label: "x"), now: .zero) }
    }
}
