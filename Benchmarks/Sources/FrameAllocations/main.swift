import Foundation
import LoopFixture

// Steady-state frames of the kiosk loop, run outside the benchmark harness so that a heap
// profiler sees only them: `frame-allocations.sh` runs this under heaptrack and counts the
// allocations that happen once per frame, and where. Usage: FrameAllocations rest|drag|transform FRAMES
let arguments = CommandLine.arguments
let mode = arguments.count > 1 ? arguments[1] : "drag"
let frames = arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000
guard ["rest", "drag", "transform"].contains(mode) else {
    FileHandle.standardError.write("usage: FrameAllocations rest|drag|transform [FRAMES]\n".data(using: .utf8)!)
    exit(2)
}
if mode == "transform" {
    // Three squares pinched and turned at once; the warm-up covers one whole cycle of the fingers.
    let p = try SteadyPinch()
    for _ in 0..<300 { p.step() }
    for _ in 0..<frames { p.step() }
    print("\(mode): \(frames) frames, \(p.loop.output?.flipCount ?? 0) flips")
} else {
    let d = try SteadyDrag()
    // Warm-up: caches filled, storage grown to its steady size.
    for _ in 0..<300 { mode == "rest" ? d.rest() : d.step() }
    for _ in 0..<frames { mode == "rest" ? d.rest() : d.step() }
    print("\(mode): \(frames) frames, \(d.loop.output?.flipCount ?? 0) flips")
}
