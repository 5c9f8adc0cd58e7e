import Foundation
import RMapSQLite
import Testing

/// The `file` source through `rmap run`: files, folders, globs, `{collection}`
/// and `{element}`, JSON Lines, paths relative to the mapping file, and missing files.
@Suite("file source")
struct FileSourceTests {
    /// A mapping of people whose `source:` path is `path`, stored in `rmap.sqlite` beside it.
    static func mapping(path: String) -> String {
        """
        rmap: 1
        source: { plugin: file, path: "\(path)" }
        naming: { entity_prefix: CRM }
        store: { plugin: sqlite, path: rmap.sqlite }
        entities:
          CRMPerson:
            attributes:
              id: int
              name: string
        """
    }

    /// The people stored, as `id name` lines in id order.
    static func people(_ workspace: RunWorkspace, store: String = "rmap.sqlite") throws -> [String] {
        try workspace.rows("SELECT id, name FROM people ORDER BY id", store: store).map { row in
            "\(row[0]) \(row[1])"
        }
    }

    @Test("a single .json file")
    func singleFile() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(path: "people.json"),
            "people.json": #"[{"id": 1, "name": "Ada"}, {"id": 2, "name": "Grace"}]"#,
        ])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.people(workspace) == [#"integer(1) text("Ada")"#, #"integer(2) text("Grace")"#])
    }

    @Test("a .jsonl file: one record a line")
    func jsonLines() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(path: "people.jsonl"),
            "people.jsonl": "{\"id\": 1, \"name\": \"Ada\"}\n\n{\"id\": 2, \"name\": \"Grace\"}\n",
        ])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.people(workspace) == [#"integer(1) text("Ada")"#, #"integer(2) text("Grace")"#])
    }

    @Test("a folder: every .json and .jsonl file in name order, other files ignored")
    func folder() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(path: "people"),
            // b.json comes after a.jsonl, so its Ada wins; notes.txt is not JSON and must not be read.
            "people/a.jsonl": "{\"id\": 1, \"name\": \"Ada (old)\"}\n{\"id\": 3, \"name\": \"Alan\"}\n",
            "people/b.json": #"[{"id": 1, "name": "Ada"}, {"id": 2, "name": "Grace"}]"#,
            "people/notes.txt": "not json",
        ])
        let result = try await workspace.rmap(["run", "m.yml"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try Self.people(workspace) == [
                #"integer(1) text("Ada")"#, #"integer(2) text("Grace")"#, #"integer(3) text("Alan")"#,
            ])
        let fetched = result.stderr.split(separator: "\n").filter { $0.hasPrefix("fetched CRMPerson") }
        #expect(fetched.count == 1)
        #expect(fetched.first?.hasPrefix("fetched CRMPerson: 4 records from 2 files (") == true, "\(fetched)")
    }

    @Test("a glob: only matching files, in name order")
    func glob() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(path: "data/people-*.json"),
            "data/people-2.json": #"[{"id": 1, "name": "Ada"}]"#,
            "data/people-1.json": #"[{"id": 1, "name": "Ada (old)"}, {"id": 2, "name": "Grace"}]"#,
            "data/people-3.txt": "not json",
            "data/other.json": #"[{"id": 9, "name": "Nobody"}]"#,
        ])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.people(workspace) == [#"integer(1) text("Ada")"#, #"integer(2) text("Grace")"#])
    }

    @Test("a glob that matches nothing is a fetch error naming the pattern")
    func emptyGlob() async throws {
        let workspace = try RunWorkspace(["m.yml": Self.mapping(path: "data/people-*.json")])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("data/people-*.json: no file matches the pattern (entity CRMPerson)"))
        #expect(workspace.bytes() == nil)
    }

    @Test("{collection} and {element} expand per entity")
    func placeholders() async throws {
        let workspace = try RunWorkspace([
            "m.yml": """
            rmap: 1
            source: { plugin: file, path: "data/{collection}/{element}.json" }
            naming: { entity_prefix: CRM }
            store: { plugin: sqlite, path: rmap.sqlite }
            inflections: { irregular: { octopus: octopi } }
            entities:
              CRMPerson:
                attributes: { id: int, name: string }
              CRMOctopus:
                attributes: { id: int, arms: int }
            """,
            "data/people/person.json": #"{"people": [{"id": 1, "name": "Ada"}]}"#,
            "data/octopi/octopus.json": #"[{"id": 7, "arms": 8}]"#,
        ])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.people(workspace) == [#"integer(1) text("Ada")"#])
        #expect(try workspace.rows("SELECT id, arms FROM octopi") == [[.integer(7), .integer(8)]])
    }

    @Test("paths are relative to the mapping file, not the working directory")
    func relativePaths() async throws {
        let workspace = try RunWorkspace([
            "config/m.yml": Self.mapping(path: "../data/people.json"),
            "data/people.json": #"[{"id": 1, "name": "Ada"}]"#,
            "elsewhere/.keep": "",
        ])
        let result = try await CLIRunner.run(
            ["run", workspace.path("config/m.yml"), "--quiet"], in: workspace.url.appendingPathComponent("elsewhere"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.people(workspace, store: "config/rmap.sqlite") == [#"integer(1) text("Ada")"#])
        #expect(workspace.bytes("elsewhere/rmap.sqlite") == nil)
    }

    @Test("a missing file fails the run with exit 1, names the path and writes nothing")
    func missingFile() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(path: "people.json"),
            "people.json": #"[{"id": 1, "name": "Ada"}]"#,
        ])
        #expect(try await workspace.rmap(["run", "m.yml", "--quiet"]).status == 0)
        let before = try #require(workspace.bytes())
        try workspace.write("m.yml", Self.mapping(path: "missing/people.json"))
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: missing/people.json: no such file (entity CRMPerson)\n")
        #expect(result.stdout == "")
        #expect(workspace.bytes() == before)
    }
}
