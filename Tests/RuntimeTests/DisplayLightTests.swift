import Display
import Foundation
import KioskCore
import KioskLog
import KioskState
import KioskTestSupport
import Scene
import Testing
@testable import Runtime
#if canImport(Glibc)
import Glibc
#endif

/// Hears what the loop tells the extensions of the display.
final class DisplayListener: LoopExtension {
    var told: [DisplayStatus] = []
    func appendPollDescriptors(to fds: inout [pollfd]) {}
    func service(_ ready: UnsafeBufferPointer<pollfd>, now: Instant, target: CommandTarget) {}
    var nextDeadline: Instant? { nil }
    func publish(_ events: ArraySlice<SceneEvent>, source: ChangeSource, scene: KioskScene, now: Instant) {}
    func stop(now: Instant) {}
    func displayChanged(_ status: DisplayStatus, now: Instant) { told.append(status) }
}

/// The panel as a light in the live loop, on the virtual clock: a fake backlight class folder
/// (the kernel's layout: `max_brightness`, `brightness`, `bl_power`) stands in for sysfs.
@Suite("the display as a light")
final class DisplayLightTests {
    let classFolder: URL
    let stateFolder: URL

    init() throws {
        classFolder = try KioskExecutable.temporaryFolder("backlight-class")
        stateFolder = try KioskExecutable.temporaryFolder("display-state")
    }

    deinit {
        try? FileManager.default.removeItem(at: classFolder)
        try? FileManager.default.removeItem(at: stateFolder)
    }

    func makeBacklight(_ name: String = "rpi_backlight", max: Int = 255, brightness: Int = 255) throws {
        let folder = classFolder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "\(max)\n".write(to: folder.appendingPathComponent("max_brightness"), atomically: false, encoding: .utf8)
        try "\(brightness)\n".write(to: folder.appendingPathComponent("brightness"), atomically: false, encoding: .utf8)
        try "0\n".write(to: folder.appendingPathComponent("bl_power"), atomically: false, encoding: .utf8)
    }

    func backlightFile(_ file: String, _ name: String = "rpi_backlight") -> String {
        let text = (try? String(contentsOf: classFolder.appendingPathComponent(name).appendingPathComponent(file), encoding: .utf8)) ?? ""
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func makeRun(_ name: String, display: String = "", state: Bool = false) throws -> LiveLoopRun {
        let stateSection = state ? "\n[state]\ndirectory = \"\(stateFolder.path)\"\n" : "\n[state]\nenabled = false\n"
        return try LiveLoopRun("light-\(name)", sections: "\n[display]\n\(display)" + stateSection, backlightClass: classFolder.path)
    }

    func failure(_ r: Result<Void, RemoteCommandError>) -> String? {
        if case .failure(let e) = r { return e.message }
        return nil
    }

    func power(_ run: LiveLoopRun) -> Bool? { (run.loop.output as? HeadlessDisplay)?.isPoweredOn }

    @Test func offBlanksThePanelAsIdleDoesAndATouchWakesItWithoutPressing() throws {
        try makeBacklight()
        let run = try makeRun("off")
        let listener = DisplayListener()
        run.loop.tick(at: run.clock.now)
        run.loop.extensions.installed.append(listener)
        #expect(throws: Never.self) { try run.loop.apply(.setDisplay(on: false, brightness: nil), source: .mqtt).get() }
        run.loop.tick(at: run.clock.now)
        #expect(power(run) == false)
        #expect(backlightFile("bl_power") == "4")
        #expect(listener.told.last?.isOn == false)
        #expect(listener.told.last?.cause == .mqtt)
        // The waking touch is not delivered: the button under it is not pressed.
        run.fingers.tap(at: Point(x: 110, y: 424))
        run.loop.tick(at: run.clock.now)
        #expect(power(run) == true)
        #expect(backlightFile("bl_power") == "0")
        #expect(listener.told.last?.isOn == true)
        #expect(listener.told.last?.cause == .touch)
        #expect(run.loop.scene.views.allSatisfy { ($0.button?.taps ?? 0) == 0 })
        let touched = try #require(listener.told.last?.lastTouch)
        #expect(abs(touched - Date().timeIntervalSince1970) < 60)
        #expect(run.handler.entries.contains { $0.message.description == "display blanked by mqtt" })
    }

    @Test func offIsRefusedUnderAFingerAsIdleBlankingWaitsForIt() throws {
        let run = try makeRun("finger")
        let finger = run.fingers.down(Point(x: 700, y: 40), after: Fingers.frame)
        #expect(failure(run.loop.apply(.setDisplay(on: false, brightness: nil), source: .mqtt))
            == "a finger is on the glass: the display is not switched off under it; try again")
        #expect(run.loop.displayStatus.isOn)
        run.fingers.up(finger)
        #expect(throws: Never.self) { try run.loop.apply(.setDisplay(on: false, brightness: nil), source: .mqtt).get() }
        #expect(power(run) == false)
    }

    @Test func wakeAndOnWakeThePanelAndRestartBlankAfter() throws {
        let run = try makeRun("wake", display: "blank_after = 30\n")
        run.clock.advance(by: 31)
        run.loop.tick(at: run.clock.now)
        #expect(run.loop.displayStatus.isOn == false)
        #expect(run.loop.displayStatus.cause == .idle)
        #expect(throws: Never.self) { try run.loop.apply(.wake, source: .socket).get() }
        #expect(power(run) == true)
        #expect(run.loop.displayStatus.isOn)
        // Activity: blank_after counts from the wake.
        run.clock.advance(by: 29)
        run.loop.tick(at: run.clock.now)
        #expect(run.loop.displayStatus.isOn)
        run.clock.advance(by: 2)
        run.loop.tick(at: run.clock.now)
        #expect(run.loop.displayStatus.isOn == false)
        #expect(throws: Never.self) { try run.loop.apply(.setDisplay(on: true, brightness: nil), source: .socket).get() }
        #expect(power(run) == true)
    }

