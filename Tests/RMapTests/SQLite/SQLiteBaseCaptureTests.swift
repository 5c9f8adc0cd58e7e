import Foundation
import RMap
import RMapSQLite
import Testing

/// Bases only where they are needed: rmap writes each row once, and the store's triggers copy a
/// row's server state into its base at its first local edit (another connection's SQL), while
/// rmap's own writes leave them alone.
@Suite("SQLite bases captured by triggers")
struct SQLiteBaseCaptureTests {
    typealias F = StoreFixtures

    /// People 1...`count` as a payload, first names `P<id>` (or `names[id]`), budgets `<id>.50`,
    /// across several staging batches (also ``PostgresBaseCaptureTests``' payload).
    static func people(count: Int, names: [Int: String] = [:], budget: Int = 0) -> String {
        "["
            + (1...count).map { id in
                #"{"id": \#(id), "first_name": "\#(names[id] ?? "P\(id)")", "budget": \#(id + budget).50}"#
            }.joined(separator: ",\n") + "]"
    }

    /// Runs ``people(count:names:budget:)`` into the store of `kind` in `directory`; what it did to people.
    @discardableResult
    static func run(
        _ kind: StoreKind, _ directory: URL, count: Int, names: [Int: String] = [:], budget: Int = 0
    ) async throws -> EntityRunCounts? {
        let report = try await MappedRun.run(
            F.crm, [("CRMPerson", people(count: count, names: names, budget: budget))], kind: kind, directory: directory
        )
        return report.entities.first { $0.entity == "CRMPerson" }
    }

    private func store() throws -> (directory: URL, path: String) {
        let directory = try F.temporaryDirectory()
        return (directory, directory.appendingPathComponent("rmap.sqlite").path)
    }

    private func bases(_ path: String) throws -> [[SQLiteValue]] {
        try SQLiteConnection(path: path).query("SELECT id, first_name, budget FROM _rmap_base_people ORDER BY id")
    }

    @Test("a fresh import writes each row once: no base row, no note of a local creation; a re-run is unchanged")
    func freshImportWritesNoBase() async throws {
        let (directory, path) = try store()
        let count = 4096 * 2 + 7
        #expect(try await Self.run(.sqlite, directory, count: count)?.inserted == count)
        let connection = try SQLiteConnection(path: path)
        #expect(try connection.query("SELECT count(*) FROM people") == [[.integer(Int64(count))]])
        #expect(try bases(path).isEmpty)
        #expect(try connection.query("SELECT count(*) FROM _rmap_new_people") == [[.integer(0)]])
        #expect(try connection.query("SELECT count(*) FROM _rmap_own_writes") == [[.integer(0)]])

        #expect(try await Self.run(.sqlite, directory, count: count)?.unchanged == count)
        #expect(try bases(path).isEmpty)
    }

    @Test("a local UPDATE and DELETE by another connection capture that row's server state, once")
    func localEditsCaptureOnce() async throws {
        let (directory, path) = try store()
        try await Self.run(.sqlite, directory, count: 5)
        let connection = try SQLiteConnection(path: path)
        try connection.execute("UPDATE people SET first_name = 'Local' WHERE id = 2")
        try connection.execute("DELETE FROM people WHERE id = 4")
        #expect(
            try bases(path) == [[.integer(2), .text("P2"), .text("2.50")], [.integer(4), .text("P4"), .text("4.50")]])

