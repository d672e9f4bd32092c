import CMtdev
import InputEvents
import KioskCore
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
///
/// libmtdev trusts its input: it indexes fixed arrays by event code and by contact, so a trace can
/// crash or hang it where a kernel never would. Only what it can take reaches it; the rest is
/// dropped and counted (`Counters`):
/// - an event no kernel can send (`isWithinKernelLimits`): an `EV_ABS` code above `ABS_MAX` reads
///   past its code table (a segfault);
/// - contacts beyond `contactLimit` in one report: a 32nd slot or contact hangs it (it walks its
///   32-bit masks with a shift by 32 once bit 31 is set); with the device's own tracking ids, the
///   last report's contacts and this one's must fit in 31 slots together;
/// - `ABS_MT_SLOT`: a protocol A device has no slots, and mtdev would pass it on as if it had;
/// - events beyond `eventLimit` in one report: its queues hold 511, and a report comes out with its
///   slot changes added.
public final class ProtocolAConverter {
    /// libinput's choice for protocol A devices, which do not say how many contacts they track.
    public static let defaultSlotCount = 10

    /// libmtdev's contacts and slots (`DIM_FINGER`, 32), of which it can use 31: its bit masks are
    /// 32 bits wide, and its `foreach_bit` shifts by 32 after bit 31, which starts it over.
    static let mtdevContacts = 31
    /// libmtdev's event queues (`DIM_EVENTS`, 512): a ring buffer that holds one less.
    static let mtdevQueue = 512
    /// The multitouch axes libmtdev knows (its `MT_ABS_SIZE` codes, `ABS_MT_TOUCH_MAJOR`...`ABS_MT_DISTANCE`).
    static let mtdevAxes = UInt16(ABS_MT_TOUCH_MAJOR)...UInt16(ABS_MT_DISTANCE)

    /// What the converter kept from libmtdev.
    public struct Counters: Hashable, Sendable {
        /// Events no kernel can send (a type above `EV_MAX`, a code above its type's maximum), or no
        /// protocol A device (`ABS_MT_SLOT`), dropped.
        public var invalidEvents = 0
        /// Contacts beyond `contactLimit` in one report, dropped with their values.
        public var droppedContacts = 0
        /// Events beyond `eventLimit` in one report, dropped.
        public var droppedEvents = 0

        public init() {}

        /// Everything dropped, for the input counters.
        public var total: Int { invalidEvents + droppedContacts + droppedEvents }
    }

    /// The protocol A device whose events go in.
    public let device: DeviceDescription
    /// The device the converted events come from: `device` with `ABS_MT_SLOT` 0...`slotCount` - 1
    /// and `ABS_MT_TRACKING_ID`. Decode the converted events with this description.
    public let protocolB: DeviceDescription
    /// Slots the converted events use. mtdev puts contacts beyond them in higher slots, which the
    /// decoder drops and counts, as it does for any device.
    public let slotCount: Int
    /// Contacts one report may hold: 31 (libmtdev hangs at 32); 15 when the device sends its own
    /// tracking ids, so that the last report's contacts and this one's, all new, fit in 31 slots.
    public let contactLimit: Int
    /// Events one report may hold, its `SYN_REPORT` aside: what libmtdev's queue holds with room
    /// for the slot changes it adds (a slot, a tracking id and a lift for each of its 32 slots).
    public static let eventLimit = mtdevQueue / 2
    /// What was dropped before libmtdev.
    public private(set) var counters = Counters()
    private let handle: OpaquePointer
    /// This report's contacts closed so far, and its events put in.
    private var contactsInReport = 0
    private var eventsInReport = 0

    /// A converter for `device`, which must be protocol A (`ABS_MT_POSITION_X/Y` without `ABS_MT_SLOT`).
    ///
    /// The multitouch axes are declared to mtdev with their ranges, fuzz and resolution, as
    /// `mtdev_configure` would read them from the device. Unlike `mtdev_configure`, no fuzz is
    /// invented for axes that declare none: a protocol B panel gets no such smoothing either, and
    /// the decoder has its own jitter filter for panels that need one.
    public init(device: DeviceDescription, slots: Int = ProtocolAConverter.defaultSlotCount) throws(ProtocolAConverterError) {
        guard device.isMultitouchA else { throw .notProtocolA(device: device.name, axes: device.axisList) }
        guard slots > 0 else { throw .noSlots(device: device.name) }
        guard let handle = mtdev_new() else { throw .mtdev(SystemCallError(call: "mtdev_new", errno: Errno(rawValue: ENOMEM))) }
        let rc = mtdev_init(handle)
        guard rc == 0 else {
            mtdev_delete(handle)
            throw .mtdev(SystemCallError(call: "mtdev_init", errno: Errno(rawValue: -rc)))
        }
        // Only the axes mtdev has a place for: others (ABS_MT_TOOL_X) would index before its tables.
        for (axis, info) in device.axes where Self.mtdevAxes.contains(axis.rawValue) {
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
        contactLimit = device.axes[.multitouchTrackingID] == nil ? Self.mtdevContacts : Self.mtdevContacts / 2
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
        guard admits(event) else { return }
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

    /// Whether `event` may go into libmtdev; counts it when not. See the type's summary.
    private func admits(_ event: InputEvent) -> Bool {
        guard event.isWithinKernelLimits, !(event.type == .absolute && event.code == AbsoluteAxis.multitouchSlot.code) else {
            counters.invalidEvents += 1
            return false
        }
        if event.type == .synchronization, event.code == SynchronizationCode.report.code {
            contactsInReport = 0
            eventsInReport = 0
            return true
        }
        let closesContact = event.type == .synchronization && event.code == SynchronizationCode.multitouchReport.code
        if closesContact || (event.type == .absolute && Self.mtdevAxes.contains(event.code.rawValue)) {
            // A contact's values come before the SYN_MT_REPORT that closes it: past the limit, both go.
            guard contactsInReport < contactLimit else {
                if closesContact { counters.droppedContacts += 1 }
                return false
            }
            if closesContact { contactsInReport += 1 }
        }
        guard eventsInReport < Self.eventLimit else {
            counters.droppedEvents += 1
            return false
        }
        eventsInReport += 1
        return true
    }

    /// Every event of `events`, converted: for traces.
    public func convert(_ events: some Sequence<InputEvent>) -> [InputEvent] {
        var out: [InputEvent] = []
        for event in events { convert(event) { out.append($0) } }
        return out
    }
}
