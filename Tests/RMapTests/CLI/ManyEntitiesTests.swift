import Foundation
import RMap
import Testing

/// A run's cost in the number of entities: every step rmap takes before, between and after
/// the payloads (the graph schema, the fetch plan, the mapper's plans, the store's layout, the
/// mapping's fingerprint) is linear in the entities, so a model of 10,000 entities plans in
/// well under 2 s with the release binary (docs/performance.md). Each entity has a payload
/// file of its own and a foreign key to the one before.
///
/// What is measured leaves out SQLite's own schema work, which is not linear: each `CREATE`
/// scans the whole schema table, so a new store of N tables costs N² (performance.md). The
/// planning is `rmap validate`'s; the run goes into a store a first run gave its schema, with
/// changed payloads, so that it stages, connects and merges every entity, and creates only its
/// per-run staging tables (each of those scans the temporary schema: 4x the entities may cost
/// up to 8x, not 16x).
@Suite("rmap run: many entities")
struct ManyEntitiesTests {
    /// A workspace with `count` entities, each with a one-record file.
    static func workspace(_ count: Int) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("data"), withIntermediateDirectories: true)
        var lines = ["rmap: 1", "source: { plugin: file, path: 'data/{collection}.json' }", "entities:"]
        for index in 0..<count {
            lines.append("  Thing\(index):")
            lines.append("    attributes: { id: int, name: string, parentId: int }")
            if index > 0 {
                lines.append(
                    "    relationships: { parent: { to_one: Thing\(index - 1), connect: { foreign_key: { parentId: id } } } }"
                )
            }
            try directory.write("data/thing\(index)s.json", #"[{"id": 1, "name": "x", "parent_id": 1}]"#)
        }
        try directory.write("m.yml", lines.joined(separator: "\n") + "\n")
        return directory
    }

    /// The processor time of `rmap arguments...` in `directory` (`{store}` for its store).
    static func cpuSeconds(_ arguments: [String], in directory: TemporaryDirectory) async throws -> Double {
        let binary = try CLIRunner.binary().path
        let store = "sqlite:" + directory.url.appendingPathComponent("store.sqlite").path
        let arguments = arguments.map { $0 == "{store}" ? store : $0 }
        let log = directory.url.appendingPathComponent("run.log").path
        let ended = try await ProcessSlots.shared.holding {
            try await DedicatedThread.run { try ChildProcess(binary, arguments, log: log).wait() }.get()
        }
        #expect(ended.status == 0, "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        return ended.cpuSeconds
    }

    /// The processor time of planning `count` entities (`rmap validate`).
    static func planning(_ count: Int) async throws -> Double {
        let directory = try workspace(count)
        return try await cpuSeconds(["validate", directory.url.appendingPathComponent("m.yml").path], in: directory)
    }

    /// The processor time of a run of `count` entities into a store that holds their schema
    /// already, every payload changed since the run that made it.
    static func run(_ count: Int) async throws -> Double {
        let directory = try workspace(count)
        let run = ["run", directory.url.appendingPathComponent("m.yml").path, "--store", "{store}", "--quiet"]
        _ = try await cpuSeconds(run, in: directory)
        for index in 0..<count {
            try directory.write("data/thing\(index)s.json", #"[{"id": 1, "name": "changed", "parent_id": 1}]"#)
        }
        return try await cpuSeconds(run, in: directory)
    }

    @Test("planning: eight times the entities cost at most twelve times the processor time (a quadratic step costs 64)")
    func linearPlanning() async throws {
        let small = try await Self.planning(500)
        let large = try await Self.planning(4000)
        print("rmap validate, processor time: 500 entities \(small) s, 4,000 entities \(large) s")
        #expect(large < 12 * small, "500 entities: \(small) s, 4,000 entities: \(large) s")
    }

    @Test(
        "a run into a store with the schema: four times the entities cost at most eight times (a quadratic step costs 16)"
    )
    func nearlyLinearRun() async throws {
        let small = try await Self.run(500)
        let large = try await Self.run(2000)
        print("rmap run, processor time: 500 entities \(small) s, 2,000 entities \(large) s")
        #expect(large < 8 * small, "500 entities: \(small) s, 2,000 entities: \(large) s")
    }
}
