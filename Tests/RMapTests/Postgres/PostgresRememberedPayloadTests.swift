import Foundation
import RMap
import RMapPostgres
import Testing

/// Remembered payloads (`skip_unchanged`) in a PostgreSQL store: the numbered tables work there
/// as in SQLite (``RememberedPayloadTests`` has the rules).
@Suite("Remembered payloads in PostgreSQL")
struct PostgresRememberedPayloadTests {
    @Test("an unchanged re-run maps nothing; a changed file is mapped, and a file's objects stay its own")
    func unchangedThenChanged() async throws {
        let workspace = try RememberedPayloadTests.workspace()
        let store = ["--store", try PostgresSchemas.url(for: workspace.url)]
        let first = try await RememberedPayloadTests.run(workspace, store)
        // Made without their primary key, filled, then keyed, in the first run's transaction.
        let connection = try PostgresConnection(url: store[1])
        let tables = try connection.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                + "AND tablename LIKE '\\_rmap\\_remembered\\_%' ORDER BY 1"
        ).rows.compactMap { $0[0] }
        #expect(tables.count == 3, "\(tables)")
        for table in tables {
            let keyed = try PostgresSchemas.indexes(connection, table).contains {
                $0.hasPrefix("CREATE UNIQUE INDEX \(table)_pkey (payload, ")
            }
            #expect(keyed, "\(table) has no primary key")
        }
        let second = try await RememberedPayloadTests.run(workspace, store)
        for entity in ["XPerson", "XNote", "XProject"] {
            #expect(first.counts(entity)["inserted"] ?? 0 > 0)
            #expect(second.counts(entity)["fetched"] == 0, "\(entity) was mapped again")
            #expect(second.counts(entity)["unchanged"] == first.counts(entity)["inserted"], "\(entity)")
        }
        try workspace.write("data/projects.json", #"[{"id": 5, "name": "Engine 2", "person_id": 1}]"#)
        let third = try await RememberedPayloadTests.run(workspace, store)
        #expect(third.counts("XProject")["updated"] == 1)
        #expect(third.counts("XProject")["orphans_deleted"] == 1)
        #expect(third.counts("XPerson")["fetched"] == 0, "people.json is still remembered")
        #expect(third.counts("XNote")["unchanged"] == 3)
        let fourth = try await RememberedPayloadTests.run(workspace, store)
        #expect(fourth.counts("XProject")["fetched"] == 0, "the changed file is remembered anew")
        #expect(fourth.counts("XProject")["unchanged"] == 1)
    }
}
