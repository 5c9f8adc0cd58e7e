import Foundation
import Testing

/// `rmap diff` and `rmap push` end to end on a file-sourced mapping (no server).
@Suite("diff and push commands")
struct DiffCommandTests {
    @Test("rmap diff prints one request a line and the counts; --json the same plan")
    func diff() async throws {
        let fixture = try SyncFixture()
        try fixture.sql("UPDATE people SET first_name = 'Augusta' WHERE id = 1")
        try fixture.sql("DELETE FROM projects WHERE id = 11")
        let arguments = ["diff", "crm.yml", "--store", "sqlite:crm.sqlite"]
        let text = try await CLIRunner.run(arguments, in: fixture.directory)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout == """
                PUT /people/1.json {"person":{"first_name":"Augusta"}}
                DELETE /projects/11.json
                2 requests: 0 POST, 1 PUT, 1 DELETE

                """)
        let json = try await CLIRunner.run(arguments + ["--json"], in: fixture.directory)
        #expect(json.status == 0)
        #expect(
            json.stdout == #"""
                {"requests":[{"method":"PUT","path":"/people/1.json","body":{"person":{"first_name":"Augusta"}}},{"method":"DELETE","path":"/projects/11.json","body":null}],"counts":{"POST":0,"PUT":1,"PATCH":0,"DELETE":1,"total":2}}

                """#)
        let dryRun = try await CLIRunner.run(
            ["push", "crm.yml", "--store", "sqlite:crm.sqlite", "--dry-run"], in: fixture.directory)
        #expect(dryRun.status == 0 && dryRun.stdout == text.stdout)
    }

    @Test("rmap push refuses an entity without an http source and sends nothing")
    func pushWithoutSite() async throws {
        let fixture = try SyncFixture()
        try fixture.sql("UPDATE people SET first_name = 'Augusta' WHERE id = 1")
        let result = try await CLIRunner.run(
            ["push", "crm.yml", "--store", "sqlite:crm.sqlite"], in: fixture.directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Person has no http source to push to"))
        #expect(try fixture.sync.changes().count == 1)
    }

    @Test("rmap push with nothing to do exits 0")
    func nothingToPush() async throws {
        let fixture = try SyncFixture()
        let result = try await CLIRunner.run(
            ["push", "crm.yml", "--store", "sqlite:crm.sqlite"], in: fixture.directory)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
