import Foundation
import Testing

@testable import RMap

/// `modified_by` (issue 33, item 2): a record whose modification attribute is older than the stored
/// object's is skipped and counted as stale, an equal one is unchanged, a newer one is merged;
/// RestKit's `modificationAttribute`, translated from RKManagedObjectMappingOperationDataSourceTest
/// and run with the `rmap` binary into SQLite and PostgreSQL.
@Suite("modified_by: stale records")
struct StaleRecordTests {
    static let mapping = """
        rmap: 1
        source: { plugin: file, path: "{collection}.json" }
        entities:
          Human:
            identity: railsID
            collection: humans
            modified_by: updatedAt
            orphans: delete
            attributes: { railsID: int, name: string, updatedAt: datetime }
            relationships:
              cats: { to_many: Cat, nested: true }
          Robot:
            modified_by: version
            attributes: { id: int, name: string, version: int }
          Cat:
            source: false
            identity: name
            attributes: { name: string }
        """

    /// Each stored human's name and cats, by id.
    private func humans(_ engine: CLIStore, _ workspace: RunWorkspace) throws -> [String: String] {
        let schema = try workspace.schema("map.yml")
        let objects = try engine.open(workspace).objects(schema: schema)
        let cats = try objects.links(of: "Human", "cats")
        var found: [String: String] = [:]
        for object in try objects.rows(of: "Human") {
            guard let values = object.values, case .int(let id) = values[0], case .string(let name) = values[1] else {
                continue
            }
            let names = (cats[IdentityKey([.int(id)])] ?? []).map(\.description).sorted()
            found["\(id)"] = ([name] + names).joined(separator: " ")
        }
        return found
    }

    private func run(_ humans: String, robots: String = "[]", _ workspace: RunWorkspace, _ url: String) async throws
        -> RunJSON
    {
        try workspace.write("humans.json", humans)
        try workspace.write("robots.json", robots)
        return try await ReplacedNestedObjectTests.run(workspace, url)
    }

    @Test(
        "testThatDateDecensionCausesSkipPropertyMappingToReturnYES, testThatDateEqualityCausesSkipPropertyMappingToReturnYES, testThatDateAscensionCausesSkipPropertyMappingToReturnNO",
        arguments: CLIStore.allCases)
    func dates(engine: CLIStore) async throws {
        let workspace = try RunWorkspace(["map.yml": Self.mapping])
        let url = try engine.url(for: workspace)
        _ = try await run(
            #"""
            [{"rails_id": 1, "name": "Blake", "updated_at": "2024-05-02T10:00:00Z", "cats": [{"name": "Lola"}]},
             {"rails_id": 2, "name": "Sarah", "updated_at": "2024-05-02T10:00:00Z"},
             {"rails_id": 3, "name": "Colin", "updated_at": "2024-05-02T10:00:00Z"},
             {"rails_id": 4, "name": "Monkey"}]
            """#, workspace, url)

        // Blake's record is a day older (his cats are left as they were too), Sarah's as old (a name that differs is
        // not taken), Colin's newer; Monkey's stored object has no date, and record 5 is new. Blake and
        // Sarah are no orphans for being skipped.
        let report = try await run(
            #"""
            [{"rails_id": 1, "name": "Old Blake", "updated_at": "2024-05-01T10:00:00Z", "cats": [{"name": "Roy"}]},
             {"rails_id": 2, "name": "Same Sarah", "updated_at": "2024-05-02T10:00:00Z"},
             {"rails_id": 3, "name": "New Colin", "updated_at": "2024-05-02T10:00:00.001Z"},
             {"rails_id": 4, "name": "Monkey II", "updated_at": "2024-01-01T00:00:00Z"},
             {"rails_id": 5, "name": "Zach", "updated_at": "2020-01-01T00:00:00Z"}]
            """#, workspace, url)
        #expect(
            try humans(engine, workspace) == [
                "1": "Blake Lola", "2": "Sarah", "3": "New Colin", "4": "Monkey II", "5": "Zach",
            ])
        let counts = report.counts("Human")
        #expect(counts["stale"] == 1)
        #expect(counts["unchanged"] == 1)
        #expect(counts["updated"] == 2)
        #expect(counts["inserted"] == 1)
        #expect(counts["orphans_deleted"] == 0)
        #expect(report.totals["stale"] == 1)
        // Roy, nested in the stale record, is stored as an object of its own, linked to no one.
        #expect(try ReplacedNestedObjectTests.stored("Cat", engine, workspace) == ["Lola", "Roy"])

        // A record without the attribute is merged as usual.
        _ = try await run(#"[{"rails_id": 1, "name": "Blake B."}]"#, workspace, url)
        #expect(try humans(engine, workspace)["1"] == "Blake B. Lola")
    }

    @Test(
        "testThatNumericDecensionCausesSkipPropertyMappingToReturnYES, testThatNumericAscensionCausesSkipPropertyMappingToReturnNO",
        arguments: CLIStore.allCases)
    func numbers(engine: CLIStore) async throws {
        let workspace = try RunWorkspace(["map.yml": Self.mapping])
        let url = try engine.url(for: workspace)
        _ = try await run(
            "[]", robots: #"[{"id": 1, "name": "R2", "version": 10}, {"id": 2, "name": "C3", "version": 9}]"#,
            workspace, url)
        let report = try await run(
            "[]", robots: #"[{"id": 1, "name": "R1", "version": 9}, {"id": 2, "name": "C4", "version": 10}]"#,
            workspace, url)
        #expect(report.counts("Robot")["stale"] == 1)
        #expect(report.counts("Robot")["updated"] == 1)
        let rows = try engine.open(workspace).objects(schema: workspace.schema("map.yml")).rows(of: "Robot")
        #expect(Set(rows.compactMap { $0.values?[1] }) == [.string("R2"), .string("C4")])
    }

    @Test("the table shows a stale column when a record was skipped")
    func table() async throws {
        let workspace = try RunWorkspace(["map.yml": Self.mapping])
        _ = try await run("[]", robots: #"[{"id": 1, "name": "R2", "version": 10}]"#, workspace, "sqlite:rmap.sqlite")
        try workspace.write("robots.json", #"[{"id": 1, "name": "R1", "version": 9}]"#)
        let result = try await workspace.rmap(["run", "map.yml", "--store", "sqlite:rmap.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        let header = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.hasSuffix("stale"), "\(result.stdout)")
        #expect(
            result.stdout.contains { $0 == "\n" }
                && result.stdout.split(separator: "\n").contains { $0.hasPrefix("Robot") && $0.hasSuffix("1") })
    }

    @Test("modified_by names an attribute with an order")
    func validation() {
        #expect(
            LoaderHarness.issues(
                """
                rmap: 1
                entities:
                  A:
                    modified_by: updatedAd
                    attributes: { id: int, updatedAt: datetime }
                  B:
                    modified_by: done
                    attributes: { id: int, done: bool }
                """) == [
                    "mappings/crm.yml:4:18: unknown attribute 'updatedAd' in 'modified_by' of 'A' (did you mean 'updatedAt'?)",
                    "mappings/crm.yml:7:18: 'modified_by' of 'B' needs an attribute of type int, double, decimal, date, datetime or string: 'done' is bool",
                ])
    }
}
