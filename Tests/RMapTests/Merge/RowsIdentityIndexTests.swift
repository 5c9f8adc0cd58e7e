import Testing

@testable import RMap

/// A run's merged rows are indexed by identity when the store's table holds objects already
/// (``RowCollapse/indexIdentity(on:)``): statements over the stored objects (orphans, released
/// children, deletions) look up each one's merged row, and SQLite, which has no hash join, read
/// every merged row for each stored object without the index (a second nested run of 10,000
/// people took 281 s, its first 0.74 s).
@Suite("Merged rows indexed by identity")
struct RowsIdentityIndexTests {
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
        // How SQLite finds the merged row of each stored person.
        let store = PlannedStore(file: workspace.path("rmap.sqlite")) { _ in
            #"SELECT 1 FROM "people" AS d WHERE NOT EXISTS (SELECT 1 FROM "_rmap_rows_0" AS r WHERE r."id" = d."id")"#
        }
        try await store.run(mapping: workspace.path("m.yml"))
        try workspace.write("people.json", #"[{"id": 2, "name": "Grace Hopper"}]"#)
        let second = try await store.run(mapping: workspace.path("m.yml"))
        #expect(second.report.totals.updated == 1)
        let plans = store.plans.withLock { $0 }
        try #require(plans.count == 2)
        #expect(
            !plans[0].contains { $0.contains("_rmap_rows_0_identity") }, "the first run stores nothing yet: \(plans[0])"
        )
        #expect(plans[1].contains { $0.contains("_rmap_rows_0_identity") }, "\(plans[1])")
    }
}
