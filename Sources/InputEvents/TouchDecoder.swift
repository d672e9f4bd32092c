import KioskCore

/// Turns a touch device's evdev events into `TouchFrame`s, one per `SYN_REPORT` that changed something.
///
/// Decodes multitouch protocol B (`ABS_MT_SLOT`, `ABS_MT_TRACKING_ID`, `ABS_MT_POSITION_X/Y`) and
/// single touch (`BTN_TOUCH` with `ABS_X/ABS_Y`, or other position axes for devices such as eGalax
/// that report on `ABS_Z/ABS_RX`). Touch ids are the decoder's own and never reused; kernel
/// tracking ids are not. Storage is sized at init, so `feed` does not allocate once running, as
/// long as the caller lets go of each frame before the next `feed`.
public struct TouchDecoder: Sendable {
    public enum Mode: Hashable, Sendable {
        /// Protocol B with this many slots.
        case multitouch(slots: Int)
        /// One contact, down while `BTN_TOUCH` is 1.
        case singleTouch
    }

    /// What the decoder counted while decoding: the trouble it met and survived.
    public struct Counters: Hashable, Sendable {
        /// `SYN_REPORT`s decoded (not those swallowed after a `SYN_DROPPED`).
        public var reports = 0
        /// Frames returned by `feed`.
        public var frames = 0
        /// Extra frames queued for `nextPendingFrame`.
        public var pendingFrames = 0
        /// `SYN_DROPPED` events: the kernel's buffer overflowed.
        public var droppedSyncs = 0
        /// Events thrown away after a `SYN_DROPPED`, up to and including the next `SYN_REPORT`.
        public var droppedEvents = 0
        /// Position values outside the axis range, clamped into it.
        public var outOfRangeValues = 0
        /// `ABS_MT_SLOT` values beyond the slots; the values that follow them are ignored.
        public var ignoredSlots = 0
        /// New tracking ids on a slot whose contact had not ended: the old touch ends, a new one begins.
        public var reusedTrackingIDs = 0
        /// Touches that began and ended within one report (lvgl#5211), delivered in two frames.
        public var sameReportTaps = 0
        /// Touches cancelled because `BTN_TOUCH` went to 0 while their slot still had a tracking id.
        public var stuckTouchesCancelled = 0
        /// Touches cancelled, not ended, because the kernel closed their last report with
        /// `SYN_REPORT` value 1: the device was unplugged, reset or inhibited, and released what was down.
        public var releaseCancelledTouches = 0
        /// Lifts of contacts that were never down: `ABS_MT_TRACKING_ID -1` on an empty slot, or
        /// `BTN_TOUCH 0` with no touch down. Nothing to end; counted.
        public var releasesWithoutPress = 0
        /// Contacts that began and ended within one report on a slot that already had such a contact;
        /// only the last is delivered.
        public var collapsedTaps = 0
        /// Pending frames replaced before `nextPendingFrame` fetched them.
        public var overwrittenPendingFrames = 0
        /// Events thrown away unread: no kernel can send them (a type above `EV_MAX`, a code above its
        /// type's maximum: only a damaged trace holds one), or, before a protocol A device's events
        /// reach the decoder, libmtdev could not take them (`TouchscreenDecoder` adds those).
        public var rejectedEvents = 0

        public init() {}
    }

    /// The kernel's state of one slot, and what happened to it since the last report.
    struct Slot {
        var trackingID: Int32 = -1
        var x: Int32
        var y: Int32
        /// The contact down in this slot now.
        var touch: TouchID?
        /// The contact began in the report being read.
        var began = false
        /// Where the contact was in the last frame, to tell moved from stationary.
        var reportedX: Int32 = 0
        var reportedY: Int32 = 0
        /// A contact from before this report that ended in it; cancelled when it never lifted.
        var ended: Lift?
        /// A contact that began and ended within this report.
        var tap: Lift?
        /// The contact's size on `sizeAxis`, in device units.
        var size: Int32 = 0
    }

    /// A contact that ended in the report being read: how, and where (device units).
    struct Lift {
        var touch: TouchID
        var phase: TouchPhase
        var x: Int32
        var y: Int32
    }

