import CLinuxInput

extension DeviceDescription {
    /// The Raspberry Pi 7" panel's FT5406 as the edt-ft5x06 driver reports it: protocol B, 10 slots,
    /// 800x480. A replay without a trace plays on it.
    public static let ft5406 = DeviceDescription(
        name: "generic ft5x06 (79)",
        bus: UInt16(BUS_I2C),
        properties: .direct,
        supportedCodes: [
            // What evemu-record reports for `EV_SYN` on every device (it writes this mask whatever
            // the device; a protocol A device's SYN_MT_REPORT is not in it).
            .synchronization: [SynchronizationCode.report.code, SynchronizationCode.config.code, SynchronizationCode.dropped.code],
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
}
