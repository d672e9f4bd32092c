import FuzzSupport
import InputEvents
import KioskCore
import MultitouchA

// What `kiosk replay` does with a trace file, up to the touch frames: parse, convert a protocol A
// trace through libmtdev, decode. A trace that parses also writes back to itself, but for the
// version and the EV_SYN mask, which evemu (and so the writer) always writes as the same line.

/// The trace as the writer keeps it.
func written(_ trace: EvemuTrace) -> EvemuTrace {
    var kept = trace
    kept.formatVersion = .current
    let d = trace.device
    kept.device = DeviceDescription(
        name: d.name, bus: d.bus, vendor: d.vendor, product: d.product, version: d.version, properties: d.properties,
        supportedCodes: d.supportedCodes.filter { $0.key != .synchronization }, axes: d.axes)
    return kept
}

fuzz { data in
    guard let trace = try? EvemuTrace.parse(String(decoding: data, as: UTF8.self), file: "fuzz.evemu") else { return }

    let text = trace.text
    do {
        let reread = try EvemuTrace.parse(text, file: "fuzz.evemu (written)")
        if written(reread) != written(trace) { fatalError("the written trace reads back as another trace:\n\(text)") }
    } catch {
        fatalError("the written trace does not read back: \(error)\n\(text)")
    }

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
