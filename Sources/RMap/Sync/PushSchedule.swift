/// Carries out a ``PushPlan`` one acknowledgement at a time, whatever sends
/// the requests: hands out requests whose dependencies' answers are recorded,
/// each first recorded as in flight in the store's push journal (its own
/// transaction), and records each answer right away (its own transaction), so
/// an interrupted push loses no change and never resends an acknowledged one.
///
/// A created parent's real identity is written into the foreign keys of the
/// requests still to come before they are built. A request sent by an earlier
/// push whose answer was never recorded (killed, or the acknowledgement
/// failed) keeps its idempotency key (``PlannedRequest/idempotencyKey``).
///
/// ```swift
/// let schedule = try sync.schedule()
/// while let (index, request) = schedule.next() {
///     let answer = try await send(request)
///     schedule.succeeded(index, request: request, answer: answer, location: nil)
/// }
/// ```
public final class PushSchedule {
    private enum State { case waiting, running, done, failed }

    /// The plan being carried out.
    public let plan: PushPlan
    private let store: SyncStore
    private let inFlight: InFlightRequests
    private let suffix: (String) -> String
    private var states: [State]
    private var unmet: [Int]
    private var dependants: [[Int]]
    private var ready: [Int]
    private var readyHead = 0
    private var rewrites: [(table: Int, from: [Value], to: [Value])] = []
    /// Journal entries left by earlier pushes, by change key.
    private let journal: [String: PushJournal.Entry]
    /// What the open batch did (``batch(_:)``): the requests handed out and the answers recorded.
    private var batchLog: (handedOut: [Int], acknowledged: [(index: Int, status: Int)])?
    /// True once a batch failed: nothing more is handed out.
    private var stopped = false
    /// The changes that failed so far, in the order they failed.
    public private(set) var failures: [PushFailure] = []
    /// How many requests were acknowledged.
    public private(set) var acknowledged = 0

    init(plan: PushPlan, store: SyncStore, suffix: @escaping (String) -> String) throws {
        self.plan = plan
        self.store = store
        self.suffix = suffix
        inFlight = store.inFlight
        journal = try inFlight.entries(for: plan)
        states = Array(repeating: .waiting, count: plan.requests.count)
        let unmet = plan.requests.map(\.dependencies.count)
        var dependants = Array(repeating: [Int](), count: plan.requests.count)
        for (index, request) in plan.requests.enumerated() {
            for dependency in request.dependencies { dependants[dependency].append(index) }
        }
        self.unmet = unmet
        self.dependants = dependants
        ready = unmet.indices.filter { unmet[$0] == 0 }
    }

    /// A request whose dependencies all succeeded, marked as running, with
    /// the real identities of parents created so far; `nil` when none is ready.
    ///
    /// The request is recorded in the push journal (committed) before it is
    /// returned; a `POST` comes with its idempotency key. A request that
    /// cannot be built or recorded fails and is not returned.
    public func next() -> (index: Int, request: PlannedRequest)? {
        while !stopped, readyHead < ready.count {
            let index = ready[readyHead]
            readyHead += 1
            states[index] = .running
            do {
                var change = plan.requests[index].change
                for rewrite in rewrites {
                    change = try store.acknowledgement.rewriting(
                        change, table: rewrite.table, from: rewrite.from, to: rewrite.to)
                }
                var request = try RequestBuilder(sync: store.sync, suffix: suffix).request(for: change)
                request.dependencies = plan.requests[index].dependencies
                let entry = try inFlight.record(request, earlier: journal)
                if request.method == "POST" { request.idempotencyKey = entry.idempotencyKey }
                batchLog?.handedOut.append(index)
                return (index, request)
            } catch {
                fail(index, status: nil, messages: ["not sent: \(error)"])
            }
        }
        return nil
    }

    /// The position of the request ``next()`` considers first (the lowest ready one); `nil` when none is ready.
    public var upcoming: Int? { !stopped && readyHead < ready.count ? ready[readyHead] : nil }

    /// Records a successful answer: the body (`nil` when empty) and the `Location` header.
    ///
    /// When the store cannot record it (e.g. another process holds its lock
    /// longer than the busy timeout), the change stays pending with the
    /// answer's `status` and a message saying so; its journal entry stays too,
    /// so the next push reconciles (same idempotency key) instead of duplicating.
    public func succeeded(
        _ index: Int, request: PlannedRequest, answer: JSONValue?, location: String?, status: Int = 200
    ) {
        do {
            if let rewrite = try store.acknowledge(
                request, answer: answer, location: location, suffix: suffix(request.change.entity))
            {
                let table = try store.sync.entity(named: request.change.entity).tableIndex
                // Only a table that foreign keys point to has references to rewrite in later requests.
                if store.sync.references.contains(where: { $0.destination == table }) {
                    rewrites.append((table, rewrite.from, rewrite.to))
                }
            }
            states[index] = .done
            acknowledged += 1
            batchLog?.acknowledged.append((index, status))
            for dependant in dependants[index] {
                unmet[dependant] -= 1
                if unmet[dependant] == 0 { makeReady(dependant) }
            }
        } catch {
            fail(index, status: status, messages: [Self.unrecorded(status, error)])
        }
    }

