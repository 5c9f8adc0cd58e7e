import Foundation

/// The push journal as a push reads and writes it (``PushJournal``): which requests of a plan
/// an earlier push sent, each request recorded as in flight before it is sent, and dropped when
/// the server refused it.
///
/// ```swift
/// let inFlight = InFlightRequests(sync: schema, transactions: transactions)
/// let earlier = try inFlight.entries(for: plan)
/// let entry = try inFlight.record(plan.requests[0], earlier: earlier)
/// ```
struct InFlightRequests {
    let sync: SyncSchema
    let transactions: SyncTransactions

    /// The journal entries of `plan`'s requests, by change key. Entries that
    /// no request of the plan matches by change and method (the change was
    /// acknowledged, edited away or deleted since) are dropped. One transaction.
    func entries(for plan: PushPlan) throws -> [String: PushJournal.Entry] {
        var methods: [String: String] = [:]
        for request in plan.requests { methods[try journalKey(request.change)] = request.method }
        return try transactions.write(journal: true) {
            let engine = try transactions.engine
            var kept: [String: PushJournal.Entry] = [:]
            for entry in try PushJournal.entries(on: engine) {
                guard methods[entry.change] == entry.method else {
                    try PushJournal.delete(entry.change, on: engine)
                    continue
                }
                kept[entry.change] = entry
            }
            return kept
        }
    }

    /// Records `request` as in flight, in its own committed transaction, before it is sent: a
    /// request sent by an earlier push (an entry of `earlier`) keeps its idempotency key, a new
    /// one gets a fresh key.
    ///
    /// - Returns: the entry as stored.
    func record(_ request: PlannedRequest, earlier: [String: PushJournal.Entry]) throws -> PushJournal.Entry {
        let key = try journalKey(request.change)
        var entry =
            earlier[key]
            ?? PushJournal.Entry(
                change: key, method: request.method, idempotencyKey: UUID().uuidString.lowercased(), attempts: 0)
        entry.attempts += 1
        try transactions.write(journal: true) { try PushJournal.record(entry, on: transactions.engine) }
        return entry
    }

    /// Drops the journal entry of a request the server refused (it changed nothing there).
    func forget(_ change: SyncChange) throws {
        let key = try journalKey(change)
        try transactions.write(journal: true) { try PushJournal.delete(key, on: transactions.engine) }
    }

    /// How many creations the journal holds (``SyncStore/journalledCreations()``), read from the
    /// store as it is.
    func creations() throws -> Int {
        try transactions.readAsItIs {
            try PushJournal.entries(on: transactions.engine).filter { $0.method == "POST" }.count
        }
    }

    private func journalKey(_ change: SyncChange) throws -> String {
        change.journalKey(table: try sync.entity(named: change.entity).table.name)
    }
}
