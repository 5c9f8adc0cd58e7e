import Foundation
import RMap
import Testing

extension RailsServerSuites {
    /// `tap-rails`, a tap built on the Meltano Singer SDK's `RESTStream`
    /// (`Tests/Fixtures/singer/tap-rails`), reading the Rails test app's people and projects.
    @Suite("Singer: SDK tap against Rails")
    struct SingerRailsTapTests {
        static let mapping = SingerWorkspace.mapping(
            source: """
                { plugin: singer, command: [tap-rails], config: { base_url: "${RAILS_URL}", per_page: 10, received_state_file: received-state.json } }
                """)

        private func run(_ workspace: SingerWorkspace, site: URL, _ arguments: [String] = [], stdin: String = "")
            async throws -> SingerReport
        {
            let result = try await CLIRunner.run(
                ["run", "crm.yml", "--json", "--quiet"] + arguments, in: workspace.workspace.url,
                environment: ["PATH": try SingerTaps.path(), "RAILS_URL": site.absoluteString], stdin: stdin)
            return try SingerReport(result)
        }

        private func received(_ workspace: SingerWorkspace) throws -> JSONValue {
            try JSONReader.parse(
                String(contentsOfFile: workspace.workspace.path("received-state.json"), encoding: .utf8),
                origin: "received-state.json")
        }

        /// The first import: 25 people, 60 projects (every page), each project but the ownerless
        /// one linked to its owner, no dangling reference.
        private func expectFirstImport(_ report: SingerReport) throws {
            #expect(report.result.status == 0, "\(report.result.stderr)")
            #expect(report.counts("CRMPerson")["inserted"] == 25)
            #expect(report.counts("CRMProject")["inserted"] == 60)
            #expect(report.counts("CRMProject")["dangling"] == 0)
        }

        @Test("as a singer source: the second run resumes from the stored state and gets only what changed")
        func source() async throws {
            let site = try TestServers.rails()
            try await PushServer.reset(site)
            let workspace = try SingerWorkspace(["crm.yml": Self.mapping])
            try await expectFirstImport(try run(workspace, site: site))
            #expect(try received(workspace) == .null)
            let stored = try #require(try workspace.storedState("tap-rails"))
            #expect(stored.contains(#""replication_key_value":"2024-01-01T00:25:00.000Z""#))

            try await PushServer.serverSide(site, "PUT", "/people/3.json", #"{"person": {"email": "grace@navy.mil"}}"#)
            let second = try await run(workspace, site: site)
            #expect(try received(workspace) == JSONReader.parse(stored, origin: "stored"))
            #expect(second.counts("CRMPerson")["fetched"] == 1)
            #expect(second.counts("CRMPerson")["updated"] == 1)
            #expect(second.counts("CRMProject")["fetched"] ?? 0 == 0)
            let emails = try workspace.workspace.rows("SELECT email FROM people WHERE id = 3", store: "crm.sqlite")
            #expect(emails == [[.text("grace@navy.mil")]])
            try await PushServer.reset(site)
        }

        @Test("catalog: is passed as --catalog: the stream it deselects sends nothing")
        func catalog() async throws {
            let site = try TestServers.rails()
            let catalog = SingerTaps.fixtures.appendingPathComponent("rails-people-only.catalog.json").path
            let workspace = try SingerWorkspace([
                "crm.yml": SingerWorkspace.mapping(
                    source: """
                        { plugin: singer, command: [tap-rails], config: { base_url: "${RAILS_URL}" }, catalog: "\(catalog)" }
                        """)
            ])
            let report = try await run(workspace, site: site)
            #expect(report.result.status == 0, "\(report.result.stderr)")
            #expect(report.counts("CRMPerson")["inserted"] == 25)
            #expect(report.counts("CRMProject")["fetched"] ?? 0 == 0)
        }

        @Test("piped through --singer, resumed with the state rmap stored")
        func piped() async throws {
            let site = try TestServers.rails()
            try await PushServer.reset(site)
            let workspace = try SingerWorkspace(["crm.yml": Self.mapping])
            try workspace.workspace.write("config.json", #"{"base_url": "\#(site.absoluteString)"}"#)
            let stream = try await workspace.tap("tap-rails", ["--config", "config.json"])
            try await expectFirstImport(try run(workspace, site: site, ["--singer"], stdin: stream))
            let stored = try #require(try workspace.storedState("stdin"))
            try workspace.workspace.write("state.json", stored)
            let resumed = try await workspace.tap("tap-rails", ["--config", "config.json", "--state", "state.json"])
            let second = try await run(workspace, site: site, ["--singer"], stdin: resumed)
            #expect(second.result.status == 0, "\(second.result.stderr)")
            #expect(second.counts("CRMPerson")["fetched"] ?? 0 == 0)
            #expect(second.counts("CRMProject")["fetched"] ?? 0 == 0)
            #expect(
                try workspace.workspace.rows("SELECT count(*) FROM projects", store: "crm.sqlite") == [[.integer(60)]])
        }
    }
}
