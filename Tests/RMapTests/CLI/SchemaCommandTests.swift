import Foundation
import RMap
import Testing

/// `rmap schema` prints a JSON Schema that Python's `jsonschema` (Debian's python3-jsonschema,
/// which scripts/test installs) accepts as draft 2020-12 and that every mapping of the
/// repository satisfies, while a misspelt key, an unknown type or value fails it.
@Suite("rmap schema")
struct SchemaCommandTests {
    /// `Tests/Fixtures/schema/validate.py SCHEMA MAPPING...` in `directory`, the schema in a scratch folder.
    static func validate(_ mappings: [String], in directory: URL) async throws -> CLIResult {
        let schema = try await CLIRunner.run(["schema"])
        #expect(schema.status == 0)
        #expect(schema.stderr == "")
        let scratch = try TemporaryDirectory()
        let file = scratch.url.appendingPathComponent("rmap.schema.json")
        try Data(schema.stdout.utf8).write(to: file)
        let script = CLIRunner.fixtures.deletingLastPathComponent().appendingPathComponent("schema/validate.py")
        return try await CLIRunner.run(
            [script.path, file.path] + mappings, executable: "/usr/bin/python3", in: directory)
    }

    @Test("one JSON Schema document on stdout, exit 0")
    func document() async throws {
        let result = try await CLIRunner.run(["schema"])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("}\n"))
        let schema = try #require(JSONReader.parse(result.stdout, origin: "rmap schema").object)
        #expect(schema["$schema"] == .string("https://json-schema.org/draft/2020-12/schema"))
        #expect(schema["properties"]?.object?["rmap"]?.object?["const"] == .number("1"))
    }

    /// examples/plugin names the plugins of its own program: scripts/example-plugin validates it
    /// against that program's `rmap-example schema`.
    @Test("every mapping of the repository validates (mappings/, examples/ but examples/plugin)")
    func repositoryMappings() async throws {
        let root = TestServers.repositoryRoot
        let mappings = try ["mappings", "examples"].flatMap { folder in
            try #require(FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path))
                .compactMap { $0 as? String }.filter { $0.hasSuffix(".yml") && !$0.hasPrefix("plugin/") }.map {
                    "\(folder)/\($0)"
                }
        }.sorted()
        #expect(mappings.count >= 12)
        let result = try await Self.validate(mappings, in: root)
        #expect(result.stdout == mappings.map { "\($0): ok\n" }.joined())
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }

    @Test("a misspelt key, an unknown type, a wrong enum value and a plugin's unknown option fail")
    func invalid() async throws {
        let workspace = try TemporaryDirectory()
        try workspace.write(
            "broken.yml",
            """
            rmap: 1
            source: { plugin: http, site: "http://127.0.0.1", page_sise: 10 }
            entities:
              Person:
                colection: people
                on_conflict: newest
                attributes: { id: integer, name: string }
                relationships:
                  boss: { to_one: Person, connect: { forign_key: { bossId: id } } }
            """)
        let result = try await Self.validate(["broken.yml"], in: workspace.url)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for place in [
            "/source:", "/entities/Person: Additional properties are not allowed ('colection' was unexpected)",
            "/entities/Person/on_conflict: 'newest' is not one of ['fail', 'local', 'remote']",
            "/entities/Person/attributes/id:", "/entities/Person/relationships/boss/connect:",
        ] {
            #expect(lines.contains { $0.hasPrefix("broken.yml: \(place)") }, "\(place) in \(lines)")
        }
        #expect(!lines.contains { $0.contains("/attributes/name") })
    }

    @Test("its help names the editor line")
    func help() async throws {
        let result = try await CLIRunner.run(["help", "schema"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("# yaml-language-server: $schema=rmap.schema.json"))
        #expect(result.stdout.contains("EXIT STATUS:\n  0  the schema was printed\n  2  usage error\n"))
    }
}
