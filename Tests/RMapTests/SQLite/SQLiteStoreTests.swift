import Foundation
import RMap
import RMapSQLite
import Testing

@Suite("SQLite store")
struct SQLiteStoreTests {
    typealias F = StoreFixtures

    /// Runs `people` (by default ``StoreFixtures/crmPeople``) with the model `yaml` into the SQLite
    /// store in `directory` (its file: `rmap.sqlite`).
    @discardableResult
    private func run(
        _ directory: URL, people: String = F.crmPeople, yaml: String = F.crm, options: RunOptions = RunOptions()
    ) async throws -> RunReport {
        try await MappedRun.run(yaml, [("CRMPerson", people)], kind: .sqlite, directory: directory, options: options)
    }

    /// `name TYPE` for each column of `table`.
    private func columns(_ connection: SQLiteConnection, _ table: String) throws -> [String] {
        try connection.query("SELECT name, type FROM pragma_table_info(?)", [.string(table)]).map { row in
            guard case .text(let name) = row[0], case .text(let type) = row[1] else { return "?" }
            return "\(name) \(type)"
        }
    }

    /// Every row of every table, as text: what a failed write must leave as it was.
    private func dump(_ path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path)
        var lines: [String] = []
        for row in try connection.query("SELECT name, sql FROM sqlite_master ORDER BY name") {
            lines.append("\(row)")
            guard case .text(let name) = row[0], case .text(let sql) = row[1], sql.hasPrefix("CREATE TABLE") else {
                continue
            }
            // Sorted as text: some tables have a single column (`_rmap_new_people`).
            lines += try connection.query("SELECT * FROM \"\(name)\"").map { "\(name): \($0)" }.sorted()
        }
        return lines
    }

    @Test("tables, columns and column types are those of MAPPING.md §5")
    func tableInfo() async throws {
        let directory = try F.temporaryDirectory()
        try await run(directory)
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("rmap.sqlite").path)
        let people = [
            "id INTEGER", "first_name TEXT", "address_city TEXT", "budget TEXT", "admin INTEGER", "born_on TEXT",
            "seen_at TEXT", "score REAL", "tags TEXT", "raw TEXT", "homepage TEXT", "level INTEGER", "type TEXT",
        ]
        #expect(try columns(connection, "people") == people)
        #expect(try columns(connection, "_rmap_base_people") == people)
        #expect(
            try columns(connection, "projects") == [
                "id INTEGER", "name TEXT", "person_id INTEGER", "team_member_ids TEXT", "owner_id INTEGER",
            ])
        #expect(try columns(connection, "projects_team_members") == ["project_id INTEGER", "team_member_id INTEGER"])
        let indexes = try connection.query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'projects'")
        #expect(indexes.contains([.text("index_projects_on_owner_id")]))
        // Built at commit, after the rows (a sorted build): there all the same.
        let joinIndexes = try connection.query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'projects_team_members' AND sql IS NOT NULL"
        )
        #expect(joinIndexes == [[.text("index_projects_team_members_on_team_member_id")]])
        let unique = try connection.query(
            "SELECT il.\"unique\", ii.name FROM pragma_index_list('people') il, pragma_index_info(il.name) ii")
        #expect(unique == [[.integer(1), .text("id")]])
    }

    @Test(
        "each type is stored in its form: decimal digits as received, bool 0/1, dates and date-times as UTC text, JSON text"
    )
    func storedForms() async throws {
        let directory = try F.temporaryDirectory()
        let person = #"""
            [{"id": 1, "first_name": "", "budget": 12.50, "admin": true, "born_on": "1990-04-01",
              "seen_at": "2024-01-02T04:04:05.12+01:00", "score": 2.5, "tags": ["a", "b\""],
              "raw": {"k": [1, 2.50], "s": "x"}, "homepage": "https://x.test"}]
            """#
        try await run(directory, people: person)
        let row = try SQLiteConnection(path: directory.appendingPathComponent("rmap.sqlite").path).query(
            "SELECT first_name, budget, admin, born_on, seen_at, score, tags, raw, homepage, level, type FROM people")
        #expect(
            row == [
                [
                    .text(""), .text("12.50"), .integer(1), .text("1990-04-01"), .text("2024-01-02T03:04:05.120Z"),
                    .real(2.5),
                    .text(#"["a","b\""]"#), .text(#"{"k":[1,2.50],"s":"x"}"#), .text("https://x.test"), .null,
                    .text("Person"),
                ]
            ])
        let again = try await run(directory, people: person)
        #expect(again.entities.first { $0.entity == "CRMPerson" }?.unchanged == 1)
    }

    @Test("join tables hold the links and are replaced for the objects of a run")
    func joinTables() async throws {
        let directory = try F.temporaryDirectory()
        try await run(directory)
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("rmap.sqlite").path)
        let links = "SELECT project_id, team_member_id FROM projects_team_members ORDER BY 1, 2"
        #expect(try connection.query(links) == [[.integer(10), .integer(1)], [.integer(10), .integer(2)]])
        #expect(try connection.query("SELECT owner_id, person_id FROM projects") == [[.integer(1), .integer(2)]])

        try await run(directory, people: F.crmPeople.replacingOccurrences(of: "[1, 2]", with: "[2]"))
        #expect(try connection.query(links) == [[.integer(10), .integer(2)]])
    }

    @Test("a failed write leaves every table, row and column as before")
    func failedWriteRollsBack() async throws {
        let directory = try F.temporaryDirectory()
        let path = directory.appendingPathComponent("rmap.sqlite").path
        try await run(directory)
        try SQLiteStore(path: path).edit(try F.schema(), "CRMProject", id: 10, "name", .string("Local"))
        let before = try dump(path)

        // A grown model (new column), new and changed people merged first, then a conflict in projects.
        let grown = F.crm.replacingOccurrences(
            of: "      name: string\n", with: "      name: string\n      dueOn: date\n")
        let people = F.crmPeople.replacingOccurrences(of: #""Ann""#, with: #""Changed""#)
            .replacingOccurrences(of: #""Apollo""#, with: #""Remote""#)
            .replacingOccurrences(
                of: #"{"id": 2, "first_name": "Bob"}"#,
                with: #"{"id": 2, "first_name": "Bob"}, {"id": 3, "first_name": "Cy"}"#)
        await #expect(throws: ConflictError.self) { try await run(directory, people: people, yaml: grown) }
        #expect(try dump(path) == before)
        #expect(!before.isEmpty)
    }

    @Test("a dry run leaves the file as before, even its schema")
    func dryRunWritesNothing() async throws {
        let directory = try F.temporaryDirectory()
        let report = try await run(directory, options: RunOptions(dryRun: true))
        #expect(report.entities.first { $0.entity == "CRMProject" }?.inserted == 1)
        let path = directory.appendingPathComponent("rmap.sqlite").path
        #expect(try SQLiteConnection(path: path).query("SELECT name FROM sqlite_master").isEmpty)
    }

    @Test("':memory:' opens a private in-memory database")
    func inMemory() async throws {
        let store = try SQLiteStore(path: ":memory:")
        let opened = Locked(store)
        try await F.runCRM(StoreKind(description: ":memory:") { _ in opened.withLock { $0 } }, F.temporaryDirectory())
        #expect(try store.connection.query("SELECT count(*) FROM people") == [[.integer(2)]])
        // Another store of ':memory:' is another database.
        #expect(
            try SQLiteStore(path: ":memory:").connection.query("SELECT count(*) FROM sqlite_master") == [[.integer(0)]])
    }

    @Test("the sqlite plugin is registered with its path and busy_timeout options")
    func plugin() async throws {
        let path = try F.temporaryDirectory().appendingPathComponent("plugin.sqlite").path
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        #expect(registry.catalog.stores["sqlite"] == ["path", "busy_timeout"])
        func load(store: String) throws -> MappingModel {
            try MappingLoader(catalog: registry.catalog).load(documents: [("test.yml", F.crm + "\nstore: \(store)\n")])
        }
        let model = try load(store: "{ plugin: sqlite, path: \(path), busy_timeout: 0.25 }")
        let config = try #require(model.store)
        let store = try #require(try registry.makeStore(config) as? SQLiteStore)
        #expect(store.connection.busyTimeout == .milliseconds(250))
        let opened = Locked(store)
        try await F.runCRM(StoreKind(description: "plugin") { _ in opened.withLock { $0 } }, F.temporaryDirectory())
        #expect(try SQLiteConnection(path: path).query("SELECT id FROM projects") == [[.integer(10)]])
        let wrong = try #require(try load(store: "{ plugin: sqlite, path: \(path), busy_timeout: soon }").store)
        let error = try #require(throws: PluginError.self) { try registry.makeStore(wrong) }
        let problem = "'busy_timeout' must be a number of seconds (0 or more), found 'soon'"
        #expect(error.kind == .invalidOptions(problem: problem))
        #expect(error.mark?.file == "test.yml")
        #expect(error.description == "\(try #require(error.mark)): \(problem)")
    }
}
