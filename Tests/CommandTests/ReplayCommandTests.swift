import Foundation
import InputEvents
import KioskCore
import KioskTestSupport
import Testing

/// `kiosk replay` as a user runs it: the built executable, its files, its exit status.
@Suite("kiosk replay, the command")
struct ReplayCommandTests {
    func run(_ arguments: [String]) throws -> KioskExecutable.Finished { try KioskExecutable.run(arguments) }

    func temporary(_ name: String, _ text: String? = nil) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        if let text { try text.write(toFile: path, atomically: true, encoding: .utf8) }
        return path
    }

    func busyScript(device: DeviceDescription = SyntheticTouchscreen.ft5406) -> Fingers {
        let k = Fingers(panel: device)
        k.tap(at: Point(x: 160, y: 190))
        k.pinch(center: Point(x: 400, y: 190), from: 60, to: 110, over: 0.4)
        k.drag(from: Point(x: 400, y: 320), to: Point(x: 400 + k.mm(20), y: 320), over: 0.1)
        k.tap(at: Point(x: 130, y: 424))
        return k
    }

    @Test func theSameTraceAlwaysGivesByteIdenticalOutputs() throws {
        let trace = try temporary("busy.evemu", busyScript().traceText)
        var outputs: [[Data]] = []
        for round in 0..<2 {
            let events = try temporary("events\(round).jsonl"), state = try temporary("state\(round).json"), decisions = try temporary("decisions\(round).txt")
            let r = try run(["replay", trace, "--events", events, "--state", state, "--decisions", decisions])
            #expect(r.status == 0, "\(r.stderr)")
            outputs.append(try [events, state, decisions].map { try Data(contentsOf: URL(fileURLWithPath: $0)) })
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0].allSatisfy { !$0.isEmpty })
    }

    @Test func withoutEventsFileTheEventsGoToStandardOutputAsJSONLines() throws {
        let trace = try temporary("tap.evemu", busyScript().traceText)
        let r = try run(["replay", trace])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count > 5)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["t"] is NSNumber && object?["view"] is String)
        }
        #expect(r.stdout.contains(#""view": "button", "event": "primaryActionTriggered""#))
        #expect(r.stdout.contains(#""recognizer": "swipe", "kind": "swipe", "state": "recognized""#))
    }

    @Test func withRefreshTheLatencyToTheFlipIsReportedOnStandardError() throws {
        let trace = try temporary("busy.evemu", busyScript().traceText)
        let paced = try run(["replay", trace, "--refresh", "60", "--vblank-phase", "5.5"])
        #expect(paced.status == 0, "\(paced.stderr)")
        #expect(paced.stderr.contains("input to flip at 60 Hz (one refresh 16.67 ms): "), "\(paced.stderr)")
        #expect(paced.stderr.contains(" p50 ") && paced.stderr.contains(" p99 ") && paced.stderr.contains(" max "))
        // The events are the same with or without a paced display: only when frames are shown changes.
        let unpaced = try run(["replay", trace])
        #expect(paced.stdout == unpaced.stdout)
        let bad = try run(["replay", trace, "--vblank-phase", "3"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--vblank-phase needs --refresh"), "\(bad.stderr)")
        #expect(try run(["replay", trace, "--refresh", "0"]).stderr.contains("--refresh: 0 Hz is not a refresh rate"))
    }

    @Test func theStateHasEveryViewWithItsKindsFields() throws {
        let trace = try temporary("busy.evemu", busyScript().traceText)
        let state = try temporary("state.json")
        #expect(try run(["replay", trace, "--state", state]).status == 0)
        let json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state))) as? [String: Any])
        let views = try #require(json["views"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: views.map { ($0["name"] as! String, $0) })
        #expect(Set(byName.keys) == ["canvas", "yellow", "cyan", "magenta", "button", "slider", "switch"])
        for v in views { #expect((v["frame"] as? [Any])?.count == 4 && (v["center"] as? [Any])?.count == 2) }
        for key in ["scale", "rotation", "z", "lifted"] { #expect(byName["cyan"]?[key] != nil) }
        #expect(byName["canvas"]?["theme"] as? String == "dusk")
        #expect(byName["button"]?["taps"] as? Int == 1)
        #expect(byName["slider"]?["value"] != nil && byName["slider"]?["knob"] != nil)
        #expect(byName["switch"]?["on"] as? Bool == false && byName["switch"]?["knob"] != nil)
    }

    @Test func aTraceWithNoEventsIsValid() throws {
        let header = Fingers(panel: SyntheticTouchscreen.ft5406).traceText
        let trace = try temporary("empty.evemu", header)
        let state = try temporary("state.json")
        let r = try run(["replay", trace, "--state", state])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(try String(contentsOfFile: state, encoding: .utf8).contains(#""name": "yellow", "kind": "square", "frame": [100, 130, 120, 120]"#))
    }

    @Test func aMalformedLineIsNamedWithFileAndLineAndExitsTwo() throws {
        var text = busyScript().traceText
        text += "E: 12.5 0003\n"
        let trace = try temporary("bad.evemu", text)
        let lineNumber = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let r = try run(["replay", trace])
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(trace):\(lineNumber):"), "\(r.stderr)")
    }

    @Test func aTraceFromADeviceWithoutTouchAxesIsRefused() throws {
        let keyboard = """
            # EVEMU 1.3
            N: AT Translated Set 2 keyboard
            I: 0011 0001 0001 ab41
            P: 00 00 00 00 00 00 00 00
            B: 00 0b 00 00 00 00 00 00 00
            B: 01 00 00 00 00 00 00 00 00
            B: 02 00 00 00 00 00 00 00 00
            B: 03 00 00 00 00 00 00 00 00
            E: 0.000001 0001 001e 0001
            E: 0.000001 0000 0000 0000

            """
        let trace = try temporary("keyboard.evemu", keyboard)
        let r = try run(["replay", trace])
        #expect(r.status == 2)
        #expect(r.stderr.contains("AT Translated Set 2 keyboard"))
        #expect(r.stderr.contains("no touch axes"))
    }

    @Test func aBadConfigIsNamedWithFileLineAndKeyAndExitsTwo() throws {
        let config = try temporary("kiosk.toml", try String(contentsOfFile: defaultConfigPath, encoding: .utf8)
            .replacingOccurrences(of: "lift_scale = 1.2", with: "lift_scael = 1.2"))
        let trace = try temporary("t.evemu", busyScript().traceText)
        let r = try run(["replay", trace, "--config", config])
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(config):16: scene.lift_scael: unknown key in [scene]; did you mean 'lift_scale'?"), "\(r.stderr)")
    }

    @Test func theBundledDemoTraceReplays() throws {
        let r = try run(["replay", "traces/demo.evemu"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count > 20)
    }

    @Test func aProtocolATraceReplaysAsItsFT5406TwinDoes() throws {
        // The same fingers on a protocol A panel (through libmtdev) and on an FT5406.
        let protocolA = try temporary("protocol-a.evemu", busyScript(device: SyntheticTouchscreen.protocolA).traceText)
        let ft5406 = try temporary("ft5406.evemu", busyScript().traceText)
        #expect(try String(contentsOfFile: protocolA, encoding: .utf8).contains("E: 10.000000 0000 0002 0000"), "SYN_MT_REPORT in the trace")
        let a = try run(["replay", protocolA]), b = try run(["replay", ft5406])
        #expect(a.status == 0, "\(a.stderr)")
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.contains("\"recognizer\": \"pinch\""), "\(a.stdout)")
        #expect(a.stdout.contains("primaryActionTriggered"), "\(a.stdout)")
    }
}
