import CLinuxInput

/// The kernel's names for event types, codes and properties, built from the C constants.
///
/// Only the types and codes a touch device sends are named beyond `EV_*`; the rest print as hex.
enum EventNames {
    static let typeNames: [EventType: String] = table([
        (EV_SYN, "EV_SYN"), (EV_KEY, "EV_KEY"), (EV_REL, "EV_REL"), (EV_ABS, "EV_ABS"),
        (EV_MSC, "EV_MSC"), (EV_SW, "EV_SW"), (EV_LED, "EV_LED"), (EV_SND, "EV_SND"),
        (EV_REP, "EV_REP"), (EV_FF, "EV_FF"), (EV_PWR, "EV_PWR"), (EV_FF_STATUS, "EV_FF_STATUS"),
    ]) { EventType($0) }

    /// The `*_MAX` of each type whose bitmask evemu writes (those libevdev knows a maximum for).
    static let maximumCodes: [EventType: UInt16] = table([
        (EV_SYN, SYN_MAX), (EV_KEY, KEY_MAX), (EV_REL, REL_MAX), (EV_ABS, ABS_MAX), (EV_MSC, MSC_MAX),
        (EV_SW, SW_MAX), (EV_LED, LED_MAX), (EV_SND, SND_MAX), (EV_REP, REP_MAX), (EV_FF, FF_MAX),
    ].map { ($0.0, UInt16($0.1)) }) { EventType($0) }

    static let synchronizationNames: [UInt16: String] = codes([
        (SYN_REPORT, "SYN_REPORT"), (SYN_CONFIG, "SYN_CONFIG"), (SYN_MT_REPORT, "SYN_MT_REPORT"),
        (SYN_DROPPED, "SYN_DROPPED"),
    ])

    static let keyNames: [UInt16: String] = codes([
        (BTN_LEFT, "BTN_LEFT"), (BTN_RIGHT, "BTN_RIGHT"), (BTN_MIDDLE, "BTN_MIDDLE"),
        (BTN_TOOL_PEN, "BTN_TOOL_PEN"), (BTN_TOOL_RUBBER, "BTN_TOOL_RUBBER"),
        (BTN_TOOL_FINGER, "BTN_TOOL_FINGER"), (BTN_TOOL_QUINTTAP, "BTN_TOOL_QUINTTAP"),
        (BTN_TOUCH, "BTN_TOUCH"), (BTN_STYLUS, "BTN_STYLUS"), (BTN_STYLUS2, "BTN_STYLUS2"),
        (BTN_TOOL_DOUBLETAP, "BTN_TOOL_DOUBLETAP"), (BTN_TOOL_TRIPLETAP, "BTN_TOOL_TRIPLETAP"),
        (BTN_TOOL_QUADTAP, "BTN_TOOL_QUADTAP"),
    ])

