import Foundation
import RMapSQLite
import Testing

/// A run's bulk inserts through the SQLite engine (`SQLEngine.willInsert`): from 10,000 rows on, a
/// table's insert triggers and an empty table's indexes are set aside and made again at the commit,
/// so the file ends with every trigger and index a small run leaves, and local edits after it are
/// captured as before.
@Suite("SQLite engine: bulk inserts set triggers and indexes aside until the commit")
struct SQLiteEngineBulkInsertTests {
    /// A workspace of 3 owners and `count` items, each item owned by one and shared with another.
    private func workspace(items count: Int) throws -> RunWorkspace {
        let items = (1...count).map {
            #"{"id": \#($0), "name": "item \#($0)", "owner_id": \#($0 % 3 + 1), "member_ids": [\#(($0 + 1) % 3 + 1)]}"#
        }
        return try RunWorkspace([
            "map.yml": """
            rmap: 1
            source: { plugin: file, path: "{collection}.json" }
            entities:
              Owner:
                attributes: { id: int, name: string }
              Item:
                attributes: { id: int, name: string, ownerId: int, memberIds: [int] }
                relationships:
                  owner: { to_one: Owner, connect: { foreign_key: { ownerId: id } } }
                  members: { to_many: Owner, connect: { foreign_key: { memberIds: id } } }
            """,
            "owners.json": #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}]"#,
            "items.json": "[" + items.joined(separator: ",\n") + "]",
        ])
    }

    private func schema(_ workspace: RunWorkspace) throws -> [[SQLiteValue]] {
        try workspace.rows("SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') ORDER BY name")
    }

    @Test(
        "a run of 12,000 items leaves the file with the triggers and indexes of a run of 9, and captures edits after it"
    )
    func bulkRunKeepsSchemaAndCapture() async throws {
        let small = try workspace(items: 9)
        _ = try await small.runMap()
        let large = try workspace(items: 12_000)
        _ = try await large.runMap()
        let objects = try schema(large)
        #expect(objects == (try schema(small)))
        #expect(objects.contains { $0[0] == .text("trigger") && $0[1] == .text("_rmap_insert_items") })
        #expect(objects.contains { $0[0] == .text("trigger") && $0[1] == .text("_rmap_insert_items_members") })
        #expect(objects.contains { $0[0] == .text("index") })
        #expect(try large.rows("SELECT count(*) FROM items_members") == [[.integer(12_000)]])

        let file = try SQLiteConnection(path: large.path("rmap.sqlite"))
        try file.execute("INSERT INTO items (id, name, owner_id) VALUES (20000, 'new', 1)")
        try file.execute("UPDATE items SET name = 'renamed' WHERE id = 5")
        let diff = try await large.rmap(["diff", "map.yml"])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains(#"POST /items.json"#), "\(diff.stdout)")
        #expect(diff.stdout.contains(#"PUT /items/5.json {"item":{"name":"renamed"}}"#), "\(diff.stdout)")
    }
}
