import Foundation
import RMap
import Testing

extension RailsServerSuites {
    /// Conditional `GET` (`ETag` / `If-None-Match`) with `rmap run` against the Rails app.
    @Suite("Conditional GET against Rails")
    struct ConditionalGetRailsTests {
        static func mapping(site: URL) -> String {
            """
            rmap: 1
            source: { plugin: http, site: \(site.absoluteString), retries: 0 }
            entities:
              Person:
                orphans: delete
                attributes: { id: int, firstName: string, lastName: string }
              Project:
                orphans: delete
                attributes: { id: int, name: string, personId: int }
                relationships:
                  owner: { to_one: Person, connect: { foreign_key: { personId: id } } }
            """
        }

        @Test("an unchanged collection is answered 304, counted unchanged, and the store file is not rewritten")
        func unchangedCollection() async throws {
            let site = try TestServers.rails()
            try await PushServer.reset(site)
            let directory = try TemporaryDirectory()
            try directory.write("crm.yml", Self.mapping(site: site))
            let store = directory.url.appendingPathComponent("store.sqlite")
            let (first, _) = try await IncrementalRailsTests.run(directory)
            #expect(first.status == 0, "\(first.stderr)")
            let bytes = try Data(contentsOf: store)

            try await PushServer.clearLog(site)
            let (second, report) = try await IncrementalRailsTests.run(directory)
            #expect(second.status == 0, "\(second.stderr)")
            let log = try await PushServer.log(site)
            #expect(log.map(\.status) == [304, 304], "\(log)")
            #expect(IncrementalRailsTests.counts(report, "Person")["unchanged"] == "25")
            #expect(IncrementalRailsTests.counts(report, "Person")["orphans_deleted"] == "0")
            #expect(IncrementalRailsTests.counts(report, "Project")["unchanged"] == "60")
            #expect(IncrementalRailsTests.counts(report, "Project")["dangling"] == "0")
            #expect(try Data(contentsOf: store) == bytes, "a run of 304 answers rewrote the store")

            // One project changes: its collection is sent again, the people's still answers 304,
            // and the changed project's owner is not reported dangling.
            try await PushServer.send(site, "PUT", "projects/5.json", #"{"name":"Renamed"}"#)
            try await PushServer.clearLog(site)
            let (third, changed) = try await IncrementalRailsTests.run(directory)
            #expect(third.status == 0, "\(third.stderr)")
            let statuses = try await PushServer.log(site).map { "\($0.path) \($0.status)" }.sorted()
            #expect(statuses == ["/people.json 304", "/projects.json 200"])
            #expect(IncrementalRailsTests.counts(changed, "Project")["updated"] == "1")
            #expect(IncrementalRailsTests.counts(changed, "Project")["unchanged"] == "59")
            #expect(IncrementalRailsTests.counts(changed, "Project")["dangling"] == "0")
            #expect(IncrementalRailsTests.counts(changed, "Person")["unchanged"] == "25")
        }
    }
}
