import Foundation
import RMap
import RMapSQLite
import Testing

extension RailsServerSuites {
    /// `rmap status` after incremental runs against the Rails app.
    @Suite("rmap status")
    struct StatusCommandTests {
        /// A store filled by an incremental run of people and per-person projects, one person edited locally.
        static func store() async throws -> TemporaryDirectory {
            let site = try TestServers.rails()
            try await PushServer.reset(site)
            let directory = try TemporaryDirectory()
            try directory.write("crm.yml", IncrementalRailsTests.mapping(site: site, projects: ""))
            let (run, _) = try await IncrementalRailsTests.run(directory)
            #expect(run.status == 0, "\(run.stderr)")
            try SQLiteConnection(path: directory.url.appendingPathComponent("store.sqlite").path)
                .execute("UPDATE people SET last_name = 'Local' WHERE id = 3")
            return directory
        }

        @Test("text: one line per entity with rows, pending changes, cursor and last sync")
        func text() async throws {
            let directory = try await Self.store()
            let result = try await CLIRunner.run(
                ["status", "crm.yml", "--store", "sqlite:store.sqlite"], in: directory.url)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(lines.count == 3, "\(result.stdout)")
            #expect(lines.first == ["entity", "rows", "create", "update", "delete", "cursor", "last", "sync"])
            let person = try #require(lines.dropFirst().first)
            #expect(Array(person.prefix(6)) == ["Person", "25", "0", "1", "0", "2024-01-01T00:25:00.000Z"])
            #expect(person.last?.hasSuffix("Z") == true && person.last?.hasPrefix("20") == true)
            let project = try #require(lines.last)
            // 24 people have projects; the latest is project 59's (person 2), 2024-01-02 + 59 minutes.
            #expect(
                Array(project.prefix(9)) == [
                    "Project", "59", "0", "0", "0", "24", "parents,", "latest", "2024-01-02T00:59:00.000Z",
                ])
        }

        @Test("--json: cursors by parent, pending by kind, last sync")
        func json() async throws {
            let directory = try await Self.store()
            let result = try await CLIRunner.run(
                ["status", "crm.yml", "--store", "sqlite:store.sqlite", "--json"], in: directory.url)
            #expect(result.status == 0, "\(result.stderr)")
            let entities = try #require(
                try JSONReader.parse(result.stdout, origin: "stdout").object?["entities"]?.array)
            let person = try #require(entities.first?.object)
            #expect(person["entity"] == .string("Person"))
            #expect(person["rows"] == .number("25"))
            #expect(
                person["pending"]
                    == .object(
                        JSONObject([("create", .number("0")), ("update", .number("1")), ("delete", .number("0"))])))
            #expect(person["cursors"] == .object(JSONObject([("", .string("2024-01-01T00:25:00.000Z"))])))
            #expect(person["last_sync"]?.string?.hasPrefix("20") == true)
            let project = try #require(entities.last?.object)
            let cursors = try #require(project["cursors"]?.object)
            #expect(cursors.members.count == 24)
            #expect(cursors["personId=1"] == .string("2024-01-02T00:12:00.000Z"))
        }

        @Test("no store yet: exit 1, nothing created")
        func noStore() async throws {
            let directory = try TemporaryDirectory()
            try directory.write("crm.yml", IncrementalRailsTests.mapping(site: URL(string: "http://127.0.0.1:9")!))
            let result = try await CLIRunner.run(
                ["status", "crm.yml", "--store", "sqlite:absent.sqlite"], in: directory.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("run 'rmap run' first"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("absent.sqlite").path))
        }
    }
}
