import Display
import Foundation
import KioskCore
import KioskTestSupport
import KioskLog
@testable import Runtime
import Testing

/// What `kiosk run` logs about its touchscreen before it has one: waiting for a panel is one
/// warning, never an error; only a device that is there and cannot be used is an error.
@Suite("The live loop waiting for a touchscreen")
struct WaitingForATouchscreenTests {
    final class Run: LiveLoopRun {

        /// A live loop reading input from a folder of its own; `device` is written as
        /// `[input] device` (relative to the folder) when given.
        init(device: String? = nil) throws {
            try super.init("waiting", input: { folder in device.map { "device = \"\(folder.path)/\($0)\"\n" } ?? "" })
        }

        /// A file that is not an input device, where the kernel would make a node.
        func plantNode(_ name: String) {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil)
        }
    }

    @Test func nothingPluggedInIsOneWarningThatSaysItWaits() throws {
        let run = try Run()
        #expect(run.inputLines == ["warning no touchscreen yet; waiting for one to be plugged in"])
        let warning = try #require(run.handler.entries.first { $0.level == .warning })
        #expect(warning.metadata["input.waiting"] == "no touchscreen in \(run.folder.path) yet")
        #expect(warning.metadata["input.wanted"] == "any touchscreen")
        // Changes in the folder that bring no touchscreen say nothing more.
        try FileManager.default.createDirectory(at: run.folder.appendingPathComponent("by-id"), withIntermediateDirectories: true)
        run.embedded.run()
        run.embedded.run()
        #expect(run.inputLines == ["warning no touchscreen yet; waiting for one to be plugged in"])
        #expect(!run.handler.entries.contains { $0.level >= .error }, "\(run.handler.entries)")
    }

    @Test func aConfiguredDeviceIsWaitedForAndIsAnErrorOnlyOnceItIsThereAndCannotBeUsed() throws {
        let run = try Run(device: "event7")
        #expect(run.inputLines == ["warning no touchscreen yet; waiting for one to be plugged in"])
        #expect(run.handler.entries.first { $0.level == .warning }?.metadata["input.waiting"] == "\(run.folder.path)/event7 is not there yet")
        #expect(!run.handler.entries.contains { $0.level >= .error })

        run.plantNode("event7")
        run.embedded.run()
        #expect(run.inputLines == ["warning no touchscreen yet; waiting for one to be plugged in", "error touchscreen cannot be used"])
        let error = try #require(run.handler.entries.last)
        #expect(error.metadata["input.error"] == "\(run.folder.path)/event7: libevdev_new_from_fd failed: Inappropriate ioctl for device")
    }

    @Test func aNodeKioskCannotOpenMayBeThePanelAndIsAnError() throws {
        let run = try Run()
        run.plantNode("event0")
        run.embedded.run()
        #expect(run.inputLines == ["warning no touchscreen yet; waiting for one to be plugged in", "error touchscreen cannot be used"])
        #expect(run.handler.entries.last?.metadata["input.error"].map { "\($0)" }?.hasPrefix("no touchscreen kiosk can open in \(run.folder.path)") == true)
    }
}
