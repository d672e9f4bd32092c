import Foundation
import KioskCore
import KioskTestSupport
import Testing

/// `traces/demo.evemu`, the trace the README's first command replays, and the script that makes it.
/// Run `KIOSK_WRITE_DEMO=1 swift test --filter DemoTrace` to write it again after changing the script
/// (that run fails: it compared nothing).
@Suite("Demo trace")
struct DemoTraceTests {
    static let path = repositoryRoot.appendingPathComponent("traces/demo.evemu").path

    /// A minute of a visitor at the kiosk: every gesture of the default scene once.
    static func script() -> Fingers {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.drag(from: Point(x: 160, y: 190), to: Point(x: 200, y: 260), over: 0.6)       // drag yellow
        k.wait(0.5)
        k.pinch(center: Point(x: 400, y: 190), from: 60, to: 100, over: 0.5)           // pinch cyan
        k.wait(0.5)
        k.rotate(center: Point(x: 400, y: 190), radius: 45, by: 0.7, over: 0.5)        // turn cyan
        k.wait(0.5)
        let f = k.down(Point(x: 640, y: 190))                                          // lift magenta...
        k.wait(0.7)
        k.move([f[0]: Point(x: 600, y: 280)], over: 0.5)                               // ...carry it
        k.up(f)
        k.wait(0.6)
        k.tap(at: Point(x: 200, y: 260))                                               // yellow to the front
        k.wait(0.6)
        k.tap(at: Point(x: 130, y: 424))                                               // press the button twice
        k.wait(0.1)
        k.tap(at: Point(x: 130, y: 424))
        k.wait(0.5)
        k.drag(from: Point(x: 410, y: 424), to: Point(x: 480, y: 424), over: 0.5)      // slide
        k.wait(0.5)
        k.tap(at: Point(x: 680, y: 424))                                               // switch on
        k.wait(0.5)
        k.drag(from: Point(x: 400, y: 340), to: Point(x: 400 + k.mm(20), y: 340), over: 0.1)  // swipe: next theme
        k.wait(0.5)
        k.drag(from: Point(x: 420, y: 350), to: Point(x: 380, y: 330), over: 1.0)      // pan all squares
        k.wait(0.5)
        k.tap(at: Point(x: 400, y: 190))                                               // double tap cyan: reset
        k.wait(0.1)
        k.tap(at: Point(x: 400, y: 190))
        return k
    }

    @Test func theCommittedDemoTraceIsWhatTheScriptWrites() throws {
        let text = Self.script().traceText
        if let request = ProcessInfo.processInfo.environment["KIOSK_WRITE_DEMO"], !request.isEmpty {
            try text.write(toFile: Self.path, atomically: true, encoding: .utf8)
            // Comparing the file with what was just written into it would prove nothing.
            Issue.record("KIOSK_WRITE_DEMO=\(request) wrote \(Self.path); nothing was compared, so this run does not count: check it, commit it, and run again without KIOSK_WRITE_DEMO")
            return
        }
        #expect(try String(contentsOfFile: Self.path, encoding: .utf8) == text)
    }

    @Test func theDemoShowsEveryGesture() throws {
        let r = try Self.script().replay()
        #expect(r.states("pan", on: "yellow").first == "began")
        #expect(r.states("pinch", on: "cyan").first == "began")
        #expect(r.states("rotation", on: "cyan").first == "began")
        #expect(r.states("long_press", on: "magenta").first == "began")
        #expect(r.states("tap", on: "yellow") == ["recognized"])
        #expect(r.number("button", "taps") == 2)
        #expect(r.number("slider", "value") > 0.7)
        #expect(r.flag("switch", "on") == true)
        #expect(r.text("canvas", "theme") == "dusk")
        #expect(r.states("pan", on: "canvas").first == "began")
        #expect(r.states("double_tap", on: "cyan") == ["recognized"])
        #expect(r.number("cyan", "scale") == 1)
    }
}
