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

    private let settings: HTTPSourceSettings
    private let client: HTTPClient
    private let links: [String: ParentLink]

    /// Makes the source from its `source:` block.
    ///
    /// - Throws: ``PluginError`` naming the option's `file:line:col` when an option is malformed
    ///   or a placeholder cannot be tied to a parent's identity.
    public init(config: PluginConfig, model: MappingModel) throws {
        try self.init(config: config, model: model) { _ in }
    }

    /// Makes the source, letting tests shorten or record the retry waits.
    init(config: PluginConfig, model: MappingModel, tuning: (inout RetryPolicy) -> Void) throws(PluginError) {
        let settings = try HTTPSourceSettings(config)
        var retry = RetryPolicy(retries: settings.retries)
        tuning(&retry)
        self.settings = settings
        client = HTTPClient(
            headers: settings.headers, auth: settings.auth, timeout: settings.timeout, retry: retry,
            redactor: Redactor(secrets: model.secrets.union(settings.secrets)),
            transport: CurlTransport(), scope: settings.scope,
            maxBodyBytes: settings.maxBodyBytes)
        var links: [String: ParentLink] = [:]
        for entity in model.entities where entity.source == config {
            links[entity.name] = try ParentLink.resolve(entity, params: settings.params, model: model)
        }
        self.links = links
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
    private struct Index: Sendable {
        var entity: EntityMapping
        var url: URL
        var fill: [String: Value]
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
        let concurrency = settings.concurrency
        try await withThrowingTaskGroup(of: Void.self) { group in
            var running = 0
            for index in indexes {
                if running == concurrency {
                    try await group.next()
                    running -= 1
                }
                group.addTask { try await walk(index, context: context) }
                running += 1
            }
            try await group.waitForAll()
        }
    }

    /// Fetches every page of one index, delivering each.
    ///
    /// Each body streams to a temporary file: a top-level array is delivered as
    /// that file (the mapper streams it), any other body parsed whole.
    private func walk(_ index: Index, context: FetchContext) async throws {
        var pager = Pager(
            style: settings.pagination, pageSize: settings.pageSize, base: index.url, maxPages: settings.maxPages)
        var next: URL? = pager.first
        var previous: SpoolFile?
        let entity = index.entity.name
        // A cursor-paged index reads its next cursor from the body, which a `304` does not carry.
        let conditional: Bool = if case .cursor = settings.pagination { false } else { true }
        let remembered = conditional ? try await context.runState.entries(scope: PageValidators.scope) : [:]
        while let url = next {
            let origin = client.redact(url)
            let validators = remembered[origin].flatMap {
                PageValidators($0.value)?.restored(for: withCredentials(url))
            }
            let request = validators.map { $0.conditional(HTTPRequest(.get, url: url)) } ?? HTTPRequest(.get, url: url)
            let spool: SpoolFile
            do { spool = try SpoolFile() } catch {
                throw FetchError(origin: "GET \(origin)", message: "fetching \(entity): \(error)")
            }
            do {
                let response = try await client.send(request, bodyFile: spool.url) { note in
                    context.progress(.note(note))
                }
                if let validators, response.isNotModified(request) {
                    // Unchanged since the last run: its objects count as seen; its validators stay as stored.
                    let identities = validators.identityKeys(of: index.entity)
                    context.runState.unchanged(entity: entity, identities: identities)
                    context.progress(.fetched(entity: entity, origin: origin))
                    next = try await pager.next(
                        after: validators.completing(response), document: nil, repeated: false
                    ) { identities.count }
                    previous = nil
                    continue
                }
                // A top-level array stays in the file for the mapper to stream; anything else is parsed whole.
                let document = try await readingJSON(spool, request: request, response: response) {
                    try await spool.page()
                }
                let body = document.map(Payload.Body.document) ?? .file(path: spool.url.path)
                let identities = try await readingJSON(spool, request: request, response: response) {
                    try await context.deliverIdentified(
                        Payload(origin: origin, entity: entity, body: body, fill: index.fill))
                }
                if conditional,
                    let validators = PageValidators(
                        response, entity: entity, identities: identities, redactor: client.redactor),
                    validators.json != remembered[origin]?.value
                {
                    var update = RunStateUpdate()
                    update.set(scope: PageValidators.scope, key: origin, to: validators.json)
                    context.runState.record(update)
                }
                context.progress(.fetched(entity: entity, origin: origin))
                if previous == nil,
                    let pages = PageTotal.pages(in: response, style: settings.pagination, pageSize: settings.pageSize)
                {
                    context.progress(.expected(entity: entity, amount: pages, unit: .pages))
                }
                context.progress(.advanced(entity: entity, amount: 1, unit: .pages))
                let repeated = await previous?.hasSameContents(as: spool) ?? false
                next = try await pager.next(after: response, document: document, repeated: repeated) {
                    guard let document else { return try await spool.arrayCount() }
                    return PageRecords.count(in: document, for: index.entity)
                }
                previous = spool
            } catch let error as HTTPError {
                throw FetchError(origin: error.request, message: "fetching \(entity): \(error.message)")
            } catch let error as Pager.Failure {
                throw FetchError(
                    origin: "GET \(origin)", message: "fetching \(entity): \(client.redactor.redact(error.message))")
            }
        }
    }

    /// `url` as the server sees it: with the API key the client adds to the query of a trusted
    /// origin's requests (where a remembered `Link` header's redacted secrets come from).
    private func withCredentials(_ url: URL) -> URL {
        guard let auth = client.auth, client.scope.trusts(url, first: url) else { return url }
        return auth.apply(to: HTTPRequest(.get, url: url)).url
    }

    /// Runs `work` on the page in `spool`; a body that is not JSON fails as the request's error,
    /// with the position and the start of the body.
    private func readingJSON<T>(
        _ spool: SpoolFile, request: HTTPRequest, response: HTTPResponse, _ work: () async throws -> T
    ) async throws -> T {
        do {
            return try await work()
        } catch let error as JSONError {
            throw client.invalidJSON(error, for: request, response: response, body: await spool.prefix(4000))
        }
    }

    /// The index of `entity` for one parent's `values`, with the entity's stored cursor for that parent.
    private func index(
        of entity: EntityMapping, values: [String: String], fill: [String: Value], context: FetchContext
    ) -> Index {
        let cursor = context.cursors.parameter(for: entity, fill: fill)
        return Index(
            entity: entity, url: url(for: entity, values: values, model: context.model, cursor: cursor), fill: fill)
    }

    /// The index URL of `entity`, placeholders filled with `values`: path, suffix, `params`, `order`
    /// and, for an incremental fetch, the stored cursor as `incremental.param`.
    func url(
        for entity: EntityMapping, values: [String: String], model: MappingModel,
        cursor: (name: String, value: String)? = nil
    ) -> URL {
        let path = Template.fill(entity.nestedPath ?? entity.path, with: values, transform: Template.segment)
        var items: [(name: String, value: String)] = []
        for param in settings.params {
            let name = param.isList ? "\(param.name)[]" : param.name
            items += param.values.map { (name, Template.fill($0, with: values)) }
        }
        if !entity.sort.isEmpty {
            let terms = entity.sort.map { key in
                "\(Self.queryKey(key.attribute, of: entity, model: model)) \(key.descending ? "desc" : "asc")"
            }
            items.append(("order", terms.joined(separator: ",")))
        }
        if let cursor { items.append(cursor) }
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        let base = URL(string: settings.site.absoluteString + "/" + trimmed + settings.suffix) ?? settings.site
        return QueryEncoding.appending(items, to: base)
    }

    /// The payload key a sort attribute goes by on the server: its JSON key, or its column for a key path.
    static func queryKey(_ attribute: String, of entity: EntityMapping, model: MappingModel) -> String {
        guard let mapping = entity.attribute(named: attribute) else { return model.inflector.underscore(attribute) }
        return mapping.keyPath.count == 1 ? mapping.keyPath[0] : mapping.column
    }
}
