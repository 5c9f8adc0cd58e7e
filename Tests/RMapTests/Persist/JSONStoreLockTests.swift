import Foundation
import RMap
import Testing

/// Two processes writing one JSON store take turns, as with SQLite (docs/mapping.md, "Stores"):
/// nothing of either run is lost, a waiting write that runs out of time fails with the lock's
/// name, and a crashed write's temporary file goes at the next write.
@Suite("JSON store: a lock file and an atomic replace")
struct JSONStoreLockTests {
    /// Two mapping files of disjoint entities into one JSON store, with `count` records each.
    static func workspace(count: Int) throws -> RunWorkspace {
        let workspace = try RunWorkspace()
        for name in ["Apple", "Pear"] {
            try workspace.write(
                "\(name.lowercased()).yml",
                """
                rmap: 1
                store: { plugin: json, path: graph.json, busy_timeout: 120 }
                entities:
                  \(name):
                    source: { plugin: file, path: "data/{collection}.json" }
                    attributes: { id: int, name: string }

                """)
            let records = (1...count).map { #"{"id": \#($0), "name": "\#(name) \#($0)"}"# }
            try workspace.write("data/\(name.lowercased())s.json", "[" + records.joined(separator: ",\n") + "]")
        }
        return workspace
    }

    /// The number of rows of each table of the workspace's `graph.json`.
    static func rows(_ workspace: RunWorkspace) throws -> [String: Int] {
        let data = try #require(workspace.bytes("graph.json"))
        let document = try #require(try JSONReader.parse(data, origin: "graph.json").object)
        var counts: [String: Int] = [:]
        for (key, value) in document.members where !key.hasPrefix("_") { counts[key] = value.array?.count }
        return counts
    }

    @Test("two runs started at once into one JSON store both keep every row")
    func concurrentRuns() async throws {
        let workspace = try Self.workspace(count: 20_000)
        let binary = try CLIRunner.binary().path
        let paths = ["apple", "pear"].map { (mapping: workspace.path("\($0).yml"), log: workspace.path("\($0).log")) }
        let ended = try await withThrowingTaskGroup(of: ChildProcess.Termination.self) { group in
            for (mapping, log) in paths {
                group.addTask {
                    try await ProcessSlots.shared.holding {
                        try await DedicatedThread.run {
                            try ChildProcess(binary, ["run", mapping, "--quiet"], log: log).wait()
                        }.get()
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let logs = paths.map { String(decoding: FileManager.default.contents(atPath: $0.log) ?? Data(), as: UTF8.self) }
        #expect(ended.map(\.status) == [0, 0], "\(logs)")
        #expect(try Self.rows(workspace) == ["apples": 20_000, "pears": 20_000])
        #expect(FileManager.default.fileExists(atPath: workspace.path("graph.json.lock")))
        let names = try FileManager.default.contentsOfDirectory(atPath: workspace.url.path)
        #expect(!names.contains { $0.hasPrefix(".graph.json.tmp-") }, "\(names)")
    }

    @Test("a write that waits longer than busy_timeout fails, naming the lock, and writes nothing")
    func lockedOut() async throws {
        let workspace = try Self.workspace(count: 3)
        let first = try await workspace.rmap(["run", "apple.yml", "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        let before = workspace.bytes("graph.json")
        let lock = open(workspace.path("graph.json.lock"), O_RDWR | O_CREAT, 0o600)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX) == 0)
        try workspace.write(
            "pear.yml",
            String(decoding: try #require(workspace.bytes("pear.yml")), as: UTF8.self)
                .replacingOccurrences(of: "busy_timeout: 120", with: "busy_timeout: 0.2"))
        let locked = try await workspace.rmap(["run", "pear.yml", "--quiet"])
        #expect(
            locked.stderr
                == "Error: graph.json: another rmap is writing this JSON store (it holds graph.json.lock); "
                + "waited 0.2 s (busy_timeout): try again when it is done\n")
        #expect(locked.status == 1)
        #expect(workspace.bytes("graph.json") == before)
    }

    @Test("a temporary file a killed write left beside the store is deleted by the next write")
    func leftover() async throws {
        let workspace = try Self.workspace(count: 3)
        try workspace.write(".graph.json.tmp-abc123", "{\"half\": ")
        try workspace.write(".graph.json.tmp-keepme-not-ours", "{}")
        let run = try await workspace.rmap(["run", "apple.yml", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.rows(workspace) == ["apples": 3])
        #expect(workspace.bytes(".graph.json.tmp-abc123") == nil)
        #expect(workspace.bytes(".graph.json.tmp-keepme-not-ours") != nil)
    }

    @Test("the store keeps its mode when it is replaced")
    func mode() async throws {
        let workspace = try Self.workspace(count: 3)
        _ = try await workspace.rmap(["run", "apple.yml", "--quiet"])
        #expect(chmod(workspace.path("graph.json"), 0o640) == 0)
        let again = try await workspace.rmap(["run", "pear.yml", "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        var status = stat()
        #expect(stat(workspace.path("graph.json"), &status) == 0)
        #expect(status.st_mode & 0o777 == 0o640)
        #expect(try Self.rows(workspace) == ["apples": 3, "pears": 3])
    }
}
