import Foundation
import RMapSQLite
import Testing

/// `rmap run`'s options end to end: `--dry-run`, `--only`, `--json`, `--quiet`,
/// progress on stderr, the summary table on stdout, and exit statuses.
@Suite("rmap run: options and output")
struct RunCommandTests {
    @Test("the summary table on stdout, progress lines on stderr, exit 0")
    func tableAndProgress() async throws {
        let workspace = try RunWorkspace.crm()
        let result = try await workspace.rmap(["run", "crm.yml"])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                entity      fetched  inserted  updated  unchanged  rejected  dangling  deleted  unmapped
                CRMPerson         1         1        0          0         0         0        0         0
                CRMAdmin          1         1        0          0         0         0        0         1
                CRMNote           1         1        0          0         0         0        0         0
                CRMProject        2         2        0          0         0         0        0         0
                total             5         5        0          0         0         0        0         1

                """)
        // Without times: `fetch: done in 0.01s`, `fetched CRMPerson: 2 records from ... in 0.01s, 200 records/s`.
        let lines = result.stderr.split(separator: "\n").map { String($0.replacing(/\ in \d+\.\d\ds.*$/, with: "")) }
        #expect(lines.first == "load: started")
        #expect(lines.last == "persist: done")
        for expected in [
            "fetch: started", "fetched CRMPerson: 2 records and 1 nested CRMNote from data/people.json (634 B)",
            "fetched CRMProject: 2 records from data/projects.json (109 B)", "fetch: done", "connect: started",
            "connect: done", "persist: started",
        ] {
            #expect(lines.contains(expected), "\(expected) in \(lines)")
        }
        #expect(lines.firstIndex(of: "fetch: done")! < lines.firstIndex(of: "connect: started")!)
        #expect(lines.firstIndex(of: "connect: done")! < lines.firstIndex(of: "persist: started")!)
    }

    @Test("--quiet prints no progress: stderr stays empty on success")
    func quiet() async throws {
        let workspace = try RunWorkspace.crm()
        let result = try await workspace.rmap(["run", "crm.yml", "--quiet"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.hasPrefix("entity "))
    }

    @Test("--dry-run reports what it would write and writes nothing")
    func dryRun() async throws {
        let workspace = try RunWorkspace.crm()
        let fresh = try await workspace.rmap(["run", "crm.yml", "--quiet", "--dry-run"])
        #expect(fresh.status == 0)
        #expect(
            fresh.stdout.hasSuffix(
                "total             5         5        0          0         0         0        0         1\ndry run: nothing was written\n"
            ))
        #expect(try workspace.tables() == [])

        #expect(try await workspace.rmap(["run", "crm.yml", "--quiet"]).status == 0)
        let before = try #require(workspace.bytes())
        try workspace.write(
            "data/projects.json", #"[{"id": 5, "name": "Turbine", "person_id": 1}, {"id": 8, "name": "New"}]"#)
        let result = try await workspace.rmap(["run", "crm.yml", "--json", "--dry-run"])
        #expect(result.status == 0)
        let report = try RunJSON(result.stdout)
        #expect(report.document["dry_run"] as? Bool == true)
        #expect(
            report.counts("CRMProject") == [
                "fetched": 2, "inserted": 1, "updated": 1, "unchanged": 0, "rejected": 0, "dangling": 0,
                "orphans_deleted": 0, "unmapped_keys": 0, "deleted": 0, "skipped": 0,
            ])
        #expect(workspace.bytes() == before)
    }

    @Test("--only fetches and stores only the entities named")
    func only() async throws {
        let workspace = try RunWorkspace.crm()
        let result = try await workspace.rmap(["run", "crm.yml", "--json", "--only", "CRMPerson"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.rows("SELECT count(*) FROM people") == [[.integer(2)]])
        #expect(try workspace.rows("SELECT count(*) FROM projects") == [[.integer(0)]])
        let report = try RunJSON(result.stdout)
        #expect(report.counts("CRMProject")["fetched"] == 0)
        #expect(report.counts("CRMPerson")["fetched"] == 1)
    }

    @Test("--only: references to a table left out of the run reach its stored rows; dangling only when nowhere")
    func onlyReferences() async throws {
        let workspace = try RunWorkspace.crm()
        #expect(try await workspace.rmap(["run", "crm.yml", "--quiet"]).status == 0)
        try workspace.write(
            "data/projects.json",
            #"[{"id": 5, "name": "Engine", "person_id": 1}, {"id": 9, "name": "Lost", "person_id": 99}]"#)
        let projects = try await workspace.rmap(["run", "crm.yml", "--quiet", "--only", "CRMProject"])
        // Person 1 is stored: found there; person 99 is neither fetched nor stored.
        #expect(projects.status == 3, "\(projects.stderr)")
        #expect(
            projects.stderr == "dangling: data/projects.json#1: CRMProject 9: 'owner' found no CRMPerson with id 99\n")
        #expect(
            try workspace.rows("SELECT id, person_id FROM projects ORDER BY id") == [
                [.integer(5), .integer(1)], [.integer(6), .integer(2)], [.integer(9), .integer(99)],
            ])
        let both = try await workspace.rmap(["run", "crm.yml", "--quiet", "--only", "CRMProject,CRMPerson"])
        #expect(both.status == 3)
        #expect(
            both.stderr == "dangling: data/projects.json#1: CRMProject 9: 'owner' found no CRMPerson with id 99\n")
    }

    @Test("--json: one document with status, flags, entities, totals, rejected and dangling")
    func jsonShape() async throws {
        let workspace = try RunWorkspace.crm(projects: #"[{"id": 5, "name": "Engine", "person_id": 99}]"#)
        let result = try await workspace.rmap(["run", "crm.yml", "--json"])
        #expect(result.status == 3)
        #expect(!result.stderr.contains("dangling:"))
        let report = try RunJSON(result.stdout)
        #expect(
            Set(report.document.keys) == ["status", "dry_run", "strict", "entities", "totals", "rejected", "dangling"])
        #expect(result.stdout.hasPrefix(#"{"status":"rejected","dry_run":false,"strict":false,"entities":["#))
        #expect(result.stdout.split(separator: "\n").count == 1)
        let entities = try #require(report.document["entities"] as? [[String: Any]])
        #expect(entities.map { $0["entity"] as? String } == ["CRMPerson", "CRMAdmin", "CRMNote", "CRMProject"])
        #expect(
            report.totals == [
                "fetched": 4, "inserted": 4, "updated": 0, "unchanged": 0, "rejected": 0, "dangling": 1,
                "orphans_deleted": 0, "unmapped_keys": 1, "deleted": 0, "skipped": 0,
            ])
        #expect(report.rejected.isEmpty)
        #expect(
            Set(report.dangling.first?.keys ?? [:].keys) == [
                "entity", "identity", "relationship", "destination", "values", "origin", "message",
            ])
    }

    @Test("--json on a failed run: status failed and the error")
    func jsonFailure() async throws {
        let workspace = try RunWorkspace.crm(projects: "[")
        let result = try await workspace.rmap(["run", "crm.yml", "--json", "--quiet"])
        #expect(result.status == 1)
        let report = try RunJSON(result.stdout)
        #expect(report.status == "failed")
        #expect((report.document["error"] as? String)?.hasPrefix("data/projects.json") == true)
        #expect(try workspace.tables() == [])
    }

    @Test("--store overrides the mapping files' store")
    func storeOption() async throws {
        let workspace = try RunWorkspace.crm()
        let result = try await workspace.rmap(["run", "crm.yml", "--quiet", "--store", "sqlite:other.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(workspace.bytes() == nil)
        #expect(try workspace.rows("SELECT count(*) FROM people", store: "other.sqlite") == [[.integer(2)]])
    }
}
