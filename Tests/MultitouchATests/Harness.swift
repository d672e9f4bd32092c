import InputEvents
import KioskCore
import KioskTestSupport
import MultitouchA

/// The 800x480 panel: 0...799 x 0...479 on it is one unit, one pixel.
let panel = Size(width: 800, height: 480)

/// Every frame the converter and the decoder make of `events`, pending frames included.
func decode(
    _ events: [InputEvent], device: DeviceDescription = SyntheticTouchscreen.protocolA, slots: Int = ProtocolAConverter.defaultSlotCount
) throws -> (frames: [TouchFrame], decoder: TouchDecoder) {
    let converter = try ProtocolAConverter(device: device, slots: slots)
    var decoder = try TouchDecoder(device: converter.protocolB, screen: panel)
    var frames: [TouchFrame] = []
    for event in events {
        converter.convert(event) { converted in
            if let frame = decoder.feed(converted) { frames.append(frame) }
            while let frame = decoder.nextPendingFrame() { frames.append(frame) }
        }
    }
    return (frames, decoder)
}

/// Every frame the decoder makes of a protocol B trace.
func decodeProtocolB(_ trace: EvemuTrace) throws -> [TouchFrame] {
    var decoder = try TouchDecoder(device: trace.device, screen: panel)
    var frames: [TouchFrame] = []
    for event in trace.events {
        if let frame = decoder.feed(event) { frames.append(frame) }
        while let frame = decoder.nextPendingFrame() { frames.append(frame) }
    }
    return frames
}
