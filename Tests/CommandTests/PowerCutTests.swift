import Foundation
import KioskState
import KioskTestSupport
import Scene
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// SIGKILL at random moments while sets arrive through the socket, as a power cut would stop the
/// kiosk (minus the disk's cache, which the fsyncs are for): after every kill the state file
/// parses, the state restored is one that was acknowledged (never torn, never a mix of two), and
/// no set acknowledged longer ago than the write interval (plus the write's own time) is lost.
///
/// `KIOSK_STATE_CRASH_KILLS` sets the number of kills (Tests/state-crash.sh runs it long).
@Suite("power cuts", .serialized)
struct PowerCutTests {
    /// The state as the test follows it: the three properties a set changes.
    struct Held: Equatable, CustomStringConvertible {
        var value = 0.5
        var on = false
        var label = "Press"
        var description: String { "(\(value), \(on), \(label))" }
    }

    static let interval = 0.1
    /// What a write may take beyond its interval on a loaded machine: the write itself and the
    /// loop's wake-up. An fsync on ext4 waits for the journal's commit, which holds every other
    /// process's dirty data too: beside a build, more than 0.2 s was seen (2 kills of 600).
    static let slack = 0.3

    @Test func killedAtRandomTheStateIsAlwaysOneAcknowledged() throws {
        let kills = ProcessInfo.processInfo.environment["KIOSK_STATE_CRASH_KILLS"].flatMap(Int.init) ?? 200
        let folder = try KioskExecutable.temporaryFolder("power-cut")
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = try StateCommandTests.config(interval: Self.interval)
        let file = StateFile(path: folder.appendingPathComponent("state.json").path)
        var history = [Held()]
        var acknowledgedAt = [Date.distantPast]
        var generator = SystemRandomNumberGenerator()
        var lost = 0, setsAcknowledged = 0, quietKills = 0
        var ended: [KioskProcess] = []
        let started = Date()
        for kill in 1...kills {
            let (k, c) = try StateCommandTests.restart(config, in: folder)
            let restored = Self.held(StateCommandTests.views(c))
            if kill > 1 {
                try checkRestored(restored, file: file, history: history, acknowledgedAt: acknowledgedAt, kill: kill, lost: &lost)
            }
            // The test's history goes on from what the kiosk holds now.
            history.append(restored)
            acknowledgedAt.append(Date())
            // Half the runs fall quiet before the kill: the last sets then wait for no later one
            // to be written, and those quiet longer than interval + slack must be on disk.
            let quietAfter = Double.random(in: 0...0.1, using: &generator)
            let killAfter = quietAfter + (Bool.random(using: &generator) ? 0 : Double.random(in: 0.05...0.5, using: &generator))
            if killAfter - quietAfter > Self.interval + Self.slack { quietKills += 1 }
            let start = Date()
            let killed = Self.sigkill(k, after: killAfter)
            var n = 0
            while Date().timeIntervalSince(start) < quietAfter {
                n += 1
                var next = history[history.count - 1]
                let request: String
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:
                    next.value = Double(Int.random(in: 0...10000, using: &generator)) / 10000
                    request = "{\"command\": \"set\", \"view\": \"slider\", \"value\": \(next.value)}"
                case 1:
                    next.on.toggle()
                    request = "{\"command\": \"set\", \"view\": \"switch\", \"on\": \(next.on)}"
                default:
                    next.label = "L\(kill).\(n)"
                    request = "{\"command\": \"set\", \"view\": \"button\", \"label\": \"\(next.label)\"}"
                }
                guard c.ask(request).contains("\"ok\": true") else { break }
                history.append(next)
                acknowledgedAt.append(Date())
                setsAcknowledged += 1
            }
            killed.wait()
            // Dead (a zombie left for Foundation to reap, or reaped already): nothing of it runs any more.
            var info = siginfo_t()
            let waited = waitid(P_PID, id_t(k.pid), &info, WEXITED | WNOWAIT)
            #expect(waited == 0 || errno == ECHILD)
            // Reaped at the end: waiting for Foundation's reaping costs a poll interval each time.
            ended.append(k)
        }
        let seconds = Date().timeIntervalSince(started)
        print("power cuts: \(kills) kills (\(quietKills) after the sets fell quiet for longer than \(fixed(Self.interval + Self.slack)) s), "
              + "\(setsAcknowledged) sets acknowledged, \(lost) lost, \(String(format: "%.1f", seconds)) s")
        #expect(lost == 0)
    }

    /// The state file parses, and what the kiosk restored is an acknowledged state at least as
    /// new as the last one acknowledged `interval + slack` before the kill.
    func checkRestored(_ restored: Held, file: StateFile, history: [Held], acknowledgedAt: [Date], kill: Int, lost: inout Int) throws {
        guard case .document(let d) = file.read() else {
            Issue.record("kill \(kill): the state file does not parse: \(file.read())")
            lost += 1
            return
        }
        let onDisk = Self.held(d)
        #expect(onDisk == restored, "kill \(kill): the file holds \(onDisk), the kiosk restored \(restored)")
        let cut = killedAt.addingTimeInterval(-(Self.interval + Self.slack))
        let oldest = acknowledgedAt.lastIndex { $0 < cut } ?? 0
        let matches = history.indices.filter { history[$0] == restored }
        guard let newest = matches.last else {
            Issue.record("kill \(kill): restored \(restored), which was never acknowledged")
            lost += 1
            return
        }
        if newest < oldest {
            Issue.record("kill \(kill): restored \(restored) (set \(newest)), but set \(oldest) \(history[oldest]) was acknowledged \(String(format: "%.3f", killedAt.timeIntervalSince(acknowledgedAt[oldest]))) s before the kill")
            lost += 1
        }
    }

    func fixed(_ x: Double) -> String { String(format: "%.1f", x) }

    /// When the last SIGKILL was sent.
    var killedAt: Date { Self.lastKill.withLock { $0 } }
    static let lastKill = LockedDate()

    /// Sends SIGKILL to `k` after `seconds`, from another thread, while the test keeps setting.
    static func sigkill(_ k: KioskProcess, after seconds: Double) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let pid = k.pid
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            kill(pid, SIGKILL)
            lastKill.set(Date())
            done.signal()
        }
        return done
    }

    static func held(_ views: [String: [String: Any]]) -> Held {
        Held(value: views["slider"]?["value"] as? Double ?? -1, on: views["switch"]?["on"] as? Bool ?? false,
             label: views["button"]?["label"] as? String ?? "?")
    }

    static func held(_ d: StateDocument) -> Held {
        var h = Held(value: -1, on: false, label: "?")
        for v in d.views {
            switch v.state {
            case .slider(let value) where v.name == "slider": h.value = value
            case .toggle(let on) where v.name == "switch": h.on = on
            case .button(let label, _) where v.name == "button": h.label = label
            default: break
            }
        }
        return h
    }
}

/// A moment shared between the killing thread and the test.
final class LockedDate: @unchecked Sendable {
    private let lock = NSLock()
    private var value = Date.distantPast
    func set(_ d: Date) { lock.lock(); value = d; lock.unlock() }
    func withLock<T>(_ body: (Date) -> T) -> T { lock.lock(); defer { lock.unlock() }; return body(value) }
}
