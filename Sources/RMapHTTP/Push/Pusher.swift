import Foundation
public import RMap

/// Sends a store's local changes to the entities' Rails-style APIs
/// (MAPPING.md §6): `POST`, `PUT`/`PATCH` and `DELETE` in dependency order, at
/// most `jobs` at once, each answer acknowledged in the store.
///
/// The site, suffix, headers and credentials are each entity's `http` source
/// options. Each request is recorded in the store's push journal before it
/// leaves; a `POST` carries an idempotency key (the entity's
/// `push: {idempotency_header: ...}`, default `Idempotency-Key`), the same on
/// every attempt, so a push after a crash does not create an object twice.
/// The journal entries of up to ``window`` requests and the answers received
/// since the last commit are written in one transaction (a push of thousands
/// of changes commits the store a few times a second, not twice a request);
/// each request still leaves only after its entry is committed.
/// A `DELETE` answered `404` or `410` counts as done (the object is already
/// gone, e.g. after an interrupted push).
///
/// ```swift
/// let sync = SyncStore(store: try SQLiteStore(path: "crm.sqlite"), model: model)
/// let report = try await Pusher(model: model).push(sync)
/// for failure in report.pending { print(failure) }   // CRMProject 61: name can't be blank
/// ```
public struct Pusher {
    /// The model whose entities are pushed.
    public let model: MappingModel
    /// The most requests in flight at once.
    public let jobs: Int
    /// The most requests recorded in the push journal ahead of sending: `8 * jobs`, at least 64.
    public var window: Int { max(64, 8 * jobs) }
    private let targets: PushTargets

    /// Creates a pusher.
    ///
    /// - Parameters:
    ///   - model: the mapping model; each entity's `http` source says where its changes go.
    ///   - jobs: the most requests in flight at once (default 4).
    ///   - transport: the network (default: libcurl with keep-alive, at most `jobs` connections
    ///     per site); tests inject faults here.
    ///   - tuning: adjusts each client's retry policy (tests shorten the waits).
    public init(
        model: MappingModel, jobs: Int = 4, transport: (any HTTPTransport)? = nil,
        tuning: (inout RetryPolicy) -> Void = { _ in }
    ) {
        self.model = model
        self.jobs = max(1, jobs)
        targets = PushTargets(model: model, transport: transport, tuning: tuning)
    }

    /// The plan a push would carry out, with each entity's suffix; nothing is sent (the same as
    /// ``SyncStore/plan(suffix:)``).
    public func plan(_ store: SyncStore) throws -> PushPlan {
        try store.plan()
    }

