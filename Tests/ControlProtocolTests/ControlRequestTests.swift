import ControlProtocol
import KioskCore
import Testing

/// The control socket's request lines, read on their own (the socket's tests read them through a
/// real socket; `fuzz-control` throws hostile ones at the same parser).
@Suite struct ControlRequestTests {
    func parse(_ line: String) -> Result<ControlRequest, ControlRequest.Problem> {
        do throws(ControlRequest.Problem) {
            return .success(try ControlRequest.parse(Array(line.utf8)))
        } catch {
            return .failure(error)
        }
    }

    @Test func eachCommandIsReadWithItsIDAsWritten() throws {
        let state = try parse(#"{"id": 7, "command": "get_state"}"#).get()
        #expect(state.command == .getState && state.id == "7")
        #expect(try parse(#"{"id": "a", "command": "set", "view": "slider", "value": 0.25}"#).get().command == .setValue(view: "slider", 0.25))
        #expect(try parse(#"{"command": "set", "view": "switch", "on": true}"#).get().command == .setOn(view: "switch", true))
        #expect(try parse(#"{"command": "set", "view": "button", "label": "Open"}"#).get().command == .setLabel(view: "button", "Open"))
        #expect(try parse(#"{"command": "tap", "x": 10, "y": 20}"#).get().command == .tap(Point(x: 10, y: 20)))
        #expect(try parse(#"{"command": "screenshot"}"#).get().command == .screenshot)
        #expect(try parse(#"{"command": "wake"}"#).get().command == .wake)
        let swipe = try parse(#"{"command": "swipe", "from": [0, 0], "to": [100, 0]}"#).get().command
        #expect(swipe == .swipe(from: Point(x: 0, y: 0), to: Point(x: 100, y: 0), seconds: ControlRequest.defaultSwipeSeconds))
    }

    /// What is wrong is said, with the id when one was read; nothing else is done.
    @Test(arguments: [
        (#"{"id": 1}"#, "missing \"command\"; one of: "),
        (#"{"id": 1, "command": "fly"}"#, "unknown command 'fly'; one of: "),
        (#"{"id": 1, "command": "set"}"#, "set: missing \"view\""),
        (#"{"id": 1, "command": "set", "view": "slider", "value": 0.5, "on": true}"#, "set: give exactly one of"),
        (#"{"id": 1, "command": "tap", "x": 3}"#, "tap: give \"x\" and \"y\""),
        (#"{"id": 1, "command": "subscribe", "events": ["noise"]}"#, "subscribe: unknown event 'noise'"),
    ])
    func aWrongRequestSaysWhatIsWrongAndKeepsItsID(line: String, message: String) {
        guard case .failure(let problem) = parse(line) else {
            Issue.record("\(line) was taken")
            return
        }
        #expect(problem.message.hasPrefix(message), "\(problem.message)")
        #expect(problem.id == "1")
    }

    @Test func aLineThatIsNotAnObjectOrTooLongIsRefusedWhole() {
        guard case .failure(let array) = parse("[1, 2]") else {
            Issue.record("an array was taken")
            return
        }
        #expect(array.message.hasPrefix("a request must be one JSON object"), "\(array.message)")
        let long = "{\"command\": \"set\", \"view\": \"button\", \"label\": \"" + String(repeating: "x", count: ControlRequest.maximumLineBytes) + "\"}"
        guard case .failure(let tooLong) = parse(long) else {
            Issue.record("a line over the limit was taken")
            return
        }
        #expect(tooLong.message == "request longer than \(ControlRequest.maximumLineBytes) bytes" && tooLong.id == nil)
    }
}
