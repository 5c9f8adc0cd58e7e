import Foundation
import RMap
import Testing

/// `rmap run` on a mapping with a Python exec stage and exec transformer, through the binary.
@Suite("rmap run: exec stage and transformer")
struct ExecPluginCommandTests {
    typealias F = ExecPluginFixtures

    @Test("the stage's and the transformer's answers are stored")
    func run() async throws {
        let workspace = try F.workspace()
        let result = try await workspace.rmap(["run", "people.yml"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.rows(F.query) == F.enriched)
    }

    @Test("a rejected answer is printed with the program and line, and the run exits 3")
    func rejected() async throws {
        let workspace = try F.workspace(F.stage("wrong-type"))
        let result = try await workspace.rmap(["run", "people.yml"])
        #expect(result.status == 3)
        #expect(
            result.stderr.contains(
                #"exec python3 enrich.py wrong-type record 1 (Person id=2): attribute 'score': cannot read "eighty-five" as an int (output line 2)"#
            ), "\(result.stderr)")
    }

    @Test("a program's non-zero exit fails the run (exit 1) and leaves the store as it was")
    func failure() async throws {
        let workspace = try F.workspace()
        #expect(try await workspace.rmap(["run", "people.yml"]).status == 0)
        let before = workspace.bytes()
        for (script, edit) in [("enrich.py", F.stage("fail")), ("upcase.py", F.transformer("fail"))] {
            let failing = try F.workspace(edit)
            try FileManager.default.copyItem(atPath: workspace.path("rmap.sqlite"), toPath: failing.path("rmap.sqlite"))
            try failing.write("people.json", #"[{"id": 1, "name": "ada byron", "score": 10}]"#)
            let result = try await failing.rmap(["run", "people.yml"])
            #expect(result.status == 1)
            #expect(
                result.stderr.contains("Error: exec python3 \(script) fail: exited with status"), "\(result.stderr)")
            #expect(failing.bytes() == before)
        }
    }
}
