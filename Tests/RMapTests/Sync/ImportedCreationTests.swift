import Foundation
import Testing

@testable import RMap

/// A creation whose `POST` a run met (issue #30): the run imported the server's object while the
/// `POST` was in flight, and the answer names it. The two rows are one object, merged three-way;
/// the links to the temporary identity move to the real one.
@Suite("Creations imported while in flight")
struct ImportedCreationTests {
    typealias F = StoreFixtures

    private func json(_ text: String) throws -> JSONValue {
        try JSONReader.parse(Data(text.utf8), origin: "answer")
    }

    @Test(
        "the answer names an imported object: one row, local edits of both copies kept, the server's taken",
        arguments: SyncFixture.stores)
    func mergesIntoImported(postgres: Bool) throws {
        let fixture = try SyncFixture(postgres: postgres)
        try fixture.sql("INSERT INTO people (id, first_name, status) VALUES (-1, 'Grace', 'active')")
        try fixture.sql("INSERT INTO projects (id, name, person_id) VALUES (-2, 'Cobol', -1)")
        let killed = try fixture.sync.schedule()
        let killedPost = try #require(killed.next()).request
        let key = try #require(killedPost.idempotencyKey)
        // The POST created Grace as 26; a run imported her (and someone set her city since).
        try fixture.fetched([
            (
                "Person",
                [
                    "id": .int(26), "firstName": .string("Grace"), "status": .string("active"),
                    "city": .string("Arlington"),
                ]
            )
        ])
        try fixture.sql("UPDATE people SET first_name = 'Grace H' WHERE id = -1")
        try fixture.sql("UPDATE people SET status = 'inactive' WHERE id = 26")
        #expect(try fixture.sync.objects(of: "Person").filter { $0.isNew }.map(\.identity) == [[.int(-1)]])

        let resumed = try fixture.sync.schedule()
        let (index, post) = try #require(resumed.next())
        #expect(post.idempotencyKey == key)
        // The server answers as it did the first time.
        resumed.succeeded(
            index, request: post,
            answer: try json(#"{"person":{"id":26,"first_name":"Grace","address":{"city":null},"status":"A"}}"#),
            location: nil, status: 201)
        #expect(resumed.failures.isEmpty && resumed.acknowledged == 1)
        let child = try #require(resumed.next()).request
        #expect(child.line == #"POST /projects.json {"project":{"name":"Cobol","person_id":26}}"#)

        let people = try fixture.sync.objects(of: "Person")
        #expect(people.map(\.identity) == [[.int(1)], [.int(2)], [.int(26)]])
        let grace = try #require(people.last)
        #expect(!grace.isNew)
        #expect(grace["firstName"] == .string("Grace H") && grace["status"] == .string("inactive"))
        #expect(grace["city"] == .string("Arlington"))
        let lines = try fixture.lines()
        #expect(lines.contains(#"PUT /people/26.json {"person":{"first_name":"Grace H","status":"I"}}"#), "\(lines)")
        #expect(lines.contains(#"POST /projects.json {"project":{"name":"Cobol","person_id":26}}"#), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("POST /people") }, "\(lines)")
    }

    @Test("a column changed on both sides keeps the local value unless on_conflict is remote")
    func conflicts() {
        // Columns: id, name, city. Sent as B; created as B; the server has C since; the imported copy's row C too.
        let created: [Value] = [.int(26), .string("B"), .null]
        let sent: [Value] = [.int(-1), .string("B2"), .null]
        let imported = StoredState(row: [.int(26), .string("C"), .string("X")], base: nil)
        for policy in [ConflictPolicy.fail, .local] {
            let merged = CreatedObjectMerge(policy: policy).merge(
                created: created, sent: sent, carried: [1], identity: [0], imported: imported)
            #expect(merged.row == [.int(26), .string("B2"), .string("X")], "\(policy)")
            #expect(merged.base == [.int(26), .string("C"), .string("X")], "\(policy)")
        }
        let remote = CreatedObjectMerge(policy: .remote).merge(
            created: created, sent: sent, carried: [1], identity: [0], imported: imported)
        #expect(remote.row == [.int(26), .string("C"), .string("X")] && remote.base == remote.row)
    }

    /// The small CRM (project 10's team: Ann and Bob) run into a new store, and Dee, created locally in
    /// it as a member of project 10's team (its join table edited, as SQL would).
    private func deeInTeam(_ kind: StoreKind) async throws -> (URL, MappingModel, SyncStore) {
        let directory = try F.temporaryDirectory()
        let model = try F.model()
        try await F.runCRM(kind, directory)
        let sync = SyncStore(store: try kind.open(directory), model: model)
        let dee = try sync.insert("CRMPerson", ["firstName": .string("Dee")])
        #expect(dee.identity == [.int(-1)])
        try StoreKind.editLocally(
            try kind.open(directory), model: model,
            ["INSERT INTO projects_team_members (project_id, team_member_id) VALUES (10, -1)"])
        return (directory, model, sync)
    }

    /// Project 10's team in the join table, sorted.
    private func team(_ kind: StoreKind, _ directory: URL) throws -> [Int64] {
        let store = try kind.open(directory)
        try store.load(StoreLayout(schema: GraphSchema(model: try F.model())))
        return try store.engine().rows(
            "SELECT team_member_id FROM projects_team_members WHERE project_id = 10", types: [.int]
        ).compactMap { if case .int(let id) = $0[0] { id } else { nil } }.sorted()
    }

    @Test(
        "join-table links to a temporary identity move to the real one, merged with an imported copy or not",
        arguments: StoreKind.all, [false, true])
    func linksMove(kind: StoreKind, imported: Bool) async throws {
        let (directory, model, sync) = try await deeInTeam(kind)
        let schedule = try sync.schedule()
        let (index, post) = try #require(schedule.next())
        #expect(post.line.hasPrefix("POST /people.json"), "\(post.line)")
        if imported {
            try await MappedRun.run(
                F.crm, [("CRMPerson", #"[{"id": 30, "first_name": "Dee"}]"#)], kind: kind, directory: directory)
        }
        schedule.succeeded(index, request: post, answer: try json(#"{"id":30}"#), location: nil, status: 201)
        #expect(schedule.failures.isEmpty && schedule.acknowledged == 1)
        #expect(try team(kind, directory) == [1, 2, 30])
        let dees = try SyncStore(store: try kind.open(directory), model: model)
            .objects(of: "CRMPerson", where: ["firstName": "Dee"])
        #expect(dees.map(\.identity) == [[.int(30)]])
    }
}
