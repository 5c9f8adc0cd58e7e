import Foundation
import RMap
import Testing

/// Singer message streams on standard input (`rmap run --singer`), written by hand:
/// the rules a tap's stream is held to, and `ACTIVATE_VERSION`.
@Suite("Singer: streams on standard input")
struct SingerStdinTests {
    static let mapping = """
        rmap: 1
        source: { plugin: file }
        naming: { entity_prefix: CRM }
        entities:
          CRMPerson:
            orphans: delete
            attributes: { id: int, name: string }

        """

    private static func record(_ id: Int, version: Int) -> String {
        #"{"type":"RECORD","stream":"people","record":{"id":\#(id),"name":"P\#(id)"},"version":\#(version)}"#
    }

    private static func activate(_ version: Int) -> String {
        #"{"type":"ACTIVATE_VERSION","stream":"people","version":\#(version)}"#
    }

    @Test("ACTIVATE_VERSION: stored objects the activated version did not send are deleted; without it none are")
    func activateVersion() async throws {
        let workspace = try RunWorkspace(["crm.yml": Self.mapping])
        let first = [
            Self.record(1, version: 1), Self.record(2, version: 1), Self.record(3, version: 1), Self.activate(1),
        ]
        #expect(
            try await workspace.rmap(["run", "crm.yml", "--singer", "--quiet"], stdin: first.joined(separator: "\n"))
                .status
                == 0)
        #expect(try workspace.rows("SELECT count(*) FROM people") == [[.integer(3)]])

        // An incremental stream (no ACTIVATE_VERSION) deletes nothing.
        let incremental = try await workspace.rmap(
            ["run", "crm.yml", "--singer", "--json", "--quiet"], stdin: Self.record(1, version: 2))
        #expect(incremental.status == 0, "\(incremental.stderr)")
        #expect(try workspace.rows("SELECT count(*) FROM people") == [[.integer(3)]])

        // Version 3 activated: person 3, sent only with the older version 2 after it, is stale and deleted.
        let full = [
            Self.activate(3), Self.record(3, version: 2), Self.record(1, version: 3), Self.record(2, version: 3),
            Self.activate(3),
        ]
        let result = try await workspace.rmap(
            ["run", "crm.yml", "--singer", "--json", "--quiet"], stdin: full.joined(separator: "\n"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""orphans_deleted":1"#))
        #expect(try workspace.rows("SELECT id FROM people ORDER BY id") == [[.integer(1)], [.integer(2)]])
    }

    @Test(
        "a bad stream fails the run, naming the line, and writes nothing",
        arguments: [
            (
                #"{"type":"RECORD","stream":"robots","record":{"id":9}}"#,
                "stdin line 3: stream 'robots' maps to no entity (entities fed: CRMPerson)"
            ),
            (#"{"type":"RECORD","stream":"people","record":{"id":9}"#, "stdin line 3: not JSON"),
        ])
    func badStream(line: String, expected: String) async throws {
        let workspace = try RunWorkspace(["crm.yml": Self.mapping])
        let first = Self.record(1, version: 1) + "\n" + #"{"type":"STATE","value":{"n":1}}"#
        #expect(try await workspace.rmap(["run", "crm.yml", "--singer", "--quiet"], stdin: first).status == 0)
        let result = try await workspace.rmap(
            ["run", "crm.yml", "--singer", "--quiet"],
            stdin: Self.record(2, version: 1) + "\n" + #"{"type":"STATE","value":{"n":2}}"# + "\n" + line)
        #expect(result.status == 1)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(try workspace.rows("SELECT id FROM people") == [[.integer(1)]])
        #expect(try workspace.rows("SELECT value FROM _rmap_state WHERE key = 'stdin'") == [[.text(#"{"n":1}"#)]])
    }

    @Test("--singer feeds every entity from the one stream, those of an HTTP mapping fetched per parent too")
    func httpMapping() async throws {
        let mapping = TestServers.repositoryRoot.appendingPathComponent("examples/rails/crm.yml").path
        let lines = [
            #"{"type":"RECORD","stream":"people","record":{"id":1,"first_name":"Ada","email":"ada@x"}}"#,
            #"{"type":"RECORD","stream":"projects","record":{"id":7,"name":"Engine","person_id":1}}"#,
            #"{"type":"RECORD","stream":"tasks","record":{"id":70,"title":"Mill","project_id":7}}"#,
        ]
        let workspace = try RunWorkspace()
        let result = try await CLIRunner.run(
            ["run", mapping, "--singer", "--store", "crm.sqlite", "--json", "--quiet"], in: workspace.url,
            environment: ["RAILS_URL": "http://127.0.0.1:1"], stdin: lines.joined(separator: "\n"))
        #expect(result.status == 0, "\(result.stderr)")
        let report = try SingerReport(result)
        #expect(["CRMPerson", "CRMProject", "CRMTask"].map { report.counts($0)["inserted"] } == [1, 1, 1])
    }

    @Test("an entity without identity needs its stream's key_properties")
    func keyProperties() async throws {
        let mapping = """
            rmap: 1
            source: { plugin: stdin, format: singer }
            entities:
              Visit:
                stream: visits
                attributes: { page: string, at: string }

            """
        let workspace = try RunWorkspace(["crm.yml": mapping])
        let schema = #"{"type":"SCHEMA","stream":"visits","schema":{},"key_properties":["page","at"]}"#
        let visit = #"{"type":"RECORD","stream":"visits","record":{"page":"/","at":"10:00"}}"#
        let again = #"{"type":"RECORD","stream":"visits","record":{"page":"/","at":"10:00"}}"#
        let result = try await workspace.rmap(
            ["run", "crm.yml", "--quiet"], stdin: [schema, visit, again].joined(separator: "\n"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.rows("SELECT page, singer_key FROM visits") == [[.text("/"), .text(#"["/","10:00"]"#)]])

        let missing = try await workspace.rmap(["run", "crm.yml", "--quiet"], stdin: visit)
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains(
                "stdin line 1: entity 'Visit' declares no identity and stream 'visits' has no SCHEMA"))
    }
}
