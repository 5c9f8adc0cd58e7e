import Foundation

// MARK: - The push journal

extension SyncStore {
    /// The journal entries of `plan`'s requests, by change key. Entries that
    /// no request of the plan matches by change and method (the change was
    /// acknowledged, edited away or deleted since) are dropped. One transaction.
    func journal(for plan: PushPlan) throws -> [String: PushJournal.Entry] {
        var methods: [String: String] = [:]
        for request in plan.requests { methods[try journalKey(request.change)] = request.method }
        return try write(journal: true) {
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
    func recordInFlight(_ request: PlannedRequest, earlier: [String: PushJournal.Entry]) throws
        -> PushJournal.Entry
    {
        let key = try journalKey(request.change)
        var entry =
            earlier[key]
            ?? PushJournal.Entry(
                change: key, method: request.method, idempotencyKey: UUID().uuidString.lowercased(), attempts: 0)
        entry.attempts += 1
        try write(journal: true) { try PushJournal.record(entry, on: engine) }
        return entry
    }

    /// Drops the journal entry of a request the server refused (it changed nothing there).
    func forgetInFlight(_ change: SyncChange) throws {
        let key = try journalKey(change)
        try write(journal: true) { try PushJournal.delete(key, on: engine) }
    }

    /// How many creations the push journal holds: `POST`s that a push sent, or was about to
    /// send, whose answers are not recorded (the push was killed, could not record them, or is
    /// still waiting). The server may hold their objects already; a run stores those beside the
    /// local rows, and the next push pairs each with its row by its idempotency key (docs/push.md,
    /// "Runs and pushes that meet"). A store without a journal holds none, and is not given one
    /// (nor the model's tables) by asking.
    ///
    /// - Throws: the store's errors.
    public func journalledCreations() throws -> Int {
        try readAsItIs { try PushJournal.entries(on: engine).filter { $0.method == "POST" }.count }
    }

    private func journalKey(_ change: SyncChange) throws -> String {
        change.journalKey(table: try sync.entity(named: change.entity).table.name)
    }
}
