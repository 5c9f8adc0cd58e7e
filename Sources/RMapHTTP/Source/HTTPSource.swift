import Foundation
public import RMap

/// The `http` source: fetches JSON from a REST API with Rails and
/// ActiveResource conventions, adapted to other APIs by its options.
///
/// Each entity's index is `GET {site}/{path}{suffix}` (suffix `.json` unless
/// set), with the entity's `sort:` as `order=first_name asc,email desc`,
/// `params:`, and the paging parameters of `paginate:`. Every page is
/// delivered as a document; the mapper selects its records (`records:`, a
/// top-level array, or a Rails wrapper). An entity with `nested_path:`, or
/// with a `params:` value holding a placeholder (`person_id: "{id}"`), is
/// fetched once per parent identity, each parent with its own paging, at most
/// `concurrency` indexes at a time. Parents in the same batch are fetched first.
///
/// ```yaml
/// source:
///   plugin: http
///   site: https://crm.example.com
///   auth: { bearer: "${CRM_TOKEN}" }
///   page_size: 100
///   paginate: page
/// ```
public struct HTTPSource: Source {
    /// The option keys the plugin reads.
    public static let options = HTTPSourceSettings.keys

    let settings: HTTPSourceSettings
    let client: HTTPClient
    private let links: [String: ParentLink]
    /// Fetches the pages of each index.
    private let walker: IndexWalker

    /// Makes the source from its `source:` block.
    ///
    /// - Throws: ``PluginError`` naming the option's `file:line:col` when an option is malformed
    ///   or a placeholder cannot be tied to a parent's identity.
    public init(config: PluginConfig, model: MappingModel) throws {
        try self.init(config: config, model: model, pool: ClientPool()) { _ in }
    }

    /// Makes the source, its budgets and tokens shared through `pool`, letting tests shorten or
    /// record the retry waits.
    init(
        config: PluginConfig, model: MappingModel, pool: ClientPool = ClientPool(),
        tuning: (inout RetryPolicy) -> Void
    ) throws(PluginError) {
        let settings = try HTTPSourceSettings(config)
        self.settings = settings
        client = settings.client(model: model, pool: pool, transport: CurlTransport(), tuning: tuning)
        var links: [String: ParentLink] = [:]
        for entity in model.entities where entity.source == config {
            if entity.query != nil {
                throw PluginError.invalidOptions(
                    "http source: 'query' of '\(entity.name)' is for entities of a graphql source", at: entity.mark)
            }
            links[entity.name] = try ParentLink.resolve(entity, params: settings.params, model: model)
            try settings.checkPaging(of: entity, config: config)
        }
        self.links = links
        let jsonAPI = settings.format == .jsonapi ? JSONAPIPage(model: model) : nil
        walker = IndexWalker(
            fetcher: PageFetcher(settings: settings, client: client, jsonAPI: jsonAPI), started: Date())
    }

    public func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
        var remaining = entities
        while !remaining.isEmpty {
            let names = Set(remaining.map(\.name))
            let ready = remaining.filter { entity in
                guard let parent = links[entity.name]?.parent else { return true }
                return !names.contains(parent) || parent == entity.name
            }
            let wave = ready.isEmpty ? remaining : ready
            try await fetch(wave: wave, context: context)
            remaining.removeAll { entity in wave.contains { $0.name == entity.name } }
        }
    }

    // MARK: - Indexes

    /// One index to walk: an entity, or an entity's children of one parent.
    struct Index: Sendable {
        var entity: EntityMapping
        var url: URL
        /// The JSON body of `method: post` indexes.
        var body: JSONValue?
        var fill: [String: Value]
        /// What the run state knows the index by: its URL without an incremental cursor, redacted.
        var key: String
    }

    private func fetch(wave: [EntityMapping], context: FetchContext) async throws {
        var indexes: [Index] = []
        for entity in wave {
            guard let link = links[entity.name] else {
                indexes.append(index(of: entity, values: [:], fill: [:], context: context))
                continue
            }
            for identity in await context.identities(link.parent) {
                let (values, fill) = link.values(for: identity)
                indexes.append(index(of: entity, values: values, fill: fill, context: context))
            }
        }
        try await BoundedTasks.forEach(indexes, limit: settings.concurrency) { index in
            try await walker.walk(index, context: context)
        }
    }
}
