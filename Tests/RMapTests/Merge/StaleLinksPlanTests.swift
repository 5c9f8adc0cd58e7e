import Testing

@testable import RMap

/// A run that replaces the links of sources a join table holds already asks whether any stored
/// link is no longer wanted (``LinkMerge``). SQLite, which has no hash join, looked up each stored
/// link in the run's links read through a `DISTINCT`, from the join table's side: the nested
/// benchmark's second run spent 3.6 s of its 10 on that question alone. Now the stored links are
/// read through the run's merged rows, and the run's links through an index.
@Suite("Stale links found through indexes")
struct StaleLinksPlanTests {
    @Test("a second run looks each stored link up in the run's links by index, from the merged rows")
    func staleLinksAreLookedUpByIndex() async throws {
        let teams = (1...50).map { #"{"id": \#($0), "member_ids": [1, 2, 3]}"# }.joined(separator: ", ")
        let workspace = try RunWorkspace([
            "people.json": #"[{"id": 1}, {"id": 2}, {"id": 3}]"#,
            "teams.json": "[\(teams)]",
            "m.yml": """
            rmap: 1
            source: { plugin: file, path: "{collection}.json" }
            entities:
              Person:
                attributes: { id: int }
              Team:
                attributes: { id: int, memberIds: [int] }
                relationships:
                  members: { to_many: Person, connect: { foreign_key: { memberIds: id } } }
            """,
        ])
        // The stale links are asked about before the missing ones.
        let store = PlannedStore(file: workspace.path("rmap.sqlite")) { asked in
            asked.first { $0.contains(#""teams_members" AS j"#) }
        }
        try await store.run(mapping: workspace.path("m.yml"))
        try workspace.write("teams.json", #"[{"id": 7, "member_ids": [1, 3]}]"#)
        try await store.run(mapping: workspace.path("m.yml"))
        let plans = store.plans.withLock { $0 }
        try #require(plans.count == 2)
        #expect(plans[0].isEmpty, "an empty join table has no stale links to ask about: \(plans[0])")
        let plan = plans[1].joined(separator: "\n")
        #expect(plan.contains("_rmap_links_0_link"), "\(plan)")
        #expect(!plan.contains("DISTINCT") && !plan.contains("SCAN j"), "\(plan)")
        let stored = try store.engine().rows(
            #"SELECT "member_id" FROM "teams_members" WHERE "team_id" = 7 ORDER BY "member_id""#, types: [.int])
        #expect(stored == [[.int(1)], [.int(3)]], "the stale link to 2 is deleted")
        #expect(try store.engine().count(#"SELECT count(*) FROM "teams_members""#) == 149)
    }
}
