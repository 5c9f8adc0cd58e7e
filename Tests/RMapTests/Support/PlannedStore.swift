import RMapSQLite

@testable import RMap

/// A SQLite store that, before each write transaction commits, asks SQLite how it plans one
/// query, chosen from the queries the transaction asked (`chosen`, nil for none), and keeps
/// the plan's steps: what tests of the indexes a run makes are checked by.
final class PlannedStore: Store, @unchecked Sendable {
    /// The steps of each committed write's plan (none when no query was chosen).
    let plans = Locked<[[String]]>([])
    private let file: String
    private let chosen: @Sendable ([String]) -> String?
    private var recording: RecordingEngine?

    init(file: String, chosen: @escaping @Sendable (_ asked: [String]) -> String?) {
        self.file = file
        self.chosen = chosen
    }

    func engine() throws -> any SQLEngine {
        if let recording { return recording }
        let engine = RecordingEngine(try SQLiteStore(path: file).engine())
        engine.willCommitWrite = { [plans, chosen, engine] sqlite in
            let asked = engine.queries.withLock { queries in
                defer { queries.removeAll() }
                return chosen(queries)
            }
            guard let asked else { return plans.withLock { $0.append([]) } }
            let plan = try sqlite.rows("EXPLAIN QUERY PLAN \(asked)", types: [.int, .int, .int, .string])
            let steps = plan.compactMap { row -> String? in
                if case .string(let step)? = row.last { step } else { nil }
            }
            plans.withLock { $0.append(steps) }
        }
        recording = engine
        return engine
    }

    /// Runs the mapping file at `path` into this store.
    @discardableResult
    func run(mapping path: String) async throws -> RunResult {
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        registry.register(store: "planned", options: []) { _ in self }
        let model = try MappingLoader(environment: [:], catalog: registry.catalog).load([path])
        var options = RunOptions()
        options.store = PluginConfig(plugin: "planned")
        return try await Pipeline(model: model, registry: registry).run(options)
    }
}
