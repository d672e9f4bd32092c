import CLinuxInput
import InputEvents

extension SyntheticTouchscreen {
    /// The Raspberry Pi 7" panel's FT5406: protocol B, 10 slots, 800x480; the panel of a replay without a trace.
    public static let ft5406 = DeviceDescription.ft5406

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

    /// What evemu-record reports for `EV_SYN` on every device, whatever the device: the FT5406's mask.
    private static let synchronizationCodes = DeviceDescription.ft5406.supportedCodes[.synchronization] ?? []
}
