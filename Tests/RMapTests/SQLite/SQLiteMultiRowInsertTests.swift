import Foundation
import RMap
import RMapSQLite
import Testing

/// Rows and links go to SQLite in multi-row `INSERT`s of 32 rows, the rest one by one:
/// every row lands once, in order, whatever its place in a group.
@Suite("SQLite multi-row inserts")
struct SQLiteMultiRowInsertTests {
    typealias F = StoreFixtures

    /// People 1...`count` named with `prefix`; project 1 has them all as its team.
    private func graph(_ schema: GraphSchema, count: Int, prefix: String) -> ObjectGraph {
        let graph = ObjectGraph(schema: schema)
        let people = (1...count).map { id in
            F.add(graph, "CRMPerson", ["id": .int(Int64(id)), "firstName": .string("\(prefix) \(id)")])
        }
        let project = F.add(
            graph, "CRMProject",
            ["id": .int(1), "name": .string("All"), "teamMemberIds": .array(people.map { $0.identity.values[0] })])
        F.link(project, "teamMembers", people)
        return graph
    }

    @Test(
        "fresh and updating writes of a count that is no multiple of 32 keep every row and link once",
        arguments: [31, 32, 33, 97])
    func groupBoundaries(count: Int) throws {
        let path = try F.temporaryDirectory().appendingPathComponent("rmap.sqlite").path
        let schema = try F.schema()
        for prefix in ["First", "Second"] {
            _ = try SQLiteStore(path: path).write(graph(schema, count: count, prefix: prefix), request: WriteRequest())
            let connection = try SQLiteConnection(path: path)
            let expected = (1...count).map { [SQLiteValue.integer(Int64($0)), .text("\(prefix) \($0)")] }
            #expect(try connection.query("SELECT id, first_name FROM people ORDER BY id") == expected)
            // Rows written by rmap are the server's state: no base of their own (SQLiteBaseCapture).
            #expect(try connection.query("SELECT count(*) FROM _rmap_base_people") == [[.integer(0)]])
            let links = try connection.query(
                "SELECT project_id, team_member_id FROM projects_team_members ORDER BY team_member_id")
            #expect(links == (1...count).map { [.integer(1), .integer(Int64($0))] })
        }
    }
}
