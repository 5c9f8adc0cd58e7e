import Foundation
import RMap
import RMapSQLite
import Testing

extension FaultServerSuites {
    /// `rmap push` stopped by `SIGINT` or `SIGTERM` while a request waits for its answer: it says
    /// that what it pushed is journalled and dies by the signal (docs/cli.md, "Interrupts").
    @Suite("rmap push interrupted")
    struct PushInterruptTests {
        @Test(
            "a push interrupted while its PUT waits says the changes so far are journalled",
            arguments: [SIGINT, SIGTERM])
        func interrupted(signal: Int32) async throws {
            let site = try TestServers.fault()
            let marker = marker()
            let workspace = try RunWorkspace([
                "m.yml": """
                rmap: 1
                source: { plugin: http, site: "\(site.absoluteString)", params: { seconds: "0" } }
                entities:
                  Item: { path: "slow/\(marker)", attributes: { id: int, name: string } }

                """
            ])
            let run = try await workspace.rmap(["run", "m.yml", "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
            try SQLiteConnection(path: workspace.path("rmap.sqlite")).execute(
                "UPDATE items SET name = 'Local' WHERE id = 1")

            // The PUT to /slow/<marker>/1.json waits 5 s for its answer.
            let log = workspace.path("push.log")
            let child = try ChildProcess(
                try CLIRunner.binary().path,
                ["push", workspace.path("m.yml"), "--store", "sqlite:\(workspace.path("rmap.sqlite"))"], log: log)
            try await Plain.awaitRequest(site, containing: "\(marker)/1")
            child.send(signal)
            let ended = await DedicatedThread.run { child.wait() }.get()
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(ended.signal == signal, "\(output)")
            #expect(
                output.hasSuffix(
                    "interrupted: the pushed changes so far are journalled; push again to send the rest\n"), "\(output)"
            )
        }
    }
}
