import Control
import Display
import Foundation
import KioskCore
import KioskLog
import KioskTestSupport
import MQTT
import MQTTProtocol
@testable import Runtime
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A live `KioskLoop` on a `VirtualClock` (headless, the default scene) with the MQTT extension
/// on a real broker and, when asked, the control socket: the network runs in real time, kiosk's
/// time only when the test moves it, so what MQTT sends is counted against kiosk's own clock.
final class VirtualLoopOnBroker {
    let folder: URL
    let clock = VirtualClock(Instant(seconds: 1000))
    let loop: KioskLoop
    /// The loop stepped on `clock`: every wake-up `runOnce` (EmbeddedLoop.swift).
    let embedded: EmbeddedLoop
    let mqtt: MQTTExtension
    let handler = InMemoryLogHandler()
    /// The control socket's path, when the loop has one.
    let socketPath: String?

    /// `mqtt` and `log` are more lines for `[mqtt]` and `[log]` (`log` instead of a stats line a
    /// second); `socket`: the control socket too; `memory`: what earlier runs announced.
    init(broker: Broker, mqtt extra: String = "", log: String = "", socket: Bool = false,
         memory: AnnouncementMemory = AnnouncementsInMemory()) throws {
        folder = try KioskExecutable.temporaryFolder("mqtt-virtual")
        let path = folder.appendingPathComponent("kiosk.conf")
        let mqttSection = "broker = \"mqtt://127.0.0.1:\(broker.port)\"\nclient_id = \"kiosk-test\"\n"
            + "topic_prefix = \"\(KioskOnBrokerTests.prefix)\"\n" + extra
        var config = try KioskOnBrokerTests.Kiosk.config(folder: folder, mqtt: mqttSection).replacingOccurrences(of: "stats_interval = 1\n", with: log)
        config += "\n[state]\nenabled = false\n"
        socketPath = socket ? folder.appendingPathComponent("control.sock").path : nil
        if let socketPath { config += "\n[control]\nsocket = \"\(socketPath)\"\n" }
        try config.write(to: path, atomically: true, encoding: .utf8)
        let handler = handler
        let clock = clock
        let logger = Logger(label: "test", factory: { _ in handler })
        loop = try KioskLoop(options: .init(configPath: path.path), logger: logger, logPump: nil,
                             output: { _ throws(DisplayError) in
                                 do { return try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, clock: clock) }
                                 catch { throw DisplayError("\(error)") }
                             }, clock: clock)
        embedded = EmbeddedLoop(loop, clock: clock)
        let settings = try #require(loop.configuration.mqtt)
        mqtt = try MQTTExtension(settings: settings, memory: memory, logger: logger, now: clock.now)
        if socket { ControlSocket.install(on: loop, logger: logger) }
        loop.install(mqtt)
        // As run() starts it: the first stats line an interval from now.
        let interval = loop.configuration.runtime.log.statsInterval
        if interval > 0 { loop.nextStats = clock.now.adding(seconds: interval) }
        loop.tick(at: clock.now)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// One wake-up at the clock's time, the descriptors polled up to 10 ms of real time.
    func wake() { embedded.run(waitingUpTo: 10) }

    /// Wakes until `condition` holds or `seconds` of real time pass; the virtual clock stays put.
    @discardableResult
    func run(seconds: Double = 20, until condition: () -> Bool) -> Bool { embedded.run(seconds: seconds, until: condition) }

    /// Fingers on the glass: each report a wake-up of its own at its time, as the panel's.
    private(set) lazy var fingers = Fingers(clock: clock, firstFinger: 1, tick: { [unowned self] _ in embedded.run() },
                                            deliver: { [unowned self] frame in
        loop.process(frame)
        embedded.run()
    })
}

/// A program on the control socket, reading without blocking.
final class SocketWatcher {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let r = UnixSocketAddress.attach(fd, to: path, .connect)
        try #require(r == 0, "connect: \(String(cString: strerror(errno)))")
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    func send(_ line: String) {
        _ = (line + "\n").utf8CString.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
    }

    /// Every whole line so far.
    private(set) var lines: [String] = []

    func read() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            buffer += chunk[0..<n]
        }
        while let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[..<nl], as: UTF8.self))
            buffer.removeSubrange(...nl)
        }
    }
}
