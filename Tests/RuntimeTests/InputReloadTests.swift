import Foundation
import InputEvents
import KioskCore
import KioskTestSupport
@testable import Runtime
import Testing
import TouchInput

/// Issue 21, part 2: a reload reaches `[input]`. The live loop's touchscreen is its watcher
/// (LiveInput.swift), which a reload with another `[input]` makes anew; touches after the reload
/// are filtered as the new file says. (Seen to fail with `openInput()` taken out of
/// KioskLoop+Reload.swift's `reload(at:)`: the old filters stay, and both tests fail.)
@Suite("A reload reaches the touchscreen's filters")
struct InputReloadTests {
    /// An FT5406 on the loop: its events go through the decoder the loop's watcher makes for a
    /// device it takes (`TouchscreenDecoder` with the watcher's calibration and filters, made
    /// again when a reload made a new watcher, which takes the device again), and each frame
    /// goes to the loop at its time. Without /dev/uinput there is no evdev device here;
    /// KernelTests play real ones.
    final class Panel {
        let run: LiveLoopRun
        let fingers: Fingers
        private var fed = 0
        private var decoder: TouchscreenDecoder?
        /// The watcher `decoder` is for; gone once a reload replaced it.
        private weak var watcher: TouchscreenWatcher?
        /// Touch numbers go on across decoders, as the watcher's do across devices.
        private var nextTouchID = 1

        init(_ run: LiveLoopRun) {
            self.run = run
            fingers = Fingers(panel: SyntheticTouchscreen.ft5406, clock: run.clock)
        }

        /// The decoder for the loop's watcher now.
        private func current() throws -> TouchscreenDecoder {
            let w = try #require(run.loop.liveInput?.watcher, "the loop has no touchscreen watcher")
            if let decoder, watcher === w { return decoder }
            nextTouchID = decoder?.nextTouchID ?? nextTouchID
            let made = try TouchscreenDecoder(device: fingers.device, screen: w.screen, calibration: w.calibration, filters: w.filters,
                                              firstTouchID: nextTouchID)
            (decoder, watcher) = (made, w)
            return made
        }

        private var tapsPlayed = 0

        /// A tap on the default scene's button (`frame = [40, 396, 180, 56]`), each at another
        /// point: a panel writes only the axes that changed, and a new decoder knows none before.
        func tapTheButton(holding seconds: Double = 0) throws {
            tapsPlayed += 1
            let p = Point(x: 100 + Double(tapsPlayed) * 4, y: 404 + Double(tapsPlayed) * 4)
            try play { $0.tap(at: p, holding: seconds) }
        }

        func play(_ gesture: (Fingers) -> Void) throws {
            let decoder = try current()
            gesture(fingers)
            let loop = run.loop
            let deliver = { (frame: TouchFrame) in
                loop.process(frame)
                loop.tick(at: frame.time)
            }
            for event in fingers.events.dropFirst(fed) {
                // A touch held back by the minimum duration begins at its deadline, as the watcher wakes for it.
                if let due = decoder.nextDeadline, due <= event.time { decoder.advance(to: due, deliver) }
                decoder.feed(event, deliver)
            }
            fed = fingers.events.count
            run.clock.advance(by: 0.5)
            decoder.advance(to: run.clock.now, deliver)
            loop.tick(at: run.clock.now)
        }
    }


    var taps: Int {
        run.loop.scene.views[run.loop.scene.viewID(named: "button")!.rawValue].button?.taps ?? -1
    }

    let run: LiveLoopRun
    let panel: Panel
    /// The config as the test started it.
    let config: String

    init() throws {
        run = try LiveLoopRun("input-reload")
        panel = Panel(run)
        config = try String(contentsOfFile: run.loop.options.configPath, encoding: .utf8)
    }

    /// The config the test started with, `lines` put under its `[input]`, and a reload.
    func reload(input lines: String) throws {
        let path = run.loop.options.configPath
        try config.replacingOccurrences(of: "[input]\n", with: "[input]\n\(lines)").write(toFile: path, atomically: true, encoding: .utf8)
        let generation = run.loop.generation
        run.loop.reload(at: run.clock.now)
        try #require(run.loop.generation == generation + 1, "\(run.handler.entries.suffix(3).map(\.message))")
    }

    @Test func anIgnoreRegionAddedByAReloadDropsTheTouchesInIt() throws {
        try panel.tapTheButton()
        #expect(taps == 1, "before the reload the button takes a tap")
        // The bottom strip, where the controls are, ignored.
        try reload(input: "ignore = [[0, 380, 800, 100]]\n")
        try panel.tapTheButton()
        #expect(taps == 1, "a touch in the region the reload added never begins")
        try reload(input: "")
        try panel.tapTheButton()
        #expect(taps == 2, "a reload without the region lets it through again")
    }

    @Test func aMinimumTouchDurationAddedByAReloadDropsShorterTouches() throws {
        try panel.tapTheButton()
        #expect(taps == 1, "a tap of one frame, before the reload")
        try reload(input: "minimum_touch_duration = 0.1\n")
        try panel.tapTheButton()
        #expect(taps == 1, "one frame is shorter than the new minimum: dropped")
        try panel.tapTheButton(holding: 0.2)
        #expect(taps == 2, "a touch held past the new minimum is a tap")
    }
}
