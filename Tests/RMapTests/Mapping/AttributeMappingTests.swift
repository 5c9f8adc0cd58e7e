import RMap
import Testing

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
    func everyType() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(
            """
            {"id": 1, "first_name": "Ada", "born_on": "1990-04-01", "created_at": "2024-01-02T03:04:05.123456+01:00",
             "seen_at": 1700000000123, "logged_at": 1700000000, "hired_on": "31/12/2020", "meets_at": "02/01/2024 09:30",
             "budget": "12.50", "ratio": 0.25, "admin": "true", "address": {"city": "Paris", "geo": {"zip": "75001"}},
             "lamp.enabled": 1, "status": "A", "level": "high", "tags": ["a", "b"], "team_member_ids": [2, "3"],
             "score": 4.5, "raw": {"k": [1, null, "x"]}, "slug": "  Hello World ", "homepage": "https://example.com/a?b=1",
             "token": "123e4567-e89b-12d3-a456-426614174000"}
            """, entity: "CRMPerson")
        #expect(harness.errors == [])
        let person = try #require(try harness.object("CRMPerson", 1))
        #expect(person[attribute: "firstName"] == .string("Ada"))
        #expect(person[attribute: "bornOn"] == .date(try #require(LocalDate(year: 1990, month: 4, day: 1))))
        #expect(person[attribute: "createdAt"].map(ValueText.display) == "2024-01-02T02:04:05.123Z")
        #expect(person[attribute: "seenAt"] == .datetime(Timestamp(milliseconds: 1_700_000_000_123)))
        #expect(person[attribute: "loggedAt"] == .datetime(Timestamp(milliseconds: 1_700_000_000_000)))
        #expect(person[attribute: "hiredOn"] == .date(try #require(LocalDate(year: 2020, month: 12, day: 31))))
        #expect(person[attribute: "meetsAt"].map(ValueText.display) == "2024-01-02T09:30:00.000Z")
        guard case .decimal(let budget)? = person[attribute: "budget"] else {
            Issue.record("budget is not a decimal")
            return
        }
        #expect(budget.text == "12.50")
        #expect(person[attribute: "ratio"] == .double(0.25))
        #expect(person[attribute: "admin"] == .bool(true))
        #expect(person[attribute: "city"] == .string("Paris"))
        #expect(person[attribute: "zip"] == .string("75001"))
        #expect(person[attribute: "lampOn"] == .bool(true))
        #expect(person[attribute: "status"] == .string("active"))
        #expect(person[attribute: "level"] == .int(3))
        #expect(person[attribute: "tags"] == .array([.string("a"), .string("b")]))
        #expect(person[attribute: "teamMemberIds"] == .array([.int(2), .int(3)]))
        #expect(person[attribute: "score"] == .double(4.5))
        #expect(
            person[attribute: "raw"]
                == .json(.object(JSONObject([("k", .array([.number("1"), .null, .string("x")]))]))))
        #expect(person[attribute: "slug"] == .string("hello world"))
        #expect(person[attribute: "homepage"] == .string("https://example.com/a?b=1"))
        #expect(person[attribute: "token"] == .string("123e4567-e89b-12d3-a456-426614174000"))
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
    func iso8601(payload: String, stored: String) throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"{"id": 1, "created_at": "\#(payload)"}"#, entity: "CRMPerson")
        #expect(try harness.object("CRMPerson", 1)?[attribute: "createdAt"].map(ValueText.display) == stored)
    }

    @Test(
        "decimals stay exact from text and from numbers",
        arguments: [("\"12.50\"", "12.50"), ("12.5", "12.5"), ("0.1", "0.1")])
    func decimals(payload: String, text: String) throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"{"id": 1, "budget": \#(payload)}"#, entity: "CRMPerson")
        guard case .decimal(let number)? = try harness.object("CRMPerson", 1)?[attribute: "budget"] else {
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
    func booleans(payload: String, value: Bool) throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"{"id": 1, "admin": \#(payload)}"#, entity: "CRMPerson")
        #expect(try harness.object("CRMPerson", 1)?[attribute: "admin"] == .bool(value))
    }

    @Test("a value map passes a value it does not list through unchanged")
    func unmappedValuePassesThrough() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"[{"id": 1, "status": "X"}, {"id": 2, "status": "I"}]"#, entity: "CRMPerson")
        #expect(try harness.object("CRMPerson", 1)?[attribute: "status"] == .string("X"))
        #expect(try harness.object("CRMPerson", 2)?[attribute: "status"] == .string("inactive"))
    }

    @Test("transformers apply to the strings inside arrays, after conversion")
    func transformsInArrays() throws {
        let harness = try MappingHarness(
            """
            rmap: 1
            entities:
              Tag:
                attributes:
                  id: int
                  names: { type: "[string]", transform: [squish, uppercase] }
                  note: { type: string, transform: [nullify_blank] }
            """)
        try harness.map(#"{"id": 1, "names": ["  big   red ", "x"], "note": "   "}"#, entity: "Tag")
        let tag = try #require(try harness.object("Tag", 1))
        #expect(tag[attribute: "names"] == .array([.string("BIG RED"), .string("X")]))
        #expect(tag[attribute: "note"] == .null)
    }

    @Test("null clears a value and a missing key leaves it")
    func nullAndMissing() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"{"id": 1, "first_name": "Ada", "born_on": "1990-04-01"}"#, entity: "CRMPerson")
        try harness.map(#"{"id": 1, "first_name": null}"#, entity: "CRMPerson")
        let person = try #require(try harness.object("CRMPerson", 1))
        #expect(person[attribute: "firstName"] == .null)
        #expect(person[attribute: "bornOn"] == .date(try #require(LocalDate(year: 1990, month: 4, day: 1))))
        // A key no payload carried stays unset, so the store keeps what it has.
        #expect(person.values[try #require(person.type.attributeIndex("budget"))] == nil)
    }

    @Test("a missing object in a key path is missing, a null one is null")
    func intermediateObjects() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"[{"id": 1, "address": {"city": "Paris", "geo": {"zip": "75001"}}}]"#, entity: "CRMPerson")
        try harness.map(#"[{"id": 1, "address": {"geo": null}}]"#, entity: "CRMPerson")
        let person = try #require(try harness.object("CRMPerson", 1))
        #expect(person[attribute: "city"] == .string("Paris"))
        #expect(person[attribute: "zip"] == .null)
        try harness.map(#"[{"id": 1, "address": null}]"#, entity: "CRMPerson")
        #expect(person[attribute: "city"] == .null)
    }

    @Test("defaults fill missing keys of new objects only")
    func defaults() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"[{"id": 1}, {"id": 2, "score": null}]"#, entity: "CRMPerson")
        #expect(try harness.object("CRMPerson", 1)?[attribute: "score"] == .double(0))
        #expect(try harness.object("CRMPerson", 2)?[attribute: "score"] == .null)
        try harness.map(#"{"id": 2}"#, entity: "CRMPerson")
        #expect(try harness.object("CRMPerson", 2)?[attribute: "score"] == .null)
    }

    @Test("required attributes reject missing or null values on new objects, not on known ones")
    func required() throws {
        let harness = try MappingHarness(
            """
            rmap: 1
            entities:
              Person:
                attributes:
                  id: int
                  email: { type: string, required: true }
                  name: string
            """)
        try harness.map(
            #"[{"id": 1, "name": "a"}, {"id": 2, "email": null}, {"id": 3, "email": "c@x"}]"#, entity: "Person",
            origin: "people.json")
        #expect(
            harness.errors == [
                RecordError(
                    entity: "Person", identity: "id=1", attribute: "email", keyPath: "email", origin: "people.json",
                    index: 0, message: "required attribute is missing on a new object"),
                RecordError(
                    entity: "Person", identity: "id=2", attribute: "email", keyPath: "email", origin: "people.json",
                    index: 1, message: "required attribute is null on a new object"),
            ])
        #expect(try harness.object("Person", 1) == nil)
        #expect(try harness.object("Person", 2) == nil)
        try harness.map(#"{"id": 3, "name": "c"}"#, entity: "Person")
        #expect(try harness.object("Person", 3)?[attribute: "name"] == .string("c"))
        #expect(harness.counts("Person") == EntityMappingCounts(fetched: 4, created: 1, updated: 1, rejected: 2))
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
    func badValues(member: String, attribute: String, keyPath: String, value: String, message: String) throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"[{"id": 6}, {"id": 7, \#(member)}]"#, entity: "CRMPerson", origin: "samples/people.json")
        #expect(
            harness.errors == [
                RecordError(
                    entity: "CRMPerson", identity: "id=7", attribute: attribute, keyPath: keyPath, value: value,
                    origin: "samples/people.json", index: 1, message: message)
            ])
        #expect(try harness.object("CRMPerson", 6) != nil)
        #expect(try harness.object("CRMPerson", 7) == nil)
    }

    @Test("a record error names the transformer that rejected the value")
    func rejectingTransformer() throws {
        let rejecting = BuiltinTransformers.all.merging(["trim": ClosureTransformer { _ in nil }]) { _, new in new }
        let strict = try MappingHarness(
            """
            rmap: 1
            entities:
              Person:
                attributes:
                  id: int
                  code: { type: string, transform: [trim] }
            """, transformers: rejecting)
        try strict.map(#"[{"id": 1, "code": " a "}, {"id": 2, "code": null}]"#, entity: "Person")
        #expect(
            strict.errors == [
                RecordError(
                    entity: "Person", identity: "id=1", attribute: "code", keyPath: "code", value: #"" a ""#,
                    origin: "payload.json", index: 0, message: #"transformer 'trim' cannot transform " a ""#)
            ])
        #expect(try strict.object("Person", 2)?[attribute: "code"] == .null)
    }

    @Test("a transformer missing from the mapper rejects records that carry the attribute")
    func unregisteredTransformer() throws {
        let harness = try MappingHarness(
            """
            rmap: 1
            entities:
              Person:
                attributes:
                  id: int
                  slug: { type: string, transform: [lowercase] }
            """, transformers: [:])
        try harness.map(#"[{"id": 1, "slug": "A"}, {"id": 2}]"#, entity: "Person")
        #expect(harness.errors.map(\.message) == ["transformer 'lowercase' is not registered"])
        #expect(try harness.object("Person", 2) != nil)
    }

    @Test("keys that map to nothing are counted, not stored")
    func unmappedKeys() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(
            #"[{"id": 1, "nickname": "x", "address": {"city": "P", "street": "s"}}, {"id": 2, "x": 1, "y": 2}]"#,
            entity: "CRMPerson")
        #expect(harness.counts("CRMPerson")?.unmappedKeys == 3)
        #expect(try harness.object("CRMPerson", 1)?.values.contains(.string("x")) == false)
    }
}
