import Foundation
import RMapPostgres
import Testing

/// The documentation as a user meets it: every Swift example compiled (the
/// DocExamples plugin builds them into `rmap-doc-examples`), and every console
/// session, file and example output on a page reproduced by running it
/// (``DocWalk``).
@Suite("Docs, compiled and run")
struct DocPagesTests {
    @Test("every Swift block of README.md and docs/ is compiled into rmap-doc-examples")
    func everySwiftBlockIsCompiled() async throws {
        var expected: [String] = []
        let root = TestServers.repositoryRoot
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
        let pages = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        for page in pages {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            let blocks = text.components(separatedBy: "\n").filter {
                $0.trimmingCharacters(in: .whitespaces) == "```swift"
            }
            let stem = URL(fileURLWithPath: page).deletingPathExtension().lastPathComponent.lowercased()
            expected += blocks.indices.map { "\(stem)-\($0 + 1)" }
        }
        let listed = try await CLIRunner.run(["list"], executable: DocExamplesBinary.locate().path)
        #expect(listed.stdout == expected.map { $0 + "\n" }.joined())
        #expect(expected.contains("readme-1") && expected.contains("postgres-1"))
    }

    @Test("docs/cli.md: every console session prints what the page shows")
    func cliPage() async throws {
        let mismatches = try await DocWalk(page: "docs/cli.md").mismatches()
        #expect(mismatches.isEmpty, "\(mismatches.map(\.description).joined(separator: "\n"))")
    }

    @Test("docs/architecture.md: the plugin example prints what the page shows")
    func architecturePage() async throws {
        let mismatches = try await DocWalk(page: "docs/architecture.md").mismatches()
        #expect(mismatches.isEmpty, "\(mismatches.map(\.description).joined(separator: "\n"))")
    }

    @Test("docs/postgres.md: the Swift example runs the example into PostgreSQL (a fresh schema)")
    func postgresPage() async throws {
        let schema = try TemporaryDirectory()
        let url = try PostgresSchemas.url(for: schema.url)
        let mismatches = try await DocWalk(page: "docs/postgres.md").mismatches(environment: ["DATABASE_URL": url])
        #expect(mismatches.isEmpty, "\(mismatches.map(\.description).joined(separator: "\n"))")
        let rows = try PostgresConnection(url: url).query("SELECT count(*) FROM people", [])
        #expect(rows.rows == [["12"]])
    }

    @Test("an unknown example is an error")
    func unknownExample() async throws {
        let result = try await CLIRunner.run(["readme-99"], executable: DocExamplesBinary.locate().path)
        #expect(result.stderr == "no example 'readme-99'; see 'rmap-doc-examples list'\n")
        #expect(result.status == 2)
    }
}

extension RailsServerSuites {
    /// README.md and docs/push.md against the Rails app: fetching, the library example, diff and push.
    @Suite("README, run against Rails")
    struct ReadmeRailsTests {
        @Test(
            "every console session, file and example output is what the page shows",
            arguments: ["README.md", "docs/push.md"])
        func page(_ page: String) async throws {
            let rails = try TestServers.rails()
            try await PushServer.reset(rails)
            let mismatches = try await DocWalk(page: page).mismatches(rails: rails)
            #expect(mismatches.isEmpty, "\(mismatches.map(\.description).joined(separator: "\n"))")
            try await PushServer.reset(rails)
        }
    }
}
