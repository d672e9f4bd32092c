import Display
import Foundation
import Geometry
import Gestures
import KioskConfig
import Render
import Runtime

// Steady-state frames of the kiosk loop, run outside the benchmark harness so that a heap
// profiler sees only them: `frame-allocations.sh` runs this under heaptrack and counts the
// allocations that happen once per frame, and where. Usage: FrameAllocations rest|drag FRAMES
let arguments = CommandLine.arguments
let mode = arguments.count > 1 ? arguments[1] : "drag"
let frames = arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000
guard mode == "rest" || mode == "drag" else {
    FileHandle.standardError.write("usage: FrameAllocations rest|drag [FRAMES]\n".data(using: .utf8)!)
    exit(2)
}
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
let d = try SteadyDrag(config: root.appendingPathComponent("config/kiosk.toml").path)
// Warm-up: caches filled, storage grown to its steady size.
for _ in 0..<300 { mode == "rest" ? d.rest() : d.step() }
for _ in 0..<frames { mode == "rest" ? d.rest() : d.step() }
print("\(mode): \(frames) frames, \(d.loop.output?.flipCount ?? 0) flips")

/// The default scene in a loop with a headless display, a finger already down on yellow.
final class SteadyDrag {
    final class Clock: @unchecked Sendable { var now = Instant(seconds: 100) }
    let clock = Clock()
    let loop: KioskLoop
    private var moves: [TouchFrame] = []
    private var resting: TouchFrame
    private var next = 0

    init(config: String) throws {
        let configuration = try KioskConfiguration.load(path: config)
        let clock = self.clock
        let output = try HeadlessOutput(width: 800, height: 480, format: .xrgb8888, now: { clock.now })
        loop = try KioskLoop(replaying: configuration, output: output, traceDecisions: false, recordsEvents: false, clock: { clock.now })
        let id = TouchID(1)
        for i in 0..<240 {
            let t = Double(i < 120 ? i : 240 - i)
            moves.append(TouchFrame(time: .zero, touches: [Touch(id: id, phase: .moved, location: Point(x: 160 + t, y: 190 + t / 2))]))
        }
        resting = TouchFrame(time: .zero, touches: [Touch(id: id, phase: .stationary, location: Point(x: 160, y: 190))])
        loop.tick(at: clock.now)
        deliver(TouchFrame(time: .zero, touches: [Touch(id: id, phase: .began, location: Point(x: 160, y: 190))]))
    }

    private func deliver(_ frame: TouchFrame) {
        var f = frame
        clock.now = clock.now.adding(seconds: 1.0 / 60)
        f.time = clock.now
        loop.process(f, touchesDown: 1)
        loop.tick(at: clock.now)
    }

    func step() {
        deliver(moves[next])
        next = (next + 1) % moves.count
    }

    func rest() { deliver(resting) }
}
