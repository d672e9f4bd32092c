import InputEvents
import KioskTestSupport
import Testing

@Suite("Event codes and device descriptions")
struct EventCodeTests {
    @Test(arguments: ["ABS_X", "ABS_Y", "ABS_Z", "ABS_RX", "ABS_PRESSURE", "ABS_MT_SLOT", "ABS_MT_POSITION_X", "ABS_MT_TRACKING_ID"])
    func axisNamesReadBackToTheSameAxis(name: String) throws {
        let axis = try #require(AbsoluteAxis(name: name))
        #expect(axis.name == name)
    }

    @Test func everyAxisCodeHasANameThatReadsBack() {
        for raw in 0..<UInt16(AbsoluteAxis.count) {
            let axis = AbsoluteAxis(rawValue: raw)
            #expect(AbsoluteAxis(name: axis.name) == axis, "\(axis.name)")
        }
    }

    @Test func axisCodesAreTheKernels() {
        #expect(AbsoluteAxis(name: "ABS_Z")?.rawValue == 0x02)
        #expect(AbsoluteAxis(name: "ABS_RX")?.rawValue == 0x03)
        #expect(AbsoluteAxis.multitouchSlot.rawValue == 0x2f)
        #expect(AbsoluteAxis.multitouchTrackingID.rawValue == 0x39)
        #expect(KeyCode.touch.rawValue == 0x14a)
        #expect(EventType.absolute.rawValue == 3)
    }

    @Test(arguments: ["", "ABS_W", "abs_x", "ABS_0x40", "X"])
    func unknownAxisNamesAreRefused(name: String) {
        #expect(AbsoluteAxis(name: name) == nil)
    }

    @Test func tellsProtocolBFromSingleTouch() {
        let ft5406 = SyntheticTouchscreen.ft5406
        #expect(ft5406.isMultitouchB && ft5406.isDirect)
        #expect(ft5406.isSingleTouch)  // pointer emulation gives it ABS_X/ABS_Y too
        let resistive = SyntheticTouchscreen.resistive
        #expect(resistive.isSingleTouch && !resistive.isMultitouchB)
        var noSlots = DeviceDescription(name: "Protocol A")
        noSlots.setAxis(.multitouchPositionX, AxisInfo(minimum: 0, maximum: 99))
        noSlots.setAxis(.multitouchPositionY, AxisInfo(minimum: 0, maximum: 99))
        #expect(!noSlots.isMultitouchB && !noSlots.isSingleTouch)
    }

    @Test func axesAreAlsoSupportedCodes() {
        var device = DeviceDescription(name: "Axes", axes: [.x: AxisInfo(minimum: 0, maximum: 9)])
        device.setAxis(.pressure, AxisInfo(minimum: 0, maximum: 255))
        #expect(device.supports(AbsoluteAxis.x) && device.supports(AbsoluteAxis.pressure))
        #expect(device.supportedTypes == [.absolute])
        #expect(DeviceDescription(name: "A", supportedCodes: [.key: []]) == DeviceDescription(name: "A"))
    }
}
