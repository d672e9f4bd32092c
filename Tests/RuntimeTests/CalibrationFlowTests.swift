import InputEvents
import KioskCore
import Render
import Runtime
import Testing

/// `kiosk calibrate`'s session in process (issue 24): frames in, the screens it shows and the
/// outcome out, on a virtual clock. The command only adds the touchscreen and the display.
@Suite("The calibration session, frames in")
final class CalibrationFlowTests {
    static let screen = Size(width: 800, height: 480)
    var said: [String] = []
    var machine: [String] = []
    var shown = 0
    var nextID = 0

    func flow(attempts: Int = 3, checkTimeout: Double = 30) -> CalibrationFlow {
        CalibrationFlow(screen: Self.screen, orientation: .identity, millimetresPerPixel: (0.1915, 0.1796), maximumMiss: 6,
                        checkTimeout: checkTimeout, attempts: attempts, font: Font.defaultPath,
                        show: { [unowned self] _ in shown += 1 }, say: { [unowned self] in said.append($0) },
                        machine: { [unowned self] in machine.append($0) })
    }

    /// Where a badly fitted panel reports a touch at screen point `p`: across, half the way from
    /// 40% in (so Save's middle reads inside Retry); down, 90% of the way from 5% in.
    static func skewed(_ p: Point) -> Point {
        Point(x: (p.x / screen.width * 0.5 + 0.4) * screen.width, y: (p.y / screen.height * 0.9 + 0.05) * screen.height)
    }

    /// One finger down and up at `p`, from `t` seconds.
    func tap(_ f: CalibrationFlow, at p: Point, _ t: Double) -> CalibrationFlow.Outcome? {
        nextID += 1
        let id = TouchID(nextID)
        if let o = f.handle(TouchFrame(time: Instant(seconds: t), touches: [Touch(id: id, phase: .began, location: p)])) { return o }
        return f.handle(TouchFrame(time: Instant(seconds: t + 0.1), touches: [Touch(id: id, phase: .ended, location: p)]))
    }

    /// Taps the five targets as the skewed panel reports them; the outcome of the last tap.
    func tapTargets(_ f: CalibrationFlow, from t: Double) -> CalibrationFlow.Outcome? {
        var last: CalibrationFlow.Outcome?
        for (n, target) in CalibrationTargets.points(screen: Self.screen).enumerated() {
            last = tap(f, at: Self.skewed(target), t + Double(n))
        }
        return last
    }

    func center(_ r: Rect) -> Point { Point(x: r.origin.x + r.size.width / 2, y: r.origin.y + r.size.height / 2) }

    @Test func fiveTargetsThenSaveGivesTheMatrixThatUndoesThePanel() throws {
        let f = flow()
        f.start()
        #expect(machine.first?.hasPrefix("target 1 x=80.0 y=48.0 name=top-left") == true, "\(machine)")
        #expect(tapTargets(f, from: 1) == nil, "the check screen waits for Save or Retry")
        #expect(said.filter { $0.hasSuffix("taken") }.count == 4 && machine.contains { $0.hasPrefix("check save=160,288,200,96") }, "\(said) \(machine)")
        #expect(shown >= 6, "each target and the check screen were shown")
        // Save, tapped where the skewed panel reports it: the fit maps it back onto the button.
        guard case .save(let fit) = try #require(tap(f, at: Self.skewed(center(f.save)), 10)) else {
            Issue.record("Save did not save: \(said)")
            return
        }
        let m = fit.calibration.matrix
        let expected = [2, 0, -0.8, 0, 1 / 0.9, -0.05 / 0.9]
        for i in 0..<6 { #expect(abs(m[i] - expected[i]) < 1e-6, "matrix \(m)") }
        #expect(fit.residualPixels.allSatisfy { $0 < 0.01 })
    }

    @Test func retryStartsOverUntilTheAttemptsAreSpent() throws {
        let f = flow(attempts: 2)
        f.start()
        #expect(tapTargets(f, from: 1) == nil)
        #expect(tap(f, at: Self.skewed(center(f.retry)), 10) == nil)
        #expect(said.contains("retry: session 2") && machine.last?.hasPrefix("target 1 ") == true, "\(said) \(machine)")
        #expect(tapTargets(f, from: 20) == nil)
        guard case .failed(let why) = try #require(tap(f, at: Self.skewed(center(f.retry)), 30)) else {
            Issue.record("a retry past the attempts did not fail")
            return
        }
        #expect(why == "retried 2 times; nothing written")
    }

    @Test func theCheckScreenGivesUpAtItsDeadline() throws {
        let f = flow(checkTimeout: 30)
        f.start()
        #expect(f.deadline == nil, "no deadline before the check screen")
        #expect(tapTargets(f, from: 1) == nil)
        let deadline = try #require(f.deadline)
        #expect(deadline == Instant(seconds: 5.1).adding(seconds: 30), "from the last target's lift")
        #expect(f.tick(at: deadline.adding(seconds: -0.001)) == nil)
        guard case .failed(let why) = try #require(f.tick(at: deadline)) else { return }
        #expect(why == "no answer on the check screen within 30 s; nothing written")
    }

    @Test func aSecondFingerOrTheEndOfTheTouchesFailsSayingWhere() throws {
        let f = flow()
        f.start()
        #expect(tap(f, at: Point(x: 80, y: 48), 1) == nil)
        guard case .failed(let end) = f.endOfInput() else { return }
        #expect(end == "the touches ended at target 2 of 5; nothing written")
        let two = f.handle(TouchFrame(time: Instant(seconds: 3), touches: [
            Touch(id: TouchID(90), phase: .began, location: Point(x: 720, y: 48)),
            Touch(id: TouchID(91), phase: .began, location: Point(x: 400, y: 240)),
        ]))
        guard case .failed(let why) = try #require(two) else { return }
        #expect(why.hasPrefix("rejected: "), "\(why)")
    }

    /// A target missed by more than the allowed millimetres rejects the session and says the raw
    /// points, so the person can see which one.
    @Test func aTargetMissedByMoreThanTheLimitIsRejected() throws {
        let f = flow()
        f.start()
        var last: CalibrationFlow.Outcome?
        for (n, target) in CalibrationTargets.points(screen: Self.screen).enumerated() {
            last = tap(f, at: n == 4 ? Point(x: target.x + 120, y: target.y) : target, 1 + Double(n))
        }
        guard case .failed(let why) = try #require(last) else { return }
        #expect(why.hasPrefix("rejected: "), "\(why)")
        #expect(said.filter { $0.hasPrefix("target ") && $0.contains(": raw ") }.count == 5, "\(said)")
    }
}
