import Foundation
import RMapPostgres
import Testing

@testable import RMap

/// What PostgreSQL's engine does beyond the conformance suite: when the indexes of new tables
/// are built, and how its errors name the statement.
@Suite("PostgresEngine")
struct PostgresEngineTests {
    typealias F = StoreFixtures

    private func open() throws -> (PostgresEngine, PostgresConnection) {
        let url = try PostgresSchemas.url(for: F.temporaryDirectory())
        return (try PostgresEngine(connection: PostgresConnection(url: url)), try PostgresConnection(url: url))
    }

    /// A new store's engine in a write transaction that has just made the fixture's tables.
    private func openMakingTables() throws -> (PostgresEngine, PostgresConnection, StoreLayout) {
        let (engine, connection) = try open()
        let layout = StoreLayout(schema: try F.schema())
        try engine.begin(.write)
        try StoreSchema.ensure(layout, on: engine)
        return (engine, connection, layout)
    }

    @Test func theIndexesOfNewTablesAreBuiltAtCommitUnderTheStoresNames() throws {
        let (engine, connection, layout) = try openMakingTables()
        // Inside the transaction the join table has no key yet, and the foreign key no index.
        #expect(
            try engine.count(
                "SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'projects_team_members'"
            ) == 0)
        #expect(
            try engine.count(
                "SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'index_projects_on_owner_id'"
            ) == 0)
        try engine.insert(
            into: "projects_team_members", columns: layout.joinTables[0].columns, rows: [[.int(10), .int(1)]])
        try engine.commit()
        for (table, indexes) in PostgresStoreSchemaTests.projectIndexes {
            #expect(try PostgresSchemas.indexes(connection, table) == indexes)
        }
    }

    /// The unique constraints on `table`, by name.
    private func uniqueKeys(of table: String, on engine: PostgresEngine) throws -> [Value] {
        try engine.rows(
            "SELECT conname FROM pg_constraint WHERE conrelid = ?::regclass AND contype = 'u' ORDER BY 1",
            [.string(table)], types: [.string]
        ).flatMap { $0 }
    }

    /// Whether `table`'s base capture trigger is on.
    private func capturing(_ table: String, on engine: PostgresEngine) throws -> Bool {
        try engine.count(
            "SELECT count(*) FROM pg_trigger WHERE tgrelid = ?::regclass AND tgname = '_rmap_capture' AND tgenabled = 'O'",
            [.string(table)]) == 1
    }

    @Test func aNewTablesIdentityAndTriggersAreSetAsideForABulkInsertAndBackRightAfterIt() throws {
        let (engine, _, layout) = try openMakingTables()
        let projects = try #require(layout.tables.first { $0.name == "projects" })
        let row = { (id: Int64) in projects.columns.map { $0.name == "id" ? Value.int(id) : .null } }
        try engine.willInsert(into: "projects") { PostgresEngine.bulkInsertRows - 1 }
        #expect(try uniqueKeys(of: "projects", on: engine) == [.string("projects_id_key")])
        #expect(try capturing("projects", on: engine))
        try engine.willInsert(into: "projects") { PostgresEngine.bulkInsertRows }
        #expect(try uniqueKeys(of: "projects", on: engine).isEmpty)
        #expect(try !capturing("projects", on: engine))
        try engine.insert(into: "projects", columns: projects.columns, rows: [row(1), row(2)])
        try engine.didInsert(into: "projects")
        #expect(try capturing("projects", on: engine))
        // Back before the commit, under its name, and enforced: the statements after the insert upsert on it.
        #expect(try uniqueKeys(of: "projects", on: engine) == [.string("projects_id_key")])
        #expect(throws: PostgresError.self) {
            try engine.execute("INSERT INTO projects (id) VALUES (1)")
        }
        engine.rollback()
    }

    @Test func whatABulkInsertSetAsideIsBackAtCommitWithoutBeingAskedFor() throws {
        let (engine, connection, _) = try openMakingTables()
        for table in ["projects", "projects_team_members"] {
            try engine.willInsert(into: table) { PostgresEngine.bulkInsertRows }
            #expect(try !capturing(table, on: engine))
        }
        try engine.commit()
        for table in ["projects", "projects_team_members"] { #expect(try capturing(table, on: engine)) }
        for (table, indexes) in PostgresStoreSchemaTests.projectIndexes {
            #expect(try PostgresSchemas.indexes(connection, table) == indexes)
        }
    }

    @Test func aTableThatWasNotMadeInTheTransactionKeepsItsIdentityForABulkInsert() throws {
        let (engine, _) = try open()
        let layout = StoreLayout(schema: try F.schema())
        try engine.transaction { try StoreSchema.ensure(layout, on: engine) }
        try engine.begin(.write)
        try engine.willInsert(into: "projects") { PostgresEngine.bulkInsertRows }
        #expect(try uniqueKeys(of: "projects", on: engine) == [.string("projects_id_key")])
        #expect(try capturing("projects", on: engine))
        engine.rollback()
    }

    @Test func aRolledBackSchemaLeavesNothingToBuildAtTheNextCommit() throws {
        let (engine, connection, _) = try openMakingTables()
        engine.rollback()
        try engine.transaction { _ = try engine.execute("CREATE TABLE other (id bigint)") }
        #expect(try PostgresSchemas.indexes(connection, "projects").isEmpty)
        #expect(try engine.columns(of: "other") == ["id"])
    }

    @Test func anErrorNamesTheStatementAsSent() throws {
        let (engine, _) = try open()
        let error = try #require(throws: PostgresError.self) {
            try engine.execute("SELECT '?' FROM missing WHERE id = ?", [.int(1)])
        }
        #expect(error.sqlState == "42P01")
        #expect(error.statement == "SELECT '?' FROM missing WHERE id = $1")
        #expect(error.description.hasSuffix("(in SELECT '?' FROM missing WHERE id = $1)"))
        let copy = try #require(throws: PostgresError.self) {
            try engine.insert(
                into: "missing", columns: [ColumnLayout(name: "id", type: .int)], rows: (0..<100).map { [.int($0)] })
        }
        #expect(copy.statement == #"COPY "missing" ("id") FROM STDIN"#)
    }
}