    @Test func brightnessIsWrittenToTheBacklightInItsSteps() throws {
        try makeBacklight(max: 31, brightness: 31)
        let run = try makeRun("brightness")
        #expect(run.loop.displayStatus.brightness == 1)
        #expect(throws: Never.self) { try run.loop.apply(.setDisplay(on: nil, brightness: 0.5), source: .socket).get() }
        #expect(backlightFile("brightness") == "16")
        #expect(run.loop.displayStatus.brightness == 0.5)
        #expect(run.loop.displayStatus.isOn)
        let refused = run.loop.apply(.setDisplay(on: nil, brightness: 1.5), source: .socket)
        #expect(failure(refused) == "brightness 1.5 is out of range; expected 0 to 1")
        #expect(backlightFile("brightness") == "16")
    }

    @Test func aPanelWithoutABacklightIsOnAndOffOnly() throws {
        let run = try makeRun("none")
        #expect(run.loop.displayStatus.brightness == nil)
        guard case .failure(let e) = run.loop.apply(.setDisplay(on: nil, brightness: 0.5), source: .socket) else {
            Issue.record("a brightness without a backlight was taken")
            return
        }
        #expect(e.message.contains("no backlight"))
        #expect(throws: Never.self) { try run.loop.apply(.setDisplay(on: false, brightness: nil), source: .socket).get() }
        #expect(power(run) == false)
    }

    @Test func aNamedBacklightThatIsNotThereIsAnErrorNamingIt() throws {
        try makeBacklight("11-0045")
        let run = try makeRun("named", display: "backlight = \"rpi_backlight\"\n")
        #expect(run.loop.displayStatus.brightness == nil)
        let line = try #require(run.handler.entries.first { $0.level == .error && $0.message.description.hasPrefix("display.backlight:") })
        #expect(line.message.description.contains("'rpi_backlight'"))
        #expect(line.message.description.contains("there: 11-0045"))
    }

    @Test func blankAfterSetAtRunTimeBlanksOnTheVirtualClockAndIsCheckedFirst() throws {
        let run = try makeRun("blank-after")
        #expect(run.loop.displayStatus.blankAfter == 0)
        #expect(throws: Never.self) { try run.loop.apply(.setBlankAfter(10), source: .mqtt).get() }
        #expect(run.loop.nextWake() == run.clock.now.adding(seconds: 10))
        run.clock.advance(by: 10)
        run.loop.tick(at: run.clock.now)
        #expect(power(run) == false)
        let refused = run.loop.apply(.setBlankAfter(-1), source: .mqtt)
        #expect(failure(refused) == "blank_after -1.0 is out of range; expected seconds from 0 (never) to 86400")
        #expect(run.loop.displayStatus.blankAfter == 10)
    }

    @Test func theExtensionsAreToldOnceAWakeUpAndOnlyOfAChange() throws {
        try makeBacklight()
        let run = try makeRun("told")
        let listener = DisplayListener()
        run.loop.extensions.installed.append(listener)
        run.loop.tick(at: run.clock.now)
        #expect(listener.told.count == 1)
        run.loop.tick(at: run.clock.now)
        #expect(listener.told.count == 1)
        _ = run.loop.apply(.setDisplay(on: nil, brightness: 0.2), source: .socket)
        _ = run.loop.apply(.setBlankAfter(60), source: .socket)
        run.loop.tick(at: run.clock.now)
        #expect(listener.told.count == 2)
        #expect(listener.told.last == DisplayStatus(isOn: true, brightness: 0.2, blankAfter: 60, lastTouch: nil, cause: .start))
    }

    @Test func onOffBrightnessAndBlankAfterAreRestoredAtTheNextStart() throws {
        try makeBacklight()
        do {
            let run = try makeRun("persist-1", display: "blank_after = 120\n", state: true)
            _ = run.loop.apply(.setDisplay(on: false, brightness: 0.4), source: .socket)
            _ = run.loop.apply(.setBlankAfter(45), source: .socket)
            run.loop.tick(at: run.clock.now)
            run.loop.flushState()
        }
        guard case .document(let d) = StateFile(path: stateFolder.appendingPathComponent("state.json").path).read() else {
            Issue.record("no state file")
            return
        }
        #expect(d.display == SavedDisplay(isOn: false, brightness: 0.4, blankAfter: 45, blankAfterInConfig: 120))
        // Someone turned the backlight up meanwhile: the kiosk puts its own back.
        try "255\n".write(to: classFolder.appendingPathComponent("rpi_backlight/brightness"), atomically: false, encoding: .utf8)
        let again = try makeRun("persist-2", display: "blank_after = 120\n", state: true)
        #expect(again.loop.displayStatus.isOn == false)
        #expect(power(again) == false)
        #expect(again.loop.displayStatus.brightness == 0.4)
        #expect(backlightFile("brightness") == "102")
        #expect(again.loop.displayStatus.blankAfter == 45)
        // A config that says another blank_after since: the config's.
        let edited = try makeRun("persist-3", display: "blank_after = 90\n", state: true)
        #expect(edited.loop.displayStatus.blankAfter == 90)
    }
}
