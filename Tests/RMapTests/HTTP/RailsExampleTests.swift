import Foundation
import RMapSQLite
import Testing

extension RailsServerSuites {
    /// `examples/rails/crm.yml`, the README's HTTP example, run by the binary against the Rails test app.
    @Suite("HTTP example against Rails")
    struct RailsExampleTests {
        @Test("rmap run fetches every person, project and task with the server's values")
        func example() async throws {
            let site = try TestServers.rails()
            try await PushServer.reset(site)
            let directory = try TemporaryDirectory()
            let store = directory.url.appendingPathComponent("crm.sqlite").path
            let mapping = TestServers.repositoryRoot.appendingPathComponent("examples/rails/crm.yml").path
            let result = try await CLIRunner.run(
                ["run", mapping, "--store", store, "--quiet", "--json"], in: directory.url,
                environment: ["RAILS_URL": site.absoluteString])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(#""status":"ok""#))

            let database = try SQLiteConnection(path: store)
            #expect(try database.query("SELECT count(*) FROM people", []) == [[.integer(25)]])
            #expect(try database.query("SELECT count(*) FROM people WHERE type = 'Admin'", []) == [[.integer(5)]])
            // Project 60 has no owner, so no person's nested route lists it.
            #expect(try database.query("SELECT count(*) FROM projects", []) == [[.integer(59)]])
            #expect(try database.query("SELECT count(*) FROM tasks", []) == [[.integer(150)]])
            #expect(
                try database.query("SELECT budget, person_id FROM projects WHERE id = 1", [])
                    == [[.text("1250.25"), .integer(1)]])
            #expect(
                try database.query("SELECT due_at, estimate FROM tasks WHERE id = 1", [])
                    == [[.text("2024-03-01T10:00:00.037Z"), .text("0.75")]])
        }
    }
}
