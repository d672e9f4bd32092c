import FuzzSupport
import Geometry
import InputEvents
import MultitouchA

// What `kiosk replay` does with a trace file, up to the touch frames: parse, convert a protocol A
// trace through libmtdev, decode. A trace that parses also writes back to itself.
fuzz { data in
    let text = String(decoding: data, as: UTF8.self)
    guard let trace = try? EvemuTrace.parse(text, file: "fuzz.evemu") else { return }

    var expected = trace
    expected.formatVersion = .current
    let reread = try? EvemuTrace.parse(trace.text, file: "fuzz.evemu (written)")
    precondition(reread == expected, "the written trace does not read back as the same trace")

    guard let converted = try? trace.convertedToProtocolB(),
          var decoder = try? TouchDecoder(device: converted.device, screen: Size(width: 800, height: 480))
    else { return }
    for event in converted.events {
        _ = decoder.feed(event)
        while decoder.nextPendingFrame() != nil {}
    }
    _ = decoder.diagnostic
    _ = decoder.cancelAll(at: converted.events.last?.time ?? .zero)
}
