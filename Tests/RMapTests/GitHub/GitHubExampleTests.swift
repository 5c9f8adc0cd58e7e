import Foundation
import RMapSQLite
import Testing

/// `examples/github/issues.yml`: it validates, never shows the token, maps
/// the recorded issues and plans an issue's change the way GitHub takes it.
@Suite("GitHub: the example mapping")
struct GitHubExampleTests {
    static let example = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/github/issues.yml")

    static let token = "ghp_Xq7TestTokenValue0123456789abcdefABCD"

    /// The token set; the variables with defaults unset, so the defaults apply.
    static let environment: [String: String?] = [
        "GITHUB_TOKEN": token, "GITHUB_API_URL": nil, "GITHUB_REPOSITORY": nil,
    ]

    @Test("rmap validate accepts it when GITHUB_TOKEN is set, and names the variable when it is not")
    func validates() async throws {
        let result = try await CLIRunner.run(["validate", Self.example.path], environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "ok: 3 entities in 1 file\n")
        let unset = try await CLIRunner.run(["validate", Self.example.path], environment: ["GITHUB_TOKEN": nil])
        #expect(unset.status == 2)
        #expect(unset.stderr.contains("environment variable 'GITHUB_TOKEN' is not set"), "\(unset.stderr)")
    }

    @Test("rmap inspect never shows the token", arguments: ["text", "json", "mermaid", "dot"])
    func inspectHidesToken(format: String) async throws {
        let result = try await CLIRunner.run(
            ["inspect", Self.example.path, "--format", format], environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.isEmpty)
        #expect(!(result.stdout + result.stderr).contains(Self.token))
        if format == "text" {
            #expect(result.stdout.contains("Authorization: Bearer ***"))
            #expect(result.stdout.contains("paginate: link_header"))
            #expect(result.stdout.contains("root: bare"))
            #expect(result.stdout.contains("push: patch"))
        }
    }

    @Test("its entities map a recorded issues page; a changed state is planned as PATCH .../issues/{number}")
    func mapsAndPlans() async throws {
        // The example with its http source swapped for the recorded first page of a repository's issues.
        let text = try String(contentsOf: Self.example, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let source = try #require(lines.firstIndex(of: "source:"))
        let naming = try #require(lines.firstIndex(of: "naming:"))
        let offline = lines[..<source] + ["source: { plugin: file, path: issues.json }"] + lines[naming...]
        let workspace = try RunWorkspace([
            "issues.yml": text, "offline.yml": offline.joined(separator: "\n"),
            "issues.json": try Octokit.text("issues-page-1.json"),
        ])
        let run = try await CLIRunner.run(
            ["run", "offline.yml", "--quiet"], in: workspace.url, environment: Self.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try workspace.rows("SELECT number, id, state, user_id FROM issues ORDER BY number", store: "github.sqlite")
                == [
                    [.integer(11), .integer(1002), .text("open"), .integer(1000)],
                    [.integer(12), .integer(1001), .text("open"), .integer(1000)],
                    [.integer(13), .integer(1000), .text("open"), .integer(1000)],
                ])
        #expect(try workspace.rows("SELECT count(*) FROM users", store: "github.sqlite") == [[.integer(1)]])
        #expect(
            Octokit.lines(
                try workspace.rows("SELECT name FROM pragma_table_info('issues_labels')", store: "github.sqlite"))
                == ["issue_number", "label_name"])

        let store = workspace.path("github.sqlite")
        try SQLiteConnection(path: store).execute("UPDATE issues SET state = 'closed' WHERE number = 13")
        let diff = try await CLIRunner.run(["diff", "issues.yml"], in: workspace.url, environment: Self.environment)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(
            diff.stdout == """
                PATCH /repos/octokit/octokit.rb/issues/13 {"state":"closed"}
                1 request: 0 POST, 0 PUT, 1 PATCH, 0 DELETE

                """)
    }
}
