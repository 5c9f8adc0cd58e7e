import Foundation
import RMapSQLite
import Testing

/// GitHub labels: fetched from the recorded label list through a `file`
/// source, then planned back with the same entity on GitHub's `http` source
/// (`rmap diff` sends nothing, so it runs offline).
@Suite("GitHub: label changes planned as PATCH")
struct GitHubLabelsDiffTests {
    /// One Label entity; `SOURCE` is the file or the http source, so both mappings describe the same table.
    static let mapping = """
        rmap: 1
        SOURCE
        naming: { root: bare }
        entities:
          Label:
            path: repos/octokit-fixture-org/labels/labels
            identity: name                     # GitHub's label routes use names
            push: { method: patch }
            attributes:
              id: { type: int, readonly: true }
              name: string
              color: string
              description: string
              default: { type: bool, readonly: true }
        """

    static let fileSource = "source: { plugin: file, path: labels.json }"
    static let httpSource = #"source: { plugin: http, site: "https://api.github.com", suffix: "" }"#

    /// A store holding the recorded labels, fetched with the file-source mapping.
    static func fetched() async throws -> RunWorkspace {
        let workspace = try RunWorkspace([
            "labels-file.yml": mapping.replacingOccurrences(of: "SOURCE", with: fileSource),
            "labels-github.yml": mapping.replacingOccurrences(of: "SOURCE", with: httpSource),
            "labels.json": try Octokit.text("labels.json"),
        ])
        let run = try await workspace.rmap(["run", "labels-file.yml", "--store", "sqlite:labels.sqlite", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try workspace.rows("SELECT count(*) FROM labels", store: "labels.sqlite") == [[.integer(9)]])
        return workspace
    }

    @Test("a changed color: PATCH to the label's own URL, bare body with that attribute only")
    func changedColor() async throws {
        let workspace = try await Self.fetched()
        let unchanged = try await workspace.rmap(["diff", "labels-github.yml", "--store", "sqlite:labels.sqlite"])
        #expect(unchanged.status == 0, "\(unchanged.stderr)")
        #expect(unchanged.stdout == "0 requests: 0 POST, 0 PUT, 0 DELETE\n")

        try SQLiteConnection(path: workspace.path("labels.sqlite"))
            .execute("UPDATE labels SET color = 'BADA55' WHERE name IN ('bug', 'good first issue')")
        let diff = try await workspace.rmap(["diff", "labels-github.yml", "--store", "sqlite:labels.sqlite"])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(
            diff.stdout == """
                PATCH /repos/octokit-fixture-org/labels/labels/bug {"color":"BADA55"}
                PATCH /repos/octokit-fixture-org/labels/labels/good%20first%20issue {"color":"BADA55"}
                2 requests: 0 POST, 0 PUT, 2 PATCH, 0 DELETE

                """)

        // Each path is the one GitHub gives as the label's `url`.
        let urls = try Octokit.objects("labels.json").filter {
            ["bug", "good first issue"].contains($0["name"] as? String)
        }
        .map { try #require($0["url"] as? String) }
        let paths = diff.stdout.split(separator: "\n").dropLast().map { $0.split(separator: " ")[1] }
        #expect(urls.map { $0.replacingOccurrences(of: "https://api.github.com", with: "") } == paths.map(String.init))
    }

    @Test("the plan has the shape of the PATCH GitHub recorded: method, route, bare body of label keys")
    func recordedShape() async throws {
        let recorded = try Octokit.object("label-update-request.json")
        let recordedBody = try #require(recorded["body"] as? [String: Any])
        let recordedPath = try #require(recorded["path"] as? String)
        let workspace = try await Self.fetched()
        try SQLiteConnection(path: workspace.path("labels.sqlite"))
            .execute("UPDATE labels SET color = '\(try #require(recordedBody["color"] as? String))' WHERE name = 'bug'")
        let diff = try await workspace.rmap(["diff", "labels-github.yml", "--store", "sqlite:labels.sqlite", "--json"])
        #expect(diff.status == 0, "\(diff.stderr)")
        let plan = try #require(JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
        let requests = try #require(plan["requests"] as? [[String: Any]])
        let request = try #require(requests.first)
        #expect(requests.count == 1)
        #expect((request["method"] as? String) == (recorded["method"] as? String)?.uppercased())
        // Same route, another label: /repos/{owner}/{repo}/labels/{name}.
        let route = recordedPath.components(separatedBy: "/").dropLast().joined(separator: "/")
        #expect(request["path"] as? String == route + "/bug")
        // Bare (no {"label": ...} wrapper), and only keys GitHub's update takes.
        let body = try #require(request["body"] as? [String: Any])
        #expect(body.count == 1 && body["color"] as? String == recordedBody["color"] as? String)
        #expect(Set(body.keys).isSubset(of: recordedBody.keys))
    }
}
