import Foundation
import RMapSQLite
import Testing

@Suite("rmap init")
struct InitCommandTests {
    @Test("without -o the mapping goes to stdout, the notes to stderr, payload paths relative to the current folder")
    func stdout() async throws {
        let workspace = try ExampleWorkspace.make()
        let result = try await workspace.rmap(["init", "samples/people.json", "--prefix", "CRM"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("  CRMPerson:  # 12 record(s) in the samples\n"))
        #expect(result.stdout.contains("    source: { plugin: file, path: samples/people.json }\n"))
        #expect(result.stderr.contains("inferred: CRMPerson: 12 records in samples/people.json\n"))
        #expect(
            result.stderr.contains("unsure: CRMPerson: 'type' may pick sub-entities (Admin, Person); see the comment\n")
        )
    }

    @Test(
        "samples/: the inferred mapping validates, imports every record, and stores the shipped mappings' tables",
        arguments: [["samples/people.json", "samples/projects.json"], ["samples/"]])
    func samplesGraph(payloads: [String]) async throws {
        let workspace = try ExampleWorkspace.make()
        let written = try await workspace.rmap(["init"] + payloads + ["--prefix", "CRM", "-o", "mappings/init.yml"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout == "")
        #expect(written.stderr.hasSuffix("wrote mappings/init.yml: 3 entities\n"))
        let text = try String(contentsOf: URL(fileURLWithPath: workspace.path("mappings/init.yml")), encoding: .utf8)
        #expect(text.contains("source: { plugin: file, path: ../samples/people.json }"))
        #expect(try await workspace.rmap(["validate", "mappings/init.yml"]).stdout == "ok: 3 entities in 1 file\n")

        let inferred = try await RunJSON(
            workspace.rmap(["run", "mappings/init.yml", "--store", "init.sqlite", "--json"]).stdout)
        #expect(inferred.totals["inserted"] == 67 && inferred.rejected.isEmpty && inferred.dangling.isEmpty)
        let shipped = try await RunJSON(
            workspace.rmap(["run", "mappings/crm.yml", "mappings/work.yml", "--store", "shipped.sqlite", "--json"])
                .stdout)
        #expect(shipped.totals["inserted"] == 67)

        let tables = try workspace.tables(store: "shipped.sqlite")
        #expect(tables == ["people", "projects", "projects_team_members", "tasks"])
        #expect(try workspace.tables(store: "init.sqlite") == tables)
        for table in tables {
            let columns = try Self.columns(table, workspace, store: "shipped.sqlite")
            let extra = try Self.columns(table, workspace, store: "init.sqlite").filter { !columns.contains($0) }
            // The shipped mapping keeps only address.city of the nested address; init keeps every key.
            #expect(extra == (table == "people" ? ["address_street", "address_zip"] : []), "\(table)")
            let query =
                "SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY \(columns.joined(separator: ", "))"
            let rows = try workspace.rows(query, store: "shipped.sqlite")
            #expect(!rows.isEmpty)
            #expect(try workspace.rows(query, store: "init.sqlite") == rows, "\(table)")
        }
    }

    @Test(
        "octokit's recorded GitHub answers: each mapping validates and imports every record",
        arguments: [
            (["search-issues.json"], "SearchIssue", 2), (["issues-page-1.json"], "Issue", 3),
            (["get-repository.json"], "Repository", 1), (["labels.json"], "Label", 9),
            (["search-issues.json", "issues-page-1.json", "get-repository.json", "labels.json"], "Issue", 3),
        ])
    func octokit(files: [String], entity: String, records: Int) async throws {
        let workspace = try RunWorkspace()
        for file in files {
            try workspace.write("payloads/\(file)", Octokit.text(file))
        }
        let written = try await workspace.rmap(["init"] + files.map { "payloads/\($0)" } + ["-o", "github.yml"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try await workspace.rmap(["validate", "github.yml"]).status == 0)
        let run = try await workspace.rmap(["run", "github.yml", "--store", "github.sqlite", "--json"])
        let report = try RunJSON(run.stdout)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(report.rejected.isEmpty && report.dangling.isEmpty)
        #expect(report.counts(entity)["fetched"] == records)
        #expect(report.counts(entity)["inserted"] == records)
    }

    @Test("the octokit folder (every answer, a request body and a README): each record imported, none rejected")
    func octokitFolder() async throws {
        let workspace = try RunWorkspace()
        let names = try FileManager.default.contentsOfDirectory(atPath: Octokit.fixtures.path)
        #expect(names.contains("README.md") && names.contains("label-update-request.json"))
        for name in names { try workspace.write("octokit/\(name)", Octokit.text(name)) }
        let written = try await workspace.rmap(["init", "octokit", "-o", "github.yml"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stderr.hasSuffix("wrote github.yml: 6 entities\n"))
        #expect(try await workspace.rmap(["validate", "github.yml"]).stdout == "ok: 6 entities in 1 file\n")
        let run = try await workspace.rmap(["run", "github.yml", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try RunJSON(run.stdout)
        #expect(report.rejected.isEmpty && report.dangling.isEmpty)
        // Each entity fetched the records the mapping's comments say the samples held.
        let text = try String(contentsOf: URL(fileURLWithPath: workspace.path("github.yml")), encoding: .utf8)
        let held = text.matches(of: /\n  (\w+):  # (\d+) record\(s\) in the samples/).map { ($0.1, Int($0.2)!) }
        #expect(held.count == 6)
        for (entity, records) in held { #expect(report.counts(String(entity))["fetched"] == records, "\(entity)") }
        #expect(report.counts("LabelUpdateRequest")["inserted"] == 1)
    }

    @Test("the same nested user in three issues is one User")
    func nestedIdentity() async throws {
        let workspace = try RunWorkspace()
        try workspace.write("issues.json", Octokit.text("issues-page-1.json"))
        #expect(try await workspace.rmap(["init", "issues.json", "-o", "issues.yml"]).status == 0)
        let report = try await RunJSON(workspace.rmap(["run", "issues.yml", "--json"]).stdout)
        #expect(report.counts("User")["fetched"] == 3)
        #expect(report.counts("User")["inserted"] == 1)
        #expect(try workspace.rows("SELECT DISTINCT user_id FROM issues").count == 1)
    }

    @Test("a payload that is not JSON: exit 1, nothing written")
    func unreadable() async throws {
        let workspace = try RunWorkspace(["bad.json": "{\"people\": ["])
        let result = try await workspace.rmap(["init", "bad.json", "-o", "bad.yml"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: cannot read the payload bad.json: "))
        #expect(workspace.bytes("bad.yml") == nil)
    }

    @Test("a folder without .json files: exit 1, naming it")
    func emptyFolder() async throws {
        let workspace = try RunWorkspace(["notes/readme.txt": "not json"])
        let result = try await workspace.rmap(["init", "notes", "-o", "notes.yml"])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: no .json file in the folder notes\n")
        #expect(workspace.bytes("notes.yml") == nil)
    }

    @Test("no payload and no --url is a usage error")
    func missingPayload() async throws {
        let result = try await CLIRunner.run(["init", "--prefix", "CRM"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: missing expected argument '<payload> ...' (or '--url <url>')\n"))
    }

    @Test("rmap help init: -o as the short name of --output, and the exit statuses")
    func help() async throws {
        let result = try await CLIRunner.run(["help", "init"])
        #expect(
            result.stdout.contains(
                "USAGE: rmap init [<payload> ...] [--url <url> ...] [--output <file>] [--prefix <prefix>] [--format <format>]\n"
            ))
        #expect(
            result.stdout.contains("\n  -o, --output <file>     Where to write the mapping (default: stdout); file\n"))
        #expect(
            result.stdout.hasSuffix(
                """
                deserve a look.

                EXIT STATUS:
                  0  the mapping was written
                  1  a payload could not be read, fetched or parsed, or the file not written
                  2  usage or mapping error

                """))
        #expect(result.status == 0)
    }

    static func columns(_ table: String, _ workspace: RunWorkspace, store: String) throws -> [String] {
        try workspace.rows("PRAGMA table_info(\(table))", store: store).compactMap { row in
            if case .text(let name) = row[1] { name } else { nil }
        }
    }
}

extension RailsServerSuites {
    @Suite("rmap init --url on the Rails app")
    struct InitRailsTests {
        /// Each test starts from the seed: the push suites change the shared app's data.
        init() async throws {
            try await PushServer.reset(try TestServers.rails())
        }

        @Test("people, projects, tasks and a nested route: the mapping validates and imports every record")
        func railsURLs() async throws {
            let site = try TestServers.rails().absoluteString
            let workspace = try RunWorkspace()
            let urls = ["people.json", "projects.json", "tasks.json", "people/1/projects.json"]
            let written = try await workspace.rmap(
                ["init", "--prefix", "CRM", "-o", "rails.yml"] + urls.flatMap { ["--url", "\(site)/\($0)"] })
            #expect(written.status == 0, "\(written.stderr)")
            #expect(written.stderr.contains("inferred: CRMTask.projectId: connected to CRMProject by its identity\n"))
            let text = try String(contentsOf: URL(fileURLWithPath: workspace.path("rails.yml")), encoding: .utf8)
            #expect(text.contains("    source: { plugin: http, site: \"\(site)\" }\n    path: people\n"))
            #expect(try await workspace.rmap(["validate", "rails.yml"]).stdout == "ok: 3 entities in 1 file\n")
            let run = try await workspace.rmap(["run", "rails.yml", "--json"])
            let report = try RunJSON(run.stdout)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(report.rejected.isEmpty && report.dangling.isEmpty)
            // The seed: 25 people, 60 projects, 150 tasks.
            for (entity, records) in [("CRMPerson", 25), ("CRMProject", 60), ("CRMTask", 150)] {
                #expect(report.counts(entity)["fetched"] == records, "\(entity)")
                #expect(report.counts(entity)["inserted"] == records, "\(entity)")
            }
        }
    }
}
