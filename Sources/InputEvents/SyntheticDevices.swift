import CLinuxInput

extension SyntheticTouchscreen {
    /// The Raspberry Pi 7" panel's FT5406 as the edt-ft5x06 driver reports it: protocol B, 10 slots, 800x480.
    public static let ft5406 = DeviceDescription(
        name: "generic ft5x06 (79)",
        bus: UInt16(BUS_I2C),
        properties: .direct,
        supportedCodes: [
            .synchronization: synchronizationCodes,
            .key: [KeyCode.touch.code],
        ],
        axes: [
            .x: AxisInfo(minimum: 0, maximum: 799),
            .y: AxisInfo(minimum: 0, maximum: 479),
            .multitouchSlot: AxisInfo(minimum: 0, maximum: 9),
            .multitouchPositionX: AxisInfo(minimum: 0, maximum: 799),
            .multitouchPositionY: AxisInfo(minimum: 0, maximum: 479),
            .multitouchTrackingID: AxisInfo(minimum: 0, maximum: 65535),
        ])

    /// A resistive single-touch panel as the ADS7846 driver reports it: 12-bit ABS_X/ABS_Y, pressure, BTN_TOUCH.
    public static let resistive = DeviceDescription(
        name: "ADS7846 Touchscreen",
        // The product is the chip's model.
        bus: UInt16(BUS_SPI), product: 7846,
        supportedCodes: [
            .synchronization: synchronizationCodes,
            .key: [KeyCode.touch.code],
        ],
        axes: [
            .x: AxisInfo(minimum: 0, maximum: 4095),
            .y: AxisInfo(minimum: 0, maximum: 4095),
            .pressure: AxisInfo(minimum: 0, maximum: 255),
        ])

    /// A multitouch protocol A panel, as older drivers and vendor drivers report one: contacts as
    /// ABS_MT_POSITION_X/Y closed by SYN_MT_REPORT, no slots and no tracking ids, BTN_TOUCH and
    /// ABS_X/ABS_Y for the first contact; 800x480.
    public static let protocolA = DeviceDescription(
        name: "Protocol A Touchscreen",
        bus: UInt16(BUS_I2C),
        properties: .direct,
        supportedCodes: [
            .synchronization: synchronizationCodes,
            .key: [KeyCode.touch.code],
        ],
        axes: [
            .x: AxisInfo(minimum: 0, maximum: 799),
            .y: AxisInfo(minimum: 0, maximum: 479),
            .multitouchPositionX: AxisInfo(minimum: 0, maximum: 799),
            .multitouchPositionY: AxisInfo(minimum: 0, maximum: 479),
        ])

    /// What evemu-record reports for `EV_SYN` on every device (it writes this mask whatever the
    /// device; a protocol A device's SYN_MT_REPORT is not in it).
    private static let synchronizationCodes: Set<EventCode> = [
        SynchronizationCode.report.code, SynchronizationCode.config.code, SynchronizationCode.dropped.code,
    ]
}
