import Testing

@testable import RMap

/// Attribute values as `rmap run`'s streamed path stores them, read back from the store.
@Suite("Attribute mapping")
struct AttributeMappingTests {
    static let model = """
        rmap: 1
        naming: { entity_prefix: CRM }
        entities:
          CRMPerson:
            attributes:
              id: int
              firstName: string
              bornOn: date
              createdAt: datetime
              seenAt: { type: datetime, format: epoch_ms }
              loggedAt: { type: datetime, format: epoch_s }
              hiredOn: { type: date, format: "dd/MM/yyyy" }
              meetsAt: { type: datetime, format: "dd/MM/yyyy HH:mm" }
              budget: decimal
              ratio: double
              admin: bool
              city: { key: address.city }
              zip: { key: address.geo.zip }
              lampOn: { key: [lamp.enabled], type: bool }
              status: { type: string, map: { A: active, I: inactive } }
              level: { type: int, map: { low: "1", high: "3" } }
              tags: [string]
              teamMemberIds: [int]
              score: { type: double, default: 0 }
              raw: json
              slug: { type: string, transform: [trim, lowercase] }
              homepage: url
              token: uuid
        """

    @Test("every type reads its payload value")
    func everyType() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run([
            "CRMPerson": """
            {"id": 1, "first_name": "Ada", "born_on": "1990-04-01", "created_at": "2024-01-02T03:04:05.123456+01:00",
             "seen_at": 1700000000123, "logged_at": 1700000000, "hired_on": "31/12/2020", "meets_at": "02/01/2024 09:30",
             "budget": "12.50", "ratio": 0.25, "admin": "true", "address": {"city": "Paris", "geo": {"zip": "75001"}},
             "lamp.enabled": 1, "status": "A", "level": "high", "tags": ["a", "b"], "team_member_ids": [2, "3"],
             "score": 4.5, "raw": {"k": [1, null, "x"]}, "slug": "  Hello World ", "homepage": "https://example.com/a?b=1",
             "token": "123e4567-e89b-12d3-a456-426614174000"}
            """
        ])
        #expect(report.recordErrors == [])
        let person = try await run.object("CRMPerson", 1).values
        #expect(person["firstName"] == .string("Ada"))
        #expect(person["bornOn"] == .date(try #require(LocalDate(year: 1990, month: 4, day: 1))))
        #expect(person["createdAt"].map(ValueText.display) == "2024-01-02T02:04:05.123Z")
        #expect(person["seenAt"] == .datetime(Timestamp(milliseconds: 1_700_000_000_123)))
        #expect(person["loggedAt"] == .datetime(Timestamp(milliseconds: 1_700_000_000_000)))
        #expect(person["hiredOn"] == .date(try #require(LocalDate(year: 2020, month: 12, day: 31))))
        #expect(person["meetsAt"].map(ValueText.display) == "2024-01-02T09:30:00.000Z")
        guard case .decimal(let budget)? = person["budget"] else {
            Issue.record("budget is not a decimal")
            return
        }
        #expect(budget.text == "12.50")
        #expect(person["ratio"] == .double(0.25))
        #expect(person["admin"] == .bool(true))
        #expect(person["city"] == .string("Paris"))
        #expect(person["zip"] == .string("75001"))
        #expect(person["lampOn"] == .bool(true))
        #expect(person["status"] == .string("active"))
        #expect(person["level"] == .int(3))
        #expect(person["tags"] == .array([.string("a"), .string("b")]))
        #expect(person["teamMemberIds"] == .array([.int(2), .int(3)]))
        #expect(person["score"] == .double(4.5))
        #expect(
            person["raw"]
                == .json(.object(JSONObject([("k", .array([.number("1"), .null, .string("x")]))]))))
        #expect(person["slug"] == .string("hello world"))
        #expect(person["homepage"] == .string("https://example.com/a?b=1"))
        #expect(person["token"] == .string("123e4567-e89b-12d3-a456-426614174000"))
    }

    @Test(
        "ISO 8601 date-times keep milliseconds in UTC",
        arguments: [
            ("2024-01-02T03:04:05Z", "2024-01-02T03:04:05.000Z"),
            ("2024-01-02T03:04:05", "2024-01-02T03:04:05.000Z"),
            ("2024-01-02T03:04:05.5", "2024-01-02T03:04:05.500Z"),
            ("2024-01-02T03:04:05.987654Z", "2024-01-02T03:04:05.987Z"),
            ("2024-01-02T03:04:05-05:30", "2024-01-02T08:34:05.000Z"),
            ("2024-01-02 00:30:00+0100", "2024-01-01T23:30:00.000Z"),
        ])
    func iso8601(payload: String, stored: String) async throws {
        let run = try StreamedRun(Self.model)
        try await run.run(["CRMPerson": #"{"id": 1, "created_at": "\#(payload)"}"#])
        #expect(try await run.object("CRMPerson", 1).values["createdAt"].map(ValueText.display) == stored)
    }

    @Test(
        "decimals stay exact from text and from numbers",
        arguments: [("\"12.50\"", "12.50"), ("12.5", "12.5"), ("0.1", "0.1")])
    func decimals(payload: String, text: String) async throws {
        let run = try StreamedRun(Self.model)
        try await run.run(["CRMPerson": #"{"id": 1, "budget": \#(payload)}"#])
        guard case .decimal(let number)? = try await run.object("CRMPerson", 1).values["budget"] else {
            Issue.record("budget is not a decimal")
            return
        }
        #expect(number.text == text)
    }

    @Test(
        "booleans read true/false, their text and 1/0",
        arguments: [
            ("true", true), ("false", false), ("\"true\"", true), ("\"false\"", false), ("1", true), ("0", false),
        ])
    func booleans(payload: String, value: Bool) async throws {
        let run = try StreamedRun(Self.model)
        try await run.run(["CRMPerson": #"{"id": 1, "admin": \#(payload)}"#])
        #expect(try await run.object("CRMPerson", 1).values["admin"] == .bool(value))
    }

    @Test("a value map passes a value it does not list through unchanged")
    func unmappedValuePassesThrough() async throws {
        let run = try StreamedRun(Self.model)
        try await run.run(["CRMPerson": #"[{"id": 1, "status": "X"}, {"id": 2, "status": "I"}]"#])
        #expect(try await run.object("CRMPerson", 1).values["status"] == .string("X"))
        #expect(try await run.object("CRMPerson", 2).values["status"] == .string("inactive"))
    }

    @Test("transformers apply to the strings inside arrays, after conversion")
    func transformsInArrays() async throws {
        let run = try StreamedRun(
            """
            rmap: 1
            entities:
              Tag:
                attributes:
                  id: int
                  names: { type: "[string]", transform: [squish, uppercase] }
                  note: { type: string, transform: [nullify_blank] }
            """)
        try await run.run(["Tag": #"{"id": 1, "names": ["  big   red ", "x"], "note": "   "}"#])
        let tag = try await run.object("Tag", 1).values
        #expect(tag["names"] == .array([.string("BIG RED"), .string("X")]))
        #expect(tag["note"] == .null)
    }

    @Test("null clears a value and a missing key leaves it")
    func nullAndMissing() async throws {
        let run = try StreamedRun(Self.model)
        try await run.run(["CRMPerson": #"{"id": 1, "first_name": "Ada", "born_on": "1990-04-01", "budget": 3}"#])
        try await run.run(["CRMPerson": #"{"id": 1, "first_name": null}"#])
        let person = try await run.object("CRMPerson", 1).values
        #expect(person["firstName"] == .null)
        #expect(person["bornOn"] == .date(try #require(LocalDate(year: 1990, month: 4, day: 1))))
        // A key no payload carried stays unset, so the store keeps what it has.
        #expect(person["budget"] == .decimal(DecimalNumber("3")!))
    }

    @Test("a missing object in a key path is missing, a null one is null")
    func intermediateObjects() async throws {
        let run = try StreamedRun(Self.model)
        try await run.run(["CRMPerson": #"[{"id": 1, "address": {"city": "Paris", "geo": {"zip": "75001"}}}]"#])
        try await run.run(["CRMPerson": #"[{"id": 1, "address": {"geo": null}}]"#])
        let person = try await run.object("CRMPerson", 1).values
        #expect(person["city"] == .string("Paris"))
        #expect(person["zip"] == .null)
        try await run.run(["CRMPerson": #"[{"id": 1, "address": null}]"#])
        #expect(try await run.object("CRMPerson", 1).values["city"] == .null)
    }

    @Test("defaults fill missing keys of new objects only")
    func defaults() async throws {
        let run = try StreamedRun(Self.model)
        try await run.run(["CRMPerson": #"[{"id": 1}, {"id": 2, "score": null}]"#])
        #expect(try await run.object("CRMPerson", 1).values["score"] == .double(0))
        #expect(try await run.object("CRMPerson", 2).values["score"] == .null)
        try await run.run(["CRMPerson": #"{"id": 2}"#])
        #expect(try await run.object("CRMPerson", 2).values["score"] == .null)
    }

    @Test("required attributes reject missing or null values on new objects, not on known ones")
    func required() async throws {
        let run = try StreamedRun(
            """
            rmap: 1
            entities:
              Person:
                attributes:
                  id: int
                  email: { type: string, required: true }
                  name: string
            """)
        let first = try await run.run([
            "Person": #"[{"id": 1, "name": "a"}, {"id": 2, "email": null}, {"id": 3, "email": "c@x"}]"#
        ])
        #expect(
            first.recordErrors == [
                RecordError(
                    entity: "Person", identity: "id=1", attribute: "email", keyPath: "email", origin: "people.json",
                    index: 0, message: "required attribute is missing on a new object"),
                RecordError(
                    entity: "Person", identity: "id=2", attribute: "email", keyPath: "email", origin: "people.json",
                    index: 1, message: "required attribute is null on a new object"),
            ])
        #expect(try await run.reader().object("Person", identity: [.int(1)]) == nil)
        #expect(try await run.reader().object("Person", identity: [.int(2)]) == nil)
        let second = try await run.run(["Person": #"{"id": 3, "name": "c"}"#])
        #expect(try await run.object("Person", 3).values["name"] == .string("c"))
        let counts = [first, second].compactMap { $0.entities.first { $0.entity == "Person" } }
        #expect(counts.map { [$0.fetched, $0.inserted, $0.updated, $0.rejected] } == [[3, 1, 0, 2], [1, 0, 1, 0]])
    }

    @Test(
        "a value that cannot become its type is a record error with every field",
        arguments: [
            (
                #""born_on": "1990-13-01""#, "bornOn", "born_on", #""1990-13-01""#,
                #"cannot read "1990-13-01" as a date"#
            ),
            (#""admin": "maybe""#, "admin", "admin", #""maybe""#, #"cannot read "maybe" as a bool"#),
            (#""budget": "12,5""#, "budget", "budget", #""12,5""#, #"cannot read "12,5" as a decimal"#),
            (
                #""team_member_ids": [1, "x"]"#, "teamMemberIds", "team_member_ids", #"[1,"x"]"#,
                #"cannot read [1,"x"] as [int]"#
            ),
            (
                #""created_at": "yesterday""#, "createdAt", "created_at", #""yesterday""#,
                #"cannot read "yesterday" as a datetime"#
            ),
            (#""seen_at": "soon""#, "seenAt", "seen_at", #""soon""#, #"cannot read "soon" as a datetime"#),
            (#""token": "123-abc""#, "token", "token", #""123-abc""#, #""123-abc" is not a uuid"#),
            (#""homepage": "not a url""#, "homepage", "homepage", #""not a url""#, #""not a url" is not a url"#),
            (#""address": {"geo": 5}"#, "zip", "address.geo.zip", "5", "expected an object at 'geo', found a number"),
            (#""first_name": {"a": 1}"#, "firstName", "first_name", #"{"a":1}"#, #"cannot read {"a":1} as a string"#),
        ])
    func badValues(member: String, attribute: String, keyPath: String, value: String, message: String) async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run(["CRMPerson": #"[{"id": 6}, {"id": 7, \#(member)}]"#])
        #expect(
            report.recordErrors == [
                RecordError(
                    entity: "CRMPerson", identity: "id=7", attribute: attribute, keyPath: keyPath, value: value,
                    origin: "people.json", index: 1, message: message)
            ])
        #expect(try await run.reader().object("CRMPerson", identity: [.int(6)]) != nil)
        #expect(try await run.reader().object("CRMPerson", identity: [.int(7)]) == nil)
    }

    @Test("a record error names the transformer that rejected the value")
    func rejectingTransformer() async throws {
        let rejecting = BuiltinTransformers.all.merging(["trim": ClosureTransformer { _ in nil }]) { _, new in new }
        let strict = try StreamedRun(
            """
            rmap: 1
            entities:
              Person:
                attributes:
                  id: int
                  code: { type: string, transform: [trim] }
            """, transformers: rejecting)
        let report = try await strict.run(["Person": #"[{"id": 1, "code": " a "}, {"id": 2, "code": null}]"#])
        #expect(
            report.recordErrors == [
                RecordError(
                    entity: "Person", identity: "id=1", attribute: "code", keyPath: "code", value: #"" a ""#,
                    origin: "people.json", index: 0, message: #"transformer 'trim' cannot transform " a ""#)
            ])
        #expect(try await strict.object("Person", 2).values["code"] == .null)
    }

    @Test("a transformer missing from the mapper rejects records that carry the attribute")
    func unregisteredTransformer() async throws {
        let run = try StreamedRun(
            """
            rmap: 1
            entities:
              Person:
                attributes:
                  id: int
                  slug: { type: string, transform: [lowercase] }
            """, transformers: [:])
        let report = try await run.run(["Person": #"[{"id": 1, "slug": "A"}, {"id": 2}]"#])
        #expect(report.recordErrors.map(\.message) == ["transformer 'lowercase' is not registered"])
        #expect(try await run.reader().object("Person", identity: [.int(2)]) != nil)
    }

    @Test("keys that map to nothing are counted, not stored")
    func unmappedKeys() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run([
            "CRMPerson":
                #"[{"id": 1, "nickname": "x", "address": {"city": "P", "street": "s"}}, {"id": 2, "x": 1, "y": 2}]"#
        ])
        #expect(report.entities.first { $0.entity == "CRMPerson" }?.unmappedKeys == 3)
        #expect(try await run.object("CRMPerson", 1).values.values.contains(.string("x")) == false)
    }
}
