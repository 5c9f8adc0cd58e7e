import Foundation
import RMapSQLite
import Testing

/// RestKit's value conversions that rmap takes up as opt-in attribute keys in issue 33
/// (`empty_as_null`, `true_values`/`false_values`, `wrap_single`, `format: dotnet`, the file's
/// `time_zone:`), each translated from the RestKit test it names and run end to end into SQLite.
@Suite("RestKit value options: empty strings, y/n, single values, .NET dates, time zones")
struct RestKitValueOptionsTests {
    /// A workspace with one `User` entity whose attributes are `attributes` (YAML flow mappings, one a
    /// line) and whose `users.json` is `payload`.
    private func workspace(_ attributes: [String], payload: String, fileKeys: String = "") throws -> RunWorkspace {
        try RunWorkspace([
            "map.yml": """
            rmap: 1
            \(fileKeys)
            source: { plugin: file, path: "{collection}.json" }
            entities:
              User:
                attributes:
                  id: int
            \(attributes.map { "      \($0)" }.joined(separator: "\n"))
            """,
            "users.json": payload,
        ])
    }

    // RKObjectMappingNextGenTest testShouldReturnNilForEmptyDateValues.
    @Test("testShouldReturnNilForEmptyDateValues: empty_as_null reads \"\" as null; without it \"\" is no date")
    func emptyDateValues() async throws {
        let workspace = try workspace(
            ["birthDate: { type: date, key: birthdate, empty_as_null: true }"],
            payload: #"[{"id": 1, "birthdate": "1982-11-27"}]"#)
        _ = try await workspace.runMap()
        try workspace.write("users.json", #"[{"id": 1, "birthdate": ""}]"#)
        _ = try await workspace.runMap()
        #expect(try workspace.rows("SELECT birthdate FROM users") == [[.null]])
        try workspace.edit("map.yml", replacing: ", empty_as_null: true", with: "")
        let rejected = try await workspace.runMap(status: 3)
        #expect(rejected.stderr.contains(#"cannot read "" as a date"#), "\(rejected.stderr)")
    }

    // RKObjectMappingNextGenTest testShouldMapAYCharacterStringToANumberBool and
    // testShouldMapANCharacterStringToANumberBool (`is_developer`: "y" and "n").
    @Test(
        "testShouldMapAYCharacterStringToANumberBool, testShouldMapANCharacterStringToANumberBool: true_values, false_values"
    )
    func yAndNStrings() async throws {
        let workspace = try workspace(
            ["isDeveloper: { type: bool, true_values: [y, yes], false_values: [n, no] }"],
            payload:
                #"[{"id": 1, "is_developer": "y"}, {"id": 2, "is_developer": "n"}, {"id": 3, "is_developer": "YES"}, {"id": 4, "is_developer": true}]"#
        )
        _ = try await workspace.runMap()
        #expect(
            try workspace.rows("SELECT id, is_developer FROM users ORDER BY id") == [
                [.integer(1), .integer(1)], [.integer(2), .integer(0)], [.integer(3), .integer(1)],
                [.integer(4), .integer(1)],
            ])
        // The lists replace the standard words: "true" is no longer a true value.
        try workspace.write("users.json", #"[{"id": 5, "is_developer": "true"}]"#)
        let rejected = try await workspace.runMap(status: 3)
        #expect(rejected.stderr.contains(#"cannot read "true" as a bool"#), "\(rejected.stderr)")
    }

    // RKObjectMappingNextGenTest testMappingASingularValueToAnArray (`favoriteColors: "Blue"`).
    @Test("testMappingASingularValueToAnArray: wrap_single reads a scalar as a one-element array")
    func singularValueToAnArray() async throws {
        let workspace = try workspace(
            ["favoriteColors: { type: \"[string]\", wrap_single: true }"],
            payload:
                #"[{"id": 1, "favorite_colors": "Blue"}, {"id": 2, "favorite_colors": ["Red", "Green"]}, {"id": 3, "favorite_colors": null}]"#
        )
        _ = try await workspace.runMap()
        #expect(
            try workspace.rows("SELECT id, favorite_colors FROM users ORDER BY id") == [
                [.integer(1), .text(#"["Blue"]"#)], [.integer(2), .text(#"["Red","Green"]"#)], [.integer(3), .null],
            ])
    }

    // RKDotNetDateFormatterTest testShouldCreateADateFromDotNetThatWithAnOffset,
    // testShouldCreateADateFromDotNetWithoutAnOffset, testShouldCreateADateFromDotNetBefore1970WithoutAnOffset and
    // testShouldFailToCreateADateFromInvalidStrings.
    @Test("testShouldCreateADateFromDotNetThatWithAnOffset and its siblings: format: dotnet")
    func dotNetDates() async throws {
        let workspace = try workspace(
            ["seenAt: { type: datetime, format: dotnet }"],
            payload: """
                [{"id": 1, "seen_at": "/Date(1000212360000-0400)/"}, {"id": 2, "seen_at": "/Date(1112715000000)/"},
                 {"id": 3, "seen_at": "/Date(-864000000000)/"}, {"id": 4, "seen_at": "1112715000-0500"}]
                """)
        let result = try await workspace.runMap(status: 3)
        #expect(
            try workspace.rows("SELECT id, seen_at FROM users ORDER BY id") == [
                [.integer(1), .text("2001-09-11T12:46:00.000Z")], [.integer(2), .text("2005-04-05T15:30:00.000Z")],
                [.integer(3), .text("1942-08-16T00:00:00.000Z")],
            ])
        #expect(result.stderr.contains(#"cannot read "1112715000-0500" as a datetime"#), "\(result.stderr)")
    }

    // RKMappingOperationTest testShouldMapAStringIntoTheLocalTimeZone: "11-27-1982" read with
    // `MM-dd-yyyy` in New York is 1982-11-27 05:00 UTC; testShouldMapAUTCDateWithoutChangingTheTimeZone:
    // a text with its own zone keeps it.
    @Test("testShouldMapAStringIntoTheLocalTimeZone: a pattern without a zone reads in the file's time_zone")
    func localTimeZone() async throws {
        let workspace = try workspace(
            [
                "date: { type: datetime, format: MM-dd-yyyy }",
                "stamp: { type: datetime, format: \"yyyy-MM-dd'T'HH:mm:ssXXX\" }",
                "day: { type: date, format: \"MM-dd-yyyy HH:mm\" }",
            ],
            payload: #"[{"id": 1, "date": "11-27-1982", "stamp": "2011-07-07T04:35:28Z", "day": "11-27-1982 23:30"}]"#,
            fileKeys: "time_zone: America/New_York")
        _ = try await workspace.runMap()
        #expect(
            try workspace.rows("SELECT date, stamp, day FROM users")
                == [[.text("1982-11-27T05:00:00.000Z"), .text("2011-07-07T04:35:28.000Z"), .text("1982-11-27")]])
        // Without time_zone: UTC, as before.
        try workspace.edit("map.yml", replacing: "time_zone: America/New_York", with: "")
        try workspace.write("users.json", #"[{"id": 2, "date": "11-27-1982"}]"#)
        _ = try await workspace.runMap()
        #expect(try workspace.rows("SELECT date FROM users WHERE id = 2") == [[.text("1982-11-27T00:00:00.000Z")]])
    }

    // RKObjectMappingNextGenTest testShouldMapADateToAStringUsingThePreferredDateFormatter: a date
    // mapped to a string is written with the mapping's formatter (`MM-dd-yyyy` in UTC: "11-27-1982").
    // Here an attribute's `format` is how its value is read and how `rmap diff` writes it back, in the
    // file's time_zone.
    @Test("testShouldMapADateToAStringUsingThePreferredDateFormatter: a format is how a value is written back")
    func formatOnWriteBack() async throws {
        let workspace = try workspace(
            [
                "date: { type: datetime, format: MM-dd-yyyy }",
                "day: { type: date, format: MM-dd-yyyy }",
                "seenAt: { type: datetime, format: \"MM-dd-yyyy HH:mm\" }",
            ],
            payload: #"[{"id": 1, "date": "11-27-1982", "day": "11-27-1982", "seen_at": "11-27-1982 23:30"}]"#)
        _ = try await workspace.runMap()
        #expect(
            try workspace.rows("SELECT date, day, seen_at FROM users")
                == [[.text("1982-11-27T00:00:00.000Z"), .text("1982-11-27"), .text("1982-11-27T23:30:00.000Z")]])
        try SQLiteConnection(path: workspace.path("rmap.sqlite")).execute(
            "UPDATE users SET date = '1983-01-02T00:00:00.000Z', day = '1983-01-03', seen_at = '1983-01-04T04:05:00.000Z'"
        )
        let diff = try await workspace.rmap(["diff", "map.yml"])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(
            diff.stdout.hasPrefix(
                #"PUT /users/1.json {"user":{"date":"01-02-1983","day":"01-03-1983","seen_at":"01-04-1983 04:05"}}"#),
            "\(diff.stdout)")
        // In the file's time_zone: 04:05 UTC is 23:05 the day before in New York.
        try workspace.edit("map.yml", replacing: "rmap: 1", with: "rmap: 1\ntime_zone: America/New_York")
        let zoned = try await workspace.rmap(["diff", "map.yml"])
        #expect(
            zoned.stdout.contains(#""day":"01-03-1983","seen_at":"01-03-1983 23:05""#), "\(zoned.stdout)\(zoned.stderr)"
        )
        // Epoch and .NET formats write a date as its midnight UTC.
        try workspace.edit(
            "map.yml", replacing: "day: { type: date, format: MM-dd-yyyy }",
            with: "day: { type: date, format: epoch_s }")
        let epoch = try await workspace.rmap(["diff", "map.yml"])
        #expect(epoch.stdout.contains(#""day":410400000"#), "\(epoch.stdout)\(epoch.stderr)")
    }
}
