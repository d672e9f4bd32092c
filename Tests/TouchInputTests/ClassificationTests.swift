import Glibc
import InputEvents
import KioskTestSupport
import Testing
@testable import TouchInput

/// Touchscreens are chosen by capability, never by name; everything else is skipped with the reason.
@Suite("Touchscreen classification")
struct ClassificationTests {
    func device(_ name: String, properties: InputProperties = [], keys: [KeyCode] = [], axes: [AbsoluteAxis: AxisInfo] = [:]) -> DeviceDescription {
        var d = DeviceDescription(name: name, properties: properties, axes: axes)
        for k in keys { d.enable(k) }
        return d
    }

    let mtAxes: [AbsoluteAxis: AxisInfo] = [
        .multitouchSlot: AxisInfo(minimum: 0, maximum: 9),
        .multitouchPositionX: AxisInfo(minimum: 0, maximum: 799),
        .multitouchPositionY: AxisInfo(minimum: 0, maximum: 479),
        .multitouchTrackingID: AxisInfo(minimum: 0, maximum: 65535),
    ]

    @Test func theFT5406AndTheResistivePanelAreTouchscreens() {
        #expect(TouchscreenKind.classify(SyntheticTouchscreen.ft5406) == .success(.multitouch(slots: 10)))
        #expect(TouchscreenKind.classify(SyntheticTouchscreen.resistive) == .success(.singleTouch))
    }

    @Test func aTouchscreenNamedLikeAKeyboardIsStillATouchscreen() {
        var d = SyntheticTouchscreen.ft5406
        d.name = "AT Translated Set 2 keyboard"
        #expect(TouchscreenKind.classify(d) == .success(.multitouch(slots: 10)))
    }

    @Test func aTouchpadIsSkipped() {
        let pad = device("SynPS/2 Synaptics TouchPad", properties: .pointer, keys: [.touch, .toolFinger], axes: mtAxes)
        guard case .failure(let why) = TouchscreenKind.classify(pad) else { Issue.record("a touchpad was taken"); return }
        #expect(why.reason.hasPrefix("a touchpad"))
    }

    @Test func indirectMultitouchIsSkippedWithTheReason() {
        guard case .failure(let indirect) = TouchscreenKind.classify(device("tablet", keys: [.touch], axes: mtAxes)) else { Issue.record(); return }
        #expect(indirect.reason.contains("no INPUT_PROP_DIRECT"))
    }

    @Test func aDirectProtocolAPanelIsATouchscreenReadThroughMtdev() {
        var protocolA = mtAxes
        protocolA[.multitouchSlot] = nil
        let kind = TouchscreenKind.classify(device("old panel", properties: .direct, axes: protocolA))
        #expect(kind == .success(.multitouchA(slots: 10)))
        // With ABS_X/ABS_Y and BTN_TOUCH besides, it is still multitouch, not single touch.
        #expect(TouchscreenKind.classify(SyntheticTouchscreen.protocolA) == .success(.multitouchA(slots: 10)))
        #expect(TouchscreenKind.multitouchA(slots: 10).description == "multitouch protocol A, through mtdev as protocol B with 10 slots")
        guard case .failure(let indirect) = TouchscreenKind.classify(device("old tablet", keys: [.touch], axes: protocolA)) else { Issue.record(); return }
        #expect(indirect.reason == "multitouch protocol A but not direct (no INPUT_PROP_DIRECT): not a screen")
    }

