import Foundation
public import RMap

/// The `graphql` source: fetches each entity with its GraphQL query, posted to one endpoint,
/// page after page by Relay's `pageInfo { hasNextPage endCursor }`.
///
/// Each entity has a `query:` and a `records:` key path, which may run through lists
/// (`data.allPeople.edges.node`). The query receives `$after`, the `endCursor` of the page
/// before (`null` first), and `$first`, the source's `page_size`, when it declares them. The
/// `pageInfo` read is the one beside the first list the records' path runs through
/// (`data.allPeople.pageInfo`). Connections nested in the query are mapped like nested
/// payloads (a relationship's `key:` may run through lists too: `projects.edges.node`) and are
/// not paged. Authentication, pacing, statuses and limits are the `http` source's.
///
/// ```yaml
/// source: { plugin: graphql, endpoint: https://api.example.com/graphql, page_size: 100 }
/// entities:
///   Person:
///     query: "query($first: Int, $after: String) { allPeople(first: $first, after: $after) {
///       pageInfo { hasNextPage endCursor } edges { node { databaseId firstName } } } }"
///     records: data.allPeople.edges.node
/// ```
public struct GraphQLSource: Source {
    /// The option keys the plugin reads.
    public static let options = GraphQLSettings.keys

    private let settings: GraphQLSettings
    private let client: HTTPClient
    private let queries: [String: GraphQLQuery]

    /// Makes the source from its `source:` block.
    ///
    /// - Throws: ``PluginError`` naming the option's `file:line:col` when an option is malformed,
    ///   or the entity's when it lacks `query:` or `records:`.
    public init(config: PluginConfig, model: MappingModel) throws {
        try self.init(config: config, model: model, pool: ClientPool()) { _ in }
    }

    /// Makes the source, its budgets and tokens shared through `pool`, letting tests shorten or
    /// record the retry waits.
    init(
        config: PluginConfig, model: MappingModel, pool: ClientPool, tuning: (inout RetryPolicy) -> Void
    ) throws(PluginError) {
        settings = try GraphQLSettings(config)
        client = settings.client(model: model, pool: pool, transport: CurlTransport(), tuning: tuning)
        var queries: [String: GraphQLQuery] = [:]
        for entity in model.entities where entity.source == config {
            queries[entity.name] = try GraphQLQuery(entity)
        }
        self.queries = queries
    }

    public func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
        try await BoundedTasks.forEach(entities, limit: settings.concurrency) { entity in
            try await fetch(entity, context: context)
        }
    }

    /// Fetches every page of one entity, delivering each page's records.
    private func fetch(_ entity: EntityMapping, context: FetchContext) async throws {
        guard let query = queries[entity.name] else { return }
        var cursor: String?
        var seen: Set<String> = []
        var page = 0
        repeat {
            page += 1
            guard page <= settings.maxPages else {
                throw failure(
                    entity,
                    "stopped after max_pages (\(settings.maxPages)) pages; raise max_pages if the query really has that many"
                )
            }
            guard let document = try await answer(query, after: cursor, entity: entity, context: context) else {
                return
            }
            let origin = "\(client.redact(settings.endpoint)) (\(entity.name), page \(page))"
            guard let found = ListPath.values(at: query.records[...], in: document) else {
                throw failure(
                    entity,
                    "no records at '\(query.records.joined(separator: "."))' in the answer (records: in the mapping)")
            }
            let records = found.map { ListPath.collapsing($0, for: entity, model: context.model) }
            try await context.deliver(Payload(origin: origin, entity: entity.name, body: .records(records)))
            context.progress(.fetched(entity: entity.name, origin: origin))
            context.progress(.advanced(entity: entity.name, amount: 1, unit: .pages))
            cursor = try next(after: document, query: query, entity: entity, seen: &seen)
        } while cursor != nil
    }

    /// The answer to the page after `cursor`; `nil` when `on_status` skips it.
    ///
    /// - Throws: ``FetchError`` for a failed request or an answer with GraphQL `errors`.
    private func answer(
        _ query: GraphQLQuery, after cursor: String?, entity: EntityMapping, context: FetchContext
    ) async throws -> JSONValue? {
        let request = query.request(endpoint: settings.endpoint, after: cursor, pageSize: settings.pageSize)
        let response: HTTPResponse
        do {
            response = try await client.send(request) { note in context.progress(.note(note)) }
        } catch {
            if let status = error.status, settings.statusActions[status] == .skip {
                context.skipped.record(entity: entity.name)
                context.progress(.note("\(error.request): skipped (on_status: {\(status): skip})"))
                return nil
            }
            // A query the server cannot run is often answered 400 with the GraphQL errors.
            if let body = error.response?.body, let document = try? JSONReader.parse(body, origin: "answer") {
                try check(document, entity: entity)
            }
            throw FetchError(origin: error.request, message: "fetching \(entity.name): \(error.message)")
        }
        let document = try client.json(response, for: request)
        try check(document, entity: entity)
        return document
    }

    /// Fails an answer that holds GraphQL `errors`, with the first one's message.
    private func check(_ document: JSONValue, entity: EntityMapping) throws(FetchError) {
        guard let errors = document.object?["errors"]?.array, let first = errors.first else { return }
        let message = first.object?["message"]?.string ?? JSONWriter.serialize(first)
        let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
        throw failure(entity, "the GraphQL answer has errors: \(client.redactor.redact(message))\(more)")
    }

    /// The cursor of the next page, or `nil` after the last.
    ///
    /// - Throws: ``FetchError`` when the answer has a next page the query cannot ask for, or
    ///   repeats a cursor.
    private func next(
        after document: JSONValue, query: GraphQLQuery, entity: EntityMapping, seen: inout Set<String>
    ) throws -> String? {
        let info = ListPath.connection(of: query.records, in: document)?["pageInfo"]?.object
        guard info?["hasNextPage"] == .bool(true) else { return nil }
        guard query.usesAfter else {
            throw failure(entity, "the answer has a next page, but the query does not use $after to ask for it")
        }
        guard let cursor = info?["endCursor"]?.string, !cursor.isEmpty else {
            throw failure(entity, "the answer has a next page, but no pageInfo.endCursor")
        }
        guard seen.insert(cursor).inserted else {
            throw failure(entity, "the server sent the same endCursor twice (\(cursor)); stopping instead of looping")
        }
        return cursor
    }

    private func failure(_ entity: EntityMapping, _ message: String) -> FetchError {
        FetchError(origin: "POST \(client.redact(settings.endpoint))", message: "fetching \(entity.name): \(message)")
    }
}
