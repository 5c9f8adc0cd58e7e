import Foundation
import RMap
import RMapSQLite
import Testing

extension RailsServerSuites {
    /// A sub-entity's records arrive through its root's source, and its changes go back the same way.
    @Suite("rmap push: sub-entities")
    struct PushSubEntityTests {
        @Test("an edited Admin (Rails single-table inheritance) is PUT through the people's http source")
        func adminThroughRootSource() async throws {
            let site = try TestServers.rails()
            try await PushServer.reset(site)
            let directory = try TemporaryDirectory()
            try directory.write(
                "crm.yml",
                """
                rmap: 1
                source: { plugin: http, site: \(site.absoluteString), retries: 0 }
                entities:
                  Person:
                    type_key: type
                    attributes: { id: int, firstName: string, email: string }
                  Admin:
                    extends: Person
                """)
            let run = try await CLIRunner.run(
                ["run", "crm.yml", "--store", "crm.sqlite", "--quiet"], in: directory.url)
            #expect(run.status == 0, "\(run.stderr)")
            let store = directory.url.appendingPathComponent("crm.sqlite").path
            #expect(
                try SQLiteConnection(path: store).query("SELECT type FROM people WHERE id = 5") == [[.text("Admin")]])
            try SQLiteConnection(path: store).execute("UPDATE people SET email = 'admin@example.org' WHERE id = 5")
            try await PushServer.clearLog(site)

            let push = try await CLIRunner.run(["push", "crm.yml", "--store", "crm.sqlite"], in: directory.url)
            #expect(push.stderr == "push: 1 sent, 1 acknowledged, 0 pending\n")
            #expect(push.status == 0)
            #expect(
                try await PushServer.log(site).map(\.line) == [
                    #"PUT /people/5.json {"person":{"email":"admin@example.org"}}"#
                ])
            try await PushServer.reset(site)
        }
    }
}
