import Foundation
import RMap
import RMapSQLite
import Testing

/// A source plugin a library user writes: `count` people named `prefix 1`, `prefix 2`, ...
struct GeneratedPeople: Source {
    let count: Int
    let prefix: String

    func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
        for entity in entities {
            let records = (1...count).map { number in
                JSONValue.object(JSONObject([("id", .number("\(number)")), ("name", .string("\(prefix) \(number)"))]))
            }
            try await context.deliver(Payload(origin: "generated", entity: entity.name, body: .records(records)))
        }
    }
}

/// A source that always fails.
struct BrokenSource: Source {
    func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
        throw FetchError(origin: "broken", message: "no connection")
    }
}

/// A stage that copies each project's owner's name into the project (it needs connected owners).
struct OwnerNameStage: Stage {
    let name = "owner-names"

    func run(on objects: StagedObjects, context: StageContext) async throws {
        try await objects.update("Project") { project, reader in
            let owner: String? = try reader.relatedObject(project, "owner")?["name"]
            try project.set("ownerName", to: owner.map(Value.string) ?? .null)
        }
    }
}

/// A stage that upper-cases the owner names the stage before it wrote.
struct ShoutStage: Stage {
    let name = "shout"

    func run(on objects: StagedObjects, context: StageContext) async throws {
        try await objects.update("Project") { project, _ in
            if let text: String = try project["ownerName"] {
                try project.set("ownerName", to: text.uppercased())
            }
        }
    }
}

/// A store a library user writes, the documented way (docs/plugins.md, "Stores"): its tables live
/// in a scratch SQLite file, whose engine the run stages, connects and merges in, and each write
/// transaction's commit writes the store's own form first: here, the names of the people it holds.
final class TallyStore: Store, @unchecked Sendable {
    /// The names of the people each committed write transaction left in the store.
    let writes = Locked<[[String]]>([])
    private var scratch: (file: String, engine: RecordingEngine)?

    func engine() throws -> any SQLEngine {
        if let scratch { return scratch.engine }
        let file = try PrivateFolder.newFile(prefix: "tally-", suffix: ".sqlite")
        let engine = RecordingEngine(try SQLiteStore(path: file).engine())
        engine.willCommitWrite = { [writes] sqlite in
            // The store's form: the names of its people.
            guard try !sqlite.columns(of: "people").isEmpty else { return }
            let rows = try sqlite.rows("SELECT name FROM people ORDER BY id", types: [.string])
            let names = rows.compactMap { if case .string(let name)? = $0.first { name } else { nil } }
            writes.withLock { $0.append(names) }
        }
        scratch = (file, engine)
        return engine
    }

    deinit {
        if let scratch { PrivateFolder.removeItem(scratch.file) }
    }
}

/// Plugins registered by a library user take part in a run: a source, a
/// transformer named in `transform:`, stages after connect, and a store.
@Suite("custom plugins")
struct CustomPluginTests {
    /// A registry with SQLite and the test's plugins.
    static func registry(store: TallyStore = TallyStore()) -> PluginRegistry {
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        registry.register(source: "generated", options: ["count", "prefix"]) { config, _ in
            GeneratedPeople(
                count: config["count"]?.scalar?.int ?? 0, prefix: config["prefix"]?.scalar?.text ?? "Person")
        }
        registry.register(source: "broken", options: []) { _, _ in BrokenSource() }
        registry.register(store: "tally", options: []) { _ in store }
        registry.register(
            transformer: "reverse",
            ClosureTransformer { value in
                guard case .string(let text) = value else { return nil }
                return .string(String(text.reversed()))
            })
        registry.register(transformer: "nonblank", ClosureTransformer { $0 == .string("") ? nil : $0 })
        return registry
    }

    /// Loads mapping text saved as `m.yml` in the workspace.
    static func model(_ yaml: String, in workspace: RunWorkspace, registry: PluginRegistry) throws -> MappingModel {
        try workspace.write("m.yml", yaml)
        return try MappingLoader(environment: [:], catalog: registry.catalog).load([workspace.path("m.yml")])
    }

    static let people = """
        rmap: 1
        source: { plugin: generated, count: 3, prefix: Ada }
        store: { plugin: sqlite, path: rmap.sqlite }
        entities:
          Person:
            attributes: { id: int, name: string }
        """

