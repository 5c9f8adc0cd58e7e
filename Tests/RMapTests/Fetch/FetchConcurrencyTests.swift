import Foundation
import RMap
import RMapSQLite
import Testing

/// How many fetches run at once, and the most seen.
final class FetchGauge: Sendable {
    private let state = Locked((running: 0, peak: 0))

    /// The most fetches seen running at once.
    var peak: Int { state.withLock { $0.peak } }

    func enter() {
        state.withLock { state in
            state.running += 1
            state.peak = max(state.peak, state.running)
        }
    }

    func leave() { state.withLock { $0.running -= 1 } }
}

/// A source that holds its slot for a while, then delivers one record per entity.
struct SlowSource: Source {
    let gauge: FetchGauge

    func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
        gauge.enter()
        defer { gauge.leave() }
        try await Task.sleep(for: .milliseconds(150))
        for entity in entities {
            let record = JSONValue.object(JSONObject([("id", .number("1"))]))
            try await context.deliver(Payload(origin: "slow", entity: entity.name, body: .records([record])))
        }
    }
}

/// Source groups fetch concurrently, at most `jobs` at once, and every group's records arrive.
@Suite("fetch concurrency")
struct FetchConcurrencyTests {
    @Test("at most `jobs` source groups fetch at once", arguments: [1, 2, 4])
    func jobsLimit(jobs: Int) async throws {
        let workspace = try RunWorkspace()
        let gauge = FetchGauge()
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        registry.register(source: "slow", options: ["group"]) { _, _ in SlowSource(gauge: gauge) }
        // Four entities, each its own source configuration: four groups in one wave.
        let entities = ["A", "B", "C", "D"].map { name in
            "  \(name):\n    source: { plugin: slow, group: \(name) }\n    attributes: { id: int }\n"
        }
        try workspace.write("m.yml", "rmap: 1\nentities:\n" + entities.joined())
        let model = try MappingLoader(environment: [:], catalog: registry.catalog).load([workspace.path("m.yml")])
        let store = PluginConfig(plugin: "sqlite", options: ["path": workspace.path("rmap.sqlite")])
        let started = ContinuousClock.now
        let result = try await Pipeline(model: model, registry: registry).run(RunOptions(jobs: jobs, store: store))
        let elapsed = ContinuousClock.now - started
        #expect(gauge.peak == jobs)
        #expect(elapsed >= .milliseconds(150 * (4 / jobs)))
        #expect(result.report.totals.inserted == 4)
        for table in ["as", "bs", "cs", "ds"] {
            #expect(try workspace.rows("SELECT id FROM \"\(table)\"") == [[.integer(1)]], "\(table)")
        }
    }

    @Test("entities sharing one source configuration are one group: one fetch for all of them")
    func sharedConfiguration() async throws {
        let workspace = try RunWorkspace()
        let calls = Locked<[[String]]>([])
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        registry.register(source: "recording", options: []) { _, _ in
            RecordingSource { names in calls.withLock { $0.append(names) } }
        }
        try workspace.write(
            "m.yml",
            "rmap: 1\nsource: { plugin: recording }\nentities:\n  A: { attributes: { id: int } }\n  B: { attributes: { id: int } }\n"
        )
        let model = try MappingLoader(environment: [:], catalog: registry.catalog).load([workspace.path("m.yml")])
        let store = PluginConfig(plugin: "sqlite", options: ["path": workspace.path("rmap.sqlite")])
        _ = try await Pipeline(model: model, registry: registry).run(RunOptions(jobs: 4, store: store))
        #expect(calls.withLock { $0 } == [["A", "B"]])
    }
}

/// A source that reports which entities it was asked for.
struct RecordingSource: Source {
    let called: @Sendable ([String]) -> Void

    func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
        called(entities.map(\.name))
    }
}
