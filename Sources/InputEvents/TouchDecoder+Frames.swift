import KioskCore

// Closing a report: the frame it completes, and the pending frame a same-report tap needs.
extension TouchDecoder {
    mutating func finishReport(at time: Instant, released: Bool) -> TouchFrame? {
        counters.reports += 1
        if case .singleTouch = mode, let minimum = filters.minimumPressure {
            let pressed = buttonDown && pressure >= minimum
            if pressed, slots[0].touch == nil { begin(0, trackingID: 0) }
            if !pressed, slots[0].touch != nil { end(0) }
        }
        cancelWhatTheKernelLetGo(released: released)
        let needsPendingFrame = slots.contains { $0.tap != nil }
        frameTouches.removeAll(keepingCapacity: true)
        if needsPendingFrame { pendingTouches.removeAll(keepingCapacity: true) }
        var changed = false
        for slot in slots.indices {
            if appendEndsAndTaps(slot) { changed = true }
            if appendContact(slot, pending: needsPendingFrame) { changed = true }
        }
        guard changed else { return nil }
        counters.frames += 1
        if needsPendingFrame {
            if hasPendingFrame { counters.overwrittenPendingFrames += 1 }
            hasPendingFrame = true
            pendingTime = time
            counters.pendingFrames += 1
        }
        return TouchFrame(time: time, touches: frameTouches)
    }

    /// A report after which nothing touches (BTN_TOUCH 0), or whose keys the kernel released.
    private mutating func cancelWhatTheKernelLetGo(released: Bool) {
        if touchButtonReleased {
            // Nothing touches any more, so a slot still holding a contact lost its lift: never leave
            // it stuck. It is cancelled, not ended: it never lifted there. The kernel does exactly
            // this when a device is unplugged (keys released, slots not), and an unplugged panel
            // must not fire the button under the finger.
            for slot in slots.indices where slots[slot].touch != nil {
                end(slot, phase: .cancelled)
                counters.stuckTouchesCancelled += 1
                if released { counters.releaseCancelledTouches += 1 }
            }
            touchButtonReleased = false
        }
        guard released else { return }
        // The kernel let go of the keys, not the fingers: whatever lifted in this report was
        // taken away (a single-touch panel's BTN_TOUCH 0, mtdev's lifts for a protocol A panel).
        for slot in slots.indices {
            if slots[slot].ended?.phase == .ended {
                slots[slot].ended?.phase = .cancelled
                counters.releaseCancelledTouches += 1
            }
            if slots[slot].tap?.phase == .ended {
                slots[slot].tap?.phase = .cancelled
                counters.releaseCancelledTouches += 1
            }
        }
    }

    /// The slot's contact that ended this report, and its same-report tap; true when either was.
    private mutating func appendEndsAndTaps(_ slot: Int) -> Bool {
        var changed = false
        if let lift = slots[slot].ended {
            frameTouches.append(Touch(id: lift.touch, phase: lift.phase, location: point(lift.x, lift.y)))
            slots[slot].ended = nil
            changed = true
        }
        if let lift = slots[slot].tap {
            // The tap lvgl#5211 loses: began now, ended in a frame of its own at the same time.
            let location = point(lift.x, lift.y)
            frameTouches.append(Touch(id: lift.touch, phase: .began, location: location))
            pendingTouches.append(Touch(id: lift.touch, phase: lift.phase, location: location))
            slots[slot].tap = nil
            counters.sameReportTaps += 1
            changed = true
        }
        return changed
    }

    /// The slot's contact still down, jitter filtered; true when it began or moved.
    private mutating func appendContact(_ slot: Int, pending: Bool) -> Bool {
        guard let touch = slots[slot].touch else { return false }
        var (x, y) = (slots[slot].x, slots[slot].y)
        let jitter = Int64(filters.jitterUnits)
        if jitter > 0, !slots[slot].began,
           abs(Int64(x) - Int64(slots[slot].reportedX)) < jitter, abs(Int64(y) - Int64(slots[slot].reportedY)) < jitter {
            (x, y) = (slots[slot].reportedX, slots[slot].reportedY)
        }
        let location = point(x, y)
        let phase: TouchPhase
        if slots[slot].began {
            phase = .began
        } else if x != slots[slot].reportedX || y != slots[slot].reportedY {
            phase = .moved
        } else {
            phase = .stationary
        }
        frameTouches.append(Touch(id: touch, phase: phase, location: location))
        if pending { pendingTouches.append(Touch(id: touch, phase: .stationary, location: location)) }
        slots[slot].began = false
        (slots[slot].reportedX, slots[slot].reportedY) = (x, y)
        return phase != .stationary
    }

    func point(_ x: Int32, _ y: Int32) -> Point {
        let p = Point(x: xMapping.screen(x), y: yMapping.screen(y))
        guard calibrates else { return p }
        // Through pixel centres, so a flip takes pixel x to width - 1 - x exactly.
        let c = calibration.apply((p.x + 0.5) / screen.width, (p.y + 0.5) / screen.height)
        return Point(x: c.x * screen.width - 0.5, y: c.y * screen.height - 0.5)
    }
}
