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
    /// The reader of JSON:API pages (`format: jsonapi`); `nil` for Rails JSON.
    let jsonAPI: JSONAPIPage?
    /// When the run started: where the last `window` ends.
    private let started = Date()

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
        jsonAPI = settings.format == .jsonapi ? JSONAPIPage(model: model) : nil
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
            try await walk(index, context: context)
        }
    }

    /// Fetches every page of one index, delivering each.
    ///
    /// Each body streams to a temporary file: a top-level array is delivered as
    /// that file (the mapper streams it), any other body parsed whole. When the
    /// first page of `offset` or `page` paging tells the total, the other pages
    /// are fetched `concurrency` at a time (``PagePlan``).
    private func walk(_ index: Index, context: FetchContext) async throws {
        guard let window = settings.window else { return try await walkPages(index, context: context) }
        try await walk(index, in: window, until: started, context: context)
    }

    /// Fetches every page of one index (or of one window of it), delivering each.
    func walkPages(_ index: Index, context: FetchContext) async throws {
        var pager = Pager(settings: settings, base: index.url, body: index.body)
        var next: PageRequest? = pager.first
        var previous: SpoolFile?
        let entity = index.entity.name
        let remembered = settings.conditional ? try await context.runState.entries(scope: PageValidators.scope) : [:]
        while let request = next {
            let fetched: FetchedPage
            do {
                fetched = try await fetch(request, of: index, remembered: remembered, context: context)
            } catch {
                try ending(error, of: request, entity: entity, pastEnd: pager.endsAtNotFound, context: context)
                return
            }
            switch fetched {
            case .unchanged(let validators, let response, let identities):
                next = try await paging(request, entity) {
                    try await pager.next(
                        after: Pager.Page(
                            response: validators.completing(response), document: nil, repeated: false,
                            count: { identities.count }))
                }
                previous = nil
            case .page(let response, let document, let spool):
                if previous == nil,
                    let pages = PageTotal.pages(
                        in: response, document: document, style: settings.pagination, pageSize: settings.pageSize)
                {
                    context.progress(.expected(entity: entity, amount: pages, unit: .pages))
                }
                context.progress(.advanced(entity: entity, amount: 1, unit: .pages))
                var page = Pager.Page(
                    response: response, document: document,
                    repeated: await previous?.hasSameContents(as: spool) ?? false,
                    count: {
                        guard jsonAPI == nil else { return JSONAPIPage.count(in: document) }
                        return try await PageRecords.count(document: document, spool: spool, for: index.entity)
                    },
                    lastValue: { try await lastValue(document: document, spool: spool, of: index.entity) })
                if pager.pages == 0, settings.pagination == .offset || settings.pagination == .page {
                    // Counted once: a top-level array is read from its file to count it.
                    let records = try await page.count()
                    page.count = { records }
                    if let plan = PagePlan(response, document: document, records: records, settings: settings) {
                        try await paging(request, entity) { try plan.check(settings) }
                        try await fetch(
                            plan, after: spool, pager: pager, index: index, remembered: remembered, context: context)
                        return
                    }
                }
                next = try await paging(request, entity) { try await pager.next(after: page) }
                previous = spool
            }
        }
    }

    /// Fetches the pages of `plan` after the first (in `first`), `concurrency` at a time.
    private func fetch(
        _ plan: PagePlan, after first: SpoolFile, pager: Pager, index: Index, remembered: [String: RunStateEntry],
        context: FetchContext
    ) async throws {
        let entity = index.entity.name
        try await BoundedTasks.forEach(1..<plan.pages, limit: settings.concurrency) { number in
            let request = plan.request(number, pager: pager)
            let fetched: FetchedPage
            do {
                fetched = try await fetch(request, of: index, remembered: remembered, context: context)
            } catch {
                return try ending(error, of: request, entity: entity, pastEnd: true, context: context)
            }
            context.progress(.advanced(entity: entity, amount: 1, unit: .pages))
            if case .page(_, _, let spool) = fetched, await first.hasSameContents(as: spool) {
                try await paging(request, entity) {
                    throw plan.repeated(number, settings: settings)
                }
            }
        }
    }

    /// Ends an index quietly on an error answer that `on_status` skips (counted as skipped) or on a
    /// `404` past the end (`pastEnd`); throws the run's error otherwise.
    private func ending(
        _ error: any Error, of request: PageRequest, entity: String, pastEnd: Bool, context: FetchContext
    ) throws {
        guard let error = error as? HTTPError else { throw error }
        if error.status == 404, pastEnd { return }
        if let status = error.status, settings.statusActions[status] == .skip {
            context.skipped.record(entity: entity)
            context.progress(.note("\(error.request): skipped (on_status: {\(status): skip})"))
            return
        }
        throw FetchError(origin: error.request, message: "fetching \(entity): \(error.message)")
    }

    /// Runs the pager's `step`, its ``Pager/Failure`` failing the run as a fetch error of `request`.
    private func paging<T>(_ request: PageRequest, _ entity: String, _ step: () async throws -> T) async throws -> T {
        do {
            return try await step()
        } catch let error as Pager.Failure {
            throw FetchError(
                origin: "\(request.http.method.rawValue) \(client.redact(request.url))",
                message: "fetching \(entity): \(client.redactor.redact(error.message))")
        }
    }

    /// The `after_last` attribute's value in the page's last record.
    private func lastValue(document: JSONValue?, spool: SpoolFile, of entity: EntityMapping) async throws -> String? {
        guard case .cursor(let cursor) = settings.pagination, case .afterLast(let attribute) = cursor.origin,
            let keyPath = entity.attribute(named: attribute)?.keyPath
        else { return nil }
        let record =
            if let document { PageRecords.last(in: document, for: entity) } else { try await spool.lastElement() }
        return JSONKeyPath(segments: keyPath).text(in: record)
    }
}
