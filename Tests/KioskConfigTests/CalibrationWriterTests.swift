import Foundation
import Testing
@testable import KioskConfig

/// `kiosk calibrate` writes one value into the config: every other byte stays as it was.
@Suite("Writing the calibration into the config")
struct CalibrationWriterTests {
    static let matrix = [1.0625, -0.001, -0.03125, 0.0, 0.96, 0.02]
    static let written = "[1.0625, -0.001, -0.03125, 0.0, 0.96, 0.02]"

    /// The text after writing; it must read back with the matrix and nothing else changed.
    func write(_ text: String) throws -> String {
        let new = try CalibrationWriter.write(Self.matrix, into: text)
        let before = try KioskConfiguration.parse(text, file: "kiosk.toml")
        let after = try KioskConfiguration.parse(new, file: "kiosk.toml")
        #expect(after.runtime.input.calibration == Self.matrix)
        var expected = before.runtime
        expected.input.calibration = Self.matrix
        #expect(after.runtime == expected)
        // The scene's views know their lines, which an added line moves: compared as check-config prints them.
        #expect(after.resolvedText == KioskConfiguration(file: before.file, scene: before.scene, runtime: expected).resolvedText)
        return new
    }

    @Test func aValueIsReplacedAndItsCommentKept() throws {
        let text = runtimeConfig("[input]\ndevice = \"/dev/input/event1\"\ncalibration = [1, 0, 0, 0, 1, 0]   # factory\ngrab = true\n")
        #expect(try write(text) == text.replacingOccurrences(of: "[1, 0, 0, 0, 1, 0]", with: Self.written))
    }

    @Test func anArrayAcrossLinesWithCommentsIsReplacedWhole() throws {
        let old = "[\n  1, 0, 0,  # x\n  0, 1, 0,  # y ]\n]"
        let text = runtimeConfig("[input]\ncalibration = \(old) # old\nflip_x = false\n")
        #expect(try write(text) == text.replacingOccurrences(of: old, with: Self.written))
    }

    @Test func aQuotedKeyAndSpacesInTheHeaderAreTheSameKey() throws {
        let text = runtimeConfig("[ input ] # the panel\n\"calibration\"  =  [1,0,0,0,1,0]\n")
        #expect(try write(text) == text.replacingOccurrences(of: "[1,0,0,0,1,0]", with: Self.written))
    }

    @Test func anAbsentKeyGoesRightUnderTheHeaderWithTheFilesLineEnding() throws {
        let text = runtimeConfig("[display]\r\nrotation = 0\r\n[input] # resistive\r\ngrab = false\r\n").replacingOccurrences(of: "\n", with: "\r\n")
            .replacingOccurrences(of: "\r\r\n", with: "\r\n")
        let new = try write(text)
        #expect(new == text.replacingOccurrences(of: "[input] # resistive\r\n", with: "[input] # resistive\r\ncalibration = \(Self.written)\r\n"))
    }

    @Test func aHeaderOnTheLastLineWithoutALineBreak() throws {
        let text = minimalScene + "[input]"
        #expect(try write(text) == text + "\ncalibration = \(Self.written)")
    }

