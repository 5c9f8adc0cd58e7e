import Foundation
import RMap
import Testing

/// ``ObjectQuery`` over a store `rmap run`'s pipeline filled: conditions as rmap compares values,
/// sub-entities, orders with nulls, windows, and the ``ObjectReading`` shape the live session shares.
@Suite("ObjectQuery")
struct ObjectQueryTests {
    typealias F = ReadingFixture

    @Test("every person comes in the store's order, an admin's row as its sub-entity", arguments: StoreKind.all)
    func everyPerson(kind: StoreKind) async throws {
        let fixture = try await F(kind)
        let people = try await fixture.reader.objects(of: "CRMPerson").fetchAll()
        #expect(F.ids(people) == [1, 2, 3])
        #expect(people.map(\.entity) == ["CRMAdmin", "CRMPerson", "CRMPerson"])
        let admins = try await fixture.reader.objects(of: "CRMAdmin").fetchAll()
        #expect(F.ids(admins) == [1])
        let level: Int? = try #require(admins.first)["level"]
        #expect(level == 3)
    }

    @Test("conditions match values as rmap compares them, ANDed", arguments: StoreKind.all)
    func conditions(kind: StoreKind) async throws {
        let fixture = try await F(kind)
        let people = fixture.reader.objects(of: "CRMPerson")
        #expect(F.ids(try await people.filter(["lastName": "Lovelace"]).fetchAll()) == [1])
        // A decimal stored as `12.50` is the double 12.5 and the text `12.5`.
        #expect(F.ids(try await people.filter(["budget": 12.5]).fetchAll()) == [1])
        #expect(F.ids(try await people.filter(["budget": "12.5"]).fetchAll()) == [1])
        #expect(F.ids(try await people.filter(["budget": 7]).fetchAll()) == [2])
        #expect(F.ids(try await people.filter(["budget": nil]).fetchAll()) == [3])
        #expect(F.ids(try await people.filter(["admin": true]).fetchAll()) == [1])
        #expect(F.ids(try await people.filter(["admin": false]).fetchAll()) == [2])
        #expect(F.ids(try await people.filter(["bornOn": "1815-12-10"]).fetchAll()) == [1])
        #expect(F.ids(try await people.filter(["seenAt": "2024-03-01T10:00:00.037Z"]).fetchAll()) == [1])
        #expect(F.ids(try await people.filter(["id": .oneOf([3, 1, 9])]).fetchAll()) == [1, 3])
        #expect(F.ids(try await people.filter(["id": .anyOf([])]).fetchAll()) == [])
        #expect(F.ids(try await people.filter(["firstName": .anyOf([.string("Grace"), .null])]).fetchAll()) == [3])
        #expect(F.ids(try await people.filter(["admin": false]).filter(["lastName": "Lovelace"]).fetchAll()) == [])
        #expect(F.ids(try await people.filter(["admin": false, "lastName": "Turing"]).fetchAll()) == [2])
        #expect(F.ids(try await fixture.reader.objects(of: "CRMAdmin").filter(["budget": nil]).fetchAll()) == [])
    }

    @Test(
        "an order puts nulls first ascending and last descending, ties in the store's order", arguments: StoreKind.all)
    func order(kind: StoreKind) async throws {
        // The fixture removes its directory (a JSON store's document) when released.
        let fixture = try await F(kind)
        defer { withExtendedLifetime(fixture) {} }
        let people = fixture.reader.objects(of: "CRMPerson")
        #expect(F.ids(try await people.order(.ascending("budget")).fetchAll()) == [3, 2, 1])
        #expect(F.ids(try await people.order(.descending("budget")).fetchAll()) == [1, 2, 3])
        #expect(F.ids(try await people.order(.descending("firstName")).fetchAll()) == [3, 2, 1])
        // `admin` is null for Grace: first ascending, then false, then true.
        #expect(F.ids(try await people.order(.ascending("admin")).fetchAll()) == [3, 2, 1])
        // A later `order` replaces the earlier one.
        #expect(F.ids(try await people.order(.descending("id")).order(.ascending("lastName")).fetchAll()) == [3, 1, 2])
    }

