import Foundation
import RMap
import RMapSQLite
import Testing

/// `rmap run --record DIR` saves every HTTP exchange, redacted; `--replay DIR` answers the same
/// run from it with no server.
extension DjangoServerSuites {
    @Suite("rmap run --record and --replay")
    struct RecordReplayTests {
        @Test("a recorded run replays offline into the same store; the directory holds every exchange")
        func roundTrip() async throws {
            let site = try TestServers.django().url
            try await PushServer.reset(site)
            let directory = try TemporaryDirectory()
            let mapping = TestServers.repositoryRoot.appendingPathComponent("examples/django/page-number.yml").path
            let recorded = try await CLIRunner.run(
                ["run", mapping, "--store", "recorded.sqlite", "--json", "--record", "exchanges"], in: directory.url,
                environment: ["DJANGO_URL": site.absoluteString])
            #expect(recorded.status == 0, "\(recorded.stderr)")

            // One line per request the server saw, each naming a body file that is there.
            let served = try await PushServer.log(site)
            let index = directory.url.appendingPathComponent("exchanges/exchanges.jsonl")
            let lines = try String(contentsOf: index, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == served.count)
            let exchanges = try lines.map { try JSONReader.parse(String($0), origin: "line").object ?? JSONObject() }
            #expect(exchanges.compactMap { $0["exchange"] }.count == lines.count)
            let paths = exchanges.compactMap { $0["request"]?.object?["url"]?.string }.map {
                String($0.dropFirst(site.absoluteString.count))
            }
            #expect(paths.sorted() == served.map(\.path).sorted())
            for exchange in exchanges {
                let response = try #require(exchange["response"]?.object)
                #expect(response["status"] == .number("200"))
                let body = try #require(response["body"]?.string)
                #expect(
                    FileManager.default.fileExists(
                        atPath: index.deletingLastPathComponent().appendingPathComponent(body).path))
            }

            // No server at all: the same run, answered from the recording.
            let replayed = try await CLIRunner.run(
                ["run", mapping, "--store", "replayed.sqlite", "--json", "--replay", "exchanges"], in: directory.url,
                environment: ["DJANGO_URL": "http://127.0.0.1:9"])
            #expect(replayed.status == 0, "\(replayed.stderr)")
            #expect(try DjangoServerSuites.DjangoExampleTests.totals(replayed) == DjangoExampleTests.totals(recorded))
            for table in ["people", "projects", "tasks"] {
                let query = "SELECT * FROM \(table) ORDER BY id"
                let original = try SQLiteConnection(path: directory.url.appendingPathComponent("recorded.sqlite").path)
                let copy = try SQLiteConnection(path: directory.url.appendingPathComponent("replayed.sqlite").path)
                #expect(try copy.query(query, []) == original.query(query, []), "\(table)")
            }
        }
    }
}

/// What `--record` and `--replay` refuse, each with a clear message.
@Suite("rmap run --record and --replay errors")
struct RecordReplayErrorTests {
    static let mapping = """
        rmap: 1
        source: { plugin: http, site: "http://127.0.0.1:9", retries: 0 }
        entities:
          Item:
            attributes: { id: int }
        """

    static func workspace() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try mapping.write(to: directory.url.appendingPathComponent("items.yml"), atomically: true, encoding: .utf8)
        return directory
    }

    @Test("both at once is a usage error")
    func both() async throws {
        let directory = try Self.workspace()
        let result = try await CLIRunner.run(
            ["run", "items.yml", "--record", "a", "--replay", "b"], in: directory.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--record and --replay cannot be used together"), "\(result.stderr)")
    }

    @Test("a directory that holds a recording is not recorded over; one without a recording is not replayed")
    func directories() async throws {
        let directory = try Self.workspace()
        let recording = directory.url.appendingPathComponent("old")
        try FileManager.default.createDirectory(at: recording, withIntermediateDirectories: true)
        try Data().write(to: recording.appendingPathComponent("exchanges.jsonl"))
        let over = try await CLIRunner.run(["run", "items.yml", "--record", "old"], in: directory.url)
        #expect(over.status == 1)
        #expect(over.stderr.contains("old already holds a recording (exchanges.jsonl); record into an empty directory"))
        let missing = try await CLIRunner.run(["run", "items.yml", "--replay", "nothing"], in: directory.url)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Error: cannot read the recording"), "\(missing.stderr)")
        #expect(missing.stderr.contains("nothing/exchanges.jsonl"), "\(missing.stderr)")
    }

    @Test("a request the recording has no answer for fails the run, and a line that is not an exchange names its place")
    func unanswered() async throws {
        let directory = try Self.workspace()
        let recording = directory.url.appendingPathComponent("old")
        try FileManager.default.createDirectory(at: recording, withIntermediateDirectories: true)
        try Data().write(to: recording.appendingPathComponent("exchanges.jsonl"))
        let result = try await CLIRunner.run(
            ["run", "items.yml", "--replay", "old", "--store", "x.sqlite"], in: directory.url)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "GET http://127.0.0.1:9/items.json: fetching Item: recording: no answer left in \(recording.path) for this request (the recording has 0)"
            ), "\(result.stderr)")
        try Data("{\"exchange\": 1}\n".utf8).write(to: recording.appendingPathComponent("exchanges.jsonl"))
        let broken = try await CLIRunner.run(["run", "items.yml", "--replay", "old"], in: directory.url)
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("old/exchanges.jsonl:1: not a recorded exchange"), "\(broken.stderr)")
    }
}
