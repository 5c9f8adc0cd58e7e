import Foundation

@testable import RMap

/// `rmap run`'s streamed path on a mapping and JSON payloads given inline: each ``run(_:options:)``
/// goes through ``Pipeline`` (map, stage, connect and merge in the store's engine) into a scratch
/// store (a SQLite file by default) in a temporary directory, and ``reader()`` reads what it stored.
///
/// A payload given as JSON text has the origin `<collection>.json`, as the `file` source names the
/// file it reads by default, so that dangling references and errors name `projects.json#1`.
final class StreamedRun: Sendable {
    /// The directory holding the store; removed with the run.
    let directory: URL
    /// The mapping.
    let model: MappingModel
    /// The store the runs write and the readers read.
    let kind: StoreKind
    /// The run whose store this one shares (it removes the directory), if any.
    private let owner: StreamedRun?
    /// The transformers the runs' registry holds.
    private let transformers: [String: any Transformer]

    /// A scratch store of `kind` for the mapping `yaml`, run with `transformers`; with `other`, the
    /// same store as `other`'s, run with another mapping of its tables.
    init(
        _ yaml: String, kind: StoreKind = .sqlite, over other: StreamedRun? = nil,
        transformers: [String: any Transformer] = BuiltinTransformers.all
    ) throws {
        self.transformers = transformers
        directory = try other?.directory ?? StoreFixtures.temporaryDirectory()
        self.kind = other?.kind ?? kind
        owner = other
        let registry = PluginRegistry.standard()
        model = try MappingLoader(environment: [:], catalog: registry.catalog).load(documents: [("test.yml", yaml)])
    }

    deinit {
        if owner == nil { try? FileManager.default.removeItem(at: directory) }
    }

    /// One run of `payloads` (entity name, JSON text), delivered in this order: only the entities
    /// given a payload are fetched (completely); the others' stored objects take part as stored.
    ///
    /// - Returns: the run's report: counts, rejected records, connect errors, dangling references.
    @discardableResult
    func run(_ payloads: KeyValuePairs<String, String>, options: RunOptions = RunOptions()) async throws -> RunReport {
        let collections = Dictionary(model.entities.map { ($0.name, $0.collection) }) { first, _ in first }
        return try await run(
            payloads: try payloads.map { entity, json in
                let origin = "\(collections[entity] ?? entity).json"
                return Payload(
                    origin: origin, entity: entity, body: .document(try JSONReader.parse(json, origin: origin)))
            }, options: options)
    }

    /// One run of `payloads` as a source delivers them, in this order: only the entities given a
    /// payload are fetched; a payload naming no entity of the model comes with the first one fetched.
    ///
    /// - Returns: the run's report.
    @discardableResult
    func run(payloads: [Payload], options: RunOptions = RunOptions()) async throws -> RunReport {
        let registry = PluginRegistry()
        for (name, transformer) in transformers { registry.register(transformer: name, transformer) }
        let names = Set(model.entities.map(\.name))
        let inline = InlineSource(payloads: payloads, entities: names)
        registry.register(source: "inline", options: []) { _, _ in inline }
        let (kind, directory) = (kind, directory)
        registry.register(store: "scratch", options: []) { _ in try kind.open(directory) }
        var runModel = Self.inline(model, fetching: Set(payloads.map(\.entity)))
        runModel.stages = model.stages
        var options = options
        options.store = PluginConfig(plugin: "scratch")
        return try await Pipeline(model: runModel, registry: registry).run(options).report
    }

    /// `model` with the source `inline` for the entities `fetched` and none for the others (their
    /// stored objects take part as stored), into `store`.
    static func inline(_ model: MappingModel, fetching fetched: Set<String>, store: PluginConfig? = nil) -> MappingModel
    {
        let entities = model.entities.map { mapping in
            var mapping = mapping
            mapping.source = fetched.contains(mapping.name) ? PluginConfig(plugin: "inline") : nil
            return mapping
        }
        return MappingModel(
            entities: entities, store: store, inflector: model.inflector, files: model.files, secrets: model.secrets)
    }

    /// A reader of what the runs stored.
    func reader() throws -> StoreReader {
        StoreReader(store: try kind.open(directory), model: model)
    }

    /// The stored object of `entity` with the integer identity `id`.
    func object(_ entity: String, _ id: Int64) async throws -> StoreObject {
        guard let object = try await reader().object(entity, identity: [.int(id)]) else {
            throw ConnectFixtures.Failure(description: "no \(entity) \(id) in the store")
        }
        return object
    }

    /// The integer identities of the objects the relationship `name` of `entity` `id` holds, in
    /// the order the store keeps them (a to-one's object, or none).
    func ids(_ entity: String, _ id: Int64, _ name: String) async throws -> [Int64] {
        Self.ids(try await object(entity, id).relationship(name).fetchAll())
    }

    /// The integer identities of `objects` (-1 for one whose identity is not an integer).
    static func ids(_ objects: [StoreObject]) -> [Int64] {
        objects.map { if case .int(let id)? = $0.identity.first { id } else { -1 } }
    }

    /// How many links the relationships of `entity`'s objects hold, summed over `relationships`.
    func links(_ entity: String, _ relationships: [String]) async throws -> Int {
        var count = 0
        for object in try await reader().objects(of: entity).fetchAll() {
            for name in relationships { count += try await object.relationship(name).fetchAll().count }
        }
        return count
    }
}

/// The payloads of a ``StreamedRun``, delivered as a source plugin does.
private struct InlineSource: Source {
    let payloads: [Payload]
    /// The model's entity names.
    let entities: Set<String>

    func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
        for (number, entity) in entities.enumerated() {
            for payload in payloads
            where payload.entity == entity.name || (number == 0 && !self.entities.contains(payload.entity)) {
                try await context.deliver(payload)
            }
        }
    }
}
