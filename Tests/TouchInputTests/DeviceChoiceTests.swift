import Glibc
import InputEvents
import Testing
@testable import TouchInput

/// A folder under /tmp, removed with everything in it when the test ends.
final class TemporaryFolder {
    let path: String

    init() {
        var template = Array("/tmp/kiosk-input-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { remove(path) }

    /// An empty file (not a device) at `name` inside, for nodes that cannot be opened as evdev.
    @discardableResult
    func file(_ name: String) -> String {
        let file = "\(path)/\(name)"
        close(creat(file, 0o644))
        return file
    }

    func folder(_ name: String) -> String {
        let folder = "\(path)/\(name)"
        mkdir(folder, 0o755)
        return folder
    }

    func link(_ name: String, to target: String) -> String {
        let link = "\(path)/\(name)"
        symlink(target, link)
        return link
    }

    private func remove(_ path: String) {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name != ".", name != ".." else { continue }
                let child = "\(path)/\(name)"
                if entry.pointee.d_type == UInt8(DT_DIR) { remove(child) } else { unlink(child) }
            }
            closedir(dir)
        }
        rmdir(path)
    }
}

/// Which device kiosk takes when the config names one: by path, by a udev symlink, or by name.
@Suite("Choosing the touchscreen")
struct DeviceChoiceTests {
    /// The devices of a kiosk as discovery would judge them: a keyboard, two panels, and a node
    /// kiosk may not open.
    func discovery(_ folder: TemporaryFolder) -> DeviceDiscovery {
        let keyboard = DeviceDescription(name: "AT Translated Set 2 keyboard")
        var sameNameKeyboard = keyboard
        sameNameKeyboard.name = "generic ft5x06 (79)"
        let entries = [
            DeviceDiscovery.Entry(path: folder.file("event0"), description: keyboard, verdict: TouchscreenKind.classify(keyboard)),
            // A device sharing the panel's name that is not a touchscreen: the name picks the panel.
            DeviceDiscovery.Entry(path: folder.file("event1"), description: sameNameKeyboard, verdict: TouchscreenKind.classify(sameNameKeyboard)),
            DeviceDiscovery.Entry(path: folder.file("event2"), description: SyntheticTouchscreen.ft5406,
                                  verdict: TouchscreenKind.classify(SyntheticTouchscreen.ft5406)),
            DeviceDiscovery.Entry(path: folder.file("event3"), description: SyntheticTouchscreen.resistive,
                                  verdict: TouchscreenKind.classify(SyntheticTouchscreen.resistive)),
            DeviceDiscovery.Entry(path: folder.file("event4"), description: nil,
                                  verdict: .failure(NotATouchscreen("cannot be opened: permission denied")),
                                  openError: .system(call: "open", path: "\(folder.path)/event4", errno: EACCES)),
        ]
        return DeviceDiscovery(directory: folder.path, entries: entries)
    }

    @Test func withoutAWishTheFirstTouchscreenIsTaken() throws {
        let folder = TemporaryFolder()
        #expect(try discovery(folder).choose().path == "\(folder.path)/event2")
    }

