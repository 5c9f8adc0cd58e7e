import Foundation
import RMap
import Testing

@testable import RMapHTTP

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs the http source against a real server and keeps what it delivered.
///
/// Parents' identities come from the `id` of the records delivered so far,
/// as the mapper would report them.
final class FetchHarness: Sendable {
    private struct State {
        var payloads: [Payload] = []
        var events: [ProgressEvent] = []
        var waits: [Duration] = []
    }

    let model: MappingModel
    private let state = Locked(State())

    /// Loads `yaml` (as `test.yml`) with the http source registered.
    init(_ yaml: String, environment: [String: String] = [:]) throws {
        let registry = PluginRegistry()
        registry.registerHTTP()
        model = try MappingLoader(environment: environment, catalog: registry.catalog)
            .load(documents: [("test.yml", yaml)])
    }

    /// Makes the source of `entity`; retry waits are recorded and last `realWait` at most.
    func source(for entity: String, realWait: Duration = .zero, now: Date? = nil) throws -> HTTPSource {
        let config = try #require(model.entity(named: entity)?.source)
        return try HTTPSource(config: config, model: model) { policy in
            policy.baseDelay = .milliseconds(50)
            if let now { policy.now = { now } }
            policy.sleep = { [self] wait in
                state.withLock { $0.waits.append(wait) }
                try await Task.sleep(for: min(wait, realWait))
            }
        }
    }

    /// Fetches `entities` (in one call, as the pipeline does for one source) and returns the payloads.
    @discardableResult
    func fetch(_ entities: [String], realWait: Duration = .zero, now: Date? = nil) async throws -> [Payload] {
        let mappings = try entities.map { try #require(model.entity(named: $0)) }
        let source = try source(for: entities[0], realWait: realWait, now: now)
        let context = FetchContext(
            model: model,
            deliver: { [self] payload in
                let kept = try FetchHarness.read(payload)
                state.withLock { $0.payloads.append(kept) }
            },
            identities: { [self] entity in
                state.withLock { state in
                    state.payloads.filter { $0.entity == entity }.flatMap { FetchHarness.records(of: $0) }
                        .compactMap { $0.object?["id"] }.compactMap(FetchHarness.identity)
                }
            },
            progress: { [self] event in state.withLock { $0.events.append(event) } })
        try await source.fetch(mappings, context: context)
        return payloads
    }

    /// Fetches `entity` alone as the children of `parents`, handing each payload to `deliver`.
    func fetch(
        _ entity: String, parents: [IdentityKey], deliver: @escaping @Sendable (Payload) -> Void = { _ in }
    ) async throws {
        let source = try source(for: entity)
        let mapping = try #require(model.entity(named: entity))
        let context = FetchContext(
            model: model, deliver: deliver, identities: { _ in parents }, progress: { _ in })
        try await source.fetch([mapping], context: context)
    }

    var payloads: [Payload] { state.withLock { $0.payloads } }
    var events: [ProgressEvent] { state.withLock { $0.events } }
    var waits: [Duration] { state.withLock { $0.waits } }

    /// The records of `entity`'s payloads in delivery order (at the entity's `records:` key path when it has one).
    func records(_ entity: String) -> [JSONValue] {
        let mapping = model.entity(named: entity)
        return payloads.filter { $0.entity == entity }.flatMap { payload -> [JSONValue] in
            guard let mapping, mapping.records != nil, case .document(let document) = payload.body else {
                return FetchHarness.records(of: payload)
            }
            return (try? RecordSelection.records(in: document, for: mapping, origin: payload.origin)) ?? []
        }
    }

    /// The `.fetched` origins in order.
    var fetchedOrigins: [String] {
        events.compactMap { event in
            if case .fetched(_, let origin) = event { return origin }
            return nil
        }
    }

    /// The `.note` texts in order.
    var notes: [String] {
        events.compactMap { event in
            if case .note(let text) = event { return text }
            return nil
        }
    }

    /// `payload` with a streamed file's records read (the file goes when delivery returns),
    /// throwing as the mapper does when the file is not JSON.
    static func read(_ payload: Payload) throws -> Payload {
        guard case .file(let path) = payload.body else { return payload }
        var records: [JSONValue] = []
        try JSONFileStream(path: path).forEach { records.append($0.value) }
        var kept = payload
        kept.body = .records(records)
        return kept
    }

    /// A payload's records: a top-level array, `data`, or the array under an object's only key.
    static func records(of payload: Payload) -> [JSONValue] {
        if case .records(let records) = payload.body { return records }
        guard case .document(let document) = payload.body else { return [] }
        if let items = document.array { return items }
        if let object = document.object {
            if let items = object["data"]?.array { return items }
            if object.members.count == 1, let items = object.members[0].value.array { return items }
            return [document]
        }
        return []
    }

    private static func identity(_ value: JSONValue) -> IdentityKey? {
        guard case .number(let text) = value, let number = Int64(text) else { return nil }
        return IdentityKey([.int(number)])
    }
}

/// Plain requests to the test servers, without the code under test.
enum Plain {
    /// `GET url` parsed as JSON.
    static func json(_ url: URL) async throws -> JSONValue {
        let (data, _) = try await RepeatableRequest.data(from: url)
        return try JSONReader.parse(data, origin: url.absoluteString)
    }

    /// The request log of a server (`GET /_requests`): each entry's `path`, for entries whose path contains `marker`.
    static func requestedPaths(_ server: URL, containing marker: String) async throws -> [String] {
        let log = try await json(server.appendingPathComponent("_requests"))
        return (log.array ?? []).compactMap { $0.object?["path"]?.string }.filter { $0.contains(marker) }
    }

    /// The fault server's logged requests whose path contains `marker`.
    static func requests(_ server: URL, containing marker: String) async throws -> [JSONObject] {
        let log = try await json(server.appendingPathComponent("_requests"))
        return (log.array ?? []).compactMap(\.object).filter { $0["path"]?.string?.contains(marker) ?? false }
    }

    /// Waits until the fault server has logged a request whose path contains `marker` (it logs
    /// a request as it arrives, before answering); fails the test after 2 minutes.
    static func awaitRequest(_ server: URL, containing marker: String) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while try await requests(server, containing: marker).isEmpty {
            try #require(ContinuousClock.now < deadline, "no request for \(marker) within 2 minutes")
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

/// `records` in the order of their `id`s (pages fetched concurrently arrive in any order).
func byID(_ records: [JSONValue]) -> [JSONValue] {
    records.sorted { first, second in
        let ids = [first, second].map { record -> Int in
            if case .number(let digits)? = record.object?["id"] { return Int(digits) ?? 0 }
            return 0
        }
        return ids[0] < ids[1]
    }
}

/// A fresh marker for paths and parameters, so that parallel tests find their own requests in the logs.
func marker() -> String {
    "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
}
