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

    @Test func theIndexesOfNewTablesAreBuiltAtCommitUnderTheStoresNames() throws {
        let (engine, connection) = try open()
        let layout = StoreLayout(schema: try F.schema())
        try engine.begin(.write)
        try StoreSchema.ensure(layout, on: engine)
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

    @Test func aRolledBackSchemaLeavesNothingToBuildAtTheNextCommit() throws {
        let (engine, connection) = try open()
        let layout = StoreLayout(schema: try F.schema())
        try engine.begin(.write)
        try StoreSchema.ensure(layout, on: engine)
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
