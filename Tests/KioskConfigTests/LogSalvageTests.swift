import Foundation
import KioskConfig
import KioskTestSupport
import Testing

/// Where a file that does not load can still have its error logged: its `[log] serial`.
@Suite("The log settings of a config that does not load")
struct LogSalvageTests {
    func salvage(_ text: String) throws -> LogSettings? {
        let folder = try KioskExecutable.temporaryFolder("salvage")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("kiosk.conf").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return LogSettings.salvaged(fromFile: path)
    }

    @Test func aMistakeElsewhereLeavesTheWholeLogSection() throws {
        let s = try salvage("[display]\nrotation = 45\n[log]\nserial = \"/dev/ttyUSB0\"\nbaud = 9600\nlevel = \"debug\"\n")
        #expect(s?.serial == "/dev/ttyUSB0")
        #expect(s?.baud == 9600)
        #expect(s?.level == .debug)
    }

    @Test func aMistakeInTheLogSectionLeavesItsSerialAndBaud() throws {
        let s = try salvage("[log]\nserial = \"/dev/ttyAMA0\"\nbaud = 57600\nlevle = \"debug\"\n")
        #expect(s?.serial == "/dev/ttyAMA0")
        #expect(s?.baud == 57600)
        let badBaud = try salvage("[log]\nserial = \"/dev/ttyAMA0\"\nbaud = 12345\n")
        #expect(badBaud?.serial == "/dev/ttyAMA0")
        #expect(badBaud?.baud == LogSettings().baud, "a baud that does not read is the default")
    }

    @Test func noneMeansStderrOnly() throws {
        let s = try salvage("[view]\nkind = 3\n[log]\nserial = \"none\"\n")
        #expect(s != nil && s?.serial == nil)
    }

    @Test(arguments: [
        "[log\nserial = \"/dev/ttyUSB0\"\n",             // not TOML
        "[display]\nrotation = 45\n",                     // no [log]
        "[log]\nlevel = \"debug\"\n",                     // no serial in it
        "[log]\nserial = \"ttyUSB0\"\n",                  // not a device path
        "[log]\nserial = 5\n",                            // not a string
        "log = 5\n",                                      // not a table
        "[log]\nserial = \"/dev/ttyUSB0\"\n[\n",             // toml++ would abort on the header (issue 16)
        "[log]\nserial = \"/dev/ttyUSB0\"\nx = [}\n",        // and on the list
    ])
    func nothingToGoOnIsNil(text: String) throws {
        #expect(try salvage(text) == nil)
    }

    @Test func aFileThatDoesNotReadIsNil() {
        #expect(LogSettings.salvaged(fromFile: "/nonexistent/kiosk.conf") == nil)
    }
}
