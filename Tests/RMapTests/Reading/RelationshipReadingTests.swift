import Foundation
import RMap
import Testing

/// Relationships followed from a ``StoreObject`` by query, from every place a store keeps links
/// (``ReadingFixture``): a to-one's object, a to-many's objects in the order the store keeps them,
/// and a relationship narrowed, ordered and windowed like any query.
@Suite("Relationship reading")
struct RelationshipReadingTests {
    typealias F = ReadingFixture

    /// The fixture and the object of `entity` with the integer identity `id`.
    private static func object(_ fixture: F, _ entity: String, _ id: Int64) async throws -> StoreObject {
        try #require(try await fixture.reader.object(entity, identity: [.int(id)]))
    }

    @Test("a to-one held in the object's own column", arguments: StoreKind.all)
    func ownColumn(kind: StoreKind) async throws {
        let fixture = try await F(kind)
        let owner = try await Self.object(fixture, "CRMProject", 11).relatedObject("owner")
        #expect(owner?.identity == [.int(2)])
        let admin = try await Self.object(fixture, "CRMProject", 12).relatedObject("owner")
        #expect(admin?.entity == "CRMAdmin")
        #expect(admin?.identity == [.int(1)])
    }

    @Test("a to-many held in the children's column comes in its `ordered` positions", arguments: StoreKind.all)
    func childColumns(kind: StoreKind) async throws {
        let fixture = try await F(kind)
        let ada = try await Self.object(fixture, "CRMPerson", 1)
        // Ada's payload lists project 12 before project 10.
        #expect(F.ids(try await ada.related("projects")) == [12, 10])
        #expect(F.ids(try await Self.object(fixture, "CRMPerson", 2).related("projects")) == [11])
        #expect(try await Self.object(fixture, "CRMPerson", 3).related("projects").isEmpty)
    }

    @Test("a join table's links come in its positions, its inverse's from the other end", arguments: StoreKind.all)
    func joinTable(kind: StoreKind) async throws {
        let fixture = try await F(kind)
        // Project 12's `team_member_ids` are [3, 1].
        #expect(F.ids(try await Self.object(fixture, "CRMProject", 12).related("teamMembers")) == [3, 1])
        #expect(F.ids(try await Self.object(fixture, "CRMProject", 11).related("teamMembers")) == [1, 2, 3])
        let ada = try await Self.object(fixture, "CRMPerson", 1)
        #expect(Set(F.ids(try await ada.related("memberOf"))) == [11, 12])
        let alan = try await Self.object(fixture, "CRMPerson", 2)
        #expect(F.ids(try await alan.relationship("memberOf").order(.ascending("id")).fetchAll()) == [10, 11])
    }

    @Test("attributes a connection compares link as connecting matched them, from both ends", arguments: StoreKind.all)
    func connectingAttributes(kind: StoreKind) async throws {
        let fixture = try await F(kind)
        #expect(try await Self.object(fixture, "CRMProject", 12).relatedObject("manager")?.identity == [.int(2)])
        #expect(try await Self.object(fixture, "CRMProject", 11).relatedObject("manager")?.entity == "CRMAdmin")
        let alan = try await Self.object(fixture, "CRMPerson", 2)
        #expect(F.ids(try await alan.relationship("managed").order(.ascending("id")).fetchAll()) == [10, 12])
        #expect(F.ids(try await Self.object(fixture, "CRMPerson", 3).related("managed")) == [])
    }

    @Test("a relationship's objects are a query: filtered, reordered, windowed", arguments: StoreKind.all)
    func relationshipQuery(kind: StoreKind) async throws {
        let fixture = try await F(kind)
        let projects = try await Self.object(fixture, "CRMPerson", 1).relationship("projects")
        #expect(F.ids(try await projects.filter(["name": "Engine"]).fetchAll()) == [10])
        #expect(F.ids(try await projects.filter(["name": "Bombe"]).fetchAll()) == [])
        #expect(F.ids(try await projects.order(.ascending("name")).fetchAll()) == [10, 12])
        #expect(F.ids(try await projects.limit(1, offset: 1).fetchAll()) == [10])
        #expect(try await projects.fetchOne()?.identity == [.int(12)])
        let team = try await Self.object(fixture, "CRMProject", 11).relationship("teamMembers")
        #expect(F.ids(try await team.filter(["admin": false]).fetchAll()) == [2])
        #expect(F.ids(try await team.order(.descending("firstName")).limit(2).fetchAll()) == [3, 2])
    }

    @Test("following a relationship and back returns to the object", arguments: StoreKind.all)
    func roundTrip(kind: StoreKind) async throws {
        let fixture = try await F(kind)
        let ada = try await Self.object(fixture, "CRMPerson", 1)
        for project in try await ada.related("projects") {
            #expect(try await project.relatedObject("owner") == ada)
        }
    }
}
