import Foundation
import KioskTestSupport
import Testing

/// Files kiosk cannot use, as a new user meets them through the built executable: each error says
/// which file, what is wrong with it (where inside, when inside) and what would be right, with
/// status 2; never Foundation's raw text.
@Suite("kiosk replay and check-config, files they cannot use")
struct FileErrorTests {
    let trace = "traces/demo.evemu"

    func run(_ arguments: [String]) throws -> KioskExecutable.Finished { try KioskExecutable.run(arguments) }

    func folder() throws -> URL { try KioskExecutable.temporaryFolder("files") }

    /// The error line of a run that must fail with status 2, without Foundation's words in it.
    func failure(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let r = try run(arguments)
        #expect(r.status == 2, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, sourceLocation: sourceLocation)
        for raw in ["NSCocoaErrorDomain", "Error Domain", "The operation could not be completed", "You don't have permission",
                    "isn't in the correct format"] {
            #expect(!r.stderr.contains(raw), "\(r.stderr)", sourceLocation: sourceLocation)
        }
        // The line saying which config the command took by default is not the error.
        return r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("kiosk replay: config ") }.joined(separator: "\n")
    }

    @Test func aDirectoryAsTheTraceIsSaidToBeOne() throws {
        let dir = try folder()
        #expect(try failure(["replay", dir.path]) == "kiosk replay: \(dir.path): cannot read the trace: it is a directory; expected a file\n")
    }

    @Test func aDirectoryAsTheConfigIsSaidToBeOne() throws {
        let dir = try folder()
        #expect(try failure(["replay", trace, "--config", dir.path])
            == "kiosk replay: \(dir.path): cannot read the config file: it is a directory; expected a file\n")
        #expect(try failure(["check-config", dir.path]) == "\(dir.path): cannot read the config file: it is a directory; expected a file\n")
    }

    @Test func aMissingTraceOrConfigIsNamedWithTheReason() throws {
        let missing = try folder().appendingPathComponent("nothing.evemu").path
        #expect(try failure(["replay", missing]) == "kiosk replay: \(missing): cannot read the trace: no such file or directory\n")
        #expect(try failure(["check-config", missing]) == "\(missing): cannot read the config file: no such file or directory\n")
    }

    @Test func devNullIsAnEmptyTrace() throws {
        #expect(try failure(["replay", "/dev/null"]) == "kiosk replay: /dev/null:1: the file is empty: this is not an evemu recording,"
            + " which is UTF-8 text starting with 'N: device name'\n")
    }

    @Test(arguments: ["--state", "--events", "--decisions", "--screenshot"])
    func anOutputInAFolderThatDoesNotExistIsNamedBeforeTheReplay(option: String) throws {
        let dir = try folder().appendingPathComponent("nonexistent/dir")
        let path = dir.appendingPathComponent("out").path
        let stderr = try failure(["replay", trace, option, path])
        #expect(stderr.hasPrefix("kiosk replay: \(path): cannot write the "), "\(stderr)")
        #expect(stderr.hasSuffix("(\(option)): the directory '\(dir.path)' does not exist\n"), "\(stderr)")
    }

    @Test(arguments: ["--state", "--events", "--decisions", "--screenshot"])
    func aFolderAsAnOutputIsSaidToBeOne(option: String) throws {
        let dir = try folder()
        let stderr = try failure(["replay", trace, option, dir.path])
        #expect(stderr.hasSuffix("(\(option)): it is a directory; expected a file name\n"), "\(stderr)")
    }

    @Test func aRecordingIntoAFolderThatDoesNotExistIsRefusedBeforeAnyDeviceIsOpened() throws {
        let dir = try folder().appendingPathComponent("missing")
        let path = dir.appendingPathComponent("touch.evemu").path
        #expect(try failure(["record", path])
            == "kiosk record: \(path): cannot write the recording: the directory '\(dir.path)' does not exist\n")
    }

    @Test func anOutputUnderAFileIsSaidToBeUnderAFile() throws {
        let file = try folder().appendingPathComponent("state.json")
        try Data("{}".utf8).write(to: file)
        let stderr = try failure(["replay", trace, "--state", file.path + "/s.json"])
        #expect(stderr == "kiosk replay: \(file.path)/s.json: cannot write the state (--state): '\(file.path)' is not a directory\n")
    }

    @Test func anOutputIsWrittenWholeAndReplacesTheOldFileWithNothingLeftBeside() throws {
        let dir = try folder()
        let state = dir.appendingPathComponent("state.json")
        try Data("old".utf8).write(to: state)
        let r = try run(["replay", trace, "--state", state.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOf: state, encoding: .utf8).hasPrefix("{"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["state.json"])
    }

    @Test func aUTF16TraceIsNamedAsSuch() throws {
        let path = try folder().appendingPathComponent("utf16.evemu").path
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        try #require(text.data(using: .utf16)).write(to: URL(fileURLWithPath: path))
        let stderr = try failure(["replay", path])
        #expect(stderr.hasPrefix("kiosk replay: \(path):1: the file starts with a UTF-16 byte order mark: this is not an evemu recording"), "\(stderr)")
        #expect(stderr.contains("iconv -f UTF-16 -t UTF-8"))
    }

    @Test func aBinaryTraceIsNamedByLineAndColumn() throws {
        let path = try folder().appendingPathComponent("binary.evemu").path
        try Data([0x4e, 0x3a, 0x20, 0x78, 0x0a, 0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]).write(to: URL(fileURLWithPath: path))
        #expect(try failure(["replay", path]) == "kiosk replay: \(path):2: column 5: a NUL byte, as in UTF-16 or a binary file:"
            + " this is not an evemu recording, which is UTF-8 text starting with 'N: device name'\n")
    }

    @Test func aLatin1TraceIsNamedByLineAndColumn() throws {
        let path = try folder().appendingPathComponent("latin1.evemu").path
        try Data([0x4e, 0x3a, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a]).write(to: URL(fileURLWithPath: path))
        #expect(try failure(["replay", path]).hasPrefix("kiosk replay: \(path):1: column 7: byte 0xe9 is not UTF-8: this is not an evemu recording"))
    }

    @Test func anAxisWithItsMinimumAboveItsMaximumNamesItsLine() throws {
        let path = try folder().appendingPathComponent("axis.evemu").path
        try Data("N: Panel\nI: 0018 0000 0000 0000\nA: 35 800 0 0 0 0\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try failure(["replay", path])
            == "kiosk replay: \(path):3: ABS_MT_POSITION_X: min 800 is above max 0; expected min <= max, found 'A: 35 800 0 0 0 0'\n")
    }

    @Test func aValueTooLargeFor32BitsNamesItsField() throws {
        let path = try folder().appendingPathComponent("value.evemu").path
        try Data("N: Panel\nI: 0018 0000 0000 0000\nE: 0.000000 0003 0035 99999999999\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try failure(["replay", path]) == "kiosk replay: \(path):3: expected 'E: seconds type code value': the value"
            + " '99999999999' does not fit in 32 bits (-2147483648...2147483647), found 'E: 0.000000 0003 0035 99999999999'\n")
    }

    @Test func aConfigThatIsNotUTF8NamesItsLineAndColumn() throws {
        let path = try folder().appendingPathComponent("kiosk.toml").path
        try Data("# kiosk\n[scene]\nname = \"".utf8 + [0xff] + Data("\"\n".utf8)).write(to: URL(fileURLWithPath: path))
        #expect(try failure(["check-config", path]) == "\(path):3: column 9: byte 0xff is not UTF-8: the config file must be UTF-8 text\n")
    }

    @Test func aUTF16ConfigIsNamedAsSuchWithOrWithoutItsByteOrderMark() throws {
        let dir = try folder()
        let text = try String(contentsOfFile: "config/kiosk.toml", encoding: .utf8)
        let withMark = dir.appendingPathComponent("bom.toml"), without = dir.appendingPathComponent("le.toml")
        try #require(text.data(using: .utf16)).write(to: withMark)
        try #require(text.data(using: .utf16LittleEndian)).write(to: without)
        #expect(try failure(["check-config", withMark.path])
            == "\(withMark.path):1: column 1: byte 0xff is not UTF-8: the config file must be UTF-8 text, not UTF-16 or a binary file\n")
        #expect(try failure(["check-config", without.path])
            == "\(without.path):1: column 2: a NUL byte: the config file must be UTF-8 text, not UTF-16 or a binary file\n")
    }

    @Test func aConfigOfMoreThanAMegabyteIsRefusedUnread() throws {
        let path = try folder().appendingPathComponent("huge.toml").path
        try Data(repeating: UInt8(ascii: "#"), count: (1 << 20) + 1).write(to: URL(fileURLWithPath: path))
        #expect(try failure(["check-config", path])
            == "\(path): cannot read the config file: it is larger than 1 MiB, the most kiosk reads as the config file\n")
    }
}
