import Foundation
import RMap
import RMapSQLite
import Testing

extension DjangoServerSuites {
    /// `examples/django/*.yml`, one per endpoint of the Django test app, run by the binary: each
    /// loads the whole CRM with every link connected, and a second run changes nothing.
    @Suite("Django examples")
    struct DjangoExampleTests {
        @Test(
            "each example loads the whole CRM with every link connected; a re-run changes nothing",
            arguments: ["page-number", "cursor", "limit-offset", "throttled", "rate-limit", "oauth2"])
        func example(_ name: String) async throws {
            let django = try TestServers.django()
            let site = django.url
            try await PushServer.reset(site)
            let directory = try TemporaryDirectory()
            let store = directory.url.appendingPathComponent("crm.sqlite").path
            let mapping = TestServers.repositoryRoot.appendingPathComponent("examples/django/\(name).yml").path
            let arguments = ["run", mapping, "--store", store, "--quiet", "--json"]
            let environment = [
                "DJANGO_URL": site.absoluteString, "DJANGO_CLIENT_ID": django.clientID,
                "DJANGO_CLIENT_SECRET": django.clientSecret,
            ]

            let first = try await CLIRunner.run(arguments, in: directory.url, environment: environment)
            #expect(first.status == 0, "\(first.stderr)")
            let firstLog = try await PushServer.log(site)
            let totals = try Self.totals(first)
            #expect(totals["inserted"] == 235 && totals["fetched"] == 235 && totals["dangling"] == 0, "\(totals)")

            try Self.expectWholeCRM(in: store)

            let second = try await CLIRunner.run(arguments, in: directory.url, environment: environment)
            #expect(second.status == 0, "\(second.stderr)")
            let again = try Self.totals(second)
            #expect(again["unchanged"] == 235 && again["inserted"] == 0 && again["updated"] == 0, "\(again)")

            let log = try await PushServer.log(site)
            if name == "throttled" {
                // DRF throttled the runs (five requests a second) and rmap waited out each 429.
                #expect(log.contains { $0.status == 429 })
            }
            if name == "rate-limit" {
                // Four requests in 1.2 s: DRF's five a second never had to refuse one of a run's requests. (The
                // next run is another process, whose budget does not know the requests just before it.)
                #expect(!firstLog.isEmpty && firstLog.allSatisfy { $0.status == 200 }, "\(firstLog)")
            }
            if name == "oauth2" {
                // One token for each run, fetched before its first request; every other request authorized.
                #expect(log.filter { $0.path == "/o/token/" }.count == 2)
                #expect(log.first?.path == "/o/token/" && log.allSatisfy { $0.status == 200 }, "\(log)")
            }
        }

        /// The columns of a store of the CRM: the identity, the foreign keys, the due time.
        struct Columns {
            var id = "id"
            var owner = "person_id"
            var project = "project_id"
            var dueAt = "due_at"
        }

        /// Expects the whole seeded CRM in the SQLite store at `path`, every link connected.
        static func expectWholeCRM(in path: String, columns: Columns = Columns()) throws {
            let database = try SQLiteConnection(path: path)
            let (id, owner, project) = (columns.id, columns.owner, columns.project)
            #expect(try database.query("SELECT count(*) FROM people", []) == [[.integer(25)]])
            #expect(try database.query("SELECT count(*) FROM people WHERE type = 'Admin'", []) == [[.integer(5)]])
            #expect(try database.query("SELECT count(*) FROM projects", []) == [[.integer(60)]])
            #expect(try database.query("SELECT count(*) FROM tasks", []) == [[.integer(150)]])
            // Every project but 60 (no person) has its owner; every task its project.
            #expect(
                try database.query("SELECT count(*) FROM projects JOIN people ON people.\(id) = projects.\(owner)", [])
                    == [[.integer(59)]])
            #expect(
                try database.query("SELECT count(*) FROM tasks JOIN projects ON projects.\(id) = tasks.\(project)", [])
                    == [[.integer(150)]])
            #expect(
                try database.query(
                    "SELECT budget, \(columns.dueAt) FROM projects, tasks WHERE projects.\(id) = 1 AND tasks.\(id) = 1",
                    [])
                    == [[.text("1250.25"), .text("2024-03-01T10:00:00.037Z")]])
        }

        /// The `totals` of a run's `--json` report, by count.
        static func totals(_ result: CLIResult) throws -> [String: Int] {
            let report = try JSONReader.parse(Data(result.stdout.utf8), origin: "stdout")
            let totals = try #require(report.object?["totals"]?.object)
            return totals.members.reduce(into: [:]) { counts, member in
                if case .number(let digits) = member.value { counts[member.key] = Int(digits) }
            }
        }
    }
}
