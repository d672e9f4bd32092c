import ControlProtocol
import Foundation
import FuzzSupport

// One control socket request line, as a client sends it: parsed to a command or a problem, never
// a trap; and the reply kiosk writes for it (with the id echoed) is one line of valid JSON.
fuzz { data in
    let line = Array(data.prefix(ControlRequest.maximumLineBytes + 16))
    let reply: String
    do throws(ControlRequest.Problem) {
        let request = try ControlRequest.parse(line)
        reply = ControlReply.ok(request.id)
    } catch {
        reply = ControlReply.error(error.id, error.message)
    }
    guard !reply.contains("\n"), (try? JSONSerialization.jsonObject(with: Data(reply.utf8))) is [String: Any] else {
        fatalError("the reply is not one line of JSON: \(reply)")
    }
}
