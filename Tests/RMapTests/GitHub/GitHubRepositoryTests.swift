import Foundation
import RMapSQLite
import Testing

/// `GET /repos/{owner}/{repo}` as GitHub answers it: one bare record with a
/// nested `owner` and `organization` (the same account) and `permissions` kept as JSON.
@Suite("GitHub: a repository")
struct GitHubRepositoryTests {
    static let mapping = """
        rmap: 1
        source: { plugin: file, path: repository.json }
        naming: { root: bare }
        entities:
          Repository:
            attributes:
              id: int
              name: string
              fullName: string
              private: bool
              fork: bool
              hasIssues: bool
              description: string
              stargazersCount: int
              topics: [string]
              permissions: json
              license: json
              createdAt: datetime
              pushedAt: datetime
              defaultBranch: string
            relationships:
              owner: { to_one: User, nested: true }
              organization: { to_one: User, nested: true }
          User:
            source: false
            attributes:
              id: int
              login: string
              type: string
        """

    @Test("values in their stored forms; owner and organization are one user row")
    func repository() async throws {
        let payload = try Octokit.object("get-repository.json")
        let workspace = try RunWorkspace([
            "github.yml": Self.mapping, "repository.json": try Octokit.text("get-repository.json"),
        ])
        let result = try await workspace.rmap(["run", "github.yml", "--json"])
        #expect(result.status == 0, "\(result.stderr)")

        let columns = try workspace.rows("SELECT name, type FROM pragma_table_info('repositories') ORDER BY cid")
        #expect(
            Octokit.lines(columns) == [
                "id INTEGER", "name TEXT", "full_name TEXT", "private INTEGER", "fork INTEGER", "has_issues INTEGER",
                "description TEXT", "stargazers_count INTEGER", "topics TEXT", "permissions TEXT", "license TEXT",
                "created_at TEXT", "pushed_at TEXT", "default_branch TEXT", "owner_id INTEGER",
                "organization_id INTEGER",
            ])
        #expect(
            try workspace.rows("SELECT * FROM repositories") == [
                [
                    .integer(1000), .text("hello-world"), .text("octokit-fixture-org/hello-world"), .integer(0),
                    .integer(0), .integer(1), .null, .integer(42), .text(#"["fixtures","hello","hello-world"]"#),
                    .text(#"{"admin":true,"maintain":true,"push":true,"triage":true,"pull":true}"#), .null,
                    .text("2017-10-10T16:00:00.000Z"), .text("2017-10-10T16:00:00.000Z"), .text("master"),
                    .integer(1000), .integer(1000),
                ]
            ])
        let permissions = try workspace.rows("SELECT permissions FROM repositories")
        #expect(try Octokit.holdsJSON(permissions[0][0], try #require(payload["permissions"])))
        #expect(
            try workspace.rows("SELECT id, login, type FROM users")
                == [[.integer(1000), .text("octokit-fixture-org"), .text("Organization")]])

        let report = try RunJSON(result.stdout)
        #expect(report.counts("Repository")["inserted"] == 1)
        #expect(report.counts("User")["fetched"] == 2)
        #expect(report.counts("User")["inserted"] == 1)
        // 16 keys are mapped (owner and organization included); every other key of the record is counted.
        #expect(report.counts("Repository")["unmapped_keys"] == payload.count - 16)
    }
}
