import Foundation
import RMap
import Testing

/// What a read by a name the model lacks, a value of the wrong type or a relationship of the
/// wrong kind throws: a ``ReadError`` naming the entity and the name, and a sentence saying so.
@Suite("ReadError")
struct ReadErrorTests {
    typealias F = ReadingFixture

    /// The ``ReadError`` `body` throws; fails the test when it throws none or another error.
    private static func readError(_ body: () async throws -> Void) async -> ReadError? {
        do {
            try await body()
            Issue.record("no error thrown")
        } catch let error as ReadError {
            return error
        } catch {
            Issue.record("\(error) is not a ReadError")
        }
        return nil
    }

    @Test("an unknown entity, attribute or order key in a query names it", arguments: StoreKind.all)
    func unknownNames(kind: StoreKind) async throws {
        // The fixture removes its directory (a JSON store's document) when released.
        let fixture = try await F(kind)
        defer { withExtendedLifetime(fixture) {} }
        let reader = fixture.reader
        let entity = await Self.readError { _ = try await reader.objects(of: "CRMPeople").fetchAll() }
        #expect(entity == .unknownEntity("CRMPeople"))
        #expect(entity?.description == "no entity named 'CRMPeople'")
        let condition = await Self.readError {
            _ = try await reader.objects(of: "CRMPerson").filter(["lastname": "Lovelace"]).fetchAll()
        }
        #expect(condition == .unknownAttribute(entity: "CRMPerson", name: "lastname"))
        #expect(condition?.description == "CRMPerson has no attribute 'lastname'")
        // An admin's attribute is not a person's.
        let order = await Self.readError {
            _ = try await reader.objects(of: "CRMPerson").order(.ascending("level")).fetchOne()
        }
        #expect(order == .unknownAttribute(entity: "CRMPerson", name: "level"))
        let identity = await Self.readError { _ = try await reader.object("CRMTask", identity: [.int(1)]) }
        #expect(identity == .unknownEntity("CRMTask"))
    }

    @Test("a condition's value the attribute's type cannot hold names both", arguments: StoreKind.all)
    func wrongConditionType(kind: StoreKind) async throws {
        // The fixture removes its directory (a JSON store's document) when released.
        let fixture = try await F(kind)
        defer { withExtendedLifetime(fixture) {} }
        let reader = fixture.reader
        let error = await Self.readError {
            _ = try await reader.objects(of: "CRMPerson").filter(["id": "one"]).fetchAll()
        }
        #expect(error == .wrongType(entity: "CRMPerson", attribute: "id", expected: "int", found: .string("one")))
        #expect(error?.description == "CRMPerson.id is one, not a int")
        let date = await Self.readError {
            _ = try await reader.objects(of: "CRMPerson").filter(["bornOn": .oneOf(["1815-12-10", "tomorrow"])])
                .fetchAll()
        }
        #expect(
            date == .wrongType(entity: "CRMPerson", attribute: "bornOn", expected: "date", found: .string("tomorrow")))
    }

    @Test(
        "an object's attribute read by an unknown name or as the wrong type names the entity", arguments: StoreKind.all)
    func objectAttributes(kind: StoreKind) async throws {
        // The fixture removes its directory (a JSON store's document) when released.
        let fixture = try await F(kind)
        defer { withExtendedLifetime(fixture) {} }
        let reader = fixture.reader
        let ada = try #require(try await reader.object("CRMPerson", identity: [.int(1)]))
        let alan = try #require(try await reader.object("CRMPerson", identity: [.int(2)]))
        let unknown = await Self.readError { let _: String? = try ada["fristName"] }
        #expect(unknown == .unknownAttribute(entity: "CRMAdmin", name: "fristName"))
        let level = await Self.readError { let _: Int? = try alan["level"] }
        #expect(level == .unknownAttribute(entity: "CRMPerson", name: "level"))
        let wrong = await Self.readError { let _: Int? = try ada["firstName"] }
        #expect(wrong == .wrongType(entity: "CRMAdmin", attribute: "firstName", expected: "Int", found: .string("Ada")))
        #expect(wrong?.description == "CRMAdmin.firstName is Ada, not a Int")
    }

    @Test("a relationship unknown or read as the wrong kind names it and says how to read it", arguments: StoreKind.all)
    func relationships(kind: StoreKind) async throws {
        // The fixture removes its directory (a JSON store's document) when released.
        let fixture = try await F(kind)
        defer { withExtendedLifetime(fixture) {} }
        let reader = fixture.reader
        let ada = try #require(try await reader.object("CRMPerson", identity: [.int(1)]))
        let project = try #require(try await reader.object("CRMProject", identity: [.int(10)]))
        let unknown = await Self.readError { _ = try await ada.related("friends") }
        #expect(unknown == .unknownRelationship(entity: "CRMAdmin", name: "friends"))
        let byQuery = await Self.readError { _ = try await project.relationship("owners").fetchAll() }
        #expect(byQuery == .unknownRelationship(entity: "CRMProject", name: "owners"))
        let toOne = await Self.readError { _ = try await project.related("owner") }
        #expect(toOne == .wrongKind(entity: "CRMProject", relationship: "owner", toMany: false))
        #expect(toOne?.description == #"CRMProject.owner is a to-one: read it with relatedObject("owner")"#)
        let toMany = await Self.readError { _ = try await ada.relatedObject("projects") }
        #expect(toMany == .wrongKind(entity: "CRMAdmin", relationship: "projects", toMany: true))
        #expect(toMany?.description == #"CRMAdmin.projects is a to-many: read it with related("projects")"#)
    }

    @Test("a failed read leaves the reader usable and the store as it was", arguments: StoreKind.all)
    func afterAnError(kind: StoreKind) async throws {
        // The fixture removes its directory (a JSON store's document) when released.
        let fixture = try await F(kind)
        defer { withExtendedLifetime(fixture) {} }
        let reader = fixture.reader
        _ = await Self.readError { _ = try await reader.objects(of: "CRMPerson").filter(["id": "one"]).fetchAll() }
        #expect(F.ids(try await reader.objects(of: "CRMPerson").fetchAll()) == [1, 2, 3])
        #expect(try await reader.objects(of: "CRMNote").fetchAll().count == F.noteCount)
    }
}
