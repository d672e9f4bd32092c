import KioskCore
import Testing

/// `fixedDecimal`, which writes every number of the decision trace: total over all Doubles
/// (issue 16, fault 2: a swipe's `minimum_distance_mm = 1e19` trapped converting to Int).
@Suite struct FixedDecimalTests {
    @Test(arguments: [
        (1.25, 1, "1.3"), (-1.25, 1, "-1.3"), (0.004, 2, "0.00"), (-0.004, 2, "0.00"), (176.51, 0, "177"), (3, 3, "3.000"),
        (123_456.789, 3, "123456.789"), (-2.5, 0, "-3"),
    ])
    func writesExactlyTheDecimalsAsked(value: Double, digits: Int, written: String) {
        #expect(fixedDecimal(value, digits) == written)
    }

    @Test(arguments: [
        (1e19, 1, "1e+19"), (-1e19, 1, "-1e+19"), (1e308, 0, "1e+308"), (Double.greatestFiniteMagnitude, 3, "1.7976931348623157e+308"),
        (9.3e16, 0, "9.3e+16"), (1e16, 1, "1e+16"), (Double.infinity, 1, "inf"), (-Double.infinity, 2, "-inf"), (Double.nan, 1, "nan"),
    ])
    func aNumberBeyondItsDecimalsIsWrittenInSwiftsShortestSpelling(value: Double, digits: Int, written: String) {
        #expect(fixedDecimal(value, digits) == written)
    }
}
