import Foundation
import KioskCore
import KioskTestSupport
import Render
@testable import Runtime
import Testing

/// `screenshot` on the control socket: the reply waits for the picture (and so do the client's
/// next lines), every client that asked while it was encoded gets it, and one asked too soon is
/// refused with the time left.
extension ControlSocketTests {
    @Test func aScreenshotRepliesWithThePNGAndTheClientsNextLinesWaitForIt() throws {
        // The virtual clock held still: however many wake-ups the child's encoding takes on a
        // loaded machine, the next request is within the 2 s.
        frame = 0
        let a = try SocketClient(path: path)
        let b = try SocketClient(path: path)
        a.send("{\"id\": 1, \"command\": \"screenshot\"}\n{\"id\": 2, \"command\": \"get_state\"}\n")
        b.send("{\"id\": \"b\", \"command\": \"screenshot\"}\n")
        let got = lines(a, count: 2)
        let other = lines(b)
        #expect(got.count == 2 && other.count == 1, "\(got.map { $0.prefix(80) }) \(other.map { $0.prefix(80) })")
        let reply = json(got.first ?? "")
        #expect(reply["id"] as? Int == 1, "the screenshot's reply first: \(got.first?.prefix(200) ?? "")")
        #expect(reply["ok"] as? Bool == true && reply["width"] as? Int == 800 && reply["height"] as? Int == 480)
        let png = try #require(Data(base64Encoded: reply["png"] as? String ?? ""))
        #expect(reply["bytes"] as? Int == png.count)
        let picture = try PixelBuffer(png: [UInt8](png))
        #expect(firstDifference(picture, run.loop.pipeline.shadow) == "none")
        #expect(json(got.last ?? "")["id"] as? Int == 2, "get_state after it")
        // The other client asked while it was encoded: the same picture, one child for both.
        #expect(json(other.first ?? "")["id"] as? String == "b")
        #expect(json(other.first ?? "")["png"] as? String == reply["png"] as? String)
        #expect(run.loop.extensions.screenshots.taken == 1 && run.loop.extensions.screenshots.coalesced == 1)
        let soon = json(ask(b, #"{"id": 3, "command": "screenshot"}"#))
        #expect(soon["ok"] as? Bool == false)
        #expect((soon["error"] as? String ?? "").hasPrefix("at most one screenshot every 2.0 s; the next in "), "\(soon)")
    }
}
