import Foundation
import RMap
import Testing

/// The exec stage (`stages: [{ plugin: exec, command: [...] }]`) with a real Python program:
/// objects go out and changes come back as JSON lines.
@Suite("exec stage")
struct ExecStageTests {
    typealias F = ExecPluginFixtures

    @Test("the values the program prints are stored; the others keep what the payload said")
    func enriches() async throws {
        let workspace = try F.workspace()
        let result = try await F.run(workspace)
        #expect(try workspace.rows(F.query) == F.enriched)
        #expect(result.report.recordErrors.isEmpty)
    }

    @Test("a value of the wrong type is a record error naming the program and line; that line changes nothing")
    func wrongType() async throws {
        let workspace = try F.workspace(F.stage("wrong-type"))
        let result = try await F.run(workspace)
        let error = try #require(result.report.recordErrors.first)
        #expect(result.report.recordErrors.count == 1)
        #expect(
            error.description
                == #"exec python3 enrich.py wrong-type record 1 (Person id=2): attribute 'score': cannot read "eighty-five" as an int (output line 2)"#
        )
        #expect(result.report.entities.first?.rejected == 1)
        var expected = F.enriched
        expected[1][4] = .null
        #expect(try workspace.rows(F.query) == expected)
    }

    @Test("under --strict, a rejected value fails the run and nothing is written")
    func strict() async throws {
        let workspace = try F.workspace(F.stage("wrong-type"))
        await #expect(throws: StrictFailure.self) { _ = try await F.run(workspace, strict: true) }
        #expect(workspace.bytes() == nil)
    }

    @Test("a non-zero exit fails the run with the program's stderr and leaves the store as it was")
    func failure() async throws {
        let workspace = try F.workspace()
        _ = try await F.run(workspace)
        let before = workspace.bytes()
        try workspace.write(
            "people.yml",
            String(decoding: workspace.bytes("people.yml") ?? Data(), as: UTF8.self)
                .replacingOccurrences(of: "[python3, enrich.py]", with: "[python3, enrich.py, fail]"))
        try workspace.write("people.json", #"[{"id": 1, "name": "ada byron", "score": 10}]"#)
        let error = await #expect(throws: ExecError.self) { _ = try await F.run(workspace) }
        #expect(error?.description == "exec python3 enrich.py fail: exited with status 3: enrich.py: the CRM is down")
        #expect(workspace.bytes() == before)
        #expect(try workspace.rows(F.query) == F.enriched)
    }

    @Test("a line naming an object that is not in the graph fails the run")
    func unknownIdentity() async throws {
        let workspace = try F.workspace(F.stage("unknown"))
        let error = await #expect(throws: ExecError.self) { _ = try await F.run(workspace) }
        #expect(
            error?.description
                == "exec python3 enrich.py unknown output line 3: no Person with identity [99] in the graph")
        #expect(workspace.bytes() == nil)
    }

    @Test(
        "stages: items are checked when the mapping loads",
        arguments: [
            ("{ command: [python3, enrich.py] }", "a stage needs 'plugin:' (one of exec)"),
            (
                "{ plugin: exec, comand: [python3, enrich.py] }",
                "unknown key 'comand' in stage (plugin 'exec') (did you mean 'command'?)"
            ),
            ("{ plugin: exek, command: [python3, enrich.py] }", "unknown stage plugin 'exek' (did you mean 'exec'?)"),
        ])
    func loading(item: String, message: String) throws {
        #expect(try F.issues(["{ plugin: exec, command: [python3, enrich.py] }": item]) == message)
    }
}

/// The stage streams: rmap writes objects while it reads answers, so a program that answers
/// each line as it reads it never waits on a full pipe (64 KiB), however many objects there are:
/// a writer that wrote everything before reading would hang here. Through the binary users run,
/// in a process of its own (in this process, the other suites' tasks share its threads).
@Suite("exec stage streaming")
struct ExecStageStreamingTests {
    @Test(
        "5,000 objects (half a megabyte each way) through a program that answers line by line", .timeLimit(.minutes(30))
    )
    func streams() async throws {
        let count = 5_000
        let workspace = try ExecPluginFixtures.workspace()
        let records = (1...count).map { #"{"id": \#($0), "name": "person \#($0)", "score": \#($0 % 100)}"# }
        try workspace.write("people.json", "[" + records.joined(separator: ",\n") + "]")
        let result = try await workspace.rmap(["run", "people.yml", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try workspace.rows("SELECT count(*) FROM people WHERE rank IS NOT NULL AND email LIKE '%@example.com'")
                == [[.integer(Int64(count))]])
    }
}
