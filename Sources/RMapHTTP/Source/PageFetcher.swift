import Foundation
import RMap

/// Fetches one page of an ``HTTPSource`` index: sends it (conditionally when its validators are
/// remembered), reads it as JSON and delivers it to the mapper.
struct PageFetcher: Sendable {
    let settings: HTTPSourceSettings
    let client: HTTPClient
    /// The reader of JSON:API pages (`format: jsonapi`); `nil` for Rails JSON.
    let jsonAPI: JSONAPIPage?

    /// One page of an index, fetched and delivered.
    enum FetchedPage {
        /// A `304` to a conditional request: the page's objects, remembered, count as seen.
        case unchanged(PageValidators, HTTPResponse, [IdentityKey])
        /// A page delivered: its answer, its body when not a top-level array, and the file it is in.
        case page(HTTPResponse, JSONValue?, SpoolFile)
    }

    /// Sends `request` (conditionally when its validators are remembered) and delivers the page.
    ///
    /// - Throws: ``HTTPError`` for an answer that is not a success, ``FetchError`` for an
    ///   answer that `error_when` calls an error.
    func fetch(
        _ request: PageRequest, of index: HTTPSource.Index, remembered: [String: RunStateEntry], context: FetchContext
    ) async throws -> FetchedPage {
        let entity = index.entity.name
        let origin = client.redact(request.url)
        let validators = remembered[origin].flatMap {
            PageValidators($0.value)?.restored(for: withCredentials(request.url))
        }
        let plain = request.http
        let http = validators.map { $0.conditional(plain) } ?? plain
        let spool: SpoolFile
        do { spool = try SpoolFile() } catch {
            throw FetchError(origin: "\(http.method.rawValue) \(origin)", message: "fetching \(entity): \(error)")
        }
        let response = try await client.send(http, bodyFile: spool.url) { note in context.progress(.note(note)) }
        if let validators, response.isNotModified(http) {
            // Unchanged since the last run: its objects count as seen; its validators stay as stored.
            let identities = validators.identityKeys(of: index.entity)
            context.runState.unchanged(entity: entity, identities: identities)
            context.progress(.fetched(entity: entity, origin: origin))
            return .unchanged(validators, response, identities)
        }
        // A top-level array stays in the file for the mapper to stream; anything else is parsed whole.
        let document = try await readingJSON(spool, request: http, response: response) { try await spool.page() }
        if let error = settings.errorWhen?.error(in: document) {
            throw FetchError(
                origin: "\(http.method.rawValue) \(origin)",
                message: "fetching \(entity): the answer is an error: \(client.redactor.redact(error))")
        }
        let identities = try await readingJSON(spool, request: http, response: response) {
            try await deliver(document, in: spool, of: index, origin: origin, request: http, context: context)
        }
        if settings.conditional,
            let validators = PageValidators(
                response, entity: entity, identities: identities, redactor: client.redactor),
            validators.json != remembered[origin]?.value
        {
            var update = RunStateUpdate()
            update.set(scope: PageValidators.scope, key: origin, to: validators.json)
            context.runState.record(update)
        }
        context.progress(.fetched(entity: entity, origin: origin))
        return .page(response, document, spool)
    }

    /// Delivers a page and returns its objects' identities: a Rails body as one payload (a
    /// top-level array streamed from its file), a JSON:API document as one payload per entity
    /// its resources belong to (their identities are not remembered: such pages are not
    /// requested conditionally).
    ///
    /// - Throws: ``FetchError`` for a JSON:API body that is not a document or names an unknown type.
    private func deliver(
        _ document: JSONValue?, in spool: SpoolFile, of index: HTTPSource.Index, origin: String, request: HTTPRequest,
        context: FetchContext
    ) async throws -> [IdentityKey] {
        guard let jsonAPI else {
            let body = document.map(Payload.Body.document) ?? .file(path: spool.url.path)
            return try await context.deliverIdentified(
                Payload(origin: origin, entity: index.entity.name, body: body, fill: index.fill))
        }
        let payloads: [Payload]
        do {
            payloads = try jsonAPI.payloads(in: document, for: index.entity, origin: origin, fill: index.fill)
        } catch {
            throw FetchError(
                origin: "\(request.method.rawValue) \(origin)",
                message: "fetching \(index.entity.name): \(client.redactor.redact(error.description))")
        }
        for payload in payloads { try await context.deliver(payload) }
        return []
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

    /// `url` as the server sees it: with the API key the client adds to the query of a trusted
    /// origin's requests (where a remembered `Link` header's redacted secrets come from).
    private func withCredentials(_ url: URL) -> URL {
        guard let auth = client.auth, client.scope.trusts(url, first: url) else { return url }
        return auth.apply(to: HTTPRequest(.get, url: url)).url
    }
}
