import Foundation
import Testing

/// `rmap status` and `rmap diff` only read: they work on a store the user cannot write (a
/// shared file, a read-only mount), whether or not a run left run state in it.
@Suite("rmap status and diff: a store that cannot be written")
struct ReadOnlyStoreTests {
    static func workspace(skipUnchanged: Bool) throws -> RunWorkspace {
        try RunWorkspace([
            "m.yml": """
            rmap: 1
            entities:
              Note:
                source: { plugin: file, path: notes.json, skip_unchanged: \(skipUnchanged) }
                attributes: { id: int, text: string }

            """,
            "notes.json": #"[{"id": 1, "text": "one"}, {"id": 2, "text": "two"}]"#,
        ])
    }

    /// Runs `rmap arguments...` unable to write the workspace: as the user `nobody` when the
    /// tests run as root (whom file modes do not stop), else with the store and its folder read-only.
    static func readOnly(_ workspace: RunWorkspace, _ arguments: [String], store: String) async throws -> CLIResult {
        guard getuid() == 0 else {
            #expect(chmod(workspace.path(store), 0o444) == 0 && chmod(workspace.url.path, 0o555) == 0)
            defer { chmod(workspace.url.path, 0o755) }
            return try await CLIRunner.run(arguments, in: workspace.url)
        }
        let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups", try CLIRunner.binary().path]
        return try await CLIRunner.run(nobody + arguments, executable: "/usr/bin/setpriv", in: workspace.url)
    }

    @Test(
        "status and diff read a store they cannot write, with and without run state in it",
        arguments: [(false, "rmap.sqlite"), (true, "rmap.sqlite"), (false, "graph.json"), (true, "graph.json")])
    func readOnly(skipUnchanged: Bool, store: String) async throws {
        let workspace = try Self.workspace(skipUnchanged: skipUnchanged)
        let option = ["--store", store.hasSuffix(".json") ? "json:\(store)" : store]
        let run = try await workspace.rmap(["run", "m.yml", "--quiet"] + option)
        #expect(run.status == 0, "\(run.stderr)")
        let before = workspace.bytes(store)
        let status = try await Self.readOnly(workspace, ["status", "m.yml"] + option, store: store)
        #expect(status.stderr == "")
        #expect(status.stdout.hasPrefix("entity  rows  create  update  delete  cursor  last sync\nNote       2"))
        #expect(status.status == 0)
        let diff = try await Self.readOnly(workspace, ["diff", "m.yml"] + option, store: store)
        #expect(diff.stderr == "")
        #expect(diff.stdout == "0 requests: 0 POST, 0 PUT, 0 DELETE\n")
        #expect(diff.status == 0)
        #expect(workspace.bytes(store) == before)
    }
}