    @Test func aDeviceNamedByItsNameIsTaken() throws {
        let folder = TemporaryFolder()
        let d = discovery(folder)
        #expect(try d.choose("ADS7846 Touchscreen").path == "\(folder.path)/event3")
        #expect(try d.choose("generic ft5x06 (79)").path == "\(folder.path)/event2", "the touchscreen of that name, not the keyboard")
        #expect(throws: InputDeviceError.notATouchscreen(
            path: "\(folder.path)/event0", name: "AT Translated Set 2 keyboard",
            reason: "no touch axes: lacks ABS_MT_SLOT + ABS_MT_POSITION_X/Y (multitouch) and ABS_X/ABS_Y and BTN_TOUCH (single touch); it has no absolute axes")) {
            try d.choose("AT Translated Set 2 keyboard")
        }
        do {
            _ = try d.choose("Goodix Capacitive TouchScreen")
            Issue.record("a device that is not there was taken")
        } catch {
            #expect(error.description.hasPrefix("no touchscreen in \(folder.path):\n  no device is named \"Goodix Capacitive TouchScreen\"\n"))
        }
    }

    @Test func aDeviceNamedByPathOrBySymlinkIsTaken() throws {
        let folder = TemporaryFolder()
        let d = discovery(folder)
        #expect(try d.choose("\(folder.path)/event3").path == "\(folder.path)/event3")
        // udev's by-id and by-path links, relative as udev makes them.
        _ = folder.folder("by-id")
        let byID = folder.link("by-id/usb-ADS7846-event-if00", to: "../event3")
        #expect(try d.choose(byID).path == "\(folder.path)/event3")
        _ = folder.folder("by-path")
        let byPath = folder.link("by-path/platform-spi-event", to: "\(folder.path)/event2")
        #expect(try d.choose(byPath).path == "\(folder.path)/event2")
        // A link to a device that is not a touchscreen says what it lacks, under the node's path.
        let keyboard = folder.link("by-id/keyboard-event-kbd", to: "../event0")
        #expect(throws: InputDeviceError.self) { try d.choose(keyboard) }
        do { _ = try d.choose(keyboard) } catch {
            #expect(error.description.hasPrefix("\(folder.path)/event0 (\"AT Translated Set 2 keyboard\") is not a touchscreen: no touch axes"))
        }
        // A dangling link is a device that is not there.
        let dangling = folder.link("by-id/gone-event", to: "../event9")
        #expect(throws: InputDeviceError.system(call: "open", path: dangling, errno: ENOENT)) { try d.choose(dangling) }
    }

    @Test func aNamedDeviceThatCannotBeOpenedSaysWhyNotThatItIsNoTouchscreen() throws {
        let folder = TemporaryFolder()
        let d = discovery(folder)
        do {
            _ = try d.choose("\(folder.path)/event4")
            Issue.record("a device that cannot be opened was taken")
        } catch {
            #expect(error == .system(call: "open", path: "\(folder.path)/event4", errno: EACCES))
            #expect(error.description == "\(folder.path)/event4: permission denied (open): the user needs to be in group 'input' (sudo usermod -aG input $USER, then log in again)")
            #expect(!error.description.contains("not a touchscreen"))
        }
        // Scanned for real: a node that is not an evdev device names the call that refused it.
        let scanned = DeviceDiscovery(directory: folder.path)
        #expect(throws: InputDeviceError.system(call: "libevdev_new_from_fd", path: "\(folder.path)/event4", errno: ENOTTY)) {
            try scanned.choose("\(folder.path)/event4")
        }
    }

    @Test func theReportSaysWhyTheWantedDeviceIsNotUsed() throws {
        let folder = TemporaryFolder()
        let d = discovery(folder)
        #expect(d.report(using: "ADS7846 Touchscreen").contains("\(folder.path)/event3  \"ADS7846 Touchscreen\"\n    USED: single touch"))
        #expect(!d.report(using: "ADS7846 Touchscreen").contains("kiosk would use no device"))
        let missing = d.report(using: "Goodix Capacitive TouchScreen")
        #expect(!missing.contains("USED"))
        #expect(missing.hasSuffix("kiosk would use no device: \"Goodix Capacitive TouchScreen\" cannot be used: no device is named \"Goodix Capacitive TouchScreen\"\n"), "\(missing)")
        let denied = d.report(using: "\(folder.path)/event4")
        #expect(denied.hasSuffix("cannot be used: \(folder.path)/event4: permission denied (open): the user needs to be in group 'input' (sudo usermod -aG input $USER, then log in again)\n"), "\(denied)")
        let keyboard = d.report(using: "AT Translated Set 2 keyboard")
        #expect(keyboard.contains("cannot be used: \(folder.path)/event0 (\"AT Translated Set 2 keyboard\") is not a touchscreen: no touch axes"), "\(keyboard)")
    }

    /// The outcome as text: `take PATH`, `wait: WHY`, `problem: WHY` or `settle: ERRORS`.
    func said(_ outcome: DeviceDiscovery.Outcome) -> String {
        switch outcome {
        case .take(let e): "take \(e.path)"
        case .wait(let why): "wait: \(why)"
        case .problem(let why): "problem: \(why)"
        case .settle(let refusals): "settle: " + refusals.map { "\($0)" }.joined(separator: "; ")
        }
    }

    /// Waiting for a panel is not an error: a keyboard alone, or a device asked for that is not
    /// there yet, means wait. A device that is there and cannot be used is a problem.
    @Test func noPanelYetMeansWaitAndOnlyADeviceThatIsThereAndUnusableIsAProblem() throws {
        let folder = TemporaryFolder()
        let all = discovery(folder).entries
        let keyboardOnly = DeviceDiscovery(directory: folder.path, entries: [all[0]])
        #expect(said(keyboardOnly.outcome()) == "wait: no touchscreen in \(folder.path) yet")
        #expect(keyboardOnly.notTouchscreens.map(\.name) == ["AT Translated Set 2 keyboard"])
        #expect(keyboardOnly.notTouchscreens.first?.reason.hasPrefix("no touch axes") == true)
        #expect(said(DeviceDiscovery(directory: folder.path, entries: []).outcome()) == "wait: no touchscreen in \(folder.path) yet")
        #expect(said(keyboardOnly.outcome("\(folder.path)/by-id/usb-panel-event-if00"))
                == "wait: \(folder.path)/by-id/usb-panel-event-if00 is not there yet")
        #expect(said(keyboardOnly.outcome("Goodix Capacitive TouchScreen"))
                == "wait: no device named \"Goodix Capacitive TouchScreen\" in \(folder.path) yet")

        // There, and not usable: the keyboard asked for by name or path, a node kiosk may not open.
        #expect(said(keyboardOnly.outcome("AT Translated Set 2 keyboard")).hasPrefix(
            "problem: \(folder.path)/event0 (\"AT Translated Set 2 keyboard\") is not a touchscreen: no touch axes"))
        #expect(said(keyboardOnly.outcome("\(folder.path)/event0")).hasPrefix("problem: \(folder.path)/event0 (\"AT Translated Set 2 keyboard\")"))
        let unopened = DeviceDiscovery(directory: folder.path, entries: [all[0], all[4]])
        #expect(said(unopened.outcome()) == "problem: no touchscreen kiosk can open in \(folder.path); it cannot open:\n  "
                + "\(folder.path)/event4: permission denied (open): the user needs to be in group 'input' (sudo usermod -aG input $USER, then log in again)")
        #expect(unopened.notTouchscreens.map(\.path) == ["\(folder.path)/event0"], "a node not opened is not plainly no touchscreen")

        #expect(said(discovery(folder).outcome()) == "take \(folder.path)/event2")
    }
}
