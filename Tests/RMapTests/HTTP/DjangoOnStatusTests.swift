import Foundation
import RMap
import RMapSQLite
import Testing

extension DjangoServerSuites {
    /// `on_status: {404: skip}`: a nested index whose parent the server no longer has answers
    /// 404 (DRF's `{"detail": "No Person matches the given query."}`); skipped, it yields no
    /// records and is counted, where without it the run fails.
    @Suite("on_status against Django")
    struct DjangoOnStatusTests {
        /// People from a file (person 99 is gone from the server), their projects from Django.
        static func workspace(site: URL, onStatus: String) throws -> TemporaryDirectory {
            let directory = try TemporaryDirectory()
            try #"[{"id": 1, "first_name": "Ada"}, {"id": 99, "first_name": "Gone"}, {"id": 2, "first_name": "Alan"}]"#
                .write(to: directory.url.appendingPathComponent("people.json"), atomically: true, encoding: .utf8)
            try """
            rmap: 1
            naming: { entity_prefix: CRM }
            store: { plugin: sqlite, path: crm.sqlite }
            entities:
              CRMPerson:
                source: { plugin: file, path: people.json }
                attributes: { id: int, firstName: string }
              CRMProject:
                source:
                  plugin: http
                  site: \(site.absoluteString)/page
                  suffix: /
                  paginate: { next_url: next }
                  \(onStatus)
                nested_path: people/{personId}/projects
                records: results
                attributes: { id: int, name: string, personId: int }
                relationships:
                  owner: { to_one: CRMPerson, connect: { foreign_key: { personId: id } } }
            """.write(to: directory.url.appendingPathComponent("crm.yml"), atomically: true, encoding: .utf8)
            return directory
        }

        @Test("the gone parent's 404 is skipped and counted (table and --json); the others load")
        func skipped() async throws {
            let site = try TestServers.django().url
            let directory = try Self.workspace(site: site, onStatus: "on_status: { 404: skip, 410: skip }")
            let json = try await CLIRunner.run(["run", "crm.yml", "--quiet", "--json"], in: directory.url)
            #expect(json.status == 0, "\(json.stderr)")
            let report = try JSONReader.parse(Data(json.stdout.utf8), origin: "stdout")
            let projects = report.object?["entities"]?.array?.first { $0.object?["entity"] == .string("CRMProject") }
            #expect(projects?.object?["skipped"] == .number("1"))
            #expect(projects?.object?["fetched"] == .number("15"))
            #expect(report.object?["totals"]?.object?["skipped"] == .number("1"))
            let database = try SQLiteConnection(path: directory.url.appendingPathComponent("crm.sqlite").path)
            #expect(try database.query("SELECT count(*) FROM projects", []) == [[.integer(15)]])

            let table = try await CLIRunner.run(["run", "crm.yml"], in: directory.url)
            #expect(table.status == 0, "\(table.stderr)")
            #expect(table.stdout.contains("unmapped  skipped"))
            #expect(table.stdout.split(separator: "\n").contains { $0.hasPrefix("CRMProject") && $0.hasSuffix(" 1") })
            #expect(table.stderr.contains("/page/people/99/projects/: skipped (on_status: {404: skip})"))
        }

        @Test("without on_status the 404 fails the run, naming the URL")
        func fails() async throws {
            let site = try TestServers.django().url
            let directory = try Self.workspace(site: site, onStatus: "")
            let result = try await CLIRunner.run(["run", "crm.yml", "--quiet"], in: directory.url)
            #expect(result.status != 0)
            #expect(
                result.stderr.contains(
                    #"GET \#(site.absoluteString)/page/people/99/projects/: fetching CRMProject: HTTP 404 after 1 attempt: {"detail":"No Person matches the given query."}"#
                ))
        }
    }
}
