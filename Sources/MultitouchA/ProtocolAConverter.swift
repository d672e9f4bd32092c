import CMtdev
import Gestures
import InputEvents
#if canImport(Glibc)
import Glibc
#endif

/// Turns the events of a multitouch protocol A device into protocol B through libmtdev, as
/// libinput and Qt do.
///
/// Protocol A sends every contact in every report, each closed by `SYN_MT_REPORT`, with no slots
/// and often no tracking ids. mtdev matches each report's contacts to the last report's, gives them
/// tracking ids and slots, and writes the changes as a protocol B device would, so `TouchDecoder`
/// reads them as it reads an FT5406. mtdev runs offline, through its plumbing API: the capabilities
/// come from a `DeviceDescription`, not from a file descriptor, so the same conversion serves a
/// live device and a recorded trace.
///
/// A report without contacts ends every contact, whether it holds one empty `SYN_MT_REPORT` (the
/// kernel's documented form) or only `BTN_TOUCH 0` (lvgl#9829): nothing is left down.
public final class ProtocolAConverter {
    /// libinput's choice for protocol A devices, which do not say how many contacts they track.
    public static let defaultSlotCount = 10

    /// The protocol A device whose events go in.
    public let device: DeviceDescription
    /// The device the converted events come from: `device` with `ABS_MT_SLOT` 0...`slotCount` - 1
    /// and `ABS_MT_TRACKING_ID`. Decode the converted events with this description.
    public let protocolB: DeviceDescription
    /// Slots the converted events use. mtdev puts contacts beyond them in higher slots, which the
    /// decoder drops and counts, as it does for any device.
    public let slotCount: Int
    private let handle: OpaquePointer

    /// A converter for `device`, which must be protocol A (`ABS_MT_POSITION_X/Y` without `ABS_MT_SLOT`).
    ///
    /// The multitouch axes are declared to mtdev with their ranges, fuzz and resolution, as
    /// `mtdev_configure` would read them from the device. Unlike `mtdev_configure`, no fuzz is
    /// invented for axes that declare none: a protocol B panel gets no such smoothing either, and
    /// the decoder has its own jitter filter for panels that need one.
    public init(device: DeviceDescription, slots: Int = ProtocolAConverter.defaultSlotCount) throws(ProtocolAConverterError) {
        guard device.isMultitouchA else { throw .notProtocolA(device: device.name, axes: device.axisList) }
        guard slots > 0 else { throw .noSlots(device: device.name) }
        guard let handle = mtdev_new() else { throw .mtdev(call: "mtdev_new", errno: ENOMEM) }
        let rc = mtdev_init(handle)
        guard rc == 0 else {
            mtdev_delete(handle)
            throw .mtdev(call: "mtdev_init", errno: -rc)
        }
        for (axis, info) in device.axes where axis.isMultitouch && axis != .multitouchSlot {
            let code = Int32(axis.rawValue)
            mtdev_set_mt_event(handle, code, 1)
            mtdev_set_abs_minimum(handle, code, info.minimum)
            mtdev_set_abs_maximum(handle, code, info.maximum)
            mtdev_set_abs_fuzz(handle, code, info.fuzz)
            mtdev_set_abs_resolution(handle, code, info.resolution)
        }
        let trackingID = Int32(AbsoluteAxis.multitouchTrackingID.rawValue)
        if device.axes[.multitouchTrackingID] == nil {
            // mtdev gives the contacts ids of its own, in this range (as mtdev_configure declares it).
            mtdev_set_abs_minimum(handle, trackingID, MT_ID_MIN)
            mtdev_set_abs_maximum(handle, trackingID, MT_ID_MAX)
        }
        // The slot range is declared for the converted device; ABS_MT_SLOT itself stays absent, or
        // mtdev would take the events for protocol B and pass them through.
        let slot = Int32(AbsoluteAxis.multitouchSlot.rawValue)
        mtdev_set_abs_minimum(handle, slot, 0)
        mtdev_set_abs_maximum(handle, slot, Int32(slots - 1))

        var converted = device
        converted.setAxis(.multitouchSlot, AxisInfo(
            minimum: mtdev_get_abs_minimum(handle, slot), maximum: mtdev_get_abs_maximum(handle, slot)))
        converted.setAxis(.multitouchTrackingID, AxisInfo(
            minimum: mtdev_get_abs_minimum(handle, trackingID), maximum: mtdev_get_abs_maximum(handle, trackingID)))
        self.device = device
        self.handle = handle
        protocolB = converted
        slotCount = Int(mtdev_get_abs_maximum(handle, slot)) + 1
    }

    deinit { mtdev_close_delete(handle) }

    /// Puts one event in and calls `body` with every protocol B event it completes.
    ///
    /// Events come out at each `SYN_REPORT`: the report's other events (`BTN_TOUCH`, `ABS_X`) as
    /// they were, then the slot changes, stamped with the report's time, then the `SYN_REPORT`
    /// with the value it came with.
    /// A report that changes nothing gives nothing. Nothing is allocated: mtdev's queues are its own,
    /// sized when it was made, and each event passes through one on the stack.
    public func convert(_ event: InputEvent, _ body: (InputEvent) -> Void) {
        var raw = input_event()
        let (seconds, microseconds) = event.time.microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        // A time before zero keeps a non-negative tv_usec, as the kernel writes it.
        let borrow: Int64 = microseconds < 0 ? 1 : 0
        raw.time.tv_sec = Int(seconds - borrow)
        raw.time.tv_usec = Int(microseconds + borrow * 1_000_000)
        raw.type = event.type.rawValue
        raw.code = event.code.rawValue
        raw.value = event.value
        mtdev_put_event(handle, &raw)
        let closesReport = event.type == .synchronization && event.code == SynchronizationCode.report.code
        while mtdev_empty(handle) == 0 {
            mtdev_get_event(handle, &raw)
            var out = InputEvent(
                time: Instant(microseconds: Int64(raw.time.tv_sec) * 1_000_000 + Int64(raw.time.tv_usec)),
                type: EventType(rawValue: raw.type), code: EventCode(rawValue: raw.code), value: raw.value)
            // The report's value says who closed it: 1 is the kernel releasing a device that went
            // away, whose lifts must cancel. Carried over whatever mtdev does with it.
            if closesReport, out.type == .synchronization, out.code == SynchronizationCode.report.code { out.value = event.value }
            body(out)
        }
    }

    /// Every event of `events`, converted: for traces.
    public func convert(_ events: some Sequence<InputEvent>) -> [InputEvent] {
        var out: [InputEvent] = []
        for event in events { convert(event) { out.append($0) } }
        return out
    }
}
