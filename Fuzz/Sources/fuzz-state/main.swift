import Foundation
import FuzzSupport
import KioskConfig
import KioskState
import Scene

// The state file's bytes, as a torn write, a bad disk or another program may leave them: parsed to
// a document or a problem, never a trap; a document written back reads as the same document; and
// restoring it into the default scene refuses what the config does not allow without trapping.
let configPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().appendingPathComponent("../../../config/kiosk.toml").standardized.path
let scene = try! KioskScene(KioskConfiguration.load(path: configPath).scene)

fuzz { data in
    let bytes = Array(data.prefix(StateDocument.maximumBytes + 16))
    guard let document = try? StateDocument.parse(bytes) else { return }
    let again: StateDocument
    do {
        again = try StateDocument.parse(Array(document.text.utf8))
    } catch {
        fatalError("a written document does not read back: \(error)\n\(document.text)")
    }
    guard again == document else { fatalError("read back differently:\n\(document.text)") }
    for v in document.views { try? scene.restore(v.name, v.state) }
    _ = scene.savedViewsMatch(document.views)
}
