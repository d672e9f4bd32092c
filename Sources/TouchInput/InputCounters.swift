import InputEvents

/// What live touch input met over a whole run, across every device attached and removed.
public struct InputCounters: Hashable, Sendable {
    /// Times the kernel dropped events (`SYN_DROPPED`) and the device was resynchronised.
    public var resyncs = 0
    /// Slot changes beyond the device's last slot: more fingers than slots. Their contacts are dropped.
    public var slotOverflows = 0
    /// Position values outside the axis range, clamped into it.
    public var outOfRangeValues = 0
    /// New tracking ids on a slot whose contact never lifted: the old touch ended, a new one began.
    public var reusedTrackingIDs = 0
    /// Lifts of contacts that were never down.
    public var releasesWithoutPress = 0
    /// Touches cancelled because their device went away (unplugged, reset or inhibited).
    public var unplugCancelledTouches = 0
    /// Events thrown away unread: no kernel can send them, or libmtdev could not take them (more
    /// contacts in one report than it tracks). Only a damaged device or trace causes them.
    public var rejectedEvents = 0
    /// Touches dropped whole for lasting less than `[input] minimum_touch_duration`.
    public var shortTouchesDropped = 0
    /// Touches dropped (or cancelled) for a contact over `[input] maximum_touch_size`.
    public var largeTouchesDropped = 0
    /// Touches that began in an `[input] ignore` region.
    public var ignoredRegionTouches = 0
    /// Touchscreens taken.
    public var devicesAttached = 0
    /// Touchscreens that went away while taken.
    public var devicesRemoved = 0

    public init() {}

    /// The counts of one decoder, and of its device's resyncs.
    public init(decoding c: TouchDecoder.Counters, filtering f: TouchFrameFilter.Counters = .init(), resyncs: Int = 0) {
        shortTouchesDropped = f.short
        largeTouchesDropped = f.large
        ignoredRegionTouches = f.ignoredRegion
        self.resyncs = resyncs
        slotOverflows = c.ignoredSlots
        outOfRangeValues = c.outOfRangeValues
        reusedTrackingIDs = c.reusedTrackingIDs
        releasesWithoutPress = c.releasesWithoutPress
        unplugCancelledTouches = c.releaseCancelledTouches
        rejectedEvents = c.rejectedEvents
    }

    public static func + (a: InputCounters, b: InputCounters) -> InputCounters {
        var sum = a
        sum.resyncs += b.resyncs
        sum.slotOverflows += b.slotOverflows
        sum.outOfRangeValues += b.outOfRangeValues
        sum.reusedTrackingIDs += b.reusedTrackingIDs
        sum.releasesWithoutPress += b.releasesWithoutPress
        sum.unplugCancelledTouches += b.unplugCancelledTouches
        sum.rejectedEvents += b.rejectedEvents
        sum.shortTouchesDropped += b.shortTouchesDropped
        sum.largeTouchesDropped += b.largeTouchesDropped
        sum.ignoredRegionTouches += b.ignoredRegionTouches
        sum.devicesAttached += b.devicesAttached
        sum.devicesRemoved += b.devicesRemoved
        return sum
    }

    /// The counts for the stats line: as `fields()`, but the three filters' counts in one field,
    /// `input.filtered=SHORT/LARGE/REGION`, so the whole line fits one log line.
    public func statsFields() -> [(String, String)] {
        var out: [(String, String)] = []
        for (key, value) in fields() {
            switch key {
            case "input.filtered_short":
                out.append(("input.filtered", "\(shortTouchesDropped)/\(largeTouchesDropped)/\(ignoredRegionTouches)"))
            case "input.filtered_large", "input.filtered_region":
                continue
            default:
                out.append((key, "\(value)"))
            }
        }
        return out
    }

    /// Every count under a dotted key (`input.resyncs`, `input.slot_overflows`, ...), for `kiosk touches`.
    public func fields() -> [(key: String, value: Int)] {
        [
            ("input.resyncs", resyncs),
            ("input.slot_overflows", slotOverflows),
            ("input.out_of_range", outOfRangeValues),
            ("input.tracking_id_reuse", reusedTrackingIDs),
            ("input.releases_without_press", releasesWithoutPress),
            ("input.rejected_events", rejectedEvents),
            // Before the device counts, which scripts read as the line's end.
            ("input.filtered_short", shortTouchesDropped),
            ("input.filtered_large", largeTouchesDropped),
            ("input.filtered_region", ignoredRegionTouches),
            ("input.unplug_cancelled", unplugCancelledTouches),
            ("input.devices_attached", devicesAttached),
            ("input.devices_removed", devicesRemoved),
        ]
    }
}