    @Test("a window skips `offset` and keeps `limit`; fetchOne reads the first", arguments: StoreKind.all)
    func window(kind: StoreKind) async throws {
        let fixture = try await F(kind)
        let people = fixture.reader.objects(of: "CRMPerson").order(.descending("id"))
        #expect(F.ids(try await people.limit(2).fetchAll()) == [3, 2])
        #expect(F.ids(try await people.limit(2, offset: 1).fetchAll()) == [2, 1])
        #expect(F.ids(try await people.limit(nil, offset: 2).fetchAll()) == [1])
        #expect(F.ids(try await people.limit(0).fetchAll()) == [])
        #expect(F.ids(try await people.limit(5, offset: 3).fetchAll()) == [])
        #expect(try await people.fetchOne()?.identity == [.int(3)])
        #expect(try await people.limit(2, offset: 1).fetchOne()?.identity == [.int(2)])
        #expect(try await people.filter(["firstName": "Nobody"]).fetchOne() == nil)
        let second = try await fixture.reader.fetch(
            "CRMPerson", where: ["admin": .oneOf([true, false])],
            sort: [.descending("lastName")], limit: 1, offset: 1)
        #expect(F.ids(second) == [1])
    }

    @Test(
        "an object by identity is read as its sub-entity; another entity's identity is none", arguments: StoreKind.all)
    func byIdentity(kind: StoreKind) async throws {
        // The fixture removes its directory (a JSON store's document) when released.
        let fixture = try await F(kind)
        defer { withExtendedLifetime(fixture) {} }
        let reader = fixture.reader
        let ada = try #require(try await reader.object("CRMPerson", identity: [.int(1)]))
        #expect(ada.entity == "CRMAdmin")
        #expect(try await reader.object("CRMAdmin", identity: [.int(2)]) == nil)
        #expect(try await reader.object("CRMPerson", identity: [.int(4)]) == nil)
        #expect(try await reader.object("CRMProject", identity: [.int(11)])?.description == "CRMProject 11")
    }

    @Test("values of every type read back as the payload gave them", arguments: StoreKind.all)
    func typedValues(kind: StoreKind) async throws {
        // The fixture removes its directory (a JSON store's document) when released.
        let fixture = try await F(kind)
        defer { withExtendedLifetime(fixture) {} }
        let reader = fixture.reader
        let ada = try #require(try await reader.object("CRMPerson", identity: [.int(1)]))
        let first: String? = try ada["firstName"]
        let budget: DecimalNumber? = try ada["budget"]
        let admin: Bool? = try ada["admin"]
        let born: LocalDate? = try ada["bornOn"]
        let seen: Timestamp? = try ada["seenAt"]
        let score: Double? = try ada["score"]
        let homepage: String? = try ada["homepage"]
        #expect(first == "Ada")
        #expect(budget == DecimalNumber("12.50"))
        #expect(admin == true)
        #expect(born == LocalDate(year: 1815, month: 12, day: 10))
        #expect(seen == Timestamp(milliseconds: 1_709_287_200_037))
        #expect(score == 0.5)
        #expect(homepage == "https://ada.example/x?y=1")
        #expect(ada.values["tags"] == .array([.string("a"), .string("b \"c\"")]))
        #expect(ada.values["raw"] == .json(.object(JSONObject([("k", .array([.number("1"), .null]))]))))
        let grace = try #require(try await reader.object("CRMPerson", identity: [.int(3)]))
        let none: DecimalNumber? = try grace["budget"]
        #expect(none == nil)
    }

    @Test("code written against ObjectReading reads the store", arguments: StoreKind.all)
    func objectReading(kind: StoreKind) async throws {
        // The fixture removes its directory (a JSON store's document) when released.
        let fixture = try await F(kind)
        defer { withExtendedLifetime(fixture) {} }
        let reader = fixture.reader
        #expect(try await Self.lastNames(in: reader) == ["Turing", "Lovelace"])
    }

    /// The last names of the non-admins and admins, descending: generic over the reader.
    private static func lastNames(in source: some ObjectReading) async throws -> [String] {
        try await source.fetch(
            "CRMPerson", where: ["admin": .oneOf([false, true])], sort: [.descending("lastName")], limit: nil,
            offset: nil
        ).compactMap { try $0["lastName"] }
    }

    @Test("a store that no run has written yet reads as empty", arguments: StoreKind.all)
    func emptyStore(kind: StoreKind) async throws {
        let directory = try StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = try await F(kind)
        let reader = StoreReader(store: try kind.open(directory), model: fixture.model)
        #expect(try await reader.objects(of: "CRMPerson").fetchAll().isEmpty)
        #expect(try await reader.object("CRMProject", identity: [.int(10)]) == nil)
    }

    @Test("the reader sees local edits and what a later run stored", arguments: StoreKind.all)
    func laterState(kind: StoreKind) async throws {
        let fixture = try await F(kind)
        let people = fixture.reader.objects(of: "CRMPerson").filter(["firstName": "Augusta"])
        #expect(try await people.fetchAll().isEmpty)
        try StoreKind.editLocally(
            try kind.open(fixture.directory), model: fixture.model,
            ["UPDATE people SET first_name = 'Augusta' WHERE id = 1"])
        #expect(F.ids(try await people.fetchAll()) == [1])
    }
}