        // A second edit keeps the first base: it is the server's state, not the last local one.
        try connection.execute("UPDATE people SET first_name = 'Again', budget = '9' WHERE id = 2")
        #expect(
            try bases(path) == [[.integer(2), .text("P2"), .text("2.50")], [.integer(4), .text("P4"), .text("4.50")]])

        // A local INSERT is noted as created locally, and loses the note with its row.
        try connection.execute("INSERT INTO people (id, first_name, type) VALUES (-1, 'New', 'CRMPerson')")
        #expect(try connection.query("SELECT id FROM _rmap_new_people") == [[.integer(-1)]])
        try connection.execute("UPDATE people SET first_name = 'Newer' WHERE id = -1")
        #expect(try bases(path).count == 2)
        try connection.execute("DELETE FROM people WHERE id = -1")
        #expect(try connection.query("SELECT count(*) FROM _rmap_new_people") == [[.integer(0)]])
        #expect(try bases(path).count == 2)
    }

    @Test(
        "INSERT OR REPLACE or an upsert over a stored row, and a row deleted then inserted again, are updates: bases kept, no creation noted"
    )
    func replaceIsAnUpdate() async throws {
        let (directory, path) = try store()
        try await Self.run(.sqlite, directory, count: 3)
        let connection = try SQLiteConnection(path: path)
        // REPLACE deletes the old row without firing a delete trigger: the insert's triggers keep its base.
        try connection.execute(
            "INSERT OR REPLACE INTO people (id, first_name, type) VALUES (2, 'Replaced', 'CRMPerson')")
        // An upsert's conflict clause overrides the triggers' own: a second edit by upsert keeps the base too.
        try connection.execute(
            "INSERT INTO people (id, first_name, type) VALUES (2, 'Upserted', 'CRMPerson') "
                + "ON CONFLICT (id) DO UPDATE SET first_name = excluded.first_name")
        try connection.execute("DELETE FROM people WHERE id = 3")
        try connection.execute("INSERT INTO people (id, first_name, type) VALUES (3, 'Back', 'CRMPerson')")
        #expect(
            try bases(path) == [[.integer(2), .text("P2"), .text("2.50")], [.integer(3), .text("P3"), .text("3.50")]])
        #expect(try connection.query("SELECT count(*) FROM _rmap_new_people") == [[.integer(0)]])

        // Through diff: both are PUTs of the changed attribute, as the same edits by UPDATE would be.
        let fixture = try SyncFixture()
        try fixture.sql(
            "CREATE TEMP TABLE t AS SELECT * FROM people WHERE id = 2; UPDATE t SET first_name = 'Alan T'; "
                + "INSERT OR REPLACE INTO people SELECT * FROM t; "
                + "CREATE TEMP TABLE p AS SELECT * FROM projects WHERE id = 11; UPDATE p SET name = 'Bombe 2'; "
                + "DELETE FROM projects WHERE id = 11; INSERT INTO projects SELECT * FROM p")
        let lines = try fixture.lines()
        #expect(
            lines.dropLast() == [
                #"PUT /people/2.json {"person":{"first_name":"Alan T"}}"#,
                #"PUT /projects/11.json {"project":{"name":"Bombe 2"}}"#,
            ])
    }

    @Test("rmap's re-import leaves the triggers alone; it merges a locally changed row and refreshes its base")
    func reimportBypassesTriggers() async throws {
        let (directory, path) = try store()
        try await Self.run(.sqlite, directory, count: 5)
        try SQLiteConnection(path: path).execute("UPDATE people SET first_name = 'Local' WHERE id = 1")

        // The server changed every budget and person 3's name.
        let report = try await Self.run(.sqlite, directory, count: 5, names: [3: "Server"], budget: 100)
        #expect(report?.updated == 5)
        let connection = try SQLiteConnection(path: path)
        #expect(
            try connection.query("SELECT id, first_name, budget FROM people WHERE id IN (1, 3) ORDER BY id") == [
                [.integer(1), .text("Local"), .text("101.50")], [.integer(3), .text("Server"), .text("103.50")],
            ])
        // Only the locally changed row has a base: the server's new state.
        #expect(try bases(path) == [[.integer(1), .text("P1"), .text("101.50")]])
        #expect(try connection.query("SELECT count(*) FROM _rmap_new_people") == [[.integer(0)]])
    }

    @Test("a re-import that brings a locally changed row back to the server's state drops its base")
    func reimportSettles() async throws {
        let (directory, path) = try store()
        try await Self.run(.sqlite, directory, count: 3)
        try SQLiteConnection(path: path).execute("UPDATE people SET first_name = 'Local' WHERE id = 2")
        #expect(try bases(path).count == 1)
        #expect(try await Self.run(.sqlite, directory, count: 3, names: [2: "Local"])?.unchanged == 3)
        #expect(try bases(path).isEmpty)
    }

    @Test("diff reads the changed rows: an UPDATE, a DELETE and an INSERT by sqlite3, and a link edit")
    func diffOfTriggeredChanges() throws {
        let fixture = try SyncFixture()
        for edit in SyncFixture.localEdits { try fixture.sql(edit) }
        #expect(try fixture.lines() == SyncFixture.localEditsPlan)
    }

    @Test("a store written before (a base for every row) is brought to the new form once and diffs the same")
    func oldLayoutMigrates() throws {
        let fixture = try SyncFixture()
        // The previous version's layout: no triggers, no notes, a base for every row except those created locally.
        let connection = try SQLiteConnection(path: fixture.storePath)
        for table in ["people", "projects", "labels"] {
            for event in ["replace", "insert", "update", "delete"] {
                try connection.execute("DROP TRIGGER _rmap_\(event)_\(table)")
            }
            try connection.execute("DROP TABLE _rmap_new_\(table)")
            try connection.execute("INSERT INTO _rmap_base_\(table) SELECT * FROM \(table)")
        }
        try connection.execute("DROP TABLE _rmap_own_writes")
        for edit in SyncFixture.localEdits { try connection.execute(edit) }
        #expect(try fixture.lines() == SyncFixture.localEditsPlan)

        // Migrated: bases only for the changed rows, the local creation noted, the triggers in place.
        #expect(
            try connection.query("SELECT id, first_name FROM _rmap_base_people") == [[.integer(1), .text("Ada")]])
        #expect(try connection.query("SELECT id FROM _rmap_base_projects") == [[.integer(11)]])
        #expect(try connection.query("SELECT count(*) FROM _rmap_base_labels") == [[.integer(0)]])
        #expect(try connection.query("SELECT name FROM _rmap_new_labels") == [[.text("feature")]])
        try connection.execute("UPDATE people SET first_name = 'Alan M.' WHERE id = 2")
        #expect(try fixture.lines().count == SyncFixture.localEditsPlan.count + 1)
    }
}
