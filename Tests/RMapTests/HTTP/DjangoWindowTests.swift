import Foundation
import RMap
import RMapSQLite
import Testing

extension DjangoServerSuites {
    /// Date windows against the Django app's `/windowed/` prefix (django-filter on `updated_at`):
    /// a backfill in windows loads the whole CRM, and each later run asks only from where the
    /// last completed one ended, so that a run that failed is resumed, not started over.
    @Suite("Date windows against Django")
    struct DjangoWindowTests {
        static let example = TestServers.repositoryRoot.appendingPathComponent("examples/django/windowed.yml").path

        /// The `updated_after` values of the logged requests, in order.
        static func lowerBounds(_ site: URL) async throws -> [String] {
            try await PushServer.log(site).compactMap { entry in
                URLComponents(string: entry.path)?.queryItems?.first { $0.name == "updated_after" }?.value
            }
        }

        @Test(
            "the backfill loads the whole CRM; a failed run changes nothing and the next resumes where the last ended")
        func backfillAndResume() async throws {
            let django = try TestServers.django()
            let site = django.url
            try await PushServer.reset(site)
            let directory = try TemporaryDirectory()
            let store = directory.url.appendingPathComponent("crm.sqlite").path
            let arguments = ["run", Self.example, "--store", store, "--json"]
            let environment = ["DJANGO_URL": site.absoluteString]
            let started = Date()

            let first = try await CLIRunner.run(arguments, in: directory.url, environment: environment)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(try DjangoExampleTests.totals(first)["inserted"] == 235)
            try DjangoExampleTests.expectWholeCRM(in: store)
            let database = try SQLiteConnection(path: store)
            // Windows of 31 days from 2023-12-01 up to the run's start, each index on its own.
            let bounds = try await Self.lowerBounds(site)
            #expect(bounds.filter { $0 == "2023-12-01T00:00:00Z" }.count == 3)
            #expect(bounds.contains("2024-01-01T00:00:00Z") && bounds.contains("2024-02-01T00:00:00Z"))
            let ended = try database.query(
                "SELECT key, value FROM _rmap_state WHERE scope = 'http.window' ORDER BY key", [])
            #expect(ended.count == 3)
            guard case .text(let json)? = ended.first?[1] else {
                Issue.record("the window's end is not text: \(ended)")
                return
            }
            let endText = json.trimmingCharacters(in: ["\""])
            let endDate = try #require(ISO8601DateFormatter().date(from: endText))
            #expect(abs(endDate.timeIntervalSince(started)) < 60)

            // Someone renames a person; a run that cannot reach the server fails and writes nothing.
            try await PushServer.serverSide(site, "PATCH", "page/people/3/", #"{"first_name": "Amazing Grace"}"#)
            // Windows end on whole seconds: the next one must end after the change.
            try await Task.sleep(for: .milliseconds(1100))
            let offline = try await CLIRunner.run(
                arguments, in: directory.url, environment: ["DJANGO_URL": "http://127.0.0.1:9"])
            #expect(offline.status == 1)
            #expect(
                try database.query("SELECT value FROM _rmap_state WHERE scope = 'http.window' ORDER BY key", [])
                    .map { $0[0] } == ended.map { $0[1] })

            // The next run asks only from where the last completed window ended, and gets the change.
            let second = try await CLIRunner.run(arguments, in: directory.url, environment: environment)
            #expect(second.status == 0, "\(second.stderr)")
            let totals = try DjangoExampleTests.totals(second)
            #expect(totals["updated"] == 1 && totals["inserted"] == 0 && totals["deleted"] == 0, "\(totals)")
            #expect(try Set(await Self.lowerBounds(site)) == [endText])
            #expect(try database.query("SELECT first_name FROM people WHERE id = 3", []) == [[.text("Amazing Grace")]])
            #expect(try database.query("SELECT count(*) FROM people", []) == [[.integer(25)]])
        }

        @Test("with incremental, each window's request also carries the stored cursor")
        func withIncremental() async throws {
            let django = try TestServers.django()
            let site = django.url
            try await PushServer.reset(site)
            let directory = try TemporaryDirectory()
            try """
            rmap: 1
            source:
              plugin: http
              site: ${DJANGO_URL}/windowed
              suffix: /
              window: { from: updated_after, to: updated_before, start: "2024-01-01T00:00:00Z", step: 366d }
              paginate: { next_url: next }
              page_size: 100
              size_param: page_size
            entities:
              Person:
                records: results
                incremental: { cursor: updatedAt, param: updated_since }
                attributes: { id: int, firstName: string, updatedAt: datetime }
            """.write(to: directory.url.appendingPathComponent("people.yml"), atomically: true, encoding: .utf8)
            let arguments = ["run", "people.yml", "--store", "crm.sqlite", "--json"]
            let environment = ["DJANGO_URL": site.absoluteString]
            let first = try await CLIRunner.run(arguments, in: directory.url, environment: environment)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(try DjangoExampleTests.totals(first)["inserted"] == 25)
            try await PushServer.clearLog(site)
            // Windows end on whole seconds: a run within the same second has no window to ask for.
            try await Task.sleep(for: .milliseconds(1100))
            let second = try await CLIRunner.run(arguments, in: directory.url, environment: environment)
            #expect(second.status == 0, "\(second.stderr)")
            let paths = try await PushServer.log(site).map(\.path)
            #expect(paths.count == 1, "\(paths)")
            // The largest stored updated_at: person 25's, as the incremental cursor; the window from the last run's end.
            #expect(paths.first?.contains("updated_since=2024-01-01T00%3A25%3A00") == true, "\(paths)")
            #expect(paths.first?.contains("updated_after=") == true && paths.first?.contains("updated_before=") == true)
        }
    }
}
