import Foundation
import RMap
import RMapSQLite
import Testing

/// A SQLite store that notes each call the pipeline makes to it (and its opening), with whether
/// the call ran inside a task: a thread of the cooperative pool runs tasks; the run's store
/// worker runs none.
final class TaskProbeStore: Store {
    /// One call: its name and whether a task ran it.
    struct Call: Sendable, Equatable {
        var name: String
        var inTask: Bool
    }

    private let wrapped: SQLiteStore
    private let calls: Locked<[Call]>

    /// Registers `probe` (option `path`): each opening and call is appended to `calls`.
    static func register(in registry: PluginRegistry, calls: Locked<[Call]>) {
        registry.register(store: "probe", options: ["path"]) { config in
            note("open", in: calls)
            return TaskProbeStore(try SQLiteStore(path: config["path"]?.scalar?.text ?? ""), calls: calls)
        }
    }

    private init(_ wrapped: SQLiteStore, calls: Locked<[Call]>) {
        self.wrapped = wrapped
        self.calls = calls
    }

    private static func note(_ name: String, in calls: Locked<[Call]>) {
        let inTask = withUnsafeCurrentTask { $0 != nil }
        calls.withLock { $0.append(Call(name: name, inTask: inTask)) }
    }

    func engine() throws -> any SQLEngine {
        Self.note("engine", in: calls)
        return try wrapped.engine()
    }

    func runState(scope: String) throws -> [String: RunStateEntry] {
        Self.note("runState \(scope)", in: calls)
        return try wrapped.runState(scope: scope)
    }

    func abandon() {
        Self.note("abandon", in: calls)
        wrapped.abandon()
    }
}

/// The pipeline opens and calls its store on the store's worker (``RunStore``), never from a
/// task on the cooperative pool: a store blocks on its files or connection.
@Suite("Pipeline: store calls off the cooperative pool")
struct StoreOffPoolTests {
    @Test("opening the store and its engine run in no task")
    func storeCallsRunInNoTask() async throws {
        let workspace = try RememberedPayloadTests.workspace()
        let calls = Locked<[TaskProbeStore.Call]>([])
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        TaskProbeStore.register(in: registry, calls: calls)
        let model = try MappingLoader(environment: [:], catalog: registry.catalog).load([workspace.path("m.yml")])
        var options = RunOptions()
        options.store = PluginConfig(plugin: "probe", options: ["path": workspace.path("rmap.sqlite")])

        let full = try await Pipeline(model: model, registry: registry).run(options)
        #expect(full.report.totals.inserted == 8)
        // A partial run with a changed file: its projects' owners are found in the store.
        try workspace.write("data/projects.json", #"[{"id": 5, "name": "Engine 2", "person_id": 1}]"#)
        options.only = ["XProject"]
        let partial = try await Pipeline(model: model, registry: registry).run(options)
        #expect(partial.report.danglingCount == 0)
        #expect(try workspace.rows("SELECT name FROM projects WHERE id = 5") == [[.text("Engine 2")]])

        let made = calls.withLock { $0 }
        let names = Set(made.map(\.name))
        for name in ["open", "engine"] {
            #expect(names.contains(name), "\(name) was not called: \(made)")
        }
        #expect(made.filter(\.inTask) == [], "called from a task on the cooperative pool")
    }
}
