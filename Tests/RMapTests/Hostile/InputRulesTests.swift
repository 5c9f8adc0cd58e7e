import Foundation
import RMap
import RMapPostgres
import RMapSQLite
import Testing

/// One rule per kind of odd input, the same in every source and store
/// (docs/mapping.md, "Limits and input rules").
@Suite("Hostile input: one rule each")
struct InputRulesTests {
    /// A mapping whose one entity `Thing` is fed by `source`, into SQLite.
    static func mapping(source: String) -> String {
        """
        rmap: 1
        source: \(source)
        store: { plugin: sqlite, path: rmap.sqlite }
        entities:
          Thing:
            attributes: { id: int, name: string, score: double, raw: json }
        """
    }

    /// Runs the mapping over `things.json` holding `json`, into SQLite.
    static func run(things json: String) async throws -> (RunWorkspace, CLIResult) {
        let workspace = try RunWorkspace([
            "m.yml": mapping(source: "{ plugin: file, path: things.json }"), "things.json": json,
        ])
        return (workspace, try await workspace.rmap(["run", "m.yml", "--quiet"]))
    }

    @Test("a mapping file that is not UTF-8 is an error at the bad byte, not silently replaced")
    func mappingNotUTF8() async throws {
        let workspace = try RunWorkspace()
        var bytes = Array(Self.mapping(source: "{ plugin: stdin }").utf8)
        bytes.insert(0xFF, at: bytes.count - 1)
        #expect(FileManager.default.createFile(atPath: workspace.path("m.yml"), contents: Data(bytes)))
        #expect(throws: MappingError.self) { try MappingLoader().load([workspace.path("m.yml")]) }
        let result = try await workspace.rmap(["validate", "m.yml"])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("m.yml:6:67: invalid UTF-8: a mapping file must be UTF-8 text"), "\(result.stderr)")
    }

    @Test("a second YAML document is an error at its '---', not ignored")
    func secondDocument() throws {
        #expect(
            throws: YAMLError(
                mark: Mark(file: "t.yml", line: 2, column: 1),
                problem: "a second YAML document: a mapping file holds one (remove the '---')")
        ) {
            try YAMLParser.parse("a: 1\n---\nb: 2\n", file: "t.yml")
        }
    }

    @Test("exec output that is not UTF-8 fails the run at its line and column, as a file's does")
    func execNotUTF8() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(source: "{ plugin: exec, command: [python3, emit.py] }"),
            "emit.py": #"""
            import sys
            sys.stdout.buffer.write(b'{"entity": "Thing", "record": {"id": 1}}\n')
            sys.stdout.buffer.write(b'{"entity": "Thing", "record": {"id": 2, "name": "caf\xe9"}}\n')
            """#,
        ])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("exec python3 emit.py:2:53: invalid UTF-8"), "\(result.stderr)")
        #expect(try workspace.tables() == [])
    }

    @Test("a leading byte order mark is accepted on standard input and from an exec program, as in files")
    func byteOrderMark() async throws {
        let workspace = try RunWorkspace([
            "stdin.yml": Self.mapping(source: "{ plugin: stdin }"),
            "exec.yml": Self.mapping(source: "{ plugin: exec, command: [python3, emit.py] }")
                .replacingOccurrences(of: "rmap.sqlite", with: "exec.sqlite"),
            "emit.py": #"""
            import sys
            sys.stdout.buffer.write(b'\xef\xbb\xbf{"entity": "Thing", "record": {"id": 2}}\n')
            """#,
        ])
        let stdin = try await workspace.rmap(["run", "stdin.yml", "--quiet"], stdin: "\u{FEFF}[{\"id\": 1}]")
        #expect(stdin.status == 0, "\(stdin.stderr)")
        #expect(try workspace.rows("SELECT id FROM things") == [[.integer(1)]])
        let exec = try await workspace.rmap(["run", "exec.yml", "--quiet"])
        #expect(exec.status == 0, "\(exec.stderr)")
        #expect(try workspace.rows("SELECT id FROM things", store: "exec.sqlite") == [[.integer(2)]])
    }

    @Test("a key repeated in a record keeps its last value, for the identity as for attributes and json")
    func repeatedKeysLastWins() async throws {
        // The first record teaches the mapper where `id` sits; the second repeats it later.
        let (workspace, result) = try await Self.run(
            things: #"""
                [{"id": 1, "name": "a"},
                 {"id": 2, "name": "b", "id": 3, "name": "c", "raw": {"k": 1, "k": 2}}]
                """#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try workspace.rows("SELECT id, name, raw FROM things ORDER BY id") == [
                [.integer(1), .text("a"), .null], [.integer(3), .text("c"), .text(#"{"k":2}"#)],
            ])
    }

    @Test("a number out of a double's range is a record error naming the key, not Inf or null")
    func numberOutOfRange() async throws {
        let (workspace, result) = try await Self.run(
            things: #"[{"id": 1, "score": 1e999}, {"id": 2, "score": -1e999}, {"id": 3, "score": 1.5}]"#)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("attribute 'score' (key score): cannot read 1e999 as a double"))
        #expect(try workspace.rows("SELECT id, score FROM things") == [[.integer(3), .real(1.5)]])
    }

    @Test("text holding NUL is a record error naming the key, in SQLite as in PostgreSQL (which cannot store it)")
    func nulCharacter() async throws {
        let workspace = try RunWorkspace([
            "things.json": #"[{"id": 1, "name": "a\u0000b"}, {"id": 2, "raw": {"k\u0000": 1}}, {"id": 3}]"#
        ])
        let postgres = try PostgresSchemas.url(for: workspace.url)
        try workspace.write("sqlite.yml", Self.mapping(source: "{ plugin: file, path: things.json }"))
        try workspace.write(
            "postgres.yml",
            Self.mapping(source: "{ plugin: file, path: things.json }")
                .replacingOccurrences(
                    of: "{ plugin: sqlite, path: rmap.sqlite }", with: "{ plugin: postgres, url: \"\(postgres)\" }"))
        for file in ["sqlite.yml", "postgres.yml"] {
            let result = try await workspace.rmap(["run", file, "--quiet"])
            #expect(result.status == 3, "\(file): \(result.stderr)")
            #expect(result.stderr.contains(#"attribute 'name' (key name): cannot read "a\u0000b" as a string"#))
            #expect(result.stderr.contains("attribute 'raw' (key raw)"))
        }
        #expect(try workspace.rows("SELECT id FROM things") == [[.integer(3)]])
        #expect(try PostgresConnection(url: postgres).query("SELECT id FROM things").rows == [["3"]])
    }

    @Test("a failing exec program's error shows the last 64 KiB of its stderr, which rmap never holds whole")
    func execStderrTail() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(source: "{ plugin: exec, command: [python3, fail.py] }"),
            "fail.py": "import sys\nsys.stderr.write('x' * 1000000 + 'the end')\nsys.exit(2)\n",
        ])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: exec python3 fail.py: exited with status 2: xxx"))
        #expect(result.stderr.hasSuffix("xxxthe end\n"))
        #expect(result.stderr.utf8.count < 66_000)
    }

    @Test("exec runs the program its first word names, found on PATH: '-S' and 'X=1' are programs, not env's")
    func execWithoutEnv() async throws {
        let workspace = try RunWorkspace([
            "m.yml": Self.mapping(source: "{ plugin: exec, command: [-S, X=1], env: { PATH: bin } }"),
            "bin/-S": "#!/bin/sh\necho '{\"entity\": \"Thing\", \"record\": {\"id\": 1, \"name\": \"'\"$1\"'\"}}'\n",
        ])
        #expect(chmod(workspace.path("bin/-S"), 0o755) == 0)
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.rows("SELECT id, name FROM things") == [[.integer(1), .text("X=1")]])
    }
}
