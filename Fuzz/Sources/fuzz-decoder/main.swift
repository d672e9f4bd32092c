import FuzzSupport
#if canImport(Glibc)
import Glibc
#endif
import InputEvents
import KioskCore
import KioskTestSupport
import MultitouchA

// evdev events into the touch decoder, as a live panel sends them (protocol A one event at a time
// through libmtdev, as TouchscreenDecoder does). The input: a byte choosing the panel, a byte of
// options, then events of 8 bytes: type (1), code (2), value (4, little-endian) and the time step
// in milliseconds (1, signed: a trace's clock can go back). Fuzz/make-seeds.py writes the seeds.
//
// The frames must keep the decoder's promises: ids its own and never reused, each id once in a
// frame, a touch that moves or ends is one that began, positions finite; with option bit 8,
// `cancelAll`'s frame cancels exactly the touches still down, whatever the unfinished report holds.

/// The eGalax USB controller of ../shared/traces: single touch, the position on ABS_Z/ABS_RX.
let eGalax: DeviceDescription = {
    var d = SyntheticTouchscreen.resistive
    d.name = "eGalax Inc. USB TouchController"
    d.setAxis(.z, AxisInfo(minimum: 30, maximum: 4040))
    d.setAxis(.rx, AxisInfo(minimum: 30, maximum: 4040))
    return d
}()
let screen = Size(width: 800, height: 480)
/// FUZZ_VERBOSE=1 prints every event and frame, to read a crash input.
let verbose = getenv("FUZZ_VERBOSE") != nil
let calibration = try! TouchCalibration(matrix: [1.05, 0.02, -0.015, -0.01, 0.97, 0.02]).rotated(clockwise: 90)

fuzz { data in
    var input = FuzzInput(data)
    let panel = input.uint8() % 4
    let options = input.uint8()
    let device = [SyntheticTouchscreen.ft5406, SyntheticTouchscreen.resistive, SyntheticTouchscreen.protocolA, eGalax][Int(panel)]
    let converter = panel == 2 ? try! ProtocolAConverter(device: device) : nil
    var decoder = try! TouchDecoder(
        device: converter?.protocolB ?? device, screen: screen, positionAxes: panel == 3 ? (.z, .rx) : nil,
        calibration: options & 1 != 0 ? calibration : .identity,
        filters: TouchFilters(jitterUnits: options & 2 != 0 ? 6 : 0, minimumPressure: options & 4 != 0 ? 20 : nil))

    var active = Set<Int>()
    var began = Set<Int>()
    func check(_ frame: TouchFrame) {
        if verbose { trace("frame \(frame.time): \(frame.touches.map { "\($0.id) \($0.phase) \($0.location)" })") }
        var seen = Set<Int>()
        for touch in frame.touches {
            let id = touch.id.rawValue
            if !seen.insert(id).inserted { fatalError("\(touch.id) twice in one frame") }
            if !touch.location.x.isFinite || !touch.location.y.isFinite { fatalError("\(touch.id) at \(touch.location)") }
            if touch.phase == .began {
                if !began.insert(id).inserted { fatalError("\(touch.id) began again") }
                active.insert(id)
            } else {
                if !active.contains(id) { fatalError("\(touch.id) \(touch.phase) but never began or already ended") }
                if touch.phase.isFinal { active.remove(id) }
            }
        }
    }
    func decode(_ event: InputEvent) {
        if let frame = decoder.feed(event) { check(frame) }
        while let frame = decoder.nextPendingFrame() { check(frame) }
    }

    var time = Instant(microseconds: 1_000_000)
    while !input.isAtEnd {
        let type = EventType(rawValue: UInt16(input.uint8()))
        let code = EventCode(rawValue: input.uint16())
        let value = input.int32()
        time.microseconds += Int64(input.int8()) * 1000
        let event = InputEvent(time: time, type: type, code: code, value: value)
        if verbose { trace("\(event)") }
        if let converter { converter.convert(event, decode) } else { decode(event) }
    }
    _ = decoder.diagnostic
    if options & 8 != 0 {
        if verbose { trace("cancelAll") }
        if let frame = decoder.cancelAll(at: time) {
            check(frame)
            if let touch = frame.touches.first(where: { $0.phase != .cancelled }) { fatalError("cancelAll: \(touch.id) \(touch.phase)") }
        }
        if !active.isEmpty { fatalError("touches \(active.sorted()) still down after cancelAll") }
        if decoder.activeTouchCount != 0 { fatalError("the decoder has \(decoder.activeTouchCount) touches down after cancelAll") }
    }
}
