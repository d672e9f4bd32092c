import Foundation
import KioskCore
import Testing

/// Whole files through plain system calls: the errors name the path and the kernel's reason.
@Suite("Reading and writing whole files")
struct TextFileTests {
    func folder() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-textfile-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }

    /// The error `body` throws; nil when it throws none (or another kind, which fails the test).
    func error(_ body: () throws -> Void) -> FileError? {
        do {
            try body()
            return nil
        } catch let error as FileError {
            return error
        } catch {
            Issue.record("not a FileError: \(error)")
            return nil
        }
    }

    @Test func readsAFileWhole() throws {
        let path = try folder() + "/a.txt"
        try Data("one\ntwo\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try TextFile.readText(path, what: "the file", limit: 100) == "one\ntwo\n")
        #expect(try TextFile.read(path, what: "the file", limit: 8).count == 8)
    }

    @Test func aFileOneByteOverTheLimitIsRefused() throws {
        let path = try folder() + "/a.txt"
        try Data(count: 9).write(to: URL(fileURLWithPath: path))
        #expect(error { _ = try TextFile.read(path, what: "the file", limit: 8) }?.description
            == "\(path): cannot read the file: it is larger than 8 bytes, the most kiosk reads as the file")
    }

    @Test func aDeviceThatNeverEndsStopsAtTheLimit() {
        #expect(error { _ = try TextFile.read("/dev/zero", what: "the trace", limit: 1 << 20) }?.reason
            == "cannot read the trace: it is larger than 1 MiB, the most kiosk reads as the trace")
    }

    @Test func aMissingFileAndADirectoryAreSaidToBeSo() throws {
        let dir = try folder()
        #expect(error { _ = try TextFile.read(dir + "/none", what: "the trace", limit: 8) }?.description
            == "\(dir)/none: cannot read the trace: no such file or directory")
        #expect(error { _ = try TextFile.read(dir, what: "the trace", limit: 8) }?.description
            == "\(dir): cannot read the trace: it is a directory; expected a file")
    }

    @Test(arguments: [
        ([0x61, 0x0a, 0x62, 0xff], 2, 2, 0xff), // a byte never in UTF-8
        ([0xc3], 1, 1, 0xc3), // a sequence cut short by the end
        ([0x61, 0xc3, 0x28], 1, 2, 0xc3), // a lead byte without its continuation
        ([0xe0, 0x80, 0x80], 1, 1, 0xe0), // an overlong form
        ([0xed, 0xa0, 0x80], 1, 1, 0xed), // a UTF-16 surrogate
        ([0xf4, 0x90, 0x80, 0x80], 1, 1, 0xf4), // above U+10FFFF
        ([0x0a, 0x0a, 0xc3, 0xa9, 0x80], 3, 3, 0x80), // a stray continuation after é
        ([0x20, 0xe2, 0x82, 0x41], 1, 2, 0xe2), // a third byte that does not continue
        ([0xf0, 0x9f, 0x91, 0x20], 1, 1, 0xf0), // a fourth byte that does not continue
        ([0xf0, 0x9f, 0x91], 1, 1, 0xf0), // four bytes cut short by the end
    ] as [([UInt8], Int, Int, UInt8)])
    func theFirstByteThatIsNotUTF8IsFoundByLineAndColumn(bytes: [UInt8], line: Int, column: Int, byte: UInt8) {
        let found = TextFile.firstInvalidUTF8(bytes)
        #expect(found?.line == line && found?.column == column && found?.byte == byte, "\(String(describing: found))")
    }

    @Test func wellFormedUTF8IsAcceptedWhole() {
        #expect(TextFile.firstInvalidUTF8(Array("Café – 触摸 👆\n".utf8)) == nil)
    }

    @Test func writesAFileWholeKeepingTheModeOfTheOneItReplaces() throws {
        let dir = try folder()
        let path = dir + "/out.json"
        try TextFile.write("first", to: path, what: "the state")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o644)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        try TextFile.write("second", to: path, what: "the state")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.json"], "no temporary file left beside it")
    }

    @Test func aDeviceIsWrittenInPlaceNeverReplaced() throws {
        try TextFile.write("nothing", to: "/dev/null", what: "the events")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test func aWriteThatCannotBeMadeNamesThePathAndWhy() throws {
        let dir = try folder()
        #expect(error { try TextFile.write("x", to: dir + "/no/such/s.json", what: "the state (--state)") }?.description
            == "\(dir)/no/such/s.json: cannot write the state (--state): the directory '\(dir)/no/such' does not exist")
        #expect(error { try TextFile.write("x", to: dir, what: "the state (--state)") }?.description
            == "\(dir): cannot write the state (--state): it is a directory; expected a file name")
        #expect(error { try TextFile.checkWritable(dir + "/no/such/s.json", what: "the state") }?.reason
            == "cannot write the state: the directory '\(dir)/no/such' does not exist")
        #expect(error { try TextFile.checkWritable(dir, what: "the state") }?.reason == "cannot write the state: it is a directory; expected a file name")
        #expect(error { try TextFile.checkWritable(dir + "/new.json", what: "the state") } == nil)
    }

    @Test(.enabled(if: getuid() != 0, "root may write anywhere"))
    func aFolderWithoutWritePermissionIsSaidToBeOne() throws {
        let dir = try folder()
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: dir)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: dir) }
        #expect(error { try TextFile.write("x", to: dir + "/s.json", what: "the state") }?.reason
            == "cannot write the state in the directory '\(dir)': permission denied")
        #expect(error { try TextFile.checkWritable(dir + "/s.json", what: "the state") }?.reason
            == "cannot write the state in the directory '\(dir)': permission denied")
    }
}
