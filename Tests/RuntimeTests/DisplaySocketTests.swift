import ControlProtocol
import Display
import Foundation
import KioskCore
import Testing
@testable import Runtime

// The display through the control socket: `set` on `display`, `wake`, `get_state`'s display, and
// the `display` line to state subscribers; a real Unix socket on the live loop.
extension ControlSocketTests {
    var panelPowered: Bool? { (run.loop.output as? HeadlessDisplay)?.isPoweredOn }

    @Test func setOnTheDisplayBlanksAndWakesAndGetStateSaysIt() throws {
        let c = try SocketClient(path: path)
        let watcher = try SocketClient(path: path)
        #expect(json(ask(watcher, #"{"command": "subscribe", "events": ["state"]}"#))["ok"] as? Bool == true)
        #expect(json(ask(c, #"{"id": 1, "command": "set", "view": "display", "on": false, "blank_after": 300}"#))["ok"] as? Bool == true)
        #expect(panelPowered == false)
        #expect(run.loop.displayStatus.blankAfter == 300)
        let said = lines(watcher).map(json)
        #expect(said.first?["event"] as? String == "display")
        #expect(said.first?["on"] as? Bool == false)
        #expect(said.first?["source"] as? String == "socket")
        let state = json(ask(c, #"{"id": 2, "command": "get_state"}"#))
        let display = try #require(state["display"] as? [String: Any])
        #expect(display["on"] as? Bool == false)
        #expect(display["blank_after"] as? Double == 300)
        #expect(display["brightness"] is NSNull, "no backlight: no brightness")
        #expect(display["last_touch"] is NSNull)
        #expect(state["state"] != nil)
        #expect(json(ask(c, #"{"id": 3, "command": "wake"}"#))["ok"] as? Bool == true)
        #expect(panelPowered == true)
        #expect(run.loop.displayStatus.isOn)
    }

    @Test(arguments: [
        (#"{"command": "set", "view": "display", "brightness": 0.5}"#, "this display has no backlight: it is switched on and off only"),
        (#"{"command": "set", "view": "display", "value": 0.5}"#, #"set: the display takes "on", "brightness" (0 to 1) and "blank_after" (seconds), not "value""#),
        (#"{"command": "set", "view": "display"}"#, #"set: give the display "on" (true or false), "brightness" (0 to 1) or "blank_after" (seconds)"#),
        (#"{"command": "set", "view": "display", "blank_after": -5}"#, "blank_after -5.0 is out of range; expected seconds from 0 (never) to 86400"),
    ])
    func aDisplayRequestTheKioskCannotTakeIsRefusedSayingWhy(line: String, says: String) throws {
        let c = try SocketClient(path: path)
        let reply = json(ask(c, line))
        #expect(reply["ok"] as? Bool == false)
        #expect(reply["error"] as? String == says)
        #expect(panelPowered == true)
    }
}
