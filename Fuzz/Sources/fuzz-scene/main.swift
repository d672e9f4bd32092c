import Foundation
import FuzzSupport
import Gestures
import KioskConfig
import KioskCore
import Scene

// Arbitrary touch frames and clock moves into the kiosk's default scene (config/kiosk.toml) and
// its gesture engine, which must never trap: duplicate ids, moves and ends of touches that never
// began, time going backwards, 64 fingers at once. What the kiosk reads after each frame (the
// next deadline, the views' outlines, the decisions as text) is read too.
//
// The input: a byte of options (1: decisions traced and written, 2: events recorded, 4: positions
// are any Double, not only screen-sized ones), then operations of one byte, each followed by its
// operands (little-endian), until the input ends:
//   0 frame:    time step in ms (2, signed), touch count (1, 0...64 kept), then per touch
//               id (1), phase (1), x and y (2 each; 0...65535 covers -1 to 2 screens, or 8 with 4);
//   1 advance:  time step in ms (2, unsigned);
//   2 wait:     the clock moves to the scene's next deadline, as the loop's timer does;
//   3 jump:     the clock moves to a time anywhere in a trace's range (8: 0 to 10^18 µs);
//   4 reset:    the scene's reset action (views back as declared; the engine keeps its state).

let configPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().appendingPathComponent("../../../config/kiosk.toml").standardized.path
let configuration = try! KioskConfiguration.load(path: configPath)
let panel = configuration.scene.panel
let phases: [TouchPhase] = [.began, .moved, .stationary, .ended, .cancelled]

fuzz { data in
    var input = FuzzInput(data)
    let options = input.uint8()
    let trace = DecisionTrace(enabled: options & 1 != 0)
    let anywhere = options & 4 != 0
    let scene = try! KioskScene(configuration.scene, trace: trace, recordsEvents: options & 2 != 0)
    var now = Instant(microseconds: 1_000_000)
    var touches: [Touch] = []
    touches.reserveCapacity(64)

    func coordinate(_ raw: UInt16, across length: Double) -> Double {
        Double(raw) / Double(UInt16.max) * 3 * length - length
    }

    while !input.isAtEnd {
        switch input.uint8() % 5 {
        case 0:
            now.microseconds += Int64(input.int16()) * 1000
            touches.removeAll(keepingCapacity: true)
            for _ in 0..<min(Int(input.uint8()), 64) {
                let id = TouchID(Int(input.uint8()))
                let phase = phases[Int(input.uint8()) % phases.count]
                let x = anywhere ? Double(bitPattern: input.uint64()) : coordinate(input.uint16(), across: panel.widthPixels)
                let y = anywhere ? Double(bitPattern: input.uint64()) : coordinate(input.uint16(), across: panel.heightPixels)
                touches.append(Touch(id: id, phase: phase, location: Point(x: x, y: y)))
            }
            scene.handle(TouchFrame(time: now, touches: touches))
        case 1:
            now.microseconds += Int64(input.uint16()) * 1000
            scene.advance(to: now)
        case 2:
            if let deadline = scene.nextDeadline {
                now = deadline
                scene.advance(to: now)
            }
        case 3:
            now = Instant(microseconds: Int64(input.uint64() % 1_000_000_000_000_000_001))
            scene.advance(to: now)
        default:
            scene.reset()
        }
        // What the renderer and the loop read after a frame.
        _ = scene.nextDeadline
        _ = scene.isAnimating
        for i in scene.views.indices {
            let id = ViewID(i)
            _ = scene.frame(of: id)
            _ = scene.corners(of: id, at: now)
            _ = scene.knobCenter(of: id, at: now)
        }
        for decision in trace.decisions {
            _ = scene.engine.describe(decision, origin: .zero, viewName: { scene.views[$0.rawValue].name })
        }
        trace.removeAll()
        scene.removeAllEvents()
    }
}
