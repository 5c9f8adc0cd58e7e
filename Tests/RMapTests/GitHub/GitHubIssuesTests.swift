import Foundation
import RMapSQLite
import Testing

/// GitHub issues as the REST API sends them (`Tests/Fixtures/octokit`), mapped
/// end to end by `rmap run`: bare records, a nested `user`, nested `labels`
/// identified by name, and the search envelope `{"total_count", "items"}`.
@Suite("GitHub: issues, their users and labels")
struct GitHubIssuesTests {
    /// Issues with their authors and labels; `PAYLOAD` and `RECORDS` are filled per test.
    static let mapping = """
        rmap: 1
        source: { plugin: file, path: PAYLOAD }
        naming: { root: bare }
        entities:
          Issue:
            RECORDS
            attributes:
              id: int
              number: int
              title: string
              state: string
              locked: bool
              comments: int
              body: string
              createdAt: datetime
              closedAt: datetime
              reactions: json
              pullRequest: json
            relationships:
              user: { to_one: User, nested: true }
              labels: { to_many: Label, nested: true }
          User:
            source: false
            attributes:
              id: int
              login: string
              type: string
              siteAdmin: bool
          Label:
            source: false
            identity: name
            attributes:
              id: int
              name: string
              color: string
              description: string
              default: bool
        """

    /// The payload keys the mapping reads, per entity (nested relationships included).
    static let issueKeys: Set = [
        "id", "number", "title", "state", "locked", "comments", "body", "created_at", "closed_at", "reactions",
        "pull_request", "user", "labels",
    ]
    static let userKeys: Set = ["id", "login", "type", "site_admin"]
    static let labelKeys: Set = ["id", "name", "color", "description", "default"]

    /// A workspace holding `payload` as `payload.json` and the mapping reading it (`records: items` when given).
    static func workspace(payload: String, records: String? = nil) throws -> RunWorkspace {
        let text = mapping.replacingOccurrences(of: "PAYLOAD", with: "payload.json")
            .replacingOccurrences(of: "RECORDS", with: records.map { "records: \($0)" } ?? "")
        return try RunWorkspace(["github.yml": text, "payload.json": payload])
    }

