import RMap
import Testing

@Suite("Value conversions")
struct ValueConverterTests {
    // MARK: - Datetimes

    @Test(arguments: [
        ("2024-01-02T03:04:05.123456+02:00", "2024-01-02T01:04:05.123Z"),
        ("2024-01-02T03:04:05Z", "2024-01-02T03:04:05.000Z"),
        ("2024-01-02T03:04:05", "2024-01-02T03:04:05.000Z"),
        ("2024-01-02T03:04:05.1Z", "2024-01-02T03:04:05.100Z"),
        ("2024-01-02T03:04:05.12-0130", "2024-01-02T04:34:05.120Z"),
        ("2024-01-02T03:04:05+05", "2024-01-01T22:04:05.000Z"),
        ("2024-01-02 03:04:05.999z", "2024-01-02T03:04:05.999Z"),
        ("2024-01-02T03:04", "2024-01-02T03:04:00.000Z"),
        ("2024-01-02", "2024-01-02T00:00:00.000Z"),
        ("1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"),
        ("2024-03-01T00:30:00+01:00", "2024-02-29T23:30:00.000Z"),
    ])
    func iso8601(text: String, utc: String) throws {
        let value = try #require(ValueConverter.value(from: .string(text), as: .datetime))
        guard case .datetime(let stamp) = value else {
            Issue.record("not a datetime: \(value)")
            return
        }
        #expect(stamp.description == utc)
    }

    @Test(arguments: [
        "2024-01-02T25:00:00Z", "2024-01-02T03:60:00Z", "2024-02-30T00:00:00Z", "2024-01-02T03:04:05.Z",
        "2024-01-02T03:04:05+2",
        "2024-01-02X03:04:05", "yesterday", "", "2024-01-02T03:04:05Z junk",
    ])
    func rejectsBadDatetimes(text: String) {
        #expect(ValueConverter.value(from: .string(text), as: .datetime) == nil)
    }

