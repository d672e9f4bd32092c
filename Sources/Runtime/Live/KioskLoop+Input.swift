import KioskCore
import Scene

// The input stage's one step: a touch frame, from the panel or a synthetic finger, into the scene.
extension KioskLoop {

    /// One frame of touches: counted, then delivered to the scene, or taken as the touch that
    /// wakes a blank panel, which is swallowed until every finger has lifted.
    func deliver(_ frame: TouchFrame) {
        meter.stats.touchFrames += 1
        fingers.note(frame)
        noteTouch(frame)
        switch blanking.admit(frame, touchesDown: fingers.count) {
        case .deliver:
            let start = meter.start()
            for touch in frame.touches where touch.phase == .began { meter.stats.touchesBegan += 1 }
            scene.handle(frame)
            meter.stall(.recognizers)
            recognizerNanoseconds += meter.nanoseconds(since: start)
            if !latency.delivered(at: frame.time) { meter.stats.unmeasuredInputs += 1 }
        case .wake:
            screen.cause = .touch
            perform(display.wake(), at: frame.time, reason: "by a touch; the waking touch is not delivered")
        case .swallow:
            break
        }
    }
}
