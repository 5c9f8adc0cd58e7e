import Foundation
import Testing

/// What `rmap run` shows while it works: a bar on a terminal, a line per entity in a pipe.
@Suite("rmap run: progress on a terminal and in a pipe")
struct ProgressOutputTests {
    /// `Item` from three files in `items/` (2 records each), `Tag` from one.
    static func workspace() throws -> RunWorkspace {
        var files = [
            "m.yml": """
            rmap: 1
            entities:
              Item:
                source: { plugin: file, path: items }
                attributes: { id: int, name: string }
              Tag:
                source: { plugin: file, path: tags.json }
                attributes: { id: int }

            """,
            "tags.json": #"[{"id": 1}]"#,
        ]
        for file in 1...3 {
            files["items/\(file).json"] =
                "[{\"id\": \(2 * file), \"name\": \"x\"}, {\"id\": \(2 * file + 1), \"name\": \"y\"}]"
        }
        return try RunWorkspace(files)
    }

    @Test("in a pipe: stage lines and one line per entity with its records, files, size, time and rate")
    func pipe() async throws {
        let workspace = try Self.workspace()
        let result = try await workspace.rmap(["run", "m.yml", "--store", "memory:", "--jobs", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let pattern = /fetched Item: 6 records from 3 files \(\d+ B\) in \d+\.\d\ds(, [\d,]+ records\/s)?/
        #expect(lines.filter { $0.hasPrefix("fetched Item") }.count == 1, "\(lines)")
        #expect(lines.contains { $0.wholeMatch(of: pattern) != nil }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("fetched Tag: 1 record from tags.json (11 B) in ") }, "\(lines)")
        #expect(!result.stderr.contains("items/1.json"), "no line per file")
        #expect(!result.stderr.contains("\r"))
        let stages = lines.filter { !$0.hasPrefix("fetched ") }.map { $0.replacing(/\ in \d+\.\d\ds$/, with: "") }
        #expect(
            stages == [
                "load: started", "load: done", "fetch: started", "fetch: done", "connect: started", "connect: done",
                "persist: started", "persist: done",
            ])
    }

    @Test("on a terminal: a bar with percent and bytes, redrawn in place, cleared before the table")
    func terminal() async throws {
        let workspace = try Self.workspace()
        let result = try await TerminalRunner.run(["run", "m.yml", "--store", "memory:"], in: workspace.url)
        #expect(result.status == 0, "\(result.stdout)")
        let shown = result.stdout
        #expect(shown.contains("\r\u{1B}[Kfetch [\u{1B}[32m====================\u{1B}[0m] 100%  "), "\(shown)")
        #expect(shown.contains(/\r\u{1B}\[Kfetch \[.*\] +\d+%  \d+ B of \d+ B/), "\(shown)")
        #expect(shown.contains("\r\u{1B}[Kfetched Item: 6 records from 3 files ("))
        #expect(shown.contains(/\r\u{1B}\[Kpersist: done in \d+\.\d\ds\Rentity  fetched  inserted/), "\(shown)")
    }

    @Test("on a terminal with NO_COLOR: the same bar without colour")
    func noColor() async throws {
        let workspace = try Self.workspace()
        let result = try await TerminalRunner.run(
            ["run", "m.yml", "--store", "memory:"], in: workspace.url, environment: ["NO_COLOR": "1"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("fetch [====================] 100%  "), "\(result.stdout)")
        #expect(!result.stdout.contains("\u{1B}[3"))
    }

    @Test(
        "no status line on a dumb terminal, with --json or --quiet",
        arguments: [("dumb", ["--json"]), ("xterm", ["--json"]), ("dumb", []), ("xterm", ["--quiet"])])
    func noBar(term: String, options: [String]) async throws {
        let workspace = try Self.workspace()
        let result = try await TerminalRunner.run(
            ["run", "m.yml", "--store", "memory:"] + options, in: workspace.url, term: term)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(!result.stdout.contains("\u{1B}["), "\(result.stdout)")
        #expect(result.stdout.contains("fetched Item: 6 records") == !options.contains("--quiet"))
    }
}

extension RailsServerSuites {
    @Suite("rmap run: progress of pages the Rails app counts")
    struct ProgressPagesTests {
        /// Each test starts from the seed (25 people): the push suites change the shared app's data.
        init() async throws {
            try await PushServer.reset(try TestServers.rails())
        }

        /// People, 10 a page: the app's `X-Total-Count` says 3 pages.
        static func workspace() throws -> RunWorkspace {
            try RunWorkspace([
                "people.yml": """
                rmap: 1
                source: { plugin: http, site: "\(try TestServers.rails().absoluteString)", page_size: 10, paginate: page }
                entities:
                  Person: { attributes: { id: int, email: string } }

                """
            ])
        }

        @Test("in a pipe: one line for the three pages")
        func pipe() async throws {
            let result = try await Self.workspace().rmap(["run", "people.yml", "--store", "memory:"])
            #expect(result.status == 0, "\(result.stderr)")
            let fetched = result.fetchedLines
            #expect(fetched.count == 1)
            #expect(fetched.first?.hasPrefix("fetched Person: 25 records from 3 pages in ") == true, "\(fetched)")
        }

        @Test("on a terminal: the bar counts pages")
        func terminal() async throws {
            let workspace = try Self.workspace()
            let result = try await TerminalRunner.run(["run", "people.yml", "--store", "memory:"], in: workspace.url)
            #expect(result.status == 0, "\(result.stdout)")
            #expect(result.stdout.contains("fetch [\u{1B}[32m====================\u{1B}[0m] 100%  3 of 3 pages"))
        }
    }
}