    @Test func epochFormats() {
        #expect(
            ValueConverter.value(from: .number("1704164645"), as: .datetime, format: .epochSeconds)
                == .datetime(Timestamp(milliseconds: 1_704_164_645_000)))
        #expect(
            ValueConverter.value(from: .number("1704164645.5"), as: .datetime, format: .epochSeconds)
                == .datetime(Timestamp(milliseconds: 1_704_164_645_500)))
        #expect(
            ValueConverter.value(from: .number("1704164645123"), as: .datetime, format: .epochMilliseconds)
                == .datetime(Timestamp(milliseconds: 1_704_164_645_123)))
        #expect(
            ValueConverter.value(from: .string("1704164645123"), as: .datetime, format: .epochMilliseconds)
                == .datetime(Timestamp(milliseconds: 1_704_164_645_123)))
        #expect(
            ValueConverter.value(from: .number("-1"), as: .datetime, format: .epochSeconds)
                == .datetime(Timestamp(milliseconds: -1000)))
        #expect(ValueConverter.value(from: .number("1704164645"), as: .datetime) == nil)
        #expect(ValueConverter.value(from: .string("soon"), as: .datetime, format: .epochSeconds) == nil)
    }

    @Test func patternFormats() throws {
        let pattern = TimeFormat.pattern("dd/MM/yyyy HH:mm")
        let value = try #require(
            ValueConverter.value(from: .string("02/01/2024 03:04"), as: .datetime, format: pattern))
        #expect(value == .datetime(Timestamp(milliseconds: 1_704_164_640_000)))
        #expect(ValueConverter.json(from: value, format: pattern) == .string("02/01/2024 03:04"))
        #expect(ValueConverter.value(from: .string("2024-01-02 03:04"), as: .datetime, format: pattern) == nil)
        #expect(
            ValueConverter.value(from: .string("29/02/2024"), as: .date, format: .pattern("dd/MM/yyyy"))
                == .date(try #require(LocalDate(iso: "2024-02-29"))))
        #expect(
            ValueConverter.value(from: .string("31/12/1969"), as: .date, format: .pattern("dd/MM/yyyy"))
                == .date(try #require(LocalDate(iso: "1969-12-31"))))
    }

    @Test(
        "dotnet: milliseconds since 1970, the offset changing nothing; written back in UTC",
        arguments: [
            ("/Date(1000212360000-0400)/", 1_000_212_360_000), ("/Date(1112715000000)/", 1_112_715_000_000),
            ("/Date(-864000000000)/", -864_000_000_000), ("/Date(1000212360000+0530)/", 1_000_212_360_000),
        ] as [(String, Int64)])
    func dotnetDates(text: String, milliseconds: Int64) {
        let stamp = Timestamp(milliseconds: milliseconds)
        #expect(ValueConverter.value(from: .string(text), as: .datetime, format: .dotnet) == .datetime(stamp))
        #expect(ValueConverter.json(from: .datetime(stamp), format: .dotnet) == .string("/Date(\(milliseconds)+0000)/"))
    }

    @Test(
        "dotnet rejects what is not /Date(ms)/ or /Date(ms±HHMM)/",
        arguments: ["1112715000-0500", "(null)", "/Date()/", "/Date(12a)/", "/Date(1-04)/", "Date(1)", "/Date(1)"])
    func rejectsBadDotnetDates(text: String) {
        #expect(ValueConverter.value(from: .string(text), as: .datetime, format: .dotnet) == nil)
    }

    @Test func dotnetDatesAreDaysInUTC() throws {
        #expect(
            ValueConverter.value(from: .string("/Date(1000252360000-0400)/"), as: .date, format: .dotnet)
                == .date(try #require(LocalDate(iso: "2001-09-11"))))
    }

    @Test func patternsReadAndWriteInTheirTimeZone() throws {
        let pattern = TimeFormat.pattern("dd/MM/yyyy HH:mm", timeZone: "Europe/Berlin")
        let summer = try #require(
            ValueConverter.value(from: .string("01/07/2024 12:00"), as: .datetime, format: pattern))
        #expect(summer == .datetime(Timestamp(milliseconds: 1_719_828_000_000)))
        #expect(ValueConverter.json(from: summer, format: pattern) == .string("01/07/2024 12:00"))
        // Midnight in Berlin is the day before in UTC; a date keeps the day the text names.
        #expect(
            ValueConverter.value(
                from: .string("01/07/2024 00:30"), as: .date,
                format: .pattern("dd/MM/yyyy HH:mm", timeZone: "Europe/Berlin"))
                == .date(try #require(LocalDate(iso: "2024-07-01"))))
        // A zone in the text wins over the pattern's.
        let zoned = TimeFormat.pattern("yyyy-MM-dd HH:mm XXX", timeZone: "Europe/Berlin")
        #expect(
            ValueConverter.value(from: .string("2024-07-01 12:00 Z"), as: .datetime, format: zoned)
                == .datetime(Timestamp(milliseconds: 1_719_835_200_000)))
    }

    @Test func booleanWordsReplaceTheStandardOnes() {
        let words = BooleanWords(trueValues: ["Y", "yes"], falseValues: ["n"])
        #expect(ValueConverter.value(from: .string("y"), as: .bool, booleans: words) == .bool(true))
        #expect(ValueConverter.value(from: .string("N"), as: .bool, booleans: words) == .bool(false))
        #expect(ValueConverter.value(from: .bool(false), as: .bool, booleans: words) == .bool(false))
        #expect(ValueConverter.value(from: .string("true"), as: .bool, booleans: words) == nil)
        #expect(ValueConverter.value(from: .number("1"), as: .bool, booleans: words) == nil)
        #expect(
            ValueConverter.value(from: .array([.string("yes"), .string("n")]), as: .array(.bool), booleans: words)
                == .array([.bool(true), .bool(false)]))
        #expect(ValueConverter.value(from: .string("t"), as: .bool) == .bool(true))
        #expect(ValueConverter.value(from: .number("0"), as: .bool) == .bool(false))
    }

    @Test func datetimesWriteBackInTheirFormat() {
        let value = Value.datetime(Timestamp(milliseconds: 1_704_164_645_123))
        #expect(ValueConverter.json(from: value) == .string("2024-01-02T03:04:05.123Z"))
        #expect(ValueConverter.json(from: value, format: .epochSeconds) == .number("1704164645"))
        #expect(ValueConverter.json(from: value, format: .epochMilliseconds) == .number("1704164645123"))
    }

    // MARK: - Dates

    @Test func dates() throws {
        let date = Value.date(try #require(LocalDate(iso: "1990-04-01")))
        #expect(ValueConverter.value(from: .string("1990-04-01"), as: .date) == date)
        #expect(
            ValueConverter.value(from: .string("1990-04-01T23:30:00-02:00"), as: .date)
                == .date(try #require(LocalDate(iso: "1990-04-02"))))
        #expect(
            ValueConverter.value(from: .number("86400"), as: .date, format: .epochSeconds)
                == .date(try #require(LocalDate(iso: "1970-01-02"))))
        // Without a format a number is no date (`1500` is not a year, nor 1970-01-01).
        #expect(ValueConverter.value(from: .number("1500"), as: .date) == nil)
        #expect(ValueConverter.value(from: .number("86400"), as: .date) == nil)
        #expect(
            ValueConverter.value(from: .number("-1"), as: .date, format: .epochMilliseconds)
                == .date(try #require(LocalDate(iso: "1969-12-31"))))
        #expect(ValueConverter.value(from: .string("1990-02-30"), as: .date) == nil)
        #expect(ValueConverter.value(from: .bool(true), as: .date) == nil)
        #expect(ValueConverter.json(from: date) == .string("1990-04-01"))
    }

    // MARK: - Scalars

    @Test(arguments: [
        (JSONValue.bool(true), true as Bool?), (.bool(false), false), (.string("true"), true),
        (.string("false"), false),
        (.string("TRUE"), true), (.number("1"), true), (.number("0"), false), (.string("1"), true),
        (.string("0"), false),
        (.number("2"), nil), (.string("maybe"), nil), (.array([]), nil), (.number("1.0"), nil),
    ])
    func bools(json: JSONValue, expected: Bool?) {
        #expect(ValueConverter.value(from: json, as: .bool) == expected.map(Value.bool))
    }

    @Test(arguments: [
        (JSONValue.number("7"), 7 as Int64?), (.string("7"), 7), (.string(" -7 "), -7), (.number("3.0"), 3),
        (.number("1e3"), 1000),
        (.number("9223372036854775807"), Int64.max), (.number("9223372036854775808"), nil), (.number("7.5"), nil),
        (.string("seven"), nil), (.bool(true), nil), (.number("1e1001"), nil),
    ])
    func ints(json: JSONValue, expected: Int64?) {
        #expect(ValueConverter.value(from: json, as: .int) == expected.map(Value.int))
    }

    @Test(arguments: [("12.50", "12.50"), ("12.5", "12.5"), ("-0.001", "-0.001"), ("1e2", "1e2")])
    func decimalsKeepTheirDigits(text: String, kept: String) throws {
        for json in [JSONValue.number(text), .string(text)] {
            let value = try #require(ValueConverter.value(from: json, as: .decimal))
            guard case .decimal(let number) = value else {
                Issue.record("not a decimal: \(value)")
                continue
            }
            #expect(number.text == kept)
            #expect(ValueConverter.json(from: value) == .string(kept))
        }
        #expect(
            ValueConverter.value(from: .string("12.50"), as: .decimal)
                == ValueConverter.value(from: .number("12.5"), as: .decimal))
    }

    @Test func decimalRejects() {
        #expect(ValueConverter.value(from: .string("twelve"), as: .decimal) == nil)
        #expect(ValueConverter.value(from: .bool(true), as: .decimal) == nil)
    }

    @Test func doubles() {
        #expect(ValueConverter.value(from: .number("2.5"), as: .double) == .double(2.5))
        #expect(ValueConverter.value(from: .string("-1e-3"), as: .double) == .double(-0.001))
        #expect(ValueConverter.value(from: .number("3"), as: .double) == .double(3))
        #expect(ValueConverter.value(from: .string("x"), as: .double) == nil)
        #expect(ValueConverter.json(from: .double(2.5)) == .number("2.5"))
    }

    @Test func uuidsAreLowerCased() {
        let text = "0F8FAD5B-D9CB-469F-A165-70867728950E"
        #expect(ValueConverter.value(from: .string(text), as: .uuid) == .string(text.lowercased()))
        #expect(ValueConverter.value(from: .number("42"), as: .uuid) == nil)
    }

    @Test func jsonObjectsEqualInAnyKeyOrder() {
        let one = JSONValue.object(JSONObject([("a", .number("1")), ("b", .string("x"))]))
        let other = JSONValue.object(JSONObject([("b", .string("x")), ("a", .number("1"))]))
        #expect(one == other)
        #expect(one.hashValue == other.hashValue)
        #expect(one != .object(JSONObject([("a", .number("1")), ("b", .string("y"))])))
    }

    @Test(arguments: [AttributeType.string, .url])
    func stringsAcceptScalars(type: AttributeType) {
        #expect(ValueConverter.value(from: .string("a"), as: type) == .string("a"))
        #expect(ValueConverter.value(from: .number("42"), as: type) == .string("42"))
        #expect(ValueConverter.value(from: .bool(false), as: type) == .string("false"))
        #expect(ValueConverter.value(from: .array([.string("a")]), as: type) == nil)
        #expect(ValueConverter.value(from: .object(JSONObject()), as: type) == nil)
    }

    @Test(arguments: [
        AttributeType.string, .int, .double, .decimal, .bool, .date, .datetime, .url, .uuid, .json, .array(.int),
    ])
    func nullIsNullForEveryType(type: AttributeType) {
        #expect(ValueConverter.value(from: .null, as: type) == .null)
        #expect(ValueConverter.json(from: .null) == .null)
    }

    @Test func jsonIsKeptAsIs() {
        let raw = JSONValue.object(JSONObject([(key: "a", value: .array([.number("1.50"), .null]))]))
        #expect(ValueConverter.value(from: raw, as: .json) == .json(raw))
        #expect(ValueConverter.json(from: .json(raw)) == raw)
    }

    // MARK: - Arrays

    @Test func arrays() throws {
        #expect(
            ValueConverter.value(from: .array([.number("1"), .string("2")]), as: .array(.int))
                == .array([.int(1), .int(2)]))
        #expect(ValueConverter.value(from: .array([]), as: .array(.string)) == .array([]))
        #expect(ValueConverter.value(from: .array([.number("1"), .string("x")]), as: .array(.int)) == nil)
        #expect(ValueConverter.value(from: .number("1"), as: .array(.int)) == nil)
        #expect(
            ValueConverter.value(from: .array([.number("0")]), as: .array(.datetime), format: .epochSeconds)
                == .array([.datetime(Timestamp(milliseconds: 0))]))
        #expect(ValueConverter.json(from: .array([.int(1), .string("a")])) == .array([.number("1"), .string("a")]))
        #expect(Value.array([.int(1), .int(2)]).members == [.int(1), .int(2)])
        #expect(Value.int(1).members == [.int(1)])
    }

    @Test func displayText() throws {
        #expect(ValueText.display(.decimal(try #require(DecimalNumber("12.50")))) == "12.50")
        #expect(ValueText.display(.array([.int(1), .string("a")])) == "[1,\"a\"]")
        #expect(ValueText.display(.null) == "null")
        #expect(ValueText.display(.string(String(repeating: "x", count: 100)) as JSONValue, limit: 10) == "\"xxxxxxxx…")
    }
}
