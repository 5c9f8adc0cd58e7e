import Foundation
import RMap
import RMapPostgres
import RMapSQLite
import Testing

/// `rmap run --store postgres://...` end to end, against the same run into SQLite.
@Suite("PostgresStore command line")
struct PostgresStoreCLITests {
    typealias F = StoreFixtures

    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let mappings = ["mappings/crm.yml", "mappings/work.yml"].map {
        repository.appendingPathComponent($0).path
    }

    private func run(store: String) async throws -> CLIResult {
        try await CLIRunner.run(["run"] + Self.mappings + ["--store", store, "--quiet"], in: Self.repository)
    }

    /// Each object as (entity, values, base), by identity: what two stores holding the same data agree on.
    private func objects(_ store: any BackendStore, _ schema: GraphSchema) throws -> [String: [String: StoredObject]] {
        var result: [String: [String: StoredObject]] = [:]
        let objects = store.objects(schema: schema)
        for root in schema.roots {
            let table = objects.layout.table(of: root)
            for var object in try objects.rows(of: root.name) {
                object.reference = nil
                let values = object.values ?? object.base ?? []
                result[root.name, default: [:]][
                    table.identityValues(of: values).map(ValueText.display).joined(separator: "/")] = object
            }
        }
        return result
    }

    @Test func theExampleLoadsTheSameRowsAsIntoSQLite() async throws {
        let directory = try F.temporaryDirectory()
        let url = try PostgresSchemas.url(for: directory)
        let file = directory.appendingPathComponent("rmap.sqlite").path

        let postgres = try await run(store: url)
        let sqlite = try await run(store: "sqlite:\(file)")
        #expect(postgres.status == 0, "\(postgres.stderr)")
        #expect(postgres.stdout == sqlite.stdout)
        #expect(postgres.stdout.contains("CRMTask"))

        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        registry.registerPostgres()
        let schema = GraphSchema(model: try MappingLoader(catalog: registry.catalog).load(Self.mappings))
        let postgresStore = try PostgresStore(url: url)
        let sqliteStore = try SQLiteStore(path: file)
        let stored = try objects(postgresStore, schema)
        #expect(stored["CRMPerson"]?.count == 12)
        #expect(stored["CRMTask"]?.count == 40)
        #expect(stored == (try objects(sqliteStore, schema)))

        for join in StoreLayout(schema: schema).joinTables {
            let columns = join.columns.map { PostgresConnection.quoteIdentifier($0.name) }.joined(separator: ", ")
            let sql = "SELECT \(columns) FROM \(PostgresConnection.quoteIdentifier(join.name))"
            let links = try postgresStore.connection.query(sql).rows.map { $0.map { $0 ?? "null" } }
            let sqliteLinks = try sqliteStore.connection.query(sql).map { row in
                row.map { value in
                    switch value {
                    case .integer(let number): String(number)
                    case .text(let text): text
                    default: "\(value)"
                    }
                }
            }
            #expect(!links.isEmpty)
            #expect(
                links.sorted { $0.lexicographicallyPrecedes($1) }
                    == sqliteLinks.sorted { $0.lexicographicallyPrecedes($1) })
        }

        let rerun = try await run(store: url)
        #expect(rerun.status == 0)
        await #expect(rerun.stdout == (try run(store: "sqlite:\(file)")).stdout)
        #expect(rerun.stdout.contains("total            67         0        0         67"))
    }

    @Test func anUnreachableServerFailsTheRunWithoutThePassword() async throws {
        let result = try await run(store: "postgres://rmap:pa55-unreachable@127.0.0.1:1/rmap_test")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(#"Error: PostgreSQL connection failed on database "rmap_test" on 127.0.0.1:1"#))
        #expect(!result.stderr.contains("pa55-unreachable"))
    }
}
