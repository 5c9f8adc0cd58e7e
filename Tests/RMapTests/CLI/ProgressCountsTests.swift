import Foundation
import Testing

/// The progress lines of a run add up to its table: records nested in another entity's payloads
/// are counted on that entity's line.
@Suite("rmap run: progress counts")
struct ProgressCountsTests {
    @Test("users fetched on their own and nested in issues: the lines add up to the table's fetched")
    func nestedAndOwnPayloads() async throws {
        let issues = (1...5).map { #"{"number": \#($0), "user": {"id": \#($0 % 2 + 10), "login": "u\#($0)"}}"# }
        let workspace = try RunWorkspace([
            "gh.yml": """
            rmap: 1
            entities:
              Issue:
                source: { plugin: file, path: issues.json }
                identity: number
                attributes: { number: int }
                relationships:
                  user: { to_one: User, nested: true }
              User:
                source: { plugin: file, path: users.json }
                attributes: { id: int, login: string }
            """,
            "issues.json": "[" + issues.joined(separator: ",") + "]",
            "users.json": #"[{"id": 10, "login": "a"}, {"id": 11, "login": "b"}, {"id": 12, "login": "c"}]"#,
        ])
        let result = try await workspace.rmap(["run", "gh.yml", "--store", "memory:", "--jobs", "1"])
        #expect(
            result.fetchedLines.sorted() == [
                "fetched Issue: 5 records and 5 nested User from issues.json ",
                "fetched User: 3 records from users.json ",
            ])
        let user = result.stdout.split(separator: "\n").first { $0.hasPrefix("User ") }
        #expect(user?.split(separator: " ").dropFirst().first == "8", "\(result.stdout)")
        #expect(result.status == 0, "\(result.stderr)")
    }
}
