import Foundation
import RMap
import RMapSQLite
import Testing

/// A write into empty tables copies each batch's rows into the base inside SQLite.
@Suite("SQLite fresh write")
struct SQLiteFreshWriteTests {
    typealias F = StoreFixtures

    @Test("every base row equals its row, across several batches, and a re-write finds everything unchanged")
    func basesMatchRows() throws {
        let path = try F.temporaryDirectory().appendingPathComponent("rmap.sqlite").path
        let schema = try F.schema()
        let graph = ObjectGraph(schema: schema)
        let count = PersistWriter.batchSize * 2 + 7
        for id in 1...count {
            F.add(
                graph, "CRMPerson",
                [
                    "id": .int(Int64(id)), "firstName": .string("P\(id)"),
                    "budget": .decimal(DecimalNumber("\(id).50")!), "admin": .bool(id % 2 == 0),
                ])
        }
        let report = try SQLiteStore(path: path).write(graph, request: WriteRequest())
        #expect(report.entities["CRMPerson"]?.inserted == count)

        let connection = try SQLiteConnection(path: path)
        let rows = try connection.query("SELECT id, first_name, budget, admin, type FROM people ORDER BY id")
        let bases = try connection.query(
            "SELECT id, first_name, budget, admin, type FROM _rmap_base_people ORDER BY id")
        #expect(rows.count == count)
        #expect(bases == rows)

        let again = try SQLiteStore(path: path).write(graph, request: WriteRequest())
        #expect(again.entities["CRMPerson"]?.unchanged == count)
        #expect(again.entities["CRMPerson"]?.inserted == 0)
    }
}