    /// More slots than any touch controller has; a description claiming more is capped.
    static let slotLimit = 256

    public let mode: Mode
    /// The axes positions are read from: `ABS_MT_POSITION_X/Y` in protocol B.
    public let xAxis: AbsoluteAxis
    public let yAxis: AbsoluteAxis
    public let screen: Size
    public let deviceName: String
    public internal(set) var counters = Counters()

    let xMapping: AxisMapping
    let yMapping: AxisMapping
    /// Calibration and orientation, applied to every position.
    public let calibration: TouchCalibration
    let calibrates: Bool
    public let filters: TouchFilters
    /// The axis a contact's size is read from: ABS_MT_TOUCH_MAJOR, else ABS_MT_WIDTH_MAJOR; nil: none.
    public let sizeAxis: AbsoluteAxis?
    /// Millimetres per unit of `sizeAxis`: the X axis's resolution when it has one, else the panel's size.
    let sizeMillimetresPerUnit: Double
    /// Single touch with a pressure threshold: what BTN_TOUCH and ABS_PRESSURE say now.
    var buttonDown = false
    var pressure: Int32 = 0
    var slots: [Slot]
    /// The slot the multitouch values refer to; -1 after an `ABS_MT_SLOT` beyond the slots.
    private var currentSlot = 0
    private var dropping = false
    var touchButtonReleased = false
    /// The id the next contact gets; a decoder that takes over from another starts from here.
    public private(set) var nextTouchID: Int
    var frameTouches: [Touch] = []
    var pendingTouches: [Touch] = []
    var pendingTime = Instant.zero
    var hasPendingFrame = false
    // For `diagnostic`: did touches come down while the position axes stood still?
    var touchesCameDown = false
    var positionAxisChanged = false
    var otherAxesChanged: UInt64 = 0

    /// A decoder for `device`, mapping its position axes onto `screen`.
    ///
    /// `positionAxes` reads single-touch positions from other axes than `ABS_X/ABS_Y`.
    public init(
        device: DeviceDescription, screen: Size, positionAxes: (x: AbsoluteAxis, y: AbsoluteAxis)? = nil,
        calibration: TouchCalibration = .identity, filters: TouchFilters = .none, firstTouchID: Int = 1
    ) throws(TouchDecoderError) {
        self.filters = filters
        nextTouchID = firstTouchID
        self.calibration = calibration
        calibrates = !calibration.isIdentity
        let slotCount: Int
        if let positionAxes,
           !(positionAxes == (.multitouchPositionX, .multitouchPositionY) && device.isMultitouchB) {
            for axis in [positionAxes.x, positionAxes.y] where device.axes[axis] == nil {
                throw .missingPositionAxis(device: device.name, axis: axis, axes: device.axisList)
            }
            guard device.supports(KeyCode.touch) else {
                throw .noTouchButton(device: device.name, positionAxes: [positionAxes.x, positionAxes.y])
            }
            (mode, xAxis, yAxis, slotCount) = (.singleTouch, positionAxes.x, positionAxes.y, 1)
        } else if device.isMultitouchB {
            let slotAxis = device.axes[.multitouchSlot]!
            guard slotAxis.maximum >= 0 else {
                throw .emptyAxisRange(
                    device: device.name, axis: .multitouchSlot, minimum: slotAxis.minimum, maximum: slotAxis.maximum)
            }
            slotCount = min(Int(slotAxis.maximum) + 1, Self.slotLimit)
            (mode, xAxis, yAxis) = (.multitouch(slots: slotCount), .multitouchPositionX, .multitouchPositionY)
        } else if device.isSingleTouch {
            (mode, xAxis, yAxis, slotCount) = (.singleTouch, .x, .y, 1)
        } else {
            throw .noTouchAxes(device: device.name, axes: device.axisList, hasTouchButton: device.supports(KeyCode.touch))
        }
        let xInfo = device.axes[xAxis]!, yInfo = device.axes[yAxis]!
        for (axis, info) in [(xAxis, xInfo), (yAxis, yInfo)] where info.maximum < info.minimum {
            throw .emptyAxisRange(device: device.name, axis: axis, minimum: info.minimum, maximum: info.maximum)
        }
        self.screen = screen
        deviceName = device.name
        xMapping = AxisMapping(xInfo, length: screen.width)
        if case .multitouch = mode {
            sizeAxis = device.axes[.multitouchTouchMajor] != nil ? .multitouchTouchMajor
                : device.axes[.multitouchWidthMajor] != nil ? .multitouchWidthMajor : nil
        } else {
            sizeAxis = nil
        }
        // The kernel gives sizes in the position axes' units (Documentation/input/multi-touch-protocol.rst).
        sizeMillimetresPerUnit = xInfo.resolution > 0 ? 1 / Double(xInfo.resolution)
            : screen.width / (Double(xInfo.maximum) - Double(xInfo.minimum) + 1) * filters.millimetresPerPixel
        yMapping = AxisMapping(yInfo, length: screen.height)
        slots = Array(
            repeating: Slot(x: xInfo.clamped(xInfo.value), y: yInfo.clamped(yInfo.value)), count: slotCount)
        // A slot can hold an ended touch, a same-report tap and a live touch in one frame.
        frameTouches.reserveCapacity(slotCount * 3)
        pendingTouches.reserveCapacity(slotCount * 2)
    }