    @Test("a custom source's records are mapped and stored; its options are validated")
    func source() async throws {
        let workspace = try RunWorkspace()
        let registry = Self.registry()
        let model = try Self.model(Self.people, in: workspace, registry: registry)
        let result = try await Pipeline(model: model, registry: registry).run()
        #expect(result.report.totals.inserted == 3)
        #expect(
            try workspace.rows("SELECT id, name FROM people ORDER BY id") == [
                [.integer(1), .text("Ada 1")], [.integer(2), .text("Ada 2")], [.integer(3), .text("Ada 3")],
            ])
        #expect(throws: MappingError.self) {
            try Self.model(
                Self.people.replacingOccurrences(of: "prefix: Ada", with: "prefx: Ada"), in: workspace,
                registry: registry)
        }
    }

    @Test("a custom transformer named in `transform:` changes the stored value; nil rejects the record")
    func transformer() async throws {
        let workspace = try RunWorkspace([
            "people.json": #"[{"id": 1, "name": "Ada"}, {"id": 2, "name": ""}]"#
        ])
        let registry = Self.registry()
        let model = try Self.model(
            """
            rmap: 1
            source: { plugin: file, path: people.json }
            store: { plugin: sqlite, path: rmap.sqlite }
            entities:
              Person:
                attributes:
                  id: int
                  name: { type: string, transform: [reverse, nonblank] }
            """, in: workspace, registry: registry)
        let result = try await Pipeline(model: model, registry: registry).run()
        #expect(try workspace.rows("SELECT id, name FROM people ORDER BY id") == [[.integer(1), .text("adA")]])
        #expect(result.report.recordErrors.map(\.attribute) == ["name"])
        #expect(result.report.recordErrors.first?.message == #"transformer 'nonblank' cannot transform """#)
    }

    @Test("custom stages run after connect, in registration order, and their changes are stored")
    func stages() async throws {
        let workspace = try RunWorkspace([
            "projects.json":
                #"[{"id": 5, "title": "Engine", "person_id": 2}, {"id": 6, "title": "Loom", "person_id": 3}]"#
        ])
        let registry = Self.registry()
        registry.register(stage: OwnerNameStage())
        registry.register(stage: ShoutStage())
        let model = try Self.model(
            """
            rmap: 1
            source: { plugin: generated, count: 2, prefix: Ada }
            store: { plugin: sqlite, path: rmap.sqlite }
            entities:
              Person:
                attributes: { id: int, name: string }
              Project:
                source: { plugin: file, path: projects.json }
                attributes: { id: int, title: string, personId: int, ownerName: string }
                relationships:
                  owner: { to_one: Person, connect: { foreign_key: { personId: id } } }
            """, in: workspace, registry: registry)
        let events = Locked<[String]>([])
        let result = try await Pipeline(model: model, registry: registry).run { event in
            if case .stageStarted(let stage) = event { events.withLock { $0.append(stage) } }
        }
        #expect(events.withLock { $0 } == ["fetch", "connect", "owner-names", "shout", "persist"])
        #expect(
            try workspace.rows("SELECT id, owner_name FROM projects ORDER BY id") == [
                [.integer(5), .text("ADA 2")], [.integer(6), .null],
            ])
        #expect(result.report.danglingCount == 1)
    }

    @Test("a custom store over a scratch engine writes its own form at commit; a dry run commits nothing")
    func store() async throws {
        let workspace = try RunWorkspace()
        let tally = TallyStore()
        let registry = Self.registry(store: tally)
        let model = try Self.model(Self.people, in: workspace, registry: registry)
        let dry = try await Pipeline(model: model, registry: registry)
            .run(RunOptions(dryRun: true, store: PluginConfig(plugin: "tally")))
        #expect(dry.report.entities.first?.inserted == 3)
        #expect(tally.writes.withLock { $0 }.allSatisfy { $0.isEmpty })
        let result = try await Pipeline(model: model, registry: registry)
            .run(RunOptions(store: PluginConfig(plugin: "tally")))
        #expect(tally.writes.withLock { $0 }.last == ["Ada 1", "Ada 2", "Ada 3"])
        #expect(result.report.entities.first?.inserted == 3)
        #expect(workspace.bytes() == nil)
    }

    @Test("a source that throws fails the run, and the store commits nothing")
    func failingSource() async throws {
        let workspace = try RunWorkspace()
        let tally = TallyStore()
        let registry = Self.registry(store: tally)
        let model = try Self.model(
            Self.people.replacingOccurrences(of: "plugin: generated, count: 3, prefix: Ada", with: "plugin: broken"),
            in: workspace, registry: registry)
        await #expect(throws: FetchError.self) {
            try await Pipeline(model: model, registry: registry).run(RunOptions(store: PluginConfig(plugin: "tally")))
        }
        #expect(tally.writes.withLock { $0 }.allSatisfy { $0.isEmpty })
    }
}