    @Test func withoutInputASectionIsAppended() throws {
        let text = minimalScene + "# the end, no newline"
        #expect(try write(text) == text + "\n\n[input]\ncalibration = \(Self.written)\n")
        let crlf = minimalScene.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try write(crlf) == crlf + "\r\n[input]\r\ncalibration = \(Self.written)\r\n")
    }

    @Test func anInlineTableGetsTheEntry() throws {
        let text = "input = { device = \"/dev/input/event1\", grab = false }  # inline\n" + minimalScene
        #expect(try write(text) == text.replacingOccurrences(of: "{ device", with: "{ calibration = \(Self.written), device"))
        let empty = "input = {}\n" + minimalScene
        #expect(try write(empty) == empty.replacingOccurrences(of: "{}", with: "{ calibration = \(Self.written) }"))
        let inside = "input = { calibration = [1, 0, 0, 0, 1, 0], grab = false }\n" + minimalScene
        #expect(try write(inside) == inside.replacingOccurrences(of: "[1, 0, 0, 0, 1, 0]", with: Self.written))
    }

    @Test func dottedKeysAtTheTopGetADottedKey() throws {
        let text = "input.device = \"/dev/input/event1\" # the panel\n" + minimalScene
        #expect(try write(text) == text.replacingOccurrences(of: "# the panel\n", with: "# the panel\ninput.calibration = \(Self.written)\n"))
    }

    @Test func textThatLooksLikeTheKeyInsideStringsAndCommentsIsLeftAlone() throws {
        let text = """
            # [input]
            # calibration = [1, 0, 0, 0, 1, 0]
            [display]
            connector = "[input]"
            screenshot_directory = '''
            /var/lib/kiosk
            calibration = [2]'''
            """ + "\n" + minimalScene
        #expect(throws: Never.self) { _ = try? KioskConfiguration.parse(text, file: "k") }
        let new = try CalibrationWriter.write(Self.matrix, into: text)
        #expect(new.hasPrefix(text))
        #expect(new.hasSuffix("[input]\ncalibration = \(Self.written)\n"))
    }

    @Test func pointercalIsNamedNotOverwritten() {
        let text = runtimeConfig("[input]\n\npointercal = \"/etc/pointercal\"\n")
        #expect(throws: CalibrationWriteError.pointercalGiven(line: 3)) { try CalibrationWriter.write(Self.matrix, into: text) }
    }

    /// Found by fuzz-config: the TOML parser stops at a NUL, so a section appended after one was never read.
    @Test func aNULByteIsRefusedNotWrittenPast() {
        let text = minimalScene + "# a comment \u{0}\u{0} with NUL bytes\n"
        #expect(throws: CalibrationWriteError.unreadable("a NUL byte: a config file is text", line: 6)) {
            try CalibrationWriter.write(Self.matrix, into: text)
        }
    }

    @Test func numbersAreWrittenWithoutExponents() {
        #expect(CalibrationWriter.formatted(1e-7) == "0.0")
        #expect(CalibrationWriter.formatted(-0.0000125) == "-0.000013")
        #expect(CalibrationWriter.formatted(-2) == "-2.0")
        #expect(CalibrationWriter.formatted(1e-5) == "0.00001")
    }

    /// Configs made of tricky pieces in a random order: every one reads back with the matrix, and
    /// taking the written value out gives the original bytes back.
    @Test func generatedConfigsKeepEveryOtherByte() throws {
        var rng = SplitMix(seed: 15)
        let pieces = [
            "# a comment with [input] in it\n", "\n", "   \n", "[display]\nrotation = 0 # turned\n",
            "[log]\nserial = \"none\"\nlevel = 'info'\n", "[loop]\nstages = { input = 0.1, timers = 0.05, recognizers = 0.1, animation = 0.05, render = 0.55, present = 0.15 }\n",
            "[panel]\nwidth = 800\nheight = 480\n",
        ]
        let inputs = [
            "[input]\n", "[input]\ncalibration = [ 1 , 0 , 0 ,\n 0 , 1 , 0 ] # multi\n", "[input] # x\ngrab = false\n",
            "", "[input]\ncalibration=[1,0,0,0,1,0]", "[input]\n\"calibration\" = [1, 0, 0, 0, 1, 0]\n",
        ]
        for round in 0..<300 {
            var parts = (0..<Int(rng.next() % 4)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }
            parts.append(inputs[Int(rng.next() % UInt64(inputs.count))])
            parts.shuffle(using: &rng)
            var text = parts.joined() + (parts.last?.hasSuffix("\n") == false ? "\n" : "") + minimalScene
            if rng.next() % 2 == 0 { text = text.replacingOccurrences(of: "\n", with: "\r\n") }
            if rng.next() % 2 == 0, text.hasSuffix("\n") { text.removeLast(text.hasSuffix("\r\n") ? 2 : 1) }
            guard (try? KioskConfiguration.parse(text, file: "k")) != nil else { continue }  // two [panel]s, say
            let new = try write(text)
            let newBytes = Array(new.utf8), oldBytes = Array(text.utf8)
            // What differs is one contiguous run: the common prefix and suffix cover every other byte.
            let prefix = zip(newBytes, oldBytes).prefix { $0 == $1 }.count
            let suffix = zip(newBytes.reversed(), oldBytes.reversed()).prefix { $0 == $1 }.count
            let changedOld = String(decoding: oldBytes[min(prefix, oldBytes.count - min(suffix, oldBytes.count))...].dropLast(min(suffix, max(0, oldBytes.count - prefix))), as: UTF8.self)
            #expect(!changedOld.contains("#"), "round \(round): a comment was touched")
            #expect(!changedOld.contains("grab") && !changedOld.contains("rotation"), "round \(round)")
        }
    }
}

/// A small seeded generator, so a failing round comes back the same.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