    /// Sends every pending change and acknowledges each success in the store.
    ///
    /// A request leaves only once the answers of the requests it depends on
    /// are recorded, whatever `jobs`. Cancelling the task stops new requests;
    /// those in flight are recorded as they finish. Nothing is sent when an
    /// entity with changes has no http source.
    ///
    /// Runs on the caller's actor (`nonisolated(nonsending)`), so an actor that owns
    /// the store, such as a live `Session`, can push it.
    ///
    /// - Returns: what was acknowledged and what is still pending.
    /// - Throws: ``SyncError`` for an entity without an http source, or the store's errors.
    nonisolated(nonsending) public func push(_ store: SyncStore) async throws -> PushReport {
        let schedule = try store.schedule()
        for request in schedule.plan.requests { _ = try targets.target(request.change.entity) }
        var sent = 0
        // In the journal, not sent yet, last in plan order first.
        var recorded: [(index: Int, request: PlannedRequest)] = []
        var answers: [(answer: PushAnswer, request: PlannedRequest)] = []  // not recorded yet
        var inFlight: [Int: PlannedRequest] = [:]
        let parents = Set(schedule.plan.requests.flatMap(\.dependencies))
        await withTaskGroup(of: PushAnswer.self) { group in
            while true {
                // A parent's answer is recorded at once: its dependants go next, in plan order, as they always did.
                if recorded.count < jobs || answers.count >= window || inFlight.isEmpty
                    || answers.contains(where: { parents.contains($0.answer.index) })
                {
                    var waiting = answers
                    var fresh: [(index: Int, request: PlannedRequest)] = []
                    answers = []
                    let committed = schedule.batch {
                        for (answer, request) in waiting {
                            record(answer.result, index: answer.index, request: request, schedule: schedule)
                        }
                        waiting = []
                        while !Task.isCancelled, let upcoming = schedule.upcoming,
                            recorded.count + fresh.count < window || upcoming < recorded.first?.index ?? .max,
                            let next = schedule.next()
                        {
                            fresh.append(next)
                        }
                    }
                    // A batch that could not begin took no answer: each is recorded on its own, or reported.
                    for (answer, request) in waiting {
                        record(answer.result, index: answer.index, request: request, schedule: schedule)
                    }
                    if committed { recorded = (recorded + fresh).sorted { $0.index > $1.index } }
                }
                while inFlight.count < jobs, !Task.isCancelled, let (index, request) = recorded.popLast() {
                    guard let (client, http) = prepared(request) else {
                        schedule.failed(index, status: nil, answer: nil, message: "no URL for \(request.path)")
                        continue
                    }
                    inFlight[index] = request
                    sent += 1
                    group.addTask { await PushAnswer.send(http, planned: request, index: index, client: client) }
                }
                guard !inFlight.isEmpty, let answer = await group.next(),
                    let request = inFlight.removeValue(forKey: answer.index)
                else { break }
                answers.append((answer, request))
            }
        }
        // Cancelled: their journal entries stay, so the next push sends them with the same keys.
        for (index, _) in recorded.reversed() { schedule.failed(index, status: nil, answer: nil, message: "not sent") }
        return PushReport(sent: sent, acknowledged: schedule.acknowledged, pending: schedule.pending)
    }

    /// The client and the HTTP request of a planned request, with its idempotency header; `nil` without a URL.
    private func prepared(_ request: PlannedRequest) -> (HTTPClient, HTTPRequest)? {
        guard let target = try? targets.target(request.change.entity),
            let url = URL(string: target.site.absoluteString + request.path)
        else { return nil }
        let method = HTTPMethod(rawValue: request.method) ?? .put
        var headers = HTTPHeaders()
        if let key = request.idempotencyKey, let entity = model.entity(named: request.change.entity) {
            headers = HTTPHeaders([(entity.idempotencyHeader, key)])
        }
        var http =
            request.body.map { HTTPRequest(method, url: url, headers: headers, json: $0) }
            ?? HTTPRequest(method, url: url, headers: headers)
        if target.format == .jsonapi, http.body != nil {
            http.headers["Content-Type"] = DocumentFormat.jsonAPIMediaType
        }
        return (target.client, http)
    }

    private func record(
        _ result: Result<HTTPResponse, HTTPError>, index: Int, request: PlannedRequest, schedule: PushSchedule
    ) {
        switch result {
        case .success(let response):
            let answer = response.body.isEmpty ? nil : try? JSONReader.parse(response.body, origin: request.path)
            schedule.succeeded(
                index, request: request, answer: answer, location: response.headers["Location"],
                status: response.status)
        case .failure(let error) where request.method == "DELETE" && [404, 410].contains(error.status):
            schedule.succeeded(index, request: request, answer: nil, location: nil, status: error.status ?? 404)
        case .failure(let error):
            let answer = error.response.flatMap { try? JSONReader.parse($0.body, origin: request.path) }
            schedule.failed(index, status: error.status, answer: answer, message: error.message)
        }
    }
}

/// What a push did.
public struct PushReport: Sendable, Equatable {
    /// Requests sent.
    public var sent: Int
    /// Requests the server accepted and the store recorded.
    public var acknowledged: Int
    /// Changes still pending, one per object, with the server's reasons.
    public var pending: [PushFailure]

    /// Creates a report.
    public init(sent: Int, acknowledged: Int, pending: [PushFailure]) {
        self.sent = sent
        self.acknowledged = acknowledged
        self.pending = pending
    }

    /// True when nothing is left to push.
    public var isComplete: Bool { pending.isEmpty }
}
