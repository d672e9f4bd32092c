import FuzzSupport
import Gestures
import KioskConfig
import KioskCore
import Scene

// Config text as `kiosk check-config` and `kiosk replay` read it: TOML, the semantic checks, the
// resolved text check-config prints (which must read back), and the scene built from it, played a
// touch on each view (a press, a drag, a lift) with its decisions written out as text, as
// `kiosk replay` prints them: a file check-config accepts must replay. And kiosk calibrate's
// in-place write of [input] calibration into it.
fuzz { data in
    let text = String(decoding: data, as: UTF8.self)
    guard let config = try? KioskConfiguration.parse(text, file: "fuzz.toml") else { return }
    let resolved = config.resolvedText
    do {
        _ = try KioskConfiguration.parse(resolved, file: "fuzz.toml (resolved)")
    } catch {
        fatalError("check-config's output does not read back: \(error)\n\(resolved)")
    }

    // kiosk calibrate's in-place write: whatever the file, the written matrix reads back and
    // nothing else changes (a pointercal is refused, not overwritten).
    let matrix = [1.0625, -0.001, -0.03125, 0.0, 0.96, 0.02]
    if let written = try? CalibrationWriter.write(matrix, into: text) {
        guard let back = try? KioskConfiguration.parse(written, file: "fuzz.toml (calibrated)") else {
            fatalError("the calibrated file does not read back:\n\(written)")
        }
        var expected = config.runtime
        expected.input.calibration = matrix
        guard back.runtime == expected else { fatalError("the calibration write changed more than the matrix:\n\(written)") }
    }

    let trace = DecisionTrace(enabled: true)
    guard let scene = try? KioskScene(config.scene, trace: trace) else {
        fatalError("the config was accepted but its scene cannot be built")
    }
    var now = Instant(microseconds: 1_000_000)
    for (i, view) in scene.views.prefix(8).enumerated() {
        let id = TouchID(i + 1)
        let start = view.baseFrame.center
        let path = [(TouchPhase.began, start), (.moved, start + Point(x: 30, y: 10)), (.ended, start + Point(x: 60, y: 20))]
        for (phase, location) in path {
            now = now.adding(seconds: 0.05)
            scene.handle(TouchFrame(time: now, touches: [Touch(id: id, phase: phase, location: location)]))
        }
        now = now.adding(seconds: 1)
        scene.advance(to: now)
    }
    for decision in trace.decisions {
        _ = scene.engine.describe(decision, origin: .zero, viewName: { scene.views[$0.rawValue].name })
    }
}
