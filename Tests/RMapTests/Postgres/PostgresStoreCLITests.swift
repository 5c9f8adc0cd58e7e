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
    private func objects(_ store: any Store, _ schema: GraphSchema) throws -> [String: [String: StoredObject]] {
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

    /// An object met several times in one run: later keys win, missing ones keep what an earlier
    /// record said, `null` clears, a typed record makes it a sub-entity, a nested child moves to
    /// its last parent. PostgreSQL merges the occurrences without updating a row twice.
    @Test func anObjectMetSeveralTimesMergesAsInSQLite() async throws {
        let workspace = try RunWorkspace([
            "m.yml": """
            rmap: 1
            source: { plugin: file, path: "{collection}.json" }
            entities:
              Person:
                type_key: type
                attributes: { id: int, name: string, city: string, budget: decimal, score: double, seen: date }
                relationships:
                  projects: { to_many: Project, nested: true, inverse: owner }
              Admin:
                extends: Person
                attributes: { level: int }
              Project:
                source: false
                attributes: { id: int, title: string }
                relationships:
                  owner: { to_one: Person, inverse: projects }
            """,
            "people.json": """
            [{"id": 1, "name": "Ann", "city": "Oslo", "budget": "1.50", "projects": [{"id": 10, "title": "A"}]},
             {"id": 1, "type": "Admin", "level": 3, "city": null, "score": 0.5},
             {"id": 2, "name": "Bob", "projects": [{"id": 10, "title": "A2"}, {"id": 11}]},
             {"id": 1, "budget": "1.5", "seen": "2024-02-29"},
             {"id": 3, "name": "Cy"}, {"id": 3, "city": "Rome"}]
            """,
        ])
        let url = try PostgresSchemas.url(for: workspace.url)
        let sqlite = "sqlite:\(workspace.path("rmap.sqlite"))"
        let runs = [
            try await workspace.rmap(["run", "m.yml", "--store", url]),
            try await workspace.rmap(["run", "m.yml", "--store", sqlite]),
        ]
        #expect(runs.map(\.status) == [0, 0], "\(runs.map(\.stderr))")
        #expect(runs[0].stdout == runs[1].stdout)
        let schema = try workspace.schema("m.yml")
        let stored = try objects(try PostgresStore(url: url), schema)
        #expect(stored == (try objects(try SQLiteStore(path: workspace.path("rmap.sqlite")), schema)))
        let ann = try #require(stored["Person"]?["1"])
        #expect(ann.entity == "Admin")
        #expect(
            ann.values?.map(ValueText.display).joined(separator: " ") == "1 Ann null 1.5 0.5 2024-02-29 3 Admin",
            "\(ann)")
        #expect(stored["Project"]?["10"]?.values?.map(ValueText.display).joined(separator: " ") == "10 A2 2")
        let rerun = try await workspace.rmap(["run", "m.yml", "--store", url])
        #expect(rerun.stdout.contains("total          9         0        0          5"), "\(rerun.stdout)")
    }

    @Test func anUnreachableServerFailsTheRunWithoutThePassword() async throws {
        let result = try await run(store: "postgres://rmap:pa55-unreachable@127.0.0.1:1/rmap_test")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(#"Error: PostgreSQL connection failed on database "rmap_test" on 127.0.0.1:1"#))
        #expect(!result.stderr.contains("pa55-unreachable"))
    }
}
