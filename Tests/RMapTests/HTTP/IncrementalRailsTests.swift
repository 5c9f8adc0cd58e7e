import Foundation
import RMap
import RMapSQLite
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RailsServerSuites {
    /// `incremental:` cursors with `rmap run` (the binary `RMAP_BINARY` names) against the Rails app.
    @Suite("Incremental runs against Rails")
    struct IncrementalRailsTests {
        /// People (and, with `projects`, each person's projects fetched per parent) by `updated_since`.
        static func mapping(site: URL, lag: String = "", projects: String? = nil) -> String {
            var text = """
                rmap: 1
                source: { plugin: http, site: \(site.absoluteString), retries: 0, page_size: 100, paginate: page }
                entities:
                  Person:
                    incremental: { cursor: updatedAt, param: updated_since\(lag) }
                    orphans: delete
                    attributes: { id: int, firstName: string, lastName: string, updatedAt: datetime }

                """
            if let projects {
                text += """
                      Project:
                        nested_path: people/{personId}/projects
                        incremental: { cursor: updatedAt, param: updated_since }
                        attributes: { id: int, name: string, personId: int, updatedAt: datetime }
                        relationships:
                          owner: { to_one: Person, connect: { foreign_key: { personId: id } } }
                    \(projects)
                    """
            }
            return text
        }

        /// The app reset, with people 26...200 created by `POST /people`.
        static func twoHundredPeople(_ site: URL) async throws {
            try await PushServer.reset(site)
            for number in 26...200 {
                try await PushServer.send(
                    site, "POST", "people.json", #"{"first_name":"P\#(number)","last_name":"Many"}"#)
            }
            try await PushServer.clearLog(site)
        }

        static func run(_ directory: TemporaryDirectory, _ extra: [String] = []) async throws -> (
            CLIResult, JSONObject?
        ) {
            let result = try await CLIRunner.run(
                ["run", "crm.yml", "--store", "sqlite:store.sqlite", "--json", "--quiet"] + extra, in: directory.url)
            let report = try? JSONReader.parse(result.stdout, origin: "stdout").object
            return (result, report)
        }

        static func counts(_ report: JSONObject?, _ entity: String) -> [String: String] {
            let entry = report?["entities"]?.array?.compactMap(\.object).first { $0["entity"]?.string == entity }
            var counts: [String: String] = [:]
            for (key, value) in entry?.members ?? [] { if case .number(let text) = value { counts[key] = text } }
            return counts
        }

        static func cursors(_ directory: TemporaryDirectory) throws -> [String: JSONValue] {
            try SQLiteStore(path: directory.url.appendingPathComponent("store.sqlite").path)
                .runState(scope: "cursor").mapValues(\.value)
        }

        @Test("after 3 of 200 people change, the second run asks with updated_since and updates exactly those 3")
        func threeOfTwoHundred() async throws {
            let site = try TestServers.rails()
            try await Self.twoHundredPeople(site)
            let directory = try TemporaryDirectory()
            try directory.write("crm.yml", Self.mapping(site: site))
            let (first, firstReport) = try await Self.run(directory)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(Self.counts(firstReport, "Person")["inserted"] == "200")
            let firstLog = try await PushServer.log(site)
            #expect(firstLog.allSatisfy { !$0.path.contains("updated_since") }, "\(firstLog)")
            let cursor = try #require(try Self.cursors(directory)["Person"]?.string)

            for id in [3, 77, 150] {
                try await PushServer.send(site, "PUT", "people/\(id).json", #"{"last_name":"Changed \#(id)"}"#)
            }
            try await PushServer.clearLog(site)
            let (second, secondReport) = try await Self.run(directory)
            #expect(second.status == 0, "\(second.stderr)")
            let log = try await PushServer.log(site)
            #expect(
                log.count == 1 && log[0].path.removingPercentEncoding?.contains("updated_since=\(cursor)") == true,
                "\(log)")
            let counts = Self.counts(secondReport, "Person")
            #expect(counts["updated"] == "3")
            #expect(counts["inserted"] == "0")
            #expect(counts["orphans_deleted"] == "0", "an incremental run deletes no orphans")
            let store = try SQLiteConnection(path: directory.url.appendingPathComponent("store.sqlite").path)
            let changed = try store.query("SELECT id FROM people WHERE last_name LIKE 'Changed %' ORDER BY id")
            #expect(changed.map { "\($0[0])" } == ["integer(3)", "integer(77)", "integer(150)"])
            #expect(try store.query("SELECT count(*) FROM people").first?.first == .integer(200))
            #expect(try Self.cursors(directory)["Person"]?.string.map { $0 > cursor } == true)
        }

        @Test("a run that fails after fetching leaves the cursor where it was; --full resets it")
        func failedRunKeepsCursor() async throws {
            let site = try TestServers.rails()
            try await PushServer.reset(site)
            let directory = try TemporaryDirectory()
            try directory.write("crm.yml", Self.mapping(site: site))
            await #expect(try Self.run(directory).0.status == 0)
            let before = try Self.cursors(directory)
            #expect(before["Person"] == .string("2024-01-01T00:25:00.000Z"))

            try await PushServer.send(site, "PUT", "people/4.json", #"{"last_name":"Later"}"#)
            // A second entity whose index answers 404 fails the run after the people were fetched.
            try directory.write(
                "crm.yml",
                Self.mapping(site: site) + "  Missing:\n    path: nowhere\n    attributes: { id: int }\n")
            let (failed, _) = try await Self.run(directory)
            #expect(failed.status != 0)
            #expect(try Self.cursors(directory) == before)

            try directory.write("crm.yml", Self.mapping(site: site))
            try await PushServer.clearLog(site)
            let (full, report) = try await Self.run(directory, ["--full"])
            #expect(full.status == 0, "\(full.stderr)")
            let log = try await PushServer.log(site)
            #expect(log.count == 1 && !log[0].path.contains("updated_since"), "\(log)")
            #expect(Self.counts(report, "Person")["unchanged"] == "24")
            let after = try #require(try Self.cursors(directory)["Person"]?.string)
            #expect(after > "2024-01-01T00:25:00.000Z")
        }

        @Test("a --strict run that rejects a record stores no cursor; the same run without --strict does")
        func strictRejectionAdvancesNothing() async throws {
            let site = try TestServers.rails()
            try await PushServer.reset(site)
            let directory = try TemporaryDirectory()
            // Person 13 has no email, so it is rejected.
            try directory.write(
                "crm.yml",
                Self.mapping(site: site).replacingOccurrences(
                    of: "lastName: string,", with: "lastName: string, email: { type: string, required: true },"))
            let (strict, _) = try await Self.run(directory, ["--strict"])
            #expect(strict.status == 1, "\(strict.stderr)")
            #expect(try Self.cursors(directory).isEmpty)
            let (lenient, _) = try await Self.run(directory)
            #expect(lenient.status == 3, "\(lenient.stderr)")
            #expect(try Self.cursors(directory) == ["Person": .string("2024-01-01T00:25:00.000Z")])
        }

        @Test("per-parent cursors: each person's projects keep their own, and survive a run where one parent fails")
        func perParentCursors() async throws {
            let site = try TestServers.rails()
            try await PushServer.reset(site)
            let directory = try TemporaryDirectory()
            // The parents come from a file, so that a run can name a person the app does not have.
            let people = "  Person:\n    source: { plugin: file, path: people.json }\n    attributes: { id: int }\n"
            try directory.write(
                "crm.yml",
                Self.mapping(site: site, projects: "").replacingOccurrences(
                    of:
                        "  Person:\n    incremental: { cursor: updatedAt, param: updated_since }\n    orphans: delete\n    attributes: { id: int, firstName: string, lastName: string, updatedAt: datetime }\n",
                    with: people))
            try directory.write("people.json", #"[{"id": 1}, {"id": 2}]"#)
            let (first, _) = try await Self.run(directory)
            #expect(first.status == 0, "\(first.stderr)")
            let before = try Self.cursors(directory)
            // Project 12 is person 1's last, project 59 person 2's (2024-01-02 + id minutes).
            #expect(
                before == [
                    "Project personId=1": .string("2024-01-02T00:12:00.000Z"),
                    "Project personId=2": .string("2024-01-02T00:59:00.000Z"),
                ])

            try await PushServer.send(site, "PUT", "projects/5.json", #"{"name":"Changed 5"}"#)
            try await PushServer.send(site, "PUT", "projects/13.json", #"{"name":"Changed 13"}"#)
            // Person 999's projects answer 404: the run fails, and no parent's cursor moves.
            try directory.write("people.json", #"[{"id": 1}, {"id": 2}, {"id": 999}]"#)
            let (failed, _) = try await Self.run(directory)
            #expect(failed.status != 0)
            #expect(try Self.cursors(directory) == before)

            try directory.write("people.json", #"[{"id": 1}, {"id": 2}]"#)
            try await PushServer.clearLog(site)
            let (again, report) = try await Self.run(directory)
            #expect(again.status == 0, "\(again.stderr)")
            let paths = try await PushServer.log(site).map { $0.path.removingPercentEncoding ?? $0.path }.sorted()
            #expect(paths.count == 2, "\(paths)")
            for (path, cursor) in zip(paths, ["2024-01-02T00:12:00.000Z", "2024-01-02T00:59:00.000Z"]) {
                #expect(path.contains("updated_since=\(cursor)"), "\(path)")
            }
            let counts = Self.counts(report, "Project")
            #expect(counts["updated"] == "2")
            #expect(counts["orphans_deleted"] == "0")
            let after = try Self.cursors(directory)
            #expect(after.keys.sorted() == ["Project personId=1", "Project personId=2"])
            #expect(after.allSatisfy { key, value in (value.string ?? "") > (before[key]?.string ?? "~") })
        }
    }
}

extension PushServer {
    /// Sends a request outside rmap (a change made on the server by someone else), leaving the log as it is.
    static func send(_ site: URL, _ method: String, _ path: String, _ body: String) async throws {
        var request = URLRequest(url: site.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        _ = try await URLSession.shared.data(for: request)
    }
}
