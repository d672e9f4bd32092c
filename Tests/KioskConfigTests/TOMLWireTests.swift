import KioskTestSupport
import Testing
@testable import KioskConfig

/// What the parsing child hands kiosk (ConfigParsing.swift): every document and every problem
/// comes back as it went, and bytes cut short anywhere are refused, never half read.
@Suite struct TOMLWireTests {
    let text = """
        title = "wire"
        [numbers]
        whole = -9223372036854775808
        real = 2.5e-300
        flags = [true, false]
        [[view]]
        name = "é ü \\u0000 \\n"
        frame = [0, 0.5, 1e300, -0.0]
        nested = [[1, [2, [3]]], { a = { b = "c" } }]
        when = 1979-05-27T07:32:00Z
        day = 1979-05-27
        """

    @Test func aDocumentComesBackAsItWent() throws {
        let document = try ConfigParsing.parseHere(text).get()
        let back = try TOMLWire.decode(TOMLWire.encode(.success(document))).get()
        #expect(back == document)
        #expect(back["numbers"]?.table?["whole"]?.int == Int.min)
        #expect(back["view"]?.array?.first?.table?["when"] == .other("date-time"))
        let config = try String(contentsOfFile: KioskExecutable.defaultConfigPath, encoding: .utf8)
        let defaults = try ConfigParsing.parseHere(config).get()
        #expect(try TOMLWire.decode(TOMLWire.encode(.success(defaults))).get() == defaults)
    }

    @Test func aProblemComesBackAsItWent() throws {
        let problem = try #require(ConfigParsing.parseHere("x = [1,\ny = ").failure)
        #expect(problem.line == 2)
        #expect(try TOMLWire.decode(TOMLWire.encode(.failure(problem))).failure == problem)
    }

    @Test func bytesCutShortOrRunOnAreRefused() throws {
        let bytes = TOMLWire.encode(.success(try ConfigParsing.parseHere(text).get()))
        for end in 0..<bytes.count {
            #expect(throws: TOMLWire.Garbled.self) { try TOMLWire.decode(Array(bytes[..<end])) }
        }
        #expect(throws: TOMLWire.Garbled.self) { try TOMLWire.decode(bytes + [0]) }
    }
}

extension Result {
    var failure: Failure? { if case .failure(let f) = self { f } else { nil } }
}
