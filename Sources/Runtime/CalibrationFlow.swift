import Foundation
import InputEvents
import KioskConfig
import KioskCore
import Render

/// The session's screens and decisions, frames in: targets, the fit, the check screen.
public final class CalibrationFlow {
    public enum Outcome: Equatable {
        /// Save was tapped on the check screen: the fit to write.
        case save(CalibrationFit)
        /// Why nothing is written.
        case failed(String)
    }

    let screen: Size
    let orientation: TouchCalibration
    let millimetresPerPixel: (x: Double, y: Double)
    let maximumMiss: Double
    let checkTimeout: Double
    let attempts: Int
    /// Where the screens and the lines go.
    let output: Output
    /// What is drawn: the target, or the check screen.
    public let buffer: PixelBuffer
    let font: Font?
    private var session: CalibrationSession
    private var fit: CalibrationFit?
    private var checkSince: Instant?
    private var attempt = 1
    /// The check screen's buttons, in screen pixels.
    public var save: Rect { Rect(x: screen.width * 0.2, y: screen.height * 0.6, width: screen.width * 0.25, height: screen.height * 0.2) }
    public var retry: Rect { Rect(x: screen.width * 0.55, y: screen.height * 0.6, width: screen.width * 0.25, height: screen.height * 0.2) }

    /// Where a session's screens and lines go.
    struct Output {
        let show: (PixelBuffer) -> Void
        /// A line for the person calibrating (stdout in `kiosk calibrate`).
        let say: (String) -> Void
        /// A line for a program driving the session (`KIOSK-CALIBRATE ...` on stderr in `kiosk calibrate`):
        /// where each target and the check screen's buttons are.
        let machine: (String) -> Void
    }

    /// `show` is called with `buffer` each time the screen changes.
    public init(screen: Size, orientation: TouchCalibration, millimetresPerPixel: (x: Double, y: Double), maximumMiss: Double,
                checkTimeout: Double, attempts: Int, font: String, show: @escaping (PixelBuffer) -> Void,
                say: @escaping (String) -> Void = CalibrationFlow.standardOutput,
                machine: @escaping (String) -> Void = CalibrationFlow.standardError) {
        self.screen = screen
        self.orientation = orientation
        self.millimetresPerPixel = millimetresPerPixel
        self.maximumMiss = maximumMiss
        self.checkTimeout = checkTimeout
        self.attempts = attempts
        output = Output(show: show, say: say, machine: machine)
        session = CalibrationSession(screen: screen)
        buffer = (try? PixelBuffer(width: Int(screen.width), height: Int(screen.height)))!
        self.font = try? Font(path: font)
    }

    /// When the check screen gives up.
    public var deadline: Instant? { checkSince?.adding(seconds: checkTimeout) }

    /// Shows the first target.
    public func start() { showTarget(0) }

    /// One frame of touches: a target taken, the fit made and the check screen shown, or an outcome.
    public func handle(_ frame: TouchFrame) -> Outcome? {
        if fit != nil { return check(frame) }
        do {
            switch try session.handle(frame) {
            case .waiting: return nil
            case .took(let n):
                output.say("target \(n + 1) (\(CalibrationTargets.names[n])) taken")
                showTarget(n + 1)
                return nil
            case .done:
                return finishTargets(at: frame.time)
            }
        } catch {
            return .failed("rejected: \(error)")
        }
    }

    /// Gives up on the check screen when its time is out.
    public func tick(at now: Instant) -> Outcome? {
        guard let deadline, now >= deadline else { return nil }
        return .failed("no answer on the check screen within \(fixedDecimal(checkTimeout, 0)) s; nothing written")
    }

    /// The touches ended (a recording played out) before the session did.
    public func endOfInput() -> Outcome {
        if fit != nil { return .failed("the touches ended before Save or Retry was tapped; nothing written") }
        return .failed("the touches ended at target \(session.current + 1) of 5; nothing written")
    }

    private func finishTargets(at time: Instant) -> Outcome? {
        let fit: CalibrationFit
        do {
            fit = try session.fit(after: orientation, millimetresPerPixel: millimetresPerPixel, maximumMissMillimetres: maximumMiss)
        } catch {
            for (n, r) in session.raw.enumerated() { output.say("target \(n + 1): raw \(fixedDecimal(r.x, 4)) \(fixedDecimal(r.y, 4))") }
            return .failed("rejected: \(error)")
        }
        for n in session.targets.indices {
            let t = session.targets[n]
            output.say("target \(n + 1) (\(CalibrationTargets.names[n])) at \(Int(t.x)),\(Int(t.y)): off by \(fixedDecimal(fit.residualPixels[n], 2)) px (\(fixedDecimal(fit.residualMillimetres[n], 2)) mm)")
        }
        output.say("axes: \(fit.orientationText)")
        output.say("[input] calibration = [" + fit.calibration.matrix.map(CalibrationWriter.formatted).joined(separator: ", ") + "]")
        self.fit = fit
        checkSince = time
        showCheck(crosshair: nil)
        let r = { (rect: Rect) in "\(Int(rect.origin.x)),\(Int(rect.origin.y)),\(Int(rect.size.width)),\(Int(rect.size.height))" }
        output.machine("check save=\(r(save)) retry=\(r(retry)) timeout=\(fixedDecimal(checkTimeout, 0))")
        return nil
    }

    private func check(_ frame: TouchFrame) -> Outcome? {
        guard let fit else { return nil }
        let whole = fit.calibration.then(orientation)
        for t in frame.touches {
            let n = whole.apply(t.location.x / screen.width, t.location.y / screen.height)
            let p = Point(x: n.x * screen.width, y: n.y * screen.height)
            showCheck(crosshair: t.phase.isFinal ? nil : p)
            guard t.phase == .ended else { continue }
            if save.contains(p) { return .save(fit) }
            if retry.contains(p) {
                guard attempt < attempts else { return .failed("retried \(attempts) times; nothing written") }
                attempt += 1
                output.say("retry: session \(attempt)")
                self.fit = nil
                checkSince = nil
                session = CalibrationSession(screen: screen)
                showTarget(0)
                return nil
            }
        }
        return nil
    }

    private func showTarget(_ n: Int) {
        guard n < session.targets.count else { return }
        let t = session.targets[n]
        if let font { CalibrationScreen.drawTarget(buffer, font: font, at: t, number: n + 1, of: 5, name: CalibrationTargets.names[n]) }
        output.show(buffer)
        output.machine("target \(n + 1) x=\(fixedDecimal(t.x, 1)) y=\(fixedDecimal(t.y, 1)) name=\(CalibrationTargets.names[n].replacingOccurrences(of: " ", with: "-"))")
    }

    private func showCheck(crosshair: Point?) {
        if let font {
            var lines = ["Check: the red cross should follow your finger.", "Tap Save to keep this calibration, Retry to start over."]
            if let fit, let worst = fit.residualPixels.indices.max(by: { fit.residualPixels[$0] < fit.residualPixels[$1] }) {
                lines.append("Largest error: \(fixedDecimal(fit.residualPixels[worst], 1)) px (\(fixedDecimal(fit.residualMillimetres[worst], 1)) mm), "
                    + "target \(worst + 1) (\(CalibrationTargets.names[worst])). Axes: \(fit.axesSwapped ? "swapped" : "not swapped").")
            }
            CalibrationScreen.drawCheck(buffer, font: font, crosshair: crosshair, save: save, retry: retry, lines: lines)
        }
        output.show(buffer)
    }

    public static func standardOutput(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    public static func standardError(_ line: String) { FileHandle.standardError.write(Data("KIOSK-CALIBRATE \(line)\n".utf8)) }
}
