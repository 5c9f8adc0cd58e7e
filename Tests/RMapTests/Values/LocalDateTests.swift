import RMap
import Testing

@Suite("Local dates and timestamps")
struct LocalDateTests {
    @Test(arguments: [
        ("1970-01-01", 0), ("1970-01-02", 1), ("1969-12-31", -1), ("2000-02-29", 11_016), ("2000-03-01", 11_017),
        ("2024-02-29", 19_782), ("1900-03-01", -25_508), ("1600-02-29", -135_081), ("0001-01-01", -719_162),
        ("2038-01-19", 24_855), ("9999-12-31", 2_932_896),
    ])
    func daysSinceEpochBothWays(text: String, days: Int) throws {
        let date = try #require(LocalDate(iso: text))
        #expect(date.daysSinceEpoch == days)
        #expect(LocalDate(daysSinceEpoch: days) == date)
        #expect(date.description == text)
    }

    @Test func everyDayRoundTripsAcrossFourCenturies() {
        var previous: LocalDate?
        for days in stride(from: -150_000, through: 150_000, by: 1) {
            let date = LocalDate(daysSinceEpoch: days)
            if date.daysSinceEpoch != days || LocalDate(iso: date.description) != date {
                Issue.record("day \(days) -> \(date)")
                return
            }
            if let previous, !(previous < date) {
                Issue.record("\(previous) is not before \(date)")
                return
            }
            previous = date
        }
    }

    @Test(arguments: [
        "2023-02-29", "1900-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-1-01", "24-01-01",
        "2024-01-01T00:00",
        "+024-01-01", "2024-+1-01", "2024-01- 1", "", "2024/01/01",
    ])
    func rejectsInvalidDates(text: String) {
        #expect(LocalDate(iso: text) == nil)
    }

    @Test func componentsAndOrder() throws {
        let date = try #require(LocalDate(year: 2024, month: 2, day: 29))
        #expect((date.year, date.month, date.day) == (2024, 2, 29))
        #expect(LocalDate(year: 2023, month: 2, day: 29) == nil)
        #expect(try #require(LocalDate(iso: "2023-12-31")) < date)
        #expect(LocalDate(year: 5, month: 3, day: 7)?.description == "0005-03-07")
    }

    @Test(arguments: [
        (0 as Int64, "1970-01-01T00:00:00.000Z"), (1_704_164_645_123, "2024-01-02T03:04:05.123Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"), (-86_400_000, "1969-12-31T00:00:00.000Z"),
    ])
    func timestampDescription(milliseconds: Int64, text: String) {
        #expect(Timestamp(milliseconds: milliseconds).description == text)
    }

    @Test func timestampsOrderByInstant() {
        #expect(Timestamp(milliseconds: -5) < Timestamp(milliseconds: 3))
        #expect(Timestamp(milliseconds: 7) == Timestamp(milliseconds: 7))
    }
}