    /// Runs `body`, whose calls of ``next()``, ``succeeded(_:request:answer:location:status:)``
    /// and ``failed(_:status:answer:message:)`` write the store in one transaction instead of one
    /// each: the journal entries of the requests `next()` hands out commit together (send them
    /// only once this returns `true`), and so do the answers recorded.
    ///
    /// When the transaction fails, none of it is kept: the requests handed out in it fail as not
    /// sent, the answers recorded in it fail as accepted but not recorded (their journal entries
    /// stay, so the next push reconciles), and no further request is handed out.
    ///
    /// - Returns: whether the batch was committed.
    @discardableResult
    public func batch(_ body: () -> Void) -> Bool {
        batchLog = ([], [])
        defer { batchLog = nil }
        do {
            try store.transactions.batched(body)
            return true
        } catch {
            let log = batchLog ?? ([], [])
            for (index, status) in log.acknowledged {
                acknowledged -= 1
                fail(index, status: status, messages: [Self.unrecorded(status, error)])
            }
            for index in log.handedOut where states[index] == .running {
                fail(index, status: nil, messages: ["not sent: \(error)"])
            }
            stopped = true
            return false
        }
    }

    /// The message of a change the server accepted whose answer the store could not record.
    private static func unrecorded(_ status: Int, _ error: any Error) -> String {
        "the server accepted it (HTTP \(status)) but the store could not record the answer: \(error); "
            + "push again to reconcile"
    }

    /// Records a failed request: the body's validation errors (a Rails `422`, a JSON:API
    /// `errors[]`), or `message`.
    ///
    /// A request the server answered with a status below 500 changed nothing
    /// there: its journal entry is dropped, and the next push sends it as new.
    /// Without an answer (timeout, lost connection, cancelled) or with a 5xx the
    /// entry stays: the next push sends it again with the same idempotency key.
    /// So does a `POST` answered `409` or `425`
    /// (``PlannedRequest/isInFlight(answered:)``): an earlier attempt with its
    /// key is still being processed, and a new key would create the object twice.
    public func failed(_ index: Int, status: Int?, answer: JSONValue?, message: String) {
        let request = plan.requests[index]
        if let status, request.isInFlight(answered: status) {
            fail(index, status: status, messages: [Self.stillInFlight(status)])
            return
        }
        if let status, status < 500 {
            // Best effort: an entry left behind only means the next push sends the same key again.
            try? inFlight.forget(request.change)
        }
        let messages = store.sync.messages(status: status, answer: answer, of: plan.requests[index].change.entity)
        fail(index, status: status, messages: messages.isEmpty ? [message] : messages)
    }

    /// The message of a `POST` whose idempotency key the server is still processing.
    private static func stillInFlight(_ status: Int) -> String {
        "the server is still processing an earlier attempt with its idempotency key (HTTP \(status)); "
            + "push again to reconcile"
    }

    /// Every change still pending once nothing more can run: failures, then
    /// requests handed out whose answers were never recorded, then requests
    /// never sent (waiting for a failed dependency, or interrupted).
    public var pending: [PushFailure] {
        failures
            + states.indices.filter { states[$0] == .running }.map { index in
                failure(index, status: nil, ["sent, no answer recorded: push again to reconcile"])
            }
            + states.indices.filter { states[$0] == .waiting }.map { index in
                let blocker = plan.requests[index].dependencies.first { states[$0] == .failed }
                return failure(
                    index, status: nil,
                    [blocker.map { "not sent: \(plan.requests[$0].change.label) failed" } ?? "not sent"])
            }
    }

    private func failure(_ index: Int, status: Int?, _ messages: [String]) -> PushFailure {
        let request = plan.requests[index]
        return PushFailure(
            object: request.change.label, request: "\(request.method) \(request.path)", status: status,
            messages: messages)
    }

    /// Queues a request in plan order among those not handed out yet.
    private func makeReady(_ index: Int) {
        var low = readyHead
        var high = ready.count
        while low < high {
            let middle = (low + high) / 2
            if ready[middle] < index { low = middle + 1 } else { high = middle }
        }
        ready.insert(index, at: low)
    }

    private func fail(_ index: Int, status: Int?, messages: [String]) {
        states[index] = .failed
        failures.append(failure(index, status: status, messages))
    }
}

extension SyncStore {
    /// A schedule that carries out the current plan.
    ///
    /// - Parameter suffix: the suffix of each entity's paths (default: its `http` source's
    ///   `suffix`, `.json` without one; ``MappingModel/pathSuffix(of:)``).
    public func schedule(suffix: ((String) -> String)? = nil) throws -> PushSchedule {
        let suffix = suffix ?? { [model] in model.pathSuffix(of: $0) }
        return try PushSchedule(plan: try plan(suffix: suffix), store: self, suffix: suffix)
    }
}
