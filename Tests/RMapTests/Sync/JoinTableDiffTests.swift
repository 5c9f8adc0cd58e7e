import Foundation
import Testing

@testable import RMap

/// Links edited in a join table are diffed and pushed as the array attribute that
/// feeds them (MAPPING.md §6, issue #11), on every store with an SQL engine.
@Suite("Join table diff")
struct JoinTableDiffTests {
    typealias F = StoreFixtures

    /// The CRM objects (Ann, an admin, owns project 10 managed by Bob, team Ann and Bob) and a third
    /// person, Cy, run into a new store. With `secondProject`, project 12 (team: Cy) too.
    private func stored(_ kind: StoreKind, secondProject: Bool = false) async throws -> (URL, MappingModel) {
        let directory = try F.temporaryDirectory()
        let cy = #"[{"id": 3, "first_name": "Cy"}]"#
        let projects = #"[{"id": 12, "name": "Gemini", "team_member_ids": [3]}]"#
        try await MappedRun.run(
            F.crm, [("CRMPerson", F.crmPeople), ("CRMPerson", cy)] + (secondProject ? [("CRMProject", projects)] : []),
            kind: kind, directory: directory)
        return (directory, try F.model())
    }

    /// Replaces a project's links in `projects_team_members` with these people, as SQL on the store would.
    private func relink(_ store: any Store, _ people: [Int64], project: Int64 = 10) throws {
        let values = people.map { "(\(project), \($0))" }.joined(separator: ", ")
        try StoreKind.editLocally(
            store, model: try F.model(),
            [
                "DELETE FROM projects_team_members WHERE project_id = \(project)",
                "INSERT INTO projects_team_members (project_id, team_member_id) VALUES \(values)",
            ])
    }

    @Test("a link edited in the join table is sent as the array attribute", arguments: StoreKind.all)
    func editedLinksArePushed(kind: StoreKind) async throws {
        let (directory, model) = try await stored(kind)
        #expect(try SyncStore(store: kind.open(directory), model: model).changes().isEmpty)

        try relink(kind.open(directory), [1, 3])
        let sync = SyncStore(store: try kind.open(directory), model: model)
        let plan = try sync.plan().text
        #expect(
            plan
                == """
                PUT /projects/10.json {"project":{"team_member_ids":[1,3]}}
                1 request: 0 POST, 1 PUT, 0 DELETE

                """)

        let schedule = try sync.schedule()
        let (index, request) = try #require(schedule.next())
        schedule.succeeded(index, request: request, answer: nil, location: nil)
        #expect(try SyncStore(store: kind.open(directory), model: model).changes().isEmpty)
        let project = try kind.open(directory).contents(GraphSchema(model: model), "CRMProject")["10"]
        #expect(project?["team_member_ids"] == .array([.int(1), .int(3)]))
    }

    @Test("links that still match the attribute's known ids are no change", arguments: StoreKind.all)
    func unchangedLinks(kind: StoreKind) async throws {
        let (directory, model) = try await stored(kind)
        try relink(kind.open(directory), [2, 1])
        #expect(try SyncStore(store: kind.open(directory), model: model).changes().isEmpty)
    }

    @Test(
        "a member moved from one project's links to another's: the two full linkages go one after the other",
        arguments: StoreKind.all)
    func movedMemberIsOrdered(kind: StoreKind) async throws {
        let (directory, model) = try await stored(kind, secondProject: true)
        try relink(kind.open(directory), [1], project: 10)
        try relink(kind.open(directory), [3, 2], project: 12)
        let plan = try SyncStore(store: kind.open(directory), model: model).plan()
        #expect(
            plan.requests.map(\.line) == [
                #"PUT /projects/10.json {"project":{"team_member_ids":[1]}}"#,
                #"PUT /projects/12.json {"project":{"team_member_ids":[3,2]}}"#,
            ])
        // Sent at once, the server's second replacement could unlink Bob after the first linked him.
        #expect(plan.requests.map(\.dependencies) == [[], [0]])
    }
}
