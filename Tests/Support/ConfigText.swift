import KioskConfig
import Scene

/// The 1-based line of the first line of `text` containing `needle`.
public func line(of needle: String, in text: String) -> Int {
    (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(needle) } ?? -1) + 1
}

/// A configuration's content, without where each declaration was read from: a file and its
/// resolved text say the same things on different lines.
public func content(_ c: KioskConfiguration) -> (scene: SceneDescription, runtime: RuntimeSettings) {
    var scene = c.scene
    let nowhere = Scene.SourceLocation(file: "", line: 0)
    for i in scene.views.indices { scene.views[i].location = nowhere }
    for i in scene.gestures.indices { scene.gestures[i].location = nowhere }
    return (scene, c.runtime)
}
