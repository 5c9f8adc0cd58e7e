/// Carries out a ``PushPlan`` one acknowledgement at a time, whatever sends
/// the requests: hands out requests whose dependencies succeeded, and records
/// each answer in the store right away (its own transaction), so an
/// interrupted push loses no change and never resends an acknowledged one.
///
/// A created parent's real identity is written into the foreign keys of the
/// requests still to come before they are built.
///
/// ```swift
/// let schedule = try sync.schedule()
/// while let (index, request) = schedule.next() {
///     let answer = try await send(request)
///     schedule.succeeded(index, answer: answer, location: nil)
/// }
/// ```
public final class PushSchedule {
    private enum State { case waiting, running, done, failed }

    /// The plan being carried out.
    public let plan: PushPlan
    private let store: SyncStore
    private let suffix: (String) -> String
    private var states: [State]
    private var unmet: [Int]
    private var dependants: [[Int]]
    private var ready: [Int]
    private var readyHead = 0
    private var rewrites: [(table: Int, from: [Value], to: [Value])] = []
    /// The changes that failed so far, in the order they failed.
    public private(set) var failures: [PushFailure] = []
    /// How many requests were acknowledged.
    public private(set) var acknowledged = 0

    init(plan: PushPlan, store: SyncStore, suffix: @escaping (String) -> String) {
        self.plan = plan
        self.store = store
        self.suffix = suffix
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
    public func next() -> (index: Int, request: PlannedRequest)? {
        while readyHead < ready.count {
            let index = ready[readyHead]
            readyHead += 1
            states[index] = .running
            do {
                var change = plan.requests[index].change
                for rewrite in rewrites {
                    change = try store.rewriting(change, table: rewrite.table, from: rewrite.from, to: rewrite.to)
                }
                var request = try RequestBuilder(sync: store.sync, suffix: suffix).request(for: change)
                request.dependencies = plan.requests[index].dependencies
                return (index, request)
            } catch {
                fail(index, status: nil, messages: ["\(error)"])
            }
        }
        return nil
    }

    /// Records a successful answer: the body (`nil` when empty) and the `Location` header.
    public func succeeded(_ index: Int, request: PlannedRequest, answer: JSONValue?, location: String?) {
        do {
            if let rewrite = try store.acknowledge(
                request, answer: answer, location: location, suffix: suffix(request.change.entity))
            {
                let table = try store.sync.entity(named: request.change.entity).tableIndex
                rewrites.append((table, rewrite.from, rewrite.to))
            }
            states[index] = .done
            acknowledged += 1
            for dependant in dependants[index] {
                unmet[dependant] -= 1
                if unmet[dependant] == 0 { makeReady(dependant) }
            }
        } catch {
            fail(index, status: nil, messages: ["\(error)"])
        }
    }

    /// Records a failed request: a `422` body's validation errors, or `message`.
    public func failed(_ index: Int, status: Int?, answer: JSONValue?, message: String) {
        let messages = status == 422 ? ValidationMessages.parse(answer) : []
        fail(index, status: status, messages: messages.isEmpty ? [message] : messages)
    }

    /// Every change still pending once nothing more can run: failures, then
    /// requests never sent (waiting for a failed dependency, or interrupted).
    public var pending: [PushFailure] {
        failures
            + states.indices.filter { states[$0] == .waiting || states[$0] == .running }.map { index in
                let request = plan.requests[index]
                let blocker = request.dependencies.first { states[$0] == .failed }
                return PushFailure(
                    object: request.change.label, request: "\(request.method) \(request.path)", status: nil,
                    messages: [blocker.map { "not sent: \(plan.requests[$0].change.label) failed" } ?? "not sent"])
            }
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
        let request = plan.requests[index]
        failures.append(
            PushFailure(
                object: request.change.label, request: "\(request.method) \(request.path)", status: status,
                messages: messages))
    }
}

extension SyncStore {
    /// A schedule that carries out the current plan.
    ///
    /// - Parameter suffix: the suffix of each entity's paths (`.json` unless its http source sets another).
    public func schedule(suffix: @escaping (String) -> String = { _ in ".json" }) throws -> PushSchedule {
        PushSchedule(plan: try plan(suffix: suffix), store: self, suffix: suffix)
    }
}
