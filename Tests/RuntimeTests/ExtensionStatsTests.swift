import Control
import Foundation
import KioskConfig
import KioskCore
import KioskLog
@testable import Runtime
import Scene
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An extension with counters of its own, whose `service` takes as long as it is told (on the
/// loop's virtual clock: a stall without sleeping).
final class SlowExtension: LoopExtension {
    let clock: VirtualClock
    var serviceMilliseconds = 0.0
    var served = 0

    init(clock: VirtualClock) { self.clock = clock }

    func appendPollDescriptors(to fds: inout [pollfd]) {}
    func service(_ ready: UnsafeBufferPointer<pollfd>, now: Instant, target: CommandTarget) {
        served += 1
        clock.now = clock.now.adding(seconds: serviceMilliseconds / 1000)
    }
    var nextDeadline: Instant? { nil }
    func publish(_ events: ArraySlice<SceneEvent>, source: ChangeSource, scene: KioskScene, now: Instant) {}
    func stop(now: Instant) {}
    var statsFields: [(String, String)] { [("slow.served", "\(served)")] }
}

/// The extensions in the loop's stats line: their counters, and their service time in the input
/// stage's budget, so a stalling extension shows there as an overrun.
@Suite("Loop extensions in the stats line")
final class ExtensionStatsTests {
    let run: LiveLoopRun
    let slow: SlowExtension

    init() throws {
        run = try LiveLoopRun("extension-stats")
        slow = SlowExtension(clock: run.clock)
        run.loop.install(slow)
        run.loop.tick(at: run.clock.now)
    }

    func stats(_ n: Int) throws -> Logger.Metadata {
        try #require(run.handler.entries.first { $0.message.description == "stats \(n)" }, "\(run.handler.entries.map(\.message))").metadata
    }

    /// The loop's wake-ups for the next 1/60 s (one, nothing else being due): run()'s own.
    func wake() { run.embedded.advanceTime(by: 1.0 / 60) }

    @Test func anExtensionsCountersAreInTheStatsLine() throws {
        wake()
        wake()
        run.loop.statsLine(at: run.clock.now)
        #expect("\(try stats(1)["slow.served"] ?? "none")" == "2")
    }

    @Test func aSlowExtensionIsAnInputStageOverrun() throws {
        wake()
        run.loop.statsLine(at: run.clock.now)
        #expect("\(try stats(1)["overruns"] ?? "")" == "0", "a quick extension overruns nothing")
        slow.serviceMilliseconds = 40
        wake()
        run.loop.statsLine(at: run.clock.now)
        let fields = try stats(2)
        #expect("\(fields["overruns"] ?? "")" == "input:1", "\(fields)")
        #expect(run.handler.entries.contains { $0.message.description == "input stage overran its budget" })
    }

    /// With the control socket's, the hooks' and MQTT's counters too, at their largest, the
    /// stats line still fits one log line whole.
    @Test func theStatsLineWithEveryExtensionFitsOneLogLine() throws {
        let path = run.folder.appendingPathComponent("control.sock").path
        var settings = ControlSettings()
        settings.socket = path
        let socket = try ControlSocket(settings: settings, logger: Logger(label: "test"), now: run.clock.now)
        run.loop.install(socket)
        let hooks = HookRunner(settings: HookSettings(hooks: []), origin: run.clock.now, environment: [:], logger: Logger(label: "test"))
        run.loop.install(hooks)
        wake()
        run.loop.statsLine(at: run.clock.now)
        let fields = try stats(1)
        #expect("\(fields["control"] ?? "")" == "0/0", "\(fields)")
        #expect("\(fields["hooks"] ?? "")" == "0/0/0", "\(fields)")
        var worst = fields.mapValues { _ in Logger.MetadataValue.string("9999999") }
        worst["slow.served"] = nil
        worst["control"] = "9999999/9999999"
        worst["hooks"] = "9999999/9999999/9999999"
        // MQTT's (in Sources/MQTT, which Runtime does not import), written here as it writes it.
        worst["mqtt"] = "down/9999999"
        for stage in KioskLoop.Stage.allCases { worst["stage.\(stage.rawValue).ms"] = "999.99/9999.99/99999.99" }
        worst["overruns"] = .string(KioskLoop.Stage.allCases.map { "\($0.rawValue):99999" }.joined(separator: ","))
        for key in ["latency.p50.ms", "latency.p99.ms", "latency.max.ms", "latency.unmeasured"] { worst[key] = "9999999" }
        let line = LogLineFormat.line(timestamp: 2_700_000.123456, level: .info, message: "stats 99999", metadata: worst)
        #expect(line.utf8.count < LogLineLimit.bytes, "a stats line of \(line.utf8.count) bytes would be cut: \(line)")
    }
}
