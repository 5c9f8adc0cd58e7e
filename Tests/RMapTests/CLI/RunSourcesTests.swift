import Foundation
import RMapSQLite
import Testing

/// The `stdin` and `exec` sources through the `rmap` binary, stored in real SQLite files.
@Suite("rmap run: stdin and exec sources")
struct RunSourcesTests {
    /// People and their projects; `source` is the file-level source block.
    static func mapping(source: String, person: String = "") -> String {
        """
        rmap: 1
        source: \(source)
        naming: { entity_prefix: CRM }
        store: { plugin: sqlite, path: rmap.sqlite }
        entities:
          CRMPerson:
        \(person)
            attributes: { id: int, name: string }
          CRMProject:
            attributes: { id: int, title: string, personId: int }
            relationships:
              owner: { to_one: CRMPerson, connect: { foreign_key: { personId: id } } }
        """
    }

    @Test("stdin: the one entity using it reads the document piped in")
    func stdinSingleEntity() async throws {
        let workspace = try RunWorkspace([
            "m.yml": """
            rmap: 1
            source: { plugin: stdin }
            store: { plugin: sqlite, path: rmap.sqlite }
            entities:
              Person:
                attributes: { id: int, name: string }
            """
        ])
        let result = try await workspace.rmap(
            ["run", "m.yml", "--quiet"], stdin: #"{"people": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Grace"}]}"#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try workspace.rows("SELECT id, name FROM people ORDER BY id") == [
                [.integer(1), .text("Ada")], [.integer(2), .text("Grace")],
            ])
    }

    @Test("stdin: `entity:` names whose records the input holds; other entities keep their own source")
    func stdinEntityOption() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(
                source: "{ plugin: stdin, entity: CRMProject }",
                person: "    source: { plugin: file, path: people.json }"),
            "people.json": #"[{"id": 1, "name": "Ada"}]"#,
        ])
        let result = try await workspace.rmap(
            ["run", "m.yml", "--quiet"], stdin: #"[{"id": 10, "title": "Engine", "person_id": 1}]"#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try workspace.rows("SELECT id, title, person_id FROM projects") == [
                [.integer(10), .text("Engine"), .integer(1)]
            ])
        #expect(try workspace.rows("SELECT id FROM people") == [[.integer(1)]])
    }

    @Test("stdin shared by two entities without `entity:` is a fetch error asking for it")
    func stdinAmbiguous() async throws {
        let workspace = try RunWorkspace(["m.yml": Self.mapping(source: "{ plugin: stdin }")])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"], stdin: "[]")
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "Error: stdin: standard input feeds one entity, but CRMPerson, CRMProject use it: set 'entity:'\n")
        #expect(try workspace.tables() == [])
    }

    @Test("stdin that is not JSON fails the run and writes nothing")
    func stdinInvalid() async throws {
        let workspace = try RunWorkspace(["m.yml": Self.mapping(source: "{ plugin: stdin, entity: CRMPerson }")])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"], stdin: "[{\"id\": 1,")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: stdin"))
        #expect(try workspace.tables() == [])
    }

    @Test("exec: JSON lines from a program run in the mapping file's folder, records for several entities")
    func execRecords() async throws {
        let workspace = try RunWorkspace([
            "conf/m.yml": Self.mapping(source: "{ plugin: exec, command: [python3, emit.py, ok] }")
        ])
        try workspace.copyFixture("emit.py", to: "conf/emit.py")
        let result = try await workspace.rmap(["run", "conf/m.yml", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try workspace.rows("SELECT id, name FROM people ORDER BY id", store: "conf/rmap.sqlite") == [
                [.integer(1), .text("Ada")], [.integer(2), .text("Grace")],
            ])
        #expect(
            try workspace.rows("SELECT id, title, person_id FROM projects", store: "conf/rmap.sqlite") == [
                [.integer(10), .text("Engine"), .integer(1)]
            ])
        let report = try RunJSON(result.stdout)
        #expect(report.counts("CRMPerson")["fetched"] == 2)
        #expect(report.counts("CRMProject")["fetched"] == 1)
        #expect(report.dangling.isEmpty)
    }

    @Test("exec: env: adds variables to the program's environment")
    func execEnvironment() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(
                source: "{ plugin: exec, command: [python3, emit.py, env], env: { EMIT_NAME: Hedy } }")
        ])
        try workspace.copyFixture("emit.py")
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.rows("SELECT id, name FROM people") == [[.integer(1), .text("Hedy")]])
    }

    @Test("exec: a non-zero exit is a fetch error showing the program's stderr; nothing is written")
    func execFailure() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(source: "{ plugin: exec, command: [python3, emit.py, fail] }")
        ])
        try workspace.copyFixture("emit.py")
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: exec python3 emit.py fail: exited with status 4: upstream said no\n")
        #expect(try workspace.tables() == [])
    }

    @Test("exec: a line for an unknown entity is a fetch error naming the line")
    func execUnknownEntity() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(source: "{ plugin: exec, command: [python3, emit.py, unknown] }")
        ])
        try workspace.copyFixture("emit.py")
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: exec python3 emit.py unknown line 2: unknown entity 'CRMGhost'\n")
        #expect(try workspace.tables() == [])
    }

    @Test("exec: a line that is not an entity record is a fetch error showing it")
    func execMalformedLine() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(source: "{ plugin: exec, command: [python3, emit.py, garbage] }")
        ])
        try workspace.copyFixture("emit.py")
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "exec python3 emit.py garbage line 1: expected {\"entity\": \"...\", \"record\": {...}}"))
    }

    @Test("exec: a program that cannot start is a fetch error")
    func execMissingProgram() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(source: "{ plugin: exec, command: [rmap-no-such-program] }")
        ])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "Error: exec rmap-no-such-program: cannot start: no executable 'rmap-no-such-program' (looked up on PATH)\n"
        )
    }
}