    @Test("the search envelope: the records under `items`, each value in its stored form, unmapped keys counted")
    func searchEnvelope() async throws {
        let envelope = try Octokit.object("search-issues.json")
        let items = try #require(envelope["items"] as? [[String: Any]])
        let workspace = try Self.workspace(payload: Octokit.text("search-issues.json"), records: "items")
        let result = try await workspace.rmap(["run", "github.yml", "--json"])
        #expect(result.status == 0, "\(result.stderr)")

        let issues = try workspace.rows(
            "SELECT id, number, title, state, locked, comments, created_at, closed_at, pull_request, user_id"
                + " FROM issues ORDER BY id")
        #expect(
            issues == [
                [
                    .integer(1000), .integer(2), .text("Sesame seeds split without a pop!"), .text("open"),
                    .integer(0), .integer(42), .text("2017-10-10T16:00:00.000Z"), .null, .null, .integer(1000),
                ],
                [
                    .integer(1001), .integer(1), .text("The doors don\u{2019}t open"), .text("open"), .integer(0),
                    .integer(42), .text("2017-10-10T16:00:00.000Z"), .null, .null, .integer(1001),
                ],
            ])
        // Non-ASCII text (a curly quote, an emoji) and a nested object kept as JSON come back unchanged.
        let stored = try workspace.rows("SELECT body, reactions FROM issues ORDER BY id")
        for (row, item) in zip(stored, items) {
            #expect(row[0] == .text(try #require(item["body"] as? String)))
            #expect(try Octokit.holdsJSON(row[1], try #require(item["reactions"])), "\(row[1])")
        }
        #expect(
            try workspace.rows("SELECT id, login, type, site_admin FROM users ORDER BY id") == [
                [.integer(1000), .text("octokit-fixture-user-b"), .text("User"), .integer(0)],
                [.integer(1001), .text("octokit-fixture-user-a"), .text("User"), .integer(0)],
            ])
        #expect(try workspace.rows("SELECT count(*) FROM labels") == [[.integer(0)]])

        let report = try RunJSON(result.stdout)
        #expect(report.counts("Issue")["fetched"] == 2)
        #expect(report.counts("Issue")["unmapped_keys"] == Octokit.unmapped(items, mapped: Self.issueKeys))
        #expect(report.counts("Issue")["unmapped_keys"] == 2 * 17)  // 29 keys, 12 of them mapped
        let users = try items.map { try #require($0["user"] as? [String: Any]) }
        #expect(report.counts("User")["unmapped_keys"] == Octokit.unmapped(users, mapped: Self.userKeys))
    }

    @Test("labels nested in issues: one row per name, linked through issues_labels(issue_id, label_name)")
    func nestedLabels() async throws {
        // The search fixture's issues carry no labels; give them labels of the recorded label list.
        var envelope = try Octokit.object("search-issues.json")
        let labels = try Octokit.objects("labels.json")
        var items = try #require(envelope["items"] as? [[String: Any]])
        items[0]["labels"] = [labels[0], labels[4]]
        items[1]["labels"] = [labels[0]]
        envelope["items"] = items
        let workspace = try Self.workspace(payload: Octokit.serialized(envelope), records: "items")
        let result = try await workspace.rmap(["run", "github.yml", "--json"])
        #expect(result.status == 0, "\(result.stderr)")

        #expect(
            try workspace.rows("SELECT name, id, color, description, \"default\" FROM labels ORDER BY name") == [
                [.text("bug"), .integer(1000), .text("d73a4a"), .text("Something isn't working"), .integer(1)],
                [.text("good first issue"), .integer(1004), .text("7057ff"), .text("Good for newcomers"), .integer(1)],
            ])
        #expect(
            try workspace.rows("SELECT name FROM pragma_table_info('issues_labels') ORDER BY cid") == [
                [.text("issue_id")], [.text("label_name")],
            ])
        #expect(
            try workspace.rows("SELECT issue_id, label_name FROM issues_labels ORDER BY issue_id, label_name") == [
                [.integer(1000), .text("bug")], [.integer(1000), .text("good first issue")],
                [.integer(1001), .text("bug")],
            ])
        let report = try RunJSON(result.stdout)
        #expect(report.counts("Label")["fetched"] == 3)
        #expect(report.counts("Label")["inserted"] == 2)
        #expect(
            report.counts("Label")["unmapped_keys"]
                == Octokit.unmapped([labels[0], labels[4], labels[0]], mapped: Self.labelKeys))
    }

    @Test("the identity map: one user who wrote three issues of a page is one row, every issue pointing at it")
    func oneAuthor() async throws {
        let page = try Octokit.objects("issues-page-1.json")
        let workspace = try Self.workspace(payload: Octokit.text("issues-page-1.json"))
        let result = try await workspace.rmap(["run", "github.yml", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try workspace.rows("SELECT number, user_id, body FROM issues ORDER BY number") == [
                [.integer(11), .integer(1000), .null], [.integer(12), .integer(1000), .null],
                [.integer(13), .integer(1000), .null],
            ])
        #expect(
            try workspace.rows("SELECT id, login FROM users") == [[.integer(1000), .text("octokit-fixture-user-a")]])
        let report = try RunJSON(result.stdout)
        #expect(report.counts("Issue")["inserted"] == 3)
        #expect(report.counts("User")["fetched"] == 3)
        #expect(report.counts("User")["inserted"] == 1)
        #expect(report.counts("Issue")["unmapped_keys"] == Octokit.unmapped(page, mapped: Self.issueKeys))

        let again = try await RunJSON(workspace.rmap(["run", "github.yml", "--json"]).stdout)
        #expect(again.totals["inserted"] == 0)
        #expect(again.totals["updated"] == 0)
    }
}
