import Foundation
import RMapSQLite
import Testing

@testable import RMap

/// A run's merged rows are indexed by identity when the store's table holds objects already
/// (``RowCollapse/indexIdentity(on:)``): statements over the stored objects (orphans, released
/// children, deletions) look up each one's merged row, and SQLite, which has no hash join, read
/// every merged row for each stored object without the index (a second nested run of 10,000
/// people took 281 s, its first 0.74 s).
@Suite("Merged rows indexed by identity")
struct RowsIdentityIndexTests {
    /// A SQLite store that, before each write transaction commits, asks SQLite how it would find
    /// the merged row of each stored person.
    final class PlanStore: Store, @unchecked Sendable {
        /// The steps of each committed write's plan.
        let plans = Locked<[[String]]>([])
        private let file: String
        private var recording: RecordingEngine?

        init(file: String) { self.file = file }

        func engine() throws -> any SQLEngine {
            if let recording { return recording }
            let engine = RecordingEngine(try SQLiteStore(path: file).engine())
            engine.willCommitWrite = { [plans] sqlite in
                let plan = try sqlite.rows(
                    "EXPLAIN QUERY PLAN SELECT 1 FROM \"people\" AS d "
                        + "WHERE NOT EXISTS (SELECT 1 FROM \"_rmap_rows_0\" AS r WHERE r.\"id\" = d.\"id\")",
                    types: [.int, .int, .int, .string])
                let steps = plan.compactMap { row -> String? in
                    if case .string(let step)? = row.last { step } else { nil }
                }
                plans.withLock { $0.append(steps) }
            }
            recording = engine
            return engine
        }
    }

    @Test("a run into a table holding many objects finds each stored object's merged row through an index")
    func storedObjectsFindTheirRowsByIndex() async throws {
        let workspace = try RunWorkspace([
            "people.json": "["
                + (1...RowCollapse.indexedFrom).map { #"{"id": \#($0), "name": "P\#($0)"}"# }
                .joined(separator: ", ") + "]",
            "m.yml": """
            rmap: 1
            source: { plugin: file, path: people.json }
            entities:
              Person:
                attributes: { id: int, name: string }
            """,
        ])
        let store = PlanStore(file: workspace.path("rmap.sqlite"))
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        registry.register(store: "planned", options: []) { _ in store }
        let model = try MappingLoader(environment: [:], catalog: registry.catalog).load([workspace.path("m.yml")])
        var options = RunOptions()
        options.store = PluginConfig(plugin: "planned")
        try await Pipeline(model: model, registry: registry).run(options)
        try workspace.write("people.json", #"[{"id": 2, "name": "Grace Hopper"}]"#)
        let second = try await Pipeline(model: model, registry: registry).run(options)
        #expect(second.report.totals.updated == 1)
        let plans = store.plans.withLock { $0 }
        try #require(plans.count == 2)
        #expect(
            !plans[0].contains { $0.contains("_rmap_rows_0_identity") }, "the first run stores nothing yet: \(plans[0])"
        )
        #expect(plans[1].contains { $0.contains("_rmap_rows_0_identity") }, "\(plans[1])")
    }
}