    /// Reads one event; at a `SYN_REPORT` that changed something, returns the frame it completes.
    ///
    /// After a frame, call `nextPendingFrame()` until it returns nil: a report can hold more than
    /// one frame's worth of change.
    public mutating func feed(_ event: InputEvent) -> TouchFrame? {
        guard event.isWithinKernelLimits else {
            counters.rejectedEvents += 1
            return nil
        }
        if dropping {
            // The kernel's rule: after SYN_DROPPED, ignore everything up to and including the next SYN_REPORT.
            counters.droppedEvents += 1
            if event.type == .synchronization, event.code == SynchronizationCode.report.code { dropping = false }
            return nil
        }
        switch event.type {
        case .synchronization:
            // Value 1 is the kernel's own report after releasing what was down (input_dev_release_keys,
            // on unplug, reset or inhibit); drivers close theirs with 0.
            if event.code == SynchronizationCode.report.code { return finishReport(at: event.time, released: event.value == 1) }
            if event.code == SynchronizationCode.dropped.code {
                dropping = true
                counters.droppedSyncs += 1
            }
        case .absolute:
            absolute(AbsoluteAxis(rawValue: event.code.rawValue), event.value)
        case .key where event.code == KeyCode.touch.code:
            touchButton(down: event.value != 0)
        default:
            break
        }
        return nil
    }

    /// The frame queued by the last report, if any: where a touch that began in it also ends.
    public mutating func nextPendingFrame() -> TouchFrame? {
        guard hasPendingFrame else { return nil }
        hasPendingFrame = false
        return TouchFrame(time: pendingTime, touches: pendingTouches)
    }

    /// Ends as cancelled every touch the frames so far began and did not end, as when the device
    /// goes away: returns the frame that says so (nil when there is none) and starts afresh, so the
    /// next contact is a new touch.
    ///
    /// The report being read is dropped unfinished, and only what frames said counts: a touch that
    /// began in it was never reported and is left out; one that lifted in it, or whose slot took a
    /// new tracking id, never ended for the frames and is cancelled where the last frame had it. A
    /// same-report tap whose end still waits for `nextPendingFrame` is cancelled too.
    public mutating func cancelAll(at time: Instant) -> TouchFrame? {
        frameTouches.removeAll(keepingCapacity: true)
        if hasPendingFrame {
            // The frame before began these; the pending frame that ends them is dropped.
            for touch in pendingTouches where touch.phase.isFinal {
                frameTouches.append(Touch(id: touch.id, phase: .cancelled, location: touch.location))
            }
        }
        for i in slots.indices {
            let location = point(slots[i].reportedX, slots[i].reportedY)
            // Set only for a touch from before this report, as the last frame had it.
            if let lift = slots[i].ended {
                frameTouches.append(Touch(id: lift.touch, phase: .cancelled, location: location))
            }
            if let touch = slots[i].touch, !slots[i].began {
                frameTouches.append(Touch(id: touch, phase: .cancelled, location: location))
            }
            slots[i].touch = nil
            slots[i].trackingID = -1
            slots[i].began = false
            slots[i].ended = nil
            slots[i].tap = nil
        }
        currentSlot = 0
        dropping = false
        touchButtonReleased = false
        hasPendingFrame = false
        return frameTouches.isEmpty ? nil : TouchFrame(time: time, touches: frameTouches)
    }

