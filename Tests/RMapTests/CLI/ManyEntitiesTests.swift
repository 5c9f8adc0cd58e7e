import Foundation
import RMap
import Testing

/// A run's cost in the number of entities: every step before, between and after the
/// payloads (the graph schema, the fetch plan, the mapper's plans, the store's layout, the
/// mapping's fingerprint) is linear in the entities, so a model of 10,000 entities plans in
/// well under 2 s with the release binary (docs/performance.md). Each entity has a payload
/// file of its own and a foreign key to the one before; the memory store keeps the engine's
/// own schema work out of the measure.
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

    /// The processor time of `rmap run` over `count` entities into the memory store.
    static func cpuSeconds(_ count: Int) async throws -> Double {
        let directory = try workspace(count)
        let binary = try CLIRunner.binary().path
        let mapping = directory.url.appendingPathComponent("m.yml").path
        let log = directory.url.appendingPathComponent("run.log").path
        let ended = try await ProcessSlots.shared.holding {
            try await DedicatedThread.run {
                try ChildProcess(binary, ["run", mapping, "--store", "memory:", "--quiet"], log: log).wait()
            }.get()
        }
        #expect(ended.status == 0, "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        return ended.cpuSeconds
    }

    @Test("eight times the entities cost at most twelve times the processor time (a quadratic step costs 64)")
    func linear() async throws {
        let small = try await Self.cpuSeconds(500)
        let large = try await Self.cpuSeconds(4000)
        print("rmap run, processor time: 500 entities \(small) s, 4,000 entities \(large) s")
        #expect(large < 12 * small, "500 entities: \(small) s, 4,000 entities: \(large) s")
    }
}
