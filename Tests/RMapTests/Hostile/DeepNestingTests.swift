import Foundation
import RMap
import RMapSQLite
import Testing

/// JSON and YAML nested past the 512-level limit: a clear error with its
/// position from every source, never a crash, and never a stored value that
/// cannot be read back.
@Suite("Hostile input: deep nesting")
struct DeepNestingTests {
    /// `depth` arrays inside one another.
    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    /// A mapping whose one entity keeps a `json` attribute, fed by `source`.
    static func mapping(source: String, store: String = "{ plugin: sqlite, path: rmap.sqlite }") -> String {
        """
        rmap: 1
        source: \(source)
        store: \(store)
        entities:
          Thing:
            attributes: { id: int, raw: json }
        """
    }

    /// A record whose `raw` is `depth` arrays deep, as one line.
    static func record(rawDepth depth: Int) -> String {
        #"{"id": 1, "raw": \#(nested(depth))}"#
    }

    @Test("JSONReader reads 512 levels and names the bracket that opens the 513th")
    func readerLimit() throws {
        #expect(try JSONReader.parse(Self.nested(512), origin: "t.json") != .null)
        #expect(
            throws: JSONError(origin: "t.json", offset: 512, line: 1, column: 513, message: "nested deeper than 512")
        ) {
            try JSONReader.parse(Self.nested(513), origin: "t.json")
        }
    }

    @Test(
        "every source fails 40,000 levels with file:line:col, exit status 1, no crash",
        arguments: ["file", "jsonl", "stdin", "exec"])
    func everySource(kind: String) async throws {
        let deep = Self.record(rawDepth: 40_000)
        let sources = [
            "file": "{ plugin: file, path: things.json }",
            "jsonl": "{ plugin: file, path: things.jsonl }",
            "stdin": "{ plugin: stdin }",
            "exec": "{ plugin: exec, command: [python3, emit.py] }",
        ]
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(source: try #require(sources[kind])),
            "things.json": "[\n\(deep)]",
            "things.jsonl": "\n\(deep)\n",
            "emit.py": #"print('{"entity": "Thing", "record": \#(deep)}')"#,
        ])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"], stdin: "\n\(deep)")
        #expect(result.status == 1, "\(result.stderr)")
        let expected = [
            "file": "things.json:2:528: nested deeper than 512",
            "jsonl": "things.jsonl:2:529: nested deeper than 512",
            "stdin": "stdin:2:529: nested deeper than 512",
            "exec": "exec python3 emit.py:1:558: nested deeper than 512",
        ]
        #expect(result.stderr.contains(try #require(expected[kind])), "\(result.stderr)")
        #expect(try workspace.tables() == [])
    }

    @Test(
        "one level past the limit is refused before anything is stored; the deepest value accepted is read back by the next run and diff, in SQLite and the JSON store",
        arguments: ["{ plugin: sqlite, path: rmap.sqlite }", "{ plugin: json, path: graph.json }"])
    func deepestValueRoundTrips(store: String) async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(source: "{ plugin: file, path: things.jsonl }", store: store),
            // The line is the record (level 1), so `raw` may take the other 511 levels.
            "things.jsonl": Self.record(rawDepth: 512) + "\n",
        ])
        let refused = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("things.jsonl:1:529: nested deeper than 512"), "\(refused.stderr)")
        #expect(workspace.bytes("rmap.sqlite") == nil && workspace.bytes("graph.json") == nil)
        try workspace.write("things.jsonl", Self.record(rawDepth: 511) + "\n")
        for arguments in [["run", "m.yml", "--quiet"], ["run", "m.yml", "--quiet"], ["diff", "m.yml"]] {
            let result = try await workspace.rmap(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
    }

    @Test("a store holding a value 40,000 levels deep still runs and diffs: the value reads back as text")
    func poisonedStore() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(source: "{ plugin: file, path: things.jsonl }"),
            "things.jsonl": Self.record(rawDepth: 2) + "\n",
        ])
        #expect(try await workspace.rmap(["run", "m.yml", "--quiet"]).status == 0)
        let connection = try SQLiteConnection(path: workspace.path("rmap.sqlite"))
        for table in ["things", "_rmap_base_things"] {
            _ = try connection.query("UPDATE \(table) SET raw = ?", [.string(Self.nested(40_000))])
        }
        for arguments in [["diff", "m.yml"], ["run", "m.yml", "--quiet"]] {
            let result = try await workspace.rmap(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
    }

    @Test("YAML: 512 levels parse, the 513th is an error at its mark; validate survives 20,000")
    func yamlLimit() async throws {
        #expect(try YAMLParser.parse("x: " + Self.nested(511), file: "t.yml") != nil)
        #expect(throws: YAMLError(mark: Mark(file: "t.yml", line: 1, column: 515), problem: "nested deeper than 512")) {
            try YAMLParser.parse("x: " + Self.nested(513), file: "t.yml")
        }
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(source: "{ plugin: stdin }") + "\nx: " + Self.nested(20_000) + "\n"
        ])
        let result = try await workspace.rmap(["validate", "m.yml"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("m.yml:7:515: nested deeper than 512"), "\(result.stderr)")
    }
}