    /// The contact size of a touch down or just lifted, in millimetres; nil when the panel reports none.
    public func sizeMillimetres(of id: TouchID) -> Double? {
        guard sizeAxis != nil, sizeMillimetresPerUnit > 0 else { return nil }
        guard let slot = slots.first(where: { $0.touch == id || $0.tap?.touch == id || $0.ended?.touch == id }) else { return nil }
        return Double(slot.size) * sizeMillimetresPerUnit
    }

    /// How many touches are down now.
    public var activeTouchCount: Int { slots.reduce(0) { $0 + ($1.touch == nil ? 0 : 1) } }

    // MARK: Events

    private mutating func absolute(_ axis: AbsoluteAxis, _ value: Int32) {
        noteChange(of: axis)
        switch mode {
        case .singleTouch:
            if axis == xAxis { slots[0].x = clamped(value, xMapping) }
            if axis == yAxis { slots[0].y = clamped(value, yMapping) }
            if axis == .pressure { pressure = value }
        case .multitouch:
            if axis == .multitouchSlot {
                if value >= 0 && Int(value) < slots.count {
                    currentSlot = Int(value)
                } else {
                    currentSlot = -1
                    counters.ignoredSlots += 1
                }
                return
            }
            guard currentSlot >= 0 else { return }
            if axis == .multitouchTrackingID {
                trackingID(value, slot: currentSlot)
            } else if axis == xAxis {
                slots[currentSlot].x = clamped(value, xMapping)
            } else if axis == yAxis {
                slots[currentSlot].y = clamped(value, yMapping)
            } else if axis == sizeAxis {
                slots[currentSlot].size = value
            }
        }
    }

    private mutating func trackingID(_ id: Int32, slot: Int) {
        if id < 0 {
            guard slots[slot].touch != nil else { return counters.releasesWithoutPress += 1 }
            end(slot)
        } else if slots[slot].touch == nil {
            begin(slot, trackingID: id)
        } else if slots[slot].trackingID != id {
            // A new contact on a slot whose contact never ended: the old finger is gone.
            counters.reusedTrackingIDs += 1
            end(slot)
            begin(slot, trackingID: id)
        }
    }

    private mutating func touchButton(down: Bool) {
        switch mode {
        case .singleTouch:
            // With a pressure threshold, the press is decided at the report's end, with the pressure.
            if filters.minimumPressure != nil {
                if !down, !buttonDown { counters.releasesWithoutPress += 1 }
                return buttonDown = down
            }
            if down, slots[0].touch == nil { begin(0, trackingID: 0) }
            if !down {
                guard slots[0].touch != nil else { return counters.releasesWithoutPress += 1 }
                end(0)
            }
        case .multitouch:
            // Decided at the report's end: the slots' own lifts usually come before BTN_TOUCH 0.
            touchButtonReleased = !down
        }
    }

    mutating func begin(_ slot: Int, trackingID: Int32) {
        slots[slot].touch = TouchID(nextTouchID)
        nextTouchID += 1
        slots[slot].began = true
        slots[slot].trackingID = trackingID
        touchesCameDown = true
    }

    mutating func end(_ slot: Int, phase: TouchPhase = .ended) {
        guard let touch = slots[slot].touch else { return }
        let lift = Lift(touch: touch, phase: phase, x: slots[slot].x, y: slots[slot].y)
        if slots[slot].began {
            if slots[slot].tap != nil { counters.collapsedTaps += 1 }
            slots[slot].tap = lift
        } else {
            slots[slot].ended = lift
        }
        slots[slot].touch = nil
        slots[slot].began = false
        slots[slot].trackingID = -1
    }

    private mutating func clamped(_ value: Int32, _ mapping: AxisMapping) -> Int32 {
        if mapping.contains(value) { return value }
        counters.outOfRangeValues += 1
        return mapping.clamped(value)
    }
}