    @Test func aPenTabletIsSkippedThoughItHasTheSingleTouchAxes() {
        // ABS_X/ABS_Y with BTN_TOUCH, like a resistive panel, but a pen off the screen.
        let tablet = device("Wacom Intuos S Pen", keys: [.touch, .toolPen], axes: [
            .x: AxisInfo(minimum: 0, maximum: 15200), .y: AxisInfo(minimum: 0, maximum: 9500), .pressure: AxisInfo(minimum: 0, maximum: 4095),
        ])
        #expect(tablet.isSingleTouch)
        guard case .failure(let why) = TouchscreenKind.classify(tablet) else { Issue.record("a pen tablet was taken"); return }
        #expect(why.reason == "a pen tablet (BTN_TOOL_PEN without INPUT_PROP_DIRECT): it moves a pointer, it is not on the screen")
        // A pen on the screen itself (INPUT_PROP_DIRECT) is used as one contact.
        var onScreen = tablet
        onScreen.properties = .direct
        #expect(TouchscreenKind.classify(onScreen) == .success(.singleTouch))
        // The resistive panel has no INPUT_PROP_DIRECT either, but no pen: it is taken.
        #expect(TouchscreenKind.classify(SyntheticTouchscreen.resistive) == .success(.singleTouch))
    }

    @Test func aKeyboardIsSkippedNamingTheAxesItLacks() {
        guard case .failure(let why) = TouchscreenKind.classify(device("keyboard", keys: [.left])) else { Issue.record(); return }
        #expect(why.reason == "no touch axes: lacks ABS_MT_SLOT + ABS_MT_POSITION_X/Y (multitouch) and ABS_X/ABS_Y and BTN_TOUCH (single touch); it has no absolute axes")
        let egalax = device("eGalax", keys: [.touch], axes: [.z: AxisInfo(minimum: 30, maximum: 4040), .rx: AxisInfo(minimum: 60, maximum: 4050)])
        guard case .failure(let e) = TouchscreenKind.classify(egalax) else { Issue.record(); return }
        #expect(e.reason.hasSuffix("lacks ABS_MT_SLOT + ABS_MT_POSITION_X/Y (multitouch) and ABS_X/ABS_Y (single touch); it has ABS_Z, ABS_RX"))
    }
}

@Suite("Input device errors")
struct InputDeviceErrorTests {
    @Test func permissionDeniedSaysWhichGroupTheUserNeeds() {
        let e = InputDeviceError.system(call: "open", path: "/dev/input/event3", errno: EACCES)
        #expect(e.description == "/dev/input/event3: permission denied (open): the user needs to be in group 'input' (sudo usermod -aG input $USER, then log in again)")
    }

    @Test func aMissingDeviceAndAnEmptyDirectoryAreNamed() {
        #expect(InputDeviceError.system(call: "open", path: "/dev/input/event9", errno: ENOENT).description == "/dev/input/event9: no such device")
        let d = DeviceDiscovery(directory: "/nonexistent")
        #expect(d.entries.isEmpty)
        #expect(throws: InputDeviceError.noTouchscreen(directory: "/nonexistent", skipped: [])) { try d.choose() }
        #expect(InputDeviceError.noTouchscreen(directory: "/nonexistent", skipped: []).description == "no touchscreen in /nonexistent (no input devices at all)")
    }

    @Test func aDeviceThatCannotBeOpenedIsListedWithTheReason() throws {
        // A directory with an event node that is not a device: listed, skipped, with the error.
        let dir = "/tmp/kiosk-devices-\(getpid())"
        mkdir(dir, 0o755)
        defer { unlink("\(dir)/event0"); rmdir(dir) }
        let fd = creat("\(dir)/event0", 0o644)
        close(fd)
        let d = DeviceDiscovery(directory: dir)
        #expect(d.entries.count == 1)
        guard case .failure(let why) = d.entries[0].verdict else { Issue.record(); return }
        #expect(why.reason == "cannot be opened: libevdev_new_from_fd failed: Inappropriate ioctl for device")
        #expect(d.entries[0].openError == .system(call: "libevdev_new_from_fd", path: "\(dir)/event0", errno: ENOTTY))
        #expect(d.report().contains("\(dir)/event0  \n    skipped: cannot be opened: libevdev_new_from_fd failed"))
        #expect(d.report().hasSuffix("kiosk would use no device: no touchscreen in \(dir); kiosk run waits for one to be plugged in\n"))
    }
}
