import Foundation
import LoopFixture

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
let d = try SteadyDrag()
// Warm-up: caches filled, storage grown to its steady size.
for _ in 0..<300 { mode == "rest" ? d.rest() : d.step() }
for _ in 0..<frames { mode == "rest" ? d.rest() : d.step() }
print("\(mode): \(frames) frames, \(d.loop.output?.flipCount ?? 0) flips")
