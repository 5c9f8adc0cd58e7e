import Foundation
import Testing

/// A first run that fails leaves no store behind, and the commands that read a store say
/// there is none rather than reading an empty one as a store with nothing to push.
@Suite("rmap run: a failed first run")
struct FailedFirstRunTests {
    /// A model whose run opens the store before it fetches (`required` looks up stored objects),
    /// over a payload that is not JSON.
    static let files = [
        "m.yml": """
        rmap: 1
        entities:
          Person:
            source: { plugin: file, path: people.json }
            attributes: { id: int, name: { type: string, required: true } }
        """,
        "people.json": "[{\"id\": 1, \"name\": \"Ada\"}\n",
    ]

    @Test("no store file is left, and diff and status then exit 1 saying there is no store")
    func noStoreLeft() async throws {
        let workspace = try RunWorkspace(Self.files)
        let run = try await workspace.rmap(["run", "m.yml", "--store", "s.sqlite", "--quiet"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.path("s.sqlite")))
        for command in ["diff", "status"] {
            let result = try await workspace.rmap([command, "m.yml", "--store", "s.sqlite"])
            #expect(result.stderr == "Error: no store at s.sqlite: run 'rmap run' first\n")
            #expect(result.status == 1)
        }
    }

    @Test("an empty file is no store: diff and status exit 1; a failed run leaves a store that existed as it was")
    func emptyFile() async throws {
        let workspace = try RunWorkspace(Self.files)
        try workspace.write("s.sqlite", "")
        for command in ["diff", "status"] {
            let result = try await workspace.rmap([command, "m.yml", "--store", "s.sqlite"])
            #expect(result.stderr == "Error: no store at s.sqlite: run 'rmap run' first\n")
            #expect(result.status == 1)
        }
        try workspace.write("people.json", "[{\"id\": 1, \"name\": \"Ada\"}]")
        #expect(try await workspace.rmap(["run", "m.yml", "--store", "s.sqlite", "--quiet"]).status == 0)
        let stored = workspace.bytes("s.sqlite")
        try workspace.write("people.json", "[{\"id\": 2")
        #expect(try await workspace.rmap(["run", "m.yml", "--store", "s.sqlite", "--quiet"]).status == 1)
        #expect(workspace.bytes("s.sqlite") == stored)
        #expect(try await workspace.rmap(["diff", "m.yml", "--store", "s.sqlite"]).status == 0)
    }
}
