import Foundation
import RMap
import RMapSQLite
import Testing

/// rmap's own bulk inserts go in without the insert triggers, and links into a join table that
/// held none without its index; the commit makes them again, a rollback keeps them.
@Suite("SQLite triggers and indexes suspended during a write")
struct SQLiteSuspendedSchemaTests {
    typealias F = StoreFixtures

    static let index = "index_projects_team_members_on_team_member_id"
    static let indexSQL =
        "CREATE INDEX \"index_projects_team_members_on_team_member_id\" ON \"projects_team_members\" (\"team_member_id\")"
    static let linkTrigger = "_rmap_insert_projects_team_members"

    /// People 1...`count`; projects 1...3, project `p` with every person whose id is not a multiple
    /// of `p + 1` (and, with `manager`, managed by that person id: 99 is no one).
    private func payloads(count: Int, linked: Bool = true, manager: Int = 1) -> [(entity: String, json: String)] {
        let people = (1...count).map { #"{"id": \#($0), "first_name": "P\#($0)"}"# }
        var payloads = [("CRMPerson", "[" + people.joined(separator: ",\n") + "]")]
        guard linked else { return payloads }
        let projects = (1...3).map { project in
            let team = (1...count).filter { $0 % (project + 1) != 0 }.map(String.init).joined(separator: ", ")
            return #"{"id": \#(project), "name": "Project \#(project)", "person_id": \#(manager), "#
                + #""team_member_ids": [\#(team)]}"#
        }
        payloads.append(("CRMProject", "[" + projects.joined(separator: ",\n") + "]"))
        return payloads
    }

    /// One run of `payloads` into the SQLite file in `directory`.
    @discardableResult
    private func run(
        _ directory: URL, _ payloads: [(entity: String, json: String)], options: RunOptions = RunOptions()
    ) async throws -> RunReport {
        try await MappedRun.run(F.crm, payloads, kind: .sqlite, directory: directory, options: options)
    }

    private func expectedLinks(count: Int) -> [[SQLiteValue]] {
        (1...3).flatMap { project in
            (1...count).filter { $0 % (project + 1) != 0 }.map { [.integer(Int64(project)), .integer(Int64($0))] }
        }
    }

    private func links(_ connection: SQLiteConnection) throws -> [[SQLiteValue]] {
        try connection.query("SELECT project_id, team_member_id FROM projects_team_members ORDER BY 1, 2")
    }

    /// The join table's index and link trigger as the file holds them.
    private func schemaObjects(_ connection: SQLiteConnection) throws -> [[SQLiteValue]] {
        try connection.query(
            "SELECT type, name, sql LIKE 'CREATE%' FROM sqlite_master WHERE name IN (?, ?) ORDER BY name",
            [.string(Self.linkTrigger), .string(Self.index)])
    }

    @Test("links into a join table that held none are written before its index, which the commit makes again")
    func freshJoinTableGetsItsIndexBack() async throws {
        let directory = try F.temporaryDirectory()
        let path = directory.appendingPathComponent("rmap.sqlite").path
        // Over 10,000 links: a bulk insert, which SQLite takes without the join table's index and trigger.
        let count = 6_000
        try await run(directory, payloads(count: count))

        let connection = try SQLiteConnection(path: path)
        #expect(try links(connection) == expectedLinks(count: count))
        let index = try connection.query(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", [.string(Self.index)])
        #expect(index == [[.text(Self.indexSQL)]])
        // The index holds every link: SQLite checks it against the table, and finds by it.
        #expect(try connection.query("PRAGMA integrity_check") == [[.text("ok")]])
        let byMember = try connection.query(
            "SELECT project_id FROM projects_team_members INDEXED BY \(Self.index) WHERE team_member_id = 6 ORDER BY 1")
        #expect(byMember == [[.integer(3)]])
        // The link trigger is back: another connection's link edit captures its project's server state.
        try connection.execute("INSERT INTO projects_team_members VALUES (2, 3)")
        let bases = try connection.query("SELECT id, name FROM _rmap_base_projects")
        #expect(bases == [[.integer(2), .text("Project 2")]])
    }

    @Test("a dry run and a failed run keep the empty join table's index and trigger, and write no link")
    func rollbackKeepsTheIndex() async throws {
        let directory = try F.temporaryDirectory()
        let path = directory.appendingPathComponent("rmap.sqlite").path
        // The tables exist, the join table is empty.
        try await run(directory, payloads(count: 40, linked: false))
        let connection = try SQLiteConnection(path: path)
        let before = try schemaObjects(connection)
        #expect(
            before == [
                [.text("trigger"), .text(Self.linkTrigger), .integer(1)],
                [.text("index"), .text(Self.index), .integer(1)],
            ])

        var dryRun = RunOptions()
        dryRun.dryRun = true
        let report = try await run(directory, payloads(count: 40), options: dryRun)
        #expect(report.entities.first { $0.entity == "CRMProject" }?.inserted == 3)
        #expect(try schemaObjects(connection) == before)
        #expect(try links(connection).isEmpty)

        // A strict run that meets a dangling reference fails before it merges.
        var strict = RunOptions()
        strict.strict = true
        await #expect(throws: StrictFailure.self) {
            try await run(directory, payloads(count: 40, manager: 99), options: strict)
        }
        #expect(try schemaObjects(connection) == before)
        #expect(try links(connection).isEmpty)

        // The next run finds the join table empty again, and leaves it indexed.
        try await run(directory, payloads(count: 40))
        #expect(try schemaObjects(connection) == before)
        #expect(try links(connection) == expectedLinks(count: 40))
        #expect(try connection.query("PRAGMA integrity_check") == [[.text("ok")]])
    }
}
