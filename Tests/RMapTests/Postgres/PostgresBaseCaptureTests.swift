import Foundation
import RMapPostgres
import Testing

@testable import RMap

/// Bases only where they are needed, on PostgreSQL: rmap writes each row once, and the store's
/// plpgsql triggers copy a row's server state into its base at its first local edit (another
/// client's SQL), while rmap's own writes leave them alone.
@Suite("PostgreSQL bases captured by triggers")
struct PostgresBaseCaptureTests {
    typealias F = StoreFixtures

    /// A schema of its own on the test server (``StoreKind/postgres``'s for `directory`), and its URL.
    private func store() throws -> (directory: URL, url: String) {
        let directory = try F.temporaryDirectory()
        return (directory, try PostgresSchemas.url(for: directory))
    }

    /// Runs ``SQLiteBaseCaptureTests/people(count:names:budget:)`` into the schema of `directory`.
    @discardableResult
    private func run(
        _ directory: URL, count: Int, names: [Int: String] = [:], budget: Int = 0
    ) async throws -> EntityRunCounts? {
        try await SQLiteBaseCaptureTests.run(.postgres, directory, count: count, names: names, budget: budget)
    }

    /// What a plain client (psql, an application) reads with its own connection.
    private func rows(_ url: String, _ sql: String) throws -> [[String?]] {
        try PostgresConnection(url: url).query(sql).rows
    }

    private func bases(_ url: String) throws -> [[String?]] {
        try rows(url, "SELECT id::text, first_name, budget::text FROM _rmap_base_people ORDER BY id")
    }

    @Test("a fresh import (COPY) writes each row once: no base row, no note of a local creation; a re-run is unchanged")
    func freshImportWritesNoBase() async throws {
        let (directory, url) = try store()
        let count = 4096 * 2 + 7
        #expect(try await run(directory, count: count)?.inserted == count)
        #expect(try rows(url, "SELECT count(*) FROM people") == [["\(count)"]])
        #expect(try bases(url).isEmpty)
        #expect(try rows(url, "SELECT count(*) FROM _rmap_new_people") == [["0"]])

        #expect(try await run(directory, count: count)?.unchanged == count)
        #expect(try bases(url).isEmpty)
    }

    @Test("a local UPDATE and DELETE by another client capture that row's server state, once")
    func localEditsCaptureOnce() async throws {
        let (directory, url) = try store()
        try await run(directory, count: 5)
        let client = try PostgresConnection(url: url)
        try client.execute("UPDATE people SET first_name = 'Local' WHERE id = 2")
        try client.execute("DELETE FROM people WHERE id = 4")
        #expect(try bases(url) == [["2", "P2", "2.50"], ["4", "P4", "4.50"]])

        // A second edit keeps the first base: it is the server's state, not the last local one.
        try client.execute("UPDATE people SET first_name = 'Again', budget = 9 WHERE id = 2")
        #expect(try bases(url) == [["2", "P2", "2.50"], ["4", "P4", "4.50"]])

        // A local INSERT is noted as created locally, and loses the note with its row.
        try client.execute("INSERT INTO people (id, first_name, type) VALUES (-1, 'New', 'CRMPerson')")
        #expect(try rows(url, "SELECT id::text FROM _rmap_new_people") == [["-1"]])
        try client.execute("UPDATE people SET first_name = 'Newer' WHERE id = -1")
        #expect(try bases(url).count == 2)
        try client.execute("DELETE FROM people WHERE id = -1")
        #expect(try rows(url, "SELECT count(*) FROM _rmap_new_people") == [["0"]])
        #expect(try bases(url).count == 2)
    }

    @Test(
        "INSERT ... ON CONFLICT over a stored row, and a row deleted then inserted again, are updates: bases kept, no creation noted"
    )
    func upsertIsAnUpdate() async throws {
        let (directory, url) = try store()
        try await run(directory, count: 3)
        let client = try PostgresConnection(url: url)
        for name in ["Upserted", "Again"] {
            try client.execute(
                "INSERT INTO people (id, first_name, type) VALUES (2, '\(name)', 'CRMPerson') "
                    + "ON CONFLICT (id) DO UPDATE SET first_name = excluded.first_name")
        }
        try client.execute("DELETE FROM people WHERE id = 3")
        try client.execute("INSERT INTO people (id, first_name, type) VALUES (3, 'Back', 'CRMPerson')")
        #expect(try bases(url) == [["2", "P2", "2.50"], ["3", "P3", "3.50"]])
        #expect(try rows(url, "SELECT count(*) FROM _rmap_new_people") == [["0"]])
    }

