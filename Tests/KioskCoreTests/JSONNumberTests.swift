import Foundation
import KioskCore
import Testing

/// `JSONObject.number`, which writes the state, events and stats: valid JSON for every Double
/// (issue 16, fault 1: a view frame of 1e17 trapped converting to Int64).
@Suite struct JSONNumberTests {
    @Test(arguments: [
        (1.5, 2, "1.5"), (-0.0001, 2, "0"), (120, 1, "120"), (-3.14159, 3, "-3.142"), (123_456.789, 3, "123456.789"),
    ])
    func writesAtMostTheDecimalsAsked(value: Double, digits: Int, written: String) {
        #expect(JSONObject.number(value, digits) == written)
    }

    @Test(arguments: [1e17, -1e17, 9.3e16, 1e308, -Double.greatestFiniteMagnitude, 123_456_789_012_345_678.0])
    func aNumberBeyondItsDecimalsIsWrittenAsJSONThatReadsBackTheSame(value: Double) throws {
        for digits in [0, 1, 3] {
            var o = JSONObject()
            o.add("x", value, digits: digits)
            let read = try JSONSerialization.jsonObject(with: Data(o.json.utf8)) as? [String: Any]
            #expect((read?["x"] as? NSNumber)?.doubleValue == value, "\(o.json)")
        }
    }

    @Test func notANumberIsNull() {
        #expect(JSONObject.number(.nan, 2) == "null")
        #expect(JSONObject.number(-.infinity, 2) == "null")
    }
}
