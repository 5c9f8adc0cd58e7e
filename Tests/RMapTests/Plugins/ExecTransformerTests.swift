import Foundation
import Testing

@testable import RMap

/// The exec transformer (`transform: { exec: [...] }`) with a real Python program: one
/// process per attribute and run, values out and answers back in order.
@Suite("exec transformer")
struct ExecTransformerTests {
    typealias F = ExecPluginFixtures

    @Test("every value goes through the program once, after the named transformers")
    func transforms() async throws {
        let workspace = try F.workspace([
            "[squish, { exec: [python3, upcase.py] }]": "[squish, { exec: [python3, upcase.py, count] }]",
            "  - { plugin: exec, command: [python3, enrich.py] }\n": "",
            "stages:\n": "",
        ])
        try workspace.write(
            "people.json", #"[{"id": 1, "name": "  ada   lovelace "}, {"id": 2, "name": null}, {"id": 3}]"#)
        try workspace.write(
            "upcase.py",
            """
            import json, sys
            values = [json.loads(line) for line in sys.stdin]
            for value in values:
                print(json.dumps(f"{value.upper()} ({len(values)} values)"))
            """)
        _ = try await F.run(workspace)
        #expect(
            try workspace.rows("SELECT id, name FROM people ORDER BY id") == [
                [.integer(1), .text("ADA LOVELACE (1 values)")], [.integer(2), .null], [.integer(3), .null],
            ])
    }

    @Test("with no value to transform, the program is not started")
    func noValues() async throws {
        let workspace = try F.workspace([
            "[python3, upcase.py]": "[no-such-program]",
            "  - { plugin: exec, command: [python3, enrich.py] }\n": "",
            "stages:\n": "",
        ])
        try workspace.write("people.json", #"[{"id": 1, "name": null}]"#)
        _ = try await F.run(workspace)
        #expect(try workspace.rows("SELECT id, name FROM people") == [[.integer(1), .null]])
    }

    @Test("an answer of the wrong type is a record error naming the program and line; the record is rejected")
    func wrongType() async throws {
        let workspace = try F.workspace(F.transformer("wrong-type"))
        let result = try await F.run(workspace)
        #expect(
            result.report.recordErrors.map(\.description) == [
                #"exec python3 upcase.py wrong-type record 2 (Person id=3): attribute 'name': cannot read {"upper":"ALAN TURING"} as a string (output line 3)"#
            ])
        #expect(result.report.entities.first?.rejected == 1)
        #expect(try workspace.rows(F.query) == Array(F.enriched.prefix(2)))
    }

    @Test("an identity the program answers is the object's identity at once; one another object has rejects the record")
    func identity() async throws {
        let workspace = try F.workspace([
            "id: int": "id: { type: int, transform: [{ exec: [python3, tens.py] }] }",
            "[squish, { exec: [python3, upcase.py] }]": "[squish]",
            "  - { plugin: exec, command: [python3, enrich.py] }\n": "",
            "stages:\n": "",
        ])
        try workspace.write("people.json", #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}]"#)
        try workspace.write(
            "tens.py",
            """
            import json, sys
            for line in sys.stdin:
                value = json.loads(line)
                print(json.dumps(10 if value == 3 else value * 10), flush=True)
            """)
        let result = try await F.run(workspace)
        #expect(
            result.report.recordErrors.map(\.message) == [
                "another Person has the identity \(IdentityKey([.int(10)])) (output line 3)"
            ])
        // The second object is stored under its new identity only: the old one is gone.
        #expect(
            try workspace.rows("SELECT id, name FROM people ORDER BY id") == [
                [.integer(10), .text("a")], [.integer(20), .text("b")],
            ])
    }

    @Test(
        "into a json store, the stage and the exec transformer run in its SQLite engine, and the document holds their rows"
    )
    func jsonStore() async throws {
        let workspace = try F.workspace()
        var options = RunOptions()
        options.store = PluginConfig(plugin: "json", options: ["path": workspace.path("graph.json")])
        let result = try await Pipeline(model: F.load(workspace), registry: F.registry()).run(options)
        #expect(result.report.recordErrors.isEmpty)
        let path = workspace.path("graph.json")
        let document = try JSONReader.parse(try Data(contentsOf: URL(fileURLWithPath: path)), origin: path)
        let people = try #require(document.object?["people"]?.array).compactMap(\.object)
        let rows = people.map { person in ["id", "name", "email", "score", "rank"].map { person[$0] ?? .null } }
        let expected: [[JSONValue]] = [
            [
                .number("1"), .string("ADA LOVELACE"), .string("ada.lovelace@example.com"), .number("90"),
                .string("high"),
            ],
            [.number("2"), .string("GRACE HOPPER"), .string("grace@navy.mil"), .number("85"), .string("high")],
            [.number("3"), .string("ALAN TURING"), .string("alan.turing@example.com"), .number("70"), .string("low")],
        ]
        #expect(rows == expected)
    }

    @Test("a non-zero exit fails the run and leaves the store as it was")
    func failure() async throws {
        let workspace = try F.workspace()
        _ = try await F.run(workspace)
        let before = workspace.bytes()
        try workspace.write(
            "people.yml",
            String(decoding: workspace.bytes("people.yml") ?? Data(), as: UTF8.self)
                .replacingOccurrences(of: "[python3, upcase.py]", with: "[python3, upcase.py, fail]"))
        try workspace.write("people.json", #"[{"id": 1, "name": "ada byron", "score": 10}]"#)
        let error = await #expect(throws: ExecError.self) { _ = try await F.run(workspace) }
        #expect(error?.description == "exec python3 upcase.py fail: exited with status 2")
        #expect(workspace.bytes() == before)
    }

    @Test("fewer answers than values fail the run")
    func short() async throws {
        let workspace = try F.workspace(F.transformer("short"))
        let error = await #expect(throws: ExecError.self) { _ = try await F.run(workspace) }
        #expect(error?.description == "exec python3 upcase.py short: printed 1 answer(s), fewer than the values sent")
        #expect(workspace.bytes() == nil)
    }

    @Test(
        "transform: items are checked when the mapping loads",
        arguments: [
            (
                "[{ exec: [python3, upcase.py] }, squish]",
                "an exec transformer runs last: put it at the end of 'transform'"
            ),
            ("{ exec: [] }", "'exec' names no program"),
            (
                "{ exce: [python3, upcase.py] }",
                "an exec transformer needs 'exec: [program, args...]'\n"
                    + "unknown key 'exce' in an exec transformer (did you mean 'exec'?)"
            ),
        ])
    func loading(transform: String, message: String) throws {
        #expect(try F.issues(["[squish, { exec: [python3, upcase.py] }]": transform]) == message)
    }
}
