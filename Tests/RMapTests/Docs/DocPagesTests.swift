import Foundation
import RMapPostgres
import Testing

/// The documentation as a user meets it: every Swift example compiled (the
/// DocExamples plugin builds them into `rmap-doc-examples`), and every console
/// session, file and example output on every page reproduced by running it
/// (``DocWalk``), with the servers the page names.
@Suite("Docs, compiled and run")
struct DocPagesTests {
    /// README.md and every page of docs/.
    static let pages = DocLinksTests.pages

    /// Whether a page's commands use the Rails app: they write its address `http://127.0.0.1:PORT`.
    static func usesRails(_ page: String) -> Bool {
        let text = try? String(contentsOf: TestServers.repositoryRoot.appendingPathComponent(page), encoding: .utf8)
        return DocTranscript(markdown: text ?? "").steps.contains { step in
            if case .command(let command, _, _) = step { command.contains("http://127.0.0.1:PORT") } else { false }
        }
    }

    /// Pages walked by a test of their own, which checks more than the output.
    static let walkedElsewhere = ["docs/postgres.md"]

    @Test("every Swift block of README.md and docs/ is compiled into rmap-doc-examples")
    func everySwiftBlockIsCompiled() async throws {
        var expected: [String] = []
        for page in Self.pages {
            let text = try String(contentsOf: TestServers.repositoryRoot.appendingPathComponent(page), encoding: .utf8)
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

    @Test(
        "every console session, file and example output is what the page shows",
        arguments: pages.filter { !usesRails($0) && !walkedElsewhere.contains($0) })
    func page(_ page: String) async throws {
        let mismatches = try await DocWalk(page: page).mismatches()
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

    @Test("a block of commands neither run nor marked with a reason is a page error; a marked one is skipped")
    func unmarkedCommands() {
        let markdown = """
            ```sh
            rmap run mappings/*.yml
            ```

            ```text
            $ rmap status mappings/*.yml
            ```

            <!-- not run: -->
            ```sh
            rmap push mappings/*.yml
            ```

            <!-- not run: it needs a server at db.internal -->
            ```console
            $ rmap run mappings/*.yml --store postgres://db.internal/crm
            ```

            ```text
            fetch: done
            ```
            """
        let transcript = DocTranscript(markdown: markdown)
        #expect(transcript.unmarked == [2, 6, 11])
        #expect(transcript.notRun.map(\.reason) == ["it needs a server at db.internal"])
        #expect(transcript.steps.isEmpty)
    }

    @Test("times, rates and ports compare equal whatever their values; other text does not")
    func normalisation() {
        let page = "fetched P: 12 records from p.json (5.4 KiB) in 0.01s, 1,541 records/s, ETA 3s at 127.0.0.1:PORT\n"
        let run = "fetched P: 12 records from p.json (5.4 KiB) in 1.27s, 9 records/s, ETA 12s at 127.0.0.1:40213\n"
        #expect(DocWalk.normalized(page) == DocWalk.normalized(run))
        #expect(
            DocWalk.normalized(page)
                != DocWalk.normalized(run.replacingOccurrences(of: "12 records", with: "13 records")))
        #expect(
            DocWalk.normalized(page) != DocWalk.normalized(run.replacingOccurrences(of: "5.4 KiB", with: "5.5 KiB")))
    }

    @Test("an unknown example is an error")
    func unknownExample() async throws {
        let result = try await CLIRunner.run(["readme-99"], executable: DocExamplesBinary.locate().path)
        #expect(result.stderr == "no example 'readme-99'; see 'rmap-doc-examples list'\n")
        #expect(result.status == 2)
    }
}

extension RailsServerSuites {
    /// The pages whose commands use the Rails app (README.md, docs/push.md): fetching, the library
    /// example, diff and push.
    @Suite("Docs, run against Rails")
    struct ReadmeRailsTests {
        @Test(
            "every console session, file and example output is what the page shows",
            arguments: DocPagesTests.pages.filter(DocPagesTests.usesRails))
        func page(_ page: String) async throws {
            let rails = try TestServers.rails()
            try await PushServer.reset(rails)
            let mismatches = try await DocWalk(page: page).mismatches(rails: rails)
            #expect(mismatches.isEmpty, "\(mismatches.map(\.description).joined(separator: "\n"))")
            try await PushServer.reset(rails)
        }

        @Test("the pages that use the Rails app are README.md and docs/push.md")
        func railsPages() {
            #expect(DocPagesTests.pages.filter(DocPagesTests.usesRails) == ["README.md", "docs/push.md"])
        }
    }
}