    @Test("through diff, an INSERT ... ON CONFLICT and a row deleted then inserted again are PUTs")
    func upsertDiffsAsUpdate() throws {
        // Both are PUTs of the changed attribute, as the same edits by UPDATE would be.
        let fixture = try SyncFixture(postgres: true)
        try fixture.sql(
            "INSERT INTO people (id, first_name) VALUES (2, 'Alan T') "
                + "ON CONFLICT (id) DO UPDATE SET first_name = excluded.first_name; "
                + "CREATE TEMP TABLE p AS SELECT * FROM projects WHERE id = 11; UPDATE p SET name = 'Bombe 2'; "
                + "DELETE FROM projects WHERE id = 11; INSERT INTO projects SELECT * FROM p")
        #expect(
            try fixture.lines().dropLast() == [
                #"PUT /people/2.json {"person":{"first_name":"Alan T"}}"#,
                #"PUT /projects/11.json {"project":{"name":"Bombe 2"}}"#,
            ])
    }

    @Test("rmap's re-import leaves the triggers alone; it merges a locally changed row and refreshes its base")
    func reimportBypassesTriggers() async throws {
        let (directory, url) = try store()
        try await run(directory, count: 5)
        try PostgresConnection(url: url).execute("UPDATE people SET first_name = 'Local' WHERE id = 1")

        // The server changed every budget and person 3's name.
        #expect(try await run(directory, count: 5, names: [3: "Server"], budget: 100)?.updated == 5)
        #expect(
            try rows(url, "SELECT id::text, first_name, budget::text FROM people WHERE id IN (1, 3) ORDER BY id") == [
                ["1", "Local", "101.50"], ["3", "Server", "103.50"],
            ])
        // Only the locally changed row has a base: the server's new state.
        #expect(try bases(url) == [["1", "P1", "101.50"]])
        #expect(try rows(url, "SELECT count(*) FROM _rmap_new_people") == [["0"]])
    }

    @Test("a re-import that brings a locally changed row back to the server's state drops its base")
    func reimportSettles() async throws {
        let (directory, url) = try store()
        try await run(directory, count: 3)
        try PostgresConnection(url: url).execute("UPDATE people SET first_name = 'Local' WHERE id = 2")
        #expect(try bases(url).count == 1)
        #expect(try await run(directory, count: 3, names: [2: "Local"])?.unchanged == 3)
        #expect(try bases(url).isEmpty)
    }

    @Test(
        "diff reads the changed rows: an UPDATE, a DELETE and an INSERT by another client; a push acknowledged settles them"
    )
    func diffOfTriggeredChanges() throws {
        let fixture = try SyncFixture(postgres: true)
        for edit in SyncFixture.localEdits { try fixture.sql(edit) }
        #expect(try fixture.lines() == SyncFixture.localEditsPlan)

        let schedule = try fixture.sync.schedule()
        while let (index, request) = schedule.next() {
            schedule.succeeded(index, request: request, answer: nil, location: nil)
        }
        #expect(try fixture.sync.changes().isEmpty)
        let url = try #require(fixture.postgresURL)
        for table in ["people", "projects", "labels"] {
            #expect(try rows(url, "SELECT count(*) FROM _rmap_base_\(table)") == [["0"]])
            #expect(try rows(url, "SELECT count(*) FROM _rmap_new_\(table)") == [["0"]])
        }
    }

    @Test("a link changed by another client captures its source's server state; diff sends the array")
    func joinLinks() async throws {
        let (directory, url) = try store()
        let people = F.crmPeople.replacingOccurrences(
            of: #"{"id": 2, "first_name": "Bob"}"#,
            with: #"{"id": 2, "first_name": "Bob"}, {"id": 3, "first_name": "Cy"}"#)
        try await MappedRun.run(F.crm, [("CRMPerson", people)], kind: .postgres, directory: directory)
        #expect(try rows(url, "SELECT count(*) FROM _rmap_base_projects") == [["0"]])

        try PostgresConnection(url: url).execute(
            "DELETE FROM projects_team_members WHERE project_id = 10 AND team_member_id = 2; "
                + "INSERT INTO projects_team_members (project_id, team_member_id) VALUES (10, 3)")
        #expect(try rows(url, "SELECT id::text, name FROM _rmap_base_projects") == [["10", "Apollo"]])
        let plan = try SyncStore(store: PostgresStore(url: url), model: F.model()).plan().text
        #expect(
            plan
                == """
                PUT /projects/10.json {"project":{"team_member_ids":[1,3]}}
                1 request: 0 POST, 1 PUT, 0 DELETE

                """)
    }

    @Test("the library's own local edits are captured like SQL's")
    func libraryEditsCaptured() throws {
        let fixture = try SyncFixture(postgres: true)
        let url = try #require(fixture.postgresURL)
        #expect(try fixture.sync.changes().isEmpty)
        let person = try #require(try fixture.sync.objects(of: "Person").first { $0.values["id"] == .int(2) })
        _ = try fixture.sync.update(person, ["firstName": .string("Alan M.")])
        #expect(try rows(url, "SELECT id::text, first_name FROM _rmap_base_people") == [["2", "Alan"]])
        #expect(
            try fixture.lines() == [
                #"PUT /people/2.json {"person":{"first_name":"Alan M."}}"#, "1 request: 0 POST, 1 PUT, 0 DELETE",
            ])
    }

    @Test("a local edit in the transaction that creates the tables is captured; every table has its trigger")
    func localEditWhereTablesAreCreated() throws {
        let (_, url) = try store()
        let store = try PostgresStore(url: url)
        let layout = StoreLayout(schema: try F.schema())
        let people = try #require(layout.table(named: "people"))
        let row: [Value] = people.columns.map { column in
            switch column.name {
            case "id": .int(7)
            case "first_name": .string("Local")
            case "type": .string("CRMPerson")
            default: .null
            }
        }
        let engine = try store.engine()
        try engine.transaction {
            try StoreSchema.ensure(layout, on: engine)
            let table = StoredTable(table: people, engine: engine)
            try table.upsert(row.map { $0 == .int(7) ? .int(8) : $0 })
            try engine.setLocalEdits(true)
            try table.upsert(row)
            try engine.setLocalEdits(false)
        }
        // The own write before the edit is the server's state; the edit is noted as a local creation.
        #expect(try rows(url, "SELECT id::text FROM _rmap_new_people") == [["7"]])
        let triggered = try rows(
            url,
            "SELECT c.relname FROM pg_trigger AS t JOIN pg_class AS c ON c.oid = t.tgrelid "
                + "WHERE t.tgname = '_rmap_capture' AND c.relnamespace = current_schema()::regnamespace")
        let expected = layout.tables.map(\.name) + layout.joinTables.map(\.name)
        #expect(Set(triggered.compactMap { $0.first ?? nil }) == Set(expected))
    }

    @Test("a store written before (a base for every row) is brought to the new form once and diffs the same")
    func oldLayoutMigrates() throws {
        let fixture = try SyncFixture(postgres: true)
        let url = try #require(fixture.postgresURL)
        // The previous version's layout: no triggers, no notes, a base for every row except those created locally.
        let client = try PostgresConnection(url: url)
        for table in ["people", "projects", "labels"] {
            try client.execute("DROP FUNCTION _rmap_edit_\(table) CASCADE; DROP TABLE _rmap_new_\(table)")
            let columns = try rows(
                url,
                "SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) FROM information_schema.columns "
                    + "WHERE table_schema = current_schema() AND table_name = '_rmap_base_\(table)'")
            let list = try #require(columns.first?.first ?? nil)
            try client.execute("INSERT INTO _rmap_base_\(table) (\(list)) SELECT \(list) FROM \(table)")
        }
        for edit in SyncFixture.localEdits { try client.execute(edit) }
        #expect(try fixture.lines() == SyncFixture.localEditsPlan)

        // Migrated: bases only for the changed rows, the local creation noted, the triggers in place.
        #expect(try rows(url, "SELECT id::text, first_name FROM _rmap_base_people") == [["1", "Ada"]])
        #expect(try rows(url, "SELECT id::text FROM _rmap_base_projects") == [["11"]])
        #expect(try rows(url, "SELECT count(*) FROM _rmap_base_labels") == [["0"]])
        #expect(try rows(url, "SELECT name FROM _rmap_new_labels") == [["feature"]])
        try client.execute("UPDATE people SET first_name = 'Alan M.' WHERE id = 2")
        #expect(try fixture.lines().count == SyncFixture.localEditsPlan.count + 1)
    }
}
