import RMap
import Testing

@testable import RMapAuthoring

@Suite("rmap init: attribute types from sample values")
struct ScalarTypeGuessTests {
    @Test(
        "each value kind gets the type a run converts it to",
        arguments: [
            ([JSONValue.bool(true), .bool(false)], "admin", "bool", nil),
            ([.number("1"), .number("12")], "id", "int", nil),
            ([.number("1700000000"), .number("1700000500")], "seen_at", "datetime", "epoch_s"),
            ([.number("1700000000000")], "seen_at", "datetime", "epoch_ms"),
            ([.number("1700000000")], "count", "int", nil),
            ([.number("12.50"), .number("3.25")], "price", "decimal", nil),
            ([.number("1.5"), .number("2.25")], "score", "double", nil),
            ([.number("1.0")], "score", "double", nil),
            ([.string("1985-12-10")], "born_on", "date", nil),
            ([.string("2024-02-13T10:00:00+02:00"), .string("2023-02-11T09:04:00.000Z")], "due_at", "datetime", nil),
            ([.string("2024-02-13 10:00:00")], "due_at", "datetime", "yyyy-MM-dd HH:mm:ss"),
            ([.string("5F0C8A54-3E0B-4C4E-9C3B-1F6E2D1A0B7C")], "token", "uuid", nil),
            ([.string("https://api.github.com/users/octocat")], "url", "url", nil),
            ([.string("https://api.github.com/users/octocat/gists{/gist_id}")], "gists_url", "string", nil),
            ([.string("1234.50"), .string("2")], "budget", "decimal", nil),
            ([.string("10137"), .string("10274")], "zip", "string", nil),
            ([.string("Ada")], "name", "string", nil),
            ([.string("7"), .number("8")], "code", "string", nil),
        ] as [([JSONValue], String, String, String?)])
    func guess(values: [JSONValue], key: String, type: String, format: String?) throws {
        let guess = try #require(ScalarTypeGuess.guess(values, key: key))
        #expect(guess.type.description == type)
        #expect(guess.format == format)
    }

    @Test("booleans mixed with numbers have no scalar type")
    func mixed() {
        #expect(ScalarTypeGuess.guess([.bool(true), .number("1")], key: "flag") == nil)
    }
}
