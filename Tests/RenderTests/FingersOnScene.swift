import Foundation
import Gestures
import KioskConfig
import KioskCore
import KioskTestSupport
import Scene

/// The repository's default config.
let repositoryRoot = KioskExecutable.repositoryRoot
let defaultConfigPath = KioskExecutable.defaultConfigPath

/// The default scene under the support target's `Fingers`: each report goes to the scene (its
/// timers first), each frame of a `wait` (1/60 s) to its timers, and `onFrame` sees the scene after
/// either, as the display would draw it.
final class FingersOnScene {
    let scene: KioskScene
    private(set) lazy var fingers = Fingers(tickEvery: Fingers.frame,
                                            tick: { [unowned self] now in
                                                self.scene.advance(to: now)
                                                self.onFrame(self.scene, now)
                                            },
                                            deliver: { [unowned self] frame in
                                                self.scene.advance(to: frame.time)
                                                self.scene.handle(frame)
                                                self.onFrame(self.scene, frame.time)
                                            })
    /// Called after every report and every frame of a wait.
    var onFrame: (KioskScene, Instant) -> Void = { _, _ in }
    var now: Instant { fingers.now }

    /// The default config's scene, or the scene of a config's `text`.
    init(configText text: String? = nil) throws {
        let configuration = try text.map { text throws(ConfigError) in try KioskConfiguration.parse(text, file: "test.toml") }
            ?? KioskConfiguration.load(path: defaultConfigPath)
        scene = try KioskScene(configuration.scene, recordsEvents: false)
    }
}