    static let absoluteNames: [UInt16: String] = codes([
        (ABS_X, "ABS_X"), (ABS_Y, "ABS_Y"), (ABS_Z, "ABS_Z"), (ABS_RX, "ABS_RX"), (ABS_RY, "ABS_RY"),
        (ABS_RZ, "ABS_RZ"), (ABS_THROTTLE, "ABS_THROTTLE"), (ABS_RUDDER, "ABS_RUDDER"),
        (ABS_WHEEL, "ABS_WHEEL"), (ABS_GAS, "ABS_GAS"), (ABS_BRAKE, "ABS_BRAKE"),
        (ABS_HAT0X, "ABS_HAT0X"), (ABS_HAT0Y, "ABS_HAT0Y"), (ABS_HAT1X, "ABS_HAT1X"),
        (ABS_HAT1Y, "ABS_HAT1Y"), (ABS_HAT2X, "ABS_HAT2X"), (ABS_HAT2Y, "ABS_HAT2Y"),
        (ABS_HAT3X, "ABS_HAT3X"), (ABS_HAT3Y, "ABS_HAT3Y"), (ABS_PRESSURE, "ABS_PRESSURE"),
        (ABS_DISTANCE, "ABS_DISTANCE"), (ABS_TILT_X, "ABS_TILT_X"), (ABS_TILT_Y, "ABS_TILT_Y"),
        (ABS_TOOL_WIDTH, "ABS_TOOL_WIDTH"), (ABS_VOLUME, "ABS_VOLUME"), (ABS_PROFILE, "ABS_PROFILE"),
        (ABS_MISC, "ABS_MISC"), (ABS_RESERVED, "ABS_RESERVED"), (ABS_MT_SLOT, "ABS_MT_SLOT"),
        (ABS_MT_TOUCH_MAJOR, "ABS_MT_TOUCH_MAJOR"), (ABS_MT_TOUCH_MINOR, "ABS_MT_TOUCH_MINOR"),
        (ABS_MT_WIDTH_MAJOR, "ABS_MT_WIDTH_MAJOR"), (ABS_MT_WIDTH_MINOR, "ABS_MT_WIDTH_MINOR"),
        (ABS_MT_ORIENTATION, "ABS_MT_ORIENTATION"), (ABS_MT_POSITION_X, "ABS_MT_POSITION_X"),
        (ABS_MT_POSITION_Y, "ABS_MT_POSITION_Y"), (ABS_MT_TOOL_TYPE, "ABS_MT_TOOL_TYPE"),
        (ABS_MT_BLOB_ID, "ABS_MT_BLOB_ID"), (ABS_MT_TRACKING_ID, "ABS_MT_TRACKING_ID"),
        (ABS_MT_PRESSURE, "ABS_MT_PRESSURE"), (ABS_MT_DISTANCE, "ABS_MT_DISTANCE"),
        (ABS_MT_TOOL_X, "ABS_MT_TOOL_X"), (ABS_MT_TOOL_Y, "ABS_MT_TOOL_Y"),
    ])

    static let miscellaneousNames: [UInt16: String] = codes([
        (MSC_SERIAL, "MSC_SERIAL"), (MSC_PULSELED, "MSC_PULSELED"), (MSC_GESTURE, "MSC_GESTURE"),
        (MSC_RAW, "MSC_RAW"), (MSC_SCAN, "MSC_SCAN"), (MSC_TIMESTAMP, "MSC_TIMESTAMP"),
    ])

    static let codeNames: [EventType: [UInt16: String]] = [
        .synchronization: synchronizationNames, .key: keyNames, .absolute: absoluteNames,
        .miscellaneous: miscellaneousNames,
    ]

    static let axesByName: [String: AbsoluteAxis] = Dictionary(
        uniqueKeysWithValues: absoluteNames.map { ($0.value, AbsoluteAxis(rawValue: $0.key)) })

    static let propertyNames: [Int: String] = [
        Int(INPUT_PROP_POINTER): "INPUT_PROP_POINTER", Int(INPUT_PROP_DIRECT): "INPUT_PROP_DIRECT",
        Int(INPUT_PROP_BUTTONPAD): "INPUT_PROP_BUTTONPAD", Int(INPUT_PROP_SEMI_MT): "INPUT_PROP_SEMI_MT",
        Int(INPUT_PROP_TOPBUTTONPAD): "INPUT_PROP_TOPBUTTONPAD",
        Int(INPUT_PROP_POINTING_STICK): "INPUT_PROP_POINTING_STICK",
        Int(INPUT_PROP_ACCELEROMETER): "INPUT_PROP_ACCELEROMETER",
    ]

    private static func codes(_ pairs: [(Int32, String)]) -> [UInt16: String] {
        table(pairs) { UInt16($0) }
    }

    private static func table<Key: Hashable, Value>(
        _ pairs: [(Int32, Value)], key: (Int32) -> Key
    ) -> [Key: Value] {
        Dictionary(uniqueKeysWithValues: pairs.map { (key($0.0), $0.1) })
    }
}
