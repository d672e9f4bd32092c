import InputEvents
import KioskCore
import MultitouchA

/// Decodes a touchscreen of any kind kiosk takes into touch frames: protocol A devices through
/// libmtdev's conversion to protocol B first, protocol B and single-touch devices straight.
///
/// The device's own events go in, as `kiosk record` records them; the decoder sees the converted
/// ones. A class, because the converter holds libmtdev's state: a copy could not be independent.
public final class TouchscreenDecoder {
    public private(set) var decoder: TouchDecoder
    /// The conversion from protocol A; nil for other devices.
    public let converter: ProtocolAConverter?
    /// The whole-touch filters (duration, size, regions); nil when they are off.
    public private(set) var frameFilter: TouchFrameFilter?

    /// A decoder for `device` mapping onto `screen`; the arguments are `TouchDecoder`'s.
    public init(
        device: DeviceDescription, screen: Size, positionAxes: (x: AbsoluteAxis, y: AbsoluteAxis)? = nil,
        calibration: TouchCalibration = .identity, filters: TouchFilters = .none, firstTouchID: Int = 1
    ) throws {
        let converter = device.isMultitouchA ? try ProtocolAConverter(device: device) : nil
        decoder = try TouchDecoder(device: converter?.protocolB ?? device, screen: screen, positionAxes: positionAxes,
                                   calibration: calibration, filters: filters, firstTouchID: firstTouchID)
        self.converter = converter
        frameFilter = filters.dropsTouches ? TouchFrameFilter(filters) : nil
    }

    /// Reads one of the device's events; calls `deliver` with every frame it completes, in order.
    public func feed(_ event: InputEvent, _ deliver: (TouchFrame) -> Void) {
        if let converter {
            converter.convert(event) { decode($0, deliver) }
        } else {
            decode(event, deliver)
        }
    }

    /// What the decoder counted, with the events the protocol A conversion dropped as rejected.
    public var counters: TouchDecoder.Counters {
        var counters = decoder.counters
        if let converter { counters.rejectedEvents += converter.counters.total }
        return counters
    }

    /// Fingers down now.
    public var activeTouchCount: Int { decoder.activeTouchCount }

    /// The id the next contact gets: where a decoder for the next device starts.
    public var nextTouchID: Int { decoder.nextTouchID }

    /// Ends every touch as cancelled (the device went away); nil when nothing was down.
    public func cancelAll(at time: Instant) -> TouchFrame? {
        guard let frame = decoder.cancelAll(at: time) else { return nil }
        guard frameFilter != nil else { return frame }
        // Only what the filter let through was begun for the gestures: only that is cancelled.
        var passed: TouchFrame?
        pass(frame) { passed = $0 }
        return passed
    }

    private func decode(_ event: InputEvent, _ deliver: (TouchFrame) -> Void) {
        if let frame = decoder.feed(event) { pass(frame, deliver) }
        while let frame = decoder.nextPendingFrame() { pass(frame, deliver) }
    }

    private func pass(_ frame: TouchFrame, _ deliver: (TouchFrame) -> Void) {
        guard frameFilter != nil else { return deliver(frame) }
        let decoder = self.decoder
        frameFilter!.filter(frame, sizeMillimetres: { decoder.sizeMillimetres(of: $0) }, deliver)
    }

    /// When a touch held back by the minimum duration is due to begin; call `advance` then.
    public var nextDeadline: Instant? { frameFilter?.nextDeadline }

    /// Delivers the frames of held touches whose minimum duration is reached by `now`.
    public func advance(to now: Instant, _ deliver: (TouchFrame) -> Void) {
        frameFilter?.advance(to: now, deliver)
    }

    /// What the whole-touch filters dropped.
    public var filterCounters: TouchFrameFilter.Counters { frameFilter?.counters ?? .init() }
}
