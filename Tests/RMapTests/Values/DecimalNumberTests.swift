import RMap
import Testing

@Suite("Decimal numbers")
struct DecimalNumberTests {
    @Test(arguments: [
        ("12.50", "12.5"), ("12.5", "12.5"), ("1e2", "100"), ("1E+2", "100"), ("100", "100"), ("-0", "0"),
        ("0.000", "0"), ("+7", "7"), ("007.100", "7.1"), (".5", "0.5"), ("5.", "5"), ("1.25e-3", "0.00125"),
        ("-12.50", "-12.5"), ("-0.0e5", "0"), (" 3.0 ", "3"),
        ("123456789012345678901234567890.10", "123456789012345678901234567890.1"),
    ])
    func canonicalForm(text: String, canonical: String) throws {
        let number = try #require(DecimalNumber(text))
        #expect(number.canonical == canonical)
        #expect(number.text == text.trimmingCharacters(in: .whitespaces))
        #expect(number.description == number.text)
    }

    @Test(arguments: [("12.50", "12.5"), ("1e2", "100"), ("-0", "0"), ("0.10", "1e-1"), ("-1.0", "-1")])
    func equalWhenTheNumbersAre(lhs: String, rhs: String) throws {
        let a = try #require(DecimalNumber(lhs))
        let b = try #require(DecimalNumber(rhs))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        #expect(Value.decimal(a) == Value.decimal(b))
    }

    @Test(arguments: [("12.50", "12.51"), ("1", "-1"), ("0.1", "0.01"), ("10", "1")])
    func differentNumbersDiffer(lhs: String, rhs: String) throws {
        #expect(try #require(DecimalNumber(lhs)) != (try #require(DecimalNumber(rhs))))
    }

    @Test(arguments: [
        "", "abc", "1.2.3", "1e", "e5", "--1", "1-", "0x10", "1,5", ".", "+", "1e2.5", "NaN", "1e1001",
        "1e99999999999999999999",
        // A digit with a combining mark is one Character that sorts among "0"..."9": still not a digit.
        "1\u{301}", "5\u{FE0F}\u{20E3}", "1.5\u{301}",
    ])
    func rejectsNonNumbers(text: String) {
        #expect(DecimalNumber(text) == nil)
    }

    @Test func largeButBoundedExponent() throws {
        let number = try #require(DecimalNumber("1e1000"))
        #expect(number.canonical.count == 1001)
        #expect(DecimalNumber("1e-1000")?.canonical.count == 1002)
    }

    @Test func doubleIsTheNearest() {
        #expect(DecimalNumber("12.50")?.double == 12.5)
        #expect(DecimalNumber("-1e-2")?.double == -0.01)
    }
}
