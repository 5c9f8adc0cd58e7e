import Foundation
import Testing

@testable import RMap

/// On every store with an engine, `rmap run`'s streamed path: a run that did not fetch a
/// table links to its stored objects, by identity and by other attributes, and leaves them
/// as stored (a local edit included).
@Suite("Connections reach stored objects, on every store")
struct StoredDestinationStoreTests {
    typealias F = StoreFixtures

    static let yaml = """
        rmap: 1
        entities:
          Person:
            attributes: { id: int, email: string, name: string }
            relationships:
              projects: { to_many: Project }
          Project:
            attributes: { id: int, ownerId: int, reviewerEmail: string, memberIds: [int] }
            relationships:
              owner: { to_one: Person, inverse: projects, connect: { foreign_key: { ownerId: id } } }
              reviewer: { to_one: Person, connect: { foreign_key: { reviewerEmail: email } } }
              members: { to_many: Person, connect: { foreign_key: { memberIds: id } } }
          Note:
            attributes: { id: int, personId: int }
            relationships:
              person: { to_one: Person, connect: { foreign_key: { personId: id }, where: { name: Ann } } }
        """

    @Test("a partial run links to stored objects and does not rewrite them", arguments: StoreKind.all)
    func partialRun(kind: StoreKind) async throws {
        let run = try StreamedRun(Self.yaml, kind: kind)
        let people = #"[{"id": 1, "email": "ann@x", "name": "Ann"}, {"id": 2, "email": "bo@x", "name": "Bo"}]"#
        try await run.run(["Person": people, "Project": #"[{"id": 10, "owner_id": 1, "member_ids": [1, 2]}]"#])
        try StoreKind.editLocally(
            try kind.open(run.directory), model: run.model,
            ["UPDATE people SET name = 'Bo (edited)' WHERE id = 2"])

        let projects = """
            [{"id": 10, "owner_id": 2, "reviewer_email": "ann@x", "member_ids": [2, 3]},
             {"id": 11, "owner_id": 7}]
            """
        let notes = #"[{"id": 1, "person_id": 1}, {"id": 2, "person_id": 2}]"#
        let report = try await run.run(["Project": projects, "Note": notes])

        // Found in the store: owner 2 by identity, the reviewer by email, member 2; 3 and 7 are nowhere.
        let dangling = report.dangling.map { ($0.relationship, $0.values) }
        #expect(dangling.count == 2, "\(report.dangling)")
        #expect(dangling.contains { $0.0 == "members" && $0.1 == [.int(3)] })
        #expect(dangling.contains { $0.0 == "owner" && $0.1 == [.int(7)] })
        #expect(try await run.ids("Project", 10, "owner") == [2])
        #expect(try await run.ids("Project", 10, "reviewer") == [1])
        #expect(try await run.ids("Project", 10, "members") == [2])
        #expect(try await run.ids("Person", 2, "projects") == [10])
        // `where` applies to the stored values: note 2's person is Bo, whom `where` leaves out.
        #expect(try await run.ids("Note", 1, "person") == [1])
        #expect(try await run.ids("Note", 2, "person").isEmpty)

        // The stored people are not rewritten: the local edit stays.
        #expect(report.entities.first { $0.entity == "Person" } == EntityRunCounts(entity: "Person"))
        let bo = try await run.object("Person", 2)
        #expect(bo.values["name"] == .string("Bo (edited)"))
    }
}
