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

    /// People 1...`count`; projects 1...3, project `p` with every person whose id is not a multiple of `p + 1`.
    private func graph(_ schema: GraphSchema, count: Int, linked: Bool = true) -> ObjectGraph {
        let graph = ObjectGraph(schema: schema)
        let people = (1...count).map { id in
            F.add(graph, "CRMPerson", ["id": .int(Int64(id)), "firstName": .string("P\(id)")])
        }
        guard linked else { return graph }
        for project in 1...3 {
            let team = people.filter { !isMultiple($0, of: project + 1) }
            let object = F.add(
                graph, "CRMProject",
                [
                    "id": .int(Int64(project)), "name": .string("Project \(project)"),
                    "teamMemberIds": .array(team.map { $0.identity.values[0] }),
                ])
            F.link(object, "teamMembers", team)
        }
        return graph
    }

    private func isMultiple(_ person: GraphObject, of divisor: Int) -> Bool {
        guard case .int(let id) = person.identity.values[0] else { return false }
        return id % Int64(divisor) == 0
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
    func freshJoinTableGetsItsIndexBack() throws {
        let path = try F.temporaryDirectory().appendingPathComponent("rmap.sqlite").path
        let count = PersistWriter.batchSize + 70
        _ = try SQLiteStore(path: path).write(graph(try F.schema(), count: count), request: WriteRequest())

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

    @Test("a dry run and a failed commit keep the empty join table's index and trigger, and write no link")
    func rollbackKeepsTheIndex() throws {
        let path = try F.temporaryDirectory().appendingPathComponent("rmap.sqlite").path
        let schema = try F.schema()
        // The tables exist, the join table is empty.
        _ = try SQLiteStore(path: path).write(graph(schema, count: 40, linked: false), request: WriteRequest())
        let connection = try SQLiteConnection(path: path)
        let before = try schemaObjects(connection)
        #expect(
            before == [
                [.text("trigger"), .text(Self.linkTrigger), .integer(1)],
                [.text("index"), .text(Self.index), .integer(1)],
            ])

        let report = try SQLiteStore(path: path).write(graph(schema, count: 40), request: WriteRequest(dryRun: true))
        #expect(report.entities["CRMProject"]?.inserted == 3)
        #expect(try schemaObjects(connection) == before)
        #expect(try links(connection).isEmpty)

        let faulty = FaultyStore(try SQLiteStore(path: path), failing: "commit")
        #expect(throws: FaultyBackend.Fault.self) {
            _ = try faulty.write(graph(schema, count: 40), request: WriteRequest())
        }
        #expect(try schemaObjects(connection) == before)
        #expect(try links(connection).isEmpty)

        // The next write finds the join table empty again, and leaves it indexed.
        _ = try SQLiteStore(path: path).write(graph(schema, count: 40), request: WriteRequest())
        #expect(try schemaObjects(connection) == before)
        #expect(try links(connection) == expectedLinks(count: 40))
        #expect(try connection.query("PRAGMA integrity_check") == [[.text("ok")]])
    }
}
