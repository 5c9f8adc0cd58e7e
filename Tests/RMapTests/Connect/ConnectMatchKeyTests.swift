import Foundation
import Testing

@testable import RMap

/// How connecting compares values: equality with numbers by value (as keys, and through a
/// foreign key of `rmap run`'s streamed path, in the store's SQL), and the order of
/// `lt`/`le`/`gt`/`ge`.
@Suite("Connect: value equality and order")
struct ConnectMatchKeyTests {
    static func decimal(_ text: String) -> Value { .decimal(DecimalNumber(text)!) }

    static let equal: [(Value, Value)] = [
        (.int(1), decimal("1")),
        (.int(1), decimal("1.000")),
        (.int(1), .double(1)),
        (.int(1), .string("1")),
        (.int(-42), .string("-42")),
        (decimal("12.50"), .double(12.5)),
        (decimal("12.50"), .string("12.5")),
        (decimal("1e20"), .double(1e20)),
        (decimal("100000000000000000000"), .string("100000000000000000000")),
        (.string("ann"), .string("ann")),
        (.bool(true), .bool(true)),
        (.date(LocalDate(iso: "2024-01-02")!), .date(LocalDate(iso: "2024-01-02")!)),
    ]

    static let unequal: [(Value, Value)] = [
        (.int(1), .string("01")),
        (.int(1), .string("1.0")),
        (.int(1), .string("+1")),
        (decimal("12.5"), .string("12.50")),
        (.int(1), .bool(true)),
        (.int(1), .double(1.5)),
        (.string("ann"), .string("Ann")),
        (.double(.nan), .double(.nan)),
    ]

    @Test("numbers equal by value whatever their representation", arguments: equal)
    func equalKeys(_ lhs: Value, _ rhs: Value) {
        #expect(MatchKey(lhs) == MatchKey(rhs))
        #expect(MatchKey(lhs).hashValue == MatchKey(rhs).hashValue)
    }

    @Test("distinct text and distinct kinds stay distinct", arguments: unequal)
    func unequalKeys(_ lhs: Value, _ rhs: Value) {
        #expect(MatchKey(lhs) != MatchKey(rhs))
    }

    /// An attribute type holding `value`, and `value` as JSON; `nil` for a value JSON cannot carry.
    static func typed(_ value: Value) -> (type: String, json: String)? {
        switch value {
        case .int(let number): ("int", "\(number)")
        case .decimal(let number): ("decimal", "\"\(number.text)\"")
        case .double(let number) where number.isFinite: ("double", "\(number)")
        case .string(let text): ("string", "\"\(text)\"")
        case .bool(let flag): ("bool", "\(flag)")
        case .date(let date): ("date", "\"\(ValueText.display(.date(date)))\"")
        default: nil
        }
    }

    /// Whether a team whose `ref` is `lhs` connects, by foreign key, to the member whose `key` is `rhs`.
    static func connects(_ lhs: Value, _ rhs: Value) async throws -> Bool {
        let source = try #require(typed(lhs))
        let destination = try #require(typed(rhs))
        let run = try StreamedRun(
            """
            rmap: 1
            naming: { entity_prefix: CRM }
            entities:
              CRMMember:
                attributes: { id: int, key: \(destination.type) }
              CRMTeam:
                attributes: { id: int, ref: \(source.type) }
                relationships:
                  member: { to_one: CRMMember, connect: { foreign_key: { ref: key } } }
            """)
        let report = try await run.run([
            "CRMMember": #"[{"id": 1, "key": \#(destination.json)}]"#,
            "CRMTeam": #"[{"id": 1, "ref": \#(source.json)}]"#,
        ])
        #expect(report.recordErrors.isEmpty, "\(report.recordErrors)")
        return try await run.ids("CRMTeam", 1, "member") == [1]
    }

    @Test("a run's foreign key connects values equal by value", arguments: equal)
    func equalInRun(_ lhs: Value, _ rhs: Value) async throws {
        #expect(try await Self.connects(lhs, rhs))
    }

    @Test(
        "a run's foreign key keeps distinct text and distinct kinds apart",
        arguments: unequal.filter { typed($0.0) != nil })
    func unequalInRun(_ lhs: Value, _ rhs: Value) async throws {
        #expect(try await !Self.connects(lhs, rhs))
    }

    @Test("null matches nothing")
    func null() {
        #expect(MatchKey(.null) == nil)
    }

    static let ordered: [(Value, Value, ComparisonResult?)] = [
        (.int(2), .int(10), .orderedAscending),
        (.int(2), decimal("1.99"), .orderedDescending),
        (decimal("12.50"), decimal("12.5"), .orderedSame),
        (decimal("99999999999999999999.1"), decimal("99999999999999999999.2"), .orderedAscending),
        (.double(1.5), .int(2), .orderedAscending),
        (.string("b"), .string("ab"), .orderedDescending),
        (.date(LocalDate(iso: "2024-01-02")!), .date(LocalDate(iso: "2023-12-31")!), .orderedDescending),
        (.datetime(Timestamp(milliseconds: 1)), .datetime(Timestamp(milliseconds: 2)), .orderedAscending),
        (.string("2"), .int(1), nil),
        (.null, .int(1), nil),
        (.double(.nan), .int(1), nil),
        (.bool(false), .bool(true), nil),
    ]

    @Test(
        "comparisons order numbers numerically, text, dates and datetimes; other pairs are unordered",
        arguments: ordered)
    func order(_ lhs: Value, _ rhs: Value, _ expected: ComparisonResult?) {
        #expect(ValueOrdering.compare(lhs, rhs) == expected)
    }
}
